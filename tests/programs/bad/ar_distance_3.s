# expect: ar_raw_dist line 7
# AR_RAW_DIST = 4: row 0 is written on accu iteration 0 and read on
# iteration 3 (mm costs accu one iteration a row).
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=3
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=3
vrelu ar_d=8, ar_s=0, nr=3
