// tpugen synth's pure parts: the template filler and the readers of what
// Yosys and nextpnr-ice40 write, on small texts in their formats.
#include <catch2/catch.hpp>

#include "util/diag.h"
#include "synth/reports.h"
#include "synth/synth_flow.h"
#include "util/template.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::synth;

TEST_CASE("fill_template replaces named placeholders and leaves TCL braces alone", "[synth]") {
  const std::string text = "create_clock -period {{period}} [get_ports {{clk}}]\nif {$argc > 0} { puts {x} }\n{{ a }}";
  const std::string out = fill_template(text, {{"period", "5.000"}, {"clk", "clk_i"}}, "t.xdc", kFpgaTemplate);
  CHECK(out == "create_clock -period 5.000 [get_ports clk_i]\nif {$argc > 0} { puts {x} }\n{{ a }}");
}

TEST_CASE("fill_template names the template line and placeholder without a value", "[synth]") {
  const Error e = test::error_of([&] { (void)fill_template("ok\nread {{files}}\n", {}, "fpga/x.ys", kFpgaTemplate); });
  CHECK(e.rule() == "synth.template");
  CHECK(e.message().find("line 2") != std::string::npos);
  CHECK(e.message().find("files") != std::string::npos);
}

TEST_CASE("fill_template: the SystemVerilog syntax leaves @(posedge ...) alone and fills in one pass", "[synth]") {
  const std::string text = "always_ff @(posedge clk_i) @A@_q <= @B@; // a@b.c\n";
  CHECK(fill_template(text, {{"A", "x"}, {"B", "@A@"}}, "t.sv.tpl", kSvTemplate) ==
        "always_ff @(posedge clk_i) x_q <= @A@; // a@b.c\n");
}

TEST_CASE("fill_template: the SystemVerilog syntax refuses an unfilled placeholder and an unused value", "[synth]") {
  const auto rule_and_message = [](const std::string& text, const TemplateValues& v) {
    try {
      (void)fill_template(text, v, "rtl/core/x.sv.tpl", kSvTemplate);
    } catch (const Error& e) {
      return e.rule() + ": " + e.message();
    }
    return std::string("no error");
  };
  const std::string unfilled = rule_and_message("a\n@T@ @W@\n", {{"T", "4"}});
  CHECK(unfilled.rfind("rtl.template: ", 0) == 0);
  CHECK(unfilled.find("line 2") != std::string::npos);
  CHECK(unfilled.find("@W@") != std::string::npos);
  const std::string unused = rule_and_message("@T@\n", {{"T", "4"}, {"TYPO", "1"}});
  CHECK(unused.rfind("rtl.template: ", 0) == 0);
  CHECK(unused.find("@TYPO@") != std::string::npos);
  // The fpga/ templates share one value map: an unused value is fine there.
  CHECK(fill_template("{{a}}", {{"a", "1"}, {"b", "2"}}, "fpga/x.ys", kFpgaTemplate) == "1");
}

TEST_CASE("parse_check groups check's warnings per net and rule", "[synth]") {
  const std::string text =
      "Checking module top...\n"
      "Warning: multiple conflicting drivers for top.\\y_d [1]:\n"
      "    port Y[1] of cell $and$a.sv:9$1 ($and)\n"
      "    port Y[1] of cell $or$a.sv:10$2 ($or)\n"
      "Warning: multiple conflicting drivers for top.\\y_d [0]:\n"
      "    port Y[0] of cell $and$a.sv:9$1 ($and)\n"
      "    port Y[0] of cell $or$a.sv:10$2 ($or)\n"
      "Warning: Wire top.\\u [3] is used but has no driver.\n"
      "Warning: found logic loop in module top:\n"
      "    cell $add$a.sv:9$2 ($add)\n"
      "    wire \\a_q [0]\n"
      "Found and reported 4 problems.\n";
  const auto f = parse_check(text);
  REQUIRE(f.size() == 3);
  CHECK(f[0].rule == "synth.multidriven");
  CHECK(f[0].subject == "top.y_d");
  CHECK(f[0].bits == 2);
  CHECK(f[0].detail.find("$or$a.sv:10$2") != std::string::npos);
  CHECK(f[1].rule == "synth.undriven");
  CHECK(f[1].subject == "top.u");
  CHECK(f[2].rule == "synth.comb_loop");
  CHECK(f[2].detail.find("wire a_q [0]") != std::string::npos);
  CHECK(parse_check("Checking module top...\nFound and reported 0 problems.\n").empty());
}

