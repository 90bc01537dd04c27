// sanfab — self-checking Icarus Verilog bench for the Maestro switch box (rtl/sbox/sbox.v, file list
// rtl/sbox/files.f), no C model.
//
// Plain Verilog-2005; run it through tb/sbox/run_icarus.sh. Written from docs/sbox.md:
//   setup:     PORTS node MLCs (rtl/mlc/, MASTER = 1) joined directly to the box's ports (the
//              box's ends are slaves); table node p -> port p for p < PORTS, node PORTS invalid
//              (NODES = PORTS + 1), no up port; register port checks (table write/read, an ignored
//              write, d >= NODES, no up port, MLC p >= PORTS, an unused address);
//   transit:   one Type0 unit node 0 -> node 1 through the idle box: accepted by port 0's MLC in
//              step t (its st_rx_avail0 shows 16 bytes after t), written into port 1's send FIFO in
//              steps t+6 .. t+13 (its st_tx_space0 after t+5, t+6, t+12, t+13), delivered whole;
//   barrier:   every node requests a barrier of all PORTS nodes on channel 0, one after another
//              BAR_GAP steps apart: every node gets the box's release (0xFF06, the member mask,
//              0x00FF) exactly once and none before the last request was written; bar_req =
//              PORTS, bar_done = 1, the barrier idle again (0x111);
//   random:    every node sends MSGS messages: channel, unicast to a routed / unrouted / own /
//              out-of-range (NODES, NODES + 1) node or multicast to a random mask, Type0 or Type1 (PC 0..5, or 0..39
//              with LONG: longer than the FIFOs), written under flow control (st_tx_space >= 2),
//              read under it (st_rx_avail >= 2, SLOW: readers stall 3 steps in 4); scoreboard: every
//              message whole (length, every payload word), in order per (source, channel,
//              destination), exactly once at every port of its port set, never at its sender;
//              the box counters msgs, mcast, drop_route, err_msg against the bench's counts;
//   always:    at every port exactly one end drives the link in a cycle; a watchdog (WATCHDOG steps);
//   at the end the box MLCs' wr_over and rd_under (MLC registers 13, 14 at 0x000 + p*32 + a) = 0.
// The first problems print "FAIL: ..."; the run ends with "RESULT PASS ..." or "RESULT FAIL ...".
// +vcd[=FILE] dumps waves.
`default_nettype none
/* verilator lint_off INITIALDLY */
/* verilator lint_off BLKSEQ */

module sbox_icarus_tb;
    parameter PORTS      = 3;
    parameter LINK_W     = 4;
    parameter FIFO_BYTES = 2048;
    parameter TURN       = 1;
    parameter TIMEOUT    = 1024;
    parameter CTR_W      = 16;
    parameter MSGS       = 40;       // random messages per node
    parameter SLOW       = 0;        // 1: readers stall 3 steps in 4
    parameter LONG       = 0;        // 1: Type1 messages of up to 39 units
    parameter BAR_GAP    = 200;      // steps between two nodes' barrier requests
    parameter SEED       = 1;
    parameter WATCHDOG   = 60000;    // steps (the default sets end in 9,000-13,000)

    localparam NODES = PORTS + 1;
    localparam NSQ   = PORTS * 2 * MSGS;
    localparam [15:0] MEMBERS = (16'd1 << PORTS) - 16'd1;

    reg clk = 1'b0, rst = 1'b1;
    always #5 clk = ~clk;

    wire [PORTS-1:0]        b_tx_en, b_rx_en;
    wire [PORTS*LINK_W-1:0] b_tx_d, b_rx_d;
    reg        reg_rd = 1'b0, reg_wr = 1'b0;
    reg [8:0]  reg_addr = 9'd0;
    reg [15:0] reg_wdata = 16'd0;
    wire       reg_rvalid;
    wire [31:0] reg_rdata;

    sbox #(.PORTS(PORTS), .NODES(NODES), .LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN),
           .TIMEOUT(TIMEOUT), .CTR_W(CTR_W), .MASTER_MASK(0)) dut (
        .clk(clk), .rst(rst), .rx_en(b_rx_en), .rx_d(b_rx_d), .tx_en(b_tx_en), .tx_d(b_tx_d),
        .reg_rd(reg_rd), .reg_wr(reg_wr), .reg_addr(reg_addr), .reg_wdata(reg_wdata),
        .reg_rvalid(reg_rvalid), .reg_rdata(reg_rdata));

    // ------------------------------------------------------------------ bookkeeping
    integer step = 0;                 // after posedge k (not in reset): step = k
    always @(posedge clk) step <= rst ? 0 : step + 1;

    integer fails = 0, fail_step = 0;
    integer drops = 0, errmsg = 0, nmsgs = 0, nmcast = 0, words_read = 0;
    task fail(input [8*120-1:0] msg);
        begin
            fails = fails + 1;
            if (fails == 1) fail_step = step;
            if (fails <= 20) $display("FAIL: step %0d: %0s", step, msg);
            if (fails >= 20) begin
                $display("RESULT FAIL fails=%0d (stopped) words=%0d steps=%0d", fails, words_read, step);
                $finish;
            end
        end
    endtask

    integer phase = 0;                // 1 transit, 2 barrier, 3 random, 4 drain
    integer exp_cnt [0:PORTS-1];      // data messages due at each node (random phase)
    integer got_cnt [0:PORTS-1];
    integer rel_cnt [0:PORTS-1];      // barrier releases received
    integer dir_cnt [0:PORTS-1];      // directed (transit) messages received
    integer sent_done [0:PORTS-1];
    integer req_done [0:PORTS-1];     // step after which node p's barrier request was written
    integer rel_step [0:PORTS-1];
    reg [7:0] expm [0:NSQ-1];         // port set of message (src, ch, seq): index (src*2+ch)*MSGS+seq

    function [15:0] pay(input integer src, input integer ch, input integer seq, input integer k);
        pay = (src * 7919 + ch * 10477 + seq * 31 + k * 17 + SEED) & 16'hFFFF;
    endfunction

    // exactly one end drives each link in a cycle
    integer il;
    always @(posedge clk)
        if (!rst)
            for (il = 0; il < PORTS; il = il + 1)
                if (b_tx_en[il] && b_rx_en[il]) fail("both ends drive a link");

    // ------------------------------------------------------------------ the nodes
    genvar g;
    generate for (g = 0; g < PORTS; g = g + 1) begin : g_n
        wire [12:0] sp0, sp1, av0, av1;
        wire        rv, hrv;
        wire [31:0] rdat;
        wire [15:0] hrd;
        reg         h_wr = 1'b0, h_wch = 1'b0, h_rd = 1'b0, h_rch = 1'b0;
        reg  [15:0] h_wdata = 16'd0;
        mlc #(.LINK_W(LINK_W), .MASTER(1), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN), .TIMEOUT(TIMEOUT),
              .CTR_W(CTR_W)) u (
            .clk(clk), .rst(rst),
            .h_wr(h_wr), .h_wch(h_wch), .h_wdata(h_wdata), .h_rd(h_rd), .h_rch(h_rch),
            .h_rvalid(hrv), .h_rdata(hrd), .st_tx_space0(sp0), .st_tx_space1(sp1),
            .st_rx_avail0(av0), .st_rx_avail1(av1),
            .tx_en(b_rx_en[g]), .tx_d(b_rx_d[g*LINK_W +: LINK_W]),
            .rx_en(b_tx_en[g]), .rx_d(b_tx_d[g*LINK_W +: LINK_W]),
            .reg_rd(1'b0), .reg_wr(1'b0), .reg_addr(5'd0), .reg_wdata(16'd0),
            .reg_rvalid(rv), .reg_rdata(rdat));

        // ---- sender
        reg [15:0] w [0:511];
        integer nm, k, len, seed, dsel, ch, pc, q, npset;
        integer seqs [0:1];
        reg [15:0] mask;
        reg [7:0]  dst, pset;

        // write w[0..n-1] on channel c, a word whenever the send FIFO has room
        task put(input integer n, input integer c);
            integer kk;
            begin
                kk = 0;
                while (kk < n) begin
                    @(negedge clk);
                    if ((c ? sp1 : sp0) >= 13'd2) begin
                        h_wr = 1'b1; h_wch = c; h_wdata = w[kk]; kk = kk + 1;
                    end else
                        h_wr = 1'b0;
                end
                @(negedge clk);
                h_wr = 1'b0;
            end
        endtask

        initial begin
            seed = SEED * 1000 + g;
            seqs[0] = 0; seqs[1] = 0;
            sent_done[g] = 0;
            req_done[g] = -1;
            // transit: node 0 -> node 1, Type0, channel 0
            wait (phase == 1);
            if (g == 0) begin
                w[0] = 16'h0100; w[1] = 16'h0000; w[2] = 16'hD000;
                for (k = 3; k < 8; k = k + 1) w[k] = 16'hA000 + k;
                put(8, 0);
            end
            // barrier: every node's request, BAR_GAP steps apart
            wait (phase == 2);
            repeat (g * BAR_GAP + 1) @(negedge clk);
            w[0] = 16'hFF04; w[1] = MEMBERS; w[2] = g;
            for (k = 3; k < 8; k = k + 1) w[k] = 16'h0000;
            put(8, 0);
            req_done[g] = step;
            // random traffic
            wait (phase == 3);
            for (nm = 0; nm < MSGS; nm = nm + 1) begin
                ch = $unsigned($random(seed)) % 2;
                dsel = $unsigned($random(seed)) % 8;
                if (dsel < 4) begin dst = $unsigned($random(seed)) % PORTS; mask = 16'h0000; end  // may be itself
                else if (dsel == 4) begin dst = PORTS + $unsigned($random(seed)) % 3; mask = 16'h0000; end  // unrouted
                else begin dst = 8'hFF; mask = $random(seed); end
                if ($unsigned($random(seed)) % 3 == 0) begin
                    pc = $unsigned($random(seed)) % (LONG ? 40 : 6);
                    len = 8 * ((pc < 2) ? 2 : pc);
                    if (pc < 2) errmsg = errmsg + 1;
                end else begin
                    pc = -1; len = 8;
                end
                w[0] = {dst, 7'd0, (pc >= 0) ? 1'b1 : 1'b0};
                w[1] = mask;
                w[2] = {ch[7:0], g[7:0]};
                w[3] = seqs[ch];
                for (k = 4; k < len; k = k + 1) w[k] = pay(g, ch, seqs[ch], k);
                if (pc >= 0) w[8] = pc;
                // the port set: node i on port i (i < PORTS), node PORTS invalid, minus the sender
                pset = 8'd0;
                npset = 0;
                for (q = 0; q < PORTS; q = q + 1)
                    if (q != g && ((dst == q) || (dst == 8'hFF && mask[q]))) begin
                        pset[q] = 1'b1;
                        npset = npset + 1;
                        exp_cnt[q] = exp_cnt[q] + 1;
                    end
                if (npset == 0) drops = drops + 1;
                else nmsgs = nmsgs + 1;
                if (npset >= 2) nmcast = nmcast + 1;
                expm[(g * 2 + ch) * MSGS + seqs[ch]] = pset;
                seqs[ch] = seqs[ch] + 1;
                put(len, ch);
                repeat ($unsigned($random(seed)) % 40) @(negedge clk);
            end
            sent_done[g] = 1;
        end

        // ---- receiver: reads whenever a channel has a word, parses both channels' messages
        integer rk [0:1];
        integer rlen [0:1];
        integer last [0:PORTS*2-1];
        reg [15:0] rw0 [0:1];
        reg [15:0] rw1 [0:1];
        reg [15:0] rw2 [0:1];
        reg [15:0] rw3 [0:1];
        reg        rdch;
        reg        bad_msg;
        integer    rseed;
        integer    ii;
        initial begin
            rk[0] = 0; rk[1] = 0; rlen[0] = 8; rlen[1] = 8; rdch = 1'b0; bad_msg = 1'b0;
            rseed = SEED * 77 + g;
            for (ii = 0; ii < PORTS * 2; ii = ii + 1) last[ii] = -1;
            got_cnt[g] = 0; rel_cnt[g] = 0; dir_cnt[g] = 0; rel_step[g] = -1;
        end
        always @(negedge clk) begin : rx
            integer c, s, sq, j;
            if (!rst && hrv !== h_rd) fail("h_rvalid not exactly after a read");
            if (h_rd && hrv) begin
                c = h_rch;
                words_read = words_read + 1;
                case (rk[c])
                    0: begin rw0[c] = hrd; rlen[c] = hrd[0] ? 16 : 8; bad_msg = 1'b0; end
                    1: rw1[c] = hrd;
                    2: rw2[c] = hrd;
                    3: rw3[c] = hrd;
                    default: ;
                endcase
                if (rk[c] == 8 && rw0[c][0]) rlen[c] = 8 * ((hrd < 16'd2) ? 2 : hrd);
                if (rk[c] >= 4 && !(rk[c] == 8 && rw0[c][0]) && rw0[c][7:1] == 7'd0 && rw2[c][15:8] != 8'hD0
                        && hrd !== pay(rw2[c][7:0], c, rw3[c], rk[c])) begin
                    if (!bad_msg) begin
                        fail("payload word wrong");
                        $display("    node %0d ch %0d word %0d: %h, expected %h (w0 %h w2 %h w3 %h)", g, c, rk[c],
                                 hrd, pay(rw2[c][7:0], c, rw3[c], rk[c]), rw0[c], rw2[c], rw3[c]);
                    end
                    bad_msg = 1'b1;
                end
                if (rk[c] >= 3 && rk[c] < 8 && rw2[c][15:8] == 8'hD0 && hrd !== 16'hA000 + rk[c])
                    fail("transit unit payload wrong");
                if (rk[c] >= 3 && rk[c] < 8 && rw0[c] == 16'hFF06 && hrd !== 16'h0000)
                    fail("release word 3..7 not 0");
                rk[c] = rk[c] + 1;
                if (rk[c] == rlen[c]) begin
                    rk[c] = 0;
                    if (rw0[c] == 16'hFF06) begin
                        rel_cnt[g] = rel_cnt[g] + 1;
                        rel_step[g] = step;
                        if (c != 0 || rw1[c] != MEMBERS || rw2[c] != 16'h00FF) fail("release unit wrong");
                        for (j = 0; j < PORTS; j = j + 1)
                            if (req_done[j] < 0) begin
                                fail("barrier release before the last request was written");
                                $display("    node %0d released, node %0d has not requested", g, j);
                            end
                    end else if (rw0[c] == 16'hFF04) begin
                        fail("barrier request forwarded");
                    end else if (rw2[c][15:8] == 8'hD0) begin
                        dir_cnt[g] = dir_cnt[g] + 1;
                        if (rw0[c] != 16'h0100 || c != 0 || g != 1) fail("transit unit wrong");
                    end else begin
                        s = rw2[c][7:0];
                        sq = rw3[c];
                        got_cnt[g] = got_cnt[g] + 1;
                        if (phase < 3 || s >= PORTS || rw2[c][15:8] != c || sq >= MSGS) begin
                            fail("unexpected message");
                            $display("    node %0d ch %0d: w0 %h w2 %h w3 %h", g, c, rw0[c], rw2[c], sq);
                        end else begin
                            // in order, exactly once: every message of (s, c) between the last one
                            // received here and this one was not for this node, this one is
                            if (sq <= last[s * 2 + c]) begin
                                fail("message again or out of order");
                                $display("    node %0d ch %0d: from %0d seq %0d after %0d", g, c, s, sq, last[s*2+c]);
                            end else begin
                                for (j = last[s * 2 + c] + 1; j < sq; j = j + 1)
                                    if (expm[(s * 2 + c) * MSGS + j][g]) begin
                                        fail("message missing (a later one arrived)");
                                        $display("    node %0d ch %0d: from %0d seq %0d, seq %0d missing", g, c, s, sq, j);
                                    end
                                if (!expm[(s * 2 + c) * MSGS + sq][g]) begin
                                    fail(s == g ? "message back at its sender" : "message at a port not in its set");
                                    $display("    node %0d ch %0d: from %0d seq %0d (w0 %h w1 %h)", g, c, s, sq, rw0[c], rw1[c]);
                                end
                                last[s * 2 + c] = sq;
                            end
                        end
                    end
                end
            end
            h_rd = 1'b0;
            rdch = ~rdch;
            if (SLOW && ($unsigned($random(rseed)) % 4 != 0)) begin end
            else if ((rdch ? av1 : av0) >= 13'd2) begin h_rd = 1'b1; h_rch = rdch; end
            else if ((rdch ? av0 : av1) >= 13'd2) begin h_rd = 1'b1; h_rch = ~rdch; end
        end
    end endgenerate

    // ------------------------------------------------------------------ transit probe
    // port 0's MLC accepts the unit in step t (st_rx_avail0 = 16 after t); port 1's send FIFO space
    integer t_acc = -1;
    integer sp_at [0:15];
    integer ts;
    always @(posedge clk) begin
        #1;
        if (!rst && phase == 1) begin
            if (t_acc < 0 && dut.m_avail0[0 +: 13] >= 13'd16) t_acc = step;
            if (t_acc >= 0 && step - t_acc <= 15) sp_at[step - t_acc] = dut.m_space0[13 +: 13];
        end
    end

    // ------------------------------------------------------------------ register port
    reg [31:0] rv;
    task regw(input [8:0] a, input [15:0] d);
        begin
            @(negedge clk); reg_wr = 1'b1; reg_addr = a; reg_wdata = d;
            @(negedge clk); reg_wr = 1'b0;
        end
    endtask
    task regr(input [8:0] a);
        begin
            @(negedge clk); reg_rd = 1'b1; reg_addr = a;
            @(negedge clk); reg_rd = 1'b0;
            if (reg_rvalid) fail("reg_rvalid after step r");
            @(negedge clk);
            if (!reg_rvalid) fail("no reg_rvalid after step r+1");
            rv = reg_rdata;
            @(negedge clk);
            if (reg_rvalid) fail("reg_rvalid longer than a step");
        end
    endtask
    task regx(input [8:0] a, input [31:0] want, input [8*40-1:0] what);
        begin
            regr(a);
            if (rv !== want) begin
                fail(what);
                $display("    register %h: %h, expected %h", a, rv, want);
            end
        end
    endtask

    localparam [31:0] CMASK = (CTR_W >= 32) ? 32'hFFFFFFFF : ((32'd1 << CTR_W) - 32'd1);
    reg [31:0] c0 [0:7];
    task ctr_delta(input integer i, input integer want, input [8*40-1:0] what);
        begin
            regr(9'h100 + i);
            if (((rv - c0[i]) & CMASK) !== (want & CMASK)) begin
                fail(what);
                $display("    counter %0d went %0d -> %0d, expected +%0d", i, c0[i], rv, want);
            end
        end
    endtask

    // ------------------------------------------------------------------ the run
    reg [8*256-1:0] vcdfile;
    integer i, k, all, t0, nexp;
    initial begin
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(0, sbox_icarus_tb);
        end else if ($test$plusargs("vcd")) begin
            $dumpfile("sbox_icarus_tb.vcd");
            $dumpvars(0, sbox_icarus_tb);
        end
        for (i = 0; i < PORTS; i = i + 1) begin exp_cnt[i] = 0; end
        for (i = 0; i < NSQ; i = i + 1) expm[i] = 8'd0;
        for (i = 0; i < 16; i = i + 1) sp_at[i] = -1;
        repeat (3) @(negedge clk);
        rst = 1'b0;

        // ---- table and register port
        for (i = 0; i < PORTS; i = i + 1) regw(9'h120 + i, 16'h0010 | i);
        if (PORTS < 8) begin                                 // port >= PORTS: ignored
            regw(9'h120 + PORTS, 16'h0010 | PORTS);
            regx(9'h120 + PORTS, 32'h0, "table write to a port >= PORTS not ignored");
        end
        regx(9'h121, 32'h11, "table entry 1");
        regx(9'h12F, 32'h80000000, "table entry d >= NODES");
        regx(9'h110, 32'h0, "up port after reset");
        if (PORTS < 8) regx({PORTS[2:0], 5'd16}, 32'h80000000, "MLC p >= PORTS");
        regx(9'h108, 32'h80000000, "unused address");
        regx(9'h111, 32'h0, "barrier 0 after reset");

        // ---- transit of one unit through the idle box
        phase = 1;
        t0 = step;
        while (dir_cnt[1] == 0 && step - t0 < 20000) @(negedge clk);
        if (dir_cnt[1] != 1) fail("transit unit not delivered");
        if (t_acc < 0) fail("transit: port 0 never showed the unit");
        else begin
            $display("transit: accepted after step t = %0d; port 1 space after t+5, t+6, t+12, t+13: %0d %0d %0d %0d",
                     t_acc, sp_at[5], sp_at[6], sp_at[12], sp_at[13]);
            if (sp_at[5] != FIFO_BYTES || sp_at[6] != FIFO_BYTES - 2 || sp_at[12] != FIFO_BYTES - 14
                    || sp_at[13] != FIFO_BYTES - 16)
                fail("transit: the unit is not written into port 1's FIFO in steps t+6 .. t+13");
        end
        regx(9'h100, 32'd1, "msgs after the transit unit");
        regx(9'h102, 32'd8, "words after the transit unit");

        // ---- barrier of all nodes on channel 0
        phase = 2;
        t0 = step;
        all = 0;
        while (!all && step - t0 < PORTS * BAR_GAP + 20000) begin
            @(negedge clk);
            all = 1;
            for (i = 0; i < PORTS; i = i + 1) if (rel_cnt[i] == 0) all = 0;
        end
        repeat (500) @(negedge clk);
        for (i = 0; i < PORTS; i = i + 1)
            if (rel_cnt[i] != 1) begin
                fail("barrier: a member not released exactly once");
                $display("    node %0d: %0d releases", i, rel_cnt[i]);
            end
        regx(9'h104, PORTS, "bar_req after the barrier");
        regx(9'h105, 32'd1, "bar_done after the barrier");
        regx(9'h106, 32'd0, "err_bar after the barrier");
        regx(9'h111, {MEMBERS, 16'h0000}, "barrier 0 after the release");

        // ---- random traffic
        for (i = 0; i < 8; i = i + 1) begin regr(9'h100 + i); c0[i] = rv; end
        phase = 3;
        t0 = step;
        all = 0;
        while (!all && !(fails > 0 && step - fail_step > 2000)) begin   // after a failure: 2000 steps more
            @(negedge clk);
            all = 1;
            for (i = 0; i < PORTS; i = i + 1) if (!sent_done[i] || got_cnt[i] != exp_cnt[i]) all = 0;
        end
        repeat (3000) @(negedge clk);
        phase = 4;
        nexp = 0;
        for (i = 0; i < PORTS; i = i + 1) begin
            nexp = nexp + exp_cnt[i];
            if (exp_cnt[i] != got_cnt[i]) begin
                fail("messages lost or extra");
                $display("    node %0d: expected %0d, got %0d", i, exp_cnt[i], got_cnt[i]);
            end
        end
        ctr_delta(0, nmsgs, "msgs counter");
        ctr_delta(1, nmcast, "mcast counter");
        ctr_delta(3, drops, "drop_route counter");
        ctr_delta(7, errmsg, "err_msg counter");
        ctr_delta(6, 0, "err_bar counter");
        for (i = 0; i < PORTS; i = i + 1) begin
            regx({i[2:0], 5'd13}, 32'h0, "box MLC wr_over");
            regx({i[2:0], 5'd14}, 32'h0, "box MLC rd_under");
        end

        if (fails == 0)
            $display("RESULT PASS messages=%0d deliveries=%0d dropped=%0d words=%0d transit=13 barrier=%0d steps=%0d",
                     PORTS * MSGS, nexp, drops, words_read, PORTS, step);
        else
            $display("RESULT FAIL fails=%0d words=%0d steps=%0d", fails, words_read, step);
        $finish;
    end

    // watchdog
    always @(posedge clk)
        if (step >= WATCHDOG) begin
            $display("FAIL: watchdog after %0d steps (phase %0d)", step, phase);
            for (il = 0; il < PORTS; il = il + 1)
                $display("    node %0d: expected %0d, got %0d, releases %0d, sent %0d", il, exp_cnt[il],
                         got_cnt[il], rel_cnt[il], sent_done[il]);
            $display("RESULT FAIL watchdog");
            $finish;
        end
endmodule
