../../../rtl/prim/tpu_ram_1r1w.sv
ram_fifo_top.sv
