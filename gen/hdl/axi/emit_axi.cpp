// The AXI top (tpugen gen --top axi): tpu_axi_ctrl, the AXI4-Lite control
// slave generated from the register map of spec/axi_top.yaml, and
// tpu_axi_top, the core behind one AXI4 master (the hand-written stream
// adapters rtl/axi/tpu_axi_rd.sv and tpu_axi_wr.sv) and that slave, with the
// Vitis ap_ctrl_hs handshake. Offsets, bit positions, access kinds, IDs and
// burst rules come from the AXI spec; the signal each read-only field shows
// and each event that sets a field are bound here, by field name, and a
// field this file cannot bind is an error.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "hdl/core/core_ports.h"
#include "hdl/emitters.h"

namespace tpugen::hdl {

namespace {

std::string axi_header(const RtlContext& ctx, std::string_view module, std::string_view description) {
  const AxiTopSpec& a = ctx.axi();
  return ctx.file_header(module, description) +
         fmt::format("// Host interface from {} (sha256 {}).\n",
                     a.path.substr(a.path.rfind('/') == std::string::npos ? 0 : a.path.rfind('/') + 1), a.sha256);
}

std::string width_decl(int width) { return width == 1 ? "" : fmt::format("[{}:0] ", width - 1); }

/// One port of the AXI4-Lite slave, as tpu_axil_slave and tpu_axi_ctrl name
/// it (<name>_i or <name>_o); width 0 is the address (AddrW bits).
struct LitePort {
  std::string_view name;
  bool input;
  int width;
};
constexpr LitePort kLitePorts[] = {
    {"aw_valid", true, 1},  {"aw_ready", false, 1}, {"aw_addr", true, 0},  {"w_valid", true, 1},
    {"w_ready", false, 1},  {"w_data", true, 32},   {"w_strb", true, 4},   {"b_valid", false, 1},
    {"b_ready", true, 1},   {"b_resp", false, 2},   {"ar_valid", true, 1}, {"ar_ready", false, 1},
    {"ar_addr", true, 0},   {"r_valid", false, 1},  {"r_ready", true, 1},  {"r_data", false, 32},
    {"r_resp", false, 2}};

std::string lite_port(const LitePort& p) { return fmt::format("{}_{}", p.name, p.input ? "i" : "o"); }

/// The AXI name of a slave port: aw_valid -> AWVALID.
std::string lite_axi_name(const LitePort& p) {
  std::string n;
  for (const char ch : p.name)
    if (ch != '_') n += static_cast<char>(ch - 'a' + 'A');
  return n;
}

/// The slave's ports as declarations, one a line, each line ending in
/// `last_sep` after the last port and "," before: `name(p)` names each port
/// and `addr_width` is the address's width expression.
template <typename Name>
std::string lite_port_decls(Name name, std::string_view addr_width) {
  std::vector<std::string> lines;
  for (const auto& p : kLitePorts) {
    const std::string w = p.width == 0 ? fmt::format("[{}-1:0] ", addr_width)
                                       : (p.width == 1 ? std::string() : fmt::format("[{}:0] ", p.width - 1));
    lines.push_back(fmt::format("  {} logic {}{}", p.input ? "input " : "output", w, name(p)));
  }
  return fmt::format("{}", fmt::join(lines, ",\n"));
}

/// Named connections of the slave's ports: .<port>(signal(p)), one a line.
template <typename Signal>
std::string lite_port_conns(Signal signal) {
  std::string o;
  for (const auto& p : kLitePorts) o += fmt::format("    .{}({}),\n", lite_port(p), signal(p));
  return o;
}

/// An AXI4 master's address channel (AW or AR) as port declarations.
std::string ax_port_decls(std::string_view mp, std::string_view ch, int addr_bits, int id_bits) {
  return fmt::format(R"(  output logic {0}{1}VALID,
  input  logic {0}{1}READY,
  output logic [{2}-1:0] {0}{1}ADDR,
  output logic [{3}-1:0] {0}{1}ID,
  output logic [7:0] {0}{1}LEN,
  output logic [2:0] {0}{1}SIZE,
  output logic [1:0] {0}{1}BURST,
  output logic [1:0] {0}{1}LOCK,
  output logic [3:0] {0}{1}CACHE,
  output logic [2:0] {0}{1}PROT,
  output logic [3:0] {0}{1}QOS,
  output logic [3:0] {0}{1}REGION,
)",
                     mp, ch, addr_bits, id_bits);
}

/// The fixed attributes of every burst on an address channel (AW or AR).
std::string ax_constants(std::string_view mp, std::string_view ch) {
  return fmt::format(R"(  assign {0}{1}BURST  = 2'b01;    // INCR
  assign {0}{1}LOCK   = 2'b00;
  assign {0}{1}CACHE  = 4'b0011;  // normal, non-cacheable, bufferable (as Vitis m_axi)
  assign {0}{1}PROT   = 3'b000;
  assign {0}{1}QOS    = 4'b0000;
  assign {0}{1}REGION = 4'b0000;
)",
                     mp, ch);
}

