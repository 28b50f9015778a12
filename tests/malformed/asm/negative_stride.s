# An address that walks down: the AGU adds iv * stride and a stride is never negative.
loop i 2
  dma_ld mode=2, dram_row0=8 - 4*i, col_block=0, dst_row0=0, nr=4
endloop
