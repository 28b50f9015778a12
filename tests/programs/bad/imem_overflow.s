# expect: imem_fits line 27
# IMEM_SIZE is 56 words at the defaults: the header (8) and 24 instructions.
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
nop
