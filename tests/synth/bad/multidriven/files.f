bad_multi.sv
