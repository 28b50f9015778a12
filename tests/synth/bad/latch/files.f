bad_latch.sv
