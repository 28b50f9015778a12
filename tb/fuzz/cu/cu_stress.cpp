#include "fuzz/cu/cu_stress.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz/core/random_program.h"
#include "isa/image.h"
#include "util/file_io.h"

namespace tpugen::cu {

namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

/// Where one unit's things sit in memory: its program image, the same
/// image with an opcode the spec does not define in its first instruction,
/// then A, B and C, each MAXDIM rows of the widest stride a RUN draws.
struct Region {
  std::uint64_t image = 0, bad_image = 0, a = 0, b = 0, c = 0, end = 0;
};

struct Geometry {
  int word = 0;  ///< bytes of a mesh word (the data payload's)
  int maxdim = 0, row_words = 0, imem = 0, max_stride = 0;
  std::uint64_t region_bytes = 0, memory_bytes = 0;
  [[nodiscard]] Region region(std::size_t unit) const {
    Region r;
    r.image = unit * region_bytes;
    const std::uint64_t image_bytes = round_up(static_cast<std::uint64_t>(imem) * 8, static_cast<std::uint64_t>(word));
    r.bad_image = r.image + image_bytes;
    r.a = r.bad_image + image_bytes;
    const std::uint64_t operand = static_cast<std::uint64_t>(maxdim) * max_stride * word;
    r.b = r.a + operand;
    r.c = r.b + operand;
    r.end = r.c + operand;
    return r;
  }
};

Geometry geometry(const StressShape& s) {
  Geometry g;
  g.maxdim = static_cast<int>(s.isa->param("MAXDIM"));
  g.word = s.codec->field("data.word").width / 8;
  g.row_words = (g.maxdim + g.word - 1) / g.word;
  g.imem = static_cast<int>(s.isa->param("IMEM_SIZE"));
  g.max_stride = g.row_words + 2;
  g.region_bytes = round_up(g.region(0).end, 4096);
  g.memory_bytes = std::max<std::uint64_t>(s.memory_bytes, g.region_bytes * s.layout.cores.size());
  return g;
}

std::uint32_t field_value(const NocLayout& l, std::string_view name, std::uint32_t v) {
  const NocField* f = l.field(name);
  return f == nullptr ? 0 : (v >> f->lsb) & ((1u << f->width()) - 1);
}

/// The largest value an opcode's field holds.
std::int64_t field_max(const UnitOpcode& op, std::string_view field) {
  return (std::int64_t{1} << op.require_field(field).width()) - 1;
}

std::string node_text(noc::Coord n) { return fmt::format("({},{})", n.x, n.y); }

}  // namespace

const char* to_string(StressKind k) {
  switch (k) {
    case StressKind::Status:
      return "status";
    case StressKind::BadSelect:
      return "bad_select";
    case StressKind::Unknown:
      return "unknown_opcode";
    case StressKind::Load:
      return "load";
    case StressKind::LoadMisaligned:
      return "load_misaligned";
    case StressKind::LoadTooLong:
      return "load_too_long";
    case StressKind::LoadPastMemory:
      return "load_past_memory";
    case StressKind::Run:
      return "run";
    case StressKind::RunMisaligned:
      return "run_misaligned";
    case StressKind::RunTooBig:
      return "run_too_big";
    case StressKind::RunPastMemory:
      return "run_past_memory";
    case StressKind::RunMissingRows:
      return "run_missing_rows";
    case StressKind::LoadBadProgram:
      return "load_bad_program";
  }
  return "?";
}

std::size_t StressCase::instructions() const {
  std::size_t n = 0;
  for (const auto& p : programs) n += p.size();
  return n;
}

unsigned stress_word_cycles() {
  // The slowest of each kind of memory drawn: kMaxLatency with kManyReads
  // reads at a time, and kFewReadsLatency with one.
  auto word = [](unsigned latency, unsigned reads) { return (latency + 2 + reads - 1) / reads; };
  return std::max(word(kMaxLatency, kManyReads), word(kFewReadsLatency, 1));
}

