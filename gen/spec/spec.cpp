#include "spec/spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "spec/hash.h"
#include "spec/yaml_reader.h"
#include "util/enum_names.h"

namespace tpugen {

// ---------------------------------------------------------------------------
// Small lookups
// ---------------------------------------------------------------------------

/// The first element of `v` whose `member` equals `key`, or null.
template <typename T, typename M, typename K>
static const T* find_by(const std::vector<T>& v, M T::*member, const K& key) {
  for (const auto& e : v)
    if (e.*member == key) return &e;
  return nullptr;
}

template <typename T>
static const T* find_named(const std::vector<T>& v, std::string_view name) {
  return find_by(v, &T::name, name);
}

const Field& TermLayout::subfield(std::string_view name) const {
  if (const Field* f = find_named(subfields, name)) return *f;
  throw Error("spec.unknown_field", fmt::format("AGU terms have no subfield '{}'", name));
}

bool Legal::admits(std::int64_t v, const Scope& params) const {
  if (is_set()) return std::find(values.begin(), values.end(), v) != values.end();
  if (min && v < min->eval(params)) return false;
  if (max && v > max->eval(params)) return false;
  return true;
}

std::string Legal::describe() const {
  if (is_set()) return fmt::format("{{{}}}", fmt::join(values, ", "));
  return fmt::format("{} .. {}", min ? min->text() : "-inf", max ? max->text() : "inf");
}

const Operand* Opcode::operand(std::string_view n) const { return find_named(operands, n); }
const Operand* Opcode::operand_in_field(std::string_view f) const { return find_by(operands, &Operand::field, f); }
const Port* Unit::port(std::string_view n) const { return find_named(ports, n); }

static constexpr EnumName<ActionKind> kActionKinds[] = {{ActionKind::Read, "read"},
                                                        {ActionKind::Write, "write"},
                                                        {ActionKind::Compute, "compute"},
                                                        {ActionKind::Emit, "emit"},
                                                        {ActionKind::Receive, "receive"}};

std::string_view to_string(ActionKind k) { return enum_name(kActionKinds, k); }

const Field* Spec::field(std::string_view n) const { return find_named(word0, n); }
const Field* Spec::field_by_target(int target) const {
  return target == 0 ? nullptr : find_by(word0, &Field::agu_target, target);
}
const Opcode* Spec::opcode(std::string_view n) const { return find_named(opcodes, n); }
const Opcode* Spec::opcode(std::int64_t value) const { return find_by(opcodes, &Opcode::value, value); }
const Opcode& Spec::opcode_named(std::string_view n) const {
  if (const Opcode* o = opcode(n)) return *o;
  throw Error("spec.unknown_opcode", fmt::format("the spec has no opcode '{}'", n));
}
const Unit* Spec::unit(std::string_view n) const { return find_named(units, n); }
const Memory* Spec::memory(std::string_view n) const { return find_named(memories, n); }
const Compute* Spec::compute(std::string_view n) const { return find_named(computes, n); }
const Contract* Spec::contract(std::string_view id) const { return find_by(contracts, &Contract::id, id); }
const Parameter* Spec::parameter(std::string_view n) const { return find_named(parameters, n); }

std::int64_t Spec::isa_constant(std::string_view n) const {
  if (auto v = builtin(n)) return *v;
  throw Error("spec.unknown_name", fmt::format("the spec has no ISA constant '{}'", n));
}

const FaultCode* Spec::fault(std::string_view n) const { return find_named(faults, n); }

const Interface& Spec::interface(std::string_view n) const {
  if (const Interface* i = find_named(interfaces, n)) return *i;
  throw Error("spec.unknown_interface", fmt::format("the spec has no interface '{}'", n));
}

std::vector<const Action*> Spec::actions_of(std::string_view op) const {
  std::vector<const Action*> out;
  for (const auto& a : actions)
    if (a.opcode == op) out.push_back(&a);
  return out;
}

std::optional<std::int64_t> Spec::builtin(std::string_view n) const {
  if (n == "NHDR") return nhdr;
  if (n == "IWORDS") return iwords;
  if (n == "imem.count_slice_width") return count_slice_width;
  for (const auto& c : isa_constants)
    if (c.name == n) return c.value.eval(nullptr);
  constexpr std::string_view kFields = "fields.";
  if (n.substr(0, kFields.size()) == kFields) {
    const std::string_view rest = n.substr(kFields.size());
    const auto dot = rest.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    const std::string_view fname = rest.substr(0, dot);
    const std::string_view attr = rest.substr(dot + 1);
    const Field* f = field(fname);
    if (!f) {
      for (const auto& sf : term.subfields)
        if (sf.name == fname) f = &sf;
    }
    if (!f) return std::nullopt;
    if (attr == "usable_max") return f->usable_max;
    if (attr == "width") return f->width;
    if (attr == "lsb") return f->lsb;
  }
  return std::nullopt;
}

std::string default_spec_path() {
  if (const char* env = std::getenv("TPUGEN_SPEC"); env && *env) return env;
  return TPUGEN_DEFAULT_SPEC;
}

// ---------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------
namespace {


class Loader {
 public:
  Loader(const std::string& text, std::string file) : file_(std::move(file)) {
    spec_.path = file_;
    spec_.sha256 = sha256_hex(text);
    try {
      root_ = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      throw Error("spec.yaml", e.msg, SourceLoc{file_, e.mark.line + 1, e.mark.column + 1});
    }
  }

