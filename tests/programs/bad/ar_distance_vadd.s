# expect: ar_raw_dist line 9
# A vadd's second source is read on the odd iteration of its row: after an
# mm of 2 rows (iterations 0, 1) a vadd reading row 1 as its second source
# reads it on iteration 3 (2 + 1), distance 2.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=8, acc=0, spad_w=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=2
vadd ar_d=16, ar_s1=8, ar_s2=1, nr=1
