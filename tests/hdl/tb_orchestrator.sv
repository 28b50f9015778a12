// tb_orchestrator: the orchestrator (rtl/cu/tpu_noc_orchestrator.sv) on
// directed cases, run by tests/hdl/cu_rtl_tests.cpp under Verilator
// (--binary --timing) and Icarus, in any configuration (the map, the slots
// and the channels are tpu_cu_pkg's):
//   caps     ORCH_CAPS
//   g        AXI-Lite writes stage a 3-flit program (garbage in dst and src),
//            read back; a kick with 2 credits; a fake unit echoes the
//            retirements: dst/src stamping, the rest of each flit unchanged,
//            at most 2 flits outstanding, PROG_STAT, COMPLETIONS, CH_STAT,
//            CH_LAST, IRQ_STATUS and irq_o after the batch, IRQ_STATUS w1c
//   h        each kick error (NO_CHANNEL where CHANNELS < 16, EMPTY,
//            PAST_STAGING, NO_CREDITS, BAD_NODE outside and at its own node,
//            CHANNEL_BUSY in k)
//   k        a program without `last` ends ENDED
//   fault    a SIG_FAULT does not stop the sending; once every flit retired
//            the channel is FAULT (PROG_STAT.fault, IRQ_STATUS.fault), the
//            batch's completion after the fault notwithstanding
//   j        a retirement no channel takes counts in STRAY.signals, an ERROR
//            flit in STRAY.errors
//   ctrl     CTRL_REQ sends a CU_CTRL READ; its reply fills CTRL_VALUE
//   i        a mover window write and read reach the mover port with offset
//            o and the data, the read's answer back on R
//   unmapped an offset nothing occupies reads 0
// The mesh takes the orchestrator's flits under random backpressure and the
// mover's port is ready at random. The testbench drives at the falling edge
// and its monitors sample at the rising edge. It prints PASS or FAIL.
`timescale 1ns / 1ps

module tb_orchestrator;

  localparam int FlitW    = tpu_noc_pkg::FLIT_W;
  localparam int PayloadW = tpu_noc_pkg::PAYLOAD_W;
  localparam int AddrW    = tpu_cu_pkg::ORCH_ADDR_W;
  localparam int WinW     = $clog2(tpu_cu_pkg::ORCH_WINDOW_BYTES);
  localparam int NCh      = tpu_cu_pkg::CHANNELS;
  localparam int Slots    = tpu_cu_pkg::PROG_FLITS;
  localparam int X        = 0;
  localparam int Y        = 3;
  localparam int UX       = 2;
  localparam int UY       = 1;
  localparam int NX       = tpu_noc_pkg::NX;
  localparam int NY       = tpu_noc_pkg::NY;
  localparam int MaxOut   = 64;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  logic             aw_valid = 1'b0, aw_ready, w_valid = 1'b0, w_ready, b_valid, b_ready = 1'b0;
  logic             ar_valid = 1'b0, ar_ready, r_valid, r_ready = 1'b0;
  logic [AddrW-1:0] aw_addr = '0, ar_addr = '0;
  logic [63:0]      w_data = '0, r_data;
  logic [1:0]       b_resp, r_resp;
  logic             irq;
  logic             mreq_valid, mreq_ready = 1'b0, mreq_write, mrsp_valid = 1'b0;
  logic [WinW-1:0]  mreq_addr;
  logic [63:0]      mreq_wdata, mrsp_rdata = '0;
  logic             in_valid = 1'b0, in_ready, out_valid, out_ready = 1'b0;
  logic [FlitW-1:0] in_flit = '0, out_flit;

  tpu_noc_orchestrator #(
    .X (X),
    .Y (Y),
    .NX(NX),
    .NY(NY)
  ) dut (
    .clk_i            (clk),
    .rst_ni           (rst_n),
    .s_aw_valid_i     (aw_valid),
    .s_aw_ready_o     (aw_ready),
    .s_aw_addr_i      (aw_addr),
    .s_w_valid_i      (w_valid),
    .s_w_ready_o      (w_ready),
    .s_w_data_i       (w_data),
    .s_w_strb_i       (8'hff),
    .s_b_valid_o      (b_valid),
    .s_b_ready_i      (b_ready),
    .s_b_resp_o       (b_resp),
    .s_ar_valid_i     (ar_valid),
    .s_ar_ready_o     (ar_ready),
    .s_ar_addr_i      (ar_addr),
    .s_r_valid_o      (r_valid),
    .s_r_ready_i      (r_ready),
    .s_r_data_o       (r_data),
    .s_r_resp_o       (r_resp),
    .irq_o            (irq),
    .mover_req_valid_o(mreq_valid),
    .mover_req_ready_i(mreq_ready),
    .mover_req_write_o(mreq_write),
    .mover_req_addr_o (mreq_addr),
    .mover_req_wdata_o(mreq_wdata),
    .mover_rsp_valid_i(mrsp_valid),
    .mover_rsp_rdata_i(mrsp_rdata),
    .in_valid_i       (in_valid),
    .in_ready_o       (in_ready),
    .in_flit_i        (in_flit),
    .out_valid_o      (out_valid),
    .out_ready_i      (out_ready),
    .out_flit_o       (out_flit)
  );

  int errors = 0;
  logic [31:0] rng = 32'h0bad_cafe;

  function automatic logic [31:0] xorshift(input logic [31:0] s);
    logic [31:0] t;
    t = s ^ (s << 13);
    t = t ^ (t >> 17);
    xorshift = t ^ (t << 5);
  endfunction

  function automatic logic [FlitW-1:0] mk(input int dx, input int dy, input int sx, input int sy, input logic [3:0] ty,
                                          input logic [7:0] txn, input logic last, input logic [PayloadW-1:0] p);
    mk = '0;
    mk[tpu_noc_pkg::DST_X_LSB +: 4] = 4'(dx);
    mk[tpu_noc_pkg::DST_Y_LSB +: 4] = 4'(dy);
    mk[tpu_noc_pkg::SRC_X_LSB +: 4] = 4'(sx);
    mk[tpu_noc_pkg::SRC_Y_LSB +: 4] = 4'(sy);
    mk[tpu_noc_pkg::TYPE_LSB +: 4]  = ty;
    mk[tpu_noc_pkg::TXN_LSB +: 8]   = txn;
    mk[tpu_noc_pkg::LAST_LSB]       = last;
    mk[PayloadW-1:0]                = p;
  endfunction

  function automatic logic [FlitW-1:0] sigflit(input int sx, input int sy, input logic [7:0] txn, input logic [7:0] code,
                                               input logic [31:0] arg);
    logic [PayloadW-1:0] p;
    p = '0;
    p[tpu_noc_pkg::CU_SIGNAL_CODE_LSB +: 8] = code;
    p[tpu_noc_pkg::CU_SIGNAL_ARG_LSB +: 32] = arg;
    sigflit = mk(X, Y, sx, sy, tpu_noc_pkg::TYPE_CU_SIGNAL, txn, 1'b1, p);
  endfunction

  // Slot s's payload word w.
  function automatic logic [63:0] pword(input int s, input int w);
    pword = {32'(32'hc0de_0000 + s), 32'(32'h0000_1000 * (w + 1) + s)};
  endfunction
  function automatic logic [PayloadW-1:0] payload_of(input int s);
    for (int w = 0; w < tpu_cu_pkg::ORCH_PAYLOAD_WORDS; w++) payload_of[w*64 +: 64] = pword(s, w);
  endfunction
  // Slot s's header as staged: garbage in dst and src.
  function automatic logic [31:0] staged_header(input logic [7:0] txn, input logic last);
    logic [FlitW-1:0] f;
    f = mk(15, 15, 15, 15, tpu_noc_pkg::TYPE_CU_INST, txn, last, '0);
    staged_header = f[FlitW-1 -: 32];
  endfunction

  // --- The mesh side ----------------------------------------------------------------------
  logic [FlitW-1:0] got[MaxOut];
  int               n_got = 0, retired_by_tb = 0, max_out = 0, inst_out = 0;
  always @(negedge clk) begin
    rng = xorshift(rng);
    out_ready  = rng[3:0] > 4'd4;
    mreq_ready = rng[9:8] != 2'd0;
  end
  always @(posedge clk) begin
    if (rst_n && out_valid && out_ready) begin
      if (n_got < MaxOut) got[n_got] = out_flit;
      n_got++;
      if (out_flit[tpu_noc_pkg::TYPE_LSB +: 4] == tpu_noc_pkg::TYPE_CU_INST) begin
        inst_out++;
        if (inst_out - retired_by_tb > max_out) max_out = inst_out - retired_by_tb;
      end
    end
    if (rst_n && !in_ready) begin
      $display("FAIL: in_ready low");
      errors++;
    end
  end

  // --- The mover's port: a request taken is answered the cycle after -----------------------
  logic            m_hs = 1'b0, m_write_seen = 1'b0;
  logic [WinW-1:0] m_addr_seen = '0;
  logic [63:0]     m_data_seen = '0;
  int              n_mreq = 0;
  always @(posedge clk) begin
    m_hs = rst_n && mreq_valid && mreq_ready;
    if (m_hs) begin
      m_write_seen = mreq_write;
      m_addr_seen  = mreq_addr;
      m_data_seen  = mreq_wdata;
      n_mreq++;
    end
  end
  always @(negedge clk) begin
    mrsp_valid = m_hs;
    mrsp_rdata = m_hs && !m_write_seen ? {56'h5a5a_0000_0000_00, 8'(m_addr_seen)} : 64'd0;
  end

  // --- AXI4-Lite master ----------------------------------------------------------------------
  task automatic axw(input int addr, input logic [63:0] d);
    logic aw_done, w_done, a_hs, w_hs;
    aw_done  = 1'b0;
    w_done   = 1'b0;
    aw_valid = 1'b1;
    aw_addr  = AddrW'(addr);
    w_valid  = 1'b1;
    w_data   = d;
    while (!(aw_done && w_done)) begin
      a_hs = aw_valid && aw_ready;
      w_hs = w_valid && w_ready;
      @(negedge clk);
      if (a_hs) begin
        aw_done  = 1'b1;
        aw_valid = 1'b0;
      end
      if (w_hs) begin
        w_done  = 1'b1;
        w_valid = 1'b0;
      end
    end
    b_ready = 1'b1;
    while (!b_valid) @(negedge clk);
    if (b_resp != 2'b00) begin
      $display("FAIL: BRESP %0d at %h", b_resp, addr);
      errors++;
    end
    @(negedge clk);
    b_ready = 1'b0;
  endtask

  task automatic axr(input int addr, output logic [63:0] d);
    ar_valid = 1'b1;
    ar_addr  = AddrW'(addr);
    while (!ar_ready) @(negedge clk);
    @(negedge clk);
    ar_valid = 1'b0;
    r_ready  = 1'b1;
    while (!r_valid) @(negedge clk);
    d = r_data;
    if (r_resp != 2'b00) begin
      $display("FAIL: RRESP %0d at %h", r_resp, addr);
      errors++;
    end
    @(negedge clk);
    r_ready = 1'b0;
  endtask

  task automatic check_reg(input int addr, input logic [63:0] want, input string what);
    logic [63:0] v;
    axr(addr, v);
    if (v !== want) begin
      $display("FAIL %s: %h reads %h, expected %h", what, addr, v, want);
      errors++;
    end
  endtask

  // One flit from the mesh (in_ready is always high).
  task automatic put(input logic [FlitW-1:0] f);
    in_valid = 1'b1;
    in_flit  = f;
    @(negedge clk);
    in_valid = 1'b0;
  endtask

  task automatic retire(input logic [7:0] txn, input logic [7:0] code, input logic [31:0] arg);
    retired_by_tb++;
    put(sigflit(UX, UY, txn, code, arg));
  endtask

  task automatic idle(input int n);
    repeat (n) @(negedge clk);
  endtask

  task automatic wait_out(input int n);
    int t;
    t = 0;
    while (n_got < n && t < 2000) begin
      @(negedge clk);
      t++;
    end
    if (n_got < n) begin
      $display("FAIL: %0d flits expected, %0d came", n, n_got);
      errors++;
    end
  endtask

  task automatic expect_flit(input int i, input logic [FlitW-1:0] want, input string what);
    if (i >= n_got || got[i] !== want) begin
      $display("FAIL %s: flit %0d is %h, expected %h", what, i, got[i], want);
      errors++;
    end
  endtask

  function automatic logic [FlitW-1:0] dispatched(input int s, input logic [7:0] txn, input logic last);
    dispatched = mk(UX, UY, X, Y, tpu_noc_pkg::TYPE_CU_INST, txn, last, payload_of(s));
  endfunction

  function automatic int slot_word(input int s, input int w);
    slot_word = tpu_cu_pkg::ORCH_STAGING + s * tpu_cu_pkg::ORCH_SLOT_BYTES + 8 * w;
  endfunction

  // Field builders of the spec's registers.
  function automatic logic [63:0] ch_stat(input int state, input int credits, input int sent, input int retired);
    ch_stat = (64'(UX) << tpu_cu_pkg::ORCH_CH_STAT_X_LSB) | (64'(UY) << tpu_cu_pkg::ORCH_CH_STAT_Y_LSB) |
              (64'(state) << tpu_cu_pkg::ORCH_CH_STAT_STATE_LSB) |
              (64'(credits) << tpu_cu_pkg::ORCH_CH_STAT_CREDITS_LSB) |
              (64'(sent) << tpu_cu_pkg::ORCH_CH_STAT_SENT_LSB) | (64'(retired) << tpu_cu_pkg::ORCH_CH_STAT_RETIRED_LSB);
  endfunction
  function automatic logic [63:0] prog_stat(input int busy, input int done, input int fault, input int kick_error);
    prog_stat = (64'(busy) << tpu_cu_pkg::ORCH_PROG_STAT_BUSY_LSB) | (64'(done) << tpu_cu_pkg::ORCH_PROG_STAT_DONE_LSB) |
                (64'(fault) << tpu_cu_pkg::ORCH_PROG_STAT_FAULT_LSB) |
                (64'(kick_error) << tpu_cu_pkg::ORCH_PROG_STAT_KICK_ERROR_LSB);
  endfunction
  function automatic logic [63:0] two(input int a, input int alsb, input int b, input int blsb);
    two = (64'(a) << alsb) | (64'(b) << blsb);
  endfunction

  task automatic set_program(input int base, input int len, input int x, input int y, input int cred);
    axw(tpu_cu_pkg::ORCH_PROG_BASE, 64'(base));
    axw(tpu_cu_pkg::ORCH_PROG_LEN, 64'(len));
    axw(tpu_cu_pkg::ORCH_PROG_DST, two(x, tpu_cu_pkg::ORCH_PROG_DST_X_LSB, y, tpu_cu_pkg::ORCH_PROG_DST_Y_LSB));
    axw(tpu_cu_pkg::ORCH_PROG_CRED, 64'(cred));
  endtask

  task automatic kick_expect(input int channel, input int err, input string what);
    axw(tpu_cu_pkg::ORCH_PROG_KICK, 64'(channel) << tpu_cu_pkg::ORCH_PROG_KICK_CHANNEL_LSB);
    begin
      logic [63:0] v;
      axr(tpu_cu_pkg::ORCH_PROG_STAT, v);
      if (32'(v[tpu_cu_pkg::ORCH_PROG_STAT_KICK_ERROR_LSB +: tpu_cu_pkg::ORCH_PROG_STAT_KICK_ERROR_W]) != err) begin
        $display("FAIL %s: kick_error %0d, expected %0d", what, v[tpu_cu_pkg::ORCH_PROG_STAT_KICK_ERROR_LSB +: 4], err);
        errors++;
      end
    end
  endtask

  localparam int ChStat = tpu_cu_pkg::ORCH_CH_STAT;
  localparam int ChLast = tpu_cu_pkg::ORCH_CH_LAST;

  logic [63:0] v;
  int          n;

  initial begin
    idle(3);
    rst_n = 1'b1;
    idle(2);

    // --- caps -------------------------------------------------------------------------------
    check_reg(tpu_cu_pkg::ORCH_ORCH_CAPS,
              (64'(X) << tpu_cu_pkg::ORCH_ORCH_CAPS_X_LSB) | (64'(Y) << tpu_cu_pkg::ORCH_ORCH_CAPS_Y_LSB) |
              (64'(NX) << tpu_cu_pkg::ORCH_ORCH_CAPS_NX_LSB) | (64'(NY) << tpu_cu_pkg::ORCH_ORCH_CAPS_NY_LSB) |
              (64'(NCh) << tpu_cu_pkg::ORCH_ORCH_CAPS_CHANNELS_LSB) |
              (64'(Slots) << tpu_cu_pkg::ORCH_ORCH_CAPS_PROG_FLITS_LSB), "caps");

    // --- g: a 3-flit program, 2 credits ---------------------------------------------------------
    for (int s = 0; s < 3; s++) begin
      for (int w = 0; w < tpu_cu_pkg::ORCH_PAYLOAD_WORDS; w++) axw(slot_word(s, w), pword(s, w));
      axw(slot_word(s, tpu_cu_pkg::ORCH_HEADER_WORD), {32'hffff_ffff, staged_header(8'h21, s == 2)});
    end
    check_reg(slot_word(1, 2), pword(1, 2), "g staged word");
    check_reg(slot_word(2, tpu_cu_pkg::ORCH_HEADER_WORD), 64'(staged_header(8'h21, 1'b1)), "g staged header");
    axw(tpu_cu_pkg::ORCH_IRQ_ENABLE, 64'h3);
    set_program(0, 3, UX, UY, 2);
    kick_expect(0, 0, "g kick");
    idle(30);
    if (n_got != 2) begin
      $display("FAIL g: %0d flits before a retirement, expected 2", n_got);
      errors++;
    end
    check_reg(ChStat, ch_stat(tpu_cu_pkg::CH_SENDING, 0, 2, 0), "g CH_STAT sending");
    expect_flit(0, dispatched(0, 8'h21, 1'b0), "g flit 0");
    expect_flit(1, dispatched(1, 8'h21, 1'b0), "g flit 1");
    retire(8'h21, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h55);
    wait_out(3);
    expect_flit(2, dispatched(2, 8'h21, 1'b1), "g flit 2");
    retire(8'h21, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h56);
    retire(8'h21, tpu_noc_pkg::SIG_BATCH_COMPLETE, 32'h21);
    idle(3);
    if (max_out > 2) begin
      $display("FAIL g: %0d flits outstanding at once", max_out);
      errors++;
    end
    check_reg(tpu_cu_pkg::ORCH_PROG_STAT, prog_stat(0, 1, 0, 0), "g PROG_STAT");
    check_reg(tpu_cu_pkg::ORCH_COMPLETIONS, two(1, tpu_cu_pkg::ORCH_COMPLETIONS_BATCHES_LSB, 3,
                                                tpu_cu_pkg::ORCH_COMPLETIONS_RETIREMENTS_LSB), "g COMPLETIONS");
    check_reg(ChStat, ch_stat(tpu_cu_pkg::CH_DONE, 2, 3, 3), "g CH_STAT");
    check_reg(ChLast, (64'h21 << tpu_cu_pkg::ORCH_CH_LAST_TXN_LSB) |
                      (64'(tpu_noc_pkg::SIG_BATCH_COMPLETE) << tpu_cu_pkg::ORCH_CH_LAST_CODE_LSB) |
                      (64'h21 << tpu_cu_pkg::ORCH_CH_LAST_ARG_LSB), "g CH_LAST");
    check_reg(tpu_cu_pkg::ORCH_IRQ_STATUS, 64'(1) << tpu_cu_pkg::ORCH_IRQ_STATUS_BATCH_LSB, "g IRQ_STATUS");
    if (irq !== 1'b1) begin
      $display("FAIL g: irq_o low after the batch");
      errors++;
    end
    axw(tpu_cu_pkg::ORCH_IRQ_STATUS, 64'(1) << tpu_cu_pkg::ORCH_IRQ_STATUS_BATCH_LSB);
    check_reg(tpu_cu_pkg::ORCH_IRQ_STATUS, 64'd0, "g IRQ_STATUS cleared");
    if (irq !== 1'b0) begin
      $display("FAIL g: irq_o high after the clear");
      errors++;
    end

    // --- h: the kick errors -----------------------------------------------------------------------
    if (NCh < 16) kick_expect(NCh, tpu_cu_pkg::KICK_NO_CHANNEL, "h NO_CHANNEL");
    set_program(0, 0, UX, UY, 2);
    kick_expect(0, tpu_cu_pkg::KICK_EMPTY, "h EMPTY");
    set_program(Slots - 1, 2, UX, UY, 2);
    kick_expect(0, tpu_cu_pkg::KICK_PAST_STAGING, "h PAST_STAGING");
    set_program(0, 2, UX, UY, 0);
    kick_expect(0, tpu_cu_pkg::KICK_NO_CREDITS, "h NO_CREDITS");
    if (NX < 16) begin
      set_program(0, 2, NX, UY, 2);
      kick_expect(0, tpu_cu_pkg::KICK_BAD_NODE, "h BAD_NODE outside");
    end
    set_program(0, 2, X, Y, 2);
    kick_expect(0, tpu_cu_pkg::KICK_BAD_NODE, "h BAD_NODE own node");
    // A refused kick changes nothing: the channel is as the batch left it.
    check_reg(ChStat, ch_stat(tpu_cu_pkg::CH_DONE, 2, 3, 3), "h CH_STAT unchanged");
    if (n_got != 3) begin
      $display("FAIL h: a refused kick sent flits");
      errors++;
    end

    // --- k: a program without `last` ends ENDED (and a kick while it runs is refused) -----------------
    set_program(0, 2, UX, UY, 2);
    kick_expect(0, 0, "k kick");
    kick_expect(0, tpu_cu_pkg::KICK_CHANNEL_BUSY, "h CHANNEL_BUSY");
    wait_out(5);
    expect_flit(3, dispatched(0, 8'h21, 1'b0), "k flit 0");
    expect_flit(4, dispatched(1, 8'h21, 1'b0), "k flit 1");
    check_reg(tpu_cu_pkg::ORCH_PROG_STAT, prog_stat(1, 0, 0, tpu_cu_pkg::KICK_CHANNEL_BUSY), "k PROG_STAT busy");
    retire(8'h21, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h1);
    retire(8'h21, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h2);
    idle(3);
    check_reg(ChStat, ch_stat(tpu_cu_pkg::CH_ENDED, 2, 2, 2), "k CH_STAT");
    check_reg(tpu_cu_pkg::ORCH_PROG_STAT, prog_stat(0, 0, 0, tpu_cu_pkg::KICK_CHANNEL_BUSY), "k PROG_STAT");

    // --- fault: a SIG_FAULT does not stop the sending ------------------------------------------------------
    set_program(0, 3, UX, UY, 2);
    kick_expect(0, 0, "fault kick");
    wait_out(7);
    retire(8'h21, tpu_noc_pkg::SIG_FAULT, 32'h0500_0001);
    wait_out(8);
    idle(20);
    if (n_got != 8) begin
      $display("FAIL fault: %0d flits, expected 8 (the credit back sends the third)", n_got);
      errors++;
    end
    check_reg(ChStat, ch_stat(tpu_cu_pkg::CH_WAITING, 0, 3, 1), "fault CH_STAT waiting");
    retire(8'h21, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h3);
    retire(8'h21, tpu_noc_pkg::SIG_BATCH_COMPLETE, 32'h21);
    idle(3);
    check_reg(ChStat, ch_stat(tpu_cu_pkg::CH_FAULT, 2, 3, 3), "fault CH_STAT");
    check_reg(tpu_cu_pkg::ORCH_PROG_STAT, prog_stat(0, 0, 1, 0), "fault PROG_STAT");
    check_reg(tpu_cu_pkg::ORCH_COMPLETIONS, two(2, tpu_cu_pkg::ORCH_COMPLETIONS_BATCHES_LSB, 8,
                                                tpu_cu_pkg::ORCH_COMPLETIONS_RETIREMENTS_LSB), "fault COMPLETIONS");
    check_reg(tpu_cu_pkg::ORCH_IRQ_STATUS, 64'(1) << tpu_cu_pkg::ORCH_IRQ_STATUS_FAULT_LSB, "fault IRQ_STATUS");
    if (irq !== 1'b1) begin
      $display("FAIL fault: irq_o low");
      errors++;
    end

    // --- j: strays ----------------------------------------------------------------------------------------
    put(sigflit(3, 3, 8'h01, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h0));
    put(sigflit(UX, UY, 8'h01, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h0));  // its channel ended
    put(sigflit(UX, UY, 8'h01, tpu_noc_pkg::SIG_DATA_RECEIVED, 32'h0));  // not a retirement: not counted
    put(mk(X, Y, X, Y, tpu_noc_pkg::TYPE_ERROR, 8'h02, 1'b1, '0));
    idle(3);
    check_reg(tpu_cu_pkg::ORCH_STRAY, two(2, tpu_cu_pkg::ORCH_STRAY_SIGNALS_LSB, 1, tpu_cu_pkg::ORCH_STRAY_ERRORS_LSB),
              "j STRAY");
    check_reg(tpu_cu_pkg::ORCH_COMPLETIONS, two(2, tpu_cu_pkg::ORCH_COMPLETIONS_BATCHES_LSB, 8,
                                                tpu_cu_pkg::ORCH_COMPLETIONS_RETIREMENTS_LSB), "j COMPLETIONS");

    // --- ctrl: a CU_CTRL read -------------------------------------------------------------------------------
    axw(tpu_cu_pkg::ORCH_CTRL_REQ, (64'(UX) << tpu_cu_pkg::ORCH_CTRL_REQ_X_LSB) |
                                   (64'(UY) << tpu_cu_pkg::ORCH_CTRL_REQ_Y_LSB) |
                                   (64'(tpu_noc_pkg::CU_REG_STATUS) << tpu_cu_pkg::ORCH_CTRL_REQ_INDEX_LSB));
    wait_out(9);
    begin
      logic [PayloadW-1:0] p;
      p = '0;
      p[tpu_noc_pkg::CU_CTRL_OP_LSB +: 8]    = tpu_noc_pkg::CU_CTRL_READ;
      p[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: 8] = 8'(tpu_noc_pkg::CU_REG_STATUS);
      expect_flit(8, mk(UX, UY, X, Y, tpu_noc_pkg::TYPE_CU_CTRL, 8'h00, 1'b1, p), "ctrl READ");
      check_reg(tpu_cu_pkg::ORCH_CTRL_STAT, 64'(1) << tpu_cu_pkg::ORCH_CTRL_STAT_PENDING_LSB, "ctrl pending");
      p = '0;
      p[tpu_noc_pkg::CU_CTRL_OP_LSB +: 8]     = tpu_noc_pkg::CU_CTRL_REPLY;
      p[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: 8]  = 8'(tpu_noc_pkg::CU_REG_STATUS);
      p[tpu_noc_pkg::CU_CTRL_VALUE_LSB +: 64] = 64'h8000_0008_dead_beef;
      put(mk(X, Y, UX, UY, tpu_noc_pkg::TYPE_CU_CTRL, 8'h00, 1'b1, p));
    end
    idle(2);
    check_reg(tpu_cu_pkg::ORCH_CTRL_STAT, 64'(1) << tpu_cu_pkg::ORCH_CTRL_STAT_VALID_LSB, "ctrl valid");
    check_reg(tpu_cu_pkg::ORCH_CTRL_VALUE, 64'h8000_0008_dead_beef, "ctrl value");

    // --- i: the mover window ------------------------------------------------------------------------------
    axw(tpu_cu_pkg::ORCH_WINDOW + 'h18, 64'h1122_3344_5566_7788);
    if (n_mreq != 1 || !m_write_seen || m_addr_seen != WinW'('h18) || m_data_seen != 64'h1122_3344_5566_7788) begin
      $display("FAIL i: the window write (%0d requests, write %0d, offset %h, data %h)", n_mreq, m_write_seen,
               m_addr_seen, m_data_seen);
      errors++;
    end
    axr(tpu_cu_pkg::ORCH_WINDOW + 'h78, v);
    if (n_mreq != 2 || m_write_seen || m_addr_seen != WinW'('h78) || v !== {56'h5a5a_0000_0000_00, 8'h78}) begin
      $display("FAIL i: the window read (%0d requests, offset %h, data %h)", n_mreq, m_addr_seen, v);
      errors++;
    end

    // --- unmapped -------------------------------------------------------------------------------------------
    check_reg('h70, 64'd0, "unmapped");
    check_reg(tpu_cu_pkg::ORCH_PROG_KICK, 64'd0, "strobe reads 0");

    idle(10);
    n = n_got;
    if (n != 9) begin
      $display("FAIL: %0d flits sent in all, expected 9", n);
      errors++;
    end
    if (errors == 0) $display("PASS tb_orchestrator: %0d flits checked, CHANNELS %0d, PROG_FLITS %0d", n, NCh, Slots);
    else $display("FAIL tb_orchestrator: %0d errors", errors);
    $finish;
  end

  initial begin
    #400000;
    $display("FAIL: timeout (%0d flits out)", n_got);
    $finish;
  end

endmodule
