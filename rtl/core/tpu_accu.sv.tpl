//! tpu_accu's body, after the generated file header: gen/hdl/core/emit_accu.cpp
//! fills it (@NAME@: the spec's memory and channels, the decode table, the
//! port constants; @SLOT_A@/@SLOT_B@ and @EX_A@/@EX_B@ from the two fragments
//! tpu_accu_slot.sv.tpl and tpu_accu_ex.sv.tpl).
//
// The accumulator unit (spec unit `accu`): it owns @MEM@ (NAR rows of T
// ACC_BITS lanes) and runs its dispatched instructions in program order,
// `steps` steps each, counting every step on progress_o. Each opcode is
// decoded from its actions into one micro-operation (the case below):
@OPS@//
// Sums wrap at ACC_BITS; max0 is lane-wise max(x, 0); to_operand saturates
// each lane to [OPERAND_MIN, OPERAND_MAX] (no rounding) on the way to @OUT@.
// A two-step row (two reads on the one read port) holds its first read and
// adds the second on its second step, which also writes.
//
// Pipeline: an instruction is decoded into nx_q, then issues from one of two
// slots, one step per slot per cycle.
//   issue (cycle c):  the @MEM@ read is requested, a @IN@ row is taken
//   ALU   (cycle c+1): read data (a 1-cycle RAM), add, max0; the @MEM@ write
//                      lands at the end of the cycle, an emitted row is
//                      saturated into a OutDepth-deep output FIFO (on @OUT@
//                      from cycle c+2)
// So a step reads in its issue cycle and writes one cycle later. A read
// never issues while the ALU stage writes the same row (a one-cycle
// interlock), so a read sees every write of an earlier step, at any
// distance: the AR_RAW_DIST contract costs nothing and a program that breaks
// it still reads the value written last. Emitting steps issue only with a
// credit in the output FIFO (its usage plus the emit in the ALU stage), so
// nothing after issue ever stalls.
//
// Two issue slots. Slot a holds the oldest unfinished instruction; slot b
// may hold the next one while a is still issuing. An instruction enters b
// only if the exclusive ports it uses and the ones a uses are disjoint
// (exclusive: the rate-1 ports @EXCL@; @ALU_NOTE@);
// it enters a when a frees (b moves up first). The pairs this decode admits
// (older in a, younger in b):
@PAIRS@// Row order between the slots:
//   * b never writes a row that a has still to read (a's rows from its
//     current row on count as unread): b lags a by at least a row, so a
//     reads the old value (write-after-read);
//   * b never reads a row that a has still to write (read-after-write),
//     and the interlock above adds the cycle until the write lands.
// Both slots issue in the same cycle when they can, so two paired
// instructions of M rows each take about M + 1 cycles (write-after-read) or
// M + 2 (read-after-write), not 2M.
//
// Parameters:
//   T    lanes of a row
//   NAR  rows of @MEM@
module tpu_accu #(
  parameter int T   = @T@,
  parameter int NAR = @NAR@
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic                               clear_i,  // a run starts: clear progress_o
  // dispatched instructions: tpu_pkg::instr_t as INSTR_W bits
  input  logic                               instr_valid_i,
  output logic                               instr_ready_o,
  input  logic [tpu_pkg::INSTR_W-1:0]        instr_i,
  // @IN@: rows from the array
  input  logic                               @IN@_valid_i,
  output logic                               @IN@_ready_o,
  input  logic [T*tpu_pkg::ACC_BITS-1:0]     @IN@_data_i,
  // @OUT@: saturated rows
  output logic                               @OUT@_valid_o,
  input  logic                               @OUT@_ready_i,
  output logic [T*tpu_pkg::OPERAND_BITS-1:0] @OUT@_data_o,
  // status
  output logic [tpu_pkg::COUNT_W-1:0]        progress_o,  // tpu_pkg::@PROGRESS@
  output logic                               idle_o
);

  localparam int OpW      = tpu_pkg::OPERAND_BITS;
  localparam int AccW     = tpu_pkg::ACC_BITS;
  localparam int RowW     = T * AccW;
  localparam int CntW     = tpu_pkg::COUNT_W;
  localparam int NrW      = tpu_pkg::FLD_NR_W;
  localparam int AddrW    = (NAR > 1) ? $clog2(NAR) : 1;
  localparam int OffW     = (AddrW > NrW) ? AddrW : NrW;
  // The output FIFO: one row leaving, one in the ALU stage, one issuing,
  // so emitting steps keep one per cycle against a registered credit count.
  localparam int OutDepth = 3;
  localparam int UseW     = $clog2(OutDepth + 1);
  // Exclusive ports: bit positions in uop_t.ports.
  localparam int NPorts   = @NPORTS@;
