// tpu_seq_run: the sequencer's run state: busy, done, the fault registers,
// the cycle count and the watchdog.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; tpu_sequencer instantiates it (u_run) with the progress
// counters' verdicts, which it derives from the spec's header entries.
//
// A start (start_i, taken only when not busy) clears the run. The run is
// finished when pc has passed the last instruction with no loop open and every
// output register is empty; with idle_i it is done (done_o holds until the
// next start). A fault ends it instead (busy_o falls, done_o stays low), by
// priority: FAULT_IMEM (a count past the instruction buffer), FAULT_OVERRUN
// (a counter past its header count), the decode fault of the instruction at
// pc, FAULT_LOOP_OPEN (the program ended inside a loop), FAULT_STARVED
// (finished and idle with a counter short), FAULT_HANG (no activity for
// Watchdog cycles while busy). fault_pc_o names where pc stood;
// fault_unit_o the unit owning the counter over or short (IdleUnit when
// none is). stop_o (FAULT_IMEM or FAULT_OVERRUN) ends issue at once.
//
// Parameters:
//   Watchdog   cycles without activity while busy before FAULT_HANG
//   CountBits  bits of the header's static instruction count
//   NInstrMax  the instructions the instruction buffer holds
//   IdleUnit   the unit named when no counter is short (the sequencer)
// Derived (localparam): PcW, the bits of pc (as tpu_seq_issue's).
module tpu_seq_run #(
  parameter  int                         Watchdog  = 4096,
  parameter  int                         CountBits = 16,
  parameter  int                         NInstrMax = 16,
  parameter  logic [tpu_pkg::UNIT_W-1:0] IdleUnit  = '0,
  localparam int                         PcW       = $clog2(NInstrMax + 1)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,  // taken when not busy

  // Where the run stands.
  input  logic                              count_known_i,  // n_instr_i is valid
  input  logic                              hdr_known_i,    // every header word has arrived
  input  logic [CountBits-1:0]              n_instr_i,
  input  logic [PcW-1:0]                    pc_i,
  input  logic                              loops_open_i,   // depth > 0
  input  logic                              outputs_empty_i,
  input  logic                              idle_i,         // every unit idle
  input  logic                              active_i,       // anything moved this cycle
  input  logic                              cur_valid_i,
  input  logic [tpu_pkg::FAULT_W-1:0]       cur_fault_i,    // the decode fault at pc
  input  logic                              over_any_i,     // a counter past its count
  input  logic [tpu_pkg::UNIT_W-1:0]        over_unit_i,
  input  logic                              short_any_i,    // a counter short of its count
  input  logic [tpu_pkg::UNIT_W-1:0]        short_unit_i,

  output logic                              busy_o,
  output logic                              done_o,
  output logic                              stop_o,
  output logic [tpu_pkg::FAULT_W-1:0]       fault_o,
  output logic [tpu_pkg::FAULT_PC_W-1:0]    fault_pc_o,
  output logic [tpu_pkg::UNIT_W-1:0]        fault_unit_o,
  output logic [31:0]                       cycles_o
);

  localparam int WdW     = $clog2(Watchdog + 1);
  localparam int FaultPcW = tpu_pkg::FAULT_PC_W;

  logic                           busy_q, done_q, start_fire;
  logic [tpu_pkg::FAULT_W-1:0]    fault_q, fault_d;
  logic [tpu_pkg::FAULT_PC_W-1:0] fault_pc_q;
  logic [tpu_pkg::UNIT_W-1:0]     fault_unit_q, fault_unit_d;
  logic [31:0]                    cycles_q;
  logic                           at_end, finished, loop_open, imem_fault, overrun, hang;
  logic [WdW-1:0]                 quiet_q;

  assign start_fire = start_i && !busy_q;
  assign at_end     = busy_q && count_known_i && hdr_known_i && (32'(pc_i) == 32'(n_instr_i));
  assign finished   = at_end && !loops_open_i && outputs_empty_i;
  assign loop_open  = at_end && loops_open_i;
  assign imem_fault = busy_q && count_known_i && (32'(n_instr_i) > 32'(NInstrMax));
  assign overrun    = busy_q && hdr_known_i && over_any_i;

  // Watchdog: cycles in a row while busy with nothing moving.
  assign hang = busy_q && !active_i && (quiet_q == WdW'(Watchdog - 1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      quiet_q <= '0;
    end else if (start_fire || active_i) begin
      quiet_q <= '0;
    end else if (busy_q) begin
      quiet_q <= quiet_q + WdW'(1);
    end
  end

  always_comb begin
    fault_d      = tpu_pkg::FAULT_NONE;
    fault_unit_d = IdleUnit;
    if (imem_fault) begin
      fault_d = tpu_pkg::FAULT_IMEM;
    end else if (overrun) begin
      fault_d      = tpu_pkg::FAULT_OVERRUN;
      fault_unit_d = over_unit_i;
    end else if (cur_valid_i && cur_fault_i != tpu_pkg::FAULT_NONE) begin
      fault_d = cur_fault_i;
    end else if (loop_open) begin
      fault_d = tpu_pkg::FAULT_LOOP_OPEN;
    end else if (finished && idle_i && short_any_i) begin
      fault_d      = tpu_pkg::FAULT_STARVED;
      fault_unit_d = short_unit_i;
    end else if (hang) begin
      fault_d      = tpu_pkg::FAULT_HANG;
      fault_unit_d = (hdr_known_i && short_any_i) ? short_unit_i : IdleUnit;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= 1'b0;
      done_q       <= 1'b0;
      fault_q      <= tpu_pkg::FAULT_NONE;
      fault_pc_q   <= '0;
      fault_unit_q <= IdleUnit;
      cycles_q     <= '0;
    end else if (start_fire) begin
      busy_q       <= 1'b1;
      done_q       <= 1'b0;
      fault_q      <= tpu_pkg::FAULT_NONE;
      fault_pc_q   <= '0;
      fault_unit_q <= IdleUnit;
      cycles_q     <= '0;
    end else if (busy_q) begin
      cycles_q <= cycles_q + 32'd1;
      if (fault_d != tpu_pkg::FAULT_NONE) begin
        busy_q       <= 1'b0;
        fault_q      <= fault_d;
        fault_pc_q   <= FaultPcW'(pc_i);
        fault_unit_q <= fault_unit_d;
      end else if (finished && idle_i) begin
        busy_q <= 1'b0;
        done_q <= 1'b1;
      end
    end
  end

  assign busy_o       = busy_q;
  assign done_o       = done_q;
  assign stop_o       = imem_fault || overrun;
  assign fault_o      = fault_q;
  assign fault_pc_o   = fault_pc_q;
  assign fault_unit_o = fault_unit_q;
  assign cycles_o     = cycles_q;

endmodule
