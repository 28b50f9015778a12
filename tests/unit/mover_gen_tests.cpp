// tpugen mover gen: tpu_mover_pkg from spec/system_node.yaml, and the
// configuration the generator writes.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "hdl/injected_bugs.h"
#include "hdl/sysnode/sysnode_emitters.h"
#include "hdl/sysnode/sysnode_generate.h"
#include "test_support.h"

using namespace tpugen;

namespace {

hdl::SysnodeContext context(const SystemNodeSpec& spec, const std::map<std::string, std::string>& params = {}) {
  return hdl::SysnodeContext(test::shipped_noc_spec(), spec, resolve_mover_params(spec, params),
                             resolve_agent_params(spec));
}

}  // namespace

TEST_CASE("mover gen: tpu_mover_pkg holds the spec's register map, codes and constants", "[mover][gen]") {
  const std::string pkg = hdl::emit_tpu_mover_pkg(context(test::shipped_system_node_spec(), {{"RD_BURSTS", "12"}}));
  for (const char* line : {"REG_DIM                       = 7'h18;", "DIM_STRIDE_LSB                = 20;",
                           "DIM_STRIDE_W                  = 32;", "FAULT_ELEM_WIDTH              = 4'd5;",
                           "MODES_IMPLEMENTED             = 8'b00111101;", "ELEM_WIDTHS                   = 4'b0111;",
                           "BOUND_SEL_FEEDS_1             = 4'b0100;", "PHILOX_M0                     = 32'hd2511f53;",
                           "XFORM_QUANTISER_OUT_WORDS     = 4;", "RD_BURSTS                     = 12;",
                           "FLAG_BURST_CAP_0              = 128;", "FLAG_BURST_CAP_MAX            = 128;",
                           "MOVE_ELEM_WIDTH_RESET         = 2'h1;", "WALKER_NDIM_RESET             = 3'h1;",
                           "GATHER_GATHER_WORDS_RESET     = 16'h1;", "DIM_STRIDE_RESET              = 32'h0;",
                           "AXI_MASTER_MOVER              = 1;"}) {
    INFO(line);
    CHECK(pkg.find(line) != std::string::npos);
  }
  // R[m8] at bits [16*(m8-8) +: 16]: R[8] = 4096 last in the concatenation, R[13] = 2520.
  const std::smatch m = [&] {
    std::smatch out;
    const std::regex r("QUANT_R_TABLE += \\{([^}]*)\\}");
    REQUIRE(std::regex_search(pkg, out, r));
    return out;
  }();
  CHECK(m[1].str() == "16'd2185, 16'd2341, 16'd2520, 16'd2731, 16'd2979, 16'd3277, 16'd3641, 16'd4096");
  CHECK(pkg.find("package tpu_mover_pkg;") != std::string::npos);
  CHECK(pkg.find("endpackage") != std::string::npos);
  // A change to the spec changes the package; the same inputs give the same bytes.
  CHECK(pkg == hdl::emit_tpu_mover_pkg(context(test::shipped_system_node_spec(), {{"RD_BURSTS", "12"}})));
  const SystemNodeSpec other = load_system_node_spec_text(
      test::edited_text(TPUGEN_SOURCE_DIR "/spec/system_node.yaml", "offset: 0x50", "offset: 0x58"), "edited.yaml",
      test::shipped_noc_spec());
  CHECK(hdl::emit_tpu_mover_pkg(context(other)).find("REG_GATHER                    = 7'h58;") != std::string::npos);
}

TEST_CASE("mover gen: the configuration holds the package, the primitives and rtl/mover, in compile order",
          "[mover][gen]") {
  const std::filesystem::path out = std::filesystem::path(TPUGEN_BINARY_DIR) / "test_mover_gen";
  std::filesystem::remove_all(out);
  const auto files = hdl::generate_mover(context(test::shipped_system_node_spec()), out.string());
  const std::string list = test::read_text((out / "files.f").string());
  CHECK(list.rfind("tpu_mover_pkg.sv\n", 0) == 0);  // the package first
  CHECK(list.find("tpu_fifo.sv") != std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(TPUGEN_SOURCE_DIR "/rtl/mover")) {
    INFO(e.path());
    CHECK(list.find(e.path().filename().string()) != std::string::npos);
  }
  const std::string params = test::read_text((out / "params.json").string());
  CHECK(params.find("\"READ_AHEAD\": 256") != std::string::npos);
}

TEST_CASE("mover gen: each of the system node's injected defects changes its file once and says so", "[mover][gen]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const hdl::SysnodeContext clean = context(spec);
  int seen = 0;
  for (const auto& bug : hdl::injected_bugs()) {
    if (bug.target != hdl::BugTarget::SystemNode) continue;
    if (std::string_view(bug.name).rfind("agent_", 0) == 0) continue;  // the memory agent's (agent_gen_tests.cpp)
    INFO(bug.name);
    ++seen;
    const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec),
                                  resolve_agent_params(spec), std::string(bug.name));
    const std::string text = hdl::mover_module_text(ctx, bug.module);
    CHECK(text != hdl::mover_module_text(clean, bug.module));
    CHECK(text.find("INJECTED DEFECT") != std::string::npos);
    CHECK(text.find(std::string(bug.name)) != std::string::npos);  // the warning header names it
  }
  CHECK(seen == 3);
  // A defect of another target is refused by name.
  CHECK_THROWS_WITH(hdl::SysnodeContext(test::shipped_noc_spec(), spec, resolve_mover_params(spec),
                                        resolve_agent_params(spec), "noc_fifo_drops_last"),
                    Catch::Contains("not of the system node"));
}
