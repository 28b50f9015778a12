# ar_distance 4
# disassembly of ar_distance 4
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=4
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=4
vrelu ar_d=0, ar_s=0, nr=4
mvout ar0=0, dram_row0=0, col_block=0, nr=4
