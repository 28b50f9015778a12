# expect: write_before_read_operands line 5
# The weights come from spad rows 64 .. 67, which no dma_ld wrote.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=64, nr=4
