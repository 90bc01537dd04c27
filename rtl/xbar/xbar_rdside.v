// sanfab — crossbar input port, read side: takes entries from the slack buffer's head.
//
// IDLE loads the next header (from the head, or bypassed straight from the ingress); a route
// naming no port goes to DRAIN (counted). HDR requests its output once ROUTE_DELAY cycles have
// passed; the output's registered grant pulse (gp) moves it to BOUND, and in that same cycle it
// may already pop. BOUND pops the head into the transfer register xf whenever its output's
// registered may-pop bit (mp) is set, up to the packet's last entry. DRAIN discards entries up to
// the packet's end. A blocking timeout drains a packet that waits or is stuck too long, and asks
// its output (registered pulse ab) to close it with ABORT. The request is withdrawn in the cycle
// before the timeout can fire, so a grant never races it. Every signal that leaves this module is
// a register or an AND of registers. See docs/xbar.md ("Read side").
`default_nettype none

module xbar_rdside #(
    parameter NPORTS      = 8,
    parameter PW          = 3,
    parameter ROUTE_DELAY = 0,
    parameter TIMEOUT     = 4096
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              h_v,         // slack buffer head valid ...
    input  wire [9:0]        h_d,         // ... and its entry {kind[1:0], byte[7:0]}
    input  wire              bypass,      // the route byte on rx comes straight from the ingress
    input  wire [7:0]        rx_byte,
    input  wire              gp,          // an output's grant pulse names this input
    input  wire              mp,          // an output's may-pop bit names this input
    output reg               pop,         // the head entry is consumed this cycle
    output wire              idle,        // state IDLE
    output wire [NPORTS-1:0] req_vec,     // one-hot: the output this input requests now
    output wire [9:0]        xf_d,        // transfer register: the entry (zero when none), for ...
    output wire [NPORTS-1:0] xf_to,       // ... this output, one-hot (zero when none)
    output wire [NPORTS-1:0] xf_end,      // one-hot: the transfer ends its packet on this output
    output wire              ab,          // (registered pulse) the bound packet must be closed with ABORT
    output reg               ev_drop_route,
    output reg               ev_drop_timeout
);

    localparam TW = (TIMEOUT > 1) ? $clog2(TIMEOUT) : 1;
    localparam DW = (ROUTE_DELAY > 0) ? $clog2(ROUTE_DELAY + 1) : 1;

    `include "xbar_defs.vh"
    localparam [1:0] RS_IDLE = 2'd0, RS_HDR = 2'd1, RS_BOUND = 2'd2, RS_DRAIN = 2'd3;

    localparam integer  RD_I       = ROUTE_DELAY;
    localparam integer  NP_I       = NPORTS;
    localparam integer  TMO_LAST_I = (TIMEOUT > 0) ? TIMEOUT - 1 : 0;
    localparam [6:0]    NPORTS_W   = NP_I[6:0];
