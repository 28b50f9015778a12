// `tpugen agent gen` (hdl::generate_agent): tpu_agent_pkg from the specs (the
// flit's fields through the codec, the rules' codes and order, the served
// addresses), the configuration's files, and the agent's deliberate defects.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <string>

#include "hdl/injected_bugs.h"
#include "hdl/sysnode/agent_generate.h"
#include "noc/codec.h"
#include "test_support.h"

using namespace tpugen;

namespace {

hdl::SysnodeContext context(const SystemNodeSpec& spec, const std::map<std::string, std::string>& params = {},
                            const std::string& bug = {}) {
  return hdl::SysnodeContext(test::shipped_noc_spec(), spec, resolve_mover_params(spec),
                             resolve_agent_params(spec, params), bug);
}

/// The line of `text` that declares `name` (localparam ... NAME = ...).
std::string param_line(const std::string& text, const std::string& name) {
  const std::regex decl("\\blocalparam\\b[^\n=]* " + name + " +=");
  std::smatch m;
  if (!std::regex_search(text, m, decl)) return {};
  const auto at = static_cast<std::size_t>(m.position(0));
  const auto begin = text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

}  // namespace

TEST_CASE("agent gen: tpu_agent_pkg holds the specs' fields, codes, served addresses and parameters", "[agent][gen]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const std::string pkg = hdl::emit_tpu_agent_pkg(context(spec, {{"MEM_PORTS", "3"}, {"WR_SLOTS", "2"}}));
  CHECK(pkg.find("Do not edit") != std::string::npos);
  CHECK(pkg.find("package tpu_agent_pkg;") != std::string::npos);
  // Field positions come from the codec: the same bits the model reads.
  const noc::Codec codec(test::shipped_noc_spec());
  for (const auto& [name, path] :
       std::vector<std::pair<std::string, std::string>>{{"MEM_REQ_ADDR_LSB", "mem_req.addr"},
                                                        {"MEM_REQ_COUNT_LSB", "mem_req.count"},
                                                        {"MEM_REQ_N_PEER_LSB", "mem_req.n_peer"},
                                                        {"MEM_REQ_ENTRY_WORDS_LSB", "mem_req.entry_words"},
                                                        {"TXN_LSB", "txn"},
                                                        {"ERROR_RULE_LSB", "error.rule"},
                                                        {"ERROR_HEADER_LSB", "error.header"}}) {
    INFO(name);
    CHECK(param_line(pkg, name).find("= " + std::to_string(codec.field(path).lsb) + ";") != std::string::npos);
  }
  CHECK(param_line(pkg, "MEM_REQ_STREAM_BIT").find(std::to_string(codec.field("mem_req.flags.STREAM").lsb)) !=
        std::string::npos);
  for (const auto& r : spec.agent.error_rules) {
    INFO(r.name);
    CHECK(param_line(pkg, "ERR_" + r.name).find("8'd" + std::to_string(r.code)) != std::string::npos);
  }
  // aperture (bit 39) and mesh (bits 37:36) must be 0; the lowest is bit 36.
  CHECK(param_line(pkg, "SERVE_MASK").find("40'hb000000000") != std::string::npos);
  CHECK(param_line(pkg, "SERVE_VALUE").find("40'h0") != std::string::npos);
  CHECK(param_line(pkg, "SERVE_LSB_MIN").find("= 36;") != std::string::npos);
  // The spec's order: TYPE_NOT_SERVED first (index 0 at the low end).
  CHECK(param_line(pkg, "RULE_ORDER").find("{3'd5, 3'd4, 3'd3, 3'd2, 3'd1, 3'd0}") != std::string::npos);
  CHECK(param_line(pkg, "WRITE_MAX_LEN").find("= 7;") != std::string::npos);
  CHECK(param_line(pkg, "MEM_PORTS").find("= 3;") != std::string::npos);
  CHECK(param_line(pkg, "WR_SLOTS").find("= 2;") != std::string::npos);
  CHECK(param_line(pkg, "ENTRY_MAX").find("= 4;") != std::string::npos);
}

TEST_CASE("agent gen: the error rules' order is the spec's, and a rule the RTL has no meaning for is refused",
          "[agent][gen]") {
  const std::string path = TPUGEN_SOURCE_DIR "/spec/system_node.yaml";
  // MISALIGNED checked before ADDRESS_NOT_SERVED.
  const std::string misaligned =
      "    - {name: MISALIGNED,         code: 18, role: \"an address that is not word-aligned\"}\n";
  std::string text = test::edited_text(path, misaligned, "");
  const std::string anchor = "    - {name: ADDRESS_NOT_SERVED,";
  text.insert(text.find(anchor), misaligned);
  const SystemNodeSpec reordered = load_system_node_spec_text(text, "reordered.yaml", test::shipped_noc_spec());
  const std::string pkg = hdl::emit_tpu_agent_pkg(context(reordered));
  CHECK(param_line(pkg, "RULE_ORDER").find("{3'd5, 3'd4, 3'd3, 3'd1, 3'd2, 3'd0}") != std::string::npos);
  CHECK(pkg.find("TYPE_NOT_SERVED, MISALIGNED, ADDRESS_NOT_SERVED, WRITE_TOO_LONG, WRITE_OPEN, WRITE_SLOTS_FULL") !=
        std::string::npos);

  const SystemNodeSpec unknown = load_system_node_spec_text(
      test::edited_text(path, "{name: WRITE_OPEN,", "{name: WRITE_CLOSED,"), "unknown.yaml", test::shipped_noc_spec());
  CHECK(test::rule_of([&] { (void)hdl::emit_tpu_agent_pkg(context(unknown)); }) == "gen.agent");
}

TEST_CASE("agent gen: the configuration holds the package, the AXI adapters, the primitives and rtl/agent",
          "[agent][gen]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const std::filesystem::path out = std::filesystem::path(TPUGEN_BINARY_DIR) / "test_agent_gen";
  std::filesystem::remove_all(out);
  const auto files = hdl::generate_agent(context(spec, {{"RD_BURSTS", "16"}}), out.string());
  CHECK(files.size() > 10);
  const std::string list = test::read_text((out / "files.f").string());
  CHECK(list.rfind("tpu_agent_pkg.sv\n", 0) == 0);  // the package first
  for (const char* f : {"tpu_axi_rd.sv", "tpu_axi_wr.sv", "tpu_axi_burst.sv", "tpu_fifo.sv", "tpu_fifo_ram.sv"})
    CHECK(list.find(f) != std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(TPUGEN_SOURCE_DIR "/rtl/agent")) {
    INFO(e.path());
    CHECK(list.find(e.path().filename().string()) != std::string::npos);
  }
  const std::string params = test::read_text((out / "params.json").string());
  CHECK(params.find("\"top\": \"tpu_noc_mem_agent\"") != std::string::npos);
  CHECK(params.find("\"RD_BURSTS\": 16") != std::string::npos);
  // Byte-identical for identical inputs.
  const std::filesystem::path again = out.string() + "_again";
  std::filesystem::remove_all(again);
  (void)hdl::generate_agent(context(spec, {{"RD_BURSTS", "16"}}), again.string());
  for (const auto& e : std::filesystem::directory_iterator(out)) {
    INFO(e.path());
    CHECK(test::read_text(e.path().string()) == test::read_text((again / e.path().filename()).string()));
  }
}

TEST_CASE("agent gen: each of the agent's injected defects changes its file once and says so", "[agent][gen]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const hdl::SysnodeContext clean = context(spec);
  int seen = 0;
  for (const auto& bug : hdl::injected_bugs()) {
    if (std::string_view(bug.name).rfind("agent_", 0) != 0) continue;
    INFO(bug.name);
    CHECK(bug.target == hdl::BugTarget::SystemNode);
    ++seen;
    const hdl::SysnodeContext ctx = context(spec, {}, std::string(bug.name));
    const std::string text = hdl::agent_module_text(ctx, bug.module);
    CHECK(text != hdl::agent_module_text(clean, bug.module));
    CHECK(text.find("INJECTED DEFECT") != std::string::npos);
    CHECK(text.find(std::string(bug.name)) != std::string::npos);
  }
  CHECK(seen == 3);
  // A system-node defect of the mover's files is not the agent's.
  const std::filesystem::path out = std::filesystem::path(TPUGEN_BINARY_DIR) / "test_agent_gen_mover_bug";
  CHECK(test::rule_of([&] { (void)hdl::generate_agent(context(spec, {}, "mover_philox_rounds"), out.string()); }) ==
        "rtl.inject");
  CHECK(test::rule_of([&] { (void)hdl::agent_module_text(clean, "tpu_noc_mover"); }) == "gen.module");
}
