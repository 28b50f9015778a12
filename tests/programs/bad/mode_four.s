# expect: legal_values line 3
# dma_ld's mode is 0 .. 3 (bit 0 source, bit 1 destination).
dma_ld mode=4, dram_row0=0, col_block=0, dst_row0=0, nr=4
