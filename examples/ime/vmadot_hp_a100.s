# The seed's A100 smt.vmadot.hp example (seed 5.4.7): C (8 x 8 fp16) = (A (8 x
# 16 int8) x B (16 x 8)) scaled per column by 8 fp16 scales, B held
# transposed. The memory holds A at byte 0, B^T at byte 128 and the scales at
# byte 256; C is stored at byte 512.
.equ A, 0
.equ B, 128
.equ SCALE, 256
.equ C, 512

    li          a0, A
    li          a1, B
    li          a2, SCALE
    li          a3, C
    vsetvli     t0, zero, e8, m1
    vmv.v.i     v16, 0
    vle8.v      v2, (a0)
    vle8.v      v8, (a1)
    vsetvli     t0, zero, e16, m1
    vle16.v     v0, (a2)              # group 0 of v0: the first 8 scales
    smt.vmadot.hp v16, v2, v8, v0, 0, i8
    vse16.v     v16, (a3)
