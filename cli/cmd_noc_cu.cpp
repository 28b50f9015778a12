// tpugen noc dispatch | noc gemm: compute units on the mesh (spec/compute_units.yaml).
// `noc dispatch` stages CU_INST flits from a JSON-lines file through the
// orchestrator to one node and prints every retirement flit that comes back;
// `noc gemm` splits a GEMM over TinyTPU units, dispatches it from a host and
// checks C against clip(A @ B) and the memory around it.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "cli/cli.h"
#include "cli/cu_system.h"
#include "cli/noc_commands.h"
#include "hdl/cu/cu_system_generate.h"
#include "model/core/operands.h"
#include "model/cu/cu_program.h"
#include "sim/cu_system_engine.h"
#include "spec/compute_units_spec.h"
#include "util/file_io.h"
#include "util/text.h"

namespace tpugen::cli {

namespace {

/// The CU_INST flits of a JSON-lines file: txn and last each, and the
/// payload either as hex ("payload") or by the unit's opcode and its fields
/// by name ("op", "fields": {"k": 8, "a_peer[0].x": 1, ...}), encoded from
/// spec/compute_units.yaml (cu::cu_inst).
std::vector<noc::Flit> read_flits(const std::string& path, const noc::Codec& codec, const UnitSpec& unit) {
  std::istringstream in(read_file(path, "cli.io"));
  std::vector<noc::Flit> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto where = [&](const std::string& what) {
      return Error("cli.flits", fmt::format("flit {}: {}", out.size() + 1, what), SourceLoc{path, n, 1});
    };
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw where(fmt::format("not JSON: {}", e.what()));
    }
    if (!j.is_object())
      throw where(
          "a line is one object: {\"txn\": N, \"last\": 0|1, \"payload\": \"hex\"} or, instead of payload, "
          "{\"op\": \"NAME\", \"fields\": {...}}");
    for (const auto& [k, v] : j.items())
      if (k != "txn" && k != "last" && k != "payload" && k != "op" && k != "fields")
        throw where(fmt::format("unknown key '{}' (txn, last, and payload or op and fields)", k));
    const std::uint64_t txn_max = (std::uint64_t{1} << codec.field("txn").width) - 1;
    if (!j.contains("txn") || !j["txn"].is_number_unsigned() || j["txn"].get<std::uint64_t>() > txn_max)
      throw where(fmt::format("txn is an integer 0 .. {}", txn_max));
    if (!j.contains("last") || !j["last"].is_number_unsigned() || j["last"].get<std::uint64_t>() > 1)
      throw where("last is 0 or 1");
    const auto txn = j["txn"].get<std::uint32_t>();
    const bool last = j["last"].get<std::uint32_t>() == 1;
    if (j.contains("payload") == j.contains("op")) throw where("give the payload as hex (payload) or by name (op)");
    if (j.contains("fields") && !j.contains("op")) throw where("fields go with op");
    if (j.contains("payload") && !j["payload"].is_string()) throw where("payload is a hex string (up to 256 bits)");
    if (j.contains("op") && !j["op"].is_string())
      throw where(fmt::format("op is one of {}'s opcodes by name", unit.name));
    std::map<std::string, std::uint64_t> fields;
    if (j.contains("fields")) {
      if (!j["fields"].is_object()) throw where("fields is an object of name: unsigned integer");
      for (const auto& [k, v] : j["fields"].items()) {
        if (!v.is_number_unsigned()) throw where(fmt::format("field {} is an unsigned integer", k));
        fields[k] = v.get<std::uint64_t>();
      }
    }
    noc::Flit f;
    try {
      if (j.contains("payload")) {
        const noc::FieldRef p = codec.payload();
        f.set_hex_range(p.lsb, p.width, j["payload"].get<std::string>(), "payload");
        codec.set_header(f, noc::Header::between({0, 0}, {0, 0}, codec.type_code("CU_INST"), txn, last ? 1 : 0));
      } else {
        f = cu::cu_inst(unit, codec, j["op"].get<std::string>(), fields, txn, last);
      }
    } catch (const Error& e) {
      throw where(e.what());
    }
    out.push_back(f);
  }
  if (out.empty()) throw Error("cli.flits", fmt::format("{}: no flits", path));
  return out;
}

