# expect: legal_values line 8
# acc takes 0 and 1 only; driven by an AGU term it is legal for two trips and
# refused at the third (the trip frontier of a restricted field).
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=4
loop k 3
  mm vr_a=0, ar0=0, acc=k, spad_w=0, nr=4
endloop
