bad_loop.sv
