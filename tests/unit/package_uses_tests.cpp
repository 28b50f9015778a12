// Every pkg::NAME a module reads is declared by the package the generator
// writes (gen/hdl/package_uses.h), and generate() refuses a module that reads
// one the spec does not give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "hdl/generate.h"
#include "hdl/package_uses.h"
#include "hdl/tops.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::hdl;

TEST_CASE("package_names reads a package's localparams and typedefs", "[gen][package]") {
  const auto names = package_names(
      "package p_pkg;\n"
      "  localparam int WORD_W = 64;\n"
      "  localparam logic [3:0] FAULT_NONE = 4'd0;  // no fault\n"
      "  parameter int unsigned DEPTH = 2;\n"
      "  typedef struct packed {\n    logic [WORD_W-1:0] w;\n  } word_t;\n"
      "endpackage\n");
  CHECK(names == std::set<std::string>{"WORD_W", "FAULT_NONE", "DEPTH", "word_t"});
}

TEST_CASE("check_package_uses names the file, line and the undeclared name", "[gen][package]") {
  const std::set<std::string> declared = {"FAULT_NONE", "FAULT_W"};
  const std::string ok =
      "// reads p_pkg::HDR_<NAME>_W (a comment names a pattern)\n"
      "logic [p_pkg::FAULT_W-1:0] f;  /* p_pkg::NOT_A_USE */\nassign f = p_pkg::FAULT_NONE;\n";
  CHECK_NOTHROW(check_package_uses("p_pkg", declared, "rtl/core/x.sv", ok));
  // Another package's names are not this one's business.
  CHECK_NOTHROW(check_package_uses("p_pkg", declared, "rtl/core/x.sv", "assign g = q_pkg::ANY;\n"));
  const std::string bad = ok + "assign h = p_pkg::FAULT_HANG;\n";
  const Error e = test::error_of([&] { check_package_uses("p_pkg", declared, "rtl/core/x.sv", bad); });
  CHECK(e.rule() == "gen.package");
  CHECK(e.where().file == "rtl/core/x.sv");
  CHECK(e.where().line == 4);
  CHECK_THAT(e.message(), Catch::Contains("reads p_pkg::FAULT_HANG") && Catch::Contains("does not declare FAULT_HANG"));
}

TEST_CASE("check_known_packages refuses a package the top does not have", "[gen][package]") {
  const std::vector<std::string_view> core = {"tpu_pkg"};
  CHECK_NOTHROW(check_known_packages(core, "x.sv", "// tpu_axi_pkg:: in a comment\nassign a = tpu_pkg::W;\n"));
  const Error e = test::error_of([&] { check_known_packages(core, "x.sv", "\nassign a = tpu_axi_pkg::ID_W;\n"); });
  CHECK(e.rule() == "gen.package");
  CHECK(e.where().line == 2);
  CHECK_THAT(e.message(), Catch::Contains("tpu_axi_pkg::") && Catch::Contains("no such package"));
}

TEST_CASE("every module of every shipped top reads only names its package declares", "[gen][package]") {
  // generate() checks it; here the shipped RTL meets it at the default
  // configuration (a defect would fail `tpugen gen` for every user).
  const Isa isa = test::isa_at();
  for (const Top& t : tops()) {
    INFO(t.name);
    RtlOptions o;
    o.top = t.kind;
    const RtlContext ctx(isa, o);
    CHECK(package_names(module_text(ctx, "tpu_pkg")).count("FAULT_W"));
    for (const auto p : t.packages) {
      const auto declared = package_names(module_text(ctx, p));
      for (const auto m : t.modules) CHECK_NOTHROW(check_package_uses(p, declared, m, module_text(ctx, m)));
    }
    for (const auto m : t.modules) CHECK_NOTHROW(check_known_packages(t.packages, m, module_text(ctx, m)));
  }
}

TEST_CASE("generate refuses a spec without a fault code the hand-written sequencer raises", "[gen][package]") {
  std::string text = test::read_text(default_spec_path());
  const std::string line = "    - {name: LOOP_OPEN,";
  const auto at = text.find(line);
  REQUIRE(at != std::string::npos);
  text.erase(at, text.find('\n', at) + 1 - at);
  const Spec spec = load_spec_text(text, "no_loop_open.yaml");
  const Isa isa(spec, legal_params(spec, {{"T", 4}, {"MAXDIM", 16}}, nullptr));
  const RtlContext ctx(isa, RtlOptions{});
  const auto dir = std::filesystem::temp_directory_path() / "tpugen_package_uses_no_loop_open";
  std::filesystem::remove_all(dir);
  const Error e = test::error_of([&] { (void)generate(ctx, dir.string()); });
  CHECK(e.rule() == "gen.package");
  CHECK(e.where().file == "rtl/core/tpu_seq_run.sv");
  CHECK_THAT(e.message(), Catch::Contains("tpu_pkg::FAULT_LOOP_OPEN"));
  CHECK_FALSE(std::filesystem::exists(dir / "tpu_pkg.sv"));  // nothing written
}
