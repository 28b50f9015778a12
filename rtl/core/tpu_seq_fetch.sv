// tpu_seq_fetch: the sequencer's instruction fetch. It requests imem beats
// for a run, keeps the header words, fills the instruction buffer and reads
// the instructions at pc and pc + 1 out of it (each valid once it is inside
// the program and has arrived).
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; tpu_sequencer instantiates it (u_fetch) and passes where the
// header holds the static instruction count (tpu_pkg::HDR_*, from the spec).
//
// A one-entry request register (u_req, a tpu_out_reg: the request holds
// until the handshake); beats counted per run. A run fetches
// NHDR + IWORDS * n_instr words, n_instr from the header word CountWord (the
// response carrying it gives it a cycle early); before that word arrives it
// requests the header and the first instruction. A start while requests of
// an earlier run are unanswered drops their responses. Every response beat
// has its place in the buffer: imem_rsp_ready_o is always high. Word h of
// the header arrives in beat h / ImemBeat, slot h % ImemBeat; word w of
// instruction i is imem word NHDR + IWORDS * i + w.
//
// Parameters:
//   IMEM_SIZE  instruction memory depth in 64-bit words, header included
//   ImemBeat   64-bit words per imem beat
//   CountWord  the header word holding the static instruction count,
//   CountLsb   its lowest bit in that word,
//   CountBits  and its width (tpu_sequencer sets all three)
// Derived (localparam): NInstrMax, the instructions imem holds, and PcW, the
// bits of pc.
module tpu_seq_fetch #(
  parameter  int IMEM_SIZE = 56,
  parameter  int ImemBeat  = 8,
  parameter  int CountWord = 0,
  parameter  int CountLsb  = 0,
  parameter  int CountBits = 16,
  localparam int NInstrMax = (IMEM_SIZE - tpu_pkg::NHDR) / tpu_pkg::IWORDS,
  localparam int PcW       = $clog2(NInstrMax + 1)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,  // a run starts (ignored words of earlier runs are dropped)
  input  logic busy_i,   // a run is on: keep fetching

  // imem: beat requests (word index of the beat), responses in order.
  output logic                                imem_req_valid_o,
  input  logic                                imem_req_ready_i,
  output logic [15:0]                         imem_req_addr_o,
  input  logic                                imem_rsp_valid_i,
  output logic                                imem_rsp_ready_o,
  input  logic [tpu_pkg::WORD_W*ImemBeat-1:0] imem_rsp_data_i,

  // What has arrived of this run.
  output logic                                     count_known_o,  // n_instr_o is valid
  output logic                                     hdr_known_o,    // hdr_words_o is complete
  output logic [CountBits-1:0]                     n_instr_o,      // the static instruction count
  output logic [tpu_pkg::NHDR*tpu_pkg::WORD_W-1:0] hdr_words_o,    // the header words
  output logic                                     active_o,       // a request or response handshook (watchdog)

  // The instructions at pc and pc + 1 (zero past the buffer), and whether
  // each is in the program and has arrived.
  input  logic [PcW-1:0]                             pc_i,
  output logic [tpu_pkg::IWORDS*tpu_pkg::WORD_W-1:0] cur_raw_o,
  output logic                                       cur_valid_o,
  output logic [tpu_pkg::IWORDS*tpu_pkg::WORD_W-1:0] next_raw_o,
  output logic                                       next_valid_o
);

  localparam int WordW     = tpu_pkg::WORD_W;
  localparam int InstrBits = tpu_pkg::IWORDS * WordW;  // one instruction in imem
  localparam int NBeats    = (IMEM_SIZE + ImemBeat - 1) / ImemBeat;
  localparam int BeatW     = $clog2(NBeats + 1);
  localparam int CountBeat = CountWord / ImemBeat;
  localparam int CountSlot = CountWord % ImemBeat;

  logic                         req_valid;
  logic [BeatW-1:0]             req_beat;     // the beat in the request register
  logic [BeatW-1:0]             next_beat_q;  // the next beat of this run to request
  logic [BeatW-1:0]             rsp_beat_q;   // beats of this run received
  logic [BeatW-1:0]             pending_q;    // requests loaded and not answered, any run
  logic [BeatW-1:0]             drop_q;       // responses still owed to an earlier run
  logic [BeatW-1:0]             fetch_beat;
  logic                         req_fire, req_load, rsp_fire, rsp_take;
  logic [31:0]                  words_rcvd, need_words;
  logic                         count_known, hdr_known;
  logic [CountBits-1:0]         n_instr, rsp_n_instr;
  logic [tpu_pkg::NHDR*WordW-1:0] hdr_words;
  logic [NInstrMax*InstrBits-1:0] ibuf;
  logic                         cur_arrived, next_arrived;  // the words of pc, pc + 1

  assign imem_rsp_ready_o = 1'b1;  // every beat has its place in the buffer
  assign rsp_fire    = imem_rsp_valid_i;
  assign rsp_take    = rsp_fire && (drop_q == '0) && !start_i;
  assign req_fire    = req_valid && imem_req_ready_i;
  assign words_rcvd  = 32'(rsp_beat_q) * 32'(ImemBeat);
  assign count_known = words_rcvd > 32'(CountWord);
  assign hdr_known   = words_rcvd >= 32'(tpu_pkg::NHDR);
  assign n_instr     = hdr_words[CountWord*WordW + CountLsb +: CountBits];
  assign rsp_n_instr = imem_rsp_data_i[CountSlot*WordW + CountLsb +: CountBits];

  // Words to fetch: the header and n_instr instructions once the count is
  // known (from the response carrying it, a cycle early), else the header and
  // the first instruction.
  always_comb begin
    if (count_known) begin
      need_words = 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS) * 32'(n_instr);
    end else if (rsp_take && rsp_beat_q == BeatW'(CountBeat)) begin
      need_words = 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS) * 32'(rsp_n_instr);
    end else begin
      need_words = 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS);
    end
  end

  assign fetch_beat = start_i ? '0 : next_beat_q;
  assign req_load   = (start_i || busy_i) && (fetch_beat < BeatW'(NBeats)) &&
                      (32'(fetch_beat) * 32'(ImemBeat) < need_words) &&
                      (pending_q < BeatW'(NBeats)) && (!req_valid || imem_req_ready_i);

  tpu_out_reg #(
    .Width(BeatW)
  ) u_req (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (req_load),
    .data_i (fetch_beat),
    .valid_o(req_valid),
    .ready_i(imem_req_ready_i),
    .data_o (req_beat)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      next_beat_q <= '0;
      rsp_beat_q  <= '0;
      pending_q   <= '0;
      drop_q      <= '0;
    end else begin
      if (req_load) next_beat_q <= fetch_beat + BeatW'(1);
      else if (start_i) next_beat_q <= '0;
      if (start_i) rsp_beat_q <= '0;
      else if (rsp_take) rsp_beat_q <= rsp_beat_q + BeatW'(1);
      pending_q <= pending_q + BeatW'(req_load) - BeatW'(rsp_fire);
      if (start_i) drop_q <= pending_q - BeatW'(rsp_fire);
      else if (rsp_fire && drop_q != '0) drop_q <= drop_q - BeatW'(1);
    end
  end

  assign imem_req_valid_o = req_valid;
  assign imem_req_addr_o  = 16'(32'(req_beat) * 32'(ImemBeat));

  // Header words: word h arrives in beat h / ImemBeat, slot h % ImemBeat.
  for (genvar h = 0; h < tpu_pkg::NHDR; h++) begin : gen_header
    logic [WordW-1:0] word_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        word_q <= '0;
      end else if (rsp_take && rsp_beat_q == BeatW'(h / ImemBeat)) begin
        word_q <= imem_rsp_data_i[(h % ImemBeat)*WordW +: WordW];
      end
    end
    assign hdr_words[h*WordW +: WordW] = word_q;
  end

  // Instruction buffer: word w of instruction i is imem word
  // NHDR + IWORDS * i + w.
  for (genvar i = 0; i < NInstrMax; i++) begin : gen_ibuf
    for (genvar w = 0; w < tpu_pkg::IWORDS; w++) begin : gen_word
      localparam int Addr = tpu_pkg::NHDR + i * tpu_pkg::IWORDS + w;
      logic [WordW-1:0] word_q;
      always_ff @(posedge clk_i) begin
        if (rsp_take && rsp_beat_q == BeatW'(Addr / ImemBeat)) begin
          word_q <= imem_rsp_data_i[(Addr % ImemBeat)*WordW +: WordW];
        end
      end
      assign ibuf[(i*tpu_pkg::IWORDS + w)*WordW +: WordW] = word_q;
    end
  end

  // Entry `index` of the buffer as an AND-OR mux; zero past the end.
  function automatic logic [InstrBits-1:0] ibuf_read(input logic [NInstrMax*InstrBits-1:0] entries,
                                                     input logic [PcW-1:0] index);
    ibuf_read = '0;
    for (int i = 0; i < NInstrMax; i++) begin
      ibuf_read = ibuf_read | (entries[i*InstrBits +: InstrBits] & {InstrBits{32'(index) == i}});
    end
  endfunction

  assign cur_raw_o    = ibuf_read(ibuf, pc_i);
  assign next_raw_o   = ibuf_read(ibuf, pc_i + PcW'(1));
  assign cur_arrived  = words_rcvd >= 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS) * (32'(pc_i) + 32'd1);
  assign next_arrived = words_rcvd >= 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS) * (32'(pc_i) + 32'd2);
  assign cur_valid_o  = busy_i && count_known && (32'(pc_i) < 32'(n_instr)) && cur_arrived;
  assign next_valid_o = (32'(pc_i) + 32'd1 < 32'(n_instr)) && next_arrived;

  assign count_known_o = count_known;
  assign hdr_known_o   = hdr_known;
  assign n_instr_o     = n_instr;
  assign hdr_words_o   = hdr_words;
  assign active_o      = req_fire || rsp_fire;

endmodule
