// tpugen params: the resolved build parameters, derived constants, ceilings
// and constraints.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cli.h"

namespace tpugen::cli {

namespace {
struct ParamsOpts {
  bool json = false;
};
}  // namespace

Command params_command() {
  return param_command<ParamsOpts>("params",
          [](CLI::App& sub, ParamsOpts& o) {
            sub.add_flag("--json", o.json, "print JSON instead of tables");
          },
          [](Context& ctx, ParamsOpts& o) {
            const Spec& spec = ctx.spec;
            const Params p = ctx.params();
            const auto violations = check_params(spec, p);
            std::vector<std::pair<std::string, std::optional<std::int64_t>>> ceilings;
            for (const auto& c : spec.ceilings) ceilings.emplace_back(c.name, maxdim_ceiling(spec, c, p));
            if (o.json) {
              nlohmann::ordered_json j;
              j["spec"] = {{"path", spec.path}, {"sha256", spec.sha256}};
              for (const auto& prm : spec.parameters)
                j["parameters"][prm.name] = {{"value", p[prm.name]}, {"source", p.source(prm.name)}};
              for (const auto& c : spec.derived_constants) j["derived"][c.name] = p[c.name];
              for (const auto& c : spec.isa_constants) j["isa_constants"][c.name] = p[c.name];
              for (const auto& [name, v] : ceilings) j["maxdim_ceilings"][name] = v ? nlohmann::json(*v) : nlohmann::json();
              j["violations"] = nlohmann::json::array();
              for (const auto& v : violations) j["violations"].push_back(v.message);
              fmt::print("{}\n", j.dump(2));
            } else {
              fmt::print("{} build parameters (spec {}, sha256 {})\n\n", spec.name, spec.path, spec.sha256.substr(0, 16));
              fmt::print("{:<12} {:>8}  {:<18} {:<16} {}\n", "parameter", "value", "source", "legal range", "role");
              for (const auto& prm : spec.parameters)
                fmt::print("{:<12} {:>8}  {:<18} {:<16} {}\n", prm.name, p[prm.name], p.source(prm.name),
                           fmt::format("{} .. {}", prm.min ? std::to_string(*prm.min) : "-inf",
                                       prm.max ? std::to_string(*prm.max) : "unbounded"),
                           prm.role);
              fmt::print("\n{:<14} {:>8}  {}\n", "constant", "value", "definition");
              for (const auto& c : spec.isa_constants) fmt::print("{:<14} {:>8}  ISA constant\n", c.name, p[c.name]);
              fmt::print("{:<14} {:>8}  header words\n{:<14} {:>8}  instruction words\n", "NHDR", spec.nhdr, "IWORDS", spec.iwords);
              for (const auto& c : spec.derived_constants) fmt::print("{:<14} {:>8}  {}\n", c.name, p[c.name], c.value.text());
              fmt::print("\nMAXDIM ceilings at T = {} (the largest multiple of T each predicate admits):\n", p["T"]);
              std::optional<std::int64_t> binding;
              std::string binding_name;
              for (std::size_t i = 0; i < ceilings.size(); ++i) {
                const auto& [name, v] = ceilings[i];
                fmt::print("  {:<14} {:>6}  {}\n", name, v ? std::to_string(*v) : "none", spec.ceilings[i].predicate.text());
                if (v && (!binding || *v < *binding)) {
                  binding = v;
                  binding_name = name;
                }
              }
              if (binding) fmt::print("  binding: {} ({}); MAXDIM = {}\n", binding_name, *binding, p["MAXDIM"]);
              if (violations.empty()) {
                fmt::print("\nall {} constraints hold\n", spec.constraints.size());
              } else {
                fmt::print("\n");
                for (const auto& v : violations) fmt::print("violated: {}\n", v.message);
              }
            }
            if (!violations.empty()) {
              for (const auto& v : violations) fmt::print(stderr, "tpugen: error [{}]: {}\n", v.rule, v.message);
              return kFail;
            }
            return kOk;
          });
}

}  // namespace tpugen::cli