  Spec run() {
    YamlMap top(root_, file_, "the spec");
    spec_.name = top.str("name");
    spec_.version = static_cast<int>(top.integer("version"));
    encoding_rule(top.node("encoding_rule"));
    spec_.word_bits = static_cast<int>(top.integer("word_bits"));
    words(top.seq("words"));
    agu(top.node("agu"));
    loop_stack(top.node("loop_stack"));
    for (const auto& n : top.seq("isa_constants")) {
      YamlMap m(n, file_, "an ISA constant");
      Constant c{m.str("name"), m.expr("value"), m.str_or("role", "")};
      m.finish();
      spec_.isa_constants.push_back(std::move(c));
    }
    for (const auto& n : top.seq("opcodes")) opcode(n);
    for (const auto& n : top.seq("units")) unit(n);
    for (const auto& n : top.seq("computes")) compute(n);
    for (const auto& n : top.seq("actions")) action(n);
    imem(top.node("imem"));
    for (const auto& n : top.seq("memories")) memory(n);
    for (const auto& n : top.seq("contracts")) {
      YamlMap m(n, file_, "a contract");
      Contract c{m.str("id"), m.str("rule"), m.str_or("memory", ""), checked_expr_opt(m, "min_distance")};
      if (!c.memory.empty()) pending_states_.emplace_back(c.memory, m.loc("memory"));
      m.finish();
      spec_.contracts.push_back(std::move(c));
    }
    for (const auto& n : top.seq("parameters")) parameter(n);
    for (const auto& n : top.seq("derived_constants")) {
      YamlMap m(n, file_, "a derived constant");
      Constant c{m.str("name"), m.expr("value"), m.str_or("role", "")};
      locs_[c.name] = m.loc();
      m.finish();
      spec_.derived_constants.push_back(std::move(c));
    }
    for (const auto& n : top.seq("constraints")) {
      YamlMap m(n, file_, "a constraint");
      Constraint c{checked_expr(m, "expr"), m.str("rule"), m.str_or("ceiling", "")};
      m.finish();
      spec_.constraints.push_back(std::move(c));
    }
    for (const auto& n : top.seq("maxdim_ceilings")) {
      YamlMap m(n, file_, "a MAXDIM ceiling");
      Ceiling c{m.str("name"), checked_expr(m, "predicate"), m.str_or("question", ""), m.str_or("refused_by", "")};
      m.finish();
      spec_.ceilings.push_back(std::move(c));
    }
    numerics(top.node("numerics"));
    program_limits(top.node("program_limits"));
    faults(top.node("faults"));
    for (const auto& n : top.seq("interfaces")) interface(n);
    top.finish();
    validate();
    return std::move(spec_);
  }

 private:
  [[noreturn]] void fail(const std::string& rule, const std::string& msg, const SourceLoc& at) const {
    throw Error(rule, msg, at);
  }

  /// `m`'s expression `key` (and its optional form), kept with its place to
  /// have its names checked once every constant is known (validate).
  Expr checked_expr(YamlMap& m, const std::string& key) {
    Expr e = m.expr(key);
    expr_locs_.emplace_back(e, m.loc(key));
    return e;
  }
  std::optional<Expr> checked_expr_opt(YamlMap& m, const std::string& key) {
    std::optional<Expr> e = m.expr_opt(key);
    if (e) expr_locs_.emplace_back(*e, m.loc(key));
    return e;
  }

  /// Appends `item` to `list`, refusing a second `what` of the same name.
  template <typename T>
  void add_named(std::vector<T>& list, T item, std::string_view what, const SourceLoc& at) {
    if (find_named(list, item.name))
      fail("spec.duplicate_name", fmt::format("{} '{}' is defined twice", what, item.name), at);
    list.push_back(std::move(item));
  }

  void encoding_rule(const YAML::Node& n) {
    YamlMap m(n, file_, "encoding_rule");
    spec_.encoding_rule_name = m.str("name");
    spec_.usable_max_rule = m.expr("usable_max");
    for (const auto& name : spec_.usable_max_rule.names())
      if (name != "width")
        fail("spec.unknown_name", fmt::format("encoding_rule.usable_max may use only 'width', not '{}'", name),
             m.loc("usable_max"));
    spec_.encoding_rationale = m.str_or("rationale", "");
    m.finish();
  }

  /// An expression of the spec evaluated in `scope`: an error of the
  /// expression (a name it cannot evaluate, a division by zero) is the spec's
  /// error at `at`, naming `what`.
  std::int64_t eval_at(const Expr& e, const Scope& scope, const SourceLoc& at, const std::string& what) const {
    try {
      return e.eval(scope);
    } catch (const ExprError& err) {
      fail(err.rule(), fmt::format("{}: {}", what, err.what()), at);
    }
  }

