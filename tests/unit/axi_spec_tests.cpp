// spec/axi_top.yaml: the AXI top's register map and master, read strictly.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "docs/axi_docs.h"
#include "docs/markdown.h"
#include "spec/axi_spec.h"
#include "hdl/emitters.h"
#include "hdl/rtl_context.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::hdl;

namespace {

const std::string kSpecPath = TPUGEN_SOURCE_DIR "/spec/axi_top.yaml";

/// The shipped spec with one piece of text replaced (it must be there).
std::string edited(const std::string& from, const std::string& to) { return test::edited_text(kSpecPath, from, to); }

std::string rule_of(const std::string& text) {
  try {
    (void)load_axi_top_spec_text(text, "edited.yaml");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.where().file == "edited.yaml");
    return e.rule();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("the shipped AXI top spec follows the Vitis ap_ctrl_hs layout", "[axi_spec]") {
  const AxiTopSpec a = load_axi_top_spec(kSpecPath);
  const Register* ctrl = nullptr;
  // The bits a Vitis host (XRT) relies on.
  const struct {
    const char* field;
    std::uint32_t offset;
    int lsb;
    FieldAccess access;
  } vitis[] = {{"ap_start", 0x00, 0, FieldAccess::W1sHc}, {"ap_done", 0x00, 1, FieldAccess::Cor},
               {"ap_idle", 0x00, 2, FieldAccess::Ro},     {"ap_ready", 0x00, 3, FieldAccess::Cor},
               {"auto_restart", 0x00, 7, FieldAccess::Rw}, {"gie", 0x04, 0, FieldAccess::Rw},
               {"ier_done", 0x08, 0, FieldAccess::Rw},     {"isr_done", 0x0C, 0, FieldAccess::Tow}};
  for (const auto& v : vitis) {
    INFO(v.field);
    const RegField* f = a.field(v.field, &ctrl);
    REQUIRE(f);
    CHECK(ctrl->offset == v.offset);
    CHECK(f->lsb == v.lsb);
    CHECK(f->access == v.access);
  }
  // Every base of every stream is a lo/hi pair of full words.
  for (const auto& s : a.master.streams)
    for (const auto& b : s.bases) {
      CHECK(a.field(b + "_lo"));
      CHECK(a.field(b + "_hi"));
    }
  CHECK(a.master.stream("imem")->id != a.master.stream("dram_rd")->id);
}

TEST_CASE("a bad AXI top spec is refused with its rule and place", "[axi_spec]") {
  CHECK(rule_of(edited("{name: ap_idle,      lsb: 2,", "{name: ap_idle,      lsb: 1,")) == "axi.spec");  // overlap
  CHECK(rule_of(edited("offset: 0x04", "offset: 0x00")) == "axi.spec");                                 // reused
  CHECK(rule_of(edited("offset: 0x08", "offset: 0x09")) == "axi.spec");                                 // unaligned
  CHECK(rule_of(edited("access: tow, role: \"an enabled ap_done", "access: toggle, role: \"an enabled ap_done")) ==
        "axi.spec");
  CHECK(rule_of(edited("{port: dram_rd, id: 1,", "{port: dram_rd, id: 2,")) == "axi.spec");  // past id_bits
  CHECK(rule_of(edited("imem_base_hi, lsb: 0, width: 32", "imem_base_hx, lsb: 0, width: 32")) == "axi.spec");
  CHECK(rule_of(edited("max_burst_beats: 16", "max_burst_beats: 300")) == "axi.spec");
  CHECK(rule_of(edited("boundary_bytes: 4096", "boundary_bytes: 4000")) == "axi.spec");
  CHECK(rule_of(edited("  addr_bits: 7", "  addr_bits: 7\n  colour: blue")) == "spec.unknown_key");
  CHECK(rule_of(edited("registers:", "registers: [")) == "axi.yaml");
}

TEST_CASE("the AXI top refuses a configuration whose beats AXI cannot size", "[axi_spec]") {
  RtlOptions o;
  o.top = TopKind::Axi;
  // T = 12: a packed operand word is 12 bytes, not a power of two.
  const Isa isa = test::isa_at({{"T", 12}, {"MAXDIM", 48}});
  const Error e = test::error_of([&] { RtlContext ctx(isa, o); });
  CHECK(e.rule() == "rtl.axi");
  CHECK_THAT(e.message(), Catch::Contains("DMA_WORDS * T") && Catch::Contains("power of two"));
  // The core top has no such limit.
  CHECK_NOTHROW(RtlContext(isa, RtlOptions{}));
}

TEST_CASE("STATUS.fault must be as wide as the ISA spec's fault codes", "[axi_spec]") {
  const std::filesystem::path path = std::filesystem::path(TPUGEN_BINARY_DIR) / "axi_spec_tests" / "fault3.yaml";
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << edited("{name: fault,          lsb: 8,  width: 4,", "{name: fault,          lsb: 8,  width: 3,");
  RtlOptions o;
  o.top = TopKind::Axi;
  o.axi_spec_path = path.string();
  const RtlContext ctx(test::isa_at({{"T", 4}, {"MAXDIM", 16}}), o);
  const Error e = test::error_of([&] { (void)emit_tpu_axi_top(ctx); });
  CHECK(e.rule() == "axi.spec");
  CHECK_THAT(e.message(), Catch::Contains("field fault is 3 bits, but the core's fault_o is 4"));
  CHECK(e.where().file == path.string());
}

TEST_CASE("docs/axi_top.md is the AXI spec's rendering (regenerate with: tpugen docs)", "[axi_spec][docs]") {
  const AxiTopSpec a = load_axi_top_spec(kSpecPath);
  const std::string drift = text_drift(render_axi_markdown(a), TPUGEN_SOURCE_DIR "/docs/axi_top.md");
  INFO(drift);
  CHECK(drift.empty());
  CHECK_THAT(render_axi_markdown(a), Catch::Contains(a.sha256) && Catch::Contains("`ap_start`"));
}
