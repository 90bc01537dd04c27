// sanfab — VC switch input, step 1's admission and step 4's Go & Stop (docs/vcsw.md, steps 1 and 4):
// per VC the ingress state, the packet's length so far, the occupancy of the VC's buffer, and the
// stop bit sent back up the link.
//
// The flit in the input register (vcsw_in_lookup), with its lookup, is decided on in this step: a
// head whose routing or VC entry is not valid is dropped with the rest of its packet; the MAXLEN-th
// flit of a packet is cut to a tail (truncation); a flit is admitted while its VC has room, the
// last free entry taking a cut tail (overflow), a head meeting a full buffer dropped whole. The
// admitted entry {first, tail, port, output VC, data} and the write candidate go to the buffer
// (vcsw_in_buf) in the same step; the counter events of the decision leave as ev_*. The occupancy
// counts the entries admitted and not yet popped (the pop comes late, from the outputs' grants,
// and only selects between precomputed neighbours); the stop bit is registered from it, STOP_AT.
`default_nettype none

module vcsw_in_admit #(
    /* verilator lint_off UNUSEDPARAM */   // NPORTS, PORT: the mutants' and the assertions' only
    parameter NPORTS  = 8,
    /* verilator lint_on UNUSEDPARAM */
    parameter NVC     = 2,
    parameter FLIT_W  = 16,
    parameter DEPTH   = 64,
    parameter MAXLEN  = 32,
    parameter STOP_AT = 28,
    /* verilator lint_off UNUSEDPARAM */
    parameter PORT    = 0,
    /* verilator lint_on UNUSEDPARAM */
    parameter PW      = 3,     // bits of a port number
    parameter VCW     = 1      // bits of a VC number
) (
    input  wire                             clk,
    input  wire                             rst,
    // the input register and its lookup (vcsw_in_lookup)
    input  wire                             in_valid,
    input  wire [VCW-1:0]                   in_vc,
    input  wire                             in_tail,
    input  wire [FLIT_W-1:0]                in_data,
    input  wire                             rt_ok,
    input  wire [PW-1:0]                    rt_port,
    input  wire                             vc_ok,
    input  wire [VCW-1:0]                   rt_ovc,
    // the pops of this step (vcsw_in_offer)
    input  wire [NVC-1:0]                   pop,
    // to the buffer (vcsw_in_buf): the flit may be written (w_cand), it is admitted (store), as entry
    output wire                             wr_cand,
    output reg                              store,
    output wire [2+PW+VCW+FLIT_W-1:0]       entry,      // {first, tail, port, ovc, data}
    // per VC: occupancy (flat view) and the Go & Stop bits, registered (before the cable)
    output wire [NVC*$clog2(DEPTH+1)-1:0]   occ_f,
    output wire [NVC-1:0]                   stop,
    // counter events of this step, per VC
    output wire [NVC-1:0]                   ev_rx_flit,
    output wire [NVC-1:0]                   ev_rx_pkt,
    output wire [NVC-1:0]                   ev_drop_route,
    output wire [NVC-1:0]                   ev_drop_vc,
    output wire [NVC-1:0]                   ev_trunc,
    output wire [NVC-1:0]                   ev_ovf
);

    localparam OW   = $clog2(DEPTH + 1);             // occupancy bits
    localparam LW   = $clog2(MAXLEN + 1);            // packet length count bits
    localparam integer DEPTH_I  = DEPTH;
    localparam integer MAXLEN_I = MAXLEN;
    localparam integer STOP_I   = STOP_AT;

    localparam [1:0] ST_IDLE = 2'd0, ST_PASS = 2'd1, ST_DISC = 2'd2;

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_trunc_late, mut_occ_slip, mut_stop_late, mut_ovf_trunc, mut_drop_ovf, mut_head_cut, mut_ovf_lastslot;
    sanfab_mutant #(.NAME("TRUNC_LATE"))     u_mut_trunc_late     (.on(mut_trunc_late));
    sanfab_mutant #(.NAME("OCC_SLIP"))       u_mut_occ_slip       (.on(mut_occ_slip));
    sanfab_mutant #(.NAME("STOP_LATE"))      u_mut_stop_late      (.on(mut_stop_late));
    sanfab_mutant #(.NAME("OVF_TRUNC"))      u_mut_ovf_trunc      (.on(mut_ovf_trunc));
    sanfab_mutant #(.NAME("DROP_OVF"))       u_mut_drop_ovf       (.on(mut_drop_ovf));
    sanfab_mutant #(.NAME("HEAD_CUT"))       u_mut_head_cut       (.on(mut_head_cut));
    sanfab_mutant #(.NAME("OVF_LASTSLOT"))   u_mut_ovf_lastslot   (.on(mut_ovf_lastslot));
`endif

    // ------------------------------------------------------------ per-VC state (flat views of
    // the registers declared per VC in g_vc below)
    wire [NVC*2-1:0]  state_f;
    wire [NVC*LW-1:0] len_f;

    wire [1:0]    state_c = state_f[in_vc*2 +: 2];       // of the arriving flit's VC
    wire [LW-1:0] len_c   = len_f[in_vc*LW +: LW];
    wire [OW-1:0] occ_c   = occ_f[in_vc*OW +: OW];

    // ------------------------------------------------------------ ingress decision (step k+1)
    reg           d_first;
    reg           d_tail;        // tail as stored (real or cut)
    reg  [1:0]    d_state;
    reg  [LW-1:0] d_len;
    reg           d_pkt, d_droute, d_dvc, d_trunc, d_ovf;
    reg  [LW-1:0] len_n;

    always @* begin
        store    = 1'b0;
        d_first  = 1'b0;
        d_tail   = in_tail;
        d_state  = state_c;
        d_len    = len_c;
        d_pkt    = 1'b0;
        d_droute = 1'b0;
        d_dvc    = 1'b0;
        d_trunc  = 1'b0;
        d_ovf    = 1'b0;
        len_n    = len_c + {{(LW-1){1'b0}}, 1'b1};
        if (in_valid) begin
            if (state_c == ST_DISC) begin
                d_state = in_tail ? ST_IDLE : ST_DISC;
            end else begin
                if (state_c == ST_IDLE) begin
                    d_pkt   = 1'b1;
                    d_first = 1'b1;
                    len_n   = {{(LW-1){1'b0}}, 1'b1};
                end
                if (state_c == ST_IDLE && !rt_ok) begin
                    d_droute = 1'b1;
                    d_state  = in_tail ? ST_IDLE : ST_DISC;
`ifdef SANFAB_MUTANTS
                    // deliberately broken: a head dropped by its routing entry at a full buffer counts overflow too
                    d_ovf    = mut_drop_ovf && ({{(32-OW){1'b0}}, occ_c} == DEPTH_I);
`endif
                end else if (state_c == ST_IDLE && !vc_ok) begin
                    d_dvc   = 1'b1;
                    d_state = in_tail ? ST_IDLE : ST_DISC;
                end else begin
                    // length rule
                    if (!in_tail && ({{(32-LW){1'b0}}, len_n} == MAXLEN_I
`ifdef SANFAB_MUTANTS
                                     + {31'd0, mut_trunc_late}   // deliberately broken: cut a flit late
                                     && !(mut_head_cut && state_c == ST_IDLE)   // deliberately broken: a head is never cut (MAXLEN = 1)
`endif
                                     )) begin
                        d_tail  = 1'b1;
                        d_trunc = 1'b1;
                    end
                    d_len = len_n;
                    // admission
                    if ({{(32-OW){1'b0}}, occ_c} <= DEPTH_I - 2) begin
                        store = 1'b1;
                    end else if ({{(32-OW){1'b0}}, occ_c} == DEPTH_I - 1) begin
                        store = 1'b1;
                        if (!d_tail) begin
                            d_tail = 1'b1;
                            d_ovf  = 1'b1;
                        end
`ifdef SANFAB_MUTANTS
                        if (mut_ovf_trunc && d_trunc) begin
                            d_ovf = 1'b1;   // deliberately broken: the MAXLEN-th flit at DEPTH - 1 counts overflow as well as trunc
                        end
`endif
                    end else begin
                        d_ovf = d_first;
                    end
                    if (store) begin
                        d_state = !d_tail ? ST_PASS : ((in_tail && !d_trunc && !d_ovf) ? ST_IDLE : ST_DISC);
                    end else begin
                        d_state = in_tail ? ST_IDLE : ST_DISC;
                    end
                end
            end
        end
`ifdef SANFAB_MUTANTS
        // deliberately broken: the overflow events of the last input's last VC (the counters' highest slot) are lost
        if (mut_ovf_lastslot && PORT == NPORTS - 1 && {{(32-VCW){1'b0}}, in_vc} == NVC - 1) begin
            d_ovf = 1'b0;
        end
`endif
    end

    assign entry = {d_first, d_tail, (d_first ? rt_port : {PW{1'b0}}),
                    (d_first ? rt_ovc : {VCW{1'b0}}), in_data};

    // the flit may be written before its admission is known (the buffer's w_cand): it is not in a
    // discarded packet and its VC is not full
    assign wr_cand = in_valid && (state_c != ST_DISC) && ({{(32-OW){1'b0}}, occ_c} != DEPTH_I);

    // ------------------------------------------------------------ per-VC updates
    genvar g;
    generate
        for (g = 0; g < NVC; g = g + 1) begin : g_vc
            wire          is_w    = in_valid && (in_vc == g[VCW-1:0]);
            wire          st_me   = store && (in_vc == g[VCW-1:0]);
            reg  [1:0]    state_q;        // ingress state: idle, passing a packet, discarding one
            reg  [LW-1:0] len_q;          // flits of the current packet so far
            reg  [OW-1:0] occ_q;          // entries admitted and not popped
            reg           stop_q;         // the Go & Stop bit
            wire [OW-1:0] occ_up  = occ_q + {{(OW-1){1'b0}}, 1'b1};
            wire [OW-1:0] occ_dn  = occ_q - {{(OW-1){1'b0}}, 1'b1};

            always @(posedge clk) begin
                if (rst) begin
                    state_q <= ST_IDLE;
                    len_q   <= {LW{1'b0}};
                    occ_q   <= {OW{1'b0}};
                    stop_q  <= 1'b0;
                end else begin
                    if (is_w) begin
                        state_q <= d_state;
                        len_q   <= d_len;
                    end
                    // occupancy: both neighbours precomputed, the pop (late: it comes from the
                    // outputs' grants) only selects
`ifdef SANFAB_MUTANTS
                    if (mut_occ_slip)   // deliberately broken: a pop in the step of a store is not counted
                        occ_q <= pop[g] ? (st_me ? occ_up : occ_dn) : (st_me ? occ_up : occ_q);
                    else
`endif
                    occ_q <= pop[g] ? (st_me ? occ_q : occ_dn) : (st_me ? occ_up : occ_q);
`ifdef SANFAB_MUTANTS
                    if (mut_stop_late)   // deliberately broken: STOP one flit late
                        stop_q <= ({{(32-OW){1'b0}}, occ_q} >= STOP_I + 1);
                    else
`endif
                    stop_q <= ({{(32-OW){1'b0}}, occ_q} >= STOP_I);
                end
            end

            assign stop[g]             = stop_q;
            assign state_f[g*2 +: 2]   = state_q;
            assign len_f[g*LW +: LW]   = len_q;
            assign occ_f[g*OW +: OW]   = occ_q;
            assign ev_rx_flit[g]       = is_w;
            assign ev_rx_pkt[g]        = is_w && d_pkt;
            assign ev_drop_route[g]    = is_w && d_droute;
            assign ev_drop_vc[g]       = is_w && d_dvc;
            assign ev_trunc[g]         = is_w && d_trunc;
            assign ev_ovf[g]           = is_w && d_ovf;

`ifdef SANFAB_ASSERT
            always @(posedge clk) begin
                if (!rst && is_w && !store && state_c == ST_PASS) begin
                    $display("ASSERTION vcsw_in[%0d] vc %0d: body flit found its buffer full", PORT, g);
                    $finish;
                end
            end
`endif
        end
    endgenerate

endmodule

`default_nettype wire