  std::int64_t usable_max(int width, const SourceLoc& at) const {
    return eval_at(spec_.usable_max_rule, scope_with({{"width", width}}, nullptr), at,
                   fmt::format("encoding rule at width {}", width));
  }

  Field field(const YAML::Node& n, const std::string& what) {
    YamlMap m(n, file_, what);
    Field f;
    f.name = m.str("name");
    f.lsb = static_cast<int>(m.integer("lsb"));
    f.width = static_cast<int>(m.integer("width"));
    f.role = m.str_or("role", "");
    f.agu_target = static_cast<int>(m.integer_opt("agu_target").value_or(0));
    f.loc = m.loc();
    m.finish();
    if (f.width < 1 || f.lsb < 0)
      fail("spec.field_width", fmt::format("field '{}' needs lsb >= 0 and width >= 1", f.name), f.loc);
    f.usable_max = usable_max(f.width, f.loc);
    return f;
  }

  void check_layout(const std::vector<Field>& fields, int bits, const std::string& container) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const Field& a = fields[i];
      if (a.lsb + a.width > bits)
        fail("spec.field_too_wide",
             fmt::format("field '{}' [{}:{}] does not fit the {}-bit {}", a.name, a.msb(), a.lsb, bits, container),
             a.loc);
      for (std::size_t j = 0; j < i; ++j) {
        const Field& b = fields[j];
        if (a.name == b.name)
          fail("spec.duplicate_name", fmt::format("field '{}' is defined twice in {}", a.name, container), a.loc);
        if (a.lsb < b.lsb + b.width && b.lsb < a.lsb + a.width)
          fail("spec.field_overlap",
               fmt::format("field '{}' [{}:{}] overlaps field '{}' [{}:{}] in {}", a.name, a.msb(), a.lsb, b.name,
                           b.msb(), b.lsb, container),
               a.loc);
      }
    }
  }

  void words(const std::vector<YAML::Node>& ws) {
    bool saw_fields = false, saw_terms = false;
    for (const auto& n : ws) {
      YamlMap m(n, file_, "an instruction word");
      static_cast<void>(m.str("name"));
      const auto index = m.integer("index");
      static_cast<void>(m.str_or("role", ""));
      if (index != spec_.iwords)
        fail("spec.word_order", fmt::format("instruction words must be listed in order; expected index {}", spec_.iwords),
             m.loc("index"));
      ++spec_.iwords;
      if (m.has("fields")) {
        if (saw_fields) fail("spec.word_layout", "only one word may carry the opcode fields", m.loc());
        saw_fields = true;
        for (const auto& f : m.seq("fields")) spec_.word0.push_back(field(f, "a word-0 field"));
        check_layout(spec_.word0, spec_.word_bits, "word 0");
      } else {
        if (saw_terms) fail("spec.word_layout", "only one word may carry AGU terms", m.loc());
        saw_terms = true;
        YamlMap t(m.node("term"), file_, "the AGU term layout");
        term_count_ = t.expr("count");
        term_loc_ = t.loc("count");
        spec_.term.width = static_cast<int>(t.integer("width"));
        for (const auto& f : t.seq("subfields")) spec_.term.subfields.push_back(field(f, "an AGU term subfield"));
        t.finish();
        check_layout(spec_.term.subfields, spec_.term.width, "AGU term");
        for (const char* need : {"target", "level", "stride"})
          if (!find_named(spec_.term.subfields, need))
            fail("spec.missing_key", fmt::format("the AGU term needs a '{}' subfield", need), t.loc());
      }
      m.finish();
    }
    if (!saw_fields || !saw_terms)
      fail("spec.word_layout", "the spec needs one word of fields and one word of AGU terms", SourceLoc{file_, 1, 1});
    for (const char* need : {"op", "nr"})
      if (!find_named(spec_.word0, need))
        fail("spec.missing_key", fmt::format("word 0 needs a '{}' field", need), SourceLoc{file_, 1, 1});
    std::set<int> targets;
    for (const auto& f : spec_.word0) {
      if (f.agu_target == 0) continue;
      if (!targets.insert(f.agu_target).second)
        fail("spec.duplicate_target", fmt::format("AGU target {} names two fields", f.agu_target), f.loc);
    }
  }

  void agu(const YAML::Node& n) {
    YamlMap m(n, file_, "agu");
    spec_.agu_semantics = m.str("semantics");
    spec_.unused_target = static_cast<int>(m.integer("unused_target"));
    if (!m.boolean_or("monotone", true))
      fail("spec.bad_value", "tpugen implements additively monotone AGU terms only", m.loc("monotone"));
    m.finish();
  }

