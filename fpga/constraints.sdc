# {{top}}: clock constraint template (SDC), written by tpugen synth.
# Configuration: {{config}}
# Spec: {{spec}} (sha256 {{spec_sha256}})
#
# The core is synchronous to one clock, {{clock_port}}, rising edge; the reset
# is synchronous. Set the period to the clock you mean to close timing at, and
# budget the I/O delays to whatever sits between the core's ports and the
# rest of your design (an AXI interconnect, a memory controller, ...).

create_clock -name {{clock_port}} -period {{period_ns}} [get_ports {{clock_port}}]

# I/O budgets: a fraction of the period each way (edit for your system).
set_input_delay  -clock {{clock_port}} {{io_delay_ns}} [remove_from_collection [all_inputs] [get_ports {{clock_port}}]]
set_output_delay -clock {{clock_port}} {{io_delay_ns}} [all_outputs]
