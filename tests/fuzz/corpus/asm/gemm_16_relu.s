# gemm 16x16x16 relu
# disassembly of gemm 16x16x16 relu
loop i0 4
  dma_ld mode=2, dram_row0=0, col_block=0 + i0*1, dst_row0=0 + i0*64, nr=16
endloop
loop i0 4
  dma_ld mode=1, dram_row0=0, col_block=0 + i0*1, dst_row0=0 + i0*64, nr=16
endloop
loop i0 4
  mm vr_a=0, ar0=0, acc=0, spad_w=0 + i0*64, nr=16
  loop i1 3
    mm vr_a=64 + i1*64, ar0=0, acc=1, spad_w=4 + i0*64 + i1*4, nr=16
  endloop
  vrelu ar_d=0, ar_s=0, nr=16
  mvout ar0=0, dram_row0=0, col_block=0 + i0*1, nr=16
endloop
