# expect: retired_opcode line 4
# dma_st is retired (results leave through mvout); its number stays reserved.
const X = 0
dma_st
