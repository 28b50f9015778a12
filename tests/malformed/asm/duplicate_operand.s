# An operand given twice.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, dst_row0=4, nr=4