std::int64_t stress_wait_limit(std::int64_t maxdim, std::int64_t word_bytes, std::size_t units) {
  const std::int64_t block_words = 2 * maxdim * maxdim / word_bytes;
  return std::max<std::int64_t>(64, 2 * static_cast<std::int64_t>(units) * block_words * stress_word_cycles());
}

StressCase random_stress_case(Rng& rng, const StressShape& shape, std::uint64_t seed) {
  const UnitSpec& unit = shape.cu->require_unit("tinytpu");
  const Geometry g = geometry(shape);
  const std::size_t units = shape.layout.cores.size();
  const int per_unit = std::min<int>(kMaxProgram, shape.prog_flits / static_cast<int>(std::max<std::size_t>(units, 1)));
  if (per_unit < 1)
    throw Error("cu.stress", fmt::format("{} staging slots (PROG_FLITS) cannot hold a program for each of {} units",
                                         shape.prog_flits, units));
  StressCase c;
  c.seed = seed;
  c.memory.resize(g.memory_bytes);
  for (auto& byte : c.memory) byte = static_cast<std::uint8_t>(rng.next());
  c.over_credit = rng.chance(1, 6);
  c.credits = c.over_credit ? shape.inst_depth + static_cast<int>(rng.uniform(1, 4)) : shape.inst_depth;
  c.conditions.latency = rng.chance(1, 2) ? static_cast<unsigned>(rng.small(1, kMaxLatency)) : 0;
  c.conditions.ready_stall = rng.chance(1, 3) ? 0.25 : 0.0;
  c.conditions.valid_stall = rng.chance(1, 3) ? 0.25 : 0.0;
  c.conditions.host_delay = rng.chance(1, 3) ? static_cast<unsigned>(rng.uniform(1, 6)) : 0;
  c.conditions.host_stall = rng.chance(1, 4) ? 0.3 : 0.0;
  c.conditions.seed = rng.next();
  if (rng.chance(1, 4)) {
    c.conditions.max_reads = static_cast<unsigned>(rng.uniform(1, kFewReadsMax));
    c.conditions.latency = std::min(c.conditions.latency, kFewReadsLatency);
  } else {
    c.conditions.max_reads = rng.chance(1, 2) ? kManyReadsMax : kManyReads;
  }

  const auto txn_max = static_cast<std::uint32_t>((1u << shape.codec->field("txn").width) - 1);
  std::set<std::uint32_t> known;
  for (const auto& op : unit.opcodes) known.insert(op.code);
  const auto selects = unit.status_selects.size();
  // The opcode field of an instruction's first word, and the codes no opcode has.
  const Spec& isa_spec = shape.isa->spec();
  const auto& op_field = isa_spec.word0[shape.isa->op_index()];
  const std::uint64_t op_mask = (std::uint64_t{1} << op_field.width) - 1;
  std::vector<std::uint64_t> undefined_ops;
  for (std::uint64_t v = 0; v <= op_mask; ++v)
    if (std::none_of(isa_spec.opcodes.begin(), isa_spec.opcodes.end(),
                     [&](const Opcode& o) { return static_cast<std::uint64_t>(o.value) == v; }))
      undefined_ops.push_back(v);
  if (undefined_ops.empty()) throw Error("cu.stress", "every opcode code is defined: no bad program to load");
  const int nhdr = isa_spec.nhdr;  // the image: the header words, then instruction 0
  for (std::size_t u = 0; u < units; ++u) {
    const Region r = g.region(u);
    // The unit's random program: its image and its operands, in its region.
    fuzz::FuzzOptions fo;
    const fuzz::FuzzCase program = fuzz::random_case(*shape.isa, rng.next(), fo);
    const std::vector<std::uint64_t> image = encode_image(*shape.isa, program.program);
    // The bad image: the first instruction's opcode one the spec does not
    // define, so a RUN of it faults CORE before the core does anything.
    std::vector<std::uint64_t> bad = image;
    bad[static_cast<std::size_t>(nhdr)] =
        (bad[static_cast<std::size_t>(nhdr)] & ~(op_mask << op_field.lsb)) |
        (undefined_ops[static_cast<std::size_t>(rng.uniform(0, static_cast<std::int64_t>(undefined_ops.size()) - 1))]
         << op_field.lsb);
    for (const auto& [at, words] :
         {std::pair{r.image, &image}, std::pair{r.bad_image, static_cast<const std::vector<std::uint64_t>*>(&bad)}})
      for (std::size_t w = 0; w < words->size(); ++w)
        for (int byte = 0; byte < 8; ++byte)
          c.memory[at + w * 8 + static_cast<std::size_t>(byte)] = static_cast<std::uint8_t>((*words)[w] >> (8 * byte));
    const auto place = [&](std::uint64_t at, const std::vector<std::int8_t>& m) {
      for (int row = 0; row < g.maxdim; ++row)
        for (int col = 0; col < g.maxdim; ++col)
          c.memory[at + static_cast<std::uint64_t>(row) * g.row_words * g.word + static_cast<std::uint64_t>(col)] =
              static_cast<std::uint8_t>(m[static_cast<std::size_t>(row * g.maxdim + col)]);
    };
    place(r.a, program.a);
    place(r.b, program.b);
    place(r.c, program.c);

    const int len = static_cast<int>(rng.uniform(1, per_unit));
    auto txn = static_cast<std::uint32_t>(rng.uniform(0, txn_max));
    const bool last_at_end = rng.chance(7, 8);
    std::vector<noc::Flit> prog;
    std::vector<StressKind> kinds;
    for (int i = 0; i < len; ++i, txn = txn == txn_max ? 0 : txn + 1) {
      const bool last = i == len - 1 ? last_at_end : rng.chance(1, 10);
      // The weights: the instructions that run the core most, the faults each now and then.
      static constexpr std::uint64_t kWeights[] = {3, 1, 2, 4, 1, 1, 1, 6, 1, 1, 1, 1, 1};
      static_assert(std::size(kWeights) == static_cast<std::size_t>(StressKind::LoadBadProgram) + 1,
                    "a weight for every StressKind");
      auto kind = static_cast<StressKind>(rng.weighted(kWeights));
      const auto run_fields = [&] {
        const auto stride = [&] { return rng.chance(1, 2) ? 0 : rng.uniform(g.row_words, g.max_stride); };
        return std::map<std::string, std::uint64_t>{{"a_addr", r.a},
                                                    {"b_addr", r.b},
                                                    {"c_addr", r.c},
                                                    {"a_stride", stride()},
                                                    {"b_stride", stride()},
                                                    {"c_stride", stride()},
                                                    {"m", rng.edgy(0, g.maxdim)},
                                                    {"k", rng.edgy(0, g.maxdim)},
                                                    {"n", rng.edgy(0, g.maxdim)}};
      };
      noc::Flit f;
      switch (kind) {
        case StressKind::Status:
          f = cu_inst(
              unit, *shape.codec, "STATUS",
              {{"select",
                unit.status_selects[static_cast<std::size_t>(rng.uniform(0, static_cast<std::int64_t>(selects) - 1))]
                    .code}},
              txn, last);
          break;
        case StressKind::BadSelect: {
          std::uint32_t sel = 0;
          do sel = static_cast<std::uint32_t>(rng.uniform(0, field_max(unit.require_opcode("STATUS"), "select")));
          while (std::any_of(unit.status_selects.begin(), unit.status_selects.end(),
                             [&](const NocCode& s) { return s.code == sel; }));
          f = cu_inst(unit, *shape.codec, "STATUS", {{"select", sel}}, txn, last);
          break;
        }
        case StressKind::Unknown: {
          std::uint32_t op = 0;
          do op = static_cast<std::uint32_t>(rng.uniform(0, (1 << unit.opcode_width()) - 1));
          while (known.count(op));
          f = cu_inst(unit, *shape.codec, "STATUS", {}, txn, last);
          f.set_bits(unit.opcode_lsb, unit.opcode_width(), op);
          // The rest of the payload random: nothing of it may matter.
          for (int w = 0; w + 64 <= unit.opcode_lsb; w += 64) f.set_bits(w, 64, rng.next());
          break;
        }
        case StressKind::Load:
          f = cu_inst(unit, *shape.codec, "LOAD", {{"addr", r.image}, {"words", image.size()}}, txn, last);
          break;
        case StressKind::LoadMisaligned:
          f = cu_inst(unit, *shape.codec, "LOAD",
                      {{"addr", r.image + 8 * static_cast<std::uint64_t>(rng.uniform(1, 3))}, {"words", image.size()}},
                      txn, last);
          break;
        case StressKind::LoadTooLong:
          f = cu_inst(unit, *shape.codec, "LOAD", {{"addr", r.image}, {"words", rng.uniform(g.imem + 1, g.imem + 64)}},
                      txn, last);
          break;
        case StressKind::LoadPastMemory:
          f = cu_inst(unit, *shape.codec, "LOAD",
                      {{"addr", round_up(g.memory_bytes, static_cast<std::uint64_t>(g.word)) +
                                    g.word * static_cast<std::uint64_t>(rng.uniform(0, 64))},
                       {"words", image.size()}},
                      txn, last);
          break;
        case StressKind::LoadBadProgram:  // a RUN after it faults CORE
          f = cu_inst(unit, *shape.codec, "LOAD", {{"addr", r.bad_image}, {"words", bad.size()}}, txn, last);
          break;
        case StressKind::Run:  // whether imem holds a program (else NO_PROGRAM) is the order's
          f = cu_inst(unit, *shape.codec, "RUN", run_fields(), txn, last);
          break;
        case StressKind::RunMisaligned: {
          auto fields = run_fields();
          fields[rng.chance(1, 2) ? "a_addr" : "c_addr"] += static_cast<std::uint64_t>(rng.uniform(1, g.word - 1));
          f = cu_inst(unit, *shape.codec, "RUN", fields, txn, last);
          break;
        }
        case StressKind::RunTooBig: {
          auto fields = run_fields();
          const char* dim = rng.chance(1, 2) ? "m" : "n";
          fields[dim] =
              static_cast<std::uint64_t>(rng.uniform(g.maxdim + 1, field_max(unit.require_opcode("RUN"), dim)));
          f = cu_inst(unit, *shape.codec, "RUN", fields, txn, last);
          break;
        }
        case StressKind::RunPastMemory: {
          auto fields = run_fields();
          fields["c_addr"] = round_up(g.memory_bytes, static_cast<std::uint64_t>(g.word)) +
                             g.word * static_cast<std::uint64_t>(rng.uniform(0, 64));
          f = cu_inst(unit, *shape.codec, "RUN", fields, txn, last);
          break;
        }
        case StressKind::RunMissingRows: {
          auto fields = run_fields();
          fields["a_recv"] = 1;
          f = cu_inst(unit, *shape.codec, "RUN", fields, txn, last);
          break;
        }
      }
      prog.push_back(f);
      kinds.push_back(kind);
    }
    c.programs.push_back(std::move(prog));
    c.kinds.push_back(std::move(kinds));
  }
  return c;
}

