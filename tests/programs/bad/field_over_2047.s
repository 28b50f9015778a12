# expect: field_range line 4
# An address field carries 0 .. 2047 under the spare-bit rule.
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=2048, nr=4
