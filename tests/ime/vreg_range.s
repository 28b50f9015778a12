# v32 is past the register file (exit 2).
smt.vmadot v16, v0, v32, i8
