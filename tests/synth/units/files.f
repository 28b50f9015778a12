units_top.sv
