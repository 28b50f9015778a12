# expect: asm.nonlinear line 4
loop i 4
  # the AGU adds iv * stride: i*i has no stride
  vld vr0=i*i, spad0=0, nr=1
endloop
