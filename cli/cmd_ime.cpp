// tpugen ime: the SpacemiT matrix extension of spec/ime.yaml. `ime asm`
// assembles a program in the seed's syntax (and, for a profile, checks
// every instruction's rules); `ime disasm` writes a binary back as text;
// `ime run` runs a program on the reference model, playing the host core.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "ime/program.h"
#include "model/ime/machine.h"
#include "spec/ime_spec.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

using nlohmann::json;

struct ImeOpts {
  std::string spec;  ///< the IME spec; empty: ime.yaml beside the ISA spec
  std::string in, out, profile;
  bool bf16 = false;
};

struct ImeRunOpts {
  std::string program, vregs_in, vregs_out, mem_in, mem_out, json, engine = "model";
};

/// The memory a run gets without --mem-in: 1 MiB of zeros.
constexpr std::size_t kDefaultMemoryBytes = std::size_t{1} << 20;

const ImeProfile& profile_of(const ImeSpec& spec, const std::string& name) {
  if (const ImeProfile* p = spec.profile(name)) return *p;
  std::string names;
  for (const auto& p : spec.profiles) names += (names.empty() ? "" : ", ") + p.name;
  throw Error("cli.ime", fmt::format("--profile {} is none of the spec's profiles ({})", name, names));
}

bool is_binary(const std::string& path) { return std::filesystem::path(path).extension() == ".bin"; }

ime::Program load(const ImeSpec& spec, const std::string& path) {
  return is_binary(path) ? ime::read_binary_file(path) : ime::assemble_file(spec, path);
}

/// "FILE:LINE: instruction K `text`" (a binary's words have no line).
std::string where(const ime::Program& p, const ime::Stop& s) {
  const std::string at = s.line > 0 ? fmt::format("{}:{}", p.source, s.line) : p.source;
  return fmt::format("{}: instruction {} ({:08x} `{}`)", at, s.index, s.word, s.text);
}

std::string describe(const ime::Exception& e) {
  return fmt::format("{} ({}): {}", e.cause == "access_fault" ? "access fault" : "illegal instruction", e.rule,
                     e.message);
}

int run_asm(const ImeSpec& spec, const ImeOpts& o) {
  const ime::Program p = ime::assemble_file(spec, o.in);
  if (!o.profile.empty()) {
    const auto illegal = ime::illegal_instructions(spec, profile_of(spec, o.profile), p, o.bf16);
    for (const auto& s : illegal) fmt::print(stderr, "{}: {}\n", where(p, s), describe(s.exception));
    if (!illegal.empty()) {
      fmt::print(stderr, "tpugen: {} illegal instruction(s) on {}, nothing written\n", illegal.size(), o.profile);
      return kFail;
    }
  }
  const std::string out = o.out.empty() ? std::filesystem::path(o.in).replace_extension(".bin").string() : o.out;
  write_file(out, ime::binary_of(p), "cli.io");
  fmt::print("{}: {} words -> {}{}\n", o.in, p.words.size(), out,
             o.profile.empty() ? "" : fmt::format(" (every instruction legal on {})", o.profile));
  return kOk;
}

int run_disasm(const ImeSpec& spec, const ImeOpts& o) {
  const ime::Program p = ime::read_binary_file(o.in);
  std::string text = fmt::format("# {}: {} words, disassembled by tpugen ime disasm\n", o.in, p.words.size());
  for (std::size_t k = 0; k < p.words.size(); ++k) {
    const std::string line = ime::disassemble_word(spec, p.words[k].word);
    text += fmt::format("{:<48} # {:4}: {:08x}\n", line, k, p.words[k].word);
  }
  if (o.out.empty())
    fmt::print("{}", text);
  else
    write_file(o.out, text, "cli.io");
  return kOk;
}

std::string hex_bytes(const std::uint8_t* data, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += fmt::format("{:02x}", data[i]);
  return s;
}

json state_json(const ImeSpec& spec, const ime::Machine& m) {
  json x = json::object();
  for (std::size_t r = 0; r < 32; ++r) x[spec.host.xregs[r]] = fmt::format("{:#018x}", m.x[r]);
  json v = json::array();
  const std::size_t bytes = static_cast<std::size_t>(m.unit.v.vlen() / 8);
  for (std::size_t r = 0; r < 32; ++r) v.push_back(hex_bytes(m.unit.v.bytes().data() + r * bytes, bytes));
  return {
      {"x", x},
      {"vl", m.vl},
      {"vtype",
       {{"bits", fmt::format("{:#x}", m.vtype)}, {"vill", m.vill}, {"sew", m.unit.sew}, {"lmul", m.unit.lmul.str()}}},
      {"mcpm", fmt::format("{:#x}", m.mcpm)},
      {"bf16", m.unit.bf16},
      {"vregs", v}};
}

