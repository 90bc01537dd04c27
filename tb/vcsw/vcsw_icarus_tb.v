// sanfab — self-checking Icarus Verilog bench for the VC switch (rtl/vcsw/vcsw.v), no C model.
//
// Plain Verilog-2005; run it through tb/vcsw/run_icarus.sh. Written from docs/vcsw.md:
//   1. tables:  through the configuration port, tag t -> port t % NPORTS for t < 2*NPORTS, and
//               every VC entry (in, out, d) -> (d + 1) % NDVC; a few entries read back: the
//               entry as written, answered exactly one step after the read; an index outside
//               its table answers 0x80000000; the stop bits all 0;
//   2. serial:  one packet at a time from every input to several outputs, on data VC 0 and on
//               VC 1 (a control VC when CTRL = 1: it leaves on NDVC + the entry), 1..MAXLEN
//               flits: the head leaves exactly 3 + LINK_DELAY steps after it was received, then
//               one flit per step, on the output VC the table gives, data unaltered;
//   3. together: every input sends at once, alternating VC 0 and VC 1 packet by packet, to
//               output (i + 1) % NPORTS: every packet arrives whole on its VC, no sooner than
//               3 + LINK_DELAY steps, and with an invalid tag (no route) nothing leaves;
//   4. counters: rx_pkts and tx_pkts of every port and VC read through the configuration port
//               and compared with the bench's counts (0 with COUNTERS = 0; modulo 2^CTR_WIDTH).
// The first problem prints "FAIL: ..."; the run ends with "RESULT PASS ..." or "RESULT FAIL ...".
`default_nettype none
/* verilator lint_off INITIALDLY */
/* verilator lint_off BLKSEQ */

module vcsw_icarus_tb;

    parameter NPORTS     = 8;
    parameter NVC        = 2;
    parameter CTRL       = 1;
    parameter FLIT_W     = 16;
    parameter TAG_W      = 8;
    parameter DEPTH      = 64;
    parameter MAXLEN     = 32;
    parameter LINK_DELAY = 0;
    parameter COUNTERS   = 1;
    parameter CTR_WIDTH  = 32;
    parameter WATCHDOG   = 200000;

    localparam VCW   = (NVC <= 2) ? 1 : (NVC <= 4) ? 2 : (NVC <= 8) ? 3 : 4;
    localparam NDVC  = CTRL ? NVC / 2 : NVC;
    localparam LAT   = 3 + LINK_DELAY;      // docs/vcsw.md, Header latency
    localparam NQ    = 64;                  // expected packets per output VC
    localparam NS    = 8 * NVC * NPORTS;    // counter slots
    localparam [31:0] CMASK = (CTR_WIDTH >= 32) ? 32'hFFFFFFFF : ((32'd1 << CTR_WIDTH) - 1);

    // ------------------------------------------------------------------ DUT
    reg                       clk = 1'b0;
    reg                       rst = 1'b1;
    reg  [NPORTS-1:0]         rx_valid = 0;
    reg  [NPORTS*VCW-1:0]     rx_vc = 0;
    reg  [NPORTS-1:0]         rx_tail = 0;
    reg  [NPORTS*FLIT_W-1:0]  rx_data = 0;
    wire [NPORTS*NVC-1:0]     rx_stop;
    wire [NPORTS-1:0]         tx_valid;
    wire [NPORTS*VCW-1:0]     tx_vc;
    wire [NPORTS-1:0]         tx_tail;
    wire [NPORTS*FLIT_W-1:0]  tx_data;
    reg  [NPORTS*NVC-1:0]     tx_stop = 0;
    reg                       cfg_we = 0, cfg_re = 0;
    reg  [15:0]               cfg_addr = 0, cfg_wdata = 0;
    wire                      cfg_rvalid;
    wire [31:0]               cfg_rdata;

    always #5 clk = ~clk;

    vcsw #(.NPORTS(NPORTS), .NVC(NVC), .CTRL(CTRL), .FLIT_W(FLIT_W), .TAG_W(TAG_W), .DEPTH(DEPTH),
           .MAXLEN(MAXLEN), .LINK_DELAY(LINK_DELAY), .COUNTERS(COUNTERS), .CTR_WIDTH(CTR_WIDTH)) dut (
        .clk(clk), .rst(rst), .rx_valid(rx_valid), .rx_vc(rx_vc), .rx_tail(rx_tail), .rx_data(rx_data),
        .rx_stop(rx_stop), .tx_valid(tx_valid), .tx_vc(tx_vc), .tx_tail(tx_tail), .tx_data(tx_data),
        .tx_stop(tx_stop), .cfg_we(cfg_we), .cfg_re(cfg_re), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
        .cfg_rvalid(cfg_rvalid), .cfg_rdata(cfg_rdata));

    // ------------------------------------------------------------------ bookkeeping
    integer step = 0;          // edges since reset: inputs driven after edge s are received in step s + 1
    integer fails = 0, packets = 0, received = 0, checks = 0;
    reg     exact = 0;         // serial phase: latency exactly LAT

    // expected packets per output VC (o * NVC + u)
    integer q_id   [0:NPORTS*NVC*NQ-1];
    integer q_len  [0:NPORTS*NVC*NQ-1];
    integer q_step [0:NPORTS*NVC*NQ-1];    // step its head was received
    integer q_wr [0:NPORTS*NVC-1];
    integer q_rd [0:NPORTS*NVC-1];
    integer cur_k [0:NPORTS*NVC-1];        // flit index of the packet being received (0: none)
    integer last_t [0:NPORTS*NVC-1];
    integer rx_pk [0:NPORTS*NVC-1];        // heads sent per (input, VC)
    integer tx_pk [0:NPORTS*NVC-1];        // tails received per (output, VC)

    function [FLIT_W-1:0] flit;            // flit k of packet id (tag in the head)
        input integer id, k, tag;
        reg [31:0] h;
        begin
            h = id * 32'h9E3779B1 + k * 32'h85EBCA6B;
            h = h ^ (h >> 15);
            if (k == 0)
                flit = ((id[15:0] << TAG_W) | tag[15:0]);
            else
                flit = h[FLIT_W-1:0];
        end
    endfunction

    task fail;
        input [8*120-1:0] msg;
        begin
            fails = fails + 1;
            if (fails <= 10) $display("FAIL: %0s (step %0d)", msg, step);
        end
    endtask

    always @(posedge clk) if (!rst) step <= step + 1;

    // ------------------------------------------------------------------ monitor
    integer o, u, x, k, id, len, tag;
    reg [FLIT_W-1:0] d;
    always @(posedge clk) begin
        #1;
        if (!rst) begin
            for (o = 0; o < NPORTS; o = o + 1) begin
                if (tx_valid[o]) begin
                    u = tx_vc[o*VCW +: VCW];
                    d = tx_data[o*FLIT_W +: FLIT_W];
                    x = o * NVC + u;
                    if (q_rd[x] == q_wr[x]) begin
                        $display("FAIL: output %0d VC %0d carries 0x%h but no packet is expected there (step %0d)",
                                 o, u, d, step);
                        fails = fails + 1;
                    end else begin
                        id  = q_id[x*NQ + q_rd[x] % NQ];
                        len = q_len[x*NQ + q_rd[x] % NQ];
                        tag = o;
                        k   = cur_k[x];
                        if (d !== flit(id, k, tag)) begin
                            $display("FAIL: output %0d VC %0d flit %0d of packet %0d is 0x%h, sent 0x%h (step %0d)",
                                     o, u, k, id, d, flit(id, k, tag), step);
                            fails = fails + 1;
                        end
                        if (k == 0 && (step - q_step[x*NQ + q_rd[x] % NQ] < LAT ||
                                       (exact && step - q_step[x*NQ + q_rd[x] % NQ] != LAT))) begin
                            $display("FAIL: packet %0d head on output %0d after %0d steps, expected %0s%0d (step %0d)",
                                     id, o, step - q_step[x*NQ + q_rd[x] % NQ], exact ? "" : "at least ", LAT, step);
                            fails = fails + 1;
                        end
                        if (k > 0 && exact && step != last_t[x] + 1) begin
                            $display("FAIL: packet %0d flit %0d on output %0d %0d steps after the previous one (step %0d)",
                                     id, k, o, step - last_t[x], step);
                            fails = fails + 1;
                        end
                        if (tx_tail[o] !== (k == len - 1)) begin
                            $display("FAIL: packet %0d flit %0d of %0d on output %0d: tail bit %b (step %0d)",
                                     id, k, len, o, tx_tail[o], step);
                            fails = fails + 1;
                        end
                        checks = checks + 1;
                        last_t[x] = step;
                        if (tx_tail[o]) begin
                            cur_k[x] = 0;
                            q_rd[x] = q_rd[x] + 1;
                            received = received + 1;
                            tx_pk[x] = tx_pk[x] + 1;
                        end else
                            cur_k[x] = k + 1;
                    end
                end else if (tx_vc[o*VCW +: VCW] != 0 || tx_tail[o] || tx_data[o*FLIT_W +: FLIT_W] != 0) begin
                    $display("FAIL: idle flit on output %0d is not all 0 (step %0d)", o, step);
                    fails = fails + 1;
                end
            end
        end
    end

    // ------------------------------------------------------------------ drivers
    // expect packet id on output o, output VC uu, head received in step hs
    task expect_pkt;
        input integer oo, uu, pid, plen, hs;
        integer xx;
        begin
            xx = oo * NVC + uu;
            q_id[xx*NQ + q_wr[xx] % NQ] = pid;
            q_len[xx*NQ + q_wr[xx] % NQ] = plen;
            q_step[xx*NQ + q_wr[xx] % NQ] = hs;
            q_wr[xx] = q_wr[xx] + 1;
        end
    endtask

    // the output VC the tables give a packet on input VC v: (d + 1) % NDVC, + NDVC on a control VC
    function integer out_vc;
        input integer v;
        begin
            if (CTRL && v >= NDVC) out_vc = NDVC + ((v - NDVC + 1) % NDVC);
            else out_vc = (v + 1) % NDVC;
        end
    endfunction

    task cfg_write;
        input [15:0] a, w;
        begin
            @(posedge clk); #2;
            cfg_we = 1; cfg_addr = a; cfg_wdata = w;
            @(posedge clk); #2;
            cfg_we = 0;
        end
    endtask

    // read `a`, expect `want` exactly one step later (tables, errors) or within NS + 1 steps (counters)
    task cfg_read;
        input [15:0] a;
        input integer tables;
        output [31:0] val;
        integer t0, n;
        begin
            @(posedge clk); #2;
            cfg_re = 1; cfg_addr = a;
            t0 = step;
            @(posedge clk); #2;
            cfg_re = 0;
            n = 0;
            while (!cfg_rvalid && n < NS + 4) begin
                @(posedge clk); #2;
                n = n + 1;
            end
            val = cfg_rdata;
            if (!cfg_rvalid) begin
                $display("FAIL: read of 0x%h never answered (step %0d)", a, step);
                fails = fails + 1;
            end else if (tables && step != t0 + 2) begin
                $display("FAIL: read of 0x%h answered %0d steps after it, expected 1 (step %0d)", a, step - t0 - 1, step);
                fails = fails + 1;
            end
        end
    endtask

    task check_read;
        input [15:0] a;
        input [31:0] want;
        reg [31:0] v;
        begin
            cfg_read(a, 1, v);
            if (v !== want) begin
                $display("FAIL: read of 0x%h answered 0x%h, expected 0x%h (step %0d)", a, v, want, step);
                fails = fails + 1;
            end
        end
    endtask

    // drive one flit on input i for one step (received in the next step)
    task drive;
        input integer i, v, last;
        input [FLIT_W-1:0] data;
        begin
            rx_valid[i] = 1'b1;
            rx_vc[i*VCW +: VCW] = v;
            rx_tail[i] = last;
            rx_data[i*FLIT_W +: FLIT_W] = data;
        end
    endtask

    task idle_all;
        begin
            rx_valid = 0; rx_vc = 0; rx_tail = 0; rx_data = 0;
        end
    endtask

    // one packet alone: input i, VC v, to output o (tag o), len flits
    task send_one;
        input integer i, v, o, plen;
        integer kk, pid;
        begin
            pid = packets;
            packets = packets + 1;
            @(posedge clk); #2;
            expect_pkt(o, out_vc(v), pid, plen, step + 1);
            rx_pk[i*NVC + v] = rx_pk[i*NVC + v] + 1;
            for (kk = 0; kk < plen; kk = kk + 1) begin
                drive(i, v, kk == plen - 1, flit(pid, kk, o));
                @(posedge clk); #2;
            end
            idle_all;
        end
    endtask

    task finish_run;
        begin
            if (fails == 0)
                $display("RESULT PASS packets=%0d received=%0d flits=%0d counters=%0d steps=%0d", packets, received,
                         checks, 2 * NPORTS * NVC, step);
            else
                $display("RESULT FAIL fails=%0d packets=%0d received=%0d steps=%0d", fails, packets, received, step);
            $finish;
        end
    endtask

    task wait_drained;
        integer n, xx, busy;
        begin
            if (fails) finish_run;
            n = 0;
            busy = 1;
            while (busy && n < 4000) begin
                @(posedge clk); #2;
                busy = 0;
                for (xx = 0; xx < NPORTS * NVC; xx = xx + 1)
                    if (q_rd[xx] != q_wr[xx]) busy = 1;
                n = n + 1;
            end
            if (busy) begin
                $display("FAIL: packets still expected after 4000 steps (step %0d)", step);
                fails = fails + 1;
            end
            if (fails) finish_run;
            repeat (LAT + 4) @(posedge clk);
        end
    endtask

    // ------------------------------------------------------------------ the run
    integer i, v, t, r, kk, plen, pid, rounds, busy_any, vv, cnt_err;
    integer left [0:NPORTS-1];
    integer pk_id [0:NPORTS-1];
    integer pk_v [0:NPORTS-1];
    integer pk_len [0:NPORTS-1];
    integer cur_send_k [0:NPORTS-1];
    reg [31:0] val;
    initial begin
        for (i = 0; i < NPORTS * NVC; i = i + 1) begin
            q_wr[i] = 0; q_rd[i] = 0; cur_k[i] = 0; last_t[i] = 0; rx_pk[i] = 0; tx_pk[i] = 0;
        end
        repeat (3) @(posedge clk);
        #2 rst = 0;

        // 1. tables
        for (t = 0; t < 2 * NPORTS && t < (1 << TAG_W); t = t + 1)
            cfg_write({2'd0, t[13:0]}, 16'h8000 | (t % NPORTS));
        for (i = 0; i < NPORTS; i = i + 1)
            for (r = 0; r < NPORTS; r = r + 1)
                for (v = 0; v < NDVC; v = v + 1)
                    cfg_write({2'd1, 2'd0, i[3:0], r[3:0], v[3:0]}, 16'h8000 | ((v + 1) % NDVC));
        check_read({2'd0, 14'd1}, 32'h8000 | (1 % NPORTS));
        check_read({2'd1, 2'd0, 4'd1, 4'd0, 4'd0}, 32'h8000 | (1 % NDVC));
        check_read({2'd3, 14'd5}, 32'h80000000);
        if (TAG_W < 12) check_read({2'd0, 14'h3FFF}, 32'h80000000);
        check_read({2'd1, 2'd0, 4'd15, 4'd0, 4'd0} , NPORTS < 16 ? 32'h80000000 : 32'h8000 | (1 % NDVC));
        if (rx_stop !== 0) begin
            $display("FAIL: rx_stop 0x%h on an idle switch", rx_stop);
            fails = fails + 1;
        end

        // 2. serial: every input, outputs i+1 and i, VC 0 and VC 1, lengths 1, MAXLEN and between
        exact = 1;
        for (i = 0; i < NPORTS; i = i + 1)
            for (v = 0; v < 2; v = v + 1)
                for (r = 0; r < 2; r = r + 1) begin
                    plen = (r == 0) ? 1 + (i * 7 + v * 3) % MAXLEN : ((i + v) % 2 ? MAXLEN : 1);
                    send_one(i, v, (i + 1 - r) % NPORTS, plen);
                    wait_drained;
                end
        exact = 0;

        // 3. together: every input sends 6 packets back to back, VC alternating, to (i + 1) % NPORTS
        for (i = 0; i < NPORTS; i = i + 1) begin
            left[i] = 6;
            pk_len[i] = 0;
        end
        busy_any = 1;
        @(posedge clk); #2;
        while (busy_any) begin
            busy_any = 0;
            for (i = 0; i < NPORTS; i = i + 1) begin
                rx_valid[i] = 1'b0;
                rx_tail[i] = 1'b0;
                if (pk_len[i] == 0 && left[i] > 0) begin
                    // a new packet: the host obeys Go & Stop (a fresh look at rx_stop: only margin)
                    vv = left[i] % 2;
                    if (!rx_stop[i*NVC + vv]) begin
                        pk_id[i] = packets;
                        packets = packets + 1;
                        pk_v[i] = vv;
                        pk_len[i] = 1 + (i * 5 + left[i] * 11) % MAXLEN;
                        kk = 0;
                        left[i] = left[i] - 1;
                        expect_pkt((i + 1) % NPORTS, out_vc(vv), pk_id[i], pk_len[i], step + 1);
                        rx_pk[i*NVC + vv] = rx_pk[i*NVC + vv] + 1;
                        cur_send_k[i] = 0;
                    end
                end
                if (pk_len[i] > 0) begin
                    drive(i, pk_v[i], cur_send_k[i] == pk_len[i] - 1,
                          flit(pk_id[i], cur_send_k[i], (i + 1) % NPORTS));
                    cur_send_k[i] = cur_send_k[i] + 1;
                    if (cur_send_k[i] == pk_len[i]) pk_len[i] = 0;
                end
                if (pk_len[i] > 0 || left[i] > 0) busy_any = 1;
            end
            @(posedge clk); #2;
        end
        idle_all;
        // a packet with an invalid tag (no route): nothing leaves
        if ((1 << TAG_W) > 2 * NPORTS) begin
            @(posedge clk); #2;
            drive(0, 0, 1, 2 * NPORTS);
            rx_pk[0] = rx_pk[0] + 1;
            @(posedge clk); #2;
            idle_all;
        end
        wait_drained;

        // 4. counters
        cnt_err = 0;
        for (i = 0; i < NPORTS; i = i + 1)
            for (v = 0; v < NVC; v = v + 1) begin
                cfg_read({2'd2, 3'd0, i[3:0], v[3:0], 3'd1}, 0, val);
                if (val !== (COUNTERS ? (rx_pk[i*NVC + v] & CMASK) : 0)) begin
                    $display("FAIL: rx_pkts of port %0d VC %0d is %0d, expected %0d", i, v, val,
                             COUNTERS ? (rx_pk[i*NVC + v] & CMASK) : 0);
                    fails = fails + 1;
                end
                cfg_read({2'd2, 3'd0, i[3:0], v[3:0], 3'd3}, 0, val);
                if (val !== (COUNTERS ? (tx_pk[i*NVC + v] & CMASK) : 0)) begin
                    $display("FAIL: tx_pkts of port %0d VC %0d is %0d, expected %0d", i, v, val,
                             COUNTERS ? (tx_pk[i*NVC + v] & CMASK) : 0);
                    fails = fails + 1;
                end
                cnt_err = cnt_err + 2;
            end
        finish_run;
    end

    initial begin
        #(WATCHDOG * 10);
        $display("FAIL: watchdog after %0d cycles", WATCHDOG);
        $display("RESULT FAIL watchdog");
        $finish;
    end

endmodule
