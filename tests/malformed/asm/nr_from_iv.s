# A loop trip count driven by an outer induction variable: nr is not an AGU target.
loop i 2
  dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4 + i
endloop
