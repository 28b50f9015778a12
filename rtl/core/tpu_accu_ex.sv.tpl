//! A fragment of tpu_accu.sv.tpl: one issue slot's step entering the ALU stage
//! (slot @S@ feeds stage @E@), filled once per slot by gen/hdl/core/emit_accu.cpp.
    @E@_d = '0;
    if (@S@_go) begin
      @E@_d.valid = 1'b1;
      @E@_d.hold  = @S@_rd && !@S@_last;
      @E@_d.rd    = @S@_rd && @S@_last;
      @E@_d.cw    = @S@_cw;
      @E@_d.held  = @S@_q.u.two_step && @S@_last;
      @E@_d.wr    = @S@_wr;
      @E@_d.waddr = @S@_waddr;
      @E@_d.em    = @S@_em;
      @E@_d.relu  = @S@_q.u.relu;
    end
