// tb_dma.svh: what the DMA units' testbenches (tb_tpu_dma_ld, tb_tpu_dma_st)
// share (Icarus -g2012): tb_movers.svh, the operand rows of a matrix row
// (WPR), and the random program.
//
// Include inside the testbench module after its parameters
// (tb_dram_params.svh's, and Seed) and
// `localparam logic [tpu_pkg::FLD_OP_W-1:0] Ignored`,
// an opcode the unit must ignore. The testbench provides add_block(nr): one
// instruction of the unit, moving nr rows at a random place.

`include "tb_movers.svh"

  localparam int WPR = MAXDIM / T;  // packed words of a matrix row

  // n instructions: one in ten an Ignored one (3 rows, 3 steps, which must
  // not move anything or count), the others add_block of 1 .. min(MAXDIM, 20)
  // rows.
  task automatic random_program(input int n);
    int nr;
    for (int i = 0; i < n; i++) begin
      if (rnd(10) == 0) begin
        instr_q.push_back(mk(Ignored, 0, 0, 0, 0, 3, 3));
      end else begin
        nr = 1 + rnd(MAXDIM < 20 ? MAXDIM : 20);
        add_block(nr);
      end
    end
  endtask
