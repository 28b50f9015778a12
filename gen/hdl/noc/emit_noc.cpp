#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "hdl/localparams.h"
#include "hdl/noc/noc_emitters.h"
#include "util/names.h"
#include "noc/routing.h"
#include "util/diag.h"

namespace tpugen::hdl {

namespace {


void field_params(Localparams& lp, const std::string& prefix, const NocField& f) {
  lp.add(prefix + "_LSB", f.lsb, short_role(f.role));
  lp.add(prefix + "_W", f.width());
  for (const auto& fl : f.flags) lp.add(prefix + "_" + upper(fl.name) + "_BIT", fl.bit, "bit of " + f.name);
  if (f.repeat > 1) {
    lp.add(prefix + "_N", f.repeat, "elements, lowest first");
    lp.add(prefix + "_ELEM_W", f.element_width());
    for (const auto& sub : f.element) {
      lp.add(prefix + "_" + upper(sub.name) + "_LSB", sub.lsb, "within an element");
      lp.add(prefix + "_" + upper(sub.name) + "_W", sub.width());
    }
  }
}

/// The port whose step is (dx, dy), or the local one for (0, 0) (noc/routing.h).
const NocPort& port_by_step(const NocSpec& s, int dx, int dy) {
  return s.ports[static_cast<std::size_t>(noc::port_of_step(s, dx, dy))];
}

/// "tpu_noc_pkg::NAME".
std::string pkg(const std::string& name) { return "tpu_noc_pkg::" + name; }

/// The if/else chain of a dimension-order routing: for each dimension in
/// `order` ("xy", "yx"), the port up or down it while the destination differs
/// there, then the local port.
std::string route_chain(const NocSpec& s, const std::string& order, const std::string& indent) {
  std::string chain;
  for (const char dim : order) {
    const bool x = dim == 'x';
    const std::string field = x ? "dst_x_i" : "dst_y_i";
    const std::string here = x ? "X" : "Y";
    const NocPort& up = port_by_step(s, x ? 1 : 0, x ? 0 : 1);
    const NocPort& down = port_by_step(s, x ? -1 : 0, x ? 0 : -1);
    chain += fmt::format("{}{}if (32'({}) > {}) port_o[{}] = 1'b1;\n", indent, chain.empty() ? "" : "else ", field,
                         here, NocContext::port_const(up));
    chain += fmt::format("{}else if (32'({}) != {}) port_o[{}] = 1'b1;\n", indent, field, here,
                         NocContext::port_const(down));
  }
  return chain + fmt::format("{}else port_o[{}] = 1'b1;\n", indent, NocContext::port_const(port_by_step(s, 0, 0)));
}

}  // namespace

std::string emit_tpu_noc_pkg(const NocContext& ctx) {
  const NocSpec& s = ctx.spec();
  std::string o = ctx.file_header("tpu_noc_pkg", "the NoC's constants, from the spec");
  o += R"(
// tpu_noc_pkg: the flit's fields, the message types, every payload layout,
// the signal and error codes, the control registers, the address map, the
// router's ports and this fabric's build parameters, as spec/noc.yaml gives
// them. Bit positions are bits of the flit; the hand-written router and the
// generated modules read them by name. The package publishes every constant
// of the spec for the modules, testbenches and the units that later sit on the
// mesh; no fabric uses all of them, so unused-parameter lint is waived for
// this file only (as for tpu_pkg).
/* verilator lint_off UNUSEDPARAM */
package tpu_noc_pkg;

)";
  Localparams lp;
  lp.add("FLIT_W", s.flit_bits(), "bits of a flit");
  lp.add("HEADER_W", s.header_bits, "its header, above the payload");
  lp.add("PAYLOAD_W", s.payload_bits, "its payload, bits PAYLOAD_W-1:0");
  lp.add("POS_W", s.pos_width, "bits of a coordinate (POS_WIDTH)");
  lp.blank();
  for (const auto& f : s.header.fields) field_params(lp, upper(f.name), f);
  lp.blank();
  const int type_w = s.header.field("type")->width();
  for (const auto& t : s.types) lp.add_bits("TYPE_" + t.name, type_w, fmt::format("h{:x}", t.code), short_role(t.role));
  lp.add_bits("TYPE_RESERVED_FROM", type_w, fmt::format("h{:x}", s.reserved_types.from), "reserved type codes: from");
  lp.add_bits("TYPE_RESERVED_TO", type_w, fmt::format("h{:x}", s.reserved_types.to), "to (inclusive)");
  lp.blank();
  for (const auto& l : s.payloads) {
    for (const auto& f : l.fields) field_params(lp, upper(l.name) + "_" + upper(f.name), f);
    lp.blank();
  }
  const int code_w = s.require_payload("cu_signal").field("code")->width();
  for (const auto& g : s.signals) lp.add_bits(g.name, code_w, fmt::format("d{}", g.code), short_role(g.role));
  lp.blank();
  const int op_w = s.require_payload("cu_ctrl").field("op")->width();
  for (const auto& c : s.cu_ctrl_ops) lp.add_bits("CU_CTRL_" + c.name, op_w, fmt::format("h{:02x}", c.code), c.role);
  for (const auto& r : s.cu_ctrl_registers) {
    lp.add("CU_REG_" + r.name, r.index, r.role);
    for (const auto& f : r.fields) field_params(lp, "CU_REG_" + r.name + "_" + upper(f.name), f);
  }
  lp.blank();
  lp.add("ADDR_W", s.address_bits, "bits of a byte address");
  for (const auto& f : s.address_map.fields) field_params(lp, "ADDR_" + upper(f.name), f);
  lp.blank();
  const int rule_w = s.require_payload("error").field("rule")->width();
  for (const auto& r : s.error_rules) lp.add_bits("ERR_" + r.name, rule_w, fmt::format("d{}", r.code), short_role(r.role));
  lp.blank();
  lp.add("PORTS", static_cast<std::int64_t>(s.ports.size()), "router ports");
  for (std::size_t i = 0; i < s.ports.size(); ++i)
    lp.add("PORT_" + s.ports[i].name, static_cast<std::int64_t>(i), s.ports[i].role);
  lp.blank();
  for (const auto& p : s.parameters) {
    if (!p.is_choice()) lp.add(p.name, ctx.params()[p.name], p.role);
  }
  lp.add("NODES", static_cast<std::int64_t>(ctx.params().nx()) * ctx.params().ny(), "routers: node y * NX + x");
  // The crossbar's connections: the turns the routing takes anywhere on this
  // mesh (input i to output o at bit i * PORTS + o); the others are not built.
  const auto turns = noc::turns_used(s, ctx.mesh(), ctx.route());
  std::string bits;
  for (int i = static_cast<int>(s.ports.size()) - 1; i >= 0; --i)
    for (int k = static_cast<int>(s.ports.size()) - 1; k >= 0; --k)
      bits += turns[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] ? '1' : '0';
  const std::size_t np = s.ports.size();
  lp.add_bits("TURNS", static_cast<int>(np * np), "b" + bits,
         fmt::format("input i to output o at i * PORTS + o ({} routing)", ctx.params().routing()));
  o += lp.str();
  o += "\nendpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  return o;
}

