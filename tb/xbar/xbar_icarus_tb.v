// sanfab — self-checking Icarus Verilog bench for the crossbar (rtl/xbar/xbar.v).
//
// Plain Verilog-2005; run it through tb/xbar/run_icarus.sh. Three phases of traffic, each followed
// by a drain that waits for every expected packet:
//   1. serial:   every input port, one packet at a time: bodies of 1..40 bytes to several outputs
//                (its own port included), a bad route byte 0xC0, a route to port NPORTS (when
//                NPORTS < 64), a packet with a wrong CRC (counted as crc_err, forwarded with its CRC
//                complemented) and one already marked bad upstream (CRC complemented: forwarded
//                marked, not counted);
//   2. permute:  NPORTS rounds in which every input sends at once to output (i + round) % NPORTS;
//   3. hotspot:  every input sends a long packet to the same output at once, twice; the slack
//                buffers fill, the switch sends STOP/GO and the bench obeys them.
// A monitor collects what every tx port emits (IDLE, STOP and GO ignored), and at each GAP checks
// the packet against the expected ones for that output (matched by the packet's tag, its first
// body byte): every body byte and the CRC exactly. At the end every counter of every port is read
// through the register port and compared with the bench's own count.
// The first mismatch prints "FAIL: ..." (port, packet, byte index) and a final line
// "RESULT FAIL ...". A clean run ends with "RESULT PASS ...". A watchdog bounds the run.
`default_nettype none
// a bench drives with '<=' from initial blocks and keeps its bookkeeping in blocking assignments
/* verilator lint_off INITIALDLY */
/* verilator lint_off BLKSEQ */

module xbar_icarus_tb;

    parameter NPORTS      = 8;
    parameter SLACK_DEPTH = 80;
    parameter STOP_THRESH = 56;
    parameter GO_THRESH   = 40;
    parameter ROUTE_DELAY = 0;
    parameter LINK_DELAY  = 0;
    parameter TIMEOUT     = 4096;
    parameter COUNTERS    = 1;
    parameter CTR_WIDTH   = 32;
    parameter SEED        = 1;         // varies the body bytes
    parameter HOT_LEN     = 72;        // body length of the hotspot packets
    parameter WATCHDOG    = 400000;    // cycles

    localparam MAXC   = 160;           // characters per send buffer
    localparam MAXB   = 160;           // data characters per received packet
    localparam NSLOT  = 256;           // expected packets per output over the whole run
    localparam NCTR   = 9;
    localparam PAW    = (NPORTS > 16) ? 5 : 4;  // port bits of reg_addr = {port, counter[3:0]}

    localparam [8:0] CH_IDLE = 9'h100, CH_GAP = 9'h101;

    // counter indices (6 drop_timeout, 7 malformed, 8 overflow: expected to stay 0)
    localparam C_RX_PKTS = 0, C_RX_BYTES = 1, C_TX_PKTS = 2, C_TX_BYTES = 3, C_CRC_ERR = 4,
               C_DROP_ROUTE = 5;

    // ------------------------------------------------------------------ DUT
    reg                 clk = 1'b0;
    reg                 rst = 1'b1;
    reg  [NPORTS*9-1:0] rx  = {NPORTS{CH_IDLE}};
    wire [NPORTS*9-1:0] tx;
    reg                 reg_rd   = 1'b0;
    reg  [PAW+3:0]      reg_addr = {(PAW+4){1'b0}};
    wire [31:0]         reg_rdata;
    wire                reg_rvalid;
    wire [NPORTS*8-1:0] stat_occ;

    always #5 clk = ~clk;

    xbar #(
        .NPORTS      (NPORTS),
        .SLACK_DEPTH (SLACK_DEPTH),
        .STOP_THRESH (STOP_THRESH),
        .GO_THRESH   (GO_THRESH),
        .ROUTE_DELAY (ROUTE_DELAY),
        .LINK_DELAY  (LINK_DELAY),
        .TIMEOUT     (TIMEOUT),
        .COUNTERS    (COUNTERS),
        .CTR_WIDTH   (CTR_WIDTH)
    ) dut (
        .clk        (clk),
        .rst        (rst),
        .rx         (rx),
        .tx         (tx),
        .reg_rd     (reg_rd),
        .reg_addr   (reg_addr),
        .reg_rdata  (reg_rdata),
        .reg_rvalid (reg_rvalid),
        .stat_occ   (stat_occ)
    );

    // ------------------------------------------------------------------ helpers
    // one byte step of CRC-8, polynomial 0x07, MSB first (written independently of rtl/common/crc8.v)
    function [7:0] crc8_step;
        input [7:0] crc;
        input [7:0] data;
        integer b;
        reg [7:0] x;
        begin
            x = crc ^ data;
            for (b = 0; b < 8; b = b + 1) begin
                x = x[7] ? ({x[6:0], 1'b0} ^ 8'h07) : {x[6:0], 1'b0};
            end
            crc8_step = x;
        end
    endfunction

    // body byte k of packet id: byte 0 is the tag (id mod 256), the rest a hash
    function [7:0] body_byte;
        input [31:0] id;
        input [31:0] k;
        reg [31:0] h;
        begin
            if (k == 32'd0) begin
                body_byte = id[7:0];
            end else begin
                h = id * 32'h9E3779B1 + k * 32'h85EBCA6B + SEED;
                h = h ^ (h >> 15);
                h = h * 32'h2C1B3C6D;
                h = h ^ (h >> 13);
                body_byte = h[7:0];
            end
        end
    endfunction

    // ------------------------------------------------------------------ expectations (driver only)
    reg [31:0] exp_id   [0:NPORTS*NSLOT-1];
    reg [31:0] exp_len  [0:NPORTS*NSLOT-1];
    reg        exp_bad  [0:NPORTS*NSLOT-1];
    reg [31:0] exp_src  [0:NPORTS*NSLOT-1];
    reg [31:0] exp_n    [0:NPORTS-1];            // expected packets per output so far
    reg [31:0] exp_ctr  [0:NPORTS*NCTR-1];
    reg [31:0] next_id;
    reg [31:0] n_sent;

    // send buffers (driver only)
    reg [8:0]  sbuf     [0:NPORTS*MAXC-1];
    reg [31:0] slen     [0:NPORTS-1];
    reg [31:0] spos     [0:NPORTS-1];

    // ------------------------------------------------------------------ monitor state (monitor only)
    reg [7:0]  cur      [0:NPORTS*MAXB-1];       // data characters of the packet being received
    reg [31:0] cur_n    [0:NPORTS-1];
    reg        got      [0:NPORTS*NSLOT-1];
    reg [31:0] got_n    [0:NPORTS-1];            // packets received per output
    reg [NPORTS-1:0] stopped;                    // STOP seen on tx[p] and no GO since
    reg [31:0] n_stop;
    reg [31:0] n_recv;
    reg [31:0] cycle;

    // ------------------------------------------------------------------ monitor
    integer    mp, mk, ms, mfound;
    reg [8:0]  mch;
    reg [7:0]  mexp, mcrc;

    // flow control towards upstream (docs/xbar.md, "Flow control"): when stat_occ[i] reaches
    // STOP_THRESH (falls to GO_THRESH) STOP (GO) is on tx[i] exactly FCD cycles later, never otherwise
    localparam FCD = 2 + LINK_DELAY;
    reg        fc_wish [0:NPORTS-1];
    reg [8:0]  fc_due  [0:NPORTS*(FCD+1)-1];
    reg [7:0]  focc;
    reg        fw;
    reg [8:0]  fexp, fgot;

    initial begin
        for (mp = 0; mp < NPORTS; mp = mp + 1) begin
            cur_n[mp] = 0;
            got_n[mp] = 0;
        end
        for (mp = 0; mp < NPORTS * NSLOT; mp = mp + 1) begin
            got[mp] = 1'b0;
        end
        for (mp = 0; mp < NPORTS; mp = mp + 1) begin
            fc_wish[mp] = 1'b0;
        end
        for (mp = 0; mp < NPORTS * (FCD + 1); mp = mp + 1) begin
            fc_due[mp] = 9'h000;
        end
        stopped = {NPORTS{1'b0}};
        n_stop  = 0;
        n_recv  = 0;
        cycle   = 0;
    end

    always @(posedge clk) begin
        cycle <= cycle + 1;
        if (!rst) begin
            for (mp = 0; mp < NPORTS; mp = mp + 1) begin
                mch  = tx[mp*9 +: 9];
                focc = stat_occ[mp*8 +: 8];
                fexp = fc_due[mp*(FCD+1) + cycle % (FCD+1)];
                fgot = (mch == 9'h102 || mch == 9'h103) ? mch : 9'h000;
                if (fexp != fgot) begin
                    $display("FAIL: tx port %0d: flow control at cycle %0d: %h expected (stat_occ crossed %0d cycles before), %h sent",
                             mp, cycle, fexp, FCD, mch);
                    fail_end;
                end
                fc_due[mp*(FCD+1) + cycle % (FCD+1)] = 9'h000;
                fw = (focc >= STOP_THRESH) ? 1'b1 : (focc <= GO_THRESH) ? 1'b0 : fc_wish[mp];
                if (fw != fc_wish[mp]) begin
                    fc_wish[mp] = fw;
                    fc_due[mp*(FCD+1) + (cycle + FCD) % (FCD+1)] = fw ? 9'h102 : 9'h103;
                end
                if (!mch[8]) begin
                    if (cur_n[mp] >= MAXB) begin
                        $display("FAIL: tx port %0d: packet longer than %0d bytes at cycle %0d", mp, MAXB, cycle);
                        fail_end;
                    end
                    cur[mp*MAXB + cur_n[mp]] = mch[7:0];
                    cur_n[mp] = cur_n[mp] + 1;
                end else begin
                    case (mch[7:0])
                        8'h00: ;                                   // IDLE
                        8'h01: check_packet(mp);                   // GAP
                        8'h02: begin stopped[mp] <= 1'b1; n_stop = n_stop + 1; end
                        8'h03: stopped[mp] <= 1'b0;
                        8'h04: begin
                            $display("FAIL: tx port %0d: ABORT after %0d bytes at cycle %0d", mp, cur_n[mp], cycle);
                            fail_end;
                        end
                        default: begin
                            $display("FAIL: tx port %0d: unknown control character %h at cycle %0d", mp, mch, cycle);
                            fail_end;
                        end
                    endcase
                end
            end
        end
    end

    // a packet ended at output p: find the expected packet with its tag and compare every byte
    task check_packet;
        input integer p;
        begin
            if (cur_n[p] < 2) begin
                $display("FAIL: tx port %0d: packet of %0d byte(s) at cycle %0d (expected body and CRC)",
                         p, cur_n[p], cycle);
                fail_end;
            end
            mfound = -1;
            for (ms = 0; ms < NSLOT; ms = ms + 1) begin
                if (mfound < 0 && ms < exp_n[p] && !got[p*NSLOT + ms] &&
                    exp_id[p*NSLOT + ms][7:0] == cur[p*MAXB]) begin
                    mfound = ms;
                end
            end
            if (mfound < 0) begin
                $display("FAIL: tx port %0d: unexpected packet (tag %h, %0d bytes) at cycle %0d",
                         p, cur[p*MAXB], cur_n[p], cycle);
                fail_end;
            end
            ms = p*NSLOT + mfound;
            if (cur_n[p] != exp_len[ms] + 1) begin
                $display("FAIL: tx port %0d packet %0d (id %0d from port %0d): %0d bytes, expected %0d body + CRC",
                         p, mfound, exp_id[ms], exp_src[ms], cur_n[p], exp_len[ms]);
                fail_end;
            end
            mcrc = 8'h00;
            for (mk = 0; mk < exp_len[ms]; mk = mk + 1) begin
                mexp = body_byte(exp_id[ms], mk);
                mcrc = crc8_step(mcrc, mexp);
                if (cur[p*MAXB + mk] != mexp) begin
                    $display("FAIL: tx port %0d packet %0d (id %0d from port %0d) byte %0d: got %h expected %h",
                             p, mfound, exp_id[ms], exp_src[ms], mk, cur[p*MAXB + mk], mexp);
                    fail_end;
                end
            end
            mexp = mcrc ^ (exp_bad[ms] ? 8'hFF : 8'h00);
            if (cur[p*MAXB + mk] != mexp) begin
                $display("FAIL: tx port %0d packet %0d (id %0d from port %0d) byte %0d (CRC%s): got %h expected %h",
                         p, mfound, exp_id[ms], exp_src[ms], mk, exp_bad[ms] ? ", marked bad" : "",
                         cur[p*MAXB + mk], mexp);
                fail_end;
            end
            got[ms]  = 1'b1;
            got_n[p] = got_n[p] + 1;
            n_recv   = n_recv + 1;
            cur_n[p] = 0;
        end
    endtask

    task fail_end;
        begin
            $display("RESULT FAIL NPORTS=%0d SLACK_DEPTH=%0d ROUTE_DELAY=%0d LINK_DELAY=%0d cycle=%0d",
                     NPORTS, SLACK_DEPTH, ROUTE_DELAY, LINK_DELAY, cycle);
            $finish;
        end
    endtask

    // ------------------------------------------------------------------ watchdog
    initial begin
        repeat (WATCHDOG) @(posedge clk);
        $display("FAIL: watchdog: run not finished after %0d cycles", WATCHDOG);
        fail_end;
    end

    // ------------------------------------------------------------------ driver
    integer di;

    /* verilator lint_off UNUSEDSIGNAL */
    function [7:0] rt;           // the route byte to port p
        input integer p;         // (only its low bits matter)
        begin
            rt = 8'h80 | p[7:0];
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    function route_ok;
        input [7:0] route;
        begin
            route_ok = (route[7:6] == 2'b10) && ({26'd0, route[5:0]} < NPORTS);
        end
    endfunction

    // put one packet into port src's send buffer and record what must come out.
    // corrupt: 0 good CRC, 1 wrong CRC (xor 0x01: counted, marked), 2 marked upstream (xor 0xFF: not counted, stays marked)
    task add_packet;
        input integer src;
        input [7:0]   route;
        input integer len;
        input integer corrupt;
        reg [7:0]  c, b;
        reg [31:0] id;
        integer    dst, k;
        begin
            id      = next_id;
            next_id = next_id + 1;
            n_sent  = n_sent + 1;
            if (slen[src] + len + 3 > MAXC) begin
                $display("FAIL: bench: send buffer of port %0d too small", src);
                fail_end;
            end
            c = crc8_step(8'h00, route);
            sbuf[src*MAXC + slen[src]] = {1'b0, route};
            slen[src] = slen[src] + 1;
            for (k = 0; k < len; k = k + 1) begin
                b = body_byte(id, k);
                c = crc8_step(c, b);
                sbuf[src*MAXC + slen[src]] = {1'b0, b};
                slen[src] = slen[src] + 1;
            end
            if (corrupt == 1) begin
                c = c ^ 8'h01;
            end else if (corrupt == 2) begin
                c = c ^ 8'hFF;
            end
            sbuf[src*MAXC + slen[src]] = {1'b0, c};
            sbuf[src*MAXC + slen[src] + 1] = CH_GAP;
            slen[src] = slen[src] + 2;

            exp_ctr[src*NCTR + C_RX_PKTS]  = exp_ctr[src*NCTR + C_RX_PKTS] + 1;
            exp_ctr[src*NCTR + C_RX_BYTES] = exp_ctr[src*NCTR + C_RX_BYTES] + len + 2;
            if (corrupt == 1) begin
                exp_ctr[src*NCTR + C_CRC_ERR] = exp_ctr[src*NCTR + C_CRC_ERR] + 1;
            end
            if (route_ok(route)) begin
                dst = {26'd0, route[5:0]};
                if (exp_n[dst] >= NSLOT) begin
                    $display("FAIL: bench: more than %0d packets for output %0d", NSLOT, dst);
                    fail_end;
                end
                exp_id [dst*NSLOT + exp_n[dst]] = id;
                exp_len[dst*NSLOT + exp_n[dst]] = len;
                exp_bad[dst*NSLOT + exp_n[dst]] = (corrupt != 0);
                exp_src[dst*NSLOT + exp_n[dst]] = src;
                exp_n[dst] = exp_n[dst] + 1;
                exp_ctr[dst*NCTR + C_TX_PKTS]  = exp_ctr[dst*NCTR + C_TX_PKTS] + 1;
                exp_ctr[dst*NCTR + C_TX_BYTES] = exp_ctr[dst*NCTR + C_TX_BYTES] + len + 1;
            end else begin
                exp_ctr[src*NCTR + C_DROP_ROUTE] = exp_ctr[src*NCTR + C_DROP_ROUTE] + 1;
            end
        end
    endtask

    // send what the send buffers hold, all ports in parallel, one character per cycle, holding a
    // port at IDLE while the switch has it stopped; then empty the buffers
    task drive;
        reg busy;
        begin
            busy = 1'b1;
            while (busy) begin
                @(posedge clk);
                busy = 1'b0;
                for (di = 0; di < NPORTS; di = di + 1) begin
                    if (spos[di] < slen[di] && !stopped[di]) begin
                        rx[di*9 +: 9] <= sbuf[di*MAXC + spos[di]];
                        spos[di] = spos[di] + 1;
                    end else begin
                        rx[di*9 +: 9] <= CH_IDLE;
                    end
                    if (spos[di] < slen[di]) begin
                        busy = 1'b1;
                    end
                end
            end
            @(posedge clk);
            rx <= {NPORTS{CH_IDLE}};
            for (di = 0; di < NPORTS; di = di + 1) begin
                slen[di] = 0;
                spos[di] = 0;
            end
        end
    endtask

    // wait until every expected packet has arrived, then a few more cycles for strays
    task drain;
        input integer bound;
        reg done;
        integer t;
        begin
            done = 1'b0;
            for (t = 0; t < bound && !done; t = t + 1) begin
                @(posedge clk);
                done = 1'b1;
                for (di = 0; di < NPORTS; di = di + 1) begin
                    if (got_n[di] != exp_n[di]) begin
                        done = 1'b0;
                    end
                end
            end
            if (!done) begin
                for (di = 0; di < NPORTS; di = di + 1) begin
                    if (got_n[di] != exp_n[di]) begin
                        $display("FAIL: tx port %0d: %0d of %0d packets arrived after %0d cycles (%0d bytes pending)",
                                 di, got_n[di], exp_n[di], bound, cur_n[di]);
                    end
                end
                fail_end;
            end
            repeat (16 + 2 * (ROUTE_DELAY + LINK_DELAY)) @(posedge clk);
        end
    endtask

    task send_one;
        input integer src;
        input [7:0]   route;
        input integer len;
        input integer corrupt;
        begin
            add_packet(src, route, len, corrupt);
            drive;
            drain(2000 + 4 * (ROUTE_DELAY + LINK_DELAY));
        end
    endtask

    // read counter idx of port p through the register port and compare
    task check_ctr;
        input integer p;
        input integer idx;
        integer t;
        reg [31:0] exp_v;
        reg [PAW+3:0] a;
        begin
            a = {p[PAW-1:0], idx[3:0]};
            @(posedge clk);
            reg_rd   <= 1'b1;
            reg_addr <= a;
            @(posedge clk);
            reg_rd   <= 1'b0;
            t = 1;
            // answered when the counter RAM's flusher reaches the slot: within NPORTS*NCTR cycles
            while (!reg_rvalid && t <= NPORTS * NCTR + 1) begin
                @(posedge clk);
                t = t + 1;
            end
            if (!reg_rvalid) begin
                $display("FAIL: counter read port %0d index %0d: reg_rvalid never came (waited %0d edges)",
                         p, idx, NPORTS * NCTR + 1);
                fail_end;
            end
            // counters wrap modulo 2^CTR_WIDTH; without the counter block every read answers 0
            exp_v = (COUNTERS == 0) ? 32'd0 :
                    (CTR_WIDTH >= 32) ? exp_ctr[p*NCTR + idx] : exp_ctr[p*NCTR + idx] & ((32'd1 << CTR_WIDTH) - 32'd1);
            if (reg_rdata !== exp_v) begin
                $display("FAIL: counter port %0d index %0d: read %0d expected %0d",
                         p, idx, reg_rdata, exp_v);
                fail_end;
            end
        end
    endtask

    integer i, j, r, len, dst, hot;
    reg [8*256-1:0] vcdfile;

    initial begin
        if ($test$plusargs("vcd")) begin
            if (!$value$plusargs("vcd=%s", vcdfile)) vcdfile = "xbar_icarus_tb.vcd";
            $dumpfile(vcdfile);
            $dumpvars(0, xbar_icarus_tb);
        end
        next_id = 1;
        n_sent  = 0;
        for (i = 0; i < NPORTS; i = i + 1) begin
            exp_n[i] = 0;
            slen[i]  = 0;
            spos[i]  = 0;
        end
        for (i = 0; i < NPORTS * NCTR; i = i + 1) begin
            exp_ctr[i] = 0;
        end

        rst = 1'b1;
        repeat (5) @(posedge clk);
        rst <= 1'b0;
        repeat (4) @(posedge clk);

        // ---- phase 1: one packet at a time from every port
        for (i = 0; i < NPORTS; i = i + 1) begin
            for (j = 0; j < 5; j = j + 1) begin
                case (j)
                    0: begin dst = i;                        len = 1 + (i % 3);            end
                    1: begin dst = (i + 1) % NPORTS;         len = 40;                     end
                    2: begin dst = (i + NPORTS - 1) % NPORTS; len = 2 + (i * 5 + 7) % 38;  end
                    3: begin dst = (i * 3 + 2) % NPORTS;     len = 1 + (i * 11 + 3) % 40;  end
                    default: begin dst = (NPORTS - 1 - i);   len = 1 + (i * 7) % 40;       end
                endcase
                send_one(i, rt(dst), len, 0);
            end
            send_one(i, 8'hC0, 5, 0);                                  // bad route byte
            if (NPORTS < 64) send_one(i, rt(NPORTS), 3, 0);   // port out of range
            send_one(i, rt((i + 2) % NPORTS), 10 + i % 20, 1);   // wrong CRC
            send_one(i, rt((i + 3) % NPORTS), 4 + i % 9, 2);     // marked bad upstream
        end
        $display("phase serial:  %0d packets sent, %0d received, cycle %0d", n_sent, n_recv, cycle);

        // ---- phase 2: all ports at once, a permutation per round
        for (r = 0; r < NPORTS; r = r + 1) begin
            for (i = 0; i < NPORTS; i = i + 1) begin
                add_packet(i, rt((i + r) % NPORTS), 1 + (i * 13 + r * 7) % 40, 0);
            end
            drive;
            drain(4000 + 4 * (ROUTE_DELAY + LINK_DELAY));
        end
        $display("phase permute: %0d packets sent, %0d received, cycle %0d", n_sent, n_recv, cycle);

        // ---- phase 3: everyone to one output at once (contention, slack buffers fill, STOP/GO)
        if (TIMEOUT == 0 || TIMEOUT > 2 * NPORTS * (HOT_LEN + 4 + ROUTE_DELAY)) begin
            for (j = 0; j < 2; j = j + 1) begin
                hot = (j == 0) ? 0 : NPORTS - 1;
                for (i = 0; i < NPORTS; i = i + 1) begin
                    add_packet(i, rt(hot), HOT_LEN - (i % 4), (i == 1) ? 1 : 0);
                end
                drive;
                drain(NPORTS * (HOT_LEN + 8) * 4 + 4000);
            end
            $display("phase hotspot: %0d packets sent, %0d received, %0d STOPs seen, cycle %0d",
                     n_sent, n_recv, n_stop, cycle);
        end else begin
            $display("phase hotspot: skipped (TIMEOUT %0d too small)", TIMEOUT);
        end

        // ---- all quiet, then the counters
        repeat (32) @(posedge clk);
        for (i = 0; i < NPORTS; i = i + 1) begin
            if (cur_n[i] != 0) begin
                $display("FAIL: tx port %0d: %0d bytes of an unfinished packet", i, cur_n[i]);
                fail_end;
            end
        end
        for (i = 0; i < NPORTS; i = i + 1) begin
            for (j = 0; j < NCTR; j = j + 1) begin
                check_ctr(i, j);
            end
        end
        $display("RESULT PASS NPORTS=%0d SLACK_DEPTH=%0d ROUTE_DELAY=%0d LINK_DELAY=%0d packets=%0d received=%0d stops=%0d counters=%0d cycles=%0d",
                 NPORTS, SLACK_DEPTH, ROUTE_DELAY, LINK_DELAY, n_sent, n_recv, n_stop, NPORTS * NCTR, cycle);
        $finish;
    end

endmodule

/* verilator lint_on BLKSEQ */
/* verilator lint_on INITIALDLY */
`default_nettype wire
