// tpugen mover: the system node's memory mover. `mover gen` writes its
// SystemVerilog; `mover run` runs a move (MOVE.json) over a memory image on
// the reference model, on the RTL under Verilator (tb/sim/mover_engine.h), or
// on both, compared: the fault, moves_done and, where mover-notes §4 fixes it,
// the whole image; with its words, the RTL's cycles and bus utilization, and
// the memory it leaves.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli.h"
#include "cli/mover_commands.h"
#include "cli/rtl_engine_flags.h"
#include "cli/system_node_specs.h"
#include "hdl/sysnode/sysnode_generate.h"
#include "model/mover/memory.h"
#include "model/mover/move_file.h"
#include "model/mover/mover_model.h"
#include "sim/mover_engine.h"
#include "spec/system_node_spec.h"
#include "util/file_io.h"
#include "util/names.h"

namespace tpugen::cli {

namespace {

struct MoverRunOpts {
  std::string move, mem_in, mem_out, json, engine = "model";
  std::uint64_t mem_base = 0, mem_size = 1 << 20;
  std::vector<std::uint64_t> slverr;
  // The RTL engine.
  unsigned latency = 0;
  double stall = 0.0;
  bool reorder = false;
  std::uint64_t seed = 1;
  std::string port = "host";
  std::uint64_t timeout = sim::MoverRunConditions{}.max_cycles;
  bool go_race = false, no_assert = false, system_node = false;
  std::string trace, rtl_cache, work_dir, inject_bug;
  std::map<std::string, std::string> params;
};

std::string fault_name(const MoverSpec& m, std::uint32_t code) {
  if (code == 0) return "NONE";
  for (const auto& f : m.faults)
    if (f.code == code) return f.name;
  return fmt::format("fault {}", code);
}

/// The RTL's figures and what its run found besides them.
nlohmann::ordered_json rtl_json(const sim::MoverRtlResult& r) {
  nlohmann::ordered_json j;
  j["status"] = r.status;
  j["total_cycles"] = r.total_cycles;
  j["data_beats"] = r.data_beats;
  j["w_beats"] = r.w_beats;
  j["read_bursts"] = r.read_bursts;
  j["write_bursts"] = r.write_bursts;
  j["longest_burst"] = r.longest_burst;
  j["max_reads_outstanding"] = r.max_reads_out;
  j["max_writes_outstanding"] = r.max_writes_out;
  j["fault_o"] = r.fault_o;
  j["go_race"] = {{"writes", r.race_writes}, {"gos_while_busy", r.race_gos}, {"gos_ignored", r.race_gos_ignored}};
  j["checker_errors"] = r.checker_errors;
  j["harness_errors"] = r.harness_errors;
  j["axi_error_responses"] = r.axi_responses;
  j["notes"] = r.notes;
  j["sim_seconds"] = r.sim_seconds;
  return j;
}

/// Prints the RTL's run; false when it did not finish cleanly (a status
/// other than done, a protocol or harness error).
bool report_rtl(const MoverSpec& m, const sim::MoverRtlResult& r) {
  const std::string busier = r.words_read >= r.w_beats ? "read data" : "write data";
  fmt::print(
      "  rtl:   fault {} ({}); {} word(s) read, {} written; {} cycles from GO to done_o, bus utilization "
      "{:.3f} ({}, {} beats); {} read and {} write burst(s), the longest {} beats\n",
      r.fault, fault_name(m, r.fault), r.words_read, r.words_written, r.cycles, r.bus_utilization, busier, r.data_beats,
      r.read_bursts, r.write_bursts, r.longest_burst);
  if (r.race_writes > 0)
    fmt::print("         GO race: {} write(s) from the other port while busy, {} GO(s) among them, {} ignored\n",
               r.race_writes, r.race_gos, r.race_gos_ignored);
  constexpr std::size_t kShown = 3;
  for (std::size_t i = 0; i < r.axi_responses.size() && i < kShown; ++i)
    fmt::print("         the memory answered: {}\n", r.axi_responses[i]);
  bool ok = true;
  if (r.status != "done") {
    fmt::print("  rtl run ended: {}\n", r.status);
    ok = false;
  }
  for (const auto& n : r.notes) fmt::print("         {}\n", n);
  if (!r.checker_errors.empty()) {
    fmt::print("  AXI protocol checker: {} error(s) on the mover's master port:\n", r.checker_errors.size());
    for (const auto& e : r.checker_errors) fmt::print("    {}\n", e);
    ok = false;
  }
  if (!r.harness_errors.empty()) {
    fmt::print("  harness: {} error(s) on the register ports or the mover's outputs:\n", r.harness_errors.size());
    for (const auto& e : r.harness_errors) fmt::print("    {}\n", e);
    ok = false;
  }
  return ok;
}

int run_mover_run(const NocSpec& noc, const SystemNodeSpec& spec, const MoverRunOpts& o) {
  const mover::MoveDescriptor d = mover::read_move_file(spec, o.move);
  const bool use_model = o.engine != "rtl", use_rtl = o.engine != "model";
  std::vector<std::uint8_t> bytes;
  if (!o.mem_in.empty()) {
    const std::string image = read_file(o.mem_in, "cli.io");
    bytes.assign(image.begin(), image.end());
  } else {
    bytes.assign(o.mem_size, 0);
  }
  const std::uint64_t word = static_cast<std::uint64_t>(spec.word_bytes());
  if (o.mem_base % word != 0)
    throw Error("cli.mover", fmt::format("--mem-base {:#x} is not a multiple of the {}-byte word", o.mem_base, word));
  if (use_rtl && bytes.empty()) throw Error("cli.mover", "the RTL engine needs a memory image of at least a byte");
  mover::MoverMemory mem(o.mem_base, std::move(bytes));
  for (const auto a : o.slverr) {
    if (use_rtl && a % word != 0)
      throw Error("cli.mover", fmt::format("--slverr {:#x} is not a multiple of the {}-byte word", a, word));
    mem.inject_slverr(a);
  }
  const mover::MoverMemory image = mem;  // before the model runs: what the RTL starts from
  const SysCode* mode = spec.mover.mode_of(d.mode);
  fmt::print("tpugen mover run: {} ({}), memory [{:#x}, {:#x}), engine {}\n",
             mode ? mode->name : fmt::format("mode {}", d.mode), o.move, mem.base(), mem.base() + mem.bytes().size(),
             o.engine);

  std::optional<mover::MoveResult> model;
  if (use_model) {
    model = mover::run_move(spec, d, mem);
    const mover::MoveResult& r = *model;
    fmt::print("  {}fault {} ({}); {} word(s) read, {} written{}\n", use_rtl ? "model: " : "", r.fault,
               fault_name(spec.mover, r.fault), r.words_read, r.words_written,
               r.read_after_write ? "; the move read words it had written (timing-dependent on the RTL)" : "");
  }
  std::optional<sim::MoverRtlResult> rtl;
  int status = kOk;
  if (use_rtl) {
    const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec, o.params), resolve_agent_params(spec),
                                  o.inject_bug);
    const std::filesystem::path root =
        o.rtl_cache.empty() ? sim::default_build_root() : std::filesystem::path(o.rtl_cache);
    const auto simulator = sim::ensure_mover_simulator(
        ctx, root, print_build_progress,
        {.waveform = !o.trace.empty(), .assertions = !o.no_assert, .system_node = o.system_node});
    sim::MoverRunConditions c;
    c.latency = o.latency;
    c.ready_stall = o.stall;
    c.valid_stall = o.stall;
    c.reorder = o.reorder;
    c.interleave = o.reorder;
    c.port = o.port;
    c.seed = o.seed;
    c.max_cycles = o.timeout;
    c.go_race = o.go_race;
    rtl = sim::run_mover_rtl(simulator, spec, d, image, c, {o.trace, o.work_dir});
    if (!report_rtl(spec.mover, *rtl)) status = kFail;
  }
  std::optional<sim::MoverComparison> cmp;
  if (model && rtl) {
    cmp = sim::compare_mover_runs(spec, *model, mem, *rtl);
    if (cmp->match()) {
      fmt::print("  rtl vs model: the same fault and moves_done{}\n",
                 cmp->memory_compared ? fmt::format(", and the same memory image ({} bytes)", mem.bytes().size())
                 : model->read_after_write
                     ? "; the image not compared (the move read words it had written: timing-dependent data)"
                     : "; the image not compared (after an AXI error what was written is implementation-dependent)");
    } else {
      fmt::print("  rtl vs model: MISMATCH\n");
      for (const auto& diff : cmp->differences) fmt::print("    {}\n", diff);
      status = kFail;
    }
  }

