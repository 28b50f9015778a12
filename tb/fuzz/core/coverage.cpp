#include "fuzz/core/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz/core/tracker.h"
#include "isa/derive.h"

namespace tpugen::fuzz {

namespace {

/// The families, in the order the table prints them.
constexpr std::string_view kFamilies[] = {"opcode", "agu",      "agu_slot",   "value",  "nest",  "trip",
                                          "rows",   "distance", "saturation", "hazard", "alias", "dram"};

std::string family_of(std::string_view bin) { return std::string(bin.substr(0, bin.find('/'))); }

/// Loop trip classes: 1; small (2 .. 7); mid (8 .. below half the maximum);
/// large (the top half of what the nr field carries: its top usable bit set).
struct TripClass {
  const char* name;
  std::int64_t lo, hi;
};
std::vector<TripClass> trip_classes(std::int64_t trip_max) {
  const std::int64_t half = (trip_max + 1) / 2;
  return {{"one", 1, 1},
          {"small", 2, std::min<std::int64_t>(7, trip_max)},
          {"mid", 8, half - 1},
          {"large", half, trip_max}};
}
std::string trip_class(std::int64_t trip, std::int64_t trip_max) {
  for (const TripClass& c : trip_classes(trip_max))
    if (trip >= c.lo && trip <= c.hi) return c.name;
  return "outside";
}

/// Row counts: 1; mid; the opcode's largest legal nr in the build.
std::string rows_class(std::int64_t nr, std::int64_t max_rows) {
  if (nr == 1) return "one";
  if (nr == max_rows) return "max";
  if (nr > 1 && nr < max_rows) return "mid";
  return "outside";
}

/// Read-after-write distances: exactly the contract's minimum, one above it, further.
std::string distance_class(std::int64_t d, std::int64_t min) {
  if (d < min) return "below";
  if (d == min) return "exact";
  if (d == min + 1) return "near";
  return "far";
}

}  // namespace

std::string coverage_build(const Isa& isa) {
  const Spec& spec = isa.spec();
  std::string params;
  for (const auto& [name, value] : isa.params().build_parameters())
    params += fmt::format("{}{}={}", params.empty() ? "" : " ", name, value);
  return fmt::format("{} v{} {} {}", spec.name, spec.version, spec.sha256.substr(0, 12), params);
}

Coverage Coverage::for_isa(const Isa& isa) {
  const IsaFacts f(isa);
  Coverage c;
  c.build_ = coverage_build(isa);
  auto reach = [&](const std::string& bin) { c.hits_[bin] = 0; };
  auto never = [&](const std::string& bin, const std::string& why) { c.unreachable_[bin] = why; };

  for (const OpcodeFacts& op : f.opcodes()) {
    if (!op.live()) {
      never("opcode/" + op.name(), "retired: " + *op.op->retired);
      continue;
    }
    reach("opcode/" + op.name());
    for (const OperandFacts& o : op.operands) {
      const std::string why = agu_blocker(f, op, o);
      for (std::int64_t l = 0; l < f.loop_depth; ++l)
        for (std::int64_t n = 1; n <= f.agu_terms; ++n) {
          const std::string bin = fmt::format("agu/{}.{}/L{}/n{}", op.name(), o.name(), l, n);
          if (why.empty())
            reach(bin);
          else
            never(bin, why);
        }
      for (std::int64_t v : o.legal) reach(fmt::format("value/{}.{}={}", op.name(), o.name(), v));
    }
    if (op.data()) {
      reach(fmt::format("rows/{}/one", op.name()));
      const std::string mid = fmt::format("rows/{}/mid", op.name()), max = fmt::format("rows/{}/max", op.name());
      if (op.max_rows >= 3)
        reach(mid);
      else
        never(mid, fmt::format("the largest nr is {}", op.max_rows));
      if (op.max_rows >= 2)
        reach(max);
      else
        never(max, "the largest nr is 1");
    }
    std::set<std::string> seen;
    for (const AccessFacts& r : op.accesses) {
      const MemoryFacts& m = f.memories()[r.memory];
      if (r.read && m.distance && seen.insert(op.operands[r.operand].name()).second)
        for (const char* cls : {"exact", "near", "far"})
          reach(fmt::format("distance/{}.{}/{}", op.name(), op.operands[r.operand].name(), cls));
      if (!r.read) continue;
      for (const AccessFacts& w : op.accesses) {
        if (w.read || w.memory != r.memory) continue;
        const std::string pair =
            fmt::format("alias/{}.{}->{}", op.name(), op.operands[r.operand].name(), op.operands[w.operand].name());
        if (w.operand == r.operand) {
          never(pair, "one operand names both: always the same rows");
          continue;
        }
        reach(pair + "/same");
        if (op.max_rows >= 2)
          reach(pair + "/partial");
        else
          never(pair + "/partial", "the largest nr is 1");
        if (m.rows >= 2)
          reach(pair + "/disjoint");
        else
          never(pair + "/disjoint", "the memory has one row");
      }
    }
  }
  for (std::int64_t j = 0; j < f.agu_terms; ++j)
    for (std::int64_t l = 0; l < f.loop_depth; ++l) reach(fmt::format("agu_slot/s{}/L{}", j, l));
  for (std::int64_t d = 0; d <= f.loop_depth; ++d) reach(fmt::format("nest/depth{}", d));
  for (std::int64_t l = 0; l < f.loop_depth; ++l)
    for (const TripClass& tc : trip_classes(f.trip_max)) {
      const std::string bin = fmt::format("trip/L{}/{}", l, tc.name);
      if (tc.lo <= tc.hi)
        reach(bin);
      else
        never(bin, fmt::format("no trip count {} .. {}", tc.lo, tc.hi));
    }
  for (const auto& [op, read] : narrowing_reads(isa.spec())) {
    if (op->retired) continue;
    for (const char* s : {"high", "low", "none"}) reach(fmt::format("saturation/{}/{}", op->name, s));
  }
  for (std::size_t mi = 0; mi < f.memories().size(); ++mi) {
    const MemoryFacts& m = f.memories()[mi];
    bool read = false, written = false;
    for (const OpcodeFacts& op : f.opcodes())
      for (const AccessFacts& a : op.accesses)
        if (op.live() && a.memory == mi) (a.read ? read : written) = true;
    if (m.dram) {
      if (read || written)
        for (std::int64_t r = 0; r < m.rows; ++r) reach(fmt::format("dram/{}/row{}", m.name(), r));
      continue;
    }
    for (const auto& [kind, ok] :
         {std::pair<const char*, bool>{"RAW", read && written}, {"WAR", read && written}, {"WAW", written}})
      for (const char* rel : {"overlap", "disjoint"}) {
        const std::string bin = fmt::format("hazard/{}/{}/{}", m.name(), kind, rel);
        if (!ok)
          never(bin, "no instruction both reads and writes it");
        else if (std::string_view(rel) == "disjoint" && m.rows < 2)
          never(bin, "the memory has one row");
        else
          reach(bin);
      }
  }
  return c;
}

const IsaFacts& Coverage::facts(const Isa& isa) {
  if (coverage_build(isa) != build_)
    throw Error("fuzz.coverage_build",
                fmt::format("this coverage is for build '{}', not '{}'", build_, coverage_build(isa)));
  if (!facts_ || facts_isa_ != &isa) {
    facts_ = std::make_shared<const IsaFacts>(isa);
    facts_isa_ = &isa;
  }
  return *facts_;
}

void Coverage::hit(const std::string& bin) {
  const auto it = hits_.find(bin);
  if (it != hits_.end())
    ++it->second;
  else
    ++stray_[bin];
}

void Coverage::add(const Isa& isa, const FuzzCase& c) { add(isa, c, run_model(isa, c)); }

void Coverage::add(const Isa& isa, const FuzzCase& c, const ModelRun& run) {
  add_program(isa, c.program);
  std::set<std::string> bins;
  for (const auto& [op, s] : run.saturation) {
    if (s.high > 0) bins.insert(fmt::format("saturation/{}/high", op));
    if (s.low > 0) bins.insert(fmt::format("saturation/{}/low", op));
    if (s.none > 0) bins.insert(fmt::format("saturation/{}/none", op));
  }
  for (const auto& b : bins) hit(b);
}

void Coverage::add_program(const Isa& isa, const Program& program) {
  program_bins(facts(isa), program);
  ++cases_;
}

void Coverage::program_bins(const IsaFacts& f, const Program& p) {
  const Isa& isa = f.isa();
  std::set<std::string> bins;  // a case counts once per bin

  // Static: opcodes, nests and trips, row counts, effective AGU terms.
  std::vector<std::int64_t> trips;
  std::size_t depth = 0;
  for (const Instr& in : p.instrs) {
    const Opcode* op = in.fields.size() == isa.spec().word0.size() ? isa.opcode_of(in) : nullptr;
    if (!op) continue;
    bins.insert("opcode/" + op->name);
    const std::int64_t nr = isa.nr(in);
    if (op == &f.loop_op()) {
      bins.insert(fmt::format("trip/L{}/{}", trips.size(), trip_class(nr, f.trip_max)));
      trips.push_back(nr);
      depth = std::max(depth, trips.size());
      continue;
    }
    if (op == &f.endloop_op()) {
      if (!trips.empty()) trips.pop_back();
      continue;
    }
    const OpcodeFacts& of = f.of(*op);
    if (of.data() && of.live()) bins.insert(fmt::format("rows/{}/{}", op->name, rows_class(nr, of.max_rows)));
    for (std::size_t j = 0; j < in.terms.size(); ++j) {
      const AguTerm& t = in.terms[j];
      if (t.level < 0 || t.level >= static_cast<std::int64_t>(trips.size())) continue;
      if (trips[static_cast<std::size_t>(t.level)] < 2 || t.stride < 1) continue;  // adds nothing: not exercised
      for (const OperandFacts& o : of.operands)
        if (o.target == t.target) {
          bins.insert(fmt::format("agu/{}.{}/L{}/n{}", op->name, o.name(), t.level, in.terms.size()));
          bins.insert(fmt::format("agu_slot/s{}/L{}", j, t.level));
        }
    }
  }
  bins.insert(fmt::format("nest/depth{}", depth));

  // Dynamic: resolved values, distances, hazards between issues, aliasing within one, DRAM rows.
  Tracker tracker(f);
  std::vector<std::vector<IssueAccess>> previous(f.memories().size());
  try {
    for_each_issue(isa, p, [&](const Issue& is) {
      IssueEvents ev;
      (void)tracker.apply(is, &ev, /*lenient=*/true);
      const OpcodeFacts& of = f.of(*is.opcode);
      for (const OperandFacts& o : of.operands)
        if (o.restricted()) bins.insert(fmt::format("value/{}.{}={}", of.name(), o.name(), is.fields[o.field]));
      for (const DistanceRead& d : ev.distances)
        bins.insert(fmt::format("distance/{}.{}/{}", of.name(), of.operands[d.access->operand].name(),
                                distance_class(d.distance, f.memories()[d.access->memory].min_distance)));
      auto overlap = [](const IssueAccess& a, const IssueAccess& b) {
        return a.base < b.base + b.items && b.base < a.base + a.items;
      };
      std::vector<std::vector<IssueAccess>> now(f.memories().size());
      for (const IssueAccess& a : ev.accesses) {
        if (!a.inside) continue;
        const MemoryFacts& m = f.memories()[a.access->memory];
        if (m.dram) {
          for (std::int64_t r = a.base; r < a.base + a.items; ++r)
            bins.insert(fmt::format("dram/{}/row{}", m.name(), r));
          continue;
        }
        now[a.access->memory].push_back(a);
        if (!a.access->read) continue;
        for (const IssueAccess& w : ev.accesses) {
          if (w.access->read || !w.inside || w.access->memory != a.access->memory) continue;
          const std::string pair = fmt::format("alias/{}.{}->{}", of.name(), of.operands[a.access->operand].name(),
                                               of.operands[w.access->operand].name());
          if (w.access->operand == a.access->operand) continue;
          bins.insert(pair + (a.base == w.base ? "/same" : overlap(a, w) ? "/partial" : "/disjoint"));
        }
      }
      for (std::size_t mi = 0; mi < now.size(); ++mi) {
        if (now[mi].empty()) continue;
        for (const IssueAccess& a : now[mi])
          for (const IssueAccess& b : previous[mi]) {
            const char* kind = a.access->read ? (b.access->read ? nullptr : "RAW") : (b.access->read ? "WAR" : "WAW");
            if (kind)
              bins.insert(fmt::format("hazard/{}/{}/{}", f.memories()[mi].name(), kind,
                                      overlap(a, b) ? "overlap" : "disjoint"));
          }
        previous[mi] = std::move(now[mi]);
      }
    });
  } catch (const Error&) {
    // Control flow expand() refuses: the static bins stand, the dynamic ones stop there.
  }
  for (const auto& b : bins) hit(b);
}

void Coverage::merge(const Coverage& other) {
  if (other.build_ != build_)
    throw Error("fuzz.coverage_merge",
                fmt::format("cannot merge coverage of build '{}' into coverage of build '{}'", other.build_, build_));
  if (other.hits_.size() != hits_.size() || other.unreachable_ != unreachable_)
    throw Error("fuzz.coverage_merge", "the two coverages list different bins for the same build");
  for (const auto& [bin, n] : other.hits_) {
    const auto it = hits_.find(bin);
    if (it == hits_.end()) throw Error("fuzz.coverage_merge", fmt::format("bin {} is not one of this coverage's", bin));
    it->second += n;
  }
  for (const auto& [bin, n] : other.stray_) stray_[bin] += n;
  cases_ += other.cases_;
}

std::int64_t Coverage::hits(std::string_view bin) const {
  const auto it = hits_.find(std::string(bin));
  return it == hits_.end() ? 0 : it->second;
}

std::vector<std::string> Coverage::missing() const {
  std::vector<std::string> out;
  for (const auto& [bin, n] : hits_)
    if (n == 0) out.push_back(bin);
  return out;
}

std::size_t Coverage::reached() const {
  return static_cast<std::size_t>(
      std::count_if(hits_.begin(), hits_.end(), [](const auto& kv) { return kv.second > 0; }));
}

std::string Coverage::table() const {
  std::vector<std::string> families(std::begin(kFamilies), std::end(kFamilies));
  for (const auto& [bin, n] : hits_)
    if (std::find(families.begin(), families.end(), family_of(bin)) == families.end())
      families.push_back(family_of(bin));
  std::string out = fmt::format("coverage of {} case(s), build {}\n", cases_, build_);
  const double pct = hits_.empty() ? 100.0 : 100.0 * static_cast<double>(reached()) / static_cast<double>(hits_.size());
  out += fmt::format("{} of {} reachable bins reached ({:.1f}%)\n\n", reached(), hits_.size(), pct);
  out += fmt::format("{:<12} {:>8} {:>10} {:>12}\n", "family", "reached", "reachable", "unreachable");
  for (const auto& fam : families) {
    std::size_t total = 0, got = 0, never = 0;
    for (const auto& [bin, n] : hits_)
      if (family_of(bin) == fam) {
        ++total;
        got += n > 0 ? 1 : 0;
      }
    for (const auto& [bin, why] : unreachable_) never += family_of(bin) == fam ? 1 : 0;
    if (total + never == 0) continue;
    out += fmt::format("{:<12} {:>8} {:>10} {:>12}\n", fam, got, total, never);
  }
  const auto miss = missing();
  if (!miss.empty()) {
    out += fmt::format("\nmissing ({}):\n", miss.size());
    for (const auto& b : miss) out += "  " + b + "\n";
  }
  if (!unreachable_.empty()) {
    // One line per reason and family, not per bin: an operand's 12 AGU bins share one.
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> by_reason;
    for (const auto& [bin, why] : unreachable_) {
      std::string group = bin;
      if (family_of(bin) == "agu") group = bin.substr(0, bin.find('/', bin.find('/') + 1));  // agu/op.operand
      auto& v = by_reason[{why, family_of(bin)}];
      if (std::find(v.begin(), v.end(), group) == v.end()) v.push_back(group);
    }
    out += fmt::format("\nunreachable in this build ({} bins):\n", unreachable_.size());
    for (const auto& [key, groups] : by_reason) out += fmt::format("  {}: {}\n", fmt::join(groups, ", "), key.first);
  }
  if (!stray_.empty()) {
    out += fmt::format("\nstray bins hit outside the reachable set ({}):\n", stray_.size());
    for (const auto& [bin, n] : stray_) out += fmt::format("  {} ({})\n", bin, n);
  }
  return out;
}

std::string Coverage::to_json() const {
  nlohmann::ordered_json j;
  j["format"] = "tpugen-coverage";
  j["version"] = 1;
  j["build"] = build_;
  j["cases"] = cases_;
  j["reached"] = reached();
  j["reachable"] = hits_.size();
  j["bins"] = nlohmann::ordered_json::object();
  for (const auto& [bin, n] : hits_) j["bins"][bin] = n;
  j["unreachable"] = nlohmann::ordered_json::object();
  for (const auto& [bin, why] : unreachable_) j["unreachable"][bin] = why;
  j["stray"] = nlohmann::ordered_json::object();
  for (const auto& [bin, n] : stray_) j["stray"][bin] = n;
  return j.dump(2) + "\n";
}

Coverage Coverage::from_json(std::string_view text) {
  auto bad = [](const std::string& what) { return Error("fuzz.coverage_json", "coverage JSON: " + what); };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw bad(fmt::format("not JSON: {}", e.what()));
  }
  if (!j.is_object()) throw bad("the top level is not an object");
  if (j.value("format", std::string()) != "tpugen-coverage") throw bad("\"format\" is not \"tpugen-coverage\"");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    throw bad("\"version\" is not 1");
  Coverage c;
  if (!j.contains("build") || !j["build"].is_string()) throw bad("\"build\" is missing or not a string");
  c.build_ = j["build"].get<std::string>();
  if (!j.contains("cases") || !j["cases"].is_number_integer() || j["cases"].get<std::int64_t>() < 0)
    throw bad("\"cases\" is missing or not a non-negative integer");
  c.cases_ = j["cases"].get<std::int64_t>();
  for (const char* key : {"bins", "unreachable", "stray"}) {
    if (!j.contains(key) || !j[key].is_object()) throw bad(fmt::format("\"{}\" is missing or not an object", key));
    for (const auto& [bin, v] : j[key].items()) {
      if (std::string_view(key) == "unreachable") {
        if (!v.is_string()) throw bad(fmt::format("unreachable bin {} has no reason string", bin));
        c.unreachable_[bin] = v.get<std::string>();
        continue;
      }
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0)
        throw bad(fmt::format("bin {} has a count that is not a non-negative integer", bin));
      (std::string_view(key) == "bins" ? c.hits_ : c.stray_)[bin] = v.get<std::int64_t>();
    }
  }
  return c;
}

}  // namespace tpugen::fuzz
