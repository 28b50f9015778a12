// tb_memory.svh: the memory models' data paths the testbenches of tests/hdl
// share (Icarus -g2012): macros on the module's own memory arrays, so a
// testbench takes only those it has memories for. Each names what it needs
// declared before it.

// imem_beat(addr): ImemBeat 64-bit words of imem from word `addr`, zero
// past the end. Needs ImemBeat, ImemWords and logic [63:0] imem [ImemWords].
`define TB_IMEM_BEAT \
  function automatic logic [64*ImemBeat-1:0] imem_beat(input int addr); \
    for (int k = 0; k < ImemBeat; k++) imem_beat[64*k +: 64] = (addr + k < ImemWords) ? imem[addr + k] : 64'd0; \
  endfunction

// BEAT = RW/8 bytes of A (SEL 0) or B (SEL 1) from byte ADDR, zero past the
// end. Needs RW, Bytes and logic [7:0] mem_a, mem_b [Bytes]. (A statement,
// not a function: a testbench drawing random numbers in the same process
// keeps the order Icarus runs its processes in.)
`define TB_DRAM_READ(BEAT, SEL, ADDR) \
  for (int b_ = 0; b_ < RW / 8; b_++) \
    BEAT[8*b_ +: 8] = ((ADDR) + b_ >= Bytes) ? 8'd0 : (SEL) ? mem_b[(ADDR) + b_] : mem_a[(ADDR) + b_];

// The strobed bytes of a WW/8-byte beat DATA into C from byte ADDR, none
// past the end. Needs WW, Bytes and logic [7:0] mem_c [Bytes]. (A statement,
// as TB_DRAM_READ.)
`define TB_DRAM_WRITE(ADDR, DATA, STRB) \
  for (int b_ = 0; b_ < WW / 8; b_++) \
    if (STRB[b_] && int'(ADDR) + b_ < Bytes) mem_c[int'(ADDR) + b_] = DATA[8*b_ +: 8];