std::string emit_tpu_noc_route(const NocContext& ctx) {
  const NocSpec& s = ctx.spec();
  const std::string order = noc::dimension_order(s, ctx.params().routing());
  std::string o = ctx.file_header("tpu_noc_route", fmt::format("the {} routing function", ctx.params().routing()));
  o += fmt::format(R"(
// tpu_noc_route: where the router at (X, Y) sends a flit for (dst_x_i,
// dst_y_i): the {} routing of spec/noc.yaml ({}), as a one-hot output
// port. It reads the destination and nothing else.
module tpu_noc_route #(
  parameter int X = 0,  // this router's column
  parameter int Y = 0   // and row
) (
  input  logic [tpu_noc_pkg::POS_W-1:0] dst_x_i,
  input  logic [tpu_noc_pkg::POS_W-1:0] dst_y_i,
  output logic [tpu_noc_pkg::PORTS-1:0] port_o
);

  always_comb begin
    port_o = '0;
)",
                   ctx.params().routing(), s.routing(ctx.params().routing())->role);
  // The deliberate defect noc_yx_at_node: the router at (1, 1) takes the
  // dimensions the other way round.
  if (ctx.inject_bug() == "noc_yx_at_node") {
    std::string swapped(order.rbegin(), order.rend());
    o += "    // INJECTED DEFECT (noc_yx_at_node): the router at (1, 1) routes the other dimension first.\n";
    o += "    if (X == 1 && Y == 1) begin\n" + route_chain(s, swapped, "      ") + "    end else begin\n" +
         route_chain(s, order, "      ") + "    end\n";
  } else {
    o += route_chain(s, order, "    ");
  }
  o += "  end\n\nendmodule\n";
  return o;
}