/// The core's memory interfaces (spec: interfaces) and the prefix of the
/// nets tpu_axi_top connects them to: port imem_req_addr_o is net
/// imem_req_addr, dram_rd_req_addr_o is rd_req_addr.
constexpr std::pair<std::string_view, std::string_view> kCoreMemories[] = {
    {"imem", "imem"}, {"dram_rd", "rd"}, {"dram_wr", "wr"}};

/// A field's byte-strobed write mask term: the bits of `data` the host
/// writes, for a field of bits [lsb, lsb+width).
std::string written_bits(const RegField& f, std::string_view data, std::string_view strb) {
  std::vector<std::string> parts;
  for (int b = f.lsb + f.width - 1; b >= f.lsb; --b) parts.push_back(fmt::format("{}[{}]", strb, b / 8));
  return fmt::format("({}[{}:{}] & {{{}}})", data, f.lsb + f.width - 1, f.lsb, fmt::join(parts, ", "));
}

}  // namespace

std::string emit_tpu_axi_ctrl(const RtlContext& ctx) {
  const AxiControlSpec& c = ctx.axi().control;
  std::string o = axi_header(ctx, "tpu_axi_ctrl", "the AXI4-Lite control slave of tpu_axi_top");
  o += R"(//
// A register file from the control map of the AXI spec, behind the channel
// handshakes of tpu_axil_slave (rtl/axi/): AW and W are taken independently
// (each ready while its one-entry buffer is empty); the write happens when
// both are held and no B is waiting, honouring WSTRB, and B answers OKAY.
// AR is taken while no R is waiting; R answers OKAY with the register's
// value (0 for an offset no register has), and reading a register clears
// its cor fields (an event in the same cycle wins).
// Every rw field is an output <field>_o; every ro field an input <field>_i;
// a w1s_hc, cor or tow field is an output <field>_o set by <field>_set_i
// (w1s_hc also cleared by <field>_clear_i).
//
// Registers:
)";
  for (const auto& r : c.registers) {
    o += fmt::format("//   {:#04x} {:<13} {}\n", r.offset, r.name, r.role);
    for (const auto& f : r.fields)
      o += fmt::format("//          [{}:{}] {} ({})\n", f.lsb + f.width - 1, f.lsb, f.name, access_name(f.access));
  }
  o += fmt::format("module tpu_axi_ctrl #(\n  parameter int AddrW = {}\n) (\n", c.addr_bits);
  o += "  input  logic clk_i,\n  input  logic rst_ni,\n  // AXI4-Lite slave\n";
  o += lite_port_decls(lite_port, "AddrW");
  for (const auto& r : c.registers)
    for (const auto& f : r.fields) {
      const std::string w = width_decl(f.width);
      switch (f.access) {
        case FieldAccess::Ro: o += fmt::format(",\n  input  logic {}{}_i", w, f.name); break;
        case FieldAccess::Rw: o += fmt::format(",\n  output logic {}{}_o", w, f.name); break;
        case FieldAccess::W1sHc:
          o += fmt::format(",\n  output logic {0}{1}_o,\n  input  logic {1}_set_i,\n  input  logic {1}_clear_i", w, f.name);
          break;
        case FieldAccess::Cor:
        case FieldAccess::Tow: o += fmt::format(",\n  output logic {0}{1}_o,\n  input  logic {1}_set_i", w, f.name); break;
      }
    }
  o += R"(
);

  localparam int WordW = AddrW - 2;

  // --- Channels: the handshakes (tpu_axil_slave), a write and a read strobe ------
  logic             wr_en, rd_en;
  logic [WordW-1:0] wr_word, rd_word;
  logic [31:0]      wr_data, rd_value;
  logic [3:0]       wr_strb;

  tpu_axil_slave #(
    .AddrW(AddrW)
  ) u_slave (
    .clk_i(clk_i),
    .rst_ni(rst_ni),
)";
  o += lite_port_conns(lite_port);
  o += R"(    .wr_en_o(wr_en),
    .wr_word_o(wr_word),
    .wr_data_o(wr_data),
    .wr_strb_o(wr_strb),
    .rd_en_o(rd_en),
    .rd_word_o(rd_word),
    .rd_data_i(rd_value)
  );

  // --- Registers --------------------------------------------------------------------
)";
  // Which register a write or a read addresses: a write strobe for each
  // register the host writes, a read strobe for each register reading clears.
  for (const auto& r : c.registers) {
    const bool written = std::any_of(r.fields.begin(), r.fields.end(), [](const RegField& f) {
      return f.access == FieldAccess::Rw || f.access == FieldAccess::W1sHc || f.access == FieldAccess::Tow;
    });
    const bool read_clears =
        std::any_of(r.fields.begin(), r.fields.end(), [](const RegField& f) { return f.access == FieldAccess::Cor; });
    if (written)
      o += fmt::format("  logic wr_{0};\n  assign wr_{0} = wr_en && (wr_word == WordW'({1}));\n", r.name, r.offset / 4);
    if (read_clears)
      o += fmt::format("  logic rd_{0};\n  assign rd_{0} = rd_en && (rd_word == WordW'({1}));\n", r.name, r.offset / 4);
  }
  o += "\n";
  for (const auto& r : c.registers)
    for (const auto& f : r.fields) {
      if (f.access == FieldAccess::Ro) continue;
      const std::string w = width_decl(f.width);
      const std::string bits = written_bits(f, "wr_data", "wr_strb");
      const std::string q = f.name + "_q";
      std::string next;
      switch (f.access) {
        case FieldAccess::Rw: next = fmt::format("wr_{} ? {} : {}", r.name, bits, q); break;
        case FieldAccess::W1sHc:
          next = fmt::format("({0} & ~{{{3}{{{1}_clear_i}}}}) | {{{3}{{{1}_set_i}}}} | (wr_{2} ? {4} : '0)", q, f.name,
                             r.name, f.width, bits);
          break;
        case FieldAccess::Cor:
          next = fmt::format("{{{2}{{{1}_set_i}}}} | (rd_{3} ? '0 : {0})", q, f.name, f.width, r.name);
          break;
        case FieldAccess::Tow:
          next = fmt::format("{{{2}{{{1}_set_i}}}} | ({0} ^ (wr_{3} ? {4} : '0))", q, f.name, f.width, r.name, bits);
          break;
        case FieldAccess::Ro: break;
      }
      o += fmt::format(R"(  logic {0}{1};  // {2}
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) {1} <= '0;
    else {1} <= {3};
  end
  assign {4}_o = {1};

)",
                       w, q, access_name(f.access), next, f.name);
    }
  // The read mux: each register's fields at their bits.
  o += "  always_comb begin\n    rd_value = '0;\n    unique case (rd_word)\n";
  for (const auto& r : c.registers) {
    o += fmt::format("      WordW'({}): begin  // {}\n", r.offset / 4, r.name);
    for (const auto& f : r.fields)
      o += fmt::format("        rd_value[{}:{}] = {}{};\n", f.lsb + f.width - 1, f.lsb, f.name,
                       f.access == FieldAccess::Ro ? "_i" : "_q");
    o += "      end\n";
  }
  o += "      default: rd_value = '0;\n    endcase\n  end\n\nendmodule\n";
  return o;
}

