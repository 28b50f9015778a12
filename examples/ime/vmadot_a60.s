# The seed's A60 smt.vmadot example (seed 5.1.6): C (4 x 4 int32) = A (4 x 8
# int8, row-major) x B (8 x 4), B held transposed. The memory holds A at
# byte 0, B^T at byte 32; C is stored at byte 64.
.equ A, 0
.equ B, A + 4*8
.equ C, B + 4*8

    li          a0, A
    li          a1, B
    li          a2, C
    vsetvli     t0, zero, e8, m1
    vle8.v      v0, (a0)
    vle8.v      v1, (a1)
    smt.vmadot  v16, v0, v1          // the type operand left out: i8
    vsetvli     t0, zero, e32, m2
    vse32.v     v16, (a2)
