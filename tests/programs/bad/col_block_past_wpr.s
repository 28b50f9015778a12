# expect: legal_values line 3
# col_block is 0 .. WPR-1: at MAXDIM 64, T 4 a DRAM row is 16 packed words.
dma_ld mode=2, dram_row0=0, col_block=WPR, dst_row0=0, nr=4
