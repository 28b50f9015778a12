# expect: write_before_read_operands line 4
# The activations were never loaded: vr rows 0 .. 3 hold nothing.
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=4
