# expect: write_before_read_ar line 2
vrelu ar_d=0, ar_s=8, nr=4
