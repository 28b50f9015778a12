# expect: asm.missing_operand line 2
mm vr_a=0, ar0=0, spad_w=0, nr=4
