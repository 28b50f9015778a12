# expect: asm.unknown_opcode line 3
nop
matmul vr_a=0, ar0=0, acc=0, spad_w=0, nr=4