@PORT_CONSTS@
  // tpu_pkg::instr_t, as a local type (Icarus 11 cannot elaborate a package
  // struct type in a module).
  typedef struct packed {
@INSTR_MEMBERS@  } instr_t;

  // One instruction, decoded.
  typedef struct packed {
    logic [NrW-1:0]    rows;      // nr: the rows it works on
    logic [NPorts-1:0] ports;     // exclusive ports it uses
    logic              two_step;  // two steps per row, the first read held
    logic              cw;        // adds the @IN@ row (one-step rows)
    logic              rd0;       // reads @MEM@[rd0_base + row] on the row's first step
    logic [AddrW-1:0]  rd0_base;
    logic              rd1;       // reads @MEM@[rd1_base + row] on the row's second step
    logic [AddrW-1:0]  rd1_base;
    logic              wr;        // writes @MEM@[wr_base + row] on the row's last step
    logic [AddrW-1:0]  wr_base;
    logic              em;        // emits the saturated row on the row's last step
    logic              relu;      // max(x, 0) before the write or emit
  } uop_t;

  // An issue slot.
  typedef struct packed {
    logic            valid;
    logic            phase;  // two-step rows: the second step is next
    logic [NrW-1:0]  row;    // the row the next step works on
    logic [CntW-1:0] steps;  // steps left
    uop_t            u;
  } slot_t;

  // A step in the ALU stage.
  typedef struct packed {
    logic             valid;
    logic             hold;  // keep the read row for the row's second step
    logic             rd;    // add the read row
    logic             cw;    // add the @IN@ row
    logic             held;  // add the held row
    logic             wr;
    logic [AddrW-1:0] waddr;
    logic             em;
    logic             relu;
  } ex_t;

  // `off`, a row's offset from one of a's bases, is a row a has still to
  // reach: a's next row is `row` of `rows`.
  function automatic logic ahead(input logic [AddrW-1:0] off, input logic [NrW-1:0] row,
                                 input logic [NrW-1:0] rows);
    ahead = (OffW'(off) >= OffW'(row)) && (OffW'(off) < OffW'(rows));
  endfunction

  // ---------------------------------------------------------------------------
  // Decode.
  // ---------------------------------------------------------------------------
  instr_t instr;
  uop_t   dec;
  logic   unused_instr;

  assign instr = instr_i;
  assign unused_instr = ^{@UNUSED@};

  always_comb begin
    dec      = '0;
    dec.rows = instr.nr;
    unique case (instr.op)
@DECODE@      default: begin
        // Not an accu opcode: its steps pass with no effect.
      end
    endcase
  end

  logic            nx_valid_q, nx_valid_d;
  logic [CntW-1:0] nx_steps_q, nx_steps_d;
  uop_t            nx_q, nx_d;
  slot_t a_q, a_d, b_q, b_d;
  ex_t   ex0_q, ex0_d, ex1_q, ex1_d;  // the ALU stage: steps of slots a and b
  logic  take;                        // nx_q moves into a slot

  assign instr_ready_o = !nx_valid_q || take;

  always_comb begin
    nx_valid_d = nx_valid_q && !take;
    nx_steps_d = nx_steps_q;
    nx_d       = nx_q;
    if (instr_valid_i && instr_ready_o) begin
      nx_valid_d = 1'b1;
      nx_steps_d = instr.steps;
      nx_d       = dec;
    end
  end

  // ---------------------------------------------------------------------------
  // Issue.
  // ---------------------------------------------------------------------------
  logic [UseW-1:0] out_usage;   // rows in the output FIFO
  logic            out_credit;  // an emitting step may issue
  logic            b_hazard;    // b's step would break row order against a
  logic            a_go, b_go;  // the slot issues its step

