#include "fuzz/core/campaign.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "fuzz/core/model_run.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "model/npy.h"
#include "util/file_io.h"

namespace tpugen::fuzz {

namespace fs = std::filesystem;

std::string to_string(Verdict::Kind k) {
  switch (k) {
    case Verdict::Agree: return "agree";
    case Verdict::Status: return "status";
    case Verdict::C: return "c";
    case Verdict::State: return "state";
    case Verdict::Invalid: return "invalid";
  }
  return "?";
}

ModelOutcome run_model_checked(const Isa& isa, const FuzzCase& c) {
  ModelOutcome out;
  const CheckResult check = check_program(isa, c.program);
  if (!check.ok()) {
    out.invalid = check.report(c.program.source);
    return out;
  }
  try {
    ModelRun run = run_model(isa, c);
    if (!run.unwritten.empty()) {
      const auto& u = run.unwritten.front();
      out.invalid = fmt::format("instruction {} ({}) reads {}[{}], never written", u.pc, u.opcode, u.memory, u.row);
      return out;
    }
    out.run = std::move(run);
  } catch (const Error& e) {
    out.invalid = e.what();
  }
  return out;
}

// ---------------------------------------------------------------------------
// Shrinking
// ---------------------------------------------------------------------------

namespace {

class Shrinker {
 public:
  Shrinker(const Isa& isa, const CaseRunner& run_case, const std::function<bool()>& stop)
      : isa_(isa), run_case_(run_case), stop_(stop), loop_(&isa.spec().opcode_named("loop")),
        endloop_(&isa.spec().opcode_named("endloop")) {}

  ShrinkResult run(const FuzzCase& failing, const Verdict& verdict) {
    best_ = failing;
    verdict_ = verdict;
    bool progress = true;
    while (progress && !stop_()) {
      progress = false;
      progress |= drop_instructions();
      progress |= lower_counts();
      progress |= drop_terms();
    }
    if (!stop_()) simplify_operands();
    return ShrinkResult{best_, verdict_, attempts_, accepted_};
  }

 private:
  const Opcode* op(const Instr& in) const { return isa_.opcode_of(in); }

  /// The endloop that closes the loop at `i`, if any.
  std::optional<std::size_t> closing(const std::vector<Instr>& v, std::size_t i) const {
    int depth = 0;
    for (std::size_t k = i; k < v.size(); ++k) {
      if (op(v[k]) == loop_) ++depth;
      if (op(v[k]) == endloop_ && --depth == 0) return k;
    }
    return std::nullopt;
  }

  /// Try a candidate program (or operands): keep it when the case still
  /// disagrees.
  bool attempt(std::vector<Instr> instrs) {
    FuzzCase c = best_;
    Program p{std::move(instrs), best_.program.source};
    c.assembly = disassemble(isa_, p);
    try {
      c.program = parse_assembly(isa_, c.assembly, best_.program.source);
    } catch (const Error&) {
      return false;
    }
    return attempt_case(std::move(c));
  }

  bool attempt_case(FuzzCase c) {
    if (stop_()) return false;
    ++attempts_;
    const Verdict v = run_case_(c);
    if (!v.mismatch()) return false;
    ++accepted_;
    best_ = std::move(c);
    verdict_ = v;
    return true;
  }

  bool drop_instructions() {
    bool any = false;
    for (std::size_t i = best_.program.instrs.size(); i-- > 0;) {
      const auto& v = best_.program.instrs;
      if (i >= v.size() || op(v[i]) == endloop_) continue;
      if (op(v[i]) == loop_) {
        const auto end = closing(v, i);
        if (!end) continue;
        auto whole = v;
        whole.erase(whole.begin() + static_cast<std::ptrdiff_t>(i), whole.begin() + static_cast<std::ptrdiff_t>(*end) + 1);
        if (attempt(whole)) {
          any = true;
          continue;
        }
        auto unwrapped = v;
        unwrapped.erase(unwrapped.begin() + static_cast<std::ptrdiff_t>(*end));
        unwrapped.erase(unwrapped.begin() + static_cast<std::ptrdiff_t>(i));
        any |= attempt(unwrapped);
      } else {
        auto fewer = v;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
        any |= attempt(fewer);
      }
    }
    return any;
  }

  /// Loop trips and row counts: 1, then half.
  bool lower_counts() {
    bool any = false;
    const std::size_t nr = isa_.nr_index();
    for (std::size_t i = 0; i < best_.program.instrs.size(); ++i) {
      const Opcode* o = op(best_.program.instrs[i]);
      if (o->nr == NrKind::None) continue;
      const std::int64_t n = best_.program.instrs[i].fields[nr];
      for (const std::int64_t smaller : {std::int64_t{1}, n / 2}) {
        if (smaller < 1 || smaller >= n) continue;
        auto v = best_.program.instrs;
        v[i].fields[nr] = smaller;
        if (attempt(v)) {
          any = true;
          break;
        }
      }
    }
    return any;
  }

  bool drop_terms() {
    bool any = false;
    for (std::size_t i = 0; i < best_.program.instrs.size(); ++i)
      for (std::size_t t = best_.program.instrs[i].terms.size(); t-- > 0;) {
        auto v = best_.program.instrs;
        if (t >= v[i].terms.size()) continue;
        v[i].terms.erase(v[i].terms.begin() + static_cast<std::ptrdiff_t>(t));
        any |= attempt(v);
      }
    return any;
  }

