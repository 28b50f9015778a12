# vector
# disassembly of vector
dma_ld mode=0, dram_row0=60, col_block=15, dst_row0=1, nr=4
vld vr0=6, spad0=1, nr=4
dma_ld mode=1, dram_row0=1, col_block=8, dst_row0=6, nr=4
dma_ld mode=2, dram_row0=2, col_block=0, dst_row0=11, nr=4
dma_ld mode=3, dram_row0=59, col_block=15, dst_row0=1, nr=4
mm vr_a=6, ar0=1, acc=0, spad_w=6, nr=4
mm vr_a=11, ar0=1, acc=1, spad_w=6, nr=4
mm vr_a=1, ar0=6, acc=0, spad_w=1, nr=4
vadd ar_d=11, ar_s1=1, ar_s2=6, nr=4
vrelu ar_d=16, ar_s=11, nr=4
vaddrelu ar_d=21, ar_s1=1, ar_s2=16, nr=4
mvout ar0=21, dram_row0=60, col_block=15, nr=4
mvout ar0=11, dram_row0=1, col_block=0, nr=4