std::string judge_stress(const StressShape& shape, const StressCase& c, const StressRun& model, const StressRun& rtl) {
  const noc::Codec& codec = *shape.codec;
  const NocSpec& ns = codec.spec();
  const std::uint32_t t_signal = codec.type_code("CU_SIGNAL");
  const std::uint32_t sig_inst = ns.require_signal("SIG_INST_COMPLETE").code;
  const std::uint32_t sig_batch = ns.require_signal("SIG_BATCH_COMPLETE").code;
  const std::uint32_t sig_fault = ns.require_signal("SIG_FAULT").code;
  const auto& cores = shape.layout.cores;
  // Each unit's retirement flits, in the order they came.
  const auto by_node = [&](const StressRun& run, const char* engine, std::string& why) {
    std::vector<std::vector<noc::Flit>> out(cores.size());
    for (const auto& f : run.rx) {
      const noc::Header h = codec.header(f);
      const int u = shape.layout.core_index(h.src());
      if (u < 0 || h.type != t_signal) {
        if (why.empty()) why = fmt::format("{}: a stray flit (type {}) from {}", engine, h.type, node_text(h.src()));
        continue;
      }
      out[static_cast<std::size_t>(u)].push_back(f);
    }
    return out;
  };
  // One engine's run on its own.
  const auto hold = [&](const StressRun& run, const char* engine) -> std::string {
    for (const auto& e : run.errors) return fmt::format("{}: {}", engine, e);
    std::string why;
    const auto flits = by_node(run, engine, why);
    if (!why.empty()) return why;
    if (run.ends.size() != c.programs.size())
      return fmt::format("{}: {} program end(s) for {} program(s)", engine, run.ends.size(), c.programs.size());
    for (std::size_t u = 0; u < cores.size(); ++u) {
      const auto& prog = c.programs[u];
      const auto& got = flits[u];
      const std::string at = fmt::format("{}: node {}", engine, node_text(cores[u]));
      if (got.size() != prog.size())
        return fmt::format("{}: {} retirement flit(s) for {} instruction(s)", at, got.size(), prog.size());
      std::multiset<std::uint32_t> sent, retired;
      bool fault = false, batch = false;
      for (std::size_t i = 0; i < prog.size(); ++i) {
        const noc::Header want = codec.header(prog[i]);
        const noc::Header h = codec.header(got[i]);
        sent.insert(want.txn);
        retired.insert(h.txn);
        if (!c.over_credit && h.txn != want.txn)
          return fmt::format("{}: instruction {} (txn {}) retired by a flit of txn {}", at, i, want.txn, h.txn);
        const auto code = static_cast<std::uint32_t>(codec.get(got[i], "cu_signal.code"));
        const auto arg = static_cast<std::uint32_t>(codec.get(got[i], "cu_signal.arg"));
        fault = fault || code == sig_fault;
        batch = batch || code == sig_batch;
        if (c.over_credit) continue;  // which flit retires which instruction is the txn's, checked below
        if (code != sig_fault && code != (want.last ? sig_batch : sig_inst))
          return fmt::format("{}: instruction {} (txn {}, last {}) retired with signal {}", at, i, want.txn, want.last,
                             code);
        if (code == sig_batch && arg != want.txn)
          return fmt::format("{}: txn {}: SIG_BATCH_COMPLETE's arg is 0x{:08x}, not {{24'd0, txn}}", at, want.txn, arg);
      }
      if (sent != retired) return fmt::format("{}: the txns retired are not the txns sent, each once", at);
      const DispatchEnd& e = run.ends[u];
      const char* state = fault ? "FAULT" : batch ? "DONE" : "ENDED";
      if (e.state != state) return fmt::format("{}: the channel ended {}; its flits say {}", at, e.state, state);
      const auto credits =
          std::min<std::uint32_t>(static_cast<std::uint32_t>(prog.size()), static_cast<std::uint32_t>(c.credits));
      if (e.sent != prog.size() || e.retired != prog.size() || e.credits != credits)
        return fmt::format("{}: the channel sent {}, retired {} of {} and holds {} credit(s) of {}", at, e.sent,
                           e.retired, prog.size(), e.credits, credits);
    }
    return {};
  };
  if (auto why = hold(model, "model"); !why.empty()) return why;
  if (auto why = hold(rtl, "RTL"); !why.empty()) return why;
  if (c.over_credit) return {};
  std::string unused;
  auto m = by_node(model, "model", unused), r = by_node(rtl, "RTL", unused);
  // A RUN's MEMORY fault names the last request an ERROR answered: among C's
  // writes and merge reads that is the order of C's write-back, which is the
  // engine's own (docs/compute_units.md), so only its rule is compared: the
  // detail's txn sub-field (the spec's MEMORY detail layout) is cleared.
  const UnitSpec& unit = shape.cu->require_unit("tinytpu");
  const NocCode& memory = unit.require_fault("MEMORY");
  const int detail_lsb = shape.cu->cu_base.fault_result.field("detail")->lsb;
  const NocSubfield& txn = memory.require_detail("txn");
  const NocSubfield txn_in_arg{txn.name, txn.msb + detail_lsb, txn.lsb + detail_lsb};
  // A CORE fault's detail is the RTL core's {code, unit, pc}, which the
  // model, refusing the program whole, does not give: only the code is
  // compared.
  const NocCode& core = unit.require_fault("CORE");
  const NocField& detail = *shape.cu->cu_base.fault_result.field("detail");
  const std::uint32_t detail_mask = ((std::uint32_t{1} << detail.width()) - 1) << detail.lsb;
  // A STATUS of LAST_FAULT reads that word back as its result.
  const UnitField& select = unit.require_opcode("STATUS").require_field("select");
  const std::uint64_t last_fault = unit.require_select("LAST_FAULT").code;
  const auto rule_only = [&](noc::Flit& f, bool status) {
    const auto arg = static_cast<std::uint32_t>(codec.get(f, "cu_signal.arg"));
    if (!status && codec.get(f, "cu_signal.code") != sig_fault) return;
    const std::uint32_t code = field_value(shape.cu->cu_base.fault_result, "code", arg);
    if (code == memory.code) codec.set(f, "cu_signal.arg", txn_in_arg.with(arg, 0));
    if (code == core.code) codec.set(f, "cu_signal.arg", arg & ~detail_mask);
  };
  for (std::size_t u = 0; u < cores.size(); ++u)
    for (std::size_t i = 0; i < m[u].size(); ++i) {
      const StressKind k = c.kinds[u][i];
      const bool reads_fault =
          k == StressKind::Status && c.programs[u][i].bits(select.lsb, select.width()) == last_fault;
      if (k == StressKind::Run || k == StressKind::RunPastMemory || k == StressKind::RunMissingRows || reads_fault) {
        rule_only(m[u][i], reads_fault);
        rule_only(r[u][i], reads_fault);
      }
      if (!(m[u][i] == r[u][i])) {
        const noc::Header h = codec.header(r[u][i]);
        return fmt::format(
            "node {}, instruction {} (txn {}, {}): the RTL retires it with signal {} arg 0x{:08x}, the "
            "model with {} arg 0x{:08x}",
            node_text(cores[u]), i, h.txn, to_string(c.kinds[u][i]), codec.get(r[u][i], "cu_signal.code"),
            codec.get(r[u][i], "cu_signal.arg"), codec.get(m[u][i], "cu_signal.code"),
            codec.get(m[u][i], "cu_signal.arg"));
      }
    }
  if (model.memory.size() != rtl.memory.size())
    return fmt::format("memory after the run: {} bytes on the RTL, {} on the model", rtl.memory.size(),
                       model.memory.size());
  for (std::size_t i = 0; i < model.memory.size(); ++i)
    if (model.memory[i] != rtl.memory[i])
      return fmt::format("memory after the run differs first at 0x{:x}: the RTL 0x{:02x}, the model 0x{:02x}", i,
                         rtl.memory[i], model.memory[i]);
  return {};
}

