// tpu_seq_agu: the sequencer's address generation unit. For the instruction
// at pc it sums, per AGU target, iv[level] * stride over the terms that name
// that target; tpu_sequencer adds each target's sum to the operand field the
// spec assigns it (tpu_pkg::TARGET_*), keeping FIELD_W bits.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; tpu_sequencer instantiates it (u_agu).
//
// A term whose target is not TARGET_UNUSED and whose level is not open
// (level >= depth_i) is bad: cur_bad_o for the instruction at pc, next_bad_o
// for the one at pc + 1 (an endloop there is then not folded into this
// cycle). Term t of an instruction is its word 1 bits
// [t*TERM_W +: TERM_W], with the target, level and stride subfields at
// tpu_pkg::TERM_*_LSB.
//
// Derived (localparam): NTargets, the targets a term can name.
module tpu_seq_agu #(
  localparam int NTargets = 2 ** tpu_pkg::TERM_TARGET_W
) (
  input  logic [tpu_pkg::AGU_TERMS*tpu_pkg::TERM_W-1:0]    cur_agu_i,   // word 1 at pc: the terms
  input  logic [tpu_pkg::AGU_TERMS*tpu_pkg::TERM_W-1:0]    next_agu_i,  // word 1 at pc + 1
  input  logic [tpu_pkg::LOOP_DEPTH*tpu_pkg::FLD_NR_W-1:0] iv_i,        // iv by loop level
  input  logic [$clog2(tpu_pkg::LOOP_DEPTH + 1)-1:0]       depth_i,     // loops open
  output logic [NTargets*tpu_pkg::FIELD_W-1:0]             add_o,       // per target: the sum of its terms
  output logic                                             cur_bad_o,
  output logic                                             next_bad_o
);

  localparam int FieldW  = tpu_pkg::FIELD_W;
  localparam int NrW     = tpu_pkg::FLD_NR_W;
  localparam int TargetW = tpu_pkg::TERM_TARGET_W;
  localparam int LevelW  = tpu_pkg::TERM_LEVEL_W;
  localparam int StrideW = tpu_pkg::TERM_STRIDE_W;
  localparam int NLevels = 2 ** LevelW;  // levels a term can name

  logic [tpu_pkg::AGU_TERMS*TargetW-1:0] term_target;
  logic [tpu_pkg::AGU_TERMS*FieldW-1:0]  term_add;
  logic [tpu_pkg::AGU_TERMS-1:0]         cur_term_bad, next_term_bad;
  logic [NLevels*NrW-1:0]                level_ivs;  // iv by level, 0 past the stack
  logic                                  unused_next;  // the strides at pc + 1 are not needed

  assign level_ivs = (NLevels*NrW)'(iv_i);

  for (genvar t = 0; t < tpu_pkg::AGU_TERMS; t++) begin : gen_term
    localparam int Lsb = t * tpu_pkg::TERM_W;
    logic [TargetW-1:0] target, next_target;
    logic [LevelW-1:0]  level, next_level;
    logic [StrideW-1:0] stride;
    logic [NrW-1:0]     iv;
    assign target      = cur_agu_i[Lsb + tpu_pkg::TERM_TARGET_LSB +: TargetW];
    assign level       = cur_agu_i[Lsb + tpu_pkg::TERM_LEVEL_LSB +: LevelW];
    assign stride      = cur_agu_i[Lsb + tpu_pkg::TERM_STRIDE_LSB +: StrideW];
    assign next_target = next_agu_i[Lsb + tpu_pkg::TERM_TARGET_LSB +: TargetW];
    assign next_level  = next_agu_i[Lsb + tpu_pkg::TERM_LEVEL_LSB +: LevelW];
    assign iv          = level_ivs[32'(level)*NrW +: NrW];
    assign term_target[t*TargetW +: TargetW] = target;
    assign term_add[t*FieldW +: FieldW]      = FieldW'(iv) * FieldW'(stride);
    assign cur_term_bad[t]  = (32'(target) != 32'(tpu_pkg::TARGET_UNUSED)) && (32'(level) >= 32'(depth_i));
    assign next_term_bad[t] = (32'(next_target) != 32'(tpu_pkg::TARGET_UNUSED)) &&
                              (32'(next_level) >= 32'(depth_i));
  end

  // Per target, the terms that name it, added in FIELD_W bits.
  always_comb begin
    add_o = '0;
    for (int k = 0; k < NTargets; k++) begin
      for (int t = 0; t < tpu_pkg::AGU_TERMS; t++) begin
        if (32'(term_target[t*TargetW +: TargetW]) == k) begin
          add_o[k*FieldW +: FieldW] = add_o[k*FieldW +: FieldW] + term_add[t*FieldW +: FieldW];
        end
      end
    end
  end

  assign unused_next = ^next_agu_i;
  assign cur_bad_o   = |cur_term_bad;
  assign next_bad_o  = |next_term_bad;

endmodule