/// --place ADDR=FILE: FILE's bytes into `memory` from byte ADDR.
void place_file(std::vector<std::uint8_t>& memory, const std::string& spec) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw Error("cli.usage", fmt::format("--place {}: give ADDR=FILE", spec));
  const auto parsed = parse_unsigned(std::string_view(spec).substr(0, eq));
  if (!parsed) throw Error("cli.usage", fmt::format("--place {}: ADDR is a byte address (decimal or 0x hex)", spec));
  const std::uint64_t addr = *parsed;
  const std::string bytes = read_file(spec.substr(eq + 1), "cli.io");
  if (addr > memory.size() || bytes.size() > memory.size() - addr)
    throw Error("cli.usage", fmt::format("--place {}: {} byte(s) at 0x{:x} run past the memory's {} bytes", spec,
                                         bytes.size(), addr, memory.size()));
  std::copy(bytes.begin(), bytes.end(), memory.begin() + static_cast<std::ptrdiff_t>(addr));
}

std::string signal_name(const NocSpec& s, std::uint32_t code) {
  for (const auto& c : s.signals)
    if (c.code == code) return c.name;
  return fmt::format("signal 0x{:02x}", code);
}

/// Why a program did not complete, for its host.
std::string not_completed(const cu::DispatchEnd& e, const std::vector<std::string>& stuck) {
  std::string why = fmt::format("node ({},{}), program txn {}: no SIG_BATCH_COMPLETE (channel {} {}); {} credit(s) "
                                "outstanding, {} of {} instruction(s) sent, {} retired",
                                e.node.x, e.node.y, e.txn, e.channel, e.state, e.sent - e.retired, e.sent, e.len,
                                e.retired);
  if (e.state == "ENDED") why += "; every instruction retired, so the program's last flit lacks `last`";
  for (const auto& s : stuck) why += "; " + s;
  return why;
}

}  // namespace

/// The retirement flits (and any other) that reached the orchestrator, one a line.
nlohmann::ordered_json print_arrivals(const NocSpec& spec, const noc::Codec& codec, const std::vector<noc::Flit>& flits) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const auto& f : flits) {
    const noc::Header h = codec.header(f);
    const auto code = static_cast<std::uint32_t>(codec.get(f, "cu_signal.code"));
    const auto arg = static_cast<std::uint32_t>(codec.get(f, "cu_signal.arg"));
    fmt::print("  ({},{}) txn {:3} {:<20} arg 0x{:08x}\n", h.src_x, h.src_y, h.txn, signal_name(spec, code), arg);
    j.push_back({{"node", {h.src_x, h.src_y}}, {"txn", h.txn}, {"signal", signal_name(spec, code)}, {"arg", arg}});
  }
  return j;
}

