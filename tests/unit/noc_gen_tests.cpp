// `tpugen noc gen`: a fabric's files, byte-identical for identical inputs,
// with the package from the spec and the mesh of the size asked for.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "hdl/injected_bugs.h"
#include "hdl/noc/noc_generate.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::hdl;
namespace fs = std::filesystem;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

}  // namespace

TEST_CASE("noc gen: the package, the primitives, the router and the mesh, in compile order", "[noc][gen]") {
  const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "test_noc_gen";
  fs::remove_all(dir);
  const NocContext ctx(spec(), resolve_noc_params(spec(), {{"NX", "3"}, {"NY", "2"}, {"DEPTH", "4"}}));
  const auto written = generate_noc(ctx, dir.string());
  const std::string files = test::read_text((dir / "files.f").string());
  CHECK(files.rfind("tpu_noc_pkg.sv\n", 0) == 0);  // the package first
  CHECK_THAT(files, Catch::EndsWith("tpu_noc_mesh.sv\n"));  // the top last
  for (const char* f : {"tpu_fifo.sv", "tpu_rr_arb.sv", "tpu_out_reg.sv", "tpu_noc_router.sv", "tpu_noc_route.sv",
                        "tpu_noc_check.sv"})
    CHECK_THAT(files, Catch::Contains(std::string(f) + "\n"));
  const auto params = nlohmann::json::parse(test::read_text((dir / "params.json").string()));
  CHECK(params["top"] == "tpu_noc_mesh");
  CHECK(params["parameters"]["NX"] == 3);
  CHECK(params["parameters"]["NY"] == 2);
  CHECK(params["parameters"]["DEPTH"] == 4);
  CHECK(params["parameters"]["ROUTING"] == "xy");
  CHECK(params["derived"]["NODES"] == 6);
  CHECK(params["spec_sha256"] == spec().sha256);
  const std::string pkg = test::read_text((dir / "tpu_noc_pkg.sv").string());
  CHECK_THAT(pkg, Catch::Contains("localparam int          NX "));
  CHECK_THAT(pkg, Catch::Contains("= 3;"));
  CHECK_THAT(pkg, Catch::Contains("DST_X_LSB"));
  CHECK_THAT(pkg, Catch::Contains("TYPE_ERROR"));
  CHECK_THAT(pkg, Catch::Contains("MEM_REQ_ENTRY_WORDS_LSB"));
  CHECK_THAT(pkg, Catch::Contains("ERR_SRC_NOT_SENDER"));
  CHECK_THAT(pkg, Catch::Contains(spec().sha256));
  // The check names each rule of the spec, in the spec's order.
  const std::string check = test::read_text((dir / "tpu_noc_check.sv").string());
  std::size_t at = 0;
  for (const auto& r : spec().error_rules) {
    const std::size_t next = check.find("tpu_noc_pkg::ERR_" + r.name, at);
    INFO(r.name);
    REQUIRE(next != std::string::npos);
    at = next;
  }
  // Byte-identical a second time.
  std::vector<std::string> first;
  for (const auto& f : written) first.push_back(test::read_text(f));
  const auto again = generate_noc(ctx, dir.string());
  REQUIRE(again.size() == written.size());
  for (std::size_t i = 0; i < again.size(); ++i) CHECK(test::read_text(again[i]) == first[i]);
}

TEST_CASE("noc gen: the routing choice reaches the RTL, and a defect name must exist", "[noc][gen]") {
  const NocContext yx(spec(), resolve_noc_params(spec(), {{"ROUTING", "yx"}}));
  const std::string route = noc_module_text(yx, "tpu_noc_route");
  // y first: the first comparison is on dst_y.
  CHECK(route.find("dst_y_i) > Y") < route.find("dst_x_i) > X"));
  const NocContext xy(spec(), resolve_noc_params(spec()));
  const std::string route_xy = noc_module_text(xy, "tpu_noc_route");
  CHECK(route_xy.find("dst_x_i) > X") < route_xy.find("dst_y_i) > Y"));
  CHECK_THROWS_AS(noc_module_text(xy, "tpu_noc_nothing"), Error);
  CHECK_NOTHROW(noc_module_text(xy, "tpu_noc_router"));
  CHECK_THROWS_WITH(NocContext(spec(), resolve_noc_params(spec()), "no_such_bug"), Catch::Contains("no_such_bug"));
}

TEST_CASE("noc gen: each of the NoC's deliberate defects changes its module and no other", "[noc][gen][inject]") {
  const auto texts = [](const std::string& bug) {
    const NocContext ctx(spec(), resolve_noc_params(spec(), {{"NX", "3"}, {"NY", "3"}}), bug);
    std::map<std::string, std::string> out;
    const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / ("test_noc_bug_" + (bug.empty() ? "clean" : bug));
    fs::remove_all(dir);
    for (const auto& f : generate_noc(ctx, dir.string())) out[fs::path(f).filename().string()] = test::read_text(f);
    return out;
  };
  const auto clean = texts("");
  int seen = 0;
  for (const auto& bug : injected_bugs()) {
    if (bug.target != hdl::BugTarget::Noc) continue;
    ++seen;
    INFO(bug.name);
    const auto defective = texts(std::string(bug.name));
    REQUIRE(defective.size() == clean.size());
    for (const auto& [file, text] : defective) {
      INFO(file);
      const bool carries = file == std::string(bug.module) + ".sv";
      CHECK((text.find("INJECTED DEFECT") != std::string::npos) == carries);
    }
  }
  CHECK(seen == 3);
  CHECK_THROWS_WITH(NocContext(spec(), resolve_noc_params(spec()), "pe_product_width"),
                    Catch::Contains("a defect of the core, not of the NoC"));
}
