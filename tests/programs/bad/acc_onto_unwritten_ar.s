# expect: write_before_read_ar line 5
# An accumulating mm reads its ar rows first: they must hold a value.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=1, spad_w=0, nr=4
