# expect: asm.loop_balance line 4
nop
# an endloop with no loop open
endloop
