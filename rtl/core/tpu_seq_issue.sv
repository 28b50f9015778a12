// tpu_seq_issue: the sequencer's issue control: the decode faults of the
// instruction at pc, whether it runs this cycle, the loop stack and pc.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; tpu_sequencer instantiates it (u_issue) and decides from the
// spec which opcodes are loop and endloop, which are known or retired, and
// which units an instruction reaches (all_room_i: every one has room).
//
// One instruction per cycle from pc, as soon as it is valid (cur_valid_i).
// It faults (cur_fault_o, by priority: FAULT_OPCODE, _RETIRED, _AGU_LEVEL,
// _LOOP_OVERFLOW, _LOOP_UNDERFLOW) or runs, unless stop_i. loop pushes
// {body = pc + 1, iv = 0, trip = nr} (do-while); endloop adds one to iv and
// jumps back while iv < trip, else pops. An endloop at pc + 1 right after an
// instruction other than loop or endloop is taken in the same cycle as it
// (folded), so a loop body of n such instructions issues every n cycles.
// Any other instruction issues (issue_o) when every unit it reaches has room.
//
// Parameters:
//   NInstrMax  the instructions the instruction buffer holds
// Derived (localparam): PcW, the bits of pc.
module tpu_seq_issue #(
  parameter  int NInstrMax = 16,
  localparam int PcW       = $clog2(NInstrMax + 1)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,  // a run starts: pc and the stack clear
  input  logic stop_i,   // the run ends: nothing runs

  // The instruction at pc.
  input  logic                                             cur_valid_i,      // arrived, and pc is inside the program
  input  logic                                             cur_known_i,      // its opcode is one the spec defines
  input  logic                                             cur_retired_i,    // ... and retired
  input  logic                                             cur_loop_i,
  input  logic                                             cur_endloop_i,
  input  logic                                             cur_term_bad_i,   // an AGU term on a level not open
  input  logic [tpu_pkg::FLD_NR_W-1:0]                     cur_nr_i,
  input  logic                                             all_room_i,       // every unit it reaches has room
  // The instruction at pc + 1.
  input  logic                                             next_valid_i,
  input  logic                                             next_endloop_i,
  input  logic                                             next_term_bad_i,

  output logic [tpu_pkg::FAULT_W-1:0]                      cur_fault_o,      // FAULT_NONE or its decode fault
  output logic                                             issue_o,          // it goes to its units
  output logic                                             loop_o,           // a loop runs
  output logic                                             endloop_o,        // an endloop at pc runs
  output logic [PcW-1:0]                                   pc_o,
  output logic [$clog2(tpu_pkg::LOOP_DEPTH + 1)-1:0]       depth_o,          // loops open
  output logic [tpu_pkg::LOOP_DEPTH*tpu_pkg::FLD_NR_W-1:0] iv_o              // iv by level (the AGU's)
);

  localparam int DepthW = $clog2(tpu_pkg::LOOP_DEPTH + 1);
  localparam int NrW    = tpu_pkg::FLD_NR_W;

  logic [tpu_pkg::FAULT_W-1:0] cur_fault;
  logic                        exec, issue, fold, ctl_loop, ctl_endloop, pop_step, back;
  logic [PcW-1:0]              pc_q, pc_d, top_body, endloop_pc;
  logic [DepthW-1:0]           depth_q, depth_d, top_idx;
  logic [NrW-1:0]              top_iv, top_trip;
  logic [tpu_pkg::LOOP_DEPTH*PcW-1:0] stack_body;  // per level: body start, iv, trip
  logic [tpu_pkg::LOOP_DEPTH*NrW-1:0] stack_iv, stack_trip;

  always_comb begin
    if (!cur_known_i) cur_fault = tpu_pkg::FAULT_OPCODE;
    else if (cur_retired_i) cur_fault = tpu_pkg::FAULT_RETIRED;
    else if (cur_term_bad_i) cur_fault = tpu_pkg::FAULT_AGU_LEVEL;
    else if (cur_loop_i && depth_q == DepthW'(tpu_pkg::LOOP_DEPTH)) cur_fault = tpu_pkg::FAULT_LOOP_OVERFLOW;
    else if (cur_endloop_i && depth_q == '0) cur_fault = tpu_pkg::FAULT_LOOP_UNDERFLOW;
    else cur_fault = tpu_pkg::FAULT_NONE;
  end

  // exec: the instruction at pc runs this cycle unless it faults or the run
  // ends; loop and endloop always run, the rest when every target has room.
  // fold: an endloop at pc + 1 runs in the same cycle as the instruction at pc.
  assign exec        = cur_valid_i && (cur_fault == tpu_pkg::FAULT_NONE) && !stop_i;
  assign ctl_loop    = exec && cur_loop_i;
  assign ctl_endloop = exec && cur_endloop_i;
  assign issue       = exec && !cur_loop_i && !cur_endloop_i && all_room_i;
  assign fold        = issue && next_valid_i && next_endloop_i && (depth_q != '0) && !next_term_bad_i;
  assign pop_step    = ctl_endloop || fold;
  assign endloop_pc  = fold ? pc_q + PcW'(1) : pc_q;

  // The loop stack: one register set per level; the top is level depth - 1.
  for (genvar l = 0; l < tpu_pkg::LOOP_DEPTH; l++) begin : gen_level
    logic [PcW-1:0] body_q;
    logic [NrW-1:0] iv_q, trip_q;
    logic           push_here, bump_here;
    assign push_here = ctl_loop && (32'(depth_q) == l);
    assign bump_here = pop_step && back && (32'(top_idx) == l);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        body_q <= '0;
        iv_q   <= '0;
        trip_q <= '0;
      end else if (push_here) begin
        body_q <= pc_q + PcW'(1);
        iv_q   <= '0;
        trip_q <= cur_nr_i;
      end else if (bump_here) begin
        iv_q <= iv_q + NrW'(1);
      end
    end
    assign stack_body[l*PcW +: PcW] = body_q;
    assign stack_iv[l*NrW +: NrW]   = iv_q;
    assign stack_trip[l*NrW +: NrW] = trip_q;
  end

  assign top_idx  = (depth_q == '0) ? '0 : depth_q - DepthW'(1);
  assign top_body = stack_body[32'(top_idx)*PcW +: PcW];
  assign top_iv   = stack_iv[32'(top_idx)*NrW +: NrW];
  assign top_trip = stack_trip[32'(top_idx)*NrW +: NrW];
  assign back     = 32'(top_iv) + 32'd1 < 32'(top_trip);

  always_comb begin
    if (start_i) begin
      pc_d    = '0;
      depth_d = '0;
    end else if (ctl_loop) begin
      pc_d    = pc_q + PcW'(1);
      depth_d = depth_q + DepthW'(1);
    end else if (pop_step && back) begin
      pc_d    = top_body;
      depth_d = depth_q;
    end else if (pop_step) begin
      pc_d    = endloop_pc + PcW'(1);
      depth_d = depth_q - DepthW'(1);
    end else if (issue) begin
      pc_d    = pc_q + PcW'(1);
      depth_d = depth_q;
    end else begin
      pc_d    = pc_q;
      depth_d = depth_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q    <= '0;
      depth_q <= '0;
    end else begin
      pc_q    <= pc_d;
      depth_q <= depth_d;
    end
  end

  assign cur_fault_o = cur_fault;
  assign issue_o     = issue;
  assign loop_o      = ctl_loop;
  assign endloop_o   = ctl_endloop;
  assign pc_o        = pc_q;
  assign depth_o     = depth_q;
  assign iv_o        = stack_iv;

endmodule