  /// Zero C's prefill, then A and B, each whole, then by halves of rows.
  void simplify_operands() {
    const auto rows = isa_.param("MAXDIM");
    auto zero_rows = [&](std::vector<std::int8_t> FuzzCase::*m, std::int64_t from, std::int64_t to) {
      FuzzCase c = best_;
      auto& bytes = c.*m;
      const auto cols = static_cast<std::int64_t>(bytes.size()) / rows;
      bool changed = false;
      for (std::int64_t k = from * cols; k < to * cols; ++k) {
        changed |= bytes[static_cast<std::size_t>(k)] != 0;
        bytes[static_cast<std::size_t>(k)] = 0;
      }
      return changed && attempt_case(std::move(c));
    };
    for (auto m : {&FuzzCase::c, &FuzzCase::a, &FuzzCase::b}) {
      if (zero_rows(m, 0, rows)) continue;
      for (std::int64_t span = rows / 2; span >= 1; span /= 2)
        for (std::int64_t from = 0; from < rows; from += span) zero_rows(m, from, std::min(rows, from + span));
    }
  }

  const Isa& isa_;
  const CaseRunner& run_case_;
  const std::function<bool()>& stop_;
  const Opcode* loop_;
  const Opcode* endloop_;
  FuzzCase best_;
  Verdict verdict_;
  int attempts_ = 0, accepted_ = 0;
};

}  // namespace

ShrinkResult shrink(const Isa& isa, const FuzzCase& failing, const Verdict& verdict, const CaseRunner& run_case,
                    const std::function<bool()>& stop) {
  return Shrinker(isa, run_case, stop).run(failing, verdict);
}

// ---------------------------------------------------------------------------
// Reproducers
// ---------------------------------------------------------------------------

namespace {

void write_text(const fs::path& p, const std::string& text) { write_file(p, text, "fuzz.io"); }
std::string read_text(const fs::path& p) { return read_file(p, "fuzz.replay"); }

}  // namespace

void write_reproducer(const fs::path& dir, const Isa& isa, const FuzzCase& c, const Verdict& v,
                      const ReproInfo& info) {
  fs::create_directories(dir);
  const std::int64_t maxdim = isa.param("MAXDIM");
  write_text(dir / "program.s", c.assembly);
  write_npy_int8((dir / "A.npy").string(), Int8Matrix{maxdim, maxdim, c.a});
  write_npy_int8((dir / "B.npy").string(), Int8Matrix{maxdim, maxdim, c.b});
  write_npy_int8((dir / "C.npy").string(), Int8Matrix{maxdim, maxdim, c.c});
  nlohmann::ordered_json j;
  j["tpugen"] = TPUGEN_VERSION;
  j["spec_sha256"] = isa.spec().sha256;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : isa.params().build_parameters()) params[name] = value;
  j["parameters"] = params;
  j["generator_options"] = nlohmann::ordered_json::parse(info.generator_options);
  j["run_options"] = nlohmann::ordered_json::parse(info.run_options);
  j["seed"] = c.seed;
  j["dist"] = to_string(c.dist);
  j["verdict"] = {{"kind", to_string(v.kind)}, {"detail", v.detail}};
  j["instructions"] = c.program.instrs.size();
  j["original_instructions"] = info.original_instructions;
  j["shrink_attempts"] = info.shrink_attempts;
  j["found_by"] = info.command;
  write_text(dir / "case.json", j.dump(2) + "\n");
  write_text(dir / "replay.sh",
             fmt::format("#!/bin/sh\n# Rerun this reproducer (found by: {}).\nexec tpugen fuzz --replay \"$(dirname \"$0\")\" "
                         "\"$@\"\n",
                         info.command));
  fs::permissions(dir / "replay.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
}

Reproducer read_reproducer(const fs::path& dir, const Isa& isa) {
  Reproducer r;
  r.case_json = read_text(dir / "case.json");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(r.case_json);
    r.fuzz_case.seed = j.at("seed").get<std::uint64_t>();
    r.fuzz_case.dist = parse_dist(j.at("dist").get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    throw Error("fuzz.replay", fmt::format("{}: {}", (dir / "case.json").string(), e.what()),
                SourceLoc{(dir / "case.json").string()});
  }
  const fs::path prog = dir / "program.s";
  r.fuzz_case.assembly = read_text(prog);
  r.fuzz_case.program = parse_assembly(isa, r.fuzz_case.assembly, prog.string());
  const std::int64_t maxdim = isa.param("MAXDIM");
  auto matrix = [&](const char* name) {
    const fs::path p = dir / name;
    Int8Matrix m = read_npy_int8(p.string());
    if (m.rows != maxdim || m.cols != maxdim)
      throw Error("fuzz.replay",
                  fmt::format("{}: {} x {}, but this build's DRAM images are MAXDIM x MAXDIM = {} x {}", p.string(),
                              m.rows, m.cols, maxdim, maxdim),
                  SourceLoc{p.string()});
    return m.data;
  };
  r.fuzz_case.a = matrix("A.npy");
  r.fuzz_case.b = matrix("B.npy");
  r.fuzz_case.c = matrix("C.npy");
  return r;
}

}  // namespace tpugen::fuzz
