# expect: memory_bounds line 3
# A has MAXDIM = 64 rows: rows 60 .. 67 run off its end.
dma_ld mode=2, dram_row0=60, col_block=0, dst_row0=0, nr=8
