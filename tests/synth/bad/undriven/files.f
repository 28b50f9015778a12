bad_undriven.sv
