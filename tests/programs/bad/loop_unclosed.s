# expect: asm.loop_balance line 3
nop
loop i 2
  nop