int run_noc_dispatch(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c,
                     const NocDispatchOpts& d) {
  CuSystem sys(ctx, spec, o, c);
  const noc::Coord node = parse_node(d.node, "--node");
  if (sys.layout.core_index(node) < 0) {
    std::string units;
    for (const auto& u : sys.layout.cores) units += fmt::format(" ({},{})", u.x, u.y);
    throw Error("cli.node", fmt::format("--node {},{} holds no compute unit; the units are at{}", node.x, node.y, units));
  }
  const std::vector<noc::Flit> flits = read_flits(d.flits, sys.codec, sys.cu.require_unit("tinytpu"));
  std::vector<std::uint8_t> memory(d.memory_bytes, 0);
  if (!d.memory.empty()) {
    const std::string bytes = read_file(d.memory, "cli.io");
    memory.assign(bytes.begin(), bytes.end());
  } else if (d.memory_seed) {
    std::mt19937_64 rng(*d.memory_seed);
    for (auto& b : memory) b = static_cast<std::uint8_t>(rng() >> 56);
  }
  for (const auto& p : d.place) place_file(memory, p);
  const auto dispatch = [&](cu::HostPort& port) { return sys.dispatch(port, {flits}, {node}); };
  nlohmann::ordered_json j;
  int status = kOk;
  // The program's end on one engine: DONE or FAULT, else why not.
  const auto report = [&](std::string_view engine, const cu::DispatchEnd& e, const std::vector<std::string>& stuck) {
    if (e.state == "DONE" || e.state == "FAULT") {
      fmt::print("the program ended {} ({} instruction(s) retired)\n", e.state, e.retired);
    } else {
      fmt::print(stderr, "tpugen: {}: {}\n", engine, not_completed(e, stuck));
      status = kFail;
    }
  };
  std::vector<noc::Flit> model_flits;
  std::vector<std::uint8_t> model_memory, rtl_memory;
  if (c.engine != "rtl") {
    mover::MoverMemory mem(0, memory);
    cu::SystemModel system(sys.specs, sys.layout, mem);
    cu::HostPort port = cu::model_port(system);
    const auto ends = dispatch(port);
    fmt::print("tpugen noc dispatch: {} flit(s) to ({},{}) on the model; retirement flits back:\n", flits.size(),
               node.x, node.y);
    j["model"] = print_arrivals(spec, sys.codec, system.to_orchestrator());
    model_flits = system.to_orchestrator();
    model_memory = mem.bytes();
    report("model", ends.front(), system.stuck());
  }
  if (c.engine != "model") {
    const auto [ends, at, r] = CuSystemRtl(sys, c).run(c, memory, dispatch);
    std::vector<noc::Flit> rtl_flits;
    for (const auto& x : r.rx) rtl_flits.push_back(x.flit);
    rtl_memory = r.memory;
    fmt::print("tpugen noc dispatch: {} flit(s) to ({},{}) on the RTL; retirement flits back (by cycle {}):\n",
               flits.size(), node.x, node.y, at);
    j["rtl"] = print_arrivals(spec, sys.codec, rtl_flits);
    report("RTL", ends.front(), {fmt::format("the host waited {} cycles (--timeout {})", at, c.timeout)});
    for (const auto& x : rtl_run_errors(r)) {
      fmt::print(stderr, "tpugen: RTL: {}\n", x);
      status = kFail;
    }
    if (c.engine == "both") {
      const bool same = rtl_flits == model_flits;
      fmt::print("RTL against the model: {}\n", same ? "the same flits, in the same order"
                                                       : fmt::format("they differ ({} flit(s) on the RTL, {} on the "
                                                                     "model)", rtl_flits.size(), model_flits.size()));
      if (!same) status = kFail;
      std::size_t differ = 0, first = 0;
      for (std::size_t i = 0; i < model_memory.size(); ++i)
        if (i >= r.memory.size() || r.memory[i] != model_memory[i]) first = differ++ == 0 ? i : first;
      fmt::print("RTL against the model: the memory after the run {}\n",
                 differ == 0 ? "is the same" : fmt::format("differs in {} byte(s), first at 0x{:x}", differ, first));
      if (differ != 0) status = kFail;
    }
  }
  if (!c.json.empty()) write_file(c.json, (c.engine == "both" ? j : j.begin().value()).dump(2) + "\n", "cli.io");
  if (!d.memory_out.empty()) {
    const auto& after = c.engine == "model" ? model_memory : rtl_memory;
    write_file(d.memory_out, std::string(after.begin(), after.end()), "cli.io");
  }
  return status;
}

int run_noc_gen_system(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c) {
  if (o.out.empty()) throw Error("cli.usage", "noc gen needs --out");
  CuSystem sys(ctx, spec, o, c);
  const CuSystemHdl hdl(sys, c);
  const auto files = hdl::generate_cu_system(hdl.context(sys.layout), o.out);
  const noc::SystemLayout& l = sys.layout;
  fmt::print("tpugen noc gen: {} on a {} x {} mesh: {} TinyTPU unit(s) (T = {}, MAXDIM = {}) at", hdl::kCuSystemTop,
             l.nx, l.ny, l.cores.size(), sys.isa.param("T"), sys.isa.param("MAXDIM"));
  for (const auto& u : l.cores) fmt::print(" ({},{})", u.x, u.y);
  fmt::print("; the agent's port(s) at");
  for (const auto& a : l.agents) fmt::print(" ({},{})", a.x, a.y);
  fmt::print("; the orchestrator at ({},{})\nwrote {} files to {} (files.f in compile order, params.json with the "
             "layout)\n",
             l.orchestrator.x, l.orchestrator.y, files.size(), o.out);
  return kOk;
}

