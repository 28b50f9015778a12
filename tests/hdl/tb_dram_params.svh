// tb_dram_params.svh: the parameters of the testbenches with a DRAM model
// (icarus_tb, tb_tpu_dma_ld, tb_tpu_dma_st; Icarus -g2012): the matrices'
// geometry and the beats of the DRAM ports, which must match the generated
// configuration (the runner passes them with -P; a testbench uses those of
// the ports it has), and the widths derived from them, which tb_memory.svh's
// macros and tb_dma.svh need (VW, RW, WW, Bytes).
//
// Include first in the testbench's parameter port list; the testbench's own
// parameters follow it.
  parameter  int T         = 4,                // operand lanes of a row (bytes)
  parameter  int MAXDIM    = 16,               // A, B and C are MAXDIM x MAXDIM bytes
  parameter  int DMA_WORDS = 1,                // packed words of an operand read beat
  parameter  int CBeat     = 1,                // packed words of a C write beat
  localparam int VW        = 8 * T,            // a row
  localparam int RW        = DMA_WORDS * VW,   // an operand read beat
  localparam int WW        = CBeat * VW,       // a C write beat
  localparam int Bytes     = MAXDIM * MAXDIM,  // a matrix