  void loop_stack(const YAML::Node& n) {
    YamlMap m(n, file_, "loop_stack");
    loop_depth_ = m.expr("depth");
    loop_loc_ = m.loc("depth");
    if (!m.boolean_or("do_while", true))
      fail("spec.bad_value", "tpugen implements the do-while loop stack only", m.loc("do_while"));
    m.finish();
  }

  NrKind nr_kind(const std::string& s, const SourceLoc& at) const {
    if (s == "none") return NrKind::None;
    if (s == "rows") return NrKind::Rows;
    if (s == "trip") return NrKind::Trip;
    fail("spec.bad_value", fmt::format("nr kind must be none, rows or trip, not '{}'", s), at);
  }

  void opcode(const YAML::Node& n) {
    YamlMap m(n, file_, "an opcode");
    Opcode o;
    o.value = m.integer("value");
    o.name = m.str("name");
    o.loc = m.loc();
    YAML::Node nr = m.node("nr");
    if (nr.IsScalar()) {
      o.nr = nr_kind(nr.Scalar(), loc_of(file_, nr));
    } else {
      YamlMap nm(nr, file_, fmt::format("opcode {}'s nr", o.name));
      o.nr = nr_kind(nm.str("kind"), nm.loc("kind"));
      o.nr_meaning = nm.str_or("meaning", "");
      nm.finish();
    }
    for (const auto& on : m.seq_or_empty("operands")) {
      YamlMap om(on, file_, fmt::format("an operand of {}", o.name));
      Operand op;
      op.name = om.str("name");
      op.field = om.str("field");
      op.meaning = om.str_or("meaning", "");
      if (om.has("legal")) {
        YamlMap lm(om.node("legal"), file_, fmt::format("the legal values of {}.{}", o.name, op.name));
        Legal l;
        l.min = checked_expr_opt(lm, "min");
        l.max = checked_expr_opt(lm, "max");
        for (const auto& v : lm.seq_or_empty("values")) l.values.push_back(v.as<std::int64_t>());
        if (l.values.empty() && !l.min && !l.max)
          fail("spec.bad_value", "legal needs min/max or values", lm.loc());
        lm.finish();
        op.legal = l;
      }
      const Field* f = find_named(spec_.word0, op.field);
      if (!f || f->agu_target == 0)
        fail("spec.unknown_field", fmt::format("operand {}.{} names '{}', which is not an operand field", o.name, op.name, op.field),
             om.loc("field"));
      for (const auto& prev : o.operands) {
        if (prev.name == op.name)
          fail("spec.duplicate_name", fmt::format("opcode {} has two operands named '{}'", o.name, op.name), om.loc());
        if (prev.field == op.field)
          fail("spec.field_reused", fmt::format("opcode {} puts '{}' and '{}' in the same field {}", o.name, prev.name, op.name, op.field),
               om.loc());
      }
      om.finish();
      o.operands.push_back(std::move(op));
    }
    if (m.has("retired")) o.retired = m.str("retired");
    m.finish();
    for (const auto& prev : spec_.opcodes) {
      if (prev.value == o.value)
        fail("spec.opcode_reused", fmt::format("opcode number {} is used by both '{}' and '{}'", o.value, prev.name, o.name), m.loc("value"));
      if (prev.name == o.name)
        fail("spec.duplicate_name", fmt::format("opcode '{}' is defined twice", o.name), m.loc("name"));
    }
    spec_.opcodes.push_back(std::move(o));
  }

  void unit(const YAML::Node& n) {
    YamlMap m(n, file_, "a unit");
    Unit u;
    u.name = m.str("name");
    u.ii = static_cast<int>(m.integer("ii"));
    u.elastic = m.boolean_or("elastic", true);
    u.instructions_from = m.str("instructions_from");
    u.loc = m.loc();
    for (const auto& pn : m.seq("ports")) {
      YamlMap pm(pn, file_, fmt::format("a port of {}", u.name));
      Port p;
      p.name = pm.str("name");
      p.rate = pm.integer_opt("rate").value_or(1);
      p.header_items = pm.integer_opt("header_items").value_or(0);
      if (p.rate < 1) fail("spec.bad_value", "a port's rate must be at least 1", pm.loc("rate"));
      if (u.port(p.name)) fail("spec.duplicate_name", fmt::format("unit {} has two ports named '{}'", u.name, p.name), pm.loc());
      pm.finish();
      u.ports.push_back(std::move(p));
    }
    for (const auto& gn : m.seq_or_empty("serial")) {
      std::vector<std::string> group;
      for (const auto& pn : gn) {
        const auto name = pn.as<std::string>();
        if (!u.port(name))
          fail("spec.unknown_port", fmt::format("unit {} has no port '{}' for its serial group", u.name, name), loc_of(file_, pn));
        group.push_back(name);
      }
      u.serial.push_back(std::move(group));
    }
    m.finish();
    const SourceLoc at = u.loc;
    add_named(spec_.units, std::move(u), "unit", at);
  }

  void compute(const YAML::Node& n) {
    YamlMap m(n, file_, "a compute");
    Compute c{m.str("name"), m.boolean_or("copy", false), m.boolean_or("control", false), m.str_or("role", "")};
    m.finish();
    add_named(spec_.computes, std::move(c), "compute", m.loc());
  }

