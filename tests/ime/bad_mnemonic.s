# An unknown mnemonic on line 3: bad input, exit 2.
vsetvli t0, zero, e8, m1
smt.vmadotx v16, v0, v8
