// tpu_dma_wr: dma_st's DRAM writes. It takes a row into a write request
// register, issues it as one aligned beat of CBeat packed words with byte
// strobes, and counts the writes awaiting acknowledgement.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; tpu_dma_st instantiates it (u_wr) with its instruction in
// flight (en_i, word_i) and its row channel.
//
// A row is taken (step_o) when en_i is high, the request register is free
// (empty, or handshaking now) and fewer than MaxWrites writes are
// unacknowledged (counting the one in the request register). The row sits in
// its slot of the beat (word_i modulo CBeat; the data repeats it in every
// slot) and the strobes select that slot's T bytes: the beat's byte address
// is (word_i / CBeat) * CBeat * T. Writes run ahead of their
// acknowledgements by at most MaxWrites; acknowledgements come in order, one
// per write. The request register is a tpu_out_reg (u_req, the row and its
// word index; the beat's address, data and strobes are decoded from them):
// dram_wr_req_valid_o comes from a register and the request holds until the
// handshake (PULP common_cells), which its assertions check.
//
// Parameters:
//   T          operand lanes of a row (bytes of a packed word)
//   CBeat      packed words per write beat (a power of two)
//   MaxWrites  writes taken and not yet acknowledged, at most
//   VW         derived: bits of a row (leave at its default)
module tpu_dma_wr #(
  parameter int T         = 4,
  parameter int CBeat     = 1,
  parameter int MaxWrites = 16,
  parameter int VW        = T * tpu_pkg::OPERAND_BITS
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // the instruction in flight
  input  logic                en_i,                 // rows may be taken
  input  logic [31:0]         word_i,               // packed word index in C of the row taken now
  // rows
  input  logic                valid_i,
  output logic                ready_o,
  input  logic [VW-1:0]       data_i,
  output logic                step_o,               // a row is taken this cycle
  // DRAM write requests
  output logic                dram_wr_req_valid_o,
  input  logic                dram_wr_req_ready_i,
  output logic [31:0]         dram_wr_req_addr_o,   // byte offset, a multiple of CBeat*T
  output logic [CBeat*VW-1:0] dram_wr_req_data_o,   // byte b to addr + b
  output logic [CBeat*T-1:0]  dram_wr_req_strb_o,   // byte b is written iff bit b
  // DRAM write acknowledgements, one per write, in order
  input  logic                dram_wr_rsp_valid_i,
  output logic                dram_wr_rsp_ready_o,
  // status
  output logic                ack_o,                // a write is acknowledged this cycle
  output logic                idle_o                // no write awaits its acknowledgement
);

  localparam int WrCntW = $clog2(MaxWrites + 1);
  localparam int SlotW  = $clog2(CBeat);  // packed word index bits within a beat

  logic              req_valid, req_free, step, ack;
  logic [31:0]       req_word;  // packed word index in C
  logic [VW-1:0]     req_data;
  logic [WrCntW-1:0] pending_q;

  // A step takes a row into the request register.
  assign req_free = !req_valid || dram_wr_req_ready_i;
  assign ready_o  = en_i && req_free && (pending_q != WrCntW'(MaxWrites));
  assign step     = valid_i && ready_o;

  tpu_out_reg #(
    .Width(32 + VW)
  ) u_req (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (step),
    .data_i ({word_i, data_i}),
    .valid_o(req_valid),
    .ready_i(dram_wr_req_ready_i),
    .data_o ({req_word, req_data})
  );
  assign dram_wr_req_valid_o = req_valid;
  assign dram_wr_req_addr_o  = (req_word >> SlotW) * 32'(CBeat * T);
  assign dram_wr_req_data_o  = {CBeat{req_data}};
  for (genvar s = 0; s < CBeat; s++) begin : gen_strb
    assign dram_wr_req_strb_o[s*T +: T] = {T{(req_word & 32'(CBeat - 1)) == 32'(s)}};
  end

  // Acknowledgements, in order: one per write taken.
  assign dram_wr_rsp_ready_o = (pending_q != '0);
  assign ack                 = dram_wr_rsp_valid_i && dram_wr_rsp_ready_o;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pending_q <= '0;
    else pending_q <= pending_q + WrCntW'(step) - WrCntW'(ack);
  end

  assign step_o = step;
  assign ack_o  = ack;
  assign idle_o = (pending_q == '0);

endmodule
