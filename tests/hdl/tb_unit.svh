// tb_unit.svh: what the testbenches of the units that take instructions
// share (Icarus -g2012): instruction words built from tpu_pkg's flat
// instr_t layout (tpu_pkg::INSTR_*_LSB), and the ports every such unit has
// (the instruction stream in, progress_o and idle_o out) with their
// connections. Include inside the testbench module after tb_common.svh.

  localparam int IW = tpu_pkg::INSTR_W;
  localparam int CW = tpu_pkg::COUNT_W;

  // One dispatched instruction (tpu_pkg::instr_t, flat).
  function automatic logic [IW-1:0] mk(input logic [tpu_pkg::FLD_OP_W-1:0] op, input int f0, input int f1,
                                       input int f2, input int f3, input int nr, input int steps);
    logic [IW-1:0] w;
    w = '0;
    w[tpu_pkg::INSTR_OP_LSB +: tpu_pkg::FLD_OP_W] = op;
    w[tpu_pkg::INSTR_F0_LSB +: tpu_pkg::FIELD_W] = f0[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_F1_LSB +: tpu_pkg::FIELD_W] = f1[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_F2_LSB +: tpu_pkg::FIELD_W] = f2[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_F3_LSB +: tpu_pkg::FIELD_W] = f3[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_NR_LSB +: tpu_pkg::FLD_NR_W] = nr[tpu_pkg::FLD_NR_W-1:0];
    w[tpu_pkg::INSTR_STEPS_LSB +: tpu_pkg::COUNT_W] = steps[tpu_pkg::COUNT_W-1:0];
    mk = w;
  endfunction

  // The ports every unit has: the instruction stream in, progress and idle out.
  logic          instr_valid, instr_ready;
  logic [IW-1:0] instr;
  logic [CW-1:0] progress;
  logic          idle;

// The unit's clock and its instruction stream (the instance's first
// connections; TB_UNIT_OUT, of tb_common.svh, its last).
`define TB_UNIT_IN \
    `TB_UNIT_CLOCK, \
    `TB_HS_IN(instr, instr), \
    .instr_i(instr)
