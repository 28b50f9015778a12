# expect: asm.too_many_terms line 6
loop a 2
loop b 2
loop c 2
loop d 2
  mm vr_a=a + b, ar0=c, acc=0, spad_w=d, nr=4
endloop
endloop
endloop
endloop
