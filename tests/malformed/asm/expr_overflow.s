# An expression past 64 bits.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=2 ** 70, nr=4
