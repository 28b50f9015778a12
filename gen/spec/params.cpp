#include "spec/params.h"

#include <fmt/format.h>

#include <cstdlib>
#include <set>

namespace tpugen {

std::optional<std::int64_t> Params::get(std::string_view name) const {
  if (auto it = values_.find(std::string(name)); it != values_.end()) return it->second;
  if (spec_) return spec_->builtin(name);
  return std::nullopt;
}

std::int64_t Params::operator[](std::string_view name) const {
  if (auto v = get(name)) return *v;
  throw Error("params.unknown", fmt::format("no parameter or constant named '{}'", name));
}

Scope Params::scope() const {
  return [this](std::string_view n) { return get(n); };
}

const std::string& Params::source(const std::string& name) const {
  static const std::string kNone;
  auto it = sources_.find(name);
  return it == sources_.end() ? kNone : it->second;
}

std::vector<std::pair<std::string, std::int64_t>> Params::build_parameters() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& p : spec_->parameters) out.emplace_back(p.name, values_.at(p.name));
  return out;
}

namespace {

std::int64_t parse_env_int(const std::string& var, const char* text) {
  std::string s(text);
  try {
    std::size_t pos = 0;
    const long long v = std::stoll(s, &pos, 0);
    if (pos == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw Error("params.env", fmt::format("environment variable {}='{}' is not an integer", var, s));
}

}  // namespace

class ParamResolver {
 public:
  ParamResolver(const Spec& spec, const ParamOverrides& overrides, const EnvReader& env)
      : spec_(spec), overrides_(overrides), env_(env) {
    for (const auto& [name, v] : overrides)
      if (!spec.parameter(name))
        throw Error("params.unknown", fmt::format("'{}' is not a build parameter of {}", name, spec.name));
  }

  std::optional<std::int64_t> lookup(std::string_view name) {
    const std::string key(name);
    if (auto it = out_.values_.find(key); it != out_.values_.end()) return it->second;
    if (auto b = spec_.builtin(name)) return b;
    if (busy_.count(key))
      throw Error("params.cycle", fmt::format("the defaults of {} depend on each other in a cycle", key));
    if (const Parameter* p = spec_.parameter(name)) {
      busy_.insert(key);
      std::int64_t v = 0;
      if (auto it = overrides_.find(key); it != overrides_.end()) {
        v = it->second;
        out_.sources_[key] = "flag";
      } else if (const char* e = env_ ? env_(p->env.c_str()) : nullptr; e && *e) {
        v = parse_env_int(p->env, e);
        out_.sources_[key] = "env " + p->env;
      } else {
        v = eval(p->default_value, key);
        out_.sources_[key] = "default";
      }
      busy_.erase(key);
      out_.values_[key] = v;
      return v;
    }
    for (const auto& c : spec_.derived_constants) {
      if (c.name != name) continue;
      busy_.insert(key);
      const std::int64_t v = eval(c.value, key);
      busy_.erase(key);
      out_.values_[key] = v;
      out_.sources_[key] = "derived";
      return v;
    }
    return std::nullopt;
  }

  Params run() {
    out_.spec_ = &spec_;
    // A value given by flag or environment is range-checked before anything
    // derives from it, so T = 0 is refused as T, not as a division by zero.
    for (const auto& p : spec_.parameters) {
      const bool given = overrides_.count(p.name) || (env_ && env_(p.env.c_str()) && *env_(p.env.c_str()));
      if (!given) continue;
      const std::int64_t v = *lookup(p.name);
      if ((p.min && v < *p.min) || (p.max && v > *p.max))
        throw Error("params.range", fmt::format("{} = {} ({}) is outside its legal range {} .. {}", p.name, v,
                                                out_.sources_[p.name], p.min ? std::to_string(*p.min) : "-inf",
                                                p.max ? std::to_string(*p.max) : "unbounded"));
    }
    for (const auto& p : spec_.parameters) lookup(p.name);
    for (const auto& c : spec_.derived_constants) lookup(c.name);
    for (const auto& c : spec_.isa_constants) out_.values_[c.name] = spec_.isa_constant(c.name);
    out_.values_["NHDR"] = spec_.nhdr;
    out_.values_["IWORDS"] = spec_.iwords;
    return out_;
  }

 private:
  std::int64_t eval(const Expr& e, const std::string& what) {
    try {
      return e.eval([this](std::string_view n) { return lookup(n); });
    } catch (const ExprError& err) {
      throw Error("params.eval", fmt::format("cannot evaluate {} = {}: {}", what, e.text(), err.what()));
    }
  }

  const Spec& spec_;
  const ParamOverrides& overrides_;
  const EnvReader& env_;
  std::set<std::string> busy_;
  Params out_;
};

Params resolve_params(const Spec& spec, const ParamOverrides& overrides, const EnvReader& env) {
  return ParamResolver(spec, overrides, env).run();
}

std::optional<std::int64_t> maxdim_ceiling(const Spec& spec, const Ceiling& ceiling, const Params& params) {
  const std::int64_t t = params["T"];
  if (t <= 0) return std::nullopt;
  std::optional<std::int64_t> best;
  for (std::int64_t m = t; m <= (std::int64_t{1} << 16); m += t) {
    ParamOverrides o{{"T", t}, {"MAXDIM", m}};
    const Params at = resolve_params(spec, o, nullptr);
    bool holds = false;
    try {
      holds = ceiling.predicate.eval_bool(at.scope());
    } catch (const ExprError&) {
      holds = false;
    }
    if (!holds) return best;
    best = m;
  }
  return std::nullopt;
}

std::vector<ParamViolation> check_params(const Spec& spec, const Params& params) {
  std::vector<ParamViolation> out;
  for (const auto& p : spec.parameters) {
    const std::int64_t v = params[p.name];
    if ((p.min && v < *p.min) || (p.max && v > *p.max)) {
      out.push_back({"params.range",
                     fmt::format("{} = {} is outside its legal range {} .. {} ({})", p.name, v,
                                 p.min ? std::to_string(*p.min) : "-inf",
                                 p.max ? std::to_string(*p.max) : "unbounded", params.source(p.name))});
    }
  }
  for (const auto& c : spec.constraints) {
    bool holds = false;
    std::string why;
    try {
      holds = c.expr.eval_bool(params.scope());
    } catch (const ExprError& e) {
      why = fmt::format(" (cannot evaluate: {})", e.what());
    }
    if (holds) continue;
    std::string msg = fmt::format("constraint {} is violated: {}{}", c.expr.text(), c.rule, why);
    if (!c.ceiling.empty()) {
      for (const auto& ceil : spec.ceilings) {
        if (ceil.name != c.ceiling) continue;
        const auto limit = maxdim_ceiling(spec, ceil, params);
        msg += fmt::format("; MAXDIM = {} is past the {} ceiling, which is {} at T = {}", params["MAXDIM"], ceil.name,
                           limit ? std::to_string(*limit) : "none", params["T"]);
      }
    }
    out.push_back({"params.constraint", msg});
  }
  return out;
}

Params legal_params(const Spec& spec, const ParamOverrides& overrides, const EnvReader& env) {
  Params p = resolve_params(spec, overrides, env);
  const auto bad = check_params(spec, p);
  if (!bad.empty()) {
    std::string msg = "the build parameters are not legal:";
    for (const auto& v : bad) msg += "\n  - " + v.message;
    throw Error("params.constraint", msg);
  }
  return p;
}

}  // namespace tpugen