  void action(const YAML::Node& n) {
    YamlMap m(n, file_, "an action");
    Action a;
    a.loc = m.loc();
    a.opcode = m.str("opcode");
    a.unit = m.str("unit");
    a.port = m.str("port");
    const std::string kind = m.str("kind");
    if (const auto k = enum_value(kActionKinds, kind)) a.kind = *k;
    else fail("spec.bad_value", fmt::format("action kind must be read, write, compute, emit or receive, not '{}'", kind), m.loc("kind"));
    a.state = m.str_or("state", "");
    a.base = m.str_or("base", "");
    a.items = m.expr("items");
    a.only_if = m.expr_opt("only_if");
    const Opcode* op = spec_.opcode(a.opcode);
    if (!op) fail("spec.unknown_opcode", fmt::format("action names unknown opcode '{}'", a.opcode), m.loc("opcode"));
    const Unit* u = spec_.unit(a.unit);
    if (!u) fail("spec.unknown_unit", fmt::format("action of {} names unknown unit '{}'", a.opcode, a.unit), m.loc("unit"));
    if (!u->port(a.port))
      fail("spec.unknown_port", fmt::format("action of {} names port '{}', which unit {} does not have", a.opcode, a.port, a.unit),
           m.loc("port"));
    if (a.kind == ActionKind::Read || a.kind == ActionKind::Write) {
      if (a.base.empty() || !op->operand(a.base))
        fail("spec.unknown_operand",
             fmt::format("{} action of {} names base '{}', which is not an operand of {}", kind, a.opcode, a.base, a.opcode),
             m.loc("base"));
      pending_states_.emplace_back(a.state, m.loc("state"));
    } else if (a.kind == ActionKind::Compute) {
      if (!spec_.compute(a.state))
        fail("spec.unknown_compute", fmt::format("compute action of {} names unknown compute '{}'", a.opcode, a.state), m.loc("state"));
    } else if (!a.state.empty() || !a.base.empty()) {
      fail("spec.bad_value", fmt::format("{} actions carry no state or base", kind), m.loc());
    }
    // Expressions in an action may name nr, the parameters and this opcode's operands.
    std::set<std::string> local{"nr"};
    for (const auto& o : op->operands) local.insert(o.name);
    action_exprs_.push_back({a.items, m.loc("items"), local});
    if (a.only_if) action_exprs_.push_back({*a.only_if, m.loc("only_if"), local});
    m.finish();
    spec_.actions.push_back(std::move(a));
  }

  HeaderCount header_count(const YAML::Node& n) {
    YamlMap m(n, file_, "a header count");
    HeaderCount c;
    auto split = [&](const std::string& s, const SourceLoc& at) {
      const auto dot = s.find('.');
      if (dot == std::string::npos) fail("spec.bad_value", fmt::format("'{}' must be unit.port", s), at);
      return std::pair{s.substr(0, dot), s.substr(dot + 1)};
    };
    if (m.has("static")) {
      c.kind = HeaderCount::Static;
      if (m.str("static") != "instructions")
        fail("spec.bad_value", "static counts only 'instructions'", m.loc("static"));
    } else if (m.has("unit_steps")) {
      c.kind = HeaderCount::UnitSteps;
      c.unit = m.str("unit_steps");
      if (!spec_.unit(c.unit)) fail("spec.unknown_unit", fmt::format("header counts steps of unknown unit '{}'", c.unit), m.loc("unit_steps"));
    } else if (m.has("port_items")) {
      c.kind = HeaderCount::PortItems;
      std::tie(c.unit, c.port) = split(m.str("port_items"), m.loc("port_items"));
      const Unit* u = spec_.unit(c.unit);
      if (!u || !u->port(c.port))
        fail("spec.unknown_port", fmt::format("header counts items of unknown port '{}.{}'", c.unit, c.port), m.loc("port_items"));
    } else if (m.has("state_span")) {
      c.kind = HeaderCount::StateSpan;
      c.state = m.str("state_span");
      pending_states_.emplace_back(c.state, m.loc("state_span"));
    } else {
      fail("spec.missing_key", "a header count needs static, unit_steps, port_items or state_span", m.loc());
    }
    m.finish();
    return c;
  }

