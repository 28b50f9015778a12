# An expression that names nothing the spec or the program defines.
dma_ld mode=2, dram_row0=ROWS, col_block=0, dst_row0=0, nr=4