CuGemmVerdict judge_cu_gemm(const cu::GemmPlan& plan, const Int8Matrix& want, const std::vector<std::uint8_t>& before,
                            const std::vector<std::uint8_t>& after) {
  CuGemmVerdict v;
  v.c = cu::gemm_c(plan, after);
  for (std::size_t i = 0; i < want.data.size(); ++i) v.c_wrong += v.c.data[i] != want.data[i];
  const GemmShape& shape = plan.shape;
  const std::uint64_t row_bytes =
      static_cast<std::uint64_t>(plan.c_stride) * static_cast<std::uint64_t>(plan.word_bytes);
  for (std::uint64_t i = 0; i < before.size(); ++i) {
    const bool in_c = i >= plan.c_addr && i < plan.c_addr + static_cast<std::uint64_t>(shape.m) * row_bytes &&
                      (i - plan.c_addr) % row_bytes < static_cast<std::uint64_t>(shape.n);
    if (!in_c && (i >= after.size() || after[i] != before[i])) ++v.outside_changed;
  }
  return v;
}

CuGemmFigures cu_gemm_figures(const CuSystem& sys, const GemmShape& shape, const sim::CuSystemRtlResult& r) {
  CuGemmFigures f;
  for (const auto n : r.injected) f.flits += n;
  f.cycles = r.first_inject && r.last_rx >= *r.first_inject ? r.last_rx - *r.first_inject + 1 : 0;
  f.peak = static_cast<double>(sys.layout.cores.size()) * static_cast<double>(sys.isa.param("T")) *
           static_cast<double>(sys.isa.param("T"));
  if (f.cycles != 0)
    f.utilization = static_cast<double>(shape.m) * static_cast<double>(shape.k) * static_cast<double>(shape.n) /
                    (static_cast<double>(f.cycles) * f.peak);
  for (const auto b : r.busy)
    f.busy.push_back(f.cycles == 0 ? 0.0 : static_cast<double>(b) / static_cast<double>(f.cycles));
  return f;
}