  void imem(const YAML::Node& n) {
    YamlMap m(n, file_, "imem");
    spec_.count_slice_width = static_cast<int>(m.integer("count_slice_width"));
    for (const auto& en : m.seq("entries")) {
      YamlMap em(en, file_, "a header entry");
      HeaderEntry e;
      e.word = static_cast<int>(em.integer("word"));
      e.lsb = static_cast<int>(em.integer("lsb"));
      e.width = static_cast<int>(em.integer("width"));
      e.name = em.str("name");
      e.count = header_count(em.node("count"));
      e.consumer = em.str_or("consumer", "");
      e.meaning = em.str_or("meaning", "");
      e.usable_max = usable_max(e.width, em.loc());
      const SourceLoc at = em.loc();
      em.finish();
      if (e.word < 0 || e.lsb < 0 || e.width < 1 || e.lsb + e.width > spec_.word_bits)
        fail("spec.field_too_wide", fmt::format("header entry '{}' does not fit a {}-bit word", e.name, spec_.word_bits), at);
      for (const auto& prev : spec_.header) {
        if (prev.name == e.name) fail("spec.duplicate_name", fmt::format("header entry '{}' is defined twice", e.name), at);
        if (prev.word == e.word && e.lsb < prev.lsb + prev.width && prev.lsb < e.lsb + e.width)
          fail("spec.field_overlap", fmt::format("header entry '{}' overlaps '{}' in imem[{}]", e.name, prev.name, e.word), at);
      }
      spec_.nhdr = std::max(spec_.nhdr, e.word + 1);
      spec_.header.push_back(std::move(e));
    }
    m.finish();
  }

  void memory(const YAML::Node& n) {
    YamlMap m(n, file_, "a memory");
    Memory mem;
    mem.name = m.str("name");
    mem.owner = m.str("owner");
    mem.depth = checked_expr(m, "depth");
    mem.row_bits = checked_expr(m, "row_bits");
    mem.format = m.str_or("format", "");
    mem.cleared = m.boolean_or("cleared", false);
    mem.host = m.str_or("host", "");
    if (!spec_.unit(mem.owner))
      fail("spec.unknown_unit", fmt::format("memory {} is owned by unknown unit '{}'", mem.name, mem.owner), m.loc("owner"));
    if (!mem.format.empty() && mem.format != "operand" && mem.format != "accumulator")
      fail("spec.bad_value", "a memory's format is operand or accumulator", m.loc("format"));
    if (!mem.host.empty() && mem.host != "written" && mem.host != "read")
      fail("spec.bad_value", "a memory's host access is written or read", m.loc("host"));
    if (m.has("dram")) {
      YamlMap dm(m.node("dram"), file_, fmt::format("memory {}'s DRAM layout", mem.name));
      Memory::Dram d{checked_expr(dm, "rows"), dm.str("packed_word")};
      dm.finish();
      mem.dram = d;
    }
    m.finish();
    add_named(spec_.memories, std::move(mem), "memory", m.loc());
  }

  void parameter(const YAML::Node& n) {
    YamlMap m(n, file_, "a parameter");
    Parameter p;
    p.name = m.str("name");
    p.env = m.str("env");
    p.default_value = checked_expr(m, "default");
    p.min = m.integer_opt("min");
    p.max = m.integer_opt("max");
    p.role = m.str_or("role", "");
    locs_[p.name] = m.loc();
    m.finish();
    add_named(spec_.parameters, std::move(p), "parameter", m.loc());
  }

  void numerics(const YAML::Node& n) {
    YamlMap m(n, file_, "numerics");
    const std::string active = m.str("active");
    bool found = false;
    for (const auto& cn : m.seq("configs")) {
      YamlMap cm(cn, file_, "a numerics configuration");
      Numerics num;
      num.name = cm.str("name");
      YamlMap om(cm.node("operand"), file_, "the operand format");
      num.operand_signed = om.boolean_or("signed", true);
      num.operand_bits = static_cast<int>(om.integer("bits"));
      om.finish();
      YamlMap am(cm.node("accumulator"), file_, "the accumulator format");
      num.accumulator_signed = am.boolean_or("signed", true);
      num.accumulator_bits = static_cast<int>(am.integer("bits"));
      am.finish();
      num.product_bits = static_cast<int>(cm.integer("product_bits"));
      for (const auto& sn : cm.seq("stages")) {
        YamlMap sm(sn, file_, "a numerics stage");
        num.stages.push_back({sm.str("stage"), sm.str("operation"), sm.str("exactness"), sm.str_or("where", "")});
        sm.finish();
      }
      cm.finish();
      if (num.operand_bits < 2 || num.operand_bits > 16 || num.accumulator_bits < num.product_bits ||
          num.accumulator_bits > 32 || num.product_bits < 2 * num.operand_bits)
        fail("spec.bad_value", "numerics: need 2 <= operand bits <= 16, product >= 2 x operand, accumulator in product .. 32",
             cm.loc());
      if (num.name == active) {
        spec_.numerics = num;
        found = true;
      }
    }
    if (!found) fail("spec.bad_value", fmt::format("numerics.active names no configuration '{}'", active), m.loc("active"));
    m.finish();
  }

