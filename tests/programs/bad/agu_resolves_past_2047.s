# expect: field_range line 6
# The static field is legal; the AGU-resolved one is not: 2000 + 3*20 = 2060.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
loop i 4
  vld vr0=2000 + i*20, spad0=0, nr=4
endloop
