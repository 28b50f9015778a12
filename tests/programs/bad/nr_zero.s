# expect: nr_at_least_one line 5
# A zero-row instruction desynchronises the unit: nr >= 1 on every data op.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=0
