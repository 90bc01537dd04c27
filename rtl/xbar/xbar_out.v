// sanfab — crossbar output port: owner and round-robin arbiter, a two-entry queue, transmit
// priority, STOP/GO both ways, timeout ABORT, cable delay.
//
// The owning input's transfer register (xf) arrives through an AND-OR with the registered owner;
// it is sent at once when the queue is empty and the port may send, else queued. Each cycle the tx
// register gets, in this order: a STOP/GO owed to the sender feeding this port's input, nothing
// while downstream says STOP, a GAP owed after a last byte, the next entry (queue head, else the
// transfer), a timeout ABORT owed, else IDLE. The arbiter runs when the output is free or its
// owner's last entry arrives, and its grant is registered (own, gp). The room bit av assumes the
// owner pops whenever it may, so the queue never holds more than two entries; mp tells the owner
// it may pop. See docs/xbar.md ("Output").
`default_nettype none

module xbar_out #(
    parameter NPORTS     = 8,
    parameter LINK_DELAY = 0
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [8:0]           rx,        // this port's receive link: STOP/GO from downstream
    input  wire [NPORTS-1:0]    req,       // inputs requesting this output (registered)
    input  wire [NPORTS-1:0]    xf_to,     // inputs whose transfer register is for this output ...
    input  wire [NPORTS*10-1:0] xf_d,      // ... every input's transfer entry (zero when not valid)
    input  wire [NPORTS-1:0]    xf_end,    // inputs whose transfer ends its packet on this output
    input  wire [NPORTS-1:0]    ab,        // every input's abort request
    input  wire                 want,      // this port's input wants STOP (registered)
    output wire [NPORTS-1:0]    gp,        // grant pulse, one-hot (registered)
    output wire [NPORTS-1:0]    mp,        // may-pop bit for the owner, one-hot (registered)
    output wire [8:0]           tx,
    output reg                  ev_tx_pkt,
    output reg                  ev_tx_byte
);

    `include "link_defs.vh"
    `include "xbar_defs.vh"

    reg              busy_q, busy_d;
    reg [NPORTS-1:0] own_q, own_d;
    reg [NPORTS-1:0] gp_q, gp_d;
    reg [NPORTS-1:0] mp_q, mp_d;
    reg [9:0]        q0_q, q0_d;
    reg [9:0]        q1_q, q1_d;
    reg [1:0]        qn_q, qn_d;
    reg              gap_q, gap_d;
    reg              abt_q, abt_d;
    reg              stop_q, stop_d;
    reg              ann_q, ann_d;
    reg              av_q, av_d;
    reg [8:0]        tx_q, tx_d;
`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire             mut_stop_late, mut_drop_last, mut_abort_lost;
    sanfab_mutant #(.NAME("STOP_LATE"))  u_mut_stop_late  (.on(mut_stop_late));
    sanfab_mutant #(.NAME("DROP_LAST"))  u_mut_drop_last  (.on(mut_drop_last));
    sanfab_mutant #(.NAME("ABORT_LOST")) u_mut_abort_lost (.on(mut_abort_lost));
    reg              stop_late_q;
    always @(posedge clk) begin
        stop_late_q <= rst ? 1'b0 : stop_q;
    end
`endif

    // the owner's transfer: only the owner pops for this output, and the inputs flag their
    // transfers one-hot by output, so "a transfer arrives" is an OR of registers and the entry an
    // AND-OR of registers (docs/xbar.md rule 1: a timed-out owner's later transfers are flagged
    // for its next output, never for this one); the owner's abort request by the registered owner
    reg       x_v;
    reg [9:0] x_d;
    reg       x_ab;
    integer   k;
    always @* begin
        x_v  = 1'b0;
        x_d  = 10'd0;
        x_ab = 1'b0;
        for (k = 0; k < NPORTS; k = k + 1) begin
            x_v  = x_v  | xf_to[k];
            x_d  = x_d  | ({10{xf_to[k]}} & xf_d[k*10 +: 10]);
            x_ab = x_ab | (own_q[k] & ab[k]);
        end
    end
    // x_v with a LAST or ABORT entry, flagged one-hot by the inputs too, so the arbiter's enable
    // is an OR of registers
    wire x_end = |xf_end;

    // round-robin arbitration: when free, or when the owner's last entry arrives
    wire              arb_en = ~busy_q | x_end;
    wire              arb_valid;
    wire [NPORTS-1:0] arb_gnt;

    rr_arbiter #(
        .N (NPORTS)
    ) u_arb (
        .clk       (clk),
        .rst       (rst),
        .hold      (1'b0),
        .en        (arb_en),
        .req       (req),
        .gnt_valid (arb_valid),
        .gnt       (arb_gnt)
    );

    reg       sent;      // a queued or arriving entry goes out this cycle
    reg [9:0] e;         // the entry that may go out: queue head, else the transfer
    reg       e_v;
    reg       stop_eff;  // downstream STOP as it acts on this cycle

    always @* begin
        busy_d     = busy_q;
        own_d      = own_q;
        gp_d       = {NPORTS{1'b0}};
        q0_d       = q0_q;
        q1_d       = q1_q;
        qn_d       = qn_q;
        gap_d      = gap_q;
        abt_d      = abt_q;
        stop_d     = stop_q;
        ann_d      = ann_q;
        tx_d       = CH_IDLE;
        sent       = 1'b0;
        ev_tx_pkt  = 1'b0;
        ev_tx_byte = 1'b0;

        if (rx == CH_STOP) begin
            stop_d = 1'b1;
        end else if (rx == CH_GO) begin
            stop_d = 1'b0;
        end

        e_v = (qn_q != 2'd0) | x_v;
        e   = (qn_q != 2'd0) ? q0_q : x_d;

`ifdef SANFAB_MUTANTS
        if (mut_stop_late)
            stop_eff = stop_late_q;  // deliberately broken: downstream STOP acts a cycle late
        else