int run_run(const ImeSpec& spec, const ImeOpts& o, const ImeRunOpts& r) {
  const ImeProfile& profile = profile_of(spec, o.profile);
  const ime::Program p = load(spec, r.program);
  std::string mem;
  if (!r.mem_in.empty()) mem = read_file(r.mem_in, "cli.io");
  ime::Machine m(spec, profile, r.mem_in.empty() ? kDefaultMemoryBytes : mem.size(), o.bf16);
  std::copy(mem.begin(), mem.end(), m.memory.begin());
  if (!r.vregs_in.empty()) {
    const std::string v = read_file(r.vregs_in, "cli.io");
    if (v.size() != m.unit.v.bytes().size())
      throw Error("cli.ime", fmt::format("{}: a register image on {} is 32 x VLEN / 8 = {} bytes, not {}", r.vregs_in,
                                         profile.name, m.unit.v.bytes().size(), v.size()));
    std::copy(v.begin(), v.end(), m.unit.v.bytes().begin());
  }
  const ime::RunResult result = ime::run(spec, profile, p, m);
  // The images hold the state the run ended in: before the instruction that stopped it.
  if (!r.vregs_out.empty())
    write_file(r.vregs_out,
               std::string(reinterpret_cast<const char*>(m.unit.v.bytes().data()), m.unit.v.bytes().size()), "cli.io");
  if (!r.mem_out.empty())
    write_file(r.mem_out, std::string(reinterpret_cast<const char*>(m.memory.data()), m.memory.size()), "cli.io");
  if (!r.json.empty()) {
    json j = {{"program", p.source},         {"profile", profile.name},   {"vlen", profile.vlen},
              {"words", p.words.size()},     {"retired", result.retired}, {"status", result.stop ? "exception" : "ok"},
              {"state", state_json(spec, m)}};
    if (result.stop) {
      const ime::Stop& s = *result.stop;
      j["exception"] = {
          {"cause", s.exception.cause}, {"rule", s.exception.rule}, {"message", s.exception.message},
          {"index", s.index},           {"line", s.line},           {"word", fmt::format("{:08x}", s.word)},
          {"instruction", s.text}};
    }
    write_file(r.json, j.dump(2) + "\n", "cli.io");
  }
  fmt::print("{} on {} (VLEN {}): {} of {} instructions retired\n", p.source, profile.name, profile.vlen,
             result.retired, p.words.size());
  if (result.stop) {
    fmt::print(stderr, "tpugen: {}: {}\n", where(p, *result.stop), describe(result.stop->exception));
    return kFail;
  }
  return kOk;
}

}  // namespace

Command ime_command() {
  return {"ime", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            auto o = std::make_shared<ImeOpts>();
            auto r = std::make_shared<ImeRunOpts>();
            sub.require_subcommand(1);
            sub.add_option("--ime-spec", o->spec, "the IME spec (default: ime.yaml beside the ISA spec)");
            CLI::App* as = sub.add_subcommand("asm", "assemble a program (.s) into little-endian 32-bit words (.bin)");
            as->add_option("source", o->in, "the program, in the seed's syntax")->required();
            as->add_option("-o,--out", o->out, "the binary (default: the source with .bin)");
            as->add_option("--profile", o->profile,
                           "check every instruction's rules on this profile (A60, A100, ...); an illegal one is "
                           "reported with its line and rule, and nothing is written");
            as->add_flag("--bf16", o->bf16, "check as if MCPM.BF16 were 1 at the start");
            as->footer("Example: tpugen ime asm examples/ime/vmadot_a60.s -o vmadot.bin --profile A60");
            CLI::App* dis = sub.add_subcommand("disasm", "write a binary's words as instructions in the seed's syntax");
            dis->add_option("binary", o->in, "little-endian 32-bit words")->required();
            dis->add_option("-o,--out", o->out, "write the text here (default: standard output)");
            dis->footer("Example: tpugen ime disasm vmadot.bin -o vmadot_again.s");
            CLI::App* run =
                sub.add_subcommand("run", "run a program on the reference model, the runner playing the host core");
            run->add_option("--profile", o->profile, "the implementation: A60 (VLEN 256), A100 (VLEN 1024), ...")
                ->required();
            run->add_option("--program", r->program, "the program: .s (assembled) or .bin (the assembler's words)")
                ->required();
            run->add_flag("--bf16", o->bf16, "MCPM.BF16 = 1 at the start (a CSR write in the program changes it)");
            run->add_option("--vregs-in", r->vregs_in,
                            "the vector registers at the start: 32 x VLEN / 8 bytes, register r at byte r x VLEN / 8 "
                            "(default: zeros)");
            run->add_option("--vregs-out", r->vregs_out, "write the vector registers at the end, in the same layout");
            run->add_option("--mem-in", r->mem_in,
                            "the memory at the start, a flat byte array at address 0 (default: "
                            "1 MiB of zeros); its size is the memory's");
            run->add_option("--mem-out", r->mem_out, "write the memory at the end, the same extent");
            run->add_option("--json", r->json, "write the end state and how the run ended as JSON");
            run->add_option("--engine", r->engine, "what runs it: the reference model")
                ->check(CLI::IsMember({"model"}))
                ->capture_default_str();
            run->footer(
                "Example: tpugen ime run --profile A60 --program examples/ime/vmadot_a60.s --mem-in a60_mem.bin "
                "--mem-out out.bin --json run.json");
            return [as, dis, run, o, r, &ctx]() {
              const ImeSpec spec = load_ime_spec(o->spec.empty() ? ime_spec_path(ctx.spec.path) : o->spec);
              if (as->parsed()) return run_asm(spec, *o);
              if (dis->parsed()) return run_disasm(spec, *o);
              if (run->parsed()) return run_run(spec, *o, *r);
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
