#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "docs/isa_docs.h"
#include "test_support.h"

using namespace tpugen;

TEST_CASE("docs/isa.md is the spec's rendering (regenerate with: tpugen docs)", "[docs]") {
  const std::string path = TPUGEN_SOURCE_DIR "/docs/isa.md";
  const std::string drift = docs_drift(test::shipped_spec(), path);
  INFO(drift);
  CHECK(drift.empty());
}

TEST_CASE("the drift check notices a changed cell and names its line", "[docs]") {
  const std::string text = render_isa_markdown(test::shipped_spec());
  CHECK_THAT(text, Catch::Contains("| `mm` |") || Catch::Contains("`mm`"));
  CHECK_THAT(text, Catch::Contains("nr + T + 1"));
  CHECK_THAT(text, Catch::Contains(test::shipped_spec().sha256));
  std::string edited = text;
  const auto at = edited.find("nr + T + 1");
  edited.replace(at, 10, "nr + T + 2");
  const std::string path = (std::filesystem::temp_directory_path() / "tpugen_docs_drift.md").string();
  std::ofstream(path, std::ios::binary) << edited;
  const std::string drift = docs_drift(test::shipped_spec(), path);
  CHECK_THAT(drift, Catch::Contains("nr + T + 2"));
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  CHECK_THAT(drift, Catch::Contains(":" + std::to_string(line) + ":"));
}

TEST_CASE("the rendering does not depend on the environment", "[docs]") {
  const std::string a = render_isa_markdown(test::shipped_spec());
  setenv("TPU_T", "8", 1);
  const std::string b = render_isa_markdown(test::shipped_spec());
  unsetenv("TPU_T");
  CHECK(a == b);
}