  if (!o.mem_out.empty()) {
    const std::vector<std::uint8_t>& out = rtl ? rtl->memory : mem.bytes();
    write_file(o.mem_out, std::string(reinterpret_cast<const char*>(out.data()), out.size()), "cli.io");
  }
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["engine"] = o.engine;
    if (rtl) {
      j["fault_code"] = rtl->fault;
      j["fault_name"] = fault_name(spec.mover, rtl->fault);
      j["moves_done"] = rtl->moves_done;
      j["words_read"] = rtl->words_read;
      j["words_written"] = rtl->words_written;
      j["cycles"] = rtl->cycles;
      j["bus_utilization"] = rtl->bus_utilization;
    } else {
      j["fault_code"] = model->fault;
      j["fault_name"] = fault_name(spec.mover, model->fault);
      j["moves_done"] = model->fault == 0 ? 1 : 0;
      j["words_read"] = model->words_read;
      j["words_written"] = model->words_written;
      j["cycles"] = nullptr;  // the model is untimed: cycles and utilisation are the RTL's
      j["bus_utilization"] = nullptr;
    }
    if (model) j["read_after_write"] = model->read_after_write;
    if (rtl) j["rtl"] = rtl_json(*rtl);
    if (model && rtl) {
      j["model"] = {{"fault_code", model->fault},
                    {"fault_name", fault_name(spec.mover, model->fault)},
                    {"moves_done", model->fault == 0 ? 1 : 0},
                    {"words_read", model->words_read},
                    {"words_written", model->words_written}};
      j["match"] = cmp->match();
      j["memory_compared"] = cmp->memory_compared;
      j["differences"] = cmp->differences;
    }
    j["move"] = mover::move_json(spec, d);
    write_file(o.json, j.dump(2) + "\n", "cli.io");
  }
  return status;
}

