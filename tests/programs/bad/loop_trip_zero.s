# expect: asm.loop_trip line 3
# The sequencer's loop is do-while: a trip count of 0 would run once.
loop i 0
  nop
endloop
