# expect: known_opcode line 3
# Opcode 20 is not in the spec (a binary assembled elsewhere).
.raw 0x0000000000000014, 0x0
