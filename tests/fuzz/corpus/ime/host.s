li a0, 0x123456789
vsetivli t0, 8, e16, mf2, ta, ma
vle16.v v4, (a0)
csrwi mcpm, 1
vmv.v.x v2, a0
vse16.v v4, (zero)
