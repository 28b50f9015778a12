# An expression that divides by zero.
const ROWS = 4
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=ROWS // (ROWS - 4), nr=4
