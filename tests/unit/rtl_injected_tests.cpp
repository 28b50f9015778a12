// The deliberate defects (rtl/injected_bugs.h) the fuzzer's own tests build
// into the RTL: each changes only the module it names, says so in that
// file's header, and an unknown name is refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "hdl/emitters.h"
#include "hdl/generate.h"
#include "hdl/tops.h"
#include "hdl/injected_bugs.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::hdl;

namespace {

std::map<std::string, std::string> emit_all(const RtlContext& ctx) {
  std::map<std::string, std::string> out;
  // The generated modules; the hand-written ones: the next test.
  const Top& top = top_of(ctx.options().top);
  for (const auto p : top.packages) out[std::string(p)] = emitter(p).emit(ctx);
  for (const auto module : top.modules)
    if (const Emitter& e = emitter(module); e.emit) out[std::string(module)] = e.emit(ctx);
  return out;
}

}  // namespace

TEST_CASE("an injected defect changes its module and no other", "[rtl][inject]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const auto clean = emit_all(RtlContext(isa, RtlOptions{}));
  for (const auto& bug : injected_bugs()) {
    // A hand-written file's: the next test; the NoC's: noc_gen_tests; the system node's: mover_gen_tests.
    if (!bug.correct.empty() || bug.target != hdl::BugTarget::Core) continue;
    INFO(bug.name);
    RtlOptions o;
    o.inject_bug = std::string(bug.name);
    const auto defective = emit_all(RtlContext(isa, o));
    for (const auto& [module, text] : defective) {
      INFO(module);
      const bool carries = module == bug.module;
      // Every header names the options, so compare what follows the header
      // (the file's leading comment lines).
      const auto body = [](const std::string& t) {
        std::size_t at = 0;
        while (t.compare(at, 2, "//") == 0) at = t.find('\n', at) + 1;
        return t.substr(at);
      };
      CHECK((body(text) != body(clean.at(module))) == carries);
      CHECK((text.find("WARNING: built with the deliberate defect '" + std::string(bug.name) + "'") !=
             std::string::npos));
      CHECK((text.find("INJECTED DEFECT") != std::string::npos) == carries);
    }
  }
}

TEST_CASE("an injected defect of a primitive changes that file of the AXI configuration and no other",
          "[rtl][inject]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const auto dir = std::filesystem::temp_directory_path() / "tpugen_injected_primitives";
  std::filesystem::remove_all(dir);
  RtlOptions clean_options;
  clean_options.top = TopKind::Axi;
  const auto files = [&](const RtlOptions& o, const std::string& sub) {
    std::map<std::string, std::string> out;
    for (const auto& f : generate(RtlContext(isa, o), (dir / sub).string()))
      out[std::filesystem::path(f).filename().string()] = test::read_text(f);
    return out;
  };
  const auto clean = files(clean_options, "clean");
  // The hand-written files: the primitives and the core's modules with a source.
  std::set<std::string> hand_written;
  for (const auto& p : primitive_files(TopKind::Axi)) hand_written.insert(std::filesystem::path(p).filename().string());
  for (const auto& e : emitters())
    if (!e.emit) hand_written.insert(std::string(e.module) + ".sv");
  CHECK(hand_written.count("tpu_fifo.sv") == 1);
  CHECK(hand_written.count("tpu_pe.sv") == 1);
  int primitives = 0;
  for (const auto& bug : injected_bugs()) {
    if (bug.correct.empty() || bug.target != hdl::BugTarget::Core) continue;
    ++primitives;
    INFO(bug.name);
    CHECK(hand_written.count(std::string(bug.module) + ".sv") == 1);  // a text defect is a hand-written file's
    RtlOptions o = clean_options;
    o.inject_bug = std::string(bug.name);
    const auto defective = files(o, std::string(bug.name));
    REQUIRE(defective.size() == clean.size());
    for (const auto& [file, text] : defective) {
      INFO(file);
      if (file == std::string(bug.module) + ".sv") {
        CHECK(text.rfind("// WARNING: built with the deliberate defect '" + std::string(bug.name) + "'", 0) == 0);
        CHECK(text.find("INJECTED DEFECT") != std::string::npos);
        CHECK(text.find(bug.correct) == std::string::npos);
        CHECK(clean.at(file).find(bug.correct) != std::string::npos);
      } else if (file.rfind("tpu_", 0) == 0 && hand_written.count(file) == 0) {
        // A generated module: its header names the defect, its body is the clean one.
        CHECK(text.find("INJECTED DEFECT") == std::string::npos);
      } else if (file != "params.json") {
        CHECK(text == clean.at(file));
      }
    }
  }
  CHECK(primitives > 0);  // the loop saw the hand-written files' defects
  std::filesystem::remove_all(dir);
}

TEST_CASE("an unknown injected defect is refused by name", "[rtl][inject]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  RtlOptions o;
  o.inject_bug = "off_by_everything";
  const Error e = test::error_of([&] { RtlContext ctx(isa, o); });
  CHECK(e.rule() == "rtl.inject");
  CHECK_THAT(e.message(), Catch::Contains("off_by_everything") && Catch::Contains("pe_product_width"));
}