  void program_limits(const YAML::Node& n) {
    YamlMap m(n, file_, "program_limits");
    spec_.limits_program = m.str("program");
    static const std::set<std::string> kMeasures = {"max_nr", "max_field", "header_count", "program_words", "memory_rows"};
    for (const auto& ln : m.seq("limits")) {
      YamlMap lm(ln, file_, "a program limit");
      ProgramLimit l;
      l.name = lm.str("name");
      l.check = lm.expr_opt("check");
      l.measure = lm.str_or("measure", "");
      l.max = checked_expr_opt(lm, "max");
      l.rule = lm.str("rule");
      l.alternative = lm.str_or("alternative", "");
      if (l.check) limit_exprs_.emplace_back(*l.check, lm.loc("check"));
      if (!l.check && !kMeasures.count(l.measure))
        fail("spec.bad_value", fmt::format("limit '{}' needs a check or a measure of max_nr, max_field, header_count, program_words, memory_rows", l.name),
             lm.loc());
      lm.finish();
      spec_.program_limits.push_back(std::move(l));
    }
    spec_.split_operand_load = m.str_or("split_operand_load", "");
    m.finish();
  }

  /// faults: the widths of fault_o, fault_pc_o and fault_unit_o, and the
  /// codes, which must be 0, 1, 2, ... in order (code 0, no fault, first),
  /// each fitting the width, names unique; the unit width names every unit.
  void faults(const YAML::Node& n) {
    YamlMap m(n, file_, "faults");
    auto width = [&](const char* key, const char* port, int lo) {
      const auto w = static_cast<int>(m.integer(key));
      if (w < lo || w > 32)
        fail("spec.bad_value", fmt::format("faults.{} = {}: {} is {} to 32 bits", key, w, port, lo), m.loc(key));
      return w;
    };
    spec_.fault_width = width("width", "fault_o", 1);
    spec_.fault_pc_width = width("pc_width", "fault_pc_o", 1);
    spec_.fault_unit_width = width("unit_width", "fault_unit_o", 1);
    if (spec_.units.size() > (std::size_t{1} << spec_.fault_unit_width))
      fail("spec.bad_value",
           fmt::format("faults.unit_width = {}: fault_unit_o cannot name {} units", spec_.fault_unit_width,
                       spec_.units.size()),
           m.loc("unit_width"));
    std::set<std::string> names;
    for (const auto& fn : m.seq("codes")) {
      YamlMap fm(fn, file_, "a fault code");
      FaultCode f{fm.str("name"), static_cast<int>(fm.integer("code")), fm.str("meaning")};
      const auto expected = static_cast<int>(spec_.faults.size());
      if (f.code != expected)
        fail("spec.fault_code",
             fmt::format("fault {} has code {}; the codes run 0, 1, 2, ... in order, so this one is {}", f.name,
                         f.code, expected),
             fm.loc("code"));
      if (f.code >= (1 << spec_.fault_width))
        fail("spec.fault_code",
             fmt::format("fault {} has code {}, past the {}-bit fault_o", f.name, f.code, spec_.fault_width),
             fm.loc("code"));
      if (!names.insert(f.name).second)
        fail("spec.duplicate_name", fmt::format("fault {} is defined twice", f.name), fm.loc("name"));
      fm.finish();
      spec_.faults.push_back(std::move(f));
    }
    if (spec_.faults.empty() || spec_.faults.front().name != "NONE")
      fail("spec.fault_code", "faults.codes starts with NONE, code 0 (no fault)", m.loc("codes"));
    m.finish();
  }

  /// interfaces: each a name, a role and ports whose names end in _i or _o,
  /// unique over every interface.
  void interface(const YAML::Node& n) {
    YamlMap m(n, file_, "an interface");
    Interface itf{m.str("name"), m.str("role"), {}};
    for (const auto& pn : m.seq("ports")) {
      YamlMap pm(pn, file_, "an interface port");
      InterfacePort p{pm.str("name"), pm.str_or("bits", "1"), pm.str("role")};
      if (!p.name.ends_with("_i") && !p.name.ends_with("_o"))
        fail("spec.bad_value", fmt::format("port {} of interface {}: a port's name ends in _i or _o", p.name, itf.name),
             pm.loc("name"));
      if (!port_names_.insert(p.name).second)
        fail("spec.duplicate_name", fmt::format("port {} is in two interfaces", p.name), pm.loc("name"));
      pm.finish();
      itf.ports.push_back(std::move(p));
    }
    if (find_named(spec_.interfaces, itf.name))
      fail("spec.duplicate_name", fmt::format("interface {} is defined twice", itf.name), m.loc("name"));
    m.finish();
    spec_.interfaces.push_back(std::move(itf));
  }

  // -------------------------------------------------------------------------
  // Whole-model validation
  // -------------------------------------------------------------------------
  void check_names(const Expr& e, const SourceLoc& at, const std::set<std::string>& extra) const {
    for (const auto& name : e.names()) {
      if (extra.count(name) || known_.count(name) || spec_.builtin(name)) continue;
      fail("spec.unknown_name", fmt::format("expression '{}' names '{}', which the spec does not define", e.text(), name), at);
    }
  }

  /// An expression over the spec's builtin names (its ISA constants and
  /// parameters) only.
  std::int64_t eval_builtin(const Expr& e, const SourceLoc& at, std::string_view what) const {
    return eval_at(e, [&](std::string_view n) { return spec_.builtin(n); }, at, fmt::format("{} '{}'", what, e.text()));
  }

