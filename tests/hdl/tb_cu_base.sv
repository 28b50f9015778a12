// tb_cu_base: the CU wrapper (rtl/cu/tpu_noc_cu_base.sv) on directed cases,
// run by tests/hdl/cu_rtl_tests.cpp under Verilator (--binary --timing) and
// Icarus, in any configuration (the depths are tpu_cu_pkg's):
//   a  a 3-instruction program (last on the third) retires INST_COMPLETE,
//      INST_COMPLETE, BATCH_COMPLETE {24'd0, txn}, to the CU_INST's src
//   b  a faulting final instruction retires SIG_FAULT with exec_result
//   c  INST_DEPTH + 1 instructions with the datapath stalled: the extra one
//      retires INST_OVERFLOW at once, the ejection port never stalls, the
//      others retire once the datapath runs
//   d  CU_CTRL reads of CAPS, STATUS, COUNTERS, DBG and an unknown index
//   e  a CU_DATA of 3 data flits with SIGNAL writes 3 granules and sends
//      SIG_DATA_RECEIVED to (ack_x, ack_y)
//   f  a MEM_RD_RESP reaches the receive stream; the datapath's send stream
//      reaches the mesh
// Every flit the wrapper sends is compared whole with the one expected (its
// fields from tpu_noc_pkg). The mesh takes the wrapper's flits under random
// backpressure. The testbench drives at the falling edge and its monitors
// sample at the rising edge, so both simulators see the same handshakes. It
// prints PASS or FAIL.
`timescale 1ns / 1ps

module tb_cu_base;

  localparam int FlitW    = tpu_noc_pkg::FLIT_W;
  localparam int PayloadW = tpu_noc_pkg::PAYLOAD_W;
  localparam int Depth    = tpu_cu_pkg::INST_DEPTH;
  localparam int X        = 1;
  localparam int Y        = 2;
  localparam int MaxOut   = 64;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  logic                in_valid = 1'b0, in_ready;
  logic [FlitW-1:0]    in_flit = '0;
  logic                out_valid, out_ready = 1'b0;
  logic [FlitW-1:0]    out_flit;
  logic                inst_valid, inst_ready = 1'b0;
  logic [PayloadW-1:0] inst_payload;
  logic [7:0]          inst_txn;
  logic                exec_done = 1'b0, exec_fault = 1'b0;
  logic [31:0]         exec_result = '0;
  logic                recv_valid, recv_ready = 1'b1;
  logic [FlitW-1:0]    recv_flit;
  logic                send_valid = 1'b0, send_ready;
  logic [FlitW-1:0]    send_flit = '0;
  logic                data_we;
  logic [7:0]          data_buf;
  logic [15:0]         data_granule;
  logic [PayloadW-1:0] data_word;
  logic                busy = 1'b0;
  logic [63:0]         counters = 64'h0123_4567_89ab_cdef, dbg = 64'hfeed_0000_beef_0001;

  tpu_noc_cu_base #(
    .X          (X),
    .Y          (Y),
    .CapsType   (16'h0001),
    .CapsVersion(8'h02),
    .NBuffers   (3)
  ) dut (
    .clk_i         (clk),
    .rst_ni        (rst_n),
    .in_valid_i    (in_valid),
    .in_ready_o    (in_ready),
    .in_flit_i     (in_flit),
    .out_valid_o   (out_valid),
    .out_ready_i   (out_ready),
    .out_flit_o    (out_flit),
    .inst_valid_o  (inst_valid),
    .inst_ready_i  (inst_ready),
    .inst_payload_o(inst_payload),
    .inst_txn_o    (inst_txn),
    .exec_done_i   (exec_done),
    .exec_result_i (exec_result),
    .exec_fault_i  (exec_fault),
    .recv_valid_o  (recv_valid),
    .recv_ready_i  (recv_ready),
    .recv_flit_o   (recv_flit),
    .send_valid_i  (send_valid),
    .send_ready_o  (send_ready),
    .send_flit_i   (send_flit),
    .data_we_o     (data_we),
    .data_buf_o    (data_buf),
    .data_granule_o(data_granule),
    .data_word_o   (data_word),
    .busy_i        (busy),
    .counters_i    (counters),
    .dbg_i         (dbg)
  );

  int errors = 0;
  int cyc = 0;
  logic [31:0] rng = 32'h1234_5678;
  int bp_pct = 30;

  function automatic logic [31:0] xorshift(input logic [31:0] s);
    logic [31:0] t;
    t = s ^ (s << 13);
    t = t ^ (t >> 17);
    xorshift = t ^ (t << 5);
  endfunction

  // A flit: dst, src, type, txn, last, payload (rsvd 0).
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

  function automatic logic [PayloadW-1:0] sig(input logic [7:0] code, input logic [31:0] arg);
    sig = '0;
    sig[tpu_noc_pkg::CU_SIGNAL_CODE_LSB +: 8] = code;
    sig[tpu_noc_pkg::CU_SIGNAL_ARG_LSB +: 32] = arg;
  endfunction

  // A retirement (or signal) from the wrapper to (dx, dy).
  function automatic logic [FlitW-1:0] ret(input int dx, input int dy, input logic [7:0] txn, input logic [7:0] code,
                                           input logic [31:0] arg);
    ret = mk(dx, dy, X, Y, tpu_noc_pkg::TYPE_CU_SIGNAL, txn, 1'b1, sig(code, arg));
  endfunction

  function automatic logic [PayloadW-1:0] word_of(input int seed);
    word_of = '0;
    for (int k = 0; k < PayloadW / 32; k++) word_of[k*32 +: 32] = 32'(seed * 32'h9e37_79b9 + k);
  endfunction

  // --- The mesh side: what the wrapper sends, under random backpressure ----------------
  logic [FlitW-1:0] got[MaxOut];
  int               n_got = 0, n_seen = 0;
  int               in_stalls = 0;                                 // cycles in_valid waited for in_ready
  always @(negedge clk) begin
    cyc++;
    rng = xorshift(rng);
    out_ready = (32'(rng % 100) >= bp_pct);
  end
  // The monitors sample at the rising edge, before the design's registers
  // change (what they see is what the edge's handshakes see).
  always @(posedge clk) begin
    if (rst_n && out_valid && out_ready) begin
      if (n_got < MaxOut) got[n_got] = out_flit;
      n_got++;
    end
    if (rst_n && in_valid && !in_ready) in_stalls++;
  end

  // The receive stream, always drained.
  logic [FlitW-1:0] recvd[8];
  int               n_recv = 0;
  always @(posedge clk) begin
    if (rst_n && recv_valid && recv_ready) begin
      if (n_recv < 8) recvd[n_recv] = recv_flit;
      n_recv++;
    end
  end

  // The buffer writes.
  int               n_we = 0;
  logic [15:0]      we_gran[8];
  logic [7:0]       we_buf[8];
  logic [PayloadW-1:0] we_word[8];
  always @(posedge clk) begin
    if (rst_n && data_we) begin
      if (n_we < 8) begin
        we_gran[n_we] = data_granule;
        we_buf[n_we]  = data_buf;
        we_word[n_we] = data_word;
      end
      n_we++;
    end
  end

  // The datapath: instructions taken while inst_ready is up.
  logic [PayloadW-1:0] took_payload[32];
  logic [7:0]          took_txn[32];
  int                  n_took = 0;
  always @(posedge clk) begin
    if (rst_n && inst_valid && inst_ready) begin
      if (n_took < 32) begin
        took_payload[n_took] = inst_payload;
        took_txn[n_took]     = inst_txn;
      end
      n_took++;
    end
  end

  // One flit into the ejection port (called at a falling edge; returns at
  // the falling edge after its handshake).
  task automatic put(input logic [FlitW-1:0] f);
    in_valid = 1'b1;
    in_flit  = f;
    while (!in_ready) @(negedge clk);
    @(negedge clk);
    in_valid = 1'b0;
  endtask

  task automatic idle(input int n);
    repeat (n) @(negedge clk);
  endtask

  // One exec_done pulse.
  task automatic done(input logic [31:0] result, input logic fault);
    exec_done   = 1'b1;
    exec_result = result;
    exec_fault  = fault;
    @(negedge clk);
    exec_done  = 1'b0;
    exec_fault = 1'b0;
  endtask

  // Wait until `n` flits have come out (or give up).
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

  function automatic logic [FlitW-1:0] inst(input int sx, input int sy, input logic [7:0] txn, input logic last,
                                            input int seed);
    inst = mk(X, Y, sx, sy, tpu_noc_pkg::TYPE_CU_INST, txn, last, word_of(seed));
  endfunction

  function automatic logic [FlitW-1:0] ctrl_read(input int sx, input int sy, input logic [7:0] txn, input int index);
    logic [PayloadW-1:0] p;
    p = '0;
    p[tpu_noc_pkg::CU_CTRL_OP_LSB +: 8]    = tpu_noc_pkg::CU_CTRL_READ;
    p[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: 8] = 8'(index);
    ctrl_read = mk(X, Y, sx, sy, tpu_noc_pkg::TYPE_CU_CTRL, txn, 1'b1, p);
  endfunction

  function automatic logic [FlitW-1:0] ctrl_reply(input int dx, input int dy, input logic [7:0] txn, input int index,
                                                  input logic [63:0] value);
    logic [PayloadW-1:0] p;
    p = '0;
    p[tpu_noc_pkg::CU_CTRL_OP_LSB +: 8]     = tpu_noc_pkg::CU_CTRL_REPLY;
    p[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: 8]  = 8'(index);
    p[tpu_noc_pkg::CU_CTRL_VALUE_LSB +: 64] = value;
    ctrl_reply = mk(dx, dy, X, Y, tpu_noc_pkg::TYPE_CU_CTRL, txn, 1'b1, p);
  endfunction

  logic [31:0] ovf_arg;
  logic [63:0] caps, status;
  int          base;

  initial begin
    ovf_arg = 32'(tpu_cu_pkg::CU_FAULT_INST_OVERFLOW) << tpu_cu_pkg::FAULT_CODE_LSB;
    idle(3);
    rst_n = 1'b1;
    idle(2);

    // --- a: three instructions, last on the third ------------------------------------------
    // One instruction at a time (a host with one credit; INST_DEPTH may be 1).
    inst_ready = 1'b1;
    for (int i = 0; i < 3; i++) begin
      put(inst(0, 0, 8'h07, i == 2, 1 + i));
      while (n_took < i + 1) @(negedge clk);
      idle(i);
      done(32'(32'h100 + i), 1'b0);
    end
    if (took_payload[0] !== word_of(1) || took_payload[2] !== word_of(3) || took_txn[1] !== 8'h07) begin
      $display("FAIL a: the datapath's instructions");
      errors++;
    end
    wait_out(3);
    expect_flit(0, ret(0, 0, 8'h07, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h100), "a");
    expect_flit(1, ret(0, 0, 8'h07, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h101), "a");
    expect_flit(2, ret(0, 0, 8'h07, tpu_noc_pkg::SIG_BATCH_COMPLETE, 32'h07), "a");

    // --- b: a faulting final instruction ---------------------------------------------------
    put(inst(3, 1, 8'h09, 1'b0, 4));
    while (n_took < 4) @(negedge clk);
    done(32'h222, 1'b0);
    put(inst(3, 1, 8'h09, 1'b1, 5));
    while (n_took < 5) @(negedge clk);
    done(32'h0500_0123, 1'b1);
    wait_out(5);
    expect_flit(3, ret(3, 1, 8'h09, tpu_noc_pkg::SIG_INST_COMPLETE, 32'h222), "b");
    expect_flit(4, ret(3, 1, 8'h09, tpu_noc_pkg::SIG_FAULT, 32'h0500_0123), "b");

    // --- c: INST_DEPTH + 1 at once, the datapath stalled ------------------------------------
    inst_ready = 1'b0;
    idle(2);
    in_stalls = 0;
    for (int i = 0; i < Depth + 1; i++) put(inst(2, 0, 8'(8'h30 + i), 1'b0, 10 + i));
    if (in_stalls != 0) begin
      $display("FAIL c: the ejection port stalled %0d cycles", in_stalls);
      errors++;
    end
    wait_out(6);
    idle(4);
    if (n_got != 6) begin
      $display("FAIL c: %0d flits before the datapath ran, expected 6 (the overflow alone)", n_got);
      errors++;
    end
    expect_flit(5, ret(2, 0, 8'(8'h30 + Depth), tpu_noc_pkg::SIG_FAULT, ovf_arg), "c overflow");
    // STATUS while they wait: busy 0 (none handed out), error 1 (b), inst_space 0.
    status = '0;
    status[tpu_noc_pkg::CU_REG_STATUS_ERROR_LSB] = 1'b1;
    put(ctrl_read(1, 1, 8'h44, tpu_noc_pkg::CU_REG_STATUS));
    wait_out(7);
    expect_flit(6, ctrl_reply(1, 1, 8'h44, tpu_noc_pkg::CU_REG_STATUS, status), "c status");
    inst_ready = 1'b1;
    while (n_took < 5 + Depth) @(negedge clk);
    if (took_txn[5] !== 8'h30 || took_payload[4 + Depth] !== word_of(10 + Depth - 1)) begin
      $display("FAIL c: the instructions the datapath took");
      errors++;
    end
    // STATUS with instructions handed out: busy.
    status = '0;
    status[tpu_noc_pkg::CU_REG_STATUS_BUSY_LSB]  = 1'b1;
    status[tpu_noc_pkg::CU_REG_STATUS_ERROR_LSB] = 1'b1;
    put(ctrl_read(1, 1, 8'h45, tpu_noc_pkg::CU_REG_STATUS));
    wait_out(8);
    expect_flit(7, ctrl_reply(1, 1, 8'h45, tpu_noc_pkg::CU_REG_STATUS, status), "c status busy");
    for (int i = 0; i < Depth; i++) done(32'(32'h300 + i), 1'b0);
    wait_out(8 + Depth);
    for (int i = 0; i < Depth; i++)
      expect_flit(8 + i, ret(2, 0, 8'(8'h30 + i), tpu_noc_pkg::SIG_INST_COMPLETE, 32'(32'h300 + i)), "c");
    base = 8 + Depth;

    // --- d: CU_CTRL reads -------------------------------------------------------------------
    caps = '0;
    caps[tpu_noc_pkg::CU_REG_CAPS_TYPE_LSB +: 16]      = 16'h0001;
    caps[tpu_noc_pkg::CU_REG_CAPS_VERSION_LSB +: 8]    = 8'h02;
    caps[tpu_noc_pkg::CU_REG_CAPS_N_BUFFERS_LSB +: 4]  = 4'd3;
    caps[tpu_noc_pkg::CU_REG_CAPS_INST_DEPTH_LSB +: 16] = 16'(Depth);
    status = '0;
    status[tpu_noc_pkg::CU_REG_STATUS_ERROR_LSB] = 1'b1;
    status[tpu_noc_pkg::CU_REG_STATUS_INST_SPACE_LSB +: 16] = 16'(Depth);
    put(ctrl_read(3, 3, 8'h50, tpu_noc_pkg::CU_REG_CAPS));
    put(ctrl_read(3, 3, 8'h51, tpu_noc_pkg::CU_REG_STATUS));
    put(ctrl_read(3, 3, 8'h52, tpu_noc_pkg::CU_REG_COUNTERS));
    put(ctrl_read(3, 3, 8'h53, tpu_noc_pkg::CU_REG_DBG));
    put(ctrl_read(3, 3, 8'h54, 9));
    wait_out(base + 5);
    expect_flit(base + 0, ctrl_reply(3, 3, 8'h50, tpu_noc_pkg::CU_REG_CAPS, caps), "d caps");
    expect_flit(base + 1, ctrl_reply(3, 3, 8'h51, tpu_noc_pkg::CU_REG_STATUS, status), "d status");
    expect_flit(base + 2, ctrl_reply(3, 3, 8'h52, tpu_noc_pkg::CU_REG_COUNTERS, counters), "d counters");
    expect_flit(base + 3, ctrl_reply(3, 3, 8'h53, tpu_noc_pkg::CU_REG_DBG, dbg), "d dbg");
    expect_flit(base + 4, ctrl_reply(3, 3, 8'h54, 9, 64'd0), "d unknown");
    base = base + 5;

    // --- e: CU_DATA, 3 data flits, SIGNAL -----------------------------------------------------
    begin
      logic [PayloadW-1:0] d;
      d = '0;
      d[tpu_noc_pkg::CU_DATA_BUF_ID_LSB +: 8]  = 8'd2;
      d[tpu_noc_pkg::CU_DATA_OFFSET_LSB +: 16] = 16'd5;
      d[tpu_noc_pkg::CU_DATA_LEN_LSB +: 8]     = 8'd2;
      d[tpu_noc_pkg::CU_DATA_FLAGS_LSB + tpu_noc_pkg::CU_DATA_FLAGS_SIGNAL_BIT] = 1'b1;
      d[tpu_noc_pkg::CU_DATA_ACK_X_LSB +: 4]   = 4'd2;
      d[tpu_noc_pkg::CU_DATA_ACK_Y_LSB +: 4]   = 4'd3;
      put(mk(X, Y, 0, 3, tpu_noc_pkg::TYPE_CU_DATA, 8'h66, 1'b0, d));
      put(mk(X, Y, 0, 3, tpu_noc_pkg::TYPE_CU_DATA, 8'h66, 1'b0, word_of(40)));
      put(mk(X, Y, 0, 3, tpu_noc_pkg::TYPE_CU_DATA, 8'h66, 1'b0, word_of(41)));
      put(mk(X, Y, 0, 3, tpu_noc_pkg::TYPE_CU_DATA, 8'h66, 1'b1, word_of(42)));
    end
    wait_out(base + 1);
    if (n_we != 3) begin
      $display("FAIL e: %0d buffer writes, expected 3", n_we);
      errors++;
    end
    for (int i = 0; i < 3; i++) begin
      if (we_gran[i] !== 16'(5 + i) || we_buf[i] !== 8'd2 || we_word[i] !== word_of(40 + i)) begin
        $display("FAIL e: write %0d: buffer %0d granule %0d", i, we_buf[i], we_gran[i]);
        errors++;
      end
    end
    expect_flit(base, ret(2, 3, 8'h66, tpu_noc_pkg::SIG_DATA_RECEIVED, 32'd2), "e");
    base = base + 1;

    // --- f: a MEM_RD_RESP to the receive stream; the send stream to the mesh ----------------------
    put(mk(X, Y, 0, 1, tpu_noc_pkg::TYPE_MEM_RD_RESP, 8'h12, 1'b1, word_of(50)));
    idle(4);
    if (n_recv != 1 || recvd[0] !== mk(X, Y, 0, 1, tpu_noc_pkg::TYPE_MEM_RD_RESP, 8'h12, 1'b1, word_of(50))) begin
      $display("FAIL f: the receive stream (%0d flits)", n_recv);
      errors++;
    end
    // send_ready follows out_ready, which the mesh side sets at this edge:
    // sampled a moment after it.
    send_valid = 1'b1;
    send_flit  = mk(0, 1, X, Y, tpu_noc_pkg::TYPE_MEM_RD_REQ, 8'h13, 1'b1, word_of(51));
    begin
      logic ok;
      do begin
        #1 ok = send_ready;
        @(negedge clk);
      end while (!ok);
    end
    send_valid = 1'b0;
    wait_out(base + 1);
    expect_flit(base, mk(0, 1, X, Y, tpu_noc_pkg::TYPE_MEM_RD_REQ, 8'h13, 1'b1, word_of(51)), "f send");
    base = base + 1;

    idle(20);
    if (n_got != base) begin
      $display("FAIL: %0d flits sent in all, expected %0d", n_got, base);
      errors++;
    end
    if (errors == 0) $display("PASS tb_cu_base: %0d flits checked, INST_DEPTH %0d", n_got, Depth);
    else $display("FAIL tb_cu_base: %0d errors", errors);
    $finish;
  end

  initial begin
    #200000;
    $display("FAIL: timeout (%0d flits out, %0d instructions taken, %0d writes, %0d received)", n_got, n_took, n_we, n_recv);
    $finish;
  end

endmodule
