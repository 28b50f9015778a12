// tpugen limits: which program limit refuses a GEMM shape, and by how much.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "isa/limits.h"

namespace tpugen::cli {

namespace {
struct LimitsOpts {
  std::string shape;
  bool json = false;
};

void print_limits(const std::vector<LimitResult>& limits) {
  for (const auto& l : limits) {
    std::string what = l.fits ? "fits" : (l.over > 0 ? fmt::format("OVER by {}", l.over) : "REFUSED");
    std::string measure = l.max ? fmt::format("{} <= {}", l.value, l.max) : "";
    fmt::print("  {:<10} {:<14} {:<16} {}{}\n", l.name, what, measure, l.rule, l.detail.empty() ? "" : " (" + l.detail + ")");
  }
}

nlohmann::ordered_json to_json(const std::vector<LimitResult>& limits) {
  auto a = nlohmann::ordered_json::array();
  for (const auto& l : limits)
    a.push_back({{"name", l.name}, {"fits", l.fits}, {"value", l.value}, {"max", l.max}, {"over", l.over},
                 {"rule", l.rule}, {"detail", l.detail}});
  return a;
}
}  // namespace

Command limits_command() {
  return param_command<LimitsOpts>("limits",
          [](CLI::App& sub, LimitsOpts& o) {
            sub.add_option("--gemm", o.shape, "the shape MxKxN")->required();
            sub.add_flag("--json", o.json, "print JSON");
          },
          [](Context& ctx, LimitsOpts& o) {
            const Isa isa(ctx.spec, ctx.params());
            const GemmLimits r = gemm_limits(isa, parse_shape(o.shape));
            if (o.json) {
              nlohmann::ordered_json j;
              j["shape"] = o.shape;
              j["fits"] = r.fits;
              j["limits"] = to_json(r.limits);
              j["split_operand_load"] = {{"fits", r.split_fits}, {"limits", to_json(r.split)}};
              fmt::print("{}\n", j.dump(2));
            } else {
              fmt::print("GEMM {} at T = {}, MAXDIM = {}: the shipped layout\n", o.shape, isa.param("T"), isa.param("MAXDIM"));
              print_limits(r.limits);
              fmt::print("  => {}\n\nwith split_operand_load\n", r.fits ? "fits" : "does not fit");
              print_limits(r.split);
              fmt::print("  => {}\n", r.split_fits ? "fits" : "does not fit");
            }
            if (r.fits) return kOk;
            return r.split_fits ? 3 : kFail;
          });
}

}  // namespace tpugen::cli