  void validate() {
    for (const auto& c : spec_.isa_constants) known_.insert(c.name);
    for (const auto& p : spec_.parameters) known_.insert(p.name);
    for (const auto& c : spec_.derived_constants) {
      if (known_.count(c.name)) fail("spec.duplicate_name", fmt::format("constant '{}' is defined twice", c.name), locs_.at(c.name));
      known_.insert(c.name);
    }
    // ISA constants must be closed (numbers only).
    for (const auto& c : spec_.isa_constants)
      if (!c.value.names().empty())
        fail("spec.bad_value", fmt::format("ISA constant {} must be a number", c.name), SourceLoc{file_, 0, 0});
    spec_.term.count = static_cast<int>(eval_builtin(term_count_, term_loc_, "the AGU term count"));
    if (spec_.term.count * spec_.term.width > spec_.word_bits)
      fail("spec.field_too_wide",
           fmt::format("{} AGU terms of {} bits do not fit a {}-bit word", spec_.term.count, spec_.term.width, spec_.word_bits),
           term_loc_);
    const auto depth = eval_builtin(loop_depth_, loop_loc_, "the loop stack's depth");
    if (depth - 1 > spec_.term.subfield("level").usable_max)
      fail("spec.field_too_narrow", fmt::format("the level subfield cannot name loop level {}", depth - 1), loop_loc_);
    int max_target = 0;
    for (const auto& f : spec_.word0) max_target = std::max(max_target, f.agu_target);
    if (max_target > spec_.term.subfield("target").usable_max)
      fail("spec.field_too_narrow", fmt::format("the target subfield cannot name target {}", max_target), loop_loc_);
    if (const Field* op = spec_.field("op"))
      for (const auto& o : spec_.opcodes)
        if (o.value < 0 || o.value > op->usable_max)
          fail("spec.opcode_range", fmt::format("opcode {} = {} does not fit the op field (0 .. {})", o.name, o.value, op->usable_max), o.loc);
    for (const auto& [state, at] : pending_states_)
      if (!spec_.memory(state))
        fail("spec.unknown_memory", fmt::format("'{}' is not a memory the spec defines", state), at);
    for (const auto& ae : action_exprs_) check_names(ae.expr, ae.loc, ae.local);
    for (const auto& [e, at] : expr_locs_) check_names(e, at, {});
    for (const auto& [e, at] : limit_exprs_) check_names(e, at, {"M", "K", "N"});
    for (const auto& c : spec_.derived_constants) check_names(c.value, locs_.at(c.name), {});
    for (const auto& mem : spec_.memories)
      if (mem.dram) {
        // The packed-word operand must be an operand of every opcode touching the memory.
        for (const auto& a : spec_.actions)
          if (a.state == mem.name && !spec_.opcode_named(a.opcode).operand(mem.dram->packed_word))
            fail("spec.unknown_operand",
                 fmt::format("opcode {} reaches DRAM memory {} but has no '{}' operand", a.opcode, mem.name, mem.dram->packed_word),
                 a.loc);
      }
    for (const auto& u : spec_.units)
      if (u.instructions_from != "dispatch" && u.instructions_from != "imem" && !u.port(u.instructions_from))
        fail("spec.unknown_port", fmt::format("unit {} takes instructions from '{}', which is neither dispatch, imem nor one of its ports",
                                              u.name, u.instructions_from),
             u.loc);
    for (const auto& c : spec_.constraints)
      if (!c.ceiling.empty() && !std::any_of(spec_.ceilings.begin(), spec_.ceilings.end(), [&](const Ceiling& x) { return x.name == c.ceiling; }))
        fail("spec.unknown_name", fmt::format("constraint names unknown ceiling '{}'", c.ceiling), SourceLoc{file_, 0, 0});
  }

  struct ActionExpr {
    Expr expr;
    SourceLoc loc;
    std::set<std::string> local;
  };

  std::string file_;
  YAML::Node root_;
  Spec spec_;
  Expr term_count_, loop_depth_;
  SourceLoc term_loc_, loop_loc_;
  std::vector<std::pair<std::string, SourceLoc>> pending_states_;
  std::vector<ActionExpr> action_exprs_;
  std::vector<std::pair<Expr, SourceLoc>> expr_locs_;
  std::set<std::string> port_names_;  ///< every interface port, for uniqueness
  std::vector<std::pair<Expr, SourceLoc>> limit_exprs_;
  std::map<std::string, SourceLoc> locs_;
  std::set<std::string> known_;
};

}  // namespace

Spec load_spec_text(const std::string& text, const std::string& path) {
  try {
    return Loader(text, path).run();
  } catch (const YAML::Exception& e) {
    throw Error("spec.yaml", e.msg, SourceLoc{path, e.mark.line + 1, e.mark.column + 1});
  }
}

Spec load_spec(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("spec.io", fmt::format("cannot read the spec file '{}'", path), SourceLoc{path});
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_spec_text(ss.str(), path);
}

}  // namespace tpugen