TEST_CASE("parse_stat_json reads modules and skips the hierarchy table Yosys 0.23 mixes in", "[synth]") {
  const std::string text = R"({
   "creator": "Yosys 0.23",
   "modules": {
      "\\top": { "num_cells": 3, "num_memories": 0, "num_cells_by_type": { "$not": 1, "mid": 2 } },
      "\\mid": { "num_cells": 2, "num_memories": 1, "num_cells_by_type": { "$paramod$ab\\ram\\W=8": 3 } },
      "$paramod$ab\\ram\\W=8": { "num_cells": 1, "num_memories": 1, "num_cells_by_type": { "$memrd": 1 } }
   },
       top      1
       $paramod$ab\ram\W=8      6
      "design": { "num_cells": 9, "num_cells_by_type": { "$not": 1, "$memrd": 6 } }
})";
  const StatReport s = parse_stat_json(text, "stat.json");
  REQUIRE(s.modules.size() == 3);
  CHECK(s.modules.at("mid").memories == 1);
  CHECK(s.design.cells_by_type.at("$memrd") == 6);
  const auto n = instance_counts(s, "top");
  CHECK(n.at("top") == 1);
  CHECK(n.at("mid") == 2);
  CHECK(n.at("$paramod$ab\\ram\\W=8") == 6);
  CHECK(is_module_of("$paramod$ab\\ram\\W=8", "ram"));
  CHECK(is_module_of("ram", "ram"));
  CHECK_FALSE(is_module_of("ram2", "ram"));
  CHECK_FALSE(is_module_of("$paramod$ab\\ram2\\W=8", "ram"));
  CHECK_THROWS_AS(parse_stat_json("{ not json", "x"), Error);
}

TEST_CASE("parse_memory_cells reads a dump of $mem_v2 cells", "[synth]") {
  const std::string text =
      "  attribute \\src \"rtl/top.sv:3.1-4.2|rtl/tpu_ram_1r1w.sv:30.21-30.26\"\n"
      "  cell $mem_v2 \\u_a.u_ram.mem_q\n"
      "    parameter \\RD_CLK_ENABLE 1'1\n"
      "    parameter \\RD_PORTS 1\n"
      "    parameter \\SIZE 64\n"
      "    parameter \\WIDTH 32\n"
      "    parameter \\WR_PORTS 1\n"
      "  end\n"
      "  cell $mem_v2 \\rf_q\n"
      "    parameter \\RD_CLK_ENABLE 3'101\n"
      "    parameter \\RD_PORTS 3\n"
      "    parameter \\SIZE 16\n"
      "    parameter \\WIDTH 6\n"
      "    parameter \\WR_PORTS 1\n"
      "  end\n";
  const auto m = parse_memory_cells(text);
  REQUIRE(m.size() == 2);
  CHECK(m[0].name == "u_a.u_ram.mem_q");
  CHECK(m[0].src.find("tpu_ram_1r1w.sv") != std::string::npos);
  CHECK(m[0].size == 64);
  CHECK(m[0].width == 32);
  CHECK(m[0].sync_read);
  CHECK(m[1].rd_ports == 3);
  CHECK_FALSE(m[1].sync_read);
  CHECK(m[1].src.empty());
}

TEST_CASE("classify counts each target's primitives", "[synth]") {
  const Resources x = classify(Target::Xilinx, {{"LUT6", 10}, {"LUT2", 5}, {"FDRE", 7}, {"FDCE", 1}, {"RAMB18E2", 3},
                                                {"RAMB36E2", 2}, {"RAM64M8", 2}, {"DSP48E2", 4}, {"CARRY8", 1},
                                                {"IBUF", 9}, {"MUXF7", 2}});
  CHECK(x.luts == 15);
  CHECK(x.ffs == 8);
  CHECK(x.bram == 5);
  CHECK(x.bram36 == Approx(3.5));
  CHECK(x.lutram_cells == 2);
  CHECK(x.lutram_luts == 16);
  CHECK(x.dsp == 4);
  CHECK(x.io == 9);
  CHECK(x.other == 0);
  const Resources i = classify(Target::Ice40, {{"SB_LUT4", 4}, {"SB_DFFER", 3}, {"SB_RAM40_4K", 2}, {"SB_MAC16", 1}});
  CHECK(i.luts == 4);
  CHECK(i.ffs == 3);
  CHECK(i.bram == 2);
  CHECK(i.dsp == 1);
  const Resources g = classify(Target::Generic, {{"$_AND_", 4}, {"$_DFFE_PP_", 3}, {"$_SDFF_PP0_", 1}});
  CHECK(g.luts == 4);
  CHECK(g.ffs == 4);
}

TEST_CASE("parse_ltp takes the longest path length", "[synth]") {
  CHECK(parse_ltp("Longest topological path in tpu_top (length=23):\n    001 cell $abc$1\n") == 23);
  CHECK_FALSE(parse_ltp("nothing here\n").has_value());
}

