// spec/compute_units.yaml: the CU wrapper's rules, the orchestrator's map and
// the TinyTPU unit's CU_INST layout as data, read strictly against noc.yaml
// and system_node.yaml; the values checked against seed 003 §6 and the
// kohakutpu notes' contract, not against the file.
#include <catch2/catch.hpp>
#include <string>

#include "spec/compute_units_spec.h"
#include "spec/params.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const std::string kPath = TPUGEN_SOURCE_DIR "/spec/compute_units.yaml";

const ComputeUnitsSpec& shipped() { return test::shipped_compute_units_spec(); }

std::string rule_of(const std::string& text, std::string* message = nullptr) {
  try {
    (void)load_compute_units_spec_text(text, "edited.yaml", test::shipped_noc_spec(), test::shipped_system_node_spec());
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.where().file == "edited.yaml");
    CHECK(e.where().line > 0);
    if (message) *message = e.what();
    return e.rule();
  }
  return "accepted";
}

std::string edited(const std::string& from, const std::string& to) { return test::edited_text(kPath, from, to); }

}  // namespace

TEST_CASE("compute units spec: retirement follows seed 003 §6 and the credits contract", "[cu][spec]") {
  const CuBaseSpec& b = shipped().cu_base;
  REQUIRE(b.retirement.size() == 3);
  CHECK(b.retirement[0].when == "fault");
  CHECK(b.retirement[0].signal == "SIG_FAULT");  // a faulting final instruction sends SIG_FAULT
  CHECK(b.retirement[1].signal == "SIG_BATCH_COMPLETE");
  CHECK(b.retirement[1].arg == "txn");
  CHECK(b.retirement[2].signal == "SIG_INST_COMPLETE");
  CHECK(b.steer("CU_INST") == "inst_fifo");
  CHECK(b.steer("MEM_RD_RESP") == "recv_fifo");
  CHECK(b.steer("CU_CTRL") == "wrapper");
  CHECK(b.wrapper_codes.contains(b.require_fault("INST_OVERFLOW").code));
  const NocParams p = resolve_cu_base_params(shipped());
  CHECK(p["INST_DEPTH"] >= 1);
  // CAPS.inst_depth is 16 bits in noc.yaml: the parameter may not exceed it.
  CHECK(b.parameters.front().max == 65535);
}

TEST_CASE("compute units spec: the orchestrator's map has no overlap and holds the mover's registers",
          "[cu][spec]") {
  const OrchestratorSpec& o = shipped().orchestrator;
  CHECK(o.data_bits == 64);
  CHECK(o.require_register("PROG_KICK").require_field("channel").access == CuAccess::Strobe);
  CHECK(o.require_register("IRQ_STATUS").require_field("fault").access == CuAccess::W1c);
  // The mover's status register (0x78) sits in the window (notes' contract).
  CHECK(o.window_bytes >= 0x80);
  const NocParams p = resolve_orchestrator_params(shipped());
  CHECK(o.address_span(p["PROG_FLITS"], p["CHANNELS"]) == o.staging_offset + 64u * o.slot_bytes);
  CHECK(o.require_state("FAULT").code != o.require_state("DONE").code);
}

TEST_CASE("compute units spec: the TinyTPU unit's layout keeps 40-bit addresses whole", "[cu][spec]") {
  const UnitSpec& u = shipped().require_unit("tinytpu");
  const UnitOpcode& run = u.require_opcode("RUN");
  for (const char* a : {"a_addr", "b_addr", "c_addr"}) CHECK(run.require_field(a).width() == 40);
  CHECK(u.require_opcode("LOAD").require_field("addr").width() == 40);
  CHECK(u.opcode_of(0) == nullptr);  // a zero payload faults
  CHECK(run.require_field("a_peer").repeat == 3);
  const UnitConstants c = evaluate_unit(u, resolve_params(test::shipped_spec()).scope());
  CHECK(c["ROW_WORDS"] == 2);  // MAXDIM 64: two 32-byte words a row
  CHECK(c.tag("A").first == 0);
  CHECK(c.tag("B").first == 64);
  CHECK(c.tag("own").first + c.tag("own").count == 256);
  CHECK(c.granules.at("A") == 128);
}