std::string emit_tpu_noc_check(const NocContext& ctx) {
  const NocSpec& s = ctx.spec();
  // The SystemVerilog condition of each rule, by name: the RTL's side of
  // noc/endpoint.cpp's breaks_rule. A rule the spec adds needs a row here.
  const std::map<std::string, std::string> conditions = {
      {"DST_OUTSIDE_MESH", "(32'(dst_x) >= tpu_noc_pkg::NX) || (32'(dst_y) >= tpu_noc_pkg::NY)"},
      {"RESERVED_TYPE", "(type_q >= tpu_noc_pkg::TYPE_RESERVED_FROM) && (type_q <= tpu_noc_pkg::TYPE_RESERVED_TO)"},
      {"REMOTE_MESH", "rsvd[tpu_noc_pkg::RSVD_REMOTE_BIT]"},
      {"RSVD_ON_CU_INST", "(type_q == tpu_noc_pkg::TYPE_CU_INST) && (rsvd != '0)"},
      {"SRC_NOT_SENDER", "(32'(src_x) != X) || (32'(src_y) != Y)"},
  };
  std::string rules;
  for (const auto& r : s.error_rules) {
    const auto it = conditions.find(r.name);
    if (it == conditions.end())
      throw Error("noc.spec", fmt::format("error rule {} has no condition in gen/hdl/noc/emit_noc.cpp", r.name), r.loc);
    rules += fmt::format("    {}if ({}) rule_o = {};  // {}\n", rules.empty() ? "" : "else ", it->second,
                         pkg("ERR_" + r.name), r.role);
  }
  std::string o = ctx.file_header("tpu_noc_check", "the local port's check of a flit entering the mesh");
  o += R"(
// tpu_noc_check: a flit a node sends is checked against the spec's error
// rules, in the spec's order (rule_o names the first it breaks; 0: none). A
// malformed flit is replaced by the ERROR flit that answers it: to the
// sender's node and from it, type ERROR, the offending txn, last 1, rsvd 0,
// the payload naming the rule and carrying the offending header. The router
// puts flit_o into its local input FIFO, so a malformed flit never travels
// and its sender always hears of it.
//
// Parameters:
//   X, Y  the sender's node (this router's)
module tpu_noc_check #(
  parameter int X = 0,
  parameter int Y = 0
) (
  input  logic [tpu_noc_pkg::FLIT_W-1:0]       flit_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0]       flit_o,
  output logic [tpu_noc_pkg::ERROR_RULE_W-1:0] rule_o
);

  logic [tpu_noc_pkg::DST_X_W-1:0] dst_x;
  logic [tpu_noc_pkg::DST_Y_W-1:0] dst_y;
  logic [tpu_noc_pkg::SRC_X_W-1:0] src_x;
  logic [tpu_noc_pkg::SRC_Y_W-1:0] src_y;
  logic [tpu_noc_pkg::TYPE_W-1:0]  type_q;
  logic [tpu_noc_pkg::RSVD_W-1:0]  rsvd;
  assign dst_x  = flit_i[tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W];
  assign dst_y  = flit_i[tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W];
  assign src_x  = flit_i[tpu_noc_pkg::SRC_X_LSB +: tpu_noc_pkg::SRC_X_W];
  assign src_y  = flit_i[tpu_noc_pkg::SRC_Y_LSB +: tpu_noc_pkg::SRC_Y_W];
  assign type_q = flit_i[tpu_noc_pkg::TYPE_LSB +: tpu_noc_pkg::TYPE_W];
  assign rsvd   = flit_i[tpu_noc_pkg::RSVD_LSB +: tpu_noc_pkg::RSVD_W];

  // The first rule broken, in the spec's order.
  always_comb begin
    rule_o = '0;
)";
  o += rules;
  o += R"(  end

  // The flit, or the ERROR flit that answers it.
  always_comb begin
    flit_o = flit_i;
    if (rule_o != '0) begin
      flit_o = '0;
      flit_o[tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W] = tpu_noc_pkg::DST_X_W'(X);
      flit_o[tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W] = tpu_noc_pkg::DST_Y_W'(Y);
      flit_o[tpu_noc_pkg::SRC_X_LSB +: tpu_noc_pkg::SRC_X_W] = tpu_noc_pkg::SRC_X_W'(X);
      flit_o[tpu_noc_pkg::SRC_Y_LSB +: tpu_noc_pkg::SRC_Y_W] = tpu_noc_pkg::SRC_Y_W'(Y);
      flit_o[tpu_noc_pkg::TYPE_LSB +: tpu_noc_pkg::TYPE_W]   = tpu_noc_pkg::TYPE_ERROR;
      flit_o[tpu_noc_pkg::TXN_LSB +: tpu_noc_pkg::TXN_W]     = flit_i[tpu_noc_pkg::TXN_LSB +: tpu_noc_pkg::TXN_W];
      flit_o[tpu_noc_pkg::LAST_LSB +: tpu_noc_pkg::LAST_W]   = tpu_noc_pkg::LAST_W'(1);
      flit_o[tpu_noc_pkg::ERROR_RULE_LSB +: tpu_noc_pkg::ERROR_RULE_W] = rule_o;
      flit_o[tpu_noc_pkg::ERROR_HEADER_LSB +: tpu_noc_pkg::ERROR_HEADER_W] =
          flit_i[tpu_noc_pkg::PAYLOAD_W +: tpu_noc_pkg::HEADER_W];
    end
  end

endmodule
)";
  return o;
}

