//! A fragment of tpu_accu.sv.tpl: one issue slot (@S@: a or b), filled once per
//! slot by gen/hdl/core/emit_accu.cpp.
  // Slot @S@: the step it issues next, and the slot after this cycle.
  logic             @S@_last, @S@_rd, @S@_cw, @S@_wr, @S@_em, @S@_rd_wait, @S@_second, @S@_fin;
  logic [AddrW-1:0] @S@_raddr, @S@_waddr;
  slot_t            @S@_next;
  assign @S@_last    = !@S@_q.u.two_step || @S@_q.phase;
  assign @S@_rd      = @S@_q.phase ? @S@_q.u.rd1 : @S@_q.u.rd0;
  assign @S@_raddr   = (@S@_q.phase ? @S@_q.u.rd1_base : @S@_q.u.rd0_base) + AddrW'(@S@_q.row);
  assign @S@_cw      = @S@_q.u.cw && @S@_last;
  assign @S@_wr      = @S@_q.u.wr && @S@_last;
  assign @S@_waddr   = @S@_q.u.wr_base + AddrW'(@S@_q.row);
  assign @S@_em      = @S@_q.u.em && @S@_last;
  // The ALU stage writes the row this step reads: wait for it to land.
  assign @S@_rd_wait = @S@_rd && ((ex0_q.wr && (ex0_q.waddr == @S@_raddr)) ||
                                (ex1_q.wr && (ex1_q.waddr == @S@_raddr)));
  assign @S@_second  = @S@_q.u.two_step && !@S@_q.phase;
  assign @S@_fin     = @S@_q.valid && ((@S@_q.steps == '0) || (@S@_go && (@S@_q.steps == CntW'(1))));
  assign @S@_next    = @S@_fin ? '0 :
                     !@S@_go ? @S@_q :
                     {1'b1, @S@_second, @S@_second ? @S@_q.row : @S@_q.row + NrW'(1), @S@_q.steps - CntW'(1),
                      @S@_q.u};
