// sequencer_tb: a functional testbench for the generated tpu_sequencer (Icarus).
//
// Hand-written for the shipped spec's dispatched units (dma_ld, spm, vru,
// accu, dma_st). It serves imem from a $readmemh image (one 64-bit word a
// line, IMEM_SIZE lines), accepts every dispatch, and logs each dispatched
// instruction to a file. The units are stand-ins that do their work the
// moment they accept an instruction: each adds the instruction's steps to its
// progress counter, and spm's mm also counts the array's instruction and its
// nr rows (mm_count, mm_rows), so done_o rises when the program's work
// matches its header.
//
// Plusargs:
//   +image=<file>  the imem image (required)
//   +log=<file>    the dispatch log (required)
//   +stress=1      random imem latency (0..3) and backpressure on imem and on
//                  every dispatch port, units busy 0..3 cycles after an
//                  accept (idle_i low); +seed=<n> seeds it
//   +stall=<unit>  that unit (0 dma_ld .. 4 dma_st) never accepts
//   +runs=<n>      run the program n times back to back (default 1)
//
// Log lines:
//   RUN <k>
//   D <unit> <op> <f0> <f1> <f2> <f3> <nr> <steps>
//   DONE <cycles_o> <first>    first: cycles from start_i to the first dispatch
//   FAULT <code> <pc> <unit> <cycles_o>
//   TIMEOUT
module sequencer_tb #(
  parameter int T         = 4,
  parameter int IMEM_SIZE = 56,
  parameter int ImemBeat  = 8,
  parameter int Watchdog  = 256
);
`include "tb_common.svh"
`include "tb_memory.svh"

  localparam int NUnits  = 5;
  localparam int WordW   = tpu_pkg::WORD_W;
  localparam int CountW  = tpu_pkg::COUNT_W;
  localparam int InstrW  = tpu_pkg::INSTR_W;
  localparam int QDepth  = 64;
  localparam int Timeout = 200000;
  localparam int ImemWords = IMEM_SIZE;

  // Plusargs.
  reg [8*512-1:0] image_file, log_file;
  integer stress, stall, runs, seed, log_fd;

  // DUT ports.
  logic                                     start, clear;
  logic                                     busy, done;
  logic [3:0]                               fault, fault_unit;
  logic [15:0]                              fault_pc;
  logic [tpu_pkg::NHDR*WordW-1:0]           header;
  logic [31:0]                              cycles;
  `TB_IMEM_SIGNALS
  logic [NUnits-1:0]                        valid, ready;
  logic [InstrW-1:0]                        instr [NUnits];
  logic [tpu_pkg::N_PROGRESS*CountW-1:0]    progress;
  logic                                     idle, activity;

  tpu_sequencer #(
    .T        (T),
    .IMEM_SIZE(IMEM_SIZE),
    .ImemBeat (ImemBeat),
    .Watchdog (Watchdog)
  ) u_dut (
    .clk_i               (clk),
    .rst_ni              (rst_n),
    .start_i             (start),
    .clear_o             (clear),
    .busy_o              (busy),
    .done_o              (done),
    .fault_o             (fault),
    .fault_pc_o          (fault_pc),
    .fault_unit_o        (fault_unit),
    .header_o            (header),
    .cycles_o            (cycles),
    `TB_IMEM_PORTS,
    .dma_ld_instr_valid_o(valid[0]),
    .dma_ld_instr_ready_i(ready[0]),
    .dma_ld_instr_o      (instr[0]),
    .spm_instr_valid_o   (valid[1]),
    .spm_instr_ready_i   (ready[1]),
    .spm_instr_o         (instr[1]),
    .vru_instr_valid_o   (valid[2]),
    .vru_instr_ready_i   (ready[2]),
    .vru_instr_o         (instr[2]),
    .accu_instr_valid_o  (valid[3]),
    .accu_instr_ready_i  (ready[3]),
    .accu_instr_o        (instr[3]),
    .dma_st_instr_valid_o(valid[4]),
    .dma_st_instr_ready_i(ready[4]),
    .dma_st_instr_o      (instr[4]),
    .progress_i          (progress),
    .idle_i              (idle),
    .activity_i          (activity)
  );

  function automatic [8*8-1:0] unit_name(input integer u);
    case (u)
      0: unit_name = "dma_ld";
      1: unit_name = "spm";
      2: unit_name = "vru";
      3: unit_name = "accu";
      default: unit_name = "dma_st";
    endcase
  endfunction

  function automatic integer progress_index(input integer u);
    case (u)
      0: progress_index = tpu_pkg::PROGRESS_DMA_LD_ROWS;
      1: progress_index = tpu_pkg::PROGRESS_SPM_ROWS;
      2: progress_index = tpu_pkg::PROGRESS_VRU_WORDS;
      3: progress_index = tpu_pkg::PROGRESS_ACCU_ITERATIONS;
      default: progress_index = tpu_pkg::PROGRESS_DMA_ST_ROWS;
    endcase
  endfunction

  function automatic bit chance(input integer percent);
    chance = ($unsigned($random(seed)) % 100) < percent;
  endfunction

  // ---------------------------------------------------------------------------
  // imem: requests queue with their due cycle; responses in order.
  // ---------------------------------------------------------------------------
  logic [63:0] imem [ImemWords];
  integer      q_addr [QDepth];
  integer      q_due  [QDepth];
  integer      q_head, q_count;
  `TB_IMEM_BEAT

  always @(posedge clk) begin
    if (!rst_n) begin
      q_head         = 0;
      q_count        = 0;
      imem_rsp_valid <= 1'b0;
      imem_rsp_data  <= '0;
      imem_req_ready <= 1'b0;
    end else begin
      if (imem_rsp_valid && imem_rsp_ready) begin
        q_head  = (q_head + 1) % QDepth;
        q_count = q_count - 1;
      end
      if (imem_req_valid && imem_req_ready) begin
        if (imem_req_addr % ImemBeat != 0) $fatal(1, "imem request at word %0d, not a beat boundary", imem_req_addr);
        if (q_count == QDepth) $fatal(1, "imem queue overflow");
        q_addr[(q_head + q_count) % QDepth] = imem_req_addr;
        q_due[(q_head + q_count) % QDepth]  = cycle + 1 + (stress ? ($unsigned($random(seed)) % 4) : 0);
        q_count = q_count + 1;
      end
      if (q_count > 0 && q_due[q_head] <= cycle + 1) begin
        imem_rsp_valid <= 1'b1;
        imem_rsp_data  <= imem_beat(q_addr[q_head]);
      end else begin
        imem_rsp_valid <= 1'b0;
      end
      imem_req_ready <= stress ? chance(70) : 1'b1;
    end
  end

  // ---------------------------------------------------------------------------
  // Stand-in units: accept, log, count.
  // ---------------------------------------------------------------------------
  integer count [tpu_pkg::N_PROGRESS];
  integer gap;
  logic   moved;

  for (genvar p = 0; p < tpu_pkg::N_PROGRESS; p++) begin : gen_progress
    assign progress[p*CountW +: CountW] = CountW'(count[p]);
  end
  assign idle     = (gap == 0);
  assign activity = moved || (gap != 0);  // a unit "works" through its gap

  task automatic clear_counts;
    for (int p = 0; p < tpu_pkg::N_PROGRESS; p++) count[p] = 0;
  endtask

  always @(posedge clk) begin
    if (!rst_n) begin
      clear_counts();
      gap   = 0;
      ready <= '0;
      moved <= 1'b0;
    end else begin
      moved <= 1'b0;
      // The units clear their counters when the sequencer takes a start.
      if (clear) clear_counts();
      if (gap > 0) gap = gap - 1;
      for (int u = 0; u < NUnits; u++) begin
        if (valid[u] && ready[u]) begin
          $fdisplay(log_fd, "D %0s %0d %0d %0d %0d %0d %0d %0d", unit_name(u),
                    instr[u][tpu_pkg::INSTR_OP_LSB +: tpu_pkg::FLD_OP_W],
                    instr[u][tpu_pkg::INSTR_F0_LSB +: tpu_pkg::FIELD_W],
                    instr[u][tpu_pkg::INSTR_F1_LSB +: tpu_pkg::FIELD_W],
                    instr[u][tpu_pkg::INSTR_F2_LSB +: tpu_pkg::FIELD_W],
                    instr[u][tpu_pkg::INSTR_F3_LSB +: tpu_pkg::FIELD_W],
                    instr[u][tpu_pkg::INSTR_NR_LSB +: tpu_pkg::FLD_NR_W],
                    instr[u][tpu_pkg::INSTR_STEPS_LSB +: CountW]);
          count[progress_index(u)] = count[progress_index(u)] + instr[u][tpu_pkg::INSTR_STEPS_LSB +: CountW];
          if (u == 1 && instr[u][tpu_pkg::INSTR_OP_LSB +: tpu_pkg::FLD_OP_W] == tpu_pkg::OP_MM) begin
            count[tpu_pkg::PROGRESS_MM_COUNT] = count[tpu_pkg::PROGRESS_MM_COUNT] + 1;
            count[tpu_pkg::PROGRESS_MM_ROWS]  = count[tpu_pkg::PROGRESS_MM_ROWS] +
                                                instr[u][tpu_pkg::INSTR_NR_LSB +: tpu_pkg::FLD_NR_W];
          end
          moved <= 1'b1;
          if (stress) gap = gap > 3 ? gap : ($unsigned($random(seed)) % 4);
        end
      end
      for (int u = 0; u < NUnits; u++) ready[u] <= (u == stall) ? 1'b0 : (stress ? chance(70) : 1'b1);
    end
  end

  // ---------------------------------------------------------------------------
  // Stream rules: a valid that was not taken stays up with its data.
  // ---------------------------------------------------------------------------
  logic              req_stalled;
  logic [15:0]       req_addr_held;
  logic [NUnits-1:0] stalled;
  logic [InstrW-1:0] held [NUnits];

  always @(posedge clk) begin
    if (!rst_n) begin
      req_stalled <= 1'b0;
      stalled     <= '0;
    end else begin
      if (req_stalled && (!imem_req_valid || imem_req_addr != req_addr_held))
        $fatal(1, "imem request dropped or changed before its handshake");
      req_stalled   <= imem_req_valid && !imem_req_ready;
      req_addr_held <= imem_req_addr;
      for (int u = 0; u < NUnits; u++) begin
        if (stalled[u] && (!valid[u] || instr[u] != held[u]))
          $fatal(1, "%0s: dispatch dropped or changed before its handshake", unit_name(u));
        stalled[u] <= valid[u] && !ready[u];
        held[u]    <= instr[u];
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Runs.
  // ---------------------------------------------------------------------------
  integer run, start_cyc, first;

  initial begin
    if (!$value$plusargs("image=%s", image_file)) $fatal(1, "+image=<file> is required");
    if (!$value$plusargs("log=%s", log_file)) $fatal(1, "+log=<file> is required");
    if (!$value$plusargs("stress=%d", stress)) stress = 0;
    if (!$value$plusargs("stall=%d", stall)) stall = -1;
    if (!$value$plusargs("runs=%d", runs)) runs = 1;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    $readmemh(image_file, imem, 0, IMEM_SIZE - 1);
    log_fd = $fopen(log_file, "w");
    start = 1'b0;
    repeat (3) @(posedge clk);
    rst_n <= 1'b1;
    for (run = 0; run < runs; run++) begin
      repeat (2) @(posedge clk);
      $fdisplay(log_fd, "RUN %0d", run);
      start     <= 1'b1;
      start_cyc = cycle + 1;  // start_i is high in the next cycle
      first     = -1;
      @(posedge clk);
      start <= 1'b0;
      // From the cycle after start_i: done_o and fault_o of the last run are
      // cleared by then.
      do begin
        @(posedge clk);
        if (first < 0 && valid != '0) first = cycle - start_cyc;
      end while (!done && fault == tpu_pkg::FAULT_NONE && cycle - start_cyc < Timeout);
      if (done) $fdisplay(log_fd, "DONE %0d %0d", cycles, first);
      else if (fault != tpu_pkg::FAULT_NONE)
        $fdisplay(log_fd, "FAULT %0d %0d %0d %0d", fault, fault_pc, fault_unit, cycles);
      else $fdisplay(log_fd, "TIMEOUT");
      // Let what was dispatched before the end drain (a stalled unit never does).
      repeat (32) @(posedge clk);
    end
    $fclose(log_fd);
    $finish;
  end

endmodule
