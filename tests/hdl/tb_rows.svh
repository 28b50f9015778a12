// tb_rows.svh: what the testbenches of the row stores (tb_tpu_spm: spad,
// tb_tpu_vru: vr) share (Icarus -g2012): tb_movers.svh, a shadow copy of
// the store (all zero at the start), the writes that keep it, and the
// choice of the rows a read takes, and the check of the ordering phase's
// write-after-read case.
//
// Include inside the testbench module after its parameters (Seed among
// them), `localparam int VW` and `localparam int Rows` (the store's rows).
// The testbench provides push_row(src, row): a written row queued on the
// input stream `src` (the bench's numbering) it arrives on.

`include "tb_movers.svh"

  logic [VW-1:0] shadow[Rows];
  int last_row0 = 0, last_nr = 1;  // the last write's rows

  initial for (int r = 0; r < Rows; r++) shadow[r] = '0;

  // The rows of a write of nr rows at dst, arriving on input src: random,
  // queued there and written to the shadow; the write's steps counted.
  task automatic write_rows(input int src, input int dst, input int nr);
    logic [VW-1:0] row;
    for (int r = 0; r < nr; r++) begin
      row = rnd_row();
      push_row(src, row);
      shadow[dst + r] = row;
    end
    steps_total += nr;
    last_row0 = dst;
    last_nr = nr;
  endtask

  // A read's first row of nr: one time in three inside the rows the last
  // write wrote (when the read fits from there), else anywhere.
  function automatic int pick_src(input int nr);
    int s;
    if (rnd(3) == 0 && last_row0 + nr <= Rows) s = last_row0 + rnd(last_nr);
    else s = rnd(Rows - nr + 1);
    if (s + nr > Rows) s = Rows - nr;
    pick_src = s;
  endfunction

  // The ordering phase's write-after-read case: a write waits for an earlier
  // read of overlapping rows, held by backpressure, while a write of other
  // rows before it proceeds. stall_outputs(base) (outputs never ready; base =
  // the steps so far), then the bench queues the reads and the writes, then
  // only_disjoint_write(base, steps): after 40 cycles only the disjoint
  // write's steps have counted; then the outputs run and all finish.
  task automatic stall_outputs(output int base);
    bp = 100;
    base = steps_total;
  endtask

  task automatic only_disjoint_write(input int base, input int steps);
    repeat (40) @(posedge clk);
    expect_progress("write after read: only the disjoint write", base + steps);
    bp = 0;
    wait_done("write after read");
  endtask