void write_stress_case(const StressShape& shape, const StressCase& c, const std::string& failure,
                       const std::string& dir) {
  const noc::Codec& codec = *shape.codec;
  const noc::FieldRef payload = codec.payload();
  std::filesystem::create_directories(dir);
  nlohmann::ordered_json j;
  j["seed"] = c.seed;
  j["failure"] = failure;
  j["credits"] = c.credits;
  j["over_credit"] = c.over_credit;
  j["conditions"] = {{"latency", c.conditions.latency},
                     {"ready_stall", c.conditions.ready_stall},
                     {"valid_stall", c.conditions.valid_stall},
                     {"host_delay", c.conditions.host_delay},
                     {"host_stall", c.conditions.host_stall},
                     {"max_reads", c.conditions.max_reads},
                     {"seed", c.conditions.seed}};
  j["memory_bytes"] = c.memory.size();
  nlohmann::ordered_json units = nlohmann::ordered_json::array();
  for (std::size_t u = 0; u < c.programs.size(); ++u) {
    const noc::Coord at = shape.layout.cores[u];
    std::string lines;
    nlohmann::ordered_json insts = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < c.programs[u].size(); ++i) {
      const noc::Flit& f = c.programs[u][i];
      const noc::Header h = codec.header(f);
      nlohmann::ordered_json line = {
          {"txn", h.txn}, {"last", h.last}, {"payload", f.hex_range(payload.lsb, payload.width)}};
      lines += line.dump() + "\n";
      line["kind"] = to_string(c.kinds[u][i]);
      insts.push_back(line);
    }
    units.push_back({{"node", {at.x, at.y}}, {"instructions", insts}});
    write_file((std::filesystem::path(dir) / fmt::format("node_{}_{}.jsonl", at.x, at.y)).string(), lines, "cu.io");
  }
  j["units"] = units;
  write_file((std::filesystem::path(dir) / "case.json").string(), j.dump(2) + "\n", "cu.io");
  write_file((std::filesystem::path(dir) / "memory.bin").string(), std::string(c.memory.begin(), c.memory.end()),
             "cu.io");
}