int run_noc_gemm(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c, const NocGemmOpts& g) {
  CuSystem sys(ctx, spec, o, c);
  const GemmShape shape = parse_shape(g.gemm);
  const cu::GemmPlan plan = cu::plan_gemm(sys.isa, sys.cu, sys.codec, sys.layout, shape);
  std::mt19937_64 rng(g.seed);
  const Int8Matrix a = g.a.empty() ? random_matrix(shape.m, shape.k, OperandDist::Full, rng) : read_npy_int8(g.a);
  const Int8Matrix b = g.b.empty() ? random_matrix(shape.k, shape.n, OperandDist::Full, rng) : read_npy_int8(g.b);
  if (a.rows != shape.m || a.cols != shape.k || b.rows != shape.k || b.cols != shape.n)
    throw Error("run.shape", fmt::format("--gemm {}x{}x{} needs A {}x{} and B {}x{}; got A {}x{}, B {}x{}", shape.m,
                                         shape.k, shape.n, shape.m, shape.k, shape.k, shape.n, a.rows, a.cols, b.rows,
                                         b.cols));
  const std::uint8_t fill = 0xA5;
  const std::vector<std::uint8_t> before = cu::gemm_memory(plan, a, b, fill);
  const Int8Matrix want = reference_gemm(a, b, false);
  const auto dispatch = [&](cu::HostPort& port) { return sys.dispatch(port, plan.programs, sys.layout.cores); };
  fmt::print("tpugen noc gemm: {}x{}x{} on {} unit(s) of a {} x {} mesh (T = {}, MAXDIM = {}), {} block(s)\n", shape.m,
             shape.k, shape.n, sys.layout.cores.size(), sys.layout.nx, sys.layout.ny, sys.isa.param("T"),
             sys.isa.param("MAXDIM"), plan.blocks.size());
  int status = kOk;
  nlohmann::ordered_json j;
  j["engine"] = c.engine;
  j["shape"] = {shape.m, shape.k, shape.n};
  j["cores"] = sys.layout.cores.size();
  j["blocks"] = plan.blocks.size();
  // One engine's end: every program DONE, C equal to clip(A @ B), nothing
  // outside C changed.
  const auto judge = [&](std::string_view engine, const std::vector<cu::DispatchEnd>& ends,
                         const std::vector<std::string>& stuck, const std::vector<std::uint8_t>& after) {
    bool ok = true;
    for (const auto& e : ends)
      if (e.state != "DONE") {
        fmt::print(stderr, "tpugen: {}: {}\n", engine, not_completed(e, stuck));
        ok = false;
      }
    const CuGemmVerdict v = judge_cu_gemm(plan, want, before, after);
    const std::size_t wrong = v.c_wrong, outside = v.outside_changed;
    fmt::print("  {}: C against clip(A @ B): {}; memory outside C: {}\n", engine,
               wrong == 0 ? "equal" : fmt::format("{} element(s) differ", wrong),
               outside == 0 ? "unchanged" : fmt::format("{} byte(s) changed", outside));
    j["c_equal"] = wrong == 0 && (!j.contains("c_equal") || j["c_equal"].get<bool>());
    j["outside_c_unchanged"] = outside == 0 && (!j.contains("outside_c_unchanged") || j["outside_c_unchanged"].get<bool>());
    if (!g.c_out.empty()) write_npy_int8(g.c_out, v.c);
    return ok && v.ok();
  };
  std::vector<std::uint8_t> model_after;
  if (c.engine != "rtl") {
    mover::MoverMemory mem(0, before);
    cu::SystemModel system(sys.specs, sys.layout, mem);
    cu::HostPort port = cu::model_port(system);
    const auto ends = dispatch(port);
    if (!judge("model", ends, system.stuck(), mem.bytes())) status = kFail;
    fmt::print("  model: flits moved {}\n", system.flits());
    j["flits"] = system.flits();
    j["model_flits"] = system.flits();
    model_after = mem.bytes();
  }
  if (c.engine != "model") {
    const auto [ends, at, r] = CuSystemRtl(sys, c).run(c, before, dispatch);
    if (!judge("RTL", ends, {fmt::format("the host waited {} cycles (--timeout {})", at, c.timeout)}, r.memory))
      status = kFail;
    for (const auto& x : rtl_run_errors(r)) {
      fmt::print(stderr, "tpugen: RTL: {}\n", x);
      status = kFail;
    }
    const CuGemmFigures f = cu_gemm_figures(sys, shape, r);
    fmt::print("  RTL: {} cycles from the first dispatch to the last retirement, {:.1f}% of the {}-core peak ({} "
               "MAC/cycle); {} flits moved\n",
               f.cycles, 100.0 * f.utilization, sys.layout.cores.size(), f.peak, f.flits);
    std::string shares;
    for (std::size_t u = 0; u < f.busy.size(); ++u)
      shares += fmt::format(" ({},{}) {:.1f}%", sys.layout.cores[u].x, sys.layout.cores[u].y, 100.0 * f.busy[u]);
    fmt::print("  RTL: the share of those cycles each unit was executing an instruction:{}\n", shares);
    j["cycles"] = f.cycles;
    j["utilization"] = f.utilization;
    j["flits"] = f.flits;
    j["core_busy"] = f.busy;
    nlohmann::ordered_json injected = nlohmann::ordered_json::object();
    for (std::size_t n = 0; n < r.injected.size(); ++n)
      if (r.injected[n] != 0)
        injected[fmt::format("{},{}", n % static_cast<std::size_t>(sys.layout.nx),
                             n / static_cast<std::size_t>(sys.layout.nx))] = r.injected[n];
    j["injected"] = injected;  // per node X,Y: flits it sent into the mesh
    if (c.engine == "both") {
      std::size_t differ = 0;
      for (std::size_t i = 0; i < before.size(); ++i) differ += i >= r.memory.size() || r.memory[i] != model_after[i];
      fmt::print("  RTL against the model: the memory after the run {}\n",
                 differ == 0 ? "is the same" : fmt::format("differs in {} byte(s)", differ));
      j["rtl_equals_model"] = differ == 0;
      if (differ != 0) status = kFail;
      // Both count every flit a node sends (a multicast word once for each
      // destination); the model writes C once the core is done, in bursts as
      // long as memory allows, the RTL as its words complete.
      const auto model_flits = j["model_flits"].get<std::uint64_t>();
      fmt::print("  RTL against the model: {}\n",
                 f.flits == model_flits ? std::string("as many flits as the model")
                                        : fmt::format("{} flits, the model {}", f.flits, model_flits));
    }
  } else {
    j["cycles"] = nullptr;
    j["utilization"] = nullptr;
    j["core_busy"] = nullptr;
  }
  if (!c.json.empty()) write_file(c.json, j.dump(2) + "\n", "cli.io");
  return status;
}

}  // namespace tpugen::cli
