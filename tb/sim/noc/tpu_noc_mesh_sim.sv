// tpu_noc_mesh_sim: the NoC harness's top (tb/sim/noc/noc_main.cpp), a
// testbench module that is never synthesised: tpu_noc_mesh with a register
// in front of each of the inputs the harness drives.
//
// The harness sets, during cycle c, what the mesh's inputs are in cycle c + 1
// (which node offers which flit, which ejection port is ready); the rising
// edge that ends cycle c loads them here, and the mesh sees them for the whole
// of cycle c + 1, as if the harness had driven its ports directly then. The
// mesh, its outputs and every cycle the harness logs are the same as without
// this module (the harness knows c + 1's inputs at c: the acceptance at c
// depends only on the mesh's registered ready, the ejection ports' busy
// pattern on the cycle alone).
//
// Why: no logic of the mesh then depends on a top-level input. Verilator
// evaluates the logic that does (its input-combinational region) at every
// eval, whether an input changed or not, and the harness evals twice a
// cycle (the clock low, then its rising edge): the local check, the local
// FIFO's push and the local output's arbitration and crossbar column of
// every router ran three times a cycle, in that region twice and after the
// edge once. Here they run once.
module tpu_noc_mesh_sim (
  input  logic                                              clk_i,
  input  logic                                              rst_ni,
  // the next cycle's inputs of tpu_noc_mesh's local ports
  input  logic [tpu_noc_pkg::NODES-1:0]                     inject_valid_i,
  input  logic [tpu_noc_pkg::NODES*tpu_noc_pkg::FLIT_W-1:0] inject_flit_i,
  input  logic [tpu_noc_pkg::NODES-1:0]                     eject_ready_i,
  // tpu_noc_mesh's outputs, unchanged
  output logic [tpu_noc_pkg::NODES-1:0]                     inject_ready_o,
  output logic [tpu_noc_pkg::NODES-1:0]                     eject_valid_o,
  output logic [tpu_noc_pkg::NODES*tpu_noc_pkg::FLIT_W-1:0] eject_flit_o,
  output logic [tpu_noc_pkg::NODES*tpu_noc_pkg::PORTS-1:0]  wait_o,
  output logic [tpu_noc_pkg::NODES*tpu_noc_pkg::PORTS-1:0]  hold_o
);

  logic [tpu_noc_pkg::NODES-1:0]                     inject_valid_q, eject_ready_q;
  logic [tpu_noc_pkg::NODES*tpu_noc_pkg::FLIT_W-1:0] inject_flit_q;

  // Not reset: the harness drives no offer and every port ready during the
  // reset cycles, the last of which loads cycle 0's inputs.
  always_ff @(posedge clk_i) begin
    inject_valid_q <= inject_valid_i;
    inject_flit_q  <= inject_flit_i;
    eject_ready_q  <= eject_ready_i;
  end

  tpu_noc_mesh u_mesh (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .inject_valid_i(inject_valid_q),
    .inject_ready_o(inject_ready_o),
    .inject_flit_i (inject_flit_q),
    .eject_valid_o (eject_valid_o),
    .eject_ready_i (eject_ready_q),
    .eject_flit_o  (eject_flit_o),
    .wait_o        (wait_o),
    .hold_o        (hold_o)
  );

endmodule
