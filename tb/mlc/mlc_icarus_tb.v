// sanfab — self-checking Icarus Verilog bench for the Maestro Link Controller (rtl/mlc/mlc_pair.v: the
// master and the slave of one link), no C model.
//
// Plain Verilog-2005; run it through tb/mlc/run_icarus.sh. Written from docs/mlc.md:
//   link:      the bench carries each end's tx_en/tx_d to the other end's rx_en/rx_d through
//              LINK_DELAY cable registers (rule 1); every CORRUPT-th data frame gets one unit nibble
//              flipped on the wire (0: none), which the receiver must drop (err_check) and the sender
//              resend (retx);
//   traffic:   both nodes send MSGS messages on each channel (Type0 and Type1 of 1..9 units, the
//              Pkt-Counter set), written under FIFO flow control (a word only while st_tx_space >= 2)
//              and read under it (only while st_rx_avail >= 2); every word read must be the next word
//              the other node wrote on that channel (whole, unaltered, in order), h_rvalid exactly
//              when a read was made; the configuration CFG (register 16) is written into both ends;
//   link rules: at no end's pins do both ends drive in one cycle; frames alternate strictly between
//              the ends; the master's first frame starts in step TURN + 1; every frame is F(NP)
//              symbols long, NP its first nibble; the next frame starts exactly F + G steps after the
//              previous one started, G = 2 + LINK_DELAY + TURN (rule 3);
//   registers: after the traffic, through the register port (answered in the step of the read, with
//              the value after the step before): tx_frames against the frame starts the bench saw,
//              tx_pkts = units written + retx, rx_pkts = units the other node wrote, err_check =
//              frames corrupted towards this end, retx = units of the corrupted frames, err_len,
//              err_credit, dup, timeout, conflict, wr_over, rd_under all 0 (modulo 2^CTR_W), the
//              configuration, the four status registers against the status outputs, and an unused
//              address answering 0x80000000.
// The first problems print "FAIL: ..."; the run ends with "RESULT PASS ..." or "RESULT FAIL ...".
// +vcd[=FILE] dumps waves.
`default_nettype none
/* verilator lint_off INITIALDLY */
/* verilator lint_off BLKSEQ */

module mlc_icarus_tb;

    parameter LINK_W     = 4;
    parameter FIFO_BYTES = 2048;
    parameter TURN       = 1;
    parameter TIMEOUT    = 1024;
    parameter CTR_W      = 16;
    parameter LINK_DELAY = 0;
    parameter CFG        = 0;        // configuration register: bit 0 MSG, bits 2..1 SP
    parameter MSGS       = 24;       // messages per node and channel
    parameter CORRUPT    = 7;        // every CORRUPT-th data frame on the wire gets a nibble flipped (0: none)
    parameter WATCHDOG   = 400000;

    localparam MAXW  = MSGS * 9 * 8;            // words of one stream at most
    localparam G     = 2 + LINK_DELAY + TURN;   // idle steps of a turn-round
    localparam [31:0] CMASK = (CTR_W >= 32) ? 32'hFFFFFFFF : ((32'd1 << CTR_W) - 1);

    // ------------------------------------------------------------------ DUT
    reg               clk = 1'b0;
    reg               rst = 1'b1;
    reg  [1:0]        h_wr = 0, h_wch = 0, h_rd = 0, h_rch = 0;
    reg  [15:0]       h_wdata0 = 0, h_wdata1 = 0;
    wire [1:0]        h_rvalid;
    wire [15:0]       h_rdata0, h_rdata1;
    wire [12:0]       a_sp0, a_sp1, a_av0, a_av1, b_sp0, b_sp1, b_av0, b_av1;
    wire              a_tx_en, b_tx_en;
    wire [LINK_W-1:0] a_tx_d, b_tx_d;
    wire              a_rx_en, b_rx_en;
    wire [LINK_W-1:0] a_rx_d, b_rx_d;
    reg  [1:0]        reg_rd = 0, reg_wr = 0;
    reg  [4:0]        reg_addr0 = 0, reg_addr1 = 0;
    reg  [15:0]       reg_wdata = 0;
    wire [1:0]        reg_rvalid;
    wire [31:0]       reg_rdata0, reg_rdata1;

    always #5 clk = ~clk;

    mlc_pair #(.LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN), .TIMEOUT(TIMEOUT), .CTR_W(CTR_W),
               .LINK_DELAY(LINK_DELAY)) dut (
        .clk(clk), .rst(rst),
        .a_h_wr(h_wr[0]), .a_h_wch(h_wch[0]), .a_h_wdata(h_wdata0), .a_h_rd(h_rd[0]), .a_h_rch(h_rch[0]),
        .a_h_rvalid(h_rvalid[0]), .a_h_rdata(h_rdata0),
        .a_st_tx_space0(a_sp0), .a_st_tx_space1(a_sp1), .a_st_rx_avail0(a_av0), .a_st_rx_avail1(a_av1),
        .a_tx_en(a_tx_en), .a_tx_d(a_tx_d), .a_rx_en(a_rx_en), .a_rx_d(a_rx_d),
        .a_reg_rd(reg_rd[0]), .a_reg_wr(reg_wr[0]), .a_reg_addr(reg_addr0), .a_reg_wdata(reg_wdata),
        .a_reg_rvalid(reg_rvalid[0]), .a_reg_rdata(reg_rdata0),
        .b_h_wr(h_wr[1]), .b_h_wch(h_wch[1]), .b_h_wdata(h_wdata1), .b_h_rd(h_rd[1]), .b_h_rch(h_rch[1]),
        .b_h_rvalid(h_rvalid[1]), .b_h_rdata(h_rdata1),
        .b_st_tx_space0(b_sp0), .b_st_tx_space1(b_sp1), .b_st_rx_avail0(b_av0), .b_st_rx_avail1(b_av1),
        .b_tx_en(b_tx_en), .b_tx_d(b_tx_d), .b_rx_en(b_rx_en), .b_rx_d(b_rx_d),
        .b_reg_rd(reg_rd[1]), .b_reg_wr(reg_wr[1]), .b_reg_addr(reg_addr1), .b_reg_wdata(reg_wdata),
        .b_reg_rvalid(reg_rvalid[1]), .b_reg_rdata(reg_rdata1));

    // ------------------------------------------------------------------ bookkeeping
    integer step = 0;          // edges since reset (the outputs seen after edge s are those after step s)
    integer fails = 0;

    task fail;
        input [8*120-1:0] msg;
        begin
            fails = fails + 1;
            if (fails <= 10) $display("FAIL: %0s (step %0d)", msg, step);
        end
    endtask

    always @(posedge clk) if (!rst) step <= step + 1;

    // ------------------------------------------------------------------ link model (rule 1), corruption
    // what each end puts on the wire after a step, possibly with one nibble flipped
    reg              w_en [0:1];
    reg [LINK_W-1:0] w_d  [0:1];
    integer          sym  [0:1];       // symbol index of the frame being sent (the bench's count)
    integer          dframes [0:1];    // data frames sent per end
    integer          ncorrupt [0:1];   // frames corrupted, by sending end
    integer          ucorrupt [0:1];   // units in them
    reg [3:0]        np_cur [0:1];
    reg              hit [0:1];        // the current frame is corrupted

    always @* begin
        w_en[0] = a_tx_en;
        w_d[0]  = a_tx_d ^ ((hit[0] && sym[0] == 6) ? {{(LINK_W-1){1'b0}}, 1'b1} : {LINK_W{1'b0}});
        w_en[1] = b_tx_en;
        w_d[1]  = b_tx_d ^ ((hit[1] && sym[1] == 6) ? {{(LINK_W-1){1'b0}}, 1'b1} : {LINK_W{1'b0}});
    end

    generate
        if (LINK_DELAY == 0) begin : g_wire
            assign b_rx_en = w_en[0];
            assign b_rx_d  = w_d[0];
            assign a_rx_en = w_en[1];
            assign a_rx_d  = w_d[1];
        end else begin : g_cable
            reg [LINK_W:0] ab [0:LINK_DELAY-1];
            reg [LINK_W:0] ba [0:LINK_DELAY-1];
            integer i;
            always @(posedge clk) begin
                if (rst) begin
                    for (i = 0; i < LINK_DELAY; i = i + 1) begin
                        ab[i] <= 0;
                        ba[i] <= 0;
                    end
                end else begin
                    for (i = LINK_DELAY - 1; i > 0; i = i - 1) begin
                        ab[i] <= ab[i-1];
                        ba[i] <= ba[i-1];
                    end
                    ab[0] <= {w_en[0], w_d[0]};
                    ba[0] <= {w_en[1], w_d[1]};
                end
            end
            assign b_rx_en = ab[LINK_DELAY-1][LINK_W];
            assign b_rx_d  = ab[LINK_DELAY-1][LINK_W-1:0];
            assign a_rx_en = ba[LINK_DELAY-1][LINK_W];
            assign a_rx_d  = ba[LINK_DELAY-1][LINK_W-1:0];
        end
    endgenerate

    // ------------------------------------------------------------------ link rules (at the tx outputs)
    integer starts [0:1];              // frame starts seen per end
    integer last_end_node = -1;        // end whose frame started last
    integer last_start = 0, last_len = 0, first_start = -1;
    integer n_gap_ok = 0;
    reg     prev_en [0:1];
    integer len_cur [0:1];
    integer start_cur [0:1];
    integer e;
    reg [3:0] np0;

    // frame length of n units in symbols: (8 + 32 n) * 4 / LINK_W
    function integer flen;
        input integer n;
        begin
            flen = (8 + 32 * n) * 4 / LINK_W;
        end
    endfunction

    initial begin
        for (e = 0; e < 2; e = e + 1) begin
            sym[e] = 0; dframes[e] = 0; ncorrupt[e] = 0; ucorrupt[e] = 0; np_cur[e] = 0; hit[e] = 0;
            starts[e] = 0; prev_en[e] = 0; len_cur[e] = 0; start_cur[e] = 0;
        end
    end

    always @(posedge clk) begin
        #1;
        if (!rst) begin
            // exactly one end drives: at each end's pins, its own CTL and the other's never at once
            if (a_tx_en && a_rx_en) fail("both ends drive at the master's pins");
            if (b_tx_en && b_rx_en) fail("both ends drive at the slave's pins");
            for (e = 0; e < 2; e = e + 1) begin
                if ((e == 0 ? a_tx_en : b_tx_en) && !prev_en[e]) begin
                    // a frame starts after this step
                    np0 = e == 0 ? a_tx_d[3:0] : b_tx_d[3:0];
                    starts[e] = starts[e] + 1;
                    start_cur[e] = step;
                    len_cur[e] = 1;
                    np_cur[e] = np0;
                    sym[e] = 1;
                    if (first_start < 0) begin
                        first_start = step;
                        if (e != 0) fail("the first frame is not the master's");
                        if (step != TURN + 1) begin
                            $display("FAIL: the master's first frame starts in step %0d, expected TURN + 1 = %0d",
                                     step, TURN + 1);
                            fails = fails + 1;
                        end
                    end else begin
                        if (last_end_node == e) fail("two frames of one end in a row (no turn-round)");
                        if (step != last_start + last_len + G) begin
                            if (fails < 10)
                                $display("FAIL: frame of end %0d starts %0d steps after the previous one started (F %0d + G %0d expected) (step %0d)",
                                         e, step - last_start, last_len, G, step);
                            fails = fails + 1;
                        end else
                            n_gap_ok = n_gap_ok + 1;
                    end
                    last_end_node = e;
                    last_start = step;
                    // corrupt every CORRUPT-th data frame (one unit nibble, symbol 6)
                    hit[e] = 0;
                    if (np0 != 0) begin
                        dframes[e] = dframes[e] + 1;
                        if (CORRUPT > 0 && dframes[e] % CORRUPT == 0) begin
                            hit[e] = 1;
                            ncorrupt[e] = ncorrupt[e] + 1;
                            ucorrupt[e] = ucorrupt[e] + np0;
                        end
                    end
                end else if (e == 0 ? a_tx_en : b_tx_en) begin
                    len_cur[e] = len_cur[e] + 1;
                    sym[e] = sym[e] + 1;
                end else if (prev_en[e]) begin
                    // the frame ended: its length against its NP
                    if (len_cur[e] != flen(np_cur[e])) begin
                        if (fails < 10)
                            $display("FAIL: frame of end %0d with NP %0d is %0d symbols long, F(NP) = %0d (step %0d)",
                                     e, np_cur[e], len_cur[e], flen(np_cur[e]), step);
                        fails = fails + 1;
                    end
                    last_len = len_cur[e];
                    hit[e] = 0;
                    sym[e] = 0;
                end
                prev_en[e] = e == 0 ? a_tx_en : b_tx_en;
            end
        end
    end

    // ------------------------------------------------------------------ message streams
    // stream (node n, channel c): MSGS messages; message m has units(n, c, m) units: 1 (Type0) or a
    // Type1 with the Pkt-Counter in the second unit's word 0
    reg [15:0] strm [0:4*MAXW-1];      // (n * 2 + c) * MAXW + word
    integer    slen [0:3];             // words per stream
    integer    wpos [0:3];             // words written
    integer    rpos [0:3];             // words read (of the stream the reader expects)
    integer    units_of [0:3];

    function integer munits;
        input integer n, c, m;
        begin
            munits = 1 + (m * 5 + c * 3 + n * 7 + m / 3) % 9;
        end
    endfunction

    function [15:0] wordval;           // a data word of stream s, word k
        input integer s, k;
        reg [31:0] h;
        begin
            h = (s + 1) * 32'h9E3779B1 + k * 32'h85EBCA6B;
            h = h ^ (h >> 13);
            h = h * 32'hC2B2AE35;
            wordval = h[31:16] ^ h[15:0];
        end
    endfunction

    task build_streams;
        integer n, c, m, u, w, s, k, nu;
        begin
            for (n = 0; n < 2; n = n + 1)
                for (c = 0; c < 2; c = c + 1) begin
                    s = n * 2 + c;
                    k = 0;
                    units_of[s] = 0;
                    for (m = 0; m < MSGS; m = m + 1) begin
                        nu = munits(n, c, m);
                        units_of[s] = units_of[s] + nu;
                        for (u = 0; u < nu; u = u + 1)
                            for (w = 0; w < 8; w = w + 1) begin
                                if (u == 0 && w == 0)       // header: byte 0 TYPE | KIND 0, byte 1 DST
                                    strm[s * MAXW + k] = {8'd1 - n[7:0], 7'd0, nu > 1 ? 1'b1 : 1'b0};
                                else if (u == 1 && w == 0)  // Pkt-Counter
                                    strm[s * MAXW + k] = nu;
                                else
                                    strm[s * MAXW + k] = wordval(s, k);
                                k = k + 1;
                            end
                    end
                    slen[s] = k;
                    wpos[s] = 0;
                    rpos[s] = 0;
                end
        end
    endtask

    // ------------------------------------------------------------------ hosts
    reg         hosts_on = 0;
    integer     rd_issued [0:1];       // 1: a read was made in the step just run, of channel rd_ch
    integer     rd_ch [0:1];
    integer     wrr [0:1], rrr [0:1];
    integer     words_read = 0;
    integer     n, i, c, s, x;
    reg [12:0]  sp, av;
    reg [15:0]  got;

    initial begin
        for (n = 0; n < 2; n = n + 1) begin
            rd_issued[n] = 0; rd_ch[n] = 0; wrr[n] = 0; rrr[n] = 0;
        end
    end

    // after each edge: check the read answered, then choose this node's write and read of the next step
    always @(posedge clk) begin
        #2;
        if (!rst) begin
            for (n = 0; n < 2; n = n + 1) begin
                got = n == 0 ? h_rdata0 : h_rdata1;
                if (rd_issued[n]) begin
                    s = (1 - n) * 2 + rd_ch[n];         // the other node's stream of that channel
                    if (!h_rvalid[n]) begin
                        if (fails < 10) $display("FAIL: node %0d read of channel %0d refused (step %0d)", n, rd_ch[n], step);
                        fails = fails + 1;
                    end else if (rpos[s] >= slen[s]) begin
                        if (fails < 10) $display("FAIL: node %0d read a word beyond what was sent on channel %0d (step %0d)",
                                                 n, rd_ch[n], step);
                        fails = fails + 1;
                    end else begin
                        if (got !== strm[s * MAXW + rpos[s]]) begin
                            if (fails < 10)
                                $display("FAIL: node %0d channel %0d word %0d is 0x%h, sent 0x%h (step %0d)", n, rd_ch[n],
                                         rpos[s], got, strm[s * MAXW + rpos[s]], step);
                            fails = fails + 1;
                        end
                        rpos[s] = rpos[s] + 1;
                        words_read = words_read + 1;
                    end
                end else if (h_rvalid[n] || got !== 16'd0) begin
                    if (fails < 10) $display("FAIL: node %0d h_rvalid %b h_rdata 0x%h without a read (step %0d)", n,
                                             h_rvalid[n], got, step);
                    fails = fails + 1;
                end
                // next step's write: the first channel (round robin) with words left and space
                h_wr[n] = 0;
                h_rd[n] = 0;
                rd_issued[n] = 0;
                if (hosts_on) begin
                    for (i = 0; i < 2; i = i + 1) begin
                        c = (wrr[n] + i) % 2;
                        s = n * 2 + c;
                        sp = n == 0 ? (c == 0 ? a_sp0 : a_sp1) : (c == 0 ? b_sp0 : b_sp1);
                        if (!h_wr[n] && wpos[s] < slen[s] && sp >= 2) begin
                            h_wr[n] = 1;
                            h_wch[n] = c;
                            if (n == 0) h_wdata0 = strm[s * MAXW + wpos[s]];
                            else h_wdata1 = strm[s * MAXW + wpos[s]];
                            wpos[s] = wpos[s] + 1;
                            wrr[n] = (c + 1) % 2;
                        end
                    end
                    // next step's read: the first channel with bytes available
                    for (i = 0; i < 2; i = i + 1) begin
                        c = (rrr[n] + i) % 2;
                        av = n == 0 ? (c == 0 ? a_av0 : a_av1) : (c == 0 ? b_av0 : b_av1);
                        if (!h_rd[n] && av >= 2) begin
                            h_rd[n] = 1;
                            h_rch[n] = c;
                            rd_issued[n] = 1;
                            rd_ch[n] = c;
                            rrr[n] = (c + 1) % 2;
                        end
                    end
                end
            end
        end
    end

    // ------------------------------------------------------------------ register port
    // a register request for the next step on node nn; its answer checked after that step
    task reg_access;
        input integer nn;
        input integer wr;
        input [4:0] a;
        input [15:0] wd;
        output [31:0] val;
        begin
            @(posedge clk); #3;
            if (nn == 0) reg_addr0 = a; else reg_addr1 = a;
            reg_wdata = wd;
            reg_rd[nn] = !wr;
            reg_wr[nn] = wr;
            @(posedge clk); #3;
            reg_rd[nn] = 0;
            reg_wr[nn] = 0;
            val = nn == 0 ? reg_rdata0 : reg_rdata1;
            if (!wr && !reg_rvalid[nn]) begin
                if (fails < 10) $display("FAIL: node %0d register %0d read not answered in its step (step %0d)", nn, a, step);
                fails = fails + 1;
            end
            if (wr && (reg_rvalid[nn] || val !== 32'd0)) begin
                if (fails < 10) $display("FAIL: node %0d register write answered as a read (step %0d)", nn, step);
                fails = fails + 1;
            end
        end
    endtask

    integer checked = 0;

    task expect_reg;
        input integer nn;
        input [4:0] a;
        input [31:0] want;
        input [8*24-1:0] name;
        reg [31:0] v;
        begin
            reg_access(nn, 0, a, 16'd0, v);
            checked = checked + 1;
            if (v !== want) begin
                if (fails < 10)
                    $display("FAIL: node %0d register %0d (%0s) reads %0d (0x%h), expected %0d (0x%h) (step %0d)", nn, a,
                             name, v, v, want, want, step);
                fails = fails + 1;
            end
        end
    endtask

    // ------------------------------------------------------------------ the run
    reg [8*256-1:0] vcdfile;
    integer busy, k, nr, tf_snap, units_w;
    reg [31:0] v;

    task finish_run;
        begin
            if (fails == 0)
                $display("RESULT PASS messages=%0d words=%0d frames=%0d corrupted=%0d counters=%0d steps=%0d",
                         4 * MSGS, words_read, starts[0] + starts[1], ncorrupt[0] + ncorrupt[1], checked, step);
            else
                $display("RESULT FAIL fails=%0d words=%0d steps=%0d", fails, words_read, step);
            $finish;
        end
    endtask

    initial begin
        if ($test$plusargs("vcd")) begin
            if (!$value$plusargs("vcd=%s", vcdfile)) vcdfile = "mlc_icarus_tb.vcd";
            $dumpfile(vcdfile);
            $dumpvars(0, mlc_icarus_tb);
        end
        build_streams;
        repeat (3) @(posedge clk);
        #3 rst = 0;

        // configuration into both ends, read back
        reg_access(0, 1, 5'd16, CFG, v);
        reg_access(1, 1, 5'd16, CFG, v);
        expect_reg(0, 5'd16, CFG, "configuration");
        expect_reg(1, 5'd16, CFG, "configuration");

        // traffic both ways on both channels until every word has been read
        hosts_on = 1;
        busy = 1;
        k = 0;
        while (busy && k < WATCHDOG) begin
            @(posedge clk); #4;
            if (fails) finish_run;              // the first problems are printed: no need to wait
            busy = 0;
            for (x = 0; x < 4; x = x + 1)
                if (rpos[x] != slen[x]) busy = 1;
            k = k + 1;
        end
        if (busy) begin
            for (x = 0; x < 4; x = x + 1)
                if (rpos[x] != slen[x])
                    $display("FAIL: stream of node %0d channel %0d: %0d of %0d words written, %0d read", x / 2, x % 2,
                             wpos[x], slen[x], rpos[x]);
            fails = fails + 1;
            finish_run;
        end
        hosts_on = 0;
        repeat (2 * (flen(15) + G) + 10) @(posedge clk);   // every acknowledgement settled

        // counters and registers of both ends
        for (nr = 0; nr < 2; nr = nr + 1) begin : regs
            integer nn, on;
            nn = nr;
            on = 1 - nr;
            units_w = units_of[nn * 2] + units_of[nn * 2 + 1];
            // tx_frames: the value after the step before the read = frame starts seen up to then
            @(posedge clk); #3;
            tf_snap = starts[nn];
            if (nn == 0) reg_addr0 = 5'd0; else reg_addr1 = 5'd0;
            reg_rd[nn] = 1;
            @(posedge clk); #3;
            reg_rd[nn] = 0;
            v = nn == 0 ? reg_rdata0 : reg_rdata1;
            checked = checked + 1;
            if (!reg_rvalid[nn] || v !== (tf_snap & CMASK)) begin
                if (fails < 10) $display("FAIL: node %0d tx_frames reads %0d (valid %b), %0d frame starts seen", nn, v,
                                         reg_rvalid[nn], tf_snap);
                fails = fails + 1;
            end
            expect_reg(nn, 5'd2, (units_w + ucorrupt[nn]) & CMASK, "tx_pkts");
            expect_reg(nn, 5'd5, (units_of[on * 2] + units_of[on * 2 + 1]) & CMASK, "rx_pkts");
            expect_reg(nn, 5'd6, ncorrupt[on] & CMASK, "err_check");
            expect_reg(nn, 5'd7, 0, "err_len");
            expect_reg(nn, 5'd8, 0, "err_credit");
            expect_reg(nn, 5'd9, 0, "dup");
            expect_reg(nn, 5'd10, ucorrupt[nn] & CMASK, "retx");
            expect_reg(nn, 5'd11, 0, "timeout");
            expect_reg(nn, 5'd12, 0, "conflict");
            expect_reg(nn, 5'd13, 0, "wr_over");
            expect_reg(nn, 5'd14, 0, "rd_under");
            expect_reg(nn, 5'd16, CFG, "configuration");
            expect_reg(nn, 5'd17, FIFO_BYTES, "st_tx_space0");
            expect_reg(nn, 5'd18, FIFO_BYTES, "st_tx_space1");
            expect_reg(nn, 5'd19, 0, "st_rx_avail0");
            expect_reg(nn, 5'd20, 0, "st_rx_avail1");
            expect_reg(nn, 5'd23, 32'h80000000, "no such register");
        end
        if (n_gap_ok < 10) begin
            $display("FAIL: only %0d turn-rounds checked", n_gap_ok);
            fails = fails + 1;
        end
        if (CORRUPT > 0 && ncorrupt[0] + ncorrupt[1] == 0) begin
            $display("FAIL: no frame was corrupted (CORRUPT %0d)", CORRUPT);
            fails = fails + 1;
        end
        finish_run;
    end

    initial begin
        #(WATCHDOG * 10 + 100000);
        $display("FAIL: watchdog after %0d cycles", WATCHDOG);
        $display("RESULT FAIL watchdog");
        $finish;
    end

endmodule

`default_nettype wire