`endif
        stop_eff = stop_q;
        if (want != ann_q) begin
            tx_d  = want ? CH_STOP : CH_GO;
            ann_d = want;
        end else if (stop_eff) begin
            tx_d = CH_IDLE;
        end else if (gap_q) begin
            tx_d      = CH_GAP;
            gap_d     = 1'b0;
            ev_tx_pkt = 1'b1;
        end else if (e_v) begin
            sent = 1'b1;
            if (e[9:8] == K_ABORT) begin
                tx_d      = CH_ABORT;
                ev_tx_pkt = 1'b1;
            end else begin
                tx_d       = {1'b0, e[7:0]};
                ev_tx_byte = 1'b1;
                if (e[9:8] == K_LAST) begin
`ifdef SANFAB_MUTANTS
                    if (!mut_drop_last)  // deliberately broken: the GAP is left out
`endif
                    gap_d = 1'b1;
                end
            end
        end else if (abt_q) begin
            tx_d      = CH_ABORT;
            abt_d     = 1'b0;
            busy_d    = 1'b0;
            own_d     = {NPORTS{1'b0}};
            ev_tx_pkt = 1'b1;
        end

        // queue: the head leaves if it was sent; the transfer joins unless it went straight out
        if (sent && qn_q != 2'd0) begin
            q0_d = q1_q;
            if (x_v) begin
                if (qn_q == 2'd1) begin
                    q0_d = x_d;
                end else begin
                    q1_d = x_d;
                end
            end else begin
                qn_d = qn_q - 2'd1;
            end
        end else if (x_v && !sent) begin
            if (qn_q == 2'd0) begin
                q0_d = x_d;
            end else begin
                q1_d = x_d;
            end
            qn_d = qn_q + 2'd1;
        end

        if (busy_q && !abt_q && x_ab) begin
`ifdef SANFAB_MUTANTS
            if (mut_abort_lost) begin
                busy_d = 1'b0;  // deliberately broken: released without ABORT
                own_d  = {NPORTS{1'b0}};
            end else
`endif
            abt_d = 1'b1;
        end

        if (arb_en) begin
            if (arb_valid) begin
                busy_d = 1'b1;
                own_d  = arb_gnt;
                gp_d   = arb_gnt;
            end else if (x_end) begin
                busy_d = 1'b0;
                own_d  = {NPORTS{1'b0}};
            end
        end

        av_d = (qn_d == 2'd0) | ((qn_d == 2'd1) & ~av_q);
        mp_d = own_d & {NPORTS{av_d & ~abt_d}};
    end

    always @(posedge clk) begin
        if (rst) begin
            busy_q <= 1'b0;
            own_q  <= {NPORTS{1'b0}};
            gp_q   <= {NPORTS{1'b0}};
            mp_q   <= {NPORTS{1'b0}};
            q0_q   <= 10'd0;
            q1_q   <= 10'd0;
            qn_q   <= 2'd0;
            gap_q  <= 1'b0;
            abt_q  <= 1'b0;
            stop_q <= 1'b0;
            ann_q  <= 1'b0;
            av_q   <= 1'b1;
            tx_q   <= CH_IDLE;
        end else begin
            busy_q <= busy_d;
            own_q  <= own_d;
            gp_q   <= gp_d;
            mp_q   <= mp_d;
            q0_q   <= q0_d;
            q1_q   <= q1_d;
            qn_q   <= qn_d;
            gap_q  <= gap_d;
            abt_q  <= abt_d;
            stop_q <= stop_d;
            ann_q  <= ann_d;
            av_q   <= av_d;
            tx_q   <= tx_d;
        end
    end

`ifdef SANFAB_ASSERT
    always @(posedge clk) begin
        if (!rst && x_v && !sent && qn_q == 2'd2) begin
            $display("ASSERTION FAILED: xbar_out %m: a transfer arrives with the queue full");
            $stop;
        end
    end
`endif

    // cable delay: LINK_DELAY more registers on the transmit side, idle after reset
    delay_line #(
        .WIDTH     (9),
        .DELAY     (LINK_DELAY),
        .RESET_VAL (CH_IDLE)
    ) u_cable (
        .clk (clk),
        .rst (rst),
        .d   (tx_q),
        .q   (tx)
    );

    assign gp = gp_q;
    assign mp = mp_q;

endmodule

`default_nettype wire
