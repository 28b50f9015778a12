# {{top}}: clock constraint template (XDC, Vivado), written by tpugen synth.
# Configuration: {{config}}
# Spec: {{spec}} (sha256 {{spec_sha256}})
#
# One clock, {{clock_port}}, rising edge; synchronous reset. The core is meant
# to sit inside a larger design (out of context): the I/O delays below are a
# budget for the logic between its ports and the rest of that design.

create_clock -name {{clock_port}} -period {{period_ns}} [get_ports {{clock_port}}]
set_input_delay  -clock [get_clocks {{clock_port}}] {{io_delay_ns}} [get_ports -filter {DIRECTION == IN && NAME != "{{clock_port}}"}]
set_output_delay -clock [get_clocks {{clock_port}}] {{io_delay_ns}} [get_ports -filter {DIRECTION == OUT}]
