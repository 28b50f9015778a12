# A .raw word with a digit that is not hex.
.raw 0x000000000000000g, 0x0
