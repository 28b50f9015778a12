// tpugen_ice40_shell: {{top}} with its ports behind two shift registers, for
// place and route on a device with fewer pins than the core has port bits.
// Written by tpugen synth from fpga/ice40_shell.sv; not part of the core.
//
// {{in_bits}} input bits: in_q, shifted in from sin_i one bit a cycle.
// {{out_bits}} output bits: loaded into out_q when load_i, shifted out on sout_o.
// Each port bit costs one flip-flop (an iCE40 logic cell), counted in the
// report's shell line; the core's own cells are counted separately.
module tpugen_ice40_shell (
  input  logic {{clock_port}},
  input  logic sin_i,
  input  logic load_i,
  output logic sout_o
);
  logic [{{in_bits}}:0] in_q;
  logic [{{out_bits}}-1:0] out_d, out_q;

  always_ff @(posedge {{clock_port}}) begin
    in_q  <= {in_q[{{in_bits}}-1:0], sin_i};
    out_q <= load_i ? out_d : {1'b0, out_q[{{out_bits}}-1:1]};
  end
  assign sout_o = out_q[0];

  {{top}} u_core (
{{connections}}
  );
endmodule