std::string emit_tpu_axi_pkg(const RtlContext& ctx) {
  const AxiTopSpec& a = ctx.axi();
  const AxiMasterSpec& m = a.master;
  std::string o = axi_header(ctx, "tpu_axi_pkg", "the AXI master's constants, from the AXI spec");
  o += fmt::format(R"(
// tpu_axi_pkg: the AXI master's widths and burst rules, as the AXI spec
// gives them, for the hand-written adapters (rtl/axi) and tpu_axi_top.
package tpu_axi_pkg;

  localparam int ADDR_W      = {:<4};  // the master's address bits
  localparam int ID_W        = {:<4};  // its ID bits
  localparam int DATA_BYTES  = {:<4};  // its data bus, bytes (BUS_BYTES)
  localparam int MAX_BURST   = {:<4};  // beats of the longest INCR burst
  localparam int BOUNDARY    = {:<4};  // bytes of the page no burst crosses
  localparam int OUTSTANDING = {:<4};  // bursts in flight per stream, at most

endpackage
)",
                   m.addr_bits, m.id_bits, ctx.axi_data_bytes(), m.max_burst_beats, m.boundary_bytes,
                   m.max_outstanding);
  return o;
}

std::string emit_tpu_axi_top(const RtlContext& ctx) {
  const AxiTopSpec& a = ctx.axi();
  const AxiMasterSpec& m = a.master;
  const std::string mp = "m_axi_" + m.bundle + "_";
  const std::string sp = "s_axi_" + a.control.bundle + "_";
  const AxiStream& imem = *m.stream("imem");
  const AxiStream& rd = *m.stream("dram_rd");
  const AxiStream& wr = *m.stream("dram_wr");

  // The hardware side of every control field, by name. A field the map
  // defines and this table lacks cannot be generated.
  const std::map<std::string, std::string> ro_source{
      {"ap_idle", "!core_busy"},        {"busy", "core_busy"},
      {"done", "core_done"},            {"base_error", "base_error"},
      {"rresp_error", "rresp_error"},   {"bresp_error", "bresp_error"},
      {"fault", "core_fault"},          {"fault_pc", "core_fault_pc"},
      {"fault_unit", "core_fault_unit"}, {"cycles", "core_cycles"}};
  const std::map<std::string, std::string> set_source{
      {"ap_start", "auto_restart & done_event"}, {"ap_done", "done_event"},
      {"ap_ready", "start_taken"},               {"isr_done", "done_event & ier_done"},
      {"isr_ready", "start_taken & ier_ready"}};
  const std::map<std::string, std::string> clear_source{{"ap_start", "start_taken"}};
  for (const char* needed : {"ap_start", "auto_restart", "gie", "ier_done", "ier_ready", "isr_done", "isr_ready",
                             "core_reset"})
    (void)a.require_field(needed, "tpu_axi_top");
  // STATUS.fault and FAULT.fault_pc/fault_unit carry the core's fault ports,
  // whose widths the ISA spec's faults set.
  const Spec& isa = ctx.spec();
  for (const auto& [field, width, key] : {std::tuple{"fault", isa.fault_width, "width"},
                                          std::tuple{"fault_pc", isa.fault_pc_width, "pc_width"},
                                          std::tuple{"fault_unit", isa.fault_unit_width, "unit_width"}})
    if (const RegField& f = a.require_field(field, "tpu_axi_top"); f.width != width)
      throw Error("axi.spec",
                  fmt::format("field {0} is {1} bits, but the core's {0}_o is {2} (faults.{3} in {4})", field, f.width,
                              width, key, isa.path),
                  f.loc);
  std::vector<std::string> bases;
  for (const auto* st : {&imem, &rd, &wr})
    for (const auto& b : st->bases) bases.push_back(b);

  std::string o = axi_header(ctx, "tpu_axi_top", "the TinyTPU-isa core behind AXI4 (Vitis ap_ctrl_hs)");
  o += fmt::format(R"(//
// tpu_top behind one AXI4 master ({0}*) and one AXI4-Lite control slave
// ({1}*, tpu_axi_ctrl), with an interrupt: an RTL kernel in the place of the
// HLS kernel of the original design. The ports follow the Vitis RTL kernel
// naming (ap_clk, ap_rst_n, interrupt, m_axi_<bundle>_*, s_axi_<bundle>_*)
// so that Vivado infers the interfaces.
//
// Master: {2}-byte data, {3}-bit addresses, {4}-bit IDs. Each of the core's
// memory ports is a stream with its own adapter (rtl/axi/): program fetch
// ID {5} and operand reads ID {6} (tpu_axi_rd; their AR requests take turns,
// R beats go back by RID), result writes ID {7} (tpu_axi_wr). Consecutive
// requests join INCR bursts of at most {8} beats that never cross a {9}-byte
// boundary; up to {10} bursts per stream are in flight.
// Byte address of a request: the stream's base register plus the core's
// offset (imem: the word index * 8; operands: the base of A for sel 0 and
// of B for sel 1; C writes: the base of C).
//
// Control (ap_ctrl_hs): ap_start is taken when the core is not busy, not
// faulted and not held in reset (ap_ready); a start with a base address
// that is not a multiple of the bus width starts nothing and ends at once
// with STATUS.base_error (a bad buffer is a status, not a hang). ap_done
// rises when the run ends, done or faulted (STATUS.fault names the fault;
// then CORE_RESET must be pulsed before the next start). ap_idle is the
// core not busy. auto_restart sets ap_start again at each ap_done. The
// interrupt is GIE and any ISR bit; ISR bits are set by enabled events.
// Responses other than OKAY set STATUS.rresp_error / bresp_error (cleared
// at the next start); the data still flows, so the run completes.
// Do not write the base registers while a run is in progress.
//
// Reset: ap_rst_n resets everything; CORE_RESET.core_reset holds the core
// and the master adapters (not the control slave) in reset.
//
// Parameters: as tpu_top.
)",
                   mp, sp, ctx.axi_data_bytes(), m.addr_bits, m.id_bits, imem.id, rd.id, wr.id, m.max_burst_beats,
                   m.boundary_bytes, m.max_outstanding);
  o += "module tpu_axi_top #(\n" + top_parameter_decls(ctx) + ") (\n";
  o += R"(  input  logic ap_clk,
  input  logic ap_rst_n,
  // Vitis names the kernel's interrupt port `interrupt`, which is also a C++
  // word (lint SYMRSVDWORD): the one documented waiver of this file.
  /* verilator lint_off SYMRSVDWORD */
  output logic interrupt,
  /* verilator lint_on SYMRSVDWORD */
  // AXI4 master
)";
  o += ax_port_decls(mp, "AW", m.addr_bits, m.id_bits);
  o += fmt::format(R"(  output logic {0}WVALID,
  input  logic {0}WREADY,
  output logic [{2}*8-1:0] {0}WDATA,
  output logic [{2}-1:0] {0}WSTRB,
  output logic {0}WLAST,
  input  logic {0}BVALID,
  output logic {0}BREADY,
  input  logic [1:0] {0}BRESP,
  input  logic [{1}-1:0] {0}BID,
)",
                   mp, m.id_bits, ctx.axi_data_bytes());
  o += ax_port_decls(mp, "AR", m.addr_bits, m.id_bits);
  o += fmt::format(R"(  input  logic {0}RVALID,
  output logic {0}RREADY,
  input  logic [{2}*8-1:0] {0}RDATA,
  input  logic [1:0] {0}RRESP,
  input  logic {0}RLAST,
  input  logic [{1}-1:0] {0}RID,
  // AXI4-Lite control slave
)",
                   mp, m.id_bits, ctx.axi_data_bytes());
  o += lite_port_decls([&](const LitePort& p) { return sp + lite_axi_name(p); }, std::to_string(a.control.addr_bits));
  o += fmt::format(R"(
);

  localparam int AxiAddrW    = tpu_axi_pkg::ADDR_W;
  localparam int AxiIdW      = tpu_axi_pkg::ID_W;
  localparam int DataBytes   = tpu_axi_pkg::DATA_BYTES;
  localparam int ImemBytes   = ImemBeat * 8;
  localparam int RdBytes     = DMA_WORDS * VW / 8;
  localparam int WrBytes     = CBeat * VW / 8;
  localparam int AlignW      = $clog2(DataBytes);

)");

  // --- Control slave ---------------------------------------------------------------
  o += "  // --- Control ----------------------------------------------------------------------\n";
  for (const auto& r : a.control.registers)
    for (const auto& f : r.fields)
      if (f.access != FieldAccess::Ro) o += fmt::format("  logic {}{};\n", width_decl(f.width), f.name);
  o += fmt::format(R"(  logic core_busy, core_done, core_rst_n;
  logic [tpu_pkg::FAULT_W-1:0]    core_fault;
  logic [tpu_pkg::UNIT_W-1:0]     core_fault_unit;
  logic [tpu_pkg::FAULT_PC_W-1:0] core_fault_pc;
  logic [31:0] core_cycles;
  logic start_taken, core_start, done_event, bases_aligned;
  logic base_error, rresp_error, bresp_error, rd_err_imem, rd_err_ops, wr_err;
  logic [8:0] rd_words_imem, rd_words_ops;  // the core's reads commit no bursts (run_i 0)
  logic rd_committed_imem, rd_committed_ops;
)");
  for (const auto& b : bases) o += fmt::format("  logic [AxiAddrW-1:0] {};\n", b);
  o += "\n";
  for (const auto& b : bases) o += fmt::format("  assign {0} = AxiAddrW'({{{0}_hi, {0}_lo}});\n", b);
  std::vector<std::string> align_terms;
  for (const auto& b : bases) align_terms.push_back(fmt::format("({}[AlignW-1:0] == '0)", b));
  o += fmt::format("  assign bases_aligned = {};\n\n", fmt::join(align_terms, "\n                       & "));

  o += fmt::format("  tpu_axi_ctrl #(\n    .AddrW({})\n  ) u_ctrl (\n    .clk_i(ap_clk),\n    .rst_ni(ap_rst_n),\n",
                   a.control.addr_bits);
  o += lite_port_conns([&](const LitePort& p) { return sp + lite_axi_name(p); });
  std::vector<std::string> conns;
  for (const auto& r : a.control.registers)
    for (const auto& f : r.fields) {
      switch (f.access) {
        case FieldAccess::Ro: {
          const auto it = ro_source.find(f.name);
          if (it == ro_source.end())
            throw Error("axi.spec", fmt::format("read-only field '{}': tpu_axi_top has no signal for it", f.name), f.loc);
          conns.push_back(fmt::format("    .{}_i({})", f.name, it->second));
          break;
        }
        case FieldAccess::Rw: conns.push_back(fmt::format("    .{0}_o({0})", f.name)); break;
        case FieldAccess::W1sHc:
        case FieldAccess::Cor:
        case FieldAccess::Tow: {
          const auto set = set_source.find(f.name);
          if (set == set_source.end())
            throw Error("axi.spec", fmt::format("field '{}' ({}): tpu_axi_top has no event that sets it", f.name,
                                                access_name(f.access)),
                        f.loc);
          conns.push_back(fmt::format("    .{0}_o({0}),\n    .{0}_set_i({1})", f.name, set->second));
          if (f.access == FieldAccess::W1sHc) {
            const auto clr = clear_source.find(f.name);
            if (clr == clear_source.end())
              throw Error("axi.spec", fmt::format("field '{}' (w1s_hc): tpu_axi_top has no event that clears it", f.name),
                          f.loc);
            conns.push_back(fmt::format("    .{}_clear_i({})", f.name, clr->second));
          }
          break;
        }
      }
    }
  o += fmt::format("{}\n  );\n\n", fmt::join(conns, ",\n"));

  o += R"(  // ap_ctrl_hs (tpu_ap_ctrl_hs): a start is taken (ap_ready) when the core
  // can run; it starts the core only with aligned bases, else it ends at once
  // with base_error. The core and the master adapters are held in reset by
  // ap_rst_n or core_reset.
  tpu_ap_ctrl_hs u_ap_ctrl (
    .clk_i(ap_clk),
    .rst_ni(ap_rst_n),
    .ap_start_i(ap_start),
    .core_reset_i(core_reset),
    .gie_i(gie),
    .isr_done_i(isr_done),
    .isr_ready_i(isr_ready),
    .bases_aligned_i(bases_aligned),
    .core_busy_i(core_busy),
    .core_done_i(core_done),
    .core_fault_i(core_fault),
    .rd_err_i(rd_err_imem || rd_err_ops),
    .wr_err_i(wr_err),
    .start_taken_o(start_taken),
    .core_start_o(core_start),
    .done_event_o(done_event),
    .interrupt_o(interrupt),
    .core_rst_no(core_rst_n),
    .base_error_o(base_error),
    .rresp_error_o(rresp_error),
    .bresp_error_o(bresp_error)
  );

)";

  // --- Core ----------------------------------------------------------------------------
  o += "  // --- Core -----------------------------------------------------------------------------\n";
  // The memory ports' signals, and their connections to u_core.
  std::vector<std::string> mem_conns;
  for (const auto& [itf, prefix] : kCoreMemories)
    for (const PortDecl& p : interface_ports(ctx.spec(), itf)) {
      const std::string net =
          std::string(prefix) + p.name.substr(itf.size(), p.name.size() - itf.size() - 2);  // less _i / _o
      o += fmt::format("  {} {};\n", p.type, net);
      mem_conns.push_back(fmt::format("    .{}({})", p.name, net));
    }
  o += R"(  logic [tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W-1:0] core_progress;
  logic [tpu_pkg::NHDR*tpu_pkg::WORD_W-1:0] core_header;

  tpu_top #(
)";
  {
    std::vector<std::string> ps = core_parameters(ctx);
    for (const char* n : {"VW", "AW", "ImemBeat", "CBeat", "Watchdog"}) ps.emplace_back(n);
    for (std::size_t i = 0; i < ps.size(); ++i) o += fmt::format("    .{0}({0}){1}\n", ps[i], i + 1 < ps.size() ? "," : "");
  }
  o += R"(  ) u_core (
    .clk_i(ap_clk),
    .rst_ni(core_rst_n),
    .start_i(core_start),
    .busy_o(core_busy),
    .done_o(core_done),
    .fault_o(core_fault),
    .fault_pc_o(core_fault_pc),
    .fault_unit_o(core_fault_unit),
    .progress_o(core_progress),
    .header_o(core_header),
    .cycles_o(core_cycles),
)";
  o += fmt::format("{}\n  );\n\n", fmt::join(mem_conns, ",\n"));

  // --- Streams ---------------------------------------------------------------------------
  auto adapter_params = [&](const std::string& bytes, int id) {
    return fmt::format(R"(    .ReqBytes({}),
    .Id({}),
    .AddrW(tpu_axi_pkg::ADDR_W),
    .DataBytes(tpu_axi_pkg::DATA_BYTES),
    .IdW(tpu_axi_pkg::ID_W),
    .MaxBurst(tpu_axi_pkg::MAX_BURST),
    .Boundary(tpu_axi_pkg::BOUNDARY),
    .Outstanding(tpu_axi_pkg::OUTSTANDING)
)",
                       bytes, id);
  };
  // A read stream's adapter: the core's port <port>_req_* / <port>_rsp_* at
  // byte address <port>_addr, its AR request ar_<ar>_* and its R beats
  // r_<ar>_*, its errors rd_err_<ar>.
  auto read_adapter = [&](std::string_view port, std::string_view ar, const std::string& bytes, int id) {
    return "  tpu_axi_rd #(\n" + adapter_params(bytes, id) +
           fmt::format(R"(  ) u_{1}_rd (
    .clk_i(ap_clk),
    .rst_ni(core_rst_n),
    .req_valid_i({0}_req_valid),
    .req_ready_o({0}_req_ready),
    .req_addr_i({0}_addr),
    .cap_i(8'(tpu_axi_pkg::MAX_BURST - 1)),
    .run_i(8'd0),
    .req_words_o(rd_words_{1}),
    .committed_o(rd_committed_{1}),
    .rsp_valid_o({0}_rsp_valid),
    .rsp_ready_i({0}_rsp_ready),
    .rsp_data_o({0}_rsp_data),
    .ar_valid_o(ar_{1}_valid),
    .ar_ready_i(ar_{1}_ready),
    .ar_addr_o(ar_{1}_addr),
    .ar_len_o(ar_{1}_len),
    .ar_size_o(ar_{1}_size),
    .ar_id_o(ar_{1}_id),
    .r_valid_i(r_{1}_valid),
    .r_ready_o(r_{1}_ready),
    .r_data_i({2}RDATA),
    .r_resp_i({2}RRESP),
    .r_last_i({2}RLAST),
    .err_o(rd_err_{1})
  );

)",
                       port, ar, mp);
  };
  o += fmt::format(R"(  // --- Streams ----------------------------------------------------------------------------
  // Byte addresses: base + offset.
  logic [AxiAddrW-1:0] imem_addr, rd_addr, wr_addr;
  assign imem_addr = {0} + AxiAddrW'({{imem_req_addr, 3'b000}});
  assign rd_addr   = (rd_req_sel ? {2} : {1}) + AxiAddrW'(rd_req_addr);
  assign wr_addr   = {3} + AxiAddrW'(wr_req_addr);

  // Read address requests of the two read streams, and their R beats.
  logic ar_imem_valid, ar_imem_ready, ar_ops_valid, ar_ops_ready;
  logic [AxiAddrW-1:0] ar_imem_addr, ar_ops_addr;
  logic [7:0] ar_imem_len, ar_ops_len;
  logic [2:0] ar_imem_size, ar_ops_size;
  logic [AxiIdW-1:0] ar_imem_id, ar_ops_id;
  logic r_imem_valid, r_imem_ready, r_ops_valid, r_ops_ready;

)",
                   imem.bases[0], rd.bases[0], rd.bases[1], wr.bases[0]);
  o += read_adapter("imem", "imem", "ImemBytes", imem.id);
  o += read_adapter("rd", "ops", "RdBytes", rd.id);
  o += fmt::format(R"(  // AR: the two read streams take turns (tpu_rr_arb); a request shown and
  // not yet accepted keeps the grant (AXI: ARVALID and its payload hold until
  // ARREADY).
  logic ar_idx;
  tpu_rr_arb #(
    .N(2),
    .Width(AxiAddrW + 8 + 3 + AxiIdW)
  ) u_ar_arb (
    .clk_i(ap_clk),
    .rst_ni(core_rst_n),
    .valid_i({{ar_ops_valid, ar_imem_valid}}),
    .ready_o({{ar_ops_ready, ar_imem_ready}}),
    .data_i({{ar_ops_addr, ar_ops_len, ar_ops_size, ar_ops_id, ar_imem_addr, ar_imem_len, ar_imem_size, ar_imem_id}}),
    .valid_o({0}ARVALID),
    .ready_i({0}ARREADY),
    .data_o({{{0}ARADDR, {0}ARLEN, {0}ARSIZE, {0}ARID}}),
    .idx_o(ar_idx)
  );
)",
                   mp);
  o += ax_constants(mp, "AR");
  o += fmt::format(R"(
  // R: by ID. Beats of the two IDs may come in any order, even interleaved.
  assign r_imem_valid = {0}RVALID && ({0}RID == AxiIdW'({1}));
  assign r_ops_valid  = {0}RVALID && ({0}RID == AxiIdW'({2}));
  assign {0}RREADY    = ({0}RID == AxiIdW'({1})) ? r_imem_ready : r_ops_ready;

)",
                   mp, imem.id, rd.id);
  o += "  tpu_axi_wr #(\n" + adapter_params("WrBytes", wr.id) + R"(  ) u_c_wr (
    .clk_i(ap_clk),
    .rst_ni(core_rst_n),
    .req_valid_i(wr_req_valid),
    .req_ready_o(wr_req_ready),
    .req_addr_i(wr_addr),
    .cap_i(8'(tpu_axi_pkg::MAX_BURST - 1)),
    .req_data_i(wr_req_data),
    .req_strb_i(wr_req_strb),
    .rsp_valid_o(wr_rsp_valid),
    .rsp_ready_i(wr_rsp_ready),
)";
  o += fmt::format(R"(    .aw_valid_o({0}AWVALID),
    .aw_ready_i({0}AWREADY),
    .aw_addr_o({0}AWADDR),
    .aw_len_o({0}AWLEN),
    .aw_size_o({0}AWSIZE),
    .aw_id_o({0}AWID),
    .w_valid_o({0}WVALID),
    .w_ready_i({0}WREADY),
    .w_data_o({0}WDATA),
    .w_strb_o({0}WSTRB),
    .w_last_o({0}WLAST),
    .b_valid_i({0}BVALID),
    .b_ready_o({0}BREADY),
    .b_resp_i({0}BRESP),
    .err_o(wr_err)
  );
)",
                   mp);
  o += ax_constants(mp, "AW");
  o += fmt::format(R"(
  // The core's progress and header are for the testbench of tpu_top; BID is
  // the one write ID; ap_done and ap_ready are for the host to read; the AR
  // grant's index is on ARID already; the read adapters commit no bursts.
  logic unused_core;
  assign unused_core = ^{{core_progress, core_header, {0}BID, ap_done, ap_ready, ar_idx, rd_words_imem, rd_words_ops,
                         rd_committed_imem, rd_committed_ops}};

endmodule
)",
                   mp);
  return o;
}

}  // namespace tpugen::hdl
