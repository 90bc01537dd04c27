// sanfab — Myrinet-style source-routed wormhole crossbar.
//
// NPORTS full-duplex byte links of 9-bit characters. The first byte of a packet names the output
// port (0x80 | port) and is stripped; the packet's trailing CRC-8 is checked on the way in and
// regenerated on the way out. Slack buffers with STOP/GO flow control, one header per output at
// a time with round-robin arbitration, a blocking timeout that drains stuck packets, and per-port
// counters on a small read port. All outputs are registered. See docs/xbar.md.
`default_nettype none

module xbar #(
    parameter NPORTS      = 8,
    parameter SLACK_DEPTH = 80,
    parameter STOP_THRESH = 56,
    parameter GO_THRESH   = 40,
    parameter ROUTE_DELAY = 0,
    parameter LINK_DELAY  = 0,
    parameter TIMEOUT     = 4096
) (
    input  wire                clk,
    input  wire                rst,
    input  wire [NPORTS*9-1:0] rx,
    output wire [NPORTS*9-1:0] tx,
    input  wire                reg_rd,
    input  wire [7:0]          reg_addr,
    output wire [31:0]         reg_rdata,
    output wire                reg_rvalid
);

    localparam PW   = (NPORTS > 1) ? $clog2(NPORTS) : 1;
    localparam NCTR = 9;
    localparam CTR_RX_PKTS = 0, CTR_RX_BYTES = 1, CTR_TX_PKTS = 2, CTR_TX_BYTES = 3,
               CTR_CRC_ERR = 4, CTR_DROP_ROUTE = 5, CTR_DROP_TIMEOUT = 6, CTR_MALFORMED = 7,
               CTR_OVERFLOW = 8;

    // input side
    wire [NPORTS*NPORTS-1:0] in_req;      // input i requests output p at [i*NPORTS + p]
    wire [NPORTS-1:0]    in_ready;
    wire [NPORTS*10-1:0] in_head;
    wire [NPORTS-1:0]    in_abort_req;
    wire [NPORTS-1:0]    in_want_q;
    wire [NPORTS-1:0]    in_want_d;
    wire [NPORTS-1:0]    in_grant;

    // output side
    wire [NPORTS-1:0]        out_busy;
    wire [NPORTS*NPORTS-1:0] out_owner;    // output p's owner, one-hot, at [p*NPORTS +: NPORTS]
    wire [NPORTS-1:0]        out_free;
    wire [NPORTS-1:0]        arb_valid;
    wire [NPORTS*NPORTS-1:0] arb_gnt;      // output p grants input i at [p*NPORTS + i]

    wire [NPORTS*NCTR-1:0] ev;

    genvar i, p;

    generate
        for (i = 0; i < NPORTS; i = i + 1) begin : g_in
            // the input is granted when any output's arbiter picked it
            wire [NPORTS-1:0] gcol;
            for (p = 0; p < NPORTS; p = p + 1) begin : g_col
                assign gcol[p] = arb_gnt[p*NPORTS + i];
            end
            assign in_grant[i] = |gcol;

            xbar_in #(
                .NPORTS      (NPORTS),
                .PW          (PW),
                .SLACK_DEPTH (SLACK_DEPTH),
                .STOP_THRESH (STOP_THRESH),
                .GO_THRESH   (GO_THRESH),
                .ROUTE_DELAY (ROUTE_DELAY),
                .TIMEOUT     (TIMEOUT)
            ) u_in (
                .clk             (clk),
                .rst             (rst),
                .rx              (rx[i*9 +: 9]),
                .grant           (in_grant[i]),
                .free_vec        (out_free),
                .req_vec         (in_req[i*NPORTS +: NPORTS]),
                .ready           (in_ready[i]),
                .head            (in_head[i*10 +: 10]),
                .abort_req       (in_abort_req[i]),
                .want_q          (in_want_q[i]),
                .want_d          (in_want_d[i]),
                .ev_rx_pkt       (ev[i*NCTR + CTR_RX_PKTS]),
                .ev_rx_byte      (ev[i*NCTR + CTR_RX_BYTES]),
                .ev_crc_err      (ev[i*NCTR + CTR_CRC_ERR]),
                .ev_drop_route   (ev[i*NCTR + CTR_DROP_ROUTE]),
                .ev_drop_timeout (ev[i*NCTR + CTR_DROP_TIMEOUT]),
                .ev_malformed    (ev[i*NCTR + CTR_MALFORMED]),
                .ev_overflow     (ev[i*NCTR + CTR_OVERFLOW])
            );
        end

        for (p = 0; p < NPORTS; p = p + 1) begin : g_out
            // requests for this output
            wire [NPORTS-1:0] preq;
            for (i = 0; i < NPORTS; i = i + 1) begin : g_req
                assign preq[i] = in_req[i*NPORTS + p];
            end

            rr_arbiter #(
                .N (NPORTS)
            ) u_arb (
                .clk       (clk),
                .rst       (rst),
                .en        (~out_busy[p]),
                .req       (preq),
                .gnt_valid (arb_valid[p]),
                .gnt       (arb_gnt[p*NPORTS +: NPORTS])
            );

            // crossbar: AND-OR of the inputs' signals with the one-hot owner
            wire [NPORTS-1:0] own = out_owner[p*NPORTS +: NPORTS];
            reg               own_ready;
            reg  [9:0]        own_head;
            reg               own_abort;
            integer           k;
            always @* begin
                own_ready = 1'b0;
                own_head  = 10'd0;
                own_abort = 1'b0;
                for (k = 0; k < NPORTS; k = k + 1) begin
                    own_ready = own_ready | (own[k] & in_ready[k]);
                    own_head  = own_head  | ({10{own[k]}} & in_head[k*10 +: 10]);
                    own_abort = own_abort | (own[k] & in_abort_req[k]);
                end
            end

            xbar_out #(
                .NPORTS     (NPORTS),
                .LINK_DELAY (LINK_DELAY)
            ) u_out (
                .clk           (clk),
                .rst           (rst),
                .rx            (rx[p*9 +: 9]),
                .grant         (arb_valid[p]),
                .grant_oh      (arb_gnt[p*NPORTS +: NPORTS]),
                .own_ready     (own_ready),
                .own_head      (own_head),
                .own_abort_req (own_abort),
                .want_q        (in_want_q[p]),
                .want_d        (in_want_d[p]),
                .busy          (out_busy[p]),
                .owner_oh      (out_owner[p*NPORTS +: NPORTS]),
                .free          (out_free[p]),
                .tx            (tx[p*9 +: 9]),
                .ev_tx_pkt     (ev[p*NCTR + CTR_TX_PKTS]),
                .ev_tx_byte    (ev[p*NCTR + CTR_TX_BYTES])
            );
        end
    endgenerate

    xbar_counters #(
        .NPORTS (NPORTS),
        .NCTR   (NCTR)
    ) u_ctr (
        .clk        (clk),
        .rst        (rst),
        .ev         (ev),
        .reg_rd     (reg_rd),
        .reg_addr   (reg_addr),
        .reg_rdata  (reg_rdata),
        .reg_rvalid (reg_rvalid)
    );

endmodule

`default_nettype wire
