// tpu_instr_slot: the instruction a unit has in flight, run one step at a
// time.
//
// Hand-written module of tpugen, copied unchanged into every generated
// configuration; the DRAM movers (dma_ld, dma_st) hold their instruction in
// one (u_cur). Its registers are a tpu_reg (u_q). The unit decodes instr_i itself and gives the slot what the
// spec decides: whether the instruction is the unit's (claim_i), its step
// count and its fields as one flat vector (the unit's concatenation of its
// dec_<field> signals), and each field's value after a step (next_i, from
// fields_o). The slot keeps the steps left.
//
// One step per cycle at most (step_i, which the unit raises only while
// valid_o). The next instruction is taken in the cycle of the last step, so
// consecutive instructions run back to back. An instruction the unit does not
// claim, or with no steps, is consumed and does nothing. The fields are zero
// after reset; fields_o means something only while valid_o.
//
// Parameters:
//   FieldW  bits of the unit's fields together
module tpu_instr_slot #(
  parameter  int FieldW = 1,
  localparam int CountW = tpu_pkg::COUNT_W  // bits of a step count
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // the next instruction, as the unit decodes it
  input  logic              instr_valid_i,
  output logic              instr_ready_o,
  input  logic              claim_i,   // its opcode reaches this unit and its condition holds
  input  logic [CountW-1:0] steps_i,
  input  logic [FieldW-1:0] fields_i,
  // the instruction in flight
  output logic              valid_o,
  output logic [FieldW-1:0] fields_o,
  input  logic              step_i,    // it takes one step this cycle
  input  logic [FieldW-1:0] next_i     // its fields after that step
);

  logic              valid_q, valid_d;
  logic [CountW-1:0] left_q, left_d;  // steps left
  logic [FieldW-1:0] fields_q, fields_d;
  logic              last;  // this cycle's step is the last
  logic              load;  // the next instruction is taken this cycle

  assign last          = step_i && (left_q == CountW'(1));
  assign instr_ready_o = !valid_q || last;
  assign load          = instr_valid_i && instr_ready_o;

  always_comb begin
    if (load) begin
      valid_d  = claim_i && (steps_i != '0);
      left_d   = steps_i;
      fields_d = fields_i;
    end else if (step_i) begin
      valid_d  = !last;
      left_d   = left_q - CountW'(1);
      fields_d = next_i;
    end else begin
      valid_d  = valid_q;
      left_d   = left_q;
      fields_d = fields_q;
    end
  end

  tpu_reg #(
    .Width(1 + CountW + FieldW)
  ) u_q (
    .clk_i,
    .rst_ni,
    .d_i({valid_d, left_d, fields_d}),
    .q_o({valid_q, left_q, fields_q})
  );

  assign valid_o  = valid_q;
  assign fields_o = fields_q;

`ifdef TPU_ASSERT
  tpu_assert_never u_step_while_idle (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (step_i && !valid_q)
  );
`endif

endmodule
