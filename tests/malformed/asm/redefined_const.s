# A constant defined twice.
const ROWS = 4
const ROWS = 8
nop
