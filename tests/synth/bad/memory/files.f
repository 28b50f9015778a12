tpu_ram_1r1w.sv
bad_memory_top.sv
