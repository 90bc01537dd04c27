// sanfab — crossbar output port: owner, transmit priority, STOP/GO both ways, cable delay.
//
// Each cycle the tx register gets, in this order: a character of the owning input (when the
// registered data slot free_q is set and the owner has one ready), a GAP still owed after a
// packet's last byte, a STOP/GO owed to the upstream sender of this port's input, an ABORT owed
// for a packet cut by the timeout, or IDLE. free_q is computed a cycle ahead so that the owner
// can decide to pop from registers alone. See docs/xbar.md.
`default_nettype none

module xbar_out #(
    parameter NPORTS     = 8,
    parameter LINK_DELAY = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [8:0]    rx,            // this port's receive link: STOP/GO from downstream
    input  wire              grant,     // arbiter granted this output this cycle ...
    input  wire [NPORTS-1:0] grant_oh,  // ... to this input (one-hot)
    input  wire          own_ready,     // the owner's head may be taken
    input  wire [9:0]    own_head,
    input  wire          own_abort_req,
    input  wire          want_q,        // this port's input wants STOP (registered) ...
    input  wire          want_d,        // ... and its next value
    output wire              busy,
    output wire [NPORTS-1:0] owner_oh,  // the owning input, one-hot (the crossbar mux select)
    output wire          free,
    output wire [8:0]    tx,
    output reg           ev_tx_pkt,
    output reg           ev_tx_byte
);

    `include "xbar_defs.vh"

    reg          busy_q, busy_d;
    reg [NPORTS-1:0] owner_q, owner_d;
    reg          abort_pend_q, abort_pend_d;
    reg          gap_pend_q, gap_pend_d;
    reg          stop_q, stop_d;
    reg          free_q, free_d;
    reg          ann_q, ann_d;
    reg [8:0]    tx_q, tx_d;

    wire take      = busy_q & ~abort_pend_q & own_ready & free_q;
    wire gap_now   = gap_pend_q & ~stop_q;
    wire fc_send   = ~free_q & ~gap_now & (want_q != ann_q);
    wire abort_now = abort_pend_q & ~stop_q & ~gap_now & ~fc_send;

    always @* begin
        busy_d       = busy_q;
        owner_d      = owner_q;
        abort_pend_d = abort_pend_q;
        gap_pend_d   = gap_pend_q;
        stop_d       = stop_q;
        ann_d        = ann_q;
        tx_d         = CH_IDLE;
        ev_tx_pkt    = 1'b0;
        ev_tx_byte   = 1'b0;

        if (rx == CH_STOP) begin
            stop_d = 1'b1;
        end else if (rx == CH_GO) begin
            stop_d = 1'b0;
        end

        if (grant) begin
            busy_d  = 1'b1;
            owner_d = grant_oh;
        end

        if (take) begin
            if (own_head[9:8] == K_ABORT) begin
                tx_d      = CH_ABORT;
                busy_d    = 1'b0;
                ev_tx_pkt = 1'b1;
            end else begin
                tx_d       = {1'b0, own_head[7:0]};
                ev_tx_byte = 1'b1;
                if (own_head[9:8] == K_LAST) begin
                    busy_d     = 1'b0;
`ifndef SANFAB_MUTANT_DROP_LAST
                    gap_pend_d = 1'b1;  // (left out by the deliberately broken build)
`endif
                end
            end
        end else if (gap_now) begin
            tx_d       = CH_GAP;
            gap_pend_d = 1'b0;
            ev_tx_pkt  = 1'b1;
        end else if (fc_send) begin
            tx_d  = want_q ? CH_STOP : CH_GO;
            ann_d = want_q;
        end else if (abort_now) begin
            tx_d         = CH_ABORT;
            abort_pend_d = 1'b0;
            busy_d       = 1'b0;
            ev_tx_pkt    = 1'b1;
        end

        if (busy_q && !abort_pend_q && own_abort_req) begin
            abort_pend_d = 1'b1;
        end

`ifdef SANFAB_MUTANT_STOP_LATE
        free_d = ~stop_q & ~(gap_pend_q & stop_q) & (want_d == ann_d);  // deliberately broken
`else
        free_d = ~stop_d & ~(gap_pend_q & stop_q) & (want_d == ann_d);
`endif
    end

    always @(posedge clk) begin
        if (rst) begin
            busy_q       <= 1'b0;
            owner_q      <= {NPORTS{1'b0}};
            abort_pend_q <= 1'b0;
            gap_pend_q   <= 1'b0;
            stop_q       <= 1'b0;
            free_q       <= 1'b0;
            ann_q        <= 1'b0;
            tx_q         <= CH_IDLE;
        end else begin
            busy_q       <= busy_d;
            owner_q      <= owner_d;
            abort_pend_q <= abort_pend_d;
            gap_pend_q   <= gap_pend_d;
            stop_q       <= stop_d;
            free_q       <= free_d;
            ann_q        <= ann_d;
            tx_q         <= tx_d;
        end
    end

    // cable delay: LINK_DELAY more registers on the transmit side
    generate
        if (LINK_DELAY == 0) begin : g_nodelay
            assign tx = tx_q;
        end else begin : g_delay
            reg [8:0] dl_q [0:LINK_DELAY-1];
            integer k;
            always @(posedge clk) begin
                if (rst) begin
                    for (k = 0; k < LINK_DELAY; k = k + 1) begin
                        dl_q[k] <= CH_IDLE;
                    end
                end else begin
                    dl_q[0] <= tx_q;
                    for (k = 1; k < LINK_DELAY; k = k + 1) begin
                        dl_q[k] <= dl_q[k-1];
                    end
                end
            end
            assign tx = dl_q[LINK_DELAY-1];
        end
    endgenerate

    assign busy  = busy_q;
    assign owner_oh = owner_q;
    assign free  = free_q;

endmodule

`default_nettype wire