StressCoverage::StressCoverage(const StressShape& shape) : fuzz::BinCoverage("the retirement stress's coverage model") {
  for (int k = 0; k <= static_cast<int>(StressKind::LoadBadProgram); ++k)
    declare(fmt::format("kind/{}", to_string(static_cast<StressKind>(k))));
  // Every fault but ROW_TWICE (it needs a multicast, which the cases leave out).
  for (const auto& f : shape.cu->require_unit("tinytpu").faults)
    if (f.name != "ROW_TWICE") declare("fault/" + f.name);
  for (const auto& f : shape.cu->cu_base.faults) declare("fault/" + f.name);
  for (const char* s : {"SIG_INST_COMPLETE", "SIG_BATCH_COMPLETE", "SIG_FAULT"}) declare(fmt::format("signal/{}", s));
  for (const char* e : {"DONE", "FAULT", "ENDED"}) declare(fmt::format("end/{}", e));
  for (const char* k : {"over_credit", "latency", "few_reads", "stalls", "host_pace"})
    declare(fmt::format("case/{}", k));
}

void StressCoverage::add(const StressShape& shape, const StressCase& c, const StressRun& rtl) {
  count_case();
  for (const auto& kinds : c.kinds)
    for (const StressKind k : kinds) hit(fmt::format("kind/{}", to_string(k)));
  const noc::Codec& codec = *shape.codec;
  const UnitSpec& unit = shape.cu->require_unit("tinytpu");
  std::map<std::uint32_t, std::string> signals;
  for (const auto& s : codec.spec().signals) signals[s.code] = s.name;
  for (const auto& f : rtl.rx) {
    if (codec.header(f).type != codec.type_code("CU_SIGNAL")) continue;
    const auto code = static_cast<std::uint32_t>(codec.get(f, "cu_signal.code"));
    const auto name = signals.find(code);
    if (name == signals.end()) continue;
    const std::string bin = "signal/" + name->second;
    if (bins().count(bin)) hit(bin);
    if (name->second != "SIG_FAULT") continue;
    const std::uint32_t fault =
        field_value(shape.cu->cu_base.fault_result, "code", static_cast<std::uint32_t>(codec.get(f, "cu_signal.arg")));
    for (const auto& x : unit.faults)
      if (x.code == fault && bins().count("fault/" + x.name)) hit("fault/" + x.name);
    for (const auto& x : shape.cu->cu_base.faults)
      if (x.code == fault) hit("fault/" + x.name);
  }
  for (const auto& e : rtl.ends)
    if (bins().count("end/" + e.state)) hit("end/" + e.state);
  if (c.over_credit) hit("case/over_credit");
  if (c.conditions.latency > 0) hit("case/latency");
  if (c.conditions.max_reads <= kFewReadsMax) hit("case/few_reads");
  if (c.conditions.ready_stall > 0 || c.conditions.valid_stall > 0) hit("case/stalls");
  if (c.conditions.host_delay > 0 || c.conditions.host_stall > 0) hit("case/host_pace");
}

}  // namespace tpugen::cu
