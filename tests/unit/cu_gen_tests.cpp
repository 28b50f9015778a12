// tpu_cu_pkg (hdl::emit_tpu_cu_pkg): the CU wrapper's, the orchestrator's and
// the TinyTPU unit's constants from spec/compute_units.yaml, at this build's
// parameters, and clean under Verilator's lint.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <string>

#include "hdl/cu/cu_context.h"
#include "spec/params.h"
#include "test_support.h"

using namespace tpugen;

namespace {

hdl::CuContext context(const std::map<std::string, std::string>& orch = {}, const ParamOverrides& core = {}) {
  return hdl::make_cu_context(test::shipped_noc_spec(), test::shipped_system_node_spec(),
                              test::shipped_compute_units_spec(), test::isa_at(core), {}, orch);
}

std::string value_of(const std::string& text, const std::string& name) {
  const std::regex decl("\\blocalparam\\b[^\n=]* " + name + " += ([^;]+);");
  std::smatch m;
  return std::regex_search(text, m, decl) ? m[1].str() : std::string{};
}

}  // namespace

TEST_CASE("cu gen: tpu_cu_pkg holds the spec's offsets, fields, codes and this build's constants", "[cu][gen]") {
  const ComputeUnitsSpec& s = test::shipped_compute_units_spec();
  const std::string pkg = hdl::emit_tpu_cu_pkg(context({{"PROG_FLITS", "256"}, {"CHANNELS", "8"}}));
  CHECK(pkg.find("package tpu_cu_pkg;") != std::string::npos);
  const OrchestratorSpec& o = s.orchestrator;
  CHECK(value_of(pkg, "ORCH_PROG_KICK") == fmt::format("'h{:x}", o.require_register("PROG_KICK").offset));
  CHECK(value_of(pkg, "ORCH_PROG_STAT_KICK_ERROR_LSB") ==
        std::to_string(o.require_register("PROG_STAT").require_field("kick_error").lsb));
  CHECK(value_of(pkg, "PROG_FLITS") == "256");
  CHECK(value_of(pkg, "CHANNEL_W") == "3");
  // 256 slots of 64 bytes from 0x1000: the map ends at 0x5000, 15 address bits.
  CHECK(value_of(pkg, "ORCH_ADDR_W") == "15");
  const UnitSpec& u = s.require_unit("tinytpu");
  CHECK(value_of(pkg, "TINYTPU_RUN_B_ADDR_LSB") == std::to_string(u.require_opcode("RUN").require_field("b_addr").lsb));
  CHECK(value_of(pkg, "TINYTPU_RUN_M_ZERO_MEANS") == "64");
  CHECK(value_of(pkg, "TINYTPU_TAG_B") == "64");
  CHECK(value_of(pkg, "TINYTPU_FAULT_UNKNOWN_OPCODE") == "8'd1");
  CHECK(value_of(pkg, "CU_FAULT_INST_OVERFLOW") == fmt::format("8'd{}", s.cu_base.require_fault("INST_OVERFLOW").code));
  // At MAXDIM 32 the tags follow the build.
  const std::string small = hdl::emit_tpu_cu_pkg(context({}, {{"MAXDIM", 32}}));
  CHECK(value_of(small, "TINYTPU_TAG_OWN") == "64");
  CHECK(value_of(small, "TINYTPU_ROW_WORDS") == "1");
  // The row reciprocal divides every offset by MAXDIM (checked at generation; here two of them).
  const auto recip = std::stoll(value_of(pkg, "TINYTPU_ROW_RECIP")), shift = std::stoll(value_of(pkg, "TINYTPU_ROW_SHIFT"));
  CHECK(((4095 * recip) >> shift) == 63);
  CHECK(((64 * recip) >> shift) == 1);
}

TEST_CASE("cu gen: tpu_cu_pkg is clean under verilator -Wall", "[cu][gen][tools]") {
  const auto dir = std::filesystem::temp_directory_path() / "tpugen_cu_pkg_lint";
  std::filesystem::create_directories(dir);
  test::write_text(dir / "tpu_cu_pkg.sv", hdl::emit_tpu_cu_pkg(context()));
  // A package alone has no top: a module that reads one constant of it.
  test::write_text(dir / "cu_pkg_top.sv",
                   "module cu_pkg_top (output logic [15:0] slots_o);\n"
                   "  assign slots_o = 16'(tpu_cu_pkg::PROG_FLITS);\n"
                   "endmodule\n");
  const auto run = test::run_command({"verilator", "--lint-only", "-Wall", (dir / "tpu_cu_pkg.sv").string(),
                                      (dir / "cu_pkg_top.sv").string()},
                                     dir / "lint.log");
  INFO(run.output);
  CHECK(run.code == 0);
}

TEST_CASE(
    "cu gen: the package places each fault's detail parts, and a detail part too narrow for what it carries is refused",
    "[cu][gen]") {
  const std::string pkg = hdl::emit_tpu_cu_pkg(context());
  const NocCode& core = test::shipped_compute_units_spec().require_unit("tinytpu").require_fault("CORE");
  CHECK(value_of(pkg, "TINYTPU_FAULT_CORE_PC_LSB") == std::to_string(core.require_detail("pc").lsb));
  CHECK(value_of(pkg, "TINYTPU_FAULT_CORE_PC_W") == std::to_string(core.require_detail("pc").width()));
  CHECK(value_of(pkg, "TINYTPU_FAULT_MEMORY_TXN_LSB") == "8");
  CHECK(value_of(pkg, "TINYTPU_FAULT_GEOMETRY_LSB").empty());  // a detail of one part has no layout

  // A part one bit short of what it carries: CORE's pc of the core's
  // fault_pc_o (16 bits), MEMORY's rule of an ERROR flit's rule (8 bits).
  const auto refused = [](const std::string& from, const std::string& to, const std::string& message) {
    const std::string path = TPUGEN_SOURCE_DIR "/spec/compute_units.yaml";
    const ComputeUnitsSpec narrow = load_compute_units_spec_text(
        test::edited_text(path, from, to), "edited.yaml", test::shipped_noc_spec(), test::shipped_system_node_spec());
    try {
      (void)hdl::make_cu_context(test::shipped_noc_spec(), test::shipped_system_node_spec(), narrow, test::isa_at());
      FAIL("accepted: " << to);
    } catch (const Error& e) {
      CHECK(e.rule() == "gen.cu");
      CHECK(std::string(e.what()).find(message) != std::string::npos);
    }
  };
  refused("{name: pc, bits: [23, 8]}", "{name: pc, bits: [22, 8]}",
          "CORE fault's detail pc has 15 bits; what it carries needs 16");
  refused("{name: rule, bits: [7, 0]}", "{name: rule, bits: [6, 0]}",
          "MEMORY fault's detail rule has 7 bits; what it carries needs 8");
}
