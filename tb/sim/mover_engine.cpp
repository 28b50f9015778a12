#include "sim/mover_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "hdl/sysnode/sysnode_generate.h"
#include "sim/harness_run.h"
#include "sim/mover/mover_wire.h"
#include "sim/system_node_harness.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

namespace wire = tpusim::mover_wire;

const MoverField& status_field(const MoverSpec& m, std::string_view name) {
  const MoverRegister* reg = nullptr;
  const MoverField* f = m.field(name, &reg);
  if (f == nullptr || reg == nullptr || reg->name != "STATUS")
    throw Error("mover.spec", fmt::format("the mover's harness needs the STATUS field '{}'", name));
  return *f;
}

/// The register of a field (throws Error("mover.spec") when the spec has none).
const MoverRegister& register_of(const MoverSpec& m, std::string_view field) {
  const MoverRegister* reg = nullptr;
  if (m.field(field, &reg) == nullptr || reg == nullptr)
    throw Error("mover.spec", fmt::format("the mover's harness needs the register field '{}'", field));
  return *reg;
}

/// A write that commutes with any other such write: it neither stages nor
/// commits a dimension, nor carries a strobe (GO).
bool commutes(const MoverSpec& m, std::uint32_t offset) {
  const MoverRegister* r = m.reg_at(offset);
  if (r == nullptr || r->stages || !r->commits.empty()) return false;
  return std::none_of(r->fields.begin(), r->fields.end(),
                      [](const MoverField& f) { return f.kind == MoverFieldKind::Strobe; });
}

/// `v` changed within a field of `width` bits (signed: two's complement):
/// the low bit flipped, which keeps it inside the field.
std::int64_t flip(std::int64_t v) { return v ^ 1; }

std::string bytes_hex(const std::vector<std::uint8_t>& b, std::size_t from, std::size_t n) {
  std::string s;
  for (std::size_t i = from; i < from + n && i < b.size(); ++i) s += fmt::format("{:02x}", b[i]);
  return s;
}

/// The mover's own result lines (mover_wire.h) into `r`; busy, status_read
/// (the harness's own checks' inputs) and unknown keys are ignored.
void read_mover_line(const ResultLine& l, MoverRtlResult& r) {
  const std::string& key = l.key;
  if (key == "cycles")
    r.cycles = l.num();
  else if (key == "total_cycles")
    r.total_cycles = l.num();
  else if (key == "fault")
    r.fault = static_cast<std::uint32_t>(l.num());
  else if (key == "fault_o")
    r.fault_o = static_cast<std::uint32_t>(l.num());
  else if (key == "moves_done")
    r.moves_done = l.num();
  else if (key == "read_beats")
    r.words_read = l.num();
  else if (key == "w_beats")
    r.w_beats = l.num();
  else if (key == "write_beats")
    r.words_written = l.num();
  else if (key == "data_beats")
    r.data_beats = l.num();
  else if (key == "race_writes")
    r.race_writes = l.num();
  else if (key == "race_gos")
    r.race_gos = l.num();
  else if (key == "race_gos_ignored")
    r.race_gos_ignored = l.num();
}

}  // namespace

std::string mover_config_header(const hdl::SysnodeContext& ctx, bool system_node) {
  const SystemNodeSpec& s = ctx.spec();
  const MoverSpec& m = s.mover;
  std::uint32_t max_offset = 0;
  for (const auto& r : m.registers) max_offset = std::max(max_offset, r.offset);
  int offset_w = 1;  // as tpu_mover_pkg's REG_OFFSET_W
  while ((std::uint32_t{1} << offset_w) <= max_offset) ++offset_w;
  const std::string top = system_node ? std::string(kSysnodeMoverTop) : std::string(hdl::kMoverTop);
  const MoverField& go = m.require_field("go", "the mover's harness");
  const MoverField &busy = status_field(m, "busy"), &fault = status_field(m, "fault"),
                   &done = status_field(m, "moves_done");
  std::string params;
  for (const auto& [name, v] : ctx.mover_params().listing())
    params += fmt::format("{}{}={}", params.empty() ? "" : " ", name, v);
  return fmt::format(
      "// mover_config.h: the mover harness's configuration, written by tpugen {} (tb/sim/mover_engine.cpp)\n"
      "// from {} (sha256 {}). Do not edit.\n"
      "#pragma once\n#include \"V{}.h\"\n\nnamespace mover_config {{\n"
      "using Dut = V{};\n"
      "inline constexpr unsigned kDataBytes = {};    // the AXI data bus: one word\n"
      "inline constexpr unsigned kAddrBits = {};\n"
      "inline constexpr unsigned kIdBits = {};        // {}\n"
      "inline constexpr unsigned kRegOffsetW = {};   // tpu_mover_pkg::REG_OFFSET_W\n"
      "inline constexpr unsigned kGoOffset = {:#x};  // {}.go\n"
      "inline constexpr unsigned kGoLsb = {};\n"
      "inline constexpr unsigned kStatusOffset = {:#x};\n"
      "inline constexpr unsigned kBusyLsb = {}, kBusyW = {};\n"
      "inline constexpr unsigned kFaultLsb = {}, kFaultW = {};\n"
      "inline constexpr unsigned kMovesDoneLsb = {}, kMovesDoneW = {};\n"
      "inline constexpr const char* kParams = \"{}\";\n"
      "}}  // namespace mover_config\n",
      TPUGEN_VERSION, fs::path(s.path).filename().string(), s.sha256, top, top, s.word_bytes(), s.address_bits,
      system_node ? kSysnodeIdBits : 1U,
      system_node ? "the system node's port: {master, id}" : "the mover's own master port", offset_w,
      register_of(m, "go").offset, register_of(m, "go").name, go.lsb, register_of(m, "moves_done").offset, busy.lsb,
      busy.width(), fault.lsb, fault.width(), done.lsb, done.width(), params);
}