`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_timeout_late, mut_route_decode, mut_port_range;
    sanfab_mutant #(.NAME("TIMEOUT_LATE")) u_mut_timeout_late (.on(mut_timeout_late));
    sanfab_mutant #(.NAME("ROUTE_DECODE")) u_mut_route_decode (.on(mut_route_decode));
    sanfab_mutant #(.NAME("PORT_RANGE"))   u_mut_port_range   (.on(mut_port_range));
`endif

    reg [1:0]        rs_q, rs_d;
    reg [NPORTS-1:0] hdr_oh_q, hdr_oh_d;   // the header's output, one-hot (kept while BOUND)
    reg [DW-1:0]     rdly_q, rdly_d;
    reg              rdone_q, rdone_d;     // rdly_q has reached ROUTE_DELAY
    reg [TW:0]       tmo_q, tmo_d;
    reg              tlast_q, tlast_d;     // tmo_q == TIMEOUT - 1 (the timeout fires if no progress)
    reg              reqon_q, reqon_d;     // HDR, route delay done, timeout not due: request hdr_oh_q
    reg              pa_q, pa_d;           // IDLE or DRAIN: pops whatever is at the head
    reg              pm_q, pm_d;           // HDR or BOUND: pops when its output's may-pop bit is set
    reg              tmo_clr;              // the blocking count restarts this cycle
    reg              rdly_inc;             // the route delay count steps this cycle
    reg [NPORTS-1:0] xf_end_q, xf_end_d;   // transfer register: ends the packet on this output,
    reg [NPORTS-1:0] xf_to_q, xf_to_d;     // ... is for this output (one-hot, zero when none),
    reg [9:0]        xf_d_q, xf_d_d;       // ... its entry (zero when none)
    reg              ab_q, ab_d;           // abort request pulse to the owned output

    wire [1:0] h_kind = h_d[9:8];
    wire       h_end  = (h_kind == K_LAST) | (h_kind == K_ABORT);

    // the header comes from the head entry, or (bypass, head empty) straight from the link
    reg        hdr_load;
    wire [7:0] hdr_byte = h_v ? h_d[7:0] : rx_byte;
    wire [6:0] hdr_port = {1'b0, hdr_byte[5:0]};
    wire       hdr_form =
`ifdef SANFAB_MUTANTS
                          mut_route_decode ? hdr_byte[7] :   // deliberately broken: 11pppppp accepted
`endif
                          (hdr_byte[7:6] == 2'b10);
    wire       hdr_ok =
`ifdef SANFAB_MUTANTS
                        mut_port_range ? hdr_form && ((hdr_byte[5:0] >> PW) == 6'd0) :  // deliberately broken: no < NPORTS
`endif
                        hdr_form && (hdr_port < NPORTS_W);
    wire [NPORTS-1:0] hdr_dec;
    genvar g;
    generate
        for (g = 0; g < NPORTS; g = g + 1) begin : g_dec
            localparam [PW-1:0] GW = g;
            assign hdr_dec[g] = hdr_ok & (hdr_byte[PW-1:0] == GW);
        end
    endgenerate

    wire tmo_on = (TIMEOUT != 0);
    // next values of the compare flags, from the registers (not from the late next-state mux)
    localparam integer  TMO_PRE_I = (TMO_LAST_I > 0) ? TMO_LAST_I - 1 : 0;
    localparam [TW:0]   TMO_PRE   = TMO_PRE_I[TW:0];
    localparam integer  RD_PRE_I  = (RD_I > 0) ? RD_I - 1 : 0;
    localparam [DW-1:0] RD_PRE    = RD_PRE_I[DW-1:0];
`ifdef SANFAB_MUTANTS
    // TIMEOUT_LATE's count ends at TIMEOUT instead of TIMEOUT - 1: the flag one count later
    localparam integer  TMO_LATE_I   = (TIMEOUT > 0) ? TIMEOUT - 1 : 0;
    localparam [TW:0]   TMO_LATE_PRE = TMO_LATE_I[TW:0];
`endif
    wire tmo_at_pre =
`ifdef SANFAB_MUTANTS
                      mut_timeout_late ? tmo_on && (TIMEOUT > 0) && (tmo_q == TMO_LATE_PRE) :  // deliberately broken: fires a cycle late
`endif
                      tmo_on && (TMO_LAST_I > 0) && (tmo_q == TMO_PRE);
    wire rdly_at_pre = (rdly_q == RD_PRE);

    // the pop from registered state flags: the late may-pop bit meets one AND-OR
    always @* begin
        pop = h_v & (pa_q | (pm_q & mp));
    end

    always @* begin
        rs_d            = rs_q;
        reqon_d         = 1'b0;
        pm_d            = 1'b0;
        hdr_oh_d        = hdr_oh_q;
        rdly_d          = rdly_q;
        rdone_d         = rdone_q;
        tmo_d           = tmo_q;
        tlast_d         = tlast_q;
        xf_end_d        = {NPORTS{1'b0}};
        xf_to_d         = {NPORTS{1'b0}};
        xf_d_d          = 10'd0;     // zero when not valid: the outputs' AND-OR needs no valid term
        ab_d            = 1'b0;
        hdr_load        = 1'b0;
        tmo_clr         = 1'b0;
        rdly_inc        = 1'b0;
        ev_drop_route   = 1'b0;
        ev_drop_timeout = 1'b0;

        case (rs_q)
            RS_IDLE: begin
                if (h_v) begin
                    hdr_load = 1'b1;           // (popped: pa_q)
                end else if (bypass) begin
                    hdr_load = 1'b1;
                end
            end
            RS_HDR, RS_BOUND: begin
                if (rs_q == RS_HDR && gp) begin
                    rs_d    = RS_BOUND;
                    tmo_clr = 1'b1;
                end
                // may-pop names only an owner, so in HDR it comes with the grant pulse
                if (h_v && mp) begin          // (popped: pm_q)
                    xf_to_d = hdr_oh_q;
                    xf_d_d  = h_d;
                    tmo_clr = 1'b1;
                    if (h_end) begin
                        rs_d     = RS_IDLE;
                        xf_end_d = hdr_oh_q;
                    end
                end else if (rs_q == RS_HDR && !gp) begin
                    rdly_inc = ~rdone_q;
                    if (tmo_on && tlast_q) begin
                        rs_d            = RS_DRAIN;
                        ev_drop_timeout = 1'b1;
                    end
                end else if (rs_q == RS_BOUND) begin
                    if (tmo_on && tlast_q) begin
                        rs_d            = RS_DRAIN;
                        ab_d            = 1'b1;
                        ev_drop_timeout = 1'b1;
                    end
                end
            end
            default: begin // RS_DRAIN
                if (h_v) begin                 // (popped: pa_q)
                    if (h_end) begin
                        rs_d = RS_IDLE;
                    end
                end
            end
        endcase


        // counters: the +1 starts from the registers, the late signals only select. The blocking
        // count steps in every cycle it is not restarted: outside HDR and BOUND its value does
        // not matter (a load restarts it), so it needs no enable from the late pop.
        if (tmo_clr) begin
            tmo_d   = {(TW+1){1'b0}};
            tlast_d = 1'b0;                  // TIMEOUT >= 2: a restarted count is not due
        end else begin
            tmo_d   = tmo_q + {{TW{1'b0}}, 1'b1};
            tlast_d = tmo_at_pre;
        end
        if (rdly_inc) begin
            rdly_d  = rdly_q + {{(DW-1){1'b0}}, 1'b1};
            rdone_d = rdly_at_pre;
        end

        if (hdr_load) begin
            hdr_oh_d = hdr_dec;
            rdly_d   = {DW{1'b0}};
            rdone_d  = (ROUTE_DELAY == 0);
            tmo_d    = {(TW+1){1'b0}};
            tlast_d  = 1'b0;
            if (hdr_ok) begin
                rs_d = RS_HDR;
            end else begin
                rs_d          = RS_DRAIN;
                ev_drop_route = 1'b1;
            end
        end

        // the state flags' next values, written per state from the registers: the late grant pulse,
        // may-pop bit and head only select at the end (not through the next-state mux)
        case (rs_q)
            RS_IDLE: begin
                reqon_d = hdr_load & hdr_ok & (ROUTE_DELAY == 0);
                pm_d    = hdr_load & hdr_ok;
            end
            RS_HDR: begin
                // stays in HDR without a grant, unless the timeout fires; mp comes only with gp
                // here (asserted below), so no pop without a grant: the may-pop bit is not needed
                reqon_d = ~gp & ~(tmo_on & tlast_q) & (rdone_q | rdly_at_pre) & ~tmo_at_pre;
                pm_d    = (h_v & mp) ? ~h_end : (gp | ~(tmo_on & tlast_q));
            end
            RS_BOUND: begin
                reqon_d = 1'b0;
                pm_d    = (h_v & mp) ? ~h_end : ~(tmo_on & tlast_q);
            end
            default: begin // RS_DRAIN
                reqon_d = 1'b0;
                pm_d    = 1'b0;
            end
        endcase
        pa_d = ~pm_d;                        // IDLE or DRAIN
    end

    always @(posedge clk) begin
        if (rst) begin
            rs_q     <= RS_IDLE;
            hdr_oh_q <= {NPORTS{1'b0}};
            rdly_q   <= {DW{1'b0}};
            rdone_q  <= 1'b0;
            tmo_q    <= {(TW+1){1'b0}};
            tlast_q  <= 1'b0;
            reqon_q  <= 1'b0;
            pa_q     <= 1'b1;
            pm_q     <= 1'b0;
            xf_end_q <= {NPORTS{1'b0}};
            xf_to_q  <= {NPORTS{1'b0}};
            xf_d_q   <= 10'd0;
            ab_q     <= 1'b0;
        end else begin
            rs_q     <= rs_d;
            hdr_oh_q <= hdr_oh_d;
            rdly_q   <= rdly_d;
            rdone_q  <= rdone_d;
            tmo_q    <= tmo_d;
            tlast_q  <= tlast_d;
            reqon_q  <= reqon_d;
            pa_q     <= pa_d;
            pm_q     <= pm_d;
            xf_end_q <= xf_end_d;
            xf_to_q  <= xf_to_d;
            xf_d_q   <= xf_d_d;
            ab_q     <= ab_d;
        end
    end

`ifdef SANFAB_ASSERT
    // unreachable by construction (docs/xbar.md, "Room"): checked in simulation builds
    always @(posedge clk) begin
        if (!rst && h_v) begin
            if (rs_q == RS_IDLE && h_kind != K_HDR) begin
                $display("ASSERTION FAILED: xbar_rdside %m: a non-header entry at the head in IDLE");
                $stop;
            end
            if (rs_q == RS_HDR && mp && !gp) begin
                $display("ASSERTION FAILED: xbar_rdside %m: may-pop without a grant in HDR");
                $stop;
            end
            if ((rs_q == RS_BOUND || rs_q == RS_DRAIN) && h_kind == K_HDR) begin
                $display("ASSERTION FAILED: xbar_rdside %m: a header at the head before its packet's end");
                $stop;
            end
        end
    end
`endif

    assign idle    = (rs_q == RS_IDLE);
    assign req_vec = hdr_oh_q & {NPORTS{reqon_q}};
    assign xf_d    = xf_d_q;
    assign xf_end  = xf_end_q;
    assign xf_to   = xf_to_q;
    assign ab      = ab_q;

endmodule

`default_nettype wire
