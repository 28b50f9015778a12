#include "hdl/cu/cu_system_generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "hdl/cu/cu_generate.h"
#include "hdl/generate.h"
#include "hdl/noc/noc_generate.h"
#include "hdl/sysnode/system_node_generate.h"
#include "util/diag.h"

namespace tpugen::hdl {

namespace {

/// One port of the top that passes straight to a part's port of the same
/// name: direction, width (an SV expression, empty for one bit), name.
struct PassPort {
  bool out;
  std::string width, name;
};

/// The host's AXI4-Lite port: the orchestrator's.
std::vector<PassPort> host_ports() {
  const std::string a = "tpu_cu_pkg::ORCH_ADDR_W-1:0", d = "tpu_cu_pkg::ORCH_DATA_W-1:0";
  return {{false, "", "s_aw_valid_i"}, {true, "", "s_aw_ready_o"},  {false, a, "s_aw_addr_i"},
          {false, "", "s_w_valid_i"},  {true, "", "s_w_ready_o"},   {false, d, "s_w_data_i"},
          {false, "tpu_cu_pkg::ORCH_DATA_W/8-1:0", "s_w_strb_i"},   {true, "", "s_b_valid_o"},
          {false, "", "s_b_ready_i"},  {true, "1:0", "s_b_resp_o"}, {false, "", "s_ar_valid_i"},
          {true, "", "s_ar_ready_o"},  {false, a, "s_ar_addr_i"},   {true, "", "s_r_valid_o"},
          {false, "", "s_r_ready_i"},  {true, d, "s_r_data_o"},     {true, "1:0", "s_r_resp_o"}};
}

/// The AXI4 master to memory: the system node's (its m_ ports), named as
/// the system node's units name theirs (ar_valid_o, ..., r_data_i).
std::vector<PassPort> memory_ports() {
  const std::string a = "tpu_mover_pkg::ADDR_W-1:0", d = "tpu_mover_pkg::WORD_W-1:0";
  std::vector<PassPort> p;
  for (const char* ch : {"aw", "ar"}) {
    const std::string c(ch);
    p.insert(p.end(), {{true, "", c + "_valid_o"},
                       {false, "", c + "_ready_i"},
                       {true, a, c + "_addr_o"},
                       {true, "7:0", c + "_len_o"},
                       {true, "2:0", c + "_size_o"},
                       {true, "1:0", c + "_burst_o"},
                       {true, "1:0", c + "_id_o"}});
    if (c == "aw")
      p.insert(p.end(), {{true, "", "w_valid_o"},
                         {false, "", "w_ready_i"},
                         {true, d, "w_data_o"},
                         {true, "tpu_mover_pkg::WORD_BYTES-1:0", "w_strb_o"},
                         {true, "", "w_last_o"},
                         {false, "", "b_valid_i"},
                         {true, "", "b_ready_o"},
                         {false, "1:0", "b_resp_i"},
                         {false, "1:0", "b_id_i"}});
  }
  p.insert(p.end(), {{false, "", "r_valid_i"},
                     {true, "", "r_ready_o"},
                     {false, d, "r_data_i"},
                     {false, "1:0", "r_resp_i"},
                     {false, "", "r_last_i"},
                     {false, "1:0", "r_id_i"}});
  return p;
}

std::string declare(const PassPort& p, std::size_t width_col) {
  const std::string w = p.width.empty() ? "" : "[" + p.width + "]";
  return fmt::format("  {} logic {:<{}} {}", p.out ? "output" : "input ", w, width_col, p.name);
}

/// Each port to the part's port of the same name after `prefix`.
std::string connect(const std::vector<PassPort>& ports, std::string_view prefix = "") {
  std::string o;
  for (const auto& p : ports) o += fmt::format("    .{:<17}({}),\n", fmt::format("{}{}", prefix, p.name), p.name);
  return o;
}

int node_of(const noc::SystemLayout& l, noc::Coord c) { return c.y * l.nx + c.x; }

void check_layout(const CuSystemContext& ctx) {
  const noc::SystemLayout& l = ctx.layout;
  if (l.nx != ctx.noc.params().nx() || l.ny != ctx.noc.params().ny())
    throw Error("gen.cu", fmt::format("the layout's mesh is {} x {}, the fabric's {} x {}", l.nx, l.ny,
                                      ctx.noc.params().nx(), ctx.noc.params().ny()));
  if (static_cast<std::int64_t>(l.agents.size()) != ctx.sysnode.agent_params()["MEM_PORTS"])
    throw Error("gen.cu", fmt::format("the layout places {} agent port(s), the agent has MEM_PORTS = {}",
                                      l.agents.size(), ctx.sysnode.agent_params()["MEM_PORTS"]));
  if (l.cores.empty() || l.core_agent.size() != l.cores.size())
    throw Error("gen.cu", "the layout places no compute unit, or not every unit has an agent port");
}

}  // namespace

std::string emit_tpu_noc_cu_system(const CuSystemContext& ctx) {
  check_layout(ctx);
  const noc::SystemLayout& l = ctx.layout;
  const std::size_t k = l.cores.size();
  std::string t = ctx.cu.file_header(kCuSystemTop, "the compute units, the system node and the orchestrator on the mesh");
  t += fmt::format(R"(
// tpu_noc_cu_system: a {nx} x {ny} mesh (tpu_noc_mesh) with {k} TinyTPU compute
// unit(s) (tpu_noc_tinytpu_cu), the system node (tpu_noc_system_node: the
// memory agent's {p} port(s) and the memory mover) and the orchestrator
// (tpu_noc_orchestrator) on nodes of their own, placed by tpugen's layout
// (noc::make_layout; docs/compute_units.md):
)",
                   fmt::arg("nx", l.nx), fmt::arg("ny", l.ny), fmt::arg("k", k), fmt::arg("p", l.agents.size()));
  for (std::size_t i = 0; i < k; ++i)
    t += fmt::format("//   unit {} at ({},{}), node {}, its memory requests to agent port {} at ({},{})\n", i,
                     l.cores[i].x, l.cores[i].y, node_of(l, l.cores[i]), l.core_agent[i],
                     l.agents[static_cast<std::size_t>(l.core_agent[i])].x,
                     l.agents[static_cast<std::size_t>(l.core_agent[i])].y);
  for (std::size_t p = 0; p < l.agents.size(); ++p)
    t += fmt::format("//   agent port {} at ({},{}), node {}\n", p, l.agents[p].x, l.agents[p].y,
                     node_of(l, l.agents[p]));
  t += fmt::format("//   the orchestrator at ({},{}), node {}\n", l.orchestrator.x, l.orchestrator.y,
                   node_of(l, l.orchestrator));
  t += R"(// Every other node's local port is idle: it sends nothing and takes (and
// drops) whatever reaches it. The host reaches the mesh through the
// orchestrator's AXI4-Lite port (its registers, staging slots and the
// mover's register window); the agent's and the mover's memory traffic
// leave on the system node's one AXI4 master (IDs {master, id}). The mover's
// private control-processor port is tied off.
module tpu_noc_cu_system (
)";
  const auto host = host_ports();
  const auto mem = memory_ports();
  std::size_t wc = 0;
  for (const auto* list : {&host, &mem})
    for (const auto& p : *list) wc = std::max(wc, p.width.size() + 2);
  const std::string units = fmt::format("{}:0", k - 1);
  const std::string mesh_ports = "tpu_noc_pkg::NODES*tpu_noc_pkg::PORTS-1:0";
  wc = std::max(wc, mesh_ports.size() + 2);
  t += declare({false, "", "clk_i"}, wc) + ",\n" + declare({false, "", "rst_ni"}, wc) + ",\n";
  t += "  // the host: AXI4-Lite slave (the orchestrator's) and its interrupt\n";
  for (const auto& p : host) t += declare(p, wc) + ",\n";
  t += declare({true, "", "irq_o"}, wc) + ",\n";
  t += "  // memory: the system node's AXI4 master\n";
  for (const auto& p : mem) t += declare(p, wc) + ",\n";
  t += "  // observability: unit i executes (the order above); the agent is idle;\n"
       "  // the mover is busy; a flit enters the mesh at node n; the orchestrator\n"
       "  // takes a flit from the mesh (and which); the mesh's router n port p\n"
       "  // waits / holds (tpu_noc_mesh's)\n";
  t += declare({true, units, "unit_busy_o"}, wc) + ",\n";
  t += declare({true, "tpu_noc_pkg::NODES-1:0", "node_inject_o"}, wc) + ",\n";
  t += declare({true, "", "orch_rx_o"}, wc) + ",\n";
  t += declare({true, "tpu_noc_pkg::FLIT_W-1:0", "orch_rx_flit_o"}, wc) + ",\n";
  t += declare({true, "", "agent_idle_o"}, wc) + ",\n";
  t += declare({true, "", "mover_busy_o"}, wc) + ",\n";
  t += declare({true, mesh_ports, "mesh_wait_o"}, wc) + ",\n";
  t += declare({true, mesh_ports, "mesh_hold_o"}, wc) + "\n);\n\n";

