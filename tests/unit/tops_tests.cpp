// The top table (gen/hdl/tops.h): every kind of top is a list of modules
// with emitters, and generate() writes exactly that list.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "hdl/core/core_ports.h"
#include "hdl/generate.h"
#include "hdl/tops.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::hdl;
namespace fs = std::filesystem;

TEST_CASE("tops: each kind is named, listed, and made of modules the emitter table has", "[tops]") {
  std::set<std::string_view> names, kinds_seen;
  for (const Top& t : tops()) {
    INFO(t.name);
    CHECK(names.insert(t.name).second);
    CHECK(&top_of(t.kind) == &t);
    CHECK(top_named(t.name) == &t);
    CHECK(top_kind_name(t.kind) == t.name);
    CHECK(top_module(t.kind) == t.module);
    REQUIRE_FALSE(t.packages.empty());
    CHECK(t.packages.front() == "tpu_pkg");  // the core's, in every top
    for (const auto p : t.packages) CHECK_NOTHROW(emitter(p));
    REQUIRE_FALSE(t.modules.empty());
    CHECK(t.modules.back() == t.module);  // the top last
    for (const auto m : t.modules) CHECK_NOTHROW(emitter(m));
    for (const auto d : t.rtl_dirs) CHECK(fs::is_directory(fs::path(TPUGEN_SOURCE_DIR) / "rtl" / d));
  }
  CHECK(top_named("mesh") == nullptr);
  CHECK(top_choices() == "core|axi");
  CHECK_THROWS_WITH(emitter("tpu_nothing"), Catch::Contains("no module 'tpu_nothing'"));
}

TEST_CASE("tops: generate writes the package, the top's primitives and its modules, in that order", "[tops]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  for (const Top& t : tops()) {
    INFO(t.name);
    RtlOptions o;
    o.top = t.kind;
    const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "tops_tests" / std::string(t.name);
    fs::remove_all(dir);
    generate(RtlContext(isa, o), dir.string());
    std::vector<std::string> want;
    for (const auto p : t.packages) want.push_back(std::string(p) + ".sv");
    for (const auto& p : primitive_files(t.kind)) want.push_back(fs::path(p).filename().string());
    for (const auto m : t.modules) want.push_back(std::string(m) + ".sv");
    std::ifstream f(dir / "files.f");
    std::vector<std::string> got;
    for (std::string line; std::getline(f, line);) got.push_back(line);
    CHECK(got == want);
  }
}

TEST_CASE("tops: a core stream's handshake is read from the spec's interfaces", "[tops][interfaces]") {
  const Spec& spec = test::shipped_spec();
  CHECK(handshake(spec, "dram_wr_rsp") == "dram_wr_rsp_valid_i & dram_wr_rsp_ready_o");
  CHECK(handshake(spec, "dram_wr_req") == "dram_wr_req_valid_o & dram_wr_req_ready_i");
  CHECK(test::rule_of([&] { (void)handshake(spec, "noc_rsp"); }) == "rtl.spec");
}
