// tpu_mem_queue: one engine's queue of pending instructions in a memory unit
// (spm, vru: a 1R1W memory with a write engine and a read engine), oldest at
// the head, and the hazard check against the other engine's queue.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; each memory unit instantiates it twice (u_wq for its write
// engine, u_rq for its read engine) and connects each one's slots to the
// other's other_*_i ports.
//
// An instruction joins (push_i) with what it does on each step (act_i), its
// row range [base_i, hi_i) (wide_i: it runs past the memory, so it meets
// every range), its steps and ExtraW bits the unit keeps with it. The engine
// works on the head, done_o steps in, taking a step when it drives step_i;
// the step that completes the head's steps is last_o, and the next
// instruction is the head from the following cycle. Program order between
// the engines: an arriving instruction records which of the other queue's
// slots hold an earlier pending instruction, and the head may go (go_o) only
// while none of those touches an overlapping range.
//
// Parameters:
//   QD      pending instructions, at most
//   AddrW   bits of a row address
//   ActW    bits of an instruction's action code
//   ExtraW  bits the unit keeps with each instruction
// Derived (localparam): CountW, the bits of a step count (tpu_pkg::COUNT_W,
// a dispatched instruction's steps), and RangeW, the bits of a range's end.
module tpu_mem_queue #(
  parameter  int QD     = 16,
  parameter  int AddrW  = 10,
  parameter  int ActW   = 1,
  parameter  int ExtraW = 1,
  localparam int CountW = tpu_pkg::COUNT_W,
  localparam int RangeW = ((AddrW > CountW) ? AddrW : CountW) + 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // An instruction joins.
  input  logic              push_i,
  input  logic [ActW-1:0]   act_i,
  input  logic [AddrW-1:0]  base_i,
  input  logic [RangeW-1:0] hi_i,     // base + rows
  input  logic              wide_i,   // the range runs past the memory
  input  logic [CountW-1:0] steps_i,
  input  logic [ExtraW-1:0] extra_i,
  output logic              full_o,   // QD pending: no push
  output logic              empty_o,

  // The head.
  input  logic              step_i,   // the engine takes a step on the head
  output logic              valid_o,  // an instruction is pending
  output logic              go_o,     // ... and free of hazards
  output logic              last_o,   // this step is its last
  output logic [ActW-1:0]   act_o,
  output logic [AddrW-1:0]  base_o,
  output logic [CountW-1:0] done_o,   // steps it took
  output logic [ExtraW-1:0] extra_o,

  // The slots, for the other queue's hazard check, and the other queue's.
  output logic [QD-1:0]        slot_valid_o,
  output logic [QD-1:0]        slot_free_o,  // completed this cycle
  output logic [QD*AddrW-1:0]  slot_base_o,
  output logic [QD*RangeW-1:0] slot_hi_o,
  output logic [QD-1:0]        slot_wide_o,
  input  logic [QD-1:0]        other_valid_i,
  input  logic [QD-1:0]        other_free_i,
  input  logic [QD*AddrW-1:0]  other_base_i,
  input  logic [QD*RangeW-1:0] other_hi_i,
  input  logic [QD-1:0]        other_wide_i
);

  localparam int PtrW  = (QD > 1) ? $clog2(QD) : 1;  // slot index
  localparam int QCntW = $clog2(QD + 1);

  // Storage is written when an instruction arrives and needs no reset.
  logic [ActW-1:0]    act_q   [QD];
  logic [CountW-1:0]  steps_q [QD];
  logic [ExtraW-1:0]  extra_q [QD];
  logic [AddrW-1:0]   base_q  [QD];
  logic [RangeW-1:0]  hi_q    [QD];  // base + rows
  logic [QD-1:0]      wide_q;
  logic [QD-1:0]      valid_q, valid_d;  // slot holds a pending instruction
  logic [QD*QD-1:0]   dep_q, dep_d;      // slot i, bit j: other slot j holds an earlier pending instruction
  logic [QD-1:0]      alloc, free;       // slot taken / completed this cycle
  logic [PtrW-1:0]    head_q, tail_q;
  logic [QCntW-1:0]   cnt_q;
  logic [CountW-1:0]  done_q;
  logic [QD-1:0]      dep, conflict;
  logic [AddrW-1:0]   head_base;
  logic [RangeW-1:0]  head_hi;

  function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] ptr);
    if (ptr == PtrW'(QD - 1)) next_ptr = '0;
    else next_ptr = ptr + PtrW'(1);
  endfunction

  // Whether rows [a_lo, a_hi) and [b_lo, b_hi) meet; a wide range meets any.
  function automatic logic overlap(input logic [AddrW-1:0] a_lo, input logic [RangeW-1:0] a_hi,
                                   input logic a_wide, input logic [AddrW-1:0] b_lo,
                                   input logic [RangeW-1:0] b_hi, input logic b_wide);
    overlap = a_wide || b_wide || ((RangeW'(a_lo) < b_hi) && (RangeW'(b_lo) < a_hi));
  endfunction

  always_ff @(posedge clk_i) begin
    if (push_i) begin
      act_q[tail_q]   <= act_i;
      base_q[tail_q]  <= base_i;
      steps_q[tail_q] <= steps_i;
      hi_q[tail_q]    <= hi_i;
      wide_q[tail_q]  <= wide_i;
      extra_q[tail_q] <= extra_i;
    end
  end

  for (genvar i = 0; i < QD; i++) begin : gen_slot
    assign alloc[i] = push_i && (tail_q == PtrW'(i));
    assign free[i]  = last_o && (head_q == PtrW'(i));
    // An arriving instruction is later than every pending one of the other queue.
    assign dep_d[i*QD +: QD] = (alloc[i] ? other_valid_i : dep_q[i*QD +: QD]) & ~other_free_i;
    assign slot_base_o[i*AddrW +: AddrW] = base_q[i];
    assign slot_hi_o[i*RangeW +: RangeW] = hi_q[i];
  end
  assign valid_d = (valid_q & ~free) | alloc;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      dep_q   <= '0;
      head_q  <= '0;
      tail_q  <= '0;
      cnt_q   <= '0;
      done_q  <= '0;
    end else begin
      valid_q <= valid_d;
      dep_q   <= dep_d;
      if (last_o) head_q <= next_ptr(head_q);
      if (push_i) tail_q <= next_ptr(tail_q);
      cnt_q   <= cnt_q + QCntW'(push_i) - QCntW'(last_o);
      done_q  <= last_o ? '0 : done_q + CountW'(step_i);
    end
  end

  // The head waits while an earlier pending instruction of the other queue
  // touches an overlapping range.
  assign head_base = base_q[head_q];
  assign head_hi   = hi_q[head_q];
  assign dep       = dep_q[head_q*QD +: QD];
  for (genvar j = 0; j < QD; j++) begin : gen_hazard
    assign conflict[j] = dep[j] && overlap(head_base, head_hi, wide_q[head_q], other_base_i[j*AddrW +: AddrW],
                                           other_hi_i[j*RangeW +: RangeW], other_wide_i[j]);
  end

  assign full_o       = cnt_q == QCntW'(QD);
  assign empty_o      = cnt_q == '0;
  assign valid_o      = valid_q[head_q];
  assign go_o         = valid_o && (conflict == '0);
  assign last_o       = step_i && ((done_q + CountW'(1)) == steps_q[head_q]);
  assign act_o        = act_q[head_q];
  assign base_o       = head_base;
  assign done_o       = done_q;
  assign extra_o      = extra_q[head_q];
  assign slot_valid_o = valid_q;
  assign slot_free_o  = free;
  assign slot_wide_o  = wide_q;

endmodule