  t += R"(  localparam int W = tpu_noc_pkg::FLIT_W;

  // The mesh's local ports, node n at [n].
  logic [tpu_noc_pkg::NODES-1:0]   inject_valid, inject_ready, eject_valid, eject_ready;
  logic [tpu_noc_pkg::NODES*W-1:0] inject_flit, eject_flit;

  tpu_noc_mesh u_mesh (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .inject_valid_i(inject_valid),
    .inject_ready_o(inject_ready),
    .inject_flit_i (inject_flit),
    .eject_valid_o (eject_valid),
    .eject_ready_i (eject_ready),
    .eject_flit_o  (eject_flit),
    .wait_o        (mesh_wait_o),
    .hold_o        (mesh_hold_o)
  );

)";
  for (std::size_t i = 0; i < k; ++i) {
    const noc::Coord c = l.cores[i];
    const noc::Coord a = l.agents[static_cast<std::size_t>(l.core_agent[i])];
    const int n = node_of(l, c);
    t += fmt::format(R"(  // unit {i} at ({x},{y})
  tpu_noc_tinytpu_cu #(
    .X     ({x}),
    .Y     ({y}),
    .AgentX({ax}),
    .AgentY({ay})
  ) u_unit_{x}_{y} (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (eject_valid[{n}]),
    .in_ready_o (eject_ready[{n}]),
    .in_flit_i  (eject_flit[{n}*W +: W]),
    .out_valid_o(inject_valid[{n}]),
    .out_ready_i(inject_ready[{n}]),
    .out_flit_o (inject_flit[{n}*W +: W]),
    .busy_o     (unit_busy_o[{i}])
  );

)",
                     fmt::arg("i", i), fmt::arg("x", c.x), fmt::arg("y", c.y), fmt::arg("ax", a.x),
                     fmt::arg("ay", a.y), fmt::arg("n", n));
  }

  // The agent's ports: {y, x} each, port p at [p * NODE_W].
  const std::size_t ports = l.agents.size();
  std::string nodes, in_valid, in_flit, out_ready, out_valid, out_flit, in_ready;
  for (std::size_t q = ports; q-- > 0;) {
    const noc::Coord c = l.agents[q];
    const int n = node_of(l, c);
    const std::string sep = q == 0 ? "" : ", ";
    nodes += fmt::format("tpu_agent_pkg::POS_W'({}), tpu_agent_pkg::POS_W'({})", c.y, c.x) + sep;
    in_valid += fmt::format("eject_valid[{}]", n) + sep;
    in_flit += fmt::format("eject_flit[{}*W +: W]", n) + sep;
    out_ready += fmt::format("inject_ready[{}]", n) + sep;
  }
  t += "  // The system node: the agent's port p on its node (the order above).\n";
  t += fmt::format("  localparam logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::NODE_W-1:0] AgentNodes = {{{}}};\n",
                   nodes);
  t += R"(  logic [tpu_agent_pkg::MEM_PORTS-1:0]                       agent_in_ready, agent_out_valid, agent_in_busy;
  logic [tpu_agent_pkg::MEM_PORTS*W-1:0]                     agent_out_flit;
  logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::NODE_W-1:0] agent_out_src;
  logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                    agent_stray, agent_discarded, agent_errors_in,
                                                             agent_last_mismatch;
  logic                                                      mover_req_valid, mover_req_ready, mover_req_write;
  logic [tpu_mover_pkg::REG_OFFSET_W-1:0]                    mover_req_addr;
  logic [tpu_mover_pkg::REG_W-1:0]                           mover_req_wdata, mover_rsp_rdata, cp_rsp_rdata;
  logic                                                      mover_rsp_valid, mover_rsp_go, cp_req_ready,
                                                             cp_rsp_valid, cp_rsp_go, mover_done;
  logic [tpu_mover_pkg::FAULT_W-1:0]                         mover_fault;

  tpu_noc_system_node u_system_node (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .node_i           (AgentNodes),
)";
  t += fmt::format("    .in_valid_i       ({{{}}}),\n", in_valid);
  t += "    .in_ready_o       (agent_in_ready),\n";
  t += fmt::format("    .in_flit_i        ({{{}}}),\n", in_flit);
  t += R"(    .in_busy_o        (agent_in_busy),
    .out_valid_o      (agent_out_valid),
)";
  t += fmt::format("    .out_ready_i      ({{{}}}),\n", out_ready);
  t += R"(    .out_flit_o       (agent_out_flit),
    .out_src_o        (agent_out_src),
    .stray_o          (agent_stray),
    .discarded_o      (agent_discarded),
    .errors_in_o      (agent_errors_in),
    .last_mismatch_o  (agent_last_mismatch),
    .agent_idle_o     (agent_idle_o),
    .host_req_valid_i (mover_req_valid),
    .host_req_ready_o (mover_req_ready),
    .host_req_write_i (mover_req_write),
    .host_req_addr_i  (mover_req_addr),
    .host_req_wdata_i (mover_req_wdata),
    .host_rsp_valid_o (mover_rsp_valid),
    .host_rsp_rdata_o (mover_rsp_rdata),
    .host_rsp_go_o    (mover_rsp_go),
    .cp_req_valid_i   (1'b0),
    .cp_req_ready_o   (cp_req_ready),
    .cp_req_write_i   (1'b0),
    .cp_req_addr_i    (tpu_mover_pkg::REG_OFFSET_W'(0)),
    .cp_req_wdata_i   (tpu_mover_pkg::REG_W'(0)),
    .cp_rsp_valid_o   (cp_rsp_valid),
    .cp_rsp_rdata_o   (cp_rsp_rdata),
    .cp_rsp_go_o      (cp_rsp_go),
    .mover_busy_o     (mover_busy_o),
    .mover_done_o     (mover_done),
    .mover_fault_o    (mover_fault),
)";
  std::string mc = connect(mem, "m_");
  mc.erase(mc.size() - 2);  // the last one's comma
  t += mc + "\n  );\n";
  for (std::size_t q = 0; q < ports; ++q) {
    const int n = node_of(l, l.agents[q]);
    t += fmt::format("  assign eject_ready[{n}]        = agent_in_ready[{q}];\n"
                     "  assign inject_valid[{n}]       = agent_out_valid[{q}];\n"
                     "  assign inject_flit[{n}*W +: W] = agent_out_flit[{q}*W +: W];\n",
                     fmt::arg("n", n), fmt::arg("q", q));
  }

  const int on = node_of(l, l.orchestrator);
  t += fmt::format(R"(
  // The orchestrator at ({x},{y}).
  tpu_noc_orchestrator #(
    .X({x}),
    .Y({y})
  ) u_orchestrator (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
)",
                   fmt::arg("x", l.orchestrator.x), fmt::arg("y", l.orchestrator.y));
  t += connect(host);
  t += fmt::format(R"(    .irq_o            (irq_o),
    .mover_req_valid_o(mover_req_valid),
    .mover_req_ready_i(mover_req_ready),
    .mover_req_write_o(mover_req_write),
    .mover_req_addr_o (mover_req_addr),
    .mover_req_wdata_o(mover_req_wdata),
    .mover_rsp_valid_i(mover_rsp_valid),
    .mover_rsp_rdata_i(mover_rsp_rdata),
    .in_valid_i       (eject_valid[{n}]),
    .in_ready_o       (eject_ready[{n}]),
    .in_flit_i        (eject_flit[{n}*W +: W]),
    .out_valid_o      (inject_valid[{n}]),
    .out_ready_i      (inject_ready[{n}]),
    .out_flit_o       (inject_flit[{n}*W +: W])
  );
)",
                   fmt::arg("n", on));

  t += fmt::format(R"(
  // Observability.
  assign node_inject_o  = inject_valid & inject_ready;
  assign orch_rx_o      = eject_valid[{n}] & eject_ready[{n}];
  assign orch_rx_flit_o = eject_flit[{n}*W +: W];
)",
                   fmt::arg("n", on));

  // The idle nodes.
  std::vector<int> idle;
  for (int n = 0; n < l.nx * l.ny; ++n) {
    const noc::Coord c{n % l.nx, n / l.nx};
    bool used = l.core_index(c) >= 0 || c == l.orchestrator;
    for (const auto& a : l.agents) used = used || a == c;
    if (!used) idle.push_back(n);
  }
  std::string unused = "eject_flit, eject_valid, agent_in_busy, agent_out_src, agent_stray, agent_discarded,\n"
                       "                   agent_errors_in, agent_last_mismatch, mover_rsp_go, cp_req_ready,\n"
                       "                   cp_rsp_valid, cp_rsp_rdata, cp_rsp_go, mover_done, mover_fault";
  if (!idle.empty()) {
    t += "\n  // Idle nodes: nothing sent, everything taken (and dropped).\n";
    for (int n : idle)
      t += fmt::format("  assign inject_valid[{n}]       = 1'b0;\n"
                       "  assign inject_flit[{n}*W +: W] = '0;\n"
                       "  assign eject_ready[{n}]        = 1'b1;\n",
                       fmt::arg("n", n));
  }
  t += fmt::format(R"(
  // Read by nothing here: eject_* reach their nodes slice by slice, and the
  // system node's counters and private port are for its own benches.
  logic unused;
  assign unused = ^{{{}}};

endmodule
)",
                   unused);
  return t;
}

