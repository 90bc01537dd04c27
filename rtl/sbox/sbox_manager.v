// sanfab — Maestro switch box: the manager (docs/sbox.md, "Steps", rule 3).
//
// In every step it activates at most one source: the first in round robin from the manager pointer
// mp that is in WAIT (after step k-1) and whose need is met (its destination FIFOs unlocked and not
// reserved for another source; a barrier request or a release: its channel's barrier source IDLE);
// then mp = s + 1. A destination FIFO (q, c) is locked while a source of channel c in ACT has q in
// its P. Per channel one reservation: when there is none, the first waiting source from mp whose
// need is not met (not a barrier request, P not {UP} or empty) takes it; it ends at its activation.
// Tells the barriers and the counters what the activated source is.
//
// For the barriers it also names, per channel c and from registers only, the barrier request an
// activation of this step would take: the first source from mp in WAIT whose class is a request
// of channel c. Every request of a channel has the same need (its barrier source IDLE), so when the
// activation is a request of channel c it is that source (checked under SANFAB_ASSERT): the
// barrier judges it beside the pick, and only whether it is activated comes after the pick.
//
// Registers: the manager pointer and the two reservations. Mutation sites: LOCK_EARLY, RSV_OFF.
`default_nettype none

module sbox_manager #(
    parameter PORTS = 8,
    parameter NS    = 2 * PORTS + 2          // sources: 2p + c, then the barrier sources 2*PORTS + c
) (
    input  wire                clk,
    input  wire                rst,
    // the sources (state after step k-1)
    input  wire [NS-1:0]       src_idle,
    input  wire [NS-1:0]       src_wait,
    input  wire [NS-1:0]       src_act,
    input  wire [NS-1:0]       src_last,     // a grant ends its message (the LOCK_EARLY mutant's)
    input  wire [NS*2-1:0]     src_cls,
    input  wire [NS*PORTS-1:0] src_p,
    input  wire [NS*16-1:0]    src_w1,
    input  wire [PORTS-1:0]    up_oh,        // the up port, one-hot (0: none)
    // the activation of step k, one-hot, and what it activates
    output wire [NS-1:0]       act,
    output reg                 act_ch,       // its channel
    output wire                act_req,      // a port source's barrier request
    output wire                act_rel,      // a port source's release
    // per channel c, the request an activation would take (see above): its port one-hot in
    // breq_arr[c*PORTS +: PORTS] and its w1 (MASK) in breq_w1[c*16 +: 16]; 0 when there is none
    output reg  [2*PORTS-1:0]  breq_arr,
    output reg  [31:0]         breq_w1,
    // counter events
    output wire                ev_msgs,
    output wire                ev_mcast,
    output wire                ev_drop_route
);

    localparam [1:0] C_REQ = 2'd1, C_REL = 2'd2;   // classes (C_DATA = 0: neither)

    // ------------------------------------------------------------ registers
    reg  [NS-1:0]   mp_mask_q, mp_mask_d;    // manager pointer mp, as the mask of the sources >= mp
    reg  [2*NS-1:0] rsv_src_q, rsv_src_d;    // reservation of channel c: its source, one-hot in
                                             // rsv_src_q[c*NS +: NS] (0: none)

    integer il, ir, iv, ib, iw, j;   // one loop index per block

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_lock_early, mut_rsv_off;
    sanfab_mutant #(.NAME("LOCK_EARLY")) u_mut_lock_early (.on(mut_lock_early));
    sanfab_mutant #(.NAME("RSV_OFF"))    u_mut_rsv_off    (.on(mut_rsv_off));
`endif

    // ------------------------------------------------------------ needs
    // locks after step k-1: the port sets of the active sources of each channel; the ports the
    // reservation of each channel reserves
    reg  [PORTS-1:0] lock [0:1];
    reg  [PORTS-1:0] rsv_p [0:1];
    reg  [NS-1:0]    need_met;
    reg              blk;

    always @* begin
        lock[0] = {PORTS{1'b0}};
        lock[1] = {PORTS{1'b0}};
        rsv_p[0] = {PORTS{1'b0}};
        rsv_p[1] = {PORTS{1'b0}};
        blk = 1'b0;
        for (il = 0; il < NS; il = il + 1) begin
            if (src_act[il]
`ifdef SANFAB_MUTANTS
                && !(mut_lock_early && src_last[il])   // deliberately broken: unlocked before the last word
`endif
                )
                lock[il % 2] = lock[il % 2] | src_p[il*PORTS +: PORTS];
            if (rsv_src_q[(il % 2)*NS + il])
                rsv_p[il % 2] = rsv_p[il % 2] | src_p[il*PORTS +: PORTS];
        end
        need_met = {NS{1'b0}};
        for (il = 0; il < NS; il = il + 1) begin
            j = il % 2;
            // its FIFOs: unlocked, and none reserved for another source
`ifdef SANFAB_MUTANTS
            if (mut_rsv_off)
                blk = 1'b0;                  // deliberately broken: reservations are not kept
            else
`endif
            blk = ((src_p[il*PORTS +: PORTS] & rsv_p[j]) != {PORTS{1'b0}}) && !rsv_src_q[j*NS + il];
            if (src_wait[il]) begin
                if (il >= 2 * PORTS)
                    need_met[il] = ((src_p[il*PORTS +: PORTS] & lock[j]) == {PORTS{1'b0}}) && !blk;
                else if (src_cls[il*2 +: 2] == C_REQ)
                    need_met[il] = src_idle[2 * PORTS + j];
                else if (src_cls[il*2 +: 2] == C_REL)
                    need_met[il] = ((src_p[il*PORTS +: PORTS] & lock[j]) == {PORTS{1'b0}}) && !blk &&
                                   src_idle[2 * PORTS + j];
                else
                    need_met[il] = ((src_p[il*PORTS +: PORTS] & lock[j]) == {PORTS{1'b0}}) && !blk;
            end
        end
    end

    // ------------------------------------------------------------ the reservations' candidates
    // waiting, need not met, not a barrier request, P not {UP} or empty; per channel the first from
    // mp takes a free reservation; a reservation ends at its activation
    reg  [NS-1:0] rsv_cand [0:1];

    always @* begin
        rsv_cand[0] = {NS{1'b0}};
        rsv_cand[1] = {NS{1'b0}};
        for (ir = 0; ir < NS; ir = ir + 1) begin
            rsv_cand[ir % 2][ir] = src_wait[ir] && !need_met[ir] &&
                                   (ir >= 2 * PORTS || src_cls[ir*2 +: 2] != C_REQ) &&
                                   ((src_p[ir*PORTS +: PORTS] & ~up_oh) != {PORTS{1'b0}});
        end
    end

    wire [1:0]    rsv_any;
    wire [NS-1:0] rsv_gnt [0:1];
    wire [NS-1:0] rsv_above [0:1];

    genvar gr;
    generate
        for (gr = 0; gr < 2; gr = gr + 1) begin : g_rsv
            rr_pick #(
                .N (NS)
            ) u_rsv_pick (
                .req   (rsv_cand[gr]),
                .mask  (mp_mask_q),
                .any   (rsv_any[gr]),
                .gnt   (rsv_gnt[gr]),
                .above (rsv_above[gr])
            );
        end
    endgenerate

    // ------------------------------------------------------------ the activation
    wire          any;
    wire [NS-1:0] above;

    rr_pick #(
        .N (NS)
    ) u_mgr_pick (
        .req   (need_met),
        .mask  (mp_mask_q),
        .any   (any),
        .gnt   (act),
        .above (above)
    );

    // the activated source
    reg              act_port_src;
    reg [1:0]        act_cls;
    reg [PORTS-1:0]  act_p;

    always @* begin
        act_port_src = 1'b0;
        act_ch = 1'b0;
        act_cls = 2'd0;
        act_p = {PORTS{1'b0}};
        for (iv = 0; iv < NS; iv = iv + 1) begin
            if (act[iv]) begin
                act_ch = act_ch | iv[0];
                act_cls = act_cls | src_cls[iv*2 +: 2];
                act_p = act_p | src_p[iv*PORTS +: PORTS];
                if (iv < 2 * PORTS)
                    act_port_src = 1'b1;
            end
        end
    end

    // ------------------------------------------------------------ the barrier request per channel
    reg  [NS-1:0] breq_req [0:1];
    wire [NS-1:0] breq_oh [0:1];
    wire [NS-1:0] breq_above [0:1];
    wire [1:0]    breq_any;

    always @* begin
        breq_req[0] = {NS{1'b0}};
        breq_req[1] = {NS{1'b0}};
        for (ib = 0; ib < 2 * PORTS; ib = ib + 1)
            breq_req[ib % 2][ib] = src_wait[ib] && (src_cls[ib*2 +: 2] == C_REQ);
    end

    genvar gq;
    generate
        for (gq = 0; gq < 2; gq = gq + 1) begin : g_breq
            rr_pick #(
                .N (NS)
            ) u_breq_pick (
                .req   (breq_req[gq]),
                .mask  (mp_mask_q),
                .any   (breq_any[gq]),
                .gnt   (breq_oh[gq]),
                .above (breq_above[gq])
            );
        end
    endgenerate

    always @* begin
        breq_arr = {(2*PORTS){1'b0}};
        breq_w1 = 32'd0;
        for (iw = 0; iw < 2 * PORTS; iw = iw + 1) begin
            if (breq_oh[iw % 2][iw]) begin
                breq_arr[(iw % 2)*PORTS + iw/2] = 1'b1;
                breq_w1[(iw % 2)*16 +: 16] = breq_w1[(iw % 2)*16 +: 16] | src_w1[iw*16 +: 16];
            end
        end
    end

`ifdef SANFAB_ASSERT
    // an activated request is its channel's breq (the barrier judged that one)
    always @(posedge clk) begin
        if (!rst && act_req && (act != breq_oh[act_ch])) begin
            $display("ASSERTION FAILED: sbox_manager %m: the activated request is not its channel's first request from mp");
            $stop;
        end
    end
`endif

    wire act_fwd   = act_port_src && (act_cls != C_REQ);      // data or release
    wire act_empty = (act_p == {PORTS{1'b0}});
    assign act_req = act_port_src && (act_cls == C_REQ);
    assign act_rel = act_port_src && (act_cls == C_REL);

    // counters' events (port sources only: a barrier source's activation counts nothing)
    assign ev_msgs       = act_fwd && !act_empty;
    assign ev_mcast      = act_fwd && ((act_p & (act_p - 1'b1)) != {PORTS{1'b0}});
    assign ev_drop_route = act_fwd && act_empty;

    wire unused_any = &{1'b0, any, src_last, rsv_above[0], rsv_above[1], breq_any, breq_above[0], breq_above[1],
                        src_w1[NS*16-1:2*PORTS*16]};   // src_last: the LOCK_EARLY mutant's; the barrier sources' w1

    // ------------------------------------------------------------ next values
    always @* begin
        rsv_src_d = rsv_src_q;
        if (rsv_src_q[0 +: NS] != {NS{1'b0}}) begin
            if ((act & rsv_src_q[0 +: NS]) != {NS{1'b0}})
                rsv_src_d[0 +: NS] = {NS{1'b0}};
        end else if (rsv_any[0]) begin
            rsv_src_d[0 +: NS] = rsv_gnt[0];
        end
        if (rsv_src_q[NS +: NS] != {NS{1'b0}}) begin
            if ((act & rsv_src_q[NS +: NS]) != {NS{1'b0}})
                rsv_src_d[NS +: NS] = {NS{1'b0}};
        end else if (rsv_any[1]) begin
            rsv_src_d[NS +: NS] = rsv_gnt[1];
        end
    end

    always @* begin
        mp_mask_d = mp_mask_q;
        if (|act)
            mp_mask_d = above;       // mp = s + 1
    end

    always @(posedge clk) begin
        if (rst) begin
            mp_mask_q <= {NS{1'b1}};
            rsv_src_q <= {(2*NS){1'b0}};
        end else begin
            mp_mask_q <= mp_mask_d;
            rsv_src_q <= rsv_src_d;
        end
    end

endmodule

`default_nettype wire