@SLOT_A@
@SLOT_B@
  assign out_credit = (32'(out_usage) + 32'(ex0_q.em || ex1_q.em)) < OutDepth;

  // b against a: read-after-write and write-after-read on the rows a has
  // still to work on.
  assign b_hazard = a_q.valid &&
                    ((a_q.u.wr && b_rd && ahead(b_raddr - a_q.u.wr_base, a_q.row, a_q.u.rows)) ||
                     (a_q.u.rd0 && b_wr && ahead(b_waddr - a_q.u.rd0_base, a_q.row, a_q.u.rows)) ||
                     (a_q.u.rd1 && b_wr && ahead(b_waddr - a_q.u.rd1_base, a_q.row, a_q.u.rows)));

  assign a_go = a_q.valid && (a_q.steps != '0) && (!a_cw || @IN@_valid_i) && (!a_em || out_credit) &&
                !a_rd_wait;
  assign b_go = b_q.valid && (b_q.steps != '0) && (!b_cw || @IN@_valid_i) && (!b_em || out_credit) &&
                !b_rd_wait && !b_hazard;

  assign @IN@_ready_o = (a_go && a_cw) || (b_go && b_cw);

  // Slots: a step moves to the next step; a finished slot frees, b moves up
  // into a free a, and nx_q enters a free slot (b only beside an a whose
  // exclusive ports are disjoint from its own).
  logic  move_up, take_a, take_b;
  slot_t a_keep, b_keep, fresh;
  assign move_up = !a_next.valid && b_next.valid;
  assign a_keep  = move_up ? b_next : a_next;
  assign b_keep  = move_up ? '0 : b_next;
  assign fresh   = {1'b1, 1'b0, NrW'(0), nx_steps_q, nx_q};
  assign take_a  = nx_valid_q && !a_keep.valid;
  assign take_b  = nx_valid_q && a_keep.valid && !b_keep.valid && ((a_keep.u.ports & nx_q.ports) == '0);
  assign take    = take_a || take_b;
  assign a_d     = take_a ? fresh : a_keep;
  assign b_d     = take_b ? fresh : b_keep;

  always_comb begin
@EX_A@@EX_B@  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nx_valid_q <= 1'b0;
      nx_steps_q <= '0;
      nx_q       <= '0;
      a_q        <= '0;
      b_q        <= '0;
      ex0_q      <= '0;
      ex1_q      <= '0;
    end else begin
      nx_valid_q <= nx_valid_d;
      nx_steps_q <= nx_steps_d;
      nx_q       <= nx_d;
      a_q        <= a_d;
      b_q        <= b_d;
      ex0_q      <= ex0_d;
      ex1_q      <= ex1_d;
    end
  end

  // ---------------------------------------------------------------------------
  // @MEM@ and the ALU stage.
  // ---------------------------------------------------------------------------
  logic             ram_we, ram_re;
  logic [AddrW-1:0] ram_waddr, ram_raddr;
  logic [RowW-1:0]  ram_wdata, ram_rdata;
  logic [RowW-1:0]  cw_q;    // the @IN@ row taken at issue
  logic [RowW-1:0]  held_q;  // a two-step row's first read
  logic [RowW-1:0]  x0, y0, v0, x1, y1, v1;  // ALU lanes 0 and 1: operands, result
  logic [T*OpW-1:0] out_row;
  logic             out_push, out_ready_unused;

  assign ram_re    = (a_go && a_rd) || (b_go && b_rd);
  assign ram_raddr = (a_go && a_rd) ? a_raddr : b_raddr;

  tpu_ram_1r1w #(
    .Width(RowW),
    .Depth(NAR)
  ) u_@MEM@ (
    .clk_i  (clk_i),
    .we_i   (ram_we),
    .waddr_i(ram_waddr),
    .wdata_i(ram_wdata),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cw_q   <= '0;
      held_q <= '0;
    end else begin
      if (@IN@_valid_i && @IN@_ready_o) cw_q <= @IN@_data_i;
      if (ex0_q.hold || ex1_q.hold) held_q <= ram_rdata;
    end
  end

  assign x0 = ex0_q.cw ? cw_q : (ex0_q.held ? held_q : '0);
  assign y0 = ex0_q.rd ? ram_rdata : '0;
  assign x1 = ex1_q.cw ? cw_q : (ex1_q.held ? held_q : '0);
  assign y1 = ex1_q.rd ? ram_rdata : '0;

  for (genvar l = 0; l < T; l++) begin : gen_lane
    logic [AccW-1:0] s0, s1, e;
    assign s0 = x0[l*AccW +: AccW] + y0[l*AccW +: AccW];
    assign s1 = x1[l*AccW +: AccW] + y1[l*AccW +: AccW];
    assign v0[l*AccW +: AccW] = (ex0_q.relu && s0[AccW-1]) ? '0 : s0;
    assign v1[l*AccW +: AccW] = (ex1_q.relu && s1[AccW-1]) ? '0 : s1;
    // to_operand: saturate the emitted lane to the operand range.
    assign e = ex0_q.em ? v0[l*AccW +: AccW] : v1[l*AccW +: AccW];
    assign out_row[l*OpW +: OpW] =
        ($signed(e) > $signed(AccW'(tpu_pkg::OPERAND_MAX))) ? OpW'(tpu_pkg::OPERAND_MAX) :
        ($signed(e) < $signed(AccW'(tpu_pkg::OPERAND_MIN))) ? OpW'(tpu_pkg::OPERAND_MIN) : e[OpW-1:0];
  end

  // At most one ALU-stage step writes and at most one emits (the slots
  // share no exclusive port).
  assign ram_we    = ex0_q.wr || ex1_q.wr;
  assign ram_waddr = ex0_q.wr ? ex0_q.waddr : ex1_q.waddr;
  assign ram_wdata = ex0_q.wr ? v0 : v1;
  assign out_push  = ex0_q.em || ex1_q.em;

  // The credit check guarantees room: out_ready_unused is always 1 on a push.
  tpu_fifo #(
    .Width(T*OpW),
    .Depth(OutDepth)
  ) u_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(out_push),
    .ready_o(out_ready_unused),
    .data_i (out_row),
    .valid_o(@OUT@_valid_o),
    .ready_i(@OUT@_ready_i),
    .data_o (@OUT@_data_o),
    .usage_o(out_usage)
  );

  // ---------------------------------------------------------------------------
  // Status.
  // ---------------------------------------------------------------------------
  logic [CntW-1:0] steps_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) steps_q <= '0;
    else if (clear_i) steps_q <= '0;
    else steps_q <= steps_q + CntW'(a_go) + CntW'(b_go);
  end
  assign progress_o = steps_q;

  assign idle_o = !nx_valid_q && !a_q.valid && !b_q.valid && !ex0_q.valid && !ex1_q.valid &&
                  (out_usage == '0);

endmodule