TEST_CASE("nextpnr's report and a failure to fit", "[synth]") {
  const PnrResult ok = parse_nextpnr_report(
      R"({"fmax": {"clk$glb": {"achieved": 62.5, "constraint": 100}},
          "utilization": {"ICESTORM_LC": {"available": 5280, "used": 154}}})");
  CHECK(ok.routed);
  REQUIRE(ok.fmax_mhz.has_value());
  CHECK(*ok.fmax_mhz == Approx(62.5));
  CHECK(ok.utilization.at("ICESTORM_LC").first == 154);
  const PnrResult bad = parse_nextpnr_failure(
      "Info: Device utilisation:\n"
      "Info: \t         ICESTORM_LC: 16659/ 5280   315%\n"
      "Info: \t        ICESTORM_RAM:    12/   30    40%\n"
      "ERROR: Unable to place cell 'x_LC', no BELs remaining to implement cell type 'ICESTORM_LC'\n");
  CHECK_FALSE(bad.routed);
  CHECK(bad.resource == "ICESTORM_LC");
  CHECK(bad.utilization.at("ICESTORM_LC").first == 16659);
  CHECK(bad.error.find("no BELs remaining") != std::string::npos);
  const PnrResult io = parse_nextpnr_failure("ERROR: Unable to find a placement location for cell 'y[3]$sb_io'\n");
  CHECK(io.resource == "SB_IO");
}

TEST_CASE("parse_target accepts the three targets", "[synth]") {
  CHECK(parse_target("xilinx") == Target::Xilinx);
  CHECK(target_name(parse_target("ice40")) == "ice40");
  CHECK_THROWS_AS(parse_target("ecp5"), Error);
}

TEST_CASE("child_modules lists the modules a module instantiates", "[synth]") {
  const std::string text = R"({ "modules": {
      "\\top": { "num_cells_by_type": { "$and": 4, "$paramod$1f\\fifo": 3, "\\unit": 1 } },
      "\\unit": { "num_cells_by_type": { "$paramod$1f\\fifo": 2, "$dff": 7 } },
      "$paramod$1f\\fifo": { "num_cells_by_type": { "$dff": 2 } } } })";
  const StatReport s = parse_stat_json(text, "hierarchy.json");
  const auto top = child_modules(s, "top");
  REQUIRE(top.size() == 2);
  CHECK(top.at("$paramod$1f\\fifo") == 3);
  CHECK(top.at("unit") == 1);
  CHECK(child_modules(s, "unit").size() == 1);
  CHECK(child_modules(s, "$paramod$1f\\fifo").empty());
  CHECK(child_modules(s, "absent").empty());
}

TEST_CASE("parse_module_name takes Yosys' derived module names apart", "[synth]") {
  const ModuleName spelled = parse_module_name("$paramod\\tpu_array\\T=s32'00000000000000000000000000000100\\N=2'10");
  CHECK(spelled.base == "tpu_array");
  REQUIRE(spelled.parameters.size() == 2);
  CHECK(spelled.parameters[0] == std::pair<std::string, std::string>{"T", "4"});
  CHECK(spelled.parameters[1] == std::pair<std::string, std::string>{"N", "2"});
  CHECK(parse_module_name("$paramod\\m\\D=s8'11111110").parameters.at(0).second == "-2");
  CHECK(parse_module_name("$paramod\\m\\S=hello").parameters.at(0).second == "hello");
  const ModuleName hashed = parse_module_name("$paramod$2edb0bd13f9a0575468c3f1996d2ca780ea0fd07\\tpu_fifo");
  CHECK(hashed.base == "tpu_fifo");
  CHECK(hashed.parameters.empty());
  CHECK(parse_module_name("tpu_top").base == "tpu_top");
}

TEST_CASE("netlist_parameters reads a specialized module's parameters", "[synth]") {
  const std::string text = R"({ "modules": { "u": { "parameter_default_values": {
      "Width": "00000000000000000000000001001110", "Depth": "00000000000000000000000000000010",
      "Neg": "11111111111111111111111111111111", "Mode": "fast", "Bits": "0101 " } } } })";
  const auto p = netlist_parameters(text, "u");
  REQUIRE(p.size() == 5);
  const std::map<std::string, std::string> m(p.begin(), p.end());
  CHECK(m.at("Width") == "78");
  CHECK(m.at("Depth") == "2");
  CHECK(m.at("Neg") == "-1");
  CHECK(m.at("Mode") == "fast");
  CHECK(m.at("Bits") == "0101");
  CHECK(netlist_parameters(text, "other").empty());
  CHECK(netlist_parameters(R"({"modules": {"u": {}}})", "u").empty());
  CHECK_THROWS_AS(netlist_parameters("{ broken", "u"), Error);
}

TEST_CASE("parse_unit_pnr accepts auto always never", "[synth]") {
  CHECK(parse_unit_pnr("auto") == UnitPnr::Auto);
  CHECK(parse_unit_pnr("always") == UnitPnr::Always);
  CHECK(parse_unit_pnr("never") == UnitPnr::Never);
  const Error e = test::error_of([&] { (void)parse_unit_pnr("sometimes"); });
  CHECK(e.rule() == "synth.units");
}
