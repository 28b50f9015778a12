// tpugen mover: the system node's memory mover. `mover gen` writes its
// SystemVerilog; `mover run` runs a move (MOVE.json) over a memory image on
// the reference model, with its fault, its words and the memory it leaves.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli.h"
#include "hdl/sysnode/sysnode_generate.h"
#include "model/mover/memory.h"
#include "model/mover/move_file.h"
#include "model/mover/mover_model.h"
#include "spec/system_node_spec.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

struct MoverRunOpts {
  std::string move, mem_in, mem_out, json, engine = "model";
  std::uint64_t mem_base = 0, mem_size = 1 << 20;
  std::vector<std::uint64_t> slverr;
};

std::string fault_name(const MoverSpec& m, std::uint32_t code) {
  if (code == 0) return "NONE";
  for (const auto& f : m.faults)
    if (f.code == code) return f.name;
  return fmt::format("fault {}", code);
}

int run_mover_run(const SystemNodeSpec& spec, const MoverRunOpts& o) {
  const mover::MoveDescriptor d = mover::read_move_file(spec, o.move);
  std::vector<std::uint8_t> bytes;
  if (!o.mem_in.empty()) {
    const std::string image = read_file(o.mem_in, "cli.io");
    bytes.assign(image.begin(), image.end());
  } else {
    bytes.assign(o.mem_size, 0);
  }
  if (o.mem_base % static_cast<std::uint64_t>(spec.word_bytes()) != 0)
    throw Error("cli.mover",
                fmt::format("--mem-base {:#x} is not a multiple of the {}-byte word", o.mem_base, spec.word_bytes()));
  mover::MoverMemory mem(o.mem_base, std::move(bytes));
  for (const auto a : o.slverr) mem.inject_slverr(a);
  const mover::MoveResult r = mover::run_move(spec, d, mem);
  const SysCode* mode = spec.mover.mode_of(d.mode);
  fmt::print("tpugen mover run: {} ({}), memory [{:#x}, {:#x}), engine {}\n",
             mode ? mode->name : fmt::format("mode {}", d.mode), o.move, mem.base(), mem.base() + mem.bytes().size(),
             o.engine);
  fmt::print("  fault {} ({}); {} word(s) read, {} written{}\n", r.fault, fault_name(spec.mover, r.fault), r.words_read,
             r.words_written,
             r.read_after_write ? "; the move read words it had written (timing-dependent on the RTL)" : "");
  if (!o.mem_out.empty())
    write_file(o.mem_out, std::string(reinterpret_cast<const char*>(mem.bytes().data()), mem.bytes().size()), "cli.io");
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["engine"] = o.engine;
    j["fault_code"] = r.fault;
    j["fault_name"] = fault_name(spec.mover, r.fault);
    j["moves_done"] = r.fault == 0 ? 1 : 0;
    j["words_read"] = r.words_read;
    j["words_written"] = r.words_written;
    j["cycles"] = nullptr;  // the model is untimed: cycles and utilisation are the RTL's
    j["bus_utilization"] = nullptr;
    j["read_after_write"] = r.read_after_write;
    j["move"] = mover::move_json(spec, d);
    write_file(o.json, j.dump(2) + "\n", "cli.io");
  }
  return kOk;
}

int run_mover_gen(const NocSpec& noc, const SystemNodeSpec& spec, const std::map<std::string, std::string>& params,
                  const std::string& out, const std::string& inject_bug) {
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec, params), resolve_agent_params(spec), inject_bug);
  const auto files = hdl::generate_mover(ctx, out);
  std::string text;
  for (const auto& [name, v] : ctx.mover_params().listing()) text += fmt::format(" {}={}", name, v);
  fmt::print("tpugen mover gen:{}\nwrote {} files to {}:\n", text, files.size(), out);
  for (const auto& f : files)
    fmt::print("  {:<26} {:>8} bytes\n", std::filesystem::path(f).lexically_relative(out).string(),
               std::filesystem::file_size(f));
  return kOk;
}

}  // namespace

Command mover_command() {
  return {"mover", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            // The system node's spec makes the parameter flags, so it is read
            // now; a spec that does not load is reported when a mover command
            // runs, never stopping the other commands.
            struct Loaded {
              std::optional<NocSpec> noc;
              std::optional<SystemNodeSpec> spec;
              std::string error;
            };
            auto loaded = std::make_shared<Loaded>();
            try {
              loaded->noc = load_noc_spec(noc_spec_path(ctx.spec.path));
              loaded->spec = load_system_node_spec(system_node_spec_path(ctx.spec.path), *loaded->noc);
            } catch (const Error& e) {
              loaded->error = e.what();
            }
            sub.require_subcommand(1);
            auto params = std::make_shared<std::map<std::string, std::string>>();
            auto out = std::make_shared<std::string>();
            auto inject_bug = std::make_shared<std::string>();
            CLI::App* gen = sub.add_subcommand("gen",
                                               "write the mover's SystemVerilog: tpu_mover_pkg, the "
                                               "hand-written mover and its primitives, files.f, params.json");
            if (loaded->spec)
              add_build_param_flags(*gen, *params, loaded->spec->mover.parameters, "");
            else
              gen->allow_extras();
            gen->add_option("--out", *out, "the output directory")->required();
            gen->add_option("--inject-bug", *inject_bug)->group("");

            auto r = std::make_shared<MoverRunOpts>();
            CLI::App* run = sub.add_subcommand("run", "run a move (MOVE.json) over a memory image on the model");
            run->add_option("--move", r->move, "the move: MOVE.json (docs/system_node.md)")->required();
            run->add_option("--mem-in", r->mem_in, "the memory image, placed at --mem-base");
            run->add_option("--mem-base", r->mem_base, "the byte address of the image's first byte (word-aligned)")
                ->capture_default_str();
            run->add_option("--mem-size", r->mem_size, "without --mem-in: an image of this many zero bytes")
                ->capture_default_str();
            run->add_option("--mem-out", r->mem_out, "write the image after the move (the same extent)");
            run->add_option("--engine", r->engine, "the engine: the reference model (the RTL engine is to come)")
                ->check(CLI::IsMember({"model"}))
                ->capture_default_str();
            run->add_option("--json", r->json, "write the report as JSON");
            run->add_option("--slverr", r->slverr, "answer SLVERR for the word at this byte address (repeatable)");
            return [gen, run, r, loaded, params, out, inject_bug]() {
              if (!loaded->error.empty()) {
                fmt::print(stderr, "tpugen: {}\n", loaded->error);
                return kBadInput;
              }
              if (gen->parsed()) return run_mover_gen(*loaded->noc, *loaded->spec, *params, *out, *inject_bug);
              if (run->parsed()) return run_mover_run(*loaded->spec, *r);
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
