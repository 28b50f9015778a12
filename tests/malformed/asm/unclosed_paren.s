# A parenthesis that is never closed.
dma_ld mode=2, dram_row0=(1 + 2, col_block=0, dst_row0=0, nr=4