Harness mover_harness(bool waveform) {
  return run_file_harness("sim/mover/mover_main.cpp", "sim/mover/mover_wire.h", waveform);
}

fs::path ensure_mover_simulator(const hdl::SysnodeContext& ctx, const fs::path& build_root,
                                const BuildProgress& progress, const MoverSimOptions& options) {
  UnitSimBuild unit;
  unit.config_file = "mover_config.h";
  unit.config = [&ctx](bool system_node) { return mover_config_header(ctx, system_node); };
  unit.generate = [&ctx](const fs::path& dir) { (void)hdl::generate_mover(ctx, dir.string()); };
  unit.unit_top = hdl::kMoverTop;
  unit.sysnode_top = kSysnodeMoverTop;
  unit.key_text = fmt::format("tpugen {}\nsystem node spec sha256 {}\nnoc spec sha256 {}\n", TPUGEN_VERSION,
                              ctx.spec().sha256, ctx.noc().sha256);
  unit.description = "the memory mover,";
  for (const auto& [name, v] : ctx.mover_params().listing()) {
    unit.key_text += fmt::format("mover param {}={}\n", name, v);
    unit.description += fmt::format(" {}={}", name, v);
  }
  for (const auto& [name, v] : ctx.agent_params().listing())
    unit.key_text += fmt::format("agent param {}={}\n", name, v);
  unit.harness = mover_harness(options.waveform);
  unit.waveform = options.waveform;
  unit.assertions = options.assertions;
  unit.system_node = options.system_node;
  return build_unit_simulator(ctx, build_root, progress, unit);
}

std::vector<mover::RegWrite> go_race_writes(const SystemNodeSpec& spec, const mover::MoveDescriptor& d) {
  const MoverSpec& m = spec.mover;
  mover::MoveDescriptor o = d;
  const std::uint32_t fill = m.require_mode("FILL").code, copy = m.require_mode("COPY").code;
  o.mode = d.mode == fill ? copy : fill;
  o.elem_width = d.elem_width >= 2 ? 0 : d.elem_width + 1;
  o.flags = d.flags ^ 0x28;  // coalescing and the burst cap changed
  o.xform_id = static_cast<std::uint32_t>(flip(d.xform_id));
  o.xform_mode = static_cast<std::uint32_t>(flip(d.xform_mode));
  for (auto& w : o.walkers) {
    w.base ^= 0x1000;
    w.ndim = static_cast<std::uint32_t>(flip(w.ndim));
    for (auto& dim : w.dims) {
      dim.count = static_cast<std::uint32_t>(flip(dim.count));
      dim.stride = dim.stride >= 0 ? dim.stride - 32 : dim.stride + 32;
      dim.bound_sel = static_cast<std::uint32_t>(flip(dim.bound_sel));
      dim.astep = flip(dim.astep);
    }
    for (auto& a : w.axes) {
      a.abase = flip(a.abase);
      a.extent = static_cast<std::uint32_t>(flip(a.extent));
    }
  }
  o.index_base ^= 0x20;
  o.index_count = static_cast<std::uint32_t>(flip(o.index_count));
  o.seed = ~d.seed;
  o.imm = ~d.imm;
  o.pitch ^= 0x20;
  o.gather_words = static_cast<std::uint32_t>(flip(o.gather_words));
  const mover::MoverRegisterFile regs(spec);
  std::vector<mover::RegWrite> out = regs.writes_for(o, true);
  out.insert(out.begin(), out.back());  // a GO at once, while the move has just begun
  return out;
}

unsigned burst_cap(const SystemNodeSpec& spec, const mover::MoveDescriptor& d) {
  const MoverFlag& f = spec.mover.require_flag("burst_cap");
  const std::uint32_t code = (d.flags >> f.lsb) & ((1U << f.width()) - 1);
  if (code < f.values.size() && f.values[code] > 0) return static_cast<unsigned>(f.values[code]);
  return static_cast<unsigned>(spec.axi.max_burst_beats);
}

