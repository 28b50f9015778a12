// tpu_dma_rd: dma_ld's DRAM reads. It issues a read request per step from a
// request register, remembers each request's tag (route and packed word) in
// order, picks the packed word out of each response and queues the row with
// its route.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; tpu_dma_ld instantiates it (u_rd) with its instruction in
// flight (en_i, sel_i, addr_i, route_i, word_i) and routes each row to its
// channel (out_*).
//
// A step (step_o) loads the request register when en_i is high, the
// register is free (empty, or handshaking now) and there is a credit: the
// requests not yet answered plus the rows queued stay within QD, so neither
// the tag FIFO nor the row FIFO ever refuses and a response is taken as soon
// as its row has room. Responses come in request order. The request
// register is a tpu_out_reg (u_req): dram_rd_req_valid_o comes from a
// register and the request holds until the handshake (PULP common_cells),
// which its assertions check.
//
// Parameters:
//   VW         bits of a row (a packed word)
//   DMA_WORDS  packed words of a response
//   QD         requests in flight plus rows queued, at most (the depth of
//              both FIFOs)
//   RouteW     bits of a route (the channel a row leaves on)
// Derived (localparam): WordW, the bits of a packed word's index.
module tpu_dma_rd #(
  parameter  int VW        = 32,
  parameter  int DMA_WORDS = 1,
  parameter  int QD        = 16,
  parameter  int RouteW    = 1,
  localparam int WordW     = (DMA_WORDS > 1) ? $clog2(DMA_WORDS) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // the instruction in flight
  input  logic                    en_i,                 // rows may be requested
  input  logic                    sel_i,                // the matrix of the next request
  input  logic [31:0]             addr_i,               // its byte address
  input  logic [RouteW-1:0]       route_i,              // the channel its row leaves on
  input  logic [WordW-1:0]        word_i,               // its packed word within the response
  output logic                    step_o,               // a request is loaded this cycle
  // DRAM read requests and responses (in order)
  output logic                    dram_rd_req_valid_o,
  input  logic                    dram_rd_req_ready_i,
  output logic                    dram_rd_req_sel_o,
  output logic [31:0]             dram_rd_req_addr_o,
  input  logic                    dram_rd_rsp_valid_i,
  output logic                    dram_rd_rsp_ready_o,
  input  logic [DMA_WORDS*VW-1:0] dram_rd_rsp_data_i,
  // rows with their routes, in request order
  output logic                    out_valid_o,
  input  logic                    out_ready_i,          // the row's channel takes it
  output logic [RouteW-1:0]       out_route_o,
  output logic [VW-1:0]           out_row_o,
  output logic                    out_pop_o,            // a row leaves this cycle
  // status
  output logic                    idle_o                // no request, tag or row inside
);

  localparam int TagW    = RouteW + WordW;
  localparam int QdCntW  = $clog2(QD + 1);
  localparam int CreditW = QdCntW + 1;

  logic              req_valid, req_free, credit, step;
  logic              tag_valid, tag_ready, rsp_fire;
  logic [TagW-1:0]   tag_data;
  logic [QdCntW-1:0] tag_usage, out_usage;
  logic [RouteW-1:0] tag_route;
  logic [WordW-1:0]  tag_word;
  logic [VW-1:0]     rsp_row;
  logic              out_ready, out_valid, out_pop;
  logic [RouteW+VW-1:0] out_data;

  // Requests: an output register, loaded by a step, held until the memory
  // takes it.
  assign req_free = !req_valid || dram_rd_req_ready_i;
  assign credit   = (CreditW'(tag_usage) + CreditW'(out_usage)) < (CreditW'(QD) + CreditW'(out_pop));
  assign step     = en_i && req_free && credit;

  tpu_out_reg #(
    .Width(1 + 32)
  ) u_req (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (step),
    .data_i ({sel_i, addr_i}),
    .valid_o(req_valid),
    .ready_i(dram_rd_req_ready_i),
    .data_o ({dram_rd_req_sel_o, dram_rd_req_addr_o})
  );
  assign dram_rd_req_valid_o = req_valid;

  // Tags: route and packed word of every request not yet answered.
  tpu_fifo #(
    .Width(TagW),
    .Depth(QD)
  ) u_tags (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(step),
    .ready_o(tag_ready),
    .data_i ({route_i, word_i}),
    .valid_o(tag_valid),
    .ready_i(rsp_fire),
    .data_o (tag_data),
    .usage_o(tag_usage)
  );
  assign tag_route = tag_data[WordW +: RouteW];
  assign tag_word  = tag_data[WordW-1:0];

  // Responses: pick the packed word, queue the row with its route.
  assign dram_rd_rsp_ready_o = tag_valid && out_ready;
  assign rsp_fire            = dram_rd_rsp_valid_i && dram_rd_rsp_ready_o;
  assign rsp_row             = dram_rd_rsp_data_i[VW*32'(tag_word) +: VW];

  tpu_fifo #(
    .Width(RouteW + VW),
    .Depth(QD)
  ) u_rows (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(rsp_fire),
    .ready_o(out_ready),
    .data_i ({tag_route, rsp_row}),
    .valid_o(out_valid),
    .ready_i(out_ready_i),
    .data_o (out_data),
    .usage_o(out_usage)
  );
  assign out_pop = out_valid && out_ready_i;

  assign step_o      = step;
  assign out_valid_o = out_valid;
  assign out_route_o = out_data[VW +: RouteW];
  assign out_row_o   = out_data[VW-1:0];
  assign out_pop_o   = out_pop;
  assign idle_o      = !req_valid && (tag_usage == '0) && (out_usage == '0);

  // A request is made only with a credit, so the tag FIFO never refuses.
  logic unused_tag_ready;
  assign unused_tag_ready = tag_ready;

endmodule
