# expect: vld_copies_unwritten line 6
# vld may copy an unwritten spad row, but the copy is unwritten too.
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
vld vr0=0, spad0=100, nr=4
# consuming the copy is the error
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=4
