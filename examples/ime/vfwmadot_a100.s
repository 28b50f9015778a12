# The seed's A100 smt.vfwmadot example (seed 6.1.6): C (8 x 8 fp32) = A (8 x 8
# fp16, row-major) x B (8 x 8), B held transposed; MCPM.BF16 = 0 (fp16). The
# memory holds A at byte 0 and B^T at byte 128; C is stored at byte 256.
.equ A, 0
.equ B, A + 8*8*2
.equ C, B + 8*8*2

    li          a0, A
    li          a1, B
    li          a2, C
    csrwi       mcpm, 0              # fp16 (1: bf16)
    vsetvli     t0, zero, e16, m1
    vmv.v.i     v16, 0
    vmv.v.i     v17, 0
    vle16.v     v2, (a0)
    vle16.v     v8, (a1)
    smt.vfwmadot v16, v2, v8
    vsetvli     t0, zero, e32, m2
    vse32.v     v16, (a2)
