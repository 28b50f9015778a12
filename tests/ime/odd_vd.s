# vd's field holds bits [4:1]: an odd vd is not encodable (exit 2).
smt.vmadot v17, v0, v8