MoverRtlResult run_mover_rtl(const fs::path& sim, const SystemNodeSpec& spec, const mover::MoveDescriptor& d,
                             const mover::MoverMemory& memory, const MoverRunConditions& c,
                             const MoverRtlOptions& options) {
  if (c.port != "host" && c.port != "cp" && c.port != "random")
    throw Error("rtl.run", fmt::format("the register port is host, cp or random, not '{}'", c.port));
  if (memory.bytes().empty()) throw Error("rtl.run", "the memory image is empty");
  const mover::MoverRegisterFile regs(spec);
  const std::vector<mover::RegWrite> writes = regs.writes_for(d, true);

  MoverRtlResult r;
  HarnessRunSpec harness;
  harness.stem = "tpugen-mover-";
  harness.result_magic = wire::kResultMagic;
  harness.statuses = wire::kStatusNames;
  harness.assertion_markers = {"Assertion failed", "%Error"};
  harness.trace = options.trace;
  harness.work_dir = options.work_dir;
  harness.describe = [&](const fs::path& image) {
    std::string run = std::string(wire::kRunMagic) + "\n";
    run += fmt::format("# {} word(s) at {:#x}\nimage_base {:#x}\nimage {}\n", memory.bytes().size() / spec.word_bytes(),
                       memory.base(), memory.base(), image.string());
    run += fmt::format(
        "latency {}\nready_stall {}\nvalid_stall {}\nreorder {}\ninterleave {}\nmax_reads {}\n"
        "max_writes {}\nmax_burst {}\nseed {}\nmax_cycles {}\nwatchdog {}\ngap_max {}\n",
        c.latency, c.ready_stall, c.valid_stall, int(c.reorder), int(c.interleave), c.max_reads, c.max_writes,
        burst_cap(spec, d), c.seed, c.max_cycles, c.watchdog, c.gap_max);
    for (const auto a : memory.slverr()) run += fmt::format("slverr {:#x}\n", a);
    for (const auto& w : writes)
      run +=
          fmt::format("write {:#04x} {:#018x} {} {}\n", w.offset, w.value, c.port, int(commutes(spec.mover, w.offset)));
    if (c.go_race)
      for (const auto& w : go_race_writes(spec, d)) run += fmt::format("race {:#04x} {:#018x}\n", w.offset, w.value);
    return run;
  };
  harness.read = [&r](const ResultLine& l) { read_mover_line(l, r); };
  run_harness(sim, memory.bytes(), harness, r);
  r.bus_utilization = r.cycles > 0 ? static_cast<double>(r.data_beats) / static_cast<double>(r.cycles) : 0.0;
  return r;
}

MoverComparison compare_mover_runs(const SystemNodeSpec& spec, const mover::MoveResult& model,
                                   const mover::MoverMemory& model_memory, const MoverRtlResult& rtl) {
  MoverComparison cmp;
  auto fault_text = [&](std::uint32_t code) {
    if (code == 0) return std::string("0 (none)");
    for (const auto& f : spec.mover.faults)
      if (f.code == code) return fmt::format("{} ({})", code, f.name);
    return fmt::format("{}", code);
  };
  if (rtl.status != "done") {
    cmp.differences.push_back(fmt::format("the RTL run ended with status {}, not done", rtl.status));
    return cmp;
  }
  if (model.fault != rtl.fault)
    cmp.differences.push_back(fmt::format("fault: model {}, RTL {}", fault_text(model.fault), fault_text(rtl.fault)));
  const std::uint64_t model_done = model.fault == 0 ? 1 : 0;
  if (model_done != rtl.moves_done)
    cmp.differences.push_back(fmt::format("moves_done: model {}, RTL {}", model_done, rtl.moves_done));
  const std::uint32_t axi = spec.mover.require_fault("AXI_RESPONSE").code;
  if (model.fault == axi || model.read_after_write) return cmp;
  cmp.memory_compared = true;
  const auto& want = model_memory.bytes();
  const auto& have = rtl.memory;
  if (want.size() != have.size()) {
    cmp.differences.push_back(
        fmt::format("memory: the RTL's image is {} bytes, the model's {}", have.size(), want.size()));
    return cmp;
  }
  const std::size_t word = static_cast<std::size_t>(spec.word_bytes());
  std::size_t first = want.size();
  for (std::size_t w = 0; w < want.size(); w += word) {
    const std::size_t n = std::min(word, want.size() - w);
    if (std::equal(want.begin() + static_cast<std::ptrdiff_t>(w), want.begin() + static_cast<std::ptrdiff_t>(w + n),
                   have.begin() + static_cast<std::ptrdiff_t>(w)))
      continue;
    ++cmp.words_differing;
    if (first == want.size()) first = w;
  }
  if (cmp.words_differing > 0) {
    std::size_t b = first;
    while (want[b] == have[b]) ++b;
    const std::uint64_t base = model_memory.base();
    cmp.differences.push_back(fmt::format(
        "memory: {} word(s) differ; the first at {:#x}: byte {:#x} model {:#04x}, RTL {:#04x} (the word, its lowest "
        "byte first: model {}, RTL {})",
        cmp.words_differing, base + first, base + b, want[b], have[b], bytes_hex(want, first, word),
        bytes_hex(have, first, word)));
  }
  return cmp;
}

}  // namespace tpugen::sim
