# vld has no operand named spad9 (its operands are vr0 and spad1).
dma_ld mode=0, dram_row0=0, col_block=0, dst_row0=0, nr=4
vld vr0=0, spad9=0, nr=4