std::string emit_tpu_noc_mesh(const NocContext& ctx) {
  const NocSpec& s = ctx.spec();
  std::string o = ctx.file_header("tpu_noc_mesh", "NX x NY routers and their links");
  o += R"(
// tpu_noc_mesh: NX x NY routers (tpu_noc_pkg::NX, NY), router (x, y) at node
// y * NX + x. Each neighbour port is linked to the neighbour's opposite port
// (spec/noc.yaml's ports give each its step); a port at the mesh's edge is
// tied off: nothing comes in (valid 0) and nothing may go out (its ready is
// 0, and no flit is ever routed there: the local check refuses a destination
// outside the mesh). Every node's local port is a port of the mesh.
//
// Links are valid/ready, with ready the receiver's FIFO not full: it depends
// only on the receiver's registered state, so it is the `busy` of a
// data/valid/busy link (busy = !ready; a flit crosses in a cycle with valid
// and not busy; the sender holds it while busy). See docs/noc.md.
module tpu_noc_mesh (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  // local ports, node n at [n] (flits at [n * FLIT_W +: FLIT_W]): into the mesh
  input  logic [tpu_noc_pkg::NODES-1:0]                    inject_valid_i,
  output logic [tpu_noc_pkg::NODES-1:0]                    inject_ready_o,
  input  logic [tpu_noc_pkg::NODES*tpu_noc_pkg::FLIT_W-1:0] inject_flit_i,
  // and out of it
  output logic [tpu_noc_pkg::NODES-1:0]                    eject_valid_o,
  input  logic [tpu_noc_pkg::NODES-1:0]                    eject_ready_i,
  output logic [tpu_noc_pkg::NODES*tpu_noc_pkg::FLIT_W-1:0] eject_flit_o,
  // observability, router n's port p at [n * PORTS + p]: its input holds a
  // flit that does not leave in this cycle (wait_o, tpu_noc_router's), its
  // output register one that its receiver does not take (hold_o); a
  // testbench's watchdog names stuck routers and ports from them
  output logic [tpu_noc_pkg::NODES*tpu_noc_pkg::PORTS-1:0]  wait_o,
  output logic [tpu_noc_pkg::NODES*tpu_noc_pkg::PORTS-1:0]  hold_o
);

  localparam int P = tpu_noc_pkg::PORTS;
  localparam int W = tpu_noc_pkg::FLIT_W;

  // Every router's ports: router n's port p at [n * P + p].
  logic [tpu_noc_pkg::NODES*P-1:0]   in_valid, in_ready, out_valid, out_ready;
  logic [tpu_noc_pkg::NODES*P*W-1:0] in_flit, out_flit;

  // Every router's ports that lead somewhere, router n's port p at [n * P + p]
  // (tpu_noc_pkg::PORT_*): the local one and the neighbours inside the mesh,
  // by the spec's port steps (tpugen's noc::port_links: the delivery model
  // and `tpugen noc synth --router` take the same).
  localparam logic [tpu_noc_pkg::NODES*P-1:0] LINKS = {
@LINKS@
  };

  for (genvar y = 0; y < tpu_noc_pkg::NY; y++) begin : g_y
    for (genvar x = 0; x < tpu_noc_pkg::NX; x++) begin : g_x
      localparam int N = y * tpu_noc_pkg::NX + x;
      localparam logic [P-1:0] Links = LINKS[N*P +: P];

      tpu_noc_router #(
        .X    (x),
        .Y    (y),
        .Links(Links)
      ) u_router (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .valid_i(in_valid[N*P +: P]),
        .ready_o(in_ready[N*P +: P]),
        .flit_i (in_flit[N*P*W +: P*W]),
        .valid_o(out_valid[N*P +: P]),
        .ready_i(out_ready[N*P +: P]),
        .flit_o (out_flit[N*P*W +: P*W]),
        .wait_o (wait_o[N*P +: P])
      );
      // An output register holds a flit its receiver does not take (computed
      // here, not in the router: its synthesis is measured without it).
      assign hold_o[N*P +: P] = out_valid[N*P +: P] & ~out_ready[N*P +: P];
)";
  // The LINKS table, highest node first (a concatenation), a row of the mesh a line.
  const noc::Mesh mesh = ctx.mesh();
  const int np = static_cast<int>(s.ports.size());
  std::string links;
  for (int y = mesh.ny - 1; y >= 0; --y) {
    links += "    ";
    for (int x = mesh.nx - 1; x >= 0; --x)
      links += fmt::format("{}'b{:0{}b}{}", np, noc::port_links(s, mesh, {x, y}), np, x == 0 && y == 0 ? "" : ", ");
    links += fmt::format("{} // y = {}, x = {} .. 0{}", y == 0 ? " " : "", y, mesh.nx - 1, y == 0 ? "" : "\n");
  }
  o.replace(o.find("@LINKS@"), 7, links);
  for (const auto& p : s.ports) {
    const std::string pc = NocContext::port_const(p);
    if (p.local) {
      o += fmt::format(R"(
      // port {}: the node's endpoint
      assign in_valid[N*P + {pc}]           = inject_valid_i[N];
      assign in_flit[(N*P + {pc})*W +: W]   = inject_flit_i[N*W +: W];
      assign inject_ready_o[N]              = in_ready[N*P + {pc}];
      assign eject_valid_o[N]               = out_valid[N*P + {pc}];
      assign eject_flit_o[N*W +: W]         = out_flit[(N*P + {pc})*W +: W];
      assign out_ready[N*P + {pc}]          = eject_ready_i[N];
)",
                       p.name, fmt::arg("pc", pc));
      continue;
    }
    const NocPort& opp = port_by_step(s, -p.dx, -p.dy);
    const std::string oc = NocContext::port_const(opp);
    const std::string step = p.dx != 0 ? fmt::format("{}", p.dx) : fmt::format("{} * tpu_noc_pkg::NX", p.dy);
    const std::string block = "g_" + lower(p.name);
    o += fmt::format(R"(
      // port {name}: the neighbour at (x {dx:+d}, y {dy:+d}), which this port enters by its port {opp}
      if (Links[{pc}]) begin : {blk}
        localparam int M = N + ({step});
        assign in_valid[N*P + {pc}]         = out_valid[M*P + {oc}];
        assign in_flit[(N*P + {pc})*W +: W] = out_flit[(M*P + {oc})*W +: W];
        assign out_ready[N*P + {pc}]        = in_ready[M*P + {oc}];
      end else begin : {blk}_edge
        logic unused_edge;
        assign unused_edge = ^{{in_ready[N*P + {pc}], out_valid[N*P + {pc}], out_flit[(N*P + {pc})*W +: W]}};
        assign in_valid[N*P + {pc}]         = 1'b0;
        assign in_flit[(N*P + {pc})*W +: W] = '0;
        assign out_ready[N*P + {pc}]        = 1'b0;
      end
)",
                     fmt::arg("name", p.name), fmt::arg("dx", p.dx), fmt::arg("dy", p.dy), fmt::arg("opp", opp.name),
                     fmt::arg("blk", block), fmt::arg("step", step), fmt::arg("pc", pc),
                     fmt::arg("oc", oc));
  }
  o += R"(    end
  end

endmodule
)";
  return o;
}

}  // namespace tpugen::hdl