std::vector<std::string> generate_cu_system(const CuSystemContext& ctx, const std::string& out_dir) {
  noc::check_deadlock_free(ctx.noc.spec(), ctx.noc.mesh(), ctx.noc.route(), ctx.noc.params().routing());
  std::vector<ConfigFile> files = configuration_files(ctx.core);
  std::vector<std::string_view> packages = configuration_packages(ctx.core);
  append_new(files, noc_config_files(ctx.noc));
  append_new(files, system_node_config_files(ctx.sysnode));
  append_new(files, cu_config_files(ctx.cu, ctx.noc, true));
  files.push_back({std::string(kCuSystemTop) + ".sv", emit_tpu_noc_cu_system(ctx),
                   fmt::format("{}.sv (generated)", kCuSystemTop)});
  for (std::string_view p : {"tpu_noc_pkg", "tpu_mover_pkg", "tpu_agent_pkg", "tpu_cu_pkg"}) packages.push_back(p);

  nlohmann::ordered_json j = cu_params_json(ctx.cu, ctx.noc, std::string(kCuSystemTop));
  j["system_node_spec"] = std::filesystem::path(ctx.sysnode.spec().path).filename().string();
  j["system_node_spec_sha256"] = ctx.sysnode.spec().sha256;
  for (const auto& [name, v] : ctx.sysnode.mover_params().listing()) j["parameters"]["MOVER_" + name] = v;
  for (const auto& [name, v] : ctx.sysnode.agent_params().listing()) j["parameters"]["AGENT_" + name] = v;
  for (const auto& [name, v] : ctx.cu.core()) j["parameters"]["CORE_" + name] = v;
  const auto coord = [](noc::Coord c) { return nlohmann::ordered_json::array({c.x, c.y}); };
  nlohmann::ordered_json layout;
  layout["units"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < ctx.layout.cores.size(); ++i)
    layout["units"].push_back({{"node", coord(ctx.layout.cores[i])}, {"agent_port", ctx.layout.core_agent[i]}});
  layout["agent_ports"] = nlohmann::ordered_json::array();
  for (const auto& a : ctx.layout.agents) layout["agent_ports"].push_back(coord(a));
  layout["orchestrator"] = coord(ctx.layout.orchestrator);
  j["layout"] = layout;
  return write_configuration(out_dir, packages, files, j.dump(2) + "\n");
}

}  // namespace tpugen::hdl
