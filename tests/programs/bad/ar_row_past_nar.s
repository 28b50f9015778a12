# expect: memory_bounds line 6
# NAR is 136 at the defaults: rows 132 .. 139 run off the accumulator.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=8
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=8
vrelu ar_d=132, ar_s=0, nr=8
