# C = A @ B for M = K = N = 8, written for T = 4 (Kt = Nt = 2).
#
# The shipped tiled GEMM layout (docs/assembly.md, "Example"):
#   vr[A_VR + kb*MAXDIM + m] = A[m, kb*T .. kb*T+T-1]   (A is loaded straight into the vregs)
#   spad[B_SP + nb*MAXDIM + k] = B[k, nb*T .. nb*T+T-1] (B is loaded into the scratchpad)
#   ar[AR_C + m] accumulates the output tile C[m, nb*T .. nb*T+T-1]
# The first k-tile of every output tile is peeled out of the k loop: it overwrites the
# accumulator (acc=0), the looped tiles accumulate (acc=1). The looped tiles start at k-tile 1,
# which is why their bases carry an extra MAXDIM (activations) and T (weights).
# At T = 8 the k loop would have trip Kt - 1 = 0, which the assembler refuses (asm.loop_trip).

const M = 8
const K = 8
const N = 8
const Kt = K // T
const Nt = N // T
const A_VR = 0
const B_SP = 0
const AR_C = 0

# A -> vr, one packed-word column block per k-tile (mode 2: source A, destination vr)
loop kb Kt
  dma_ld mode=2, dram_row0=0, col_block=kb, dst_row0=A_VR + kb*MAXDIM, nr=M
endloop

# B -> spad, one packed-word column block per n-tile (mode 1: source B, destination spad)
loop nb Nt
  dma_ld mode=1, dram_row0=0, col_block=nb, dst_row0=B_SP + nb*MAXDIM, nr=K
endloop

loop nb Nt
  mm vr_a=A_VR, ar0=AR_C, acc=0, spad_w=B_SP + nb*MAXDIM, nr=M        # k-tile 0, peeled
  loop kb Kt - 1                                                     # k-tiles 1 .. Kt-1
    mm vr_a=A_VR + MAXDIM + kb*MAXDIM, ar0=AR_C, acc=1, spad_w=B_SP + T + nb*MAXDIM + kb*T, nr=M
  endloop
  mvout ar0=AR_C, dram_row0=0, col_block=nb, nr=M
endloop
