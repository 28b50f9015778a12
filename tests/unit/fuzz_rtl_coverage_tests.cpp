// Reading Verilator's coverage.dat: points by kind and module, covered when
// their count is nonzero; a file in another format is a clear error.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>

#include "sim/rtl_coverage.h"
#include "test_support.h"

using namespace tpugen;

namespace {
std::string point(const std::string& kind, const std::string& module, int line, int count) {
  return fmt::format("C '\x01" "f\x02{0}.sv\x01" "l\x02{1}\x01" "page\x02v_{2}/{0}\x01" "o\x02x\x01" "h\x02TOP.{0}' {3}\n",
                     module, line, kind, count);
}
}  // namespace

TEST_CASE("fuzz rtl coverage: points are counted by kind and module", "[fuzzgen][rtl_coverage]") {
  const auto path = std::filesystem::temp_directory_path() / "tpugen_cov_test.dat";
  test::write_text(path, "# SystemC::Coverage-3\n" + point("line", "tpu_pe", 10, 3) + point("line", "tpu_pe", 11, 0) +
                             point("toggle", "tpu_pe", 12, 1) + point("toggle", "tpu_top", 5, 0) +
                             point("branch", "tpu_top", 7, 9));
  const sim::RtlCoverage c = sim::read_coverage_dat(path);
  CHECK(c.by_kind.at("line").covered == 1);
  CHECK(c.by_kind.at("line").total == 2);
  CHECK(c.by_kind.at("toggle").covered == 1);
  CHECK(c.by_kind.at("toggle").total == 2);
  CHECK(c.by_kind.at("branch").percent() == Approx(100.0));
  CHECK(c.by_module.at("tpu_top").at("toggle").covered == 0);
  CHECK(c.by_module.at("tpu_pe").count("branch") == 0);
  CHECK_THAT(c.table(), Catch::Contains("tpu_pe") && Catch::Contains("1/2 50.0%"));
}

TEST_CASE("fuzz rtl coverage: a file that is not coverage data is refused with its line", "[fuzzgen][rtl_coverage]") {
  const auto path = std::filesystem::temp_directory_path() / "tpugen_cov_bad.dat";
  test::write_text(path, "# SystemC::Coverage-3\nthis is not a point\n");
  const Error e = test::error_of([&] { (void)sim::read_coverage_dat(path); });
  CHECK(e.rule() == "fuzz.rtl_coverage");
  CHECK_THAT(e.message(), Catch::Contains(":2:"));
}
