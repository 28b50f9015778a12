# expect: asm.iv_scope line 6
loop i 2
  nop
endloop
# i closed with its loop
vrelu ar_d=i, ar_s=0, nr=4
