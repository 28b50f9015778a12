# expect: header_fits line 9
# accu would be promised 4 + 127 * 127 * 4 = 64520 iterations; its header
# count is read through a 16-bit slice that stops at 32767.
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=4
loop a 127
  loop b 127
    vrelu ar_d=0, ar_s=0, nr=4
  endloop
endloop
