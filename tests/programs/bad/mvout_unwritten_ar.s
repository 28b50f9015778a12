# expect: write_before_read_ar line 3
# Nothing wrote accumulator rows 0 .. 3 before they are retired.
mvout ar0=0, dram_row0=0, col_block=0, nr=4