int run_mover_gen(const NocSpec& noc, const SystemNodeSpec& spec, const std::map<std::string, std::string>& params,
                  const std::string& out, const std::string& inject_bug) {
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec, params), resolve_agent_params(spec), inject_bug);
  const auto files = hdl::generate_mover(ctx, out);
  std::string text;
  for (const auto& [name, v] : ctx.mover_params().listing()) text += fmt::format(" {}={}", name, v);
  print_written_files("mover gen", text, files, out);
  return kOk;
}

}  // namespace

Command mover_command() {
  return {
      "mover", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
        const auto loaded = load_system_node_specs(ctx);
        sub.require_subcommand(1);
        auto gen_flags = std::make_shared<UnitGenFlags>();
        CLI::App* gen = add_unit_gen_command(sub,
                                             "write the mover's SystemVerilog: tpu_mover_pkg, the "
                                             "hand-written mover and its primitives, files.f, params.json",
                                             loaded->spec ? &loaded->spec->mover.parameters : nullptr, *gen_flags);

        auto r = std::make_shared<MoverRunOpts>();
        CLI::App* run = sub.add_subcommand(
            "run", "run a move (MOVE.json) over a memory image on the reference model, the RTL, or both compared");
        run->add_option("--move", r->move, "the move: MOVE.json (docs/system_node.md)")->required();
        run->add_option("--mem-in", r->mem_in, "the memory image, placed at --mem-base");
        run->add_option("--mem-base", r->mem_base, "the byte address of the image's first byte (word-aligned)")
            ->capture_default_str();
        run->add_option("--mem-size", r->mem_size, "without --mem-in: an image of this many zero bytes")
            ->capture_default_str();
        run->add_option("--mem-out", r->mem_out,
                        "write the image after the move (the same extent; the RTL's with --engine rtl or both)");
        run->add_option("--engine", r->engine,
                        "model: the reference model; rtl: tpu_noc_mover under Verilator (built once, cached); "
                        "both: both, compared (fault, moves_done and, unless the fault is AXI_RESPONSE or the "
                        "move reads what it wrote, the whole image); exit 1 on a difference")
            ->check(CLI::IsMember({"model", "rtl", "both"}))
            ->capture_default_str();
        run->add_option("--json", r->json, "write the report as JSON");
        run->add_option("--slverr", r->slverr,
                        "answer SLVERR for the word at this byte address, reads and writes (repeatable)");
        const std::string g = "RTL engine (--engine rtl|both)";
        run->add_option("--latency", r->latency,
                        "AXI memory latency: cycles from AR or the last W to R or B, "
                        "beyond the next cycle")
            ->capture_default_str()
            ->group(g);
        run->add_option("--stall", r->stall,
                        "0..0.99: probability that the memory withholds ARREADY, AWREADY or WREADY, or delays "
                        "RVALID or BVALID, in a cycle")
            ->check(CLI::Range(0.0, 0.99))
            ->capture_default_str()
            ->group(g);
        run->add_flag("--reorder", r->reorder,
                      "let the memory reorder and interleave responses across IDs (the mover uses one ID)")
            ->group(g);
        run->add_option("--seed", r->seed,
                        "the memory's stalls, the register writes' gaps and ports, the RTL's random initial state")
            ->capture_default_str()
            ->group(g);
        run->add_option("--port", r->port,
                        "the register port the writes go through: host, cp (the control processor's) or random "
                        "(each write, commuting writes sometimes from both ports at once)")
            ->check(CLI::IsMember({"host", "cp", "random"}))
            ->capture_default_str()
            ->group(g);
        run->add_option("--timeout", r->timeout, "give up on the RTL run after this many cycles")
            ->capture_default_str()
            ->group(g);
        run->add_flag("--go-race", r->go_race,
                      "while the move runs, write another move's registers and GO from the other port: no GO "
                      "may start and nothing may change the running move")
            ->group(g);
        run->add_flag("--system-node", r->system_node,
                      "run the mover inside the whole system node (tpu_noc_system_node, the agent idle): its "
                      "AXI4 traffic through the multiplexer, with the master's ID prefix")
            ->group(g);
        run->add_flag("--no-assert", r->no_assert,
                      "build the simulator without the RTL's assertions (the protocol checker, the harness and the "
                      "comparison still check)")
            ->group(g);
        run->add_option("--trace", r->trace, "write an FST waveform of the RTL run (a separate simulator build)")
            ->group(g);
        run->add_option("--rtl-cache", r->rtl_cache,
                        "where verilated simulators are cached (default $TPUGEN_RTL_CACHE, else the build tree)")
            ->group(g);
        run->add_option("--work-dir", r->work_dir, "keep the RTL run's files (run.txt, result.txt, sim.log) here")
            ->group(g);
        run->add_option("--inject-bug", r->inject_bug)->group("");
        if (loaded->spec) {
          add_build_param_flags(*run, r->params, loaded->spec->mover.parameters, "");
          for (const auto& p : loaded->spec->mover.parameters) {
            if (CLI::Option* opt = run->get_option_no_throw("--" + kebab(p.name))) opt->group(g);
          }
        }
        auto f = std::make_shared<MoverFuzzOpts>();
        CLI::App* fuzz = add_mover_fuzz_command(sub, *f, loaded->spec ? &loaded->spec->mover.parameters : nullptr);
        auto b = std::make_shared<MoverBenchOpts>();
        CLI::App* bench = add_mover_bench_command(sub, *b, loaded->spec ? &loaded->spec->mover.parameters : nullptr);
        auto sy = std::make_shared<MoverSynthOpts>();
        CLI::App* synth = add_mover_synth_command(sub, *sy, loaded->spec ? &loaded->spec->mover.parameters : nullptr);
        return [gen, run, fuzz, bench, synth, r, f, b, sy, loaded, gen_flags]() {
          if (!loaded->error.empty()) {
            fmt::print(stderr, "tpugen: {}\n", loaded->error);
            return kBadInput;
          }
          if (gen->parsed())
            return run_mover_gen(*loaded->noc, *loaded->spec, gen_flags->params, gen_flags->out, gen_flags->inject_bug);
          if (run->parsed()) return run_mover_run(*loaded->noc, *loaded->spec, *r);
          if (fuzz->parsed()) return run_mover_fuzz(*loaded->noc, *loaded->spec, *f);
          if (bench->parsed()) return run_mover_bench(*loaded->noc, *loaded->spec, *b);
          if (synth->parsed()) return run_mover_synth(*loaded->noc, *loaded->spec, *sy);
          return kBadInput;
        };
      }};
}

}  // namespace tpugen::cli
