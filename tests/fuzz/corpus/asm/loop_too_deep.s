# expect: asm.loop_depth line 7
# LOOP_DEPTH is 4: a fifth level has no loop-stack entry.
loop a 2
loop b 2
loop c 2
loop d 2
loop e 2
  nop
endloop
endloop
endloop
endloop
endloop
