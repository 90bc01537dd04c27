// net4_icarus_tb -- Icarus smoke test of the generated network rtl/net/net4.v (docs/network.md "RTL network"):
// host 0 (switch 0 port 0) sends one packet to host 4 (switch 2 port 0) over two ring links; the bench checks
// that host 4 receives the packet's type and payload bytes unchanged and in order, then one CRC byte and GAP,
// that no other host receives a data character, and prints "icarus: 1 passed, 0 failed" (or the failure).
`timescale 1ns/1ps
`default_nettype none

module net4_icarus_tb;
    localparam H = 8;
    localparam NB = 20;                       // type byte + payload bytes
    reg            clk = 1'b0;
    reg            rst = 1'b1;
    reg  [H*9-1:0] from_host;
    wire [H*9-1:0] to_host;
    wire [16*9-1:0] sw_tx;

    net4 #(.TIMEOUT(4096)) dut (
        .clk       (clk),
        .rst       (rst),
        .from_host (from_host),
        .to_host   (to_host),
        .sw_tx     (sw_tx)
    );

    always #5 clk = ~clk;

    reg [8:0] pkt [0:NB+4];                   // route bytes, type + payload, CRC (arbitrary), GAP
    integer i, k, got, fails, other;
    reg [8:0] c;
    initial begin
        from_host = {H{9'h100}};
        pkt[0] = 9'h082; pkt[1] = 9'h082; pkt[2] = 9'h080;   // switch 0 port 2, switch 1 port 2, host 4's port 0
        for (i = 0; i < NB; i = i + 1)
            pkt[3 + i] = {1'b0, i[7:0] ^ 8'h5a};
        pkt[NB + 3] = 9'h033;                                 // CRC byte (wrong on purpose: forwarded, marked bad)
        pkt[NB + 4] = 9'h101;                                 // GAP
        fails = 0; got = 0; other = 0;
        repeat (4) @(posedge clk);
        rst <= 1'b0;
        repeat (2) @(posedge clk);
        for (i = 0; i <= NB + 4; i = i + 1) begin
            from_host[8:0] <= pkt[i];
            @(posedge clk);
        end
        from_host[8:0] <= 9'h100;
        // host 4 sees the type and payload bytes, one CRC byte, then GAP
        for (k = 0; k < 2000 && got <= NB + 1; k = k + 1) begin
            @(posedge clk);
            c = to_host[4*9 +: 9];
            if (c[8] == 1'b0) begin
                if (got < NB && c != pkt[3 + got]) begin
                    $display("FAIL: host 4 byte %0d: expected 0x%03x, got 0x%03x", got, pkt[3 + got], c);
                    fails = fails + 1;
                end
                got = got + 1;
            end else if (c == 9'h101) begin
                if (got != NB + 1) begin
                    $display("FAIL: host 4: GAP after %0d data characters, expected %0d", got, NB + 1);
                    fails = fails + 1;
                end
                got = NB + 2;
            end
            for (i = 0; i < H; i = i + 1)
                if (i != 4 && to_host[i*9 + 8] == 1'b0)
                    other = other + 1;
        end
        if (got != NB + 2) begin
            $display("FAIL: host 4 received %0d of %0d data characters and no GAP within 2000 cycles", got, NB + 1);
            fails = fails + 1;
        end
        if (other != 0) begin
            $display("FAIL: %0d data characters reached other hosts", other);
            fails = fails + 1;
        end
        $display("icarus: %0d passed, %0d failed", fails == 0 ? 1 : 0, fails == 0 ? 0 : 1);
        $finish;
    end
endmodule

`default_nettype wire
