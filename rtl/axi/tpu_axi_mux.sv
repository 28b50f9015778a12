// tpu_axi_mux: NumMasters AXI4 masters joined into one AXI4 master port to
// memory, the ID's top bits telling them apart.
//
// Hand-written primitive of tpugen, copied unchanged into every configuration
// that joins AXI4 masters (the system node joins the memory agent, master 0,
// and the memory mover, master 1: spec/system_node.yaml axi.masters). It uses
// tpu_rr_arb, tpu_out_reg and tpu_fifo of rtl/prim (and, under
// `ifdef TPU_ASSERT, tpu_assert_never and tpu_stream_check).
//
// Master i's ports are the slices i of the s_* vectors (s_ar_addr_i[i*AddrW
// +: AddrW], ...; flat vectors, since Yosys 0.23 takes no multi-dimensional
// packed ports). On the memory port an ID is {i, the master's ID}: MstIdW =
// SlvIdW + $clog2(NumMasters) bits.
//
// AR and AW: each channel arbitrated round robin among the masters showing a
// request (tpu_rr_arb: the master taken last has the lowest priority, so one
// that keeps requesting cannot starve another: a waiting master is taken
// before NumMasters other requests are), the winner's request with its
// prefixed ID loaded into an output register (tpu_out_reg). The memory port's
// valid and payload come from that register: they never depend on m_*_ready_i
// and hold until the handshake (PULP common_cells stream rules). The register
// takes a request while empty or in the cycle it hands its own over, so with
// the memory always ready the channel moves one request a cycle. Latency: a
// request taken from a master in cycle c is on the memory port in c + 1. The
// readys to the masters follow m_*_ready_i combinationally (a pipeline
// register, not a spill register).
//
// W: an AW granted pushes its master's index into a FIFO (depth MaxWTrans:
// the AW bursts whose W beats are still owed); an AW is not granted while the
// FIFO is full (its ready does not count a pop in the same cycle: one-beat
// writes move one a cycle with MaxWTrans >= 2, one every other cycle with 1).
// The oldest index routes W: that master's beats pass through to the memory
// port combinationally (m_w_valid_o is its s_w_valid_i, its s_w_ready_o is
// m_w_ready_i), and the beat with WLAST pops the index. So W bursts leave in
// AW order, each from the cycle after its AW's grant (the cycle its AW is on
// the memory port) at the earliest, and never before the AW is granted: a
// master's W beats wait (s_w_ready_o low) until its AW is granted and the
// bursts before are through. A W beat may reach the memory while its AW waits
// for m_aw_ready_i in the register (AXI allows W before AW at the slave). The
// mux counts no beats: WLAST is the master's.
//
// R and B: routed by the ID's top $clog2(NumMasters) bits to that master with
// the prefix stripped, combinationally (no register, no latency): the
// addressed master's valid is m_*_valid_i, the others' low, and m_*_ready_o
// is the addressed master's ready. Data, response, RLAST and the stripped ID
// go to every master (only the addressed one sees valid). A response whose
// master is not ready blocks the responses behind it to the other masters
// (head of line, as AXI allows: the mux holds no response of its own).
// A response whose prefix names no master (NumMasters not a power of two) is
// taken (ready high) and dropped so the port does not hang; the assertions
// report it.
//
// AxBURST is carried; AxCACHE, AxPROT and AxLOCK are not on these ports.
//
// Assertions (at the end, under `ifdef TPU_ASSERT): an R or B whose ID
// prefix names no master; an AW granted while the W FIFO is full (and the
// FIFO's own: no push while full, no pop while empty); the stream rule of the
// memory port's AR, AW (the output registers' checks) and W.
//
// Parameters:
//   NumMasters  masters joined (>= 2)
//   SlvIdW      bits of each master's AXI ID (>= 1)
//   AddrW       bits of a byte address
//   DataBytes   bytes of the data bus
//   MaxWTrans   AW bursts granted whose W beats are still owed (>= 1)
//   MstIdW      derived: SlvIdW + $clog2(NumMasters), the memory port's ID bits
//               (do not override)
module tpu_axi_mux #(
  parameter int NumMasters = 2,
  parameter int SlvIdW     = 1,
  parameter int AddrW      = 40,
  parameter int DataBytes  = 32,
  parameter int MaxWTrans  = 8,
  parameter int MstIdW     = SlvIdW + $clog2(NumMasters)
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // --- the masters: master i's signals are slice i of each vector ---------------
  // AR
  input  logic [NumMasters-1:0]             s_ar_valid_i,
  output logic [NumMasters-1:0]             s_ar_ready_o,
  input  logic [NumMasters*AddrW-1:0]       s_ar_addr_i,
  input  logic [NumMasters*8-1:0]           s_ar_len_i,
  input  logic [NumMasters*3-1:0]           s_ar_size_i,
  input  logic [NumMasters*2-1:0]           s_ar_burst_i,
  input  logic [NumMasters*SlvIdW-1:0]      s_ar_id_i,
  // R (data, resp, last and id the same for every master)
  output logic [NumMasters-1:0]             s_r_valid_o,
  input  logic [NumMasters-1:0]             s_r_ready_i,
  output logic [NumMasters*DataBytes*8-1:0] s_r_data_o,
  output logic [NumMasters*2-1:0]           s_r_resp_o,
  output logic [NumMasters-1:0]             s_r_last_o,
  output logic [NumMasters*SlvIdW-1:0]      s_r_id_o,
  // AW
  input  logic [NumMasters-1:0]             s_aw_valid_i,
  output logic [NumMasters-1:0]             s_aw_ready_o,
  input  logic [NumMasters*AddrW-1:0]       s_aw_addr_i,
  input  logic [NumMasters*8-1:0]           s_aw_len_i,
  input  logic [NumMasters*3-1:0]           s_aw_size_i,
  input  logic [NumMasters*2-1:0]           s_aw_burst_i,
  input  logic [NumMasters*SlvIdW-1:0]      s_aw_id_i,
  // W
  input  logic [NumMasters-1:0]             s_w_valid_i,
  output logic [NumMasters-1:0]             s_w_ready_o,
  input  logic [NumMasters*DataBytes*8-1:0] s_w_data_i,
  input  logic [NumMasters*DataBytes-1:0]   s_w_strb_i,
  input  logic [NumMasters-1:0]             s_w_last_i,
  // B (resp and id the same for every master)
  output logic [NumMasters-1:0]             s_b_valid_o,
  input  logic [NumMasters-1:0]             s_b_ready_i,
  output logic [NumMasters*2-1:0]           s_b_resp_o,
  output logic [NumMasters*SlvIdW-1:0]      s_b_id_o,
  // --- the memory port ---------------------------------------------------------
  // AR
  output logic                              m_ar_valid_o,
  input  logic                              m_ar_ready_i,
  output logic [AddrW-1:0]                  m_ar_addr_o,
  output logic [7:0]                        m_ar_len_o,
  output logic [2:0]                        m_ar_size_o,
  output logic [1:0]                        m_ar_burst_o,
  output logic [MstIdW-1:0]                 m_ar_id_o,
  // R
  input  logic                              m_r_valid_i,
  output logic                              m_r_ready_o,
  input  logic [DataBytes*8-1:0]            m_r_data_i,
  input  logic [1:0]                        m_r_resp_i,
  input  logic                              m_r_last_i,
  input  logic [MstIdW-1:0]                 m_r_id_i,
  // AW
  output logic                              m_aw_valid_o,
  input  logic                              m_aw_ready_i,
  output logic [AddrW-1:0]                  m_aw_addr_o,
  output logic [7:0]                        m_aw_len_o,
  output logic [2:0]                        m_aw_size_o,
  output logic [1:0]                        m_aw_burst_o,
  output logic [MstIdW-1:0]                 m_aw_id_o,
  // W
  output logic                              m_w_valid_o,
  input  logic                              m_w_ready_i,
  output logic [DataBytes*8-1:0]            m_w_data_o,
  output logic [DataBytes-1:0]              m_w_strb_o,
  output logic                              m_w_last_o,
  // B
  input  logic                              m_b_valid_i,
  output logic                              m_b_ready_o,
  input  logic [1:0]                        m_b_resp_i,
  input  logic [MstIdW-1:0]                 m_b_id_i
);

  localparam int IdxW  = $clog2(NumMasters);         // derived: bits of a master's index
  localparam int DataW = DataBytes * 8;               // derived
  localparam int AxW   = AddrW + 8 + 3 + 2 + SlvIdW;  // derived: a master's AR or AW request

  // Illegal parameters are refused at elaboration by instantiating a module
  // that does not exist (the refusal all three tools here report).
  if ((NumMasters < 2) || (SlvIdW < 1) || (MaxWTrans < 1) || (MstIdW != SlvIdW + IdxW)) begin : g_params_check
    tpu_axi_mux_params_unsupported u_refuse ();
  end

  // --- AR: round robin, then the output register ------------------------------
  // A request as {addr, len, size, burst, id}; the register holds {index, it}.
  logic [NumMasters*AxW-1:0] ar_reqs, aw_reqs;
  for (genvar i = 0; i < NumMasters; i++) begin : g_reqs
    assign ar_reqs[i*AxW +: AxW] = {s_ar_addr_i[i*AddrW +: AddrW], s_ar_len_i[i*8 +: 8], s_ar_size_i[i*3 +: 3],
                                    s_ar_burst_i[i*2 +: 2], s_ar_id_i[i*SlvIdW +: SlvIdW]};
    assign aw_reqs[i*AxW +: AxW] = {s_aw_addr_i[i*AddrW +: AddrW], s_aw_len_i[i*8 +: 8], s_aw_size_i[i*3 +: 3],
                                    s_aw_burst_i[i*2 +: 2], s_aw_id_i[i*SlvIdW +: SlvIdW]};
  end

  logic                ar_arb_valid, ar_arb_ready, ar_load;
  logic [AxW-1:0]      ar_arb_req;
  logic [IdxW-1:0]     ar_arb_idx;
  logic [IdxW+AxW-1:0] ar_q;

  tpu_rr_arb #(
    .N    (NumMasters),
    .Width(AxW)
  ) u_ar_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(s_ar_valid_i),
    .ready_o(s_ar_ready_o),
    .data_i (ar_reqs),
    .valid_o(ar_arb_valid),
    .ready_i(ar_arb_ready),
    .data_o (ar_arb_req),
    .idx_o  (ar_arb_idx)
  );

  // Room: the register is empty or hands its request over this cycle.
  assign ar_arb_ready = !m_ar_valid_o || m_ar_ready_i;
  assign ar_load      = ar_arb_valid && ar_arb_ready;

  tpu_out_reg #(
    .Width(IdxW + AxW)
  ) u_ar (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (ar_load),
    .data_i ({ar_arb_idx, ar_arb_req}),
    .valid_o(m_ar_valid_o),
    .ready_i(m_ar_ready_i),
    .data_o (ar_q)
  );

  assign {m_ar_id_o[MstIdW-1 -: IdxW], m_ar_addr_o, m_ar_len_o, m_ar_size_o, m_ar_burst_o,
          m_ar_id_o[SlvIdW-1:0]} = ar_q;

  // --- AW: round robin, while the W FIFO has room; then the output register ---
  logic                aw_arb_valid, aw_arb_ready, aw_load, wq_ready;
  logic [AxW-1:0]      aw_arb_req;
  logic [IdxW-1:0]     aw_arb_idx;
  logic [IdxW+AxW-1:0] aw_q;

  tpu_rr_arb #(
    .N    (NumMasters),
    .Width(AxW)
  ) u_aw_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(s_aw_valid_i),
    .ready_o(s_aw_ready_o),
    .data_i (aw_reqs),
    .valid_o(aw_arb_valid),
    .ready_i(aw_arb_ready),
    .data_o (aw_arb_req),
    .idx_o  (aw_arb_idx)
  );

  assign aw_arb_ready = (!m_aw_valid_o || m_aw_ready_i) && wq_ready;
  assign aw_load      = aw_arb_valid && aw_arb_ready;

  tpu_out_reg #(
    .Width(IdxW + AxW)
  ) u_aw (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (aw_load),
    .data_i ({aw_arb_idx, aw_arb_req}),
    .valid_o(m_aw_valid_o),
    .ready_i(m_aw_ready_i),
    .data_o (aw_q)
  );

  assign {m_aw_id_o[MstIdW-1 -: IdxW], m_aw_addr_o, m_aw_len_o, m_aw_size_o, m_aw_burst_o,
          m_aw_id_o[SlvIdW-1:0]} = aw_q;

  // --- W: the granted AWs' masters in grant order; the oldest one's beats pass --
  logic                           wq_valid, w_done;
  logic [IdxW-1:0]                w_idx;
  logic [$clog2(MaxWTrans+1)-1:0] wq_usage;

  tpu_fifo #(
    .Width(IdxW),
    .Depth(MaxWTrans)
  ) u_w_order (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(aw_load),
    .ready_o(wq_ready),
    .data_i (aw_arb_idx),
    .valid_o(wq_valid),
    .ready_i(w_done),
    .data_o (w_idx),
    .usage_o(wq_usage)
  );

  // The routed master's beat: its valid gated by the route, its payload
  // selected by index (a mux tree; what it shows without a route is unused).
  logic [NumMasters-1:0] w_sel;
  always_comb begin
    for (int i = 0; i < NumMasters; i++) w_sel[i] = wq_valid && (32'(w_idx) == 32'(i));
  end
  assign m_w_valid_o = |(w_sel & s_w_valid_i);
  assign m_w_data_o  = s_w_data_i[32'(w_idx) * DataW +: DataW];
  assign m_w_strb_o  = s_w_strb_i[32'(w_idx) * DataBytes +: DataBytes];
  assign m_w_last_o  = s_w_last_i[w_idx];
  assign s_w_ready_o = w_sel & {NumMasters{m_w_ready_i}};
  assign w_done      = m_w_valid_o && m_w_ready_i && m_w_last_o;

  // --- R and B: to the master the ID's prefix names, the prefix stripped ------
  logic [IdxW-1:0] r_idx, b_idx;
  logic            r_known, b_known;
  assign r_idx   = m_r_id_i[MstIdW-1 -: IdxW];
  assign b_idx   = m_b_id_i[MstIdW-1 -: IdxW];
  assign r_known = (32'(r_idx) < NumMasters);
  assign b_known = (32'(b_idx) < NumMasters);

  always_comb begin
    m_r_ready_o = !r_known;  // a response to no master is dropped
    m_b_ready_o = !b_known;
    for (int i = 0; i < NumMasters; i++) begin
      s_r_valid_o[i] = m_r_valid_i && (32'(r_idx) == 32'(i));
      s_b_valid_o[i] = m_b_valid_i && (32'(b_idx) == 32'(i));
      if (32'(r_idx) == 32'(i)) m_r_ready_o = s_r_ready_i[i];
      if (32'(b_idx) == 32'(i)) m_b_ready_o = s_b_ready_i[i];
    end
  end

  for (genvar i = 0; i < NumMasters; i++) begin : g_rsp
    assign s_r_data_o[i*DataW +: DataW] = m_r_data_i;
    assign s_r_resp_o[i*2 +: 2]         = m_r_resp_i;
    assign s_r_last_o[i]                = m_r_last_i;
    assign s_r_id_o[i*SlvIdW +: SlvIdW] = m_r_id_i[SlvIdW-1:0];
    assign s_b_resp_o[i*2 +: 2]         = m_b_resp_i;
    assign s_b_id_o[i*SlvIdW +: SlvIdW] = m_b_id_i[SlvIdW-1:0];
  end

  // The FIFO's fill level is its own business (its ready says full).
  logic unused_wq_usage;
  assign unused_wq_usage = ^wq_usage;

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: responses to a master that exists, no AW granted without room
  // for its W route, and the stream rule of the memory port's W (the output
  // registers u_ar and u_aw check AR's and AW's; u_w_order checks its own
  // overflow and underflow).
  // ---------------------------------------------------------------------------
  tpu_assert_never u_r_id_no_master (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (m_r_valid_i && !r_known)
  );
  tpu_assert_never u_b_id_no_master (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (m_b_valid_i && !b_known)
  );
  tpu_assert_never u_w_order_overflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (aw_load && !wq_ready)
  );

  tpu_stream_check #(
    .Width(DataW + DataBytes + 1)
  ) u_check_m_w (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(m_w_valid_o),
    .ready_i(m_w_ready_i),
    .data_i ({m_w_data_o, m_w_strb_o, m_w_last_o})
  );
`endif

endmodule
