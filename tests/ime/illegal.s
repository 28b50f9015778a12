li a0, 1
smt.vmadot v2, v3, v4             # vd's group v2, v3 holds vs1: vd_disjoint
smt.vmadot.sp v16, v2, v8, v0, 0  # A60 has no 2:4 sparse sub-extension