TEST_CASE("compute units spec: a MAXDIM past the tags' room is refused with the rule", "[cu][spec]") {
  const UnitSpec& u = shipped().require_unit("tinytpu");
  const Scope big = [](std::string_view n) -> std::optional<std::int64_t> {
    if (n == "MAXDIM") return 128;
    if (n == "IMEM_SIZE") return 512;
    return std::nullopt;
  };
  try {
    (void)evaluate_unit(u, big);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.rule() == "cu.constraint");
    CHECK(std::string(e.what()).find("MAXDIM <= 120") != std::string::npos);
  }
}

TEST_CASE("compute units spec: broken files are refused with the line and the rule", "[cu][spec]") {
  CHECK(rule_of(test::read_text(kPath)) == "accepted");
  CHECK(rule_of(edited("bits: [211, 172], role: \"B's first byte\"", "bits: [212, 172], role: \"B's first byte\"")) ==
        "cu.spec");
  CHECK(rule_of(edited("{name: ROW_TWICE,      code: 0x06", "{name: ROW_TWICE,      code: 0xF1")) == "cu.spec");
  CHECK(rule_of(edited("signal: SIG_BATCH_COMPLETE", "signal: SIG_BATCH_DONE")) == "cu.spec");
  CHECK(rule_of(edited("signal: SIG_BATCH_COMPLETE", "signal: SIG_BARRIER_REACHED")) == "cu.spec");  // never generated
  CHECK(rule_of(edited("    - name: STRAY\n", "    - name: STRAY\n      colour: red\n")) == "spec.unknown_key");
  CHECK(rule_of(edited("    bytes: 0x80", "    bytes: 0x40")) == "cu.spec");
  CHECK(rule_of(edited("access: w1c, role: \"a program ended FAULT\"", "access: rc, role: \"x\"")) == "cu.spec");
  CHECK(rule_of(edited("        code: 1\n        role: \"fetch", "        code: 0\n        role: \"fetch")) == "cu.spec");
}

TEST_CASE("compute units spec: a fault's detail is a layout within fault_result.detail", "[cu][spec]") {
  const UnitSpec& u = shipped().require_unit("tinytpu");
  const NocField& detail = *shipped().cu_base.fault_result.field("detail");
  // MEMORY: the ERROR's rule (as wide as the error payload's rule) and txn's low bits.
  const NocCode& memory = u.require_fault("MEMORY");
  CHECK(memory.require_detail("rule").width() ==
        test::shipped_noc_spec().require_payload("error").field("rule")->width());
  CHECK(memory.require_detail("txn").lsb == memory.require_detail("rule").msb + 1);
  // CORE: the core's fault_o, fault_unit_o and fault_pc_o, each whole.
  const NocCode& core = u.require_fault("CORE");
  CHECK(core.require_detail("code").width() == 4);
  CHECK(core.require_detail("unit").width() == 4);
  CHECK(core.require_detail("pc").width() == 16);
  CHECK(core.require_detail("pc").msb < detail.width());
  CHECK(core.detail_field("opcode") == nullptr);
  CHECK_THROWS_AS(core.require_detail("opcode"), Error);
  CHECK(u.require_fault("GEOMETRY").detail.empty());
  // A sub-field's value goes in and comes out at its bits, and no others change.
  const NocSubfield& txn = memory.require_detail("txn");
  CHECK(txn.with(0xFFFFFF, 0x12) == 0xFF12FF);
  CHECK(txn.get(0xAB12CD) == 0x12);
  CHECK(txn.with(0, 0x1FF) == 0xFF00);  // the value's bits past the width are dropped

  std::string why;
  // Two sub-fields on one bit, a sub-field past the detail's 24 bits, a
  // second sub-field of one name, an unknown key: each refused at its line.
  CHECK(rule_of(edited("{name: txn, bits: [15, 8]}", "{name: txn, bits: [15, 7]}"), &why) == "cu.spec");
  CHECK(rule_of(edited("{name: pc, bits: [23, 8]}", "{name: pc, bits: [24, 8]}"), &why) == "cu.spec");
  CHECK(rule_of(edited("{name: txn, bits: [15, 8]}", "{name: rule, bits: [15, 8]}"), &why) == "cu.spec");
  CHECK(why.find("second sub-field named rule") != std::string::npos);
  CHECK(rule_of(edited("{name: txn, bits: [15, 8]}", "{name: txn, bits: [15, 8], colour: red}")) == "spec.unknown_key");
}
