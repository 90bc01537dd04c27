// sanfab — one input of the VC switch: input register, table lookup, ingress states, admission,
// and the input buffer (docs/vcsw.md, steps 1, 2 and 4).
//
// Lookup: the routing table (this input's copy) is read with the tag of the flit on rx, and the VC
// table rows of this input with its data VC, in the step the flit arrives (registered RAM reads,
// alongside the input register), so the head is routed in the next step with no extra step.
// Allocation, input side (pipelined): the input's offer register F (VC, output, output VC, first)
// is what the outputs arbitrate on; it is prepared one step ahead from the registers, twice (for
// "F is taken" and "F is not taken", round robin over the eligible VCs) and picked by whether F was
// taken. A VC is eligible when its next head is a flit of the packet it owns an output VC for, or a
// first flit whose output VC is free with stop bit 0. The input pops F's VC when an output takes F.
// Buffer: one RAM shared by the input's VCs, NVC*DEPTH entries of {first, tail, route, data}; per
// VC a write pointer, a read pointer, the RAM-part count, three staging registers (S[0] is the
// head the outputs see) and the occupancy; one read register R (the RAM's registered read port)
// serves the VCs round robin. Everything the RAM read decides on is a register: a pop only moves
// the staging registers.
`default_nettype none

module vcsw_in #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter CTRL   = 1,
    parameter FLIT_W = 16,
    parameter TAG_W  = 8,
    parameter DEPTH  = 64,
    parameter MAXLEN = 32,
    parameter STOP_AT = 28,
    parameter PORT   = 0,
    parameter PW     = 3,     // bits of a port number
    parameter VCW    = 1      // bits of a VC number
) (
    input  wire                     clk,
    input  wire                     rst,
    // link in
    input  wire                     rx_valid,
    input  wire [VCW-1:0]           rx_vc,
    input  wire                     rx_tail,
    input  wire [FLIT_W-1:0]        rx_data,
    output wire [NVC-1:0]           stop,        // Go & Stop bits, registered (before the cable)
    // table writes (decoded by vcsw_cfg, this step)
    input  wire                     tw_route,
    input  wire                     tw_vc,
    input  wire [11:0]              tw_idx,      // route: tag; vc: {in, out, d}
    input  wire [4:0]               tw_entry,    // {valid, value[3:0]}
    // allocation, input side: the outputs' VC state (registers of the outputs) and this input's offer
    input  wire [NPORTS*NVC-1:0]    blk_all,     // output o's VC u owned or stopped, at [o*NVC + u]
    output wire                     of_valid,    // this input offers a flit
    output wire [PW-1:0]            of_port,     // to this output
    output wire [VCW-1:0]           of_vc,       // on this output VC
    output wire                     of_first,
    output wire                     of_tail,
    output wire [FLIT_W-1:0]        of_data,
    input  wire                     take,        // the offer is taken: pop it
    // counter events of this step: {overflow, trunc, drop_vc, drop_route, rx_pkts, rx_flits} per VC
    output wire [NVC-1:0]           ev_rx_flit,
    output wire [NVC-1:0]           ev_rx_pkt,
    output wire [NVC-1:0]           ev_drop_route,
    output wire [NVC-1:0]           ev_drop_vc,
    output wire [NVC-1:0]           ev_trunc,
    output wire [NVC-1:0]           ev_ovf
);

    localparam NDVC = (CTRL != 0) ? NVC / 2 : NVC;
    localparam DVW  = (NDVC > 1) ? $clog2(NDVC) : 1;
    localparam DW   = $clog2(DEPTH);                 // pointer bits (DEPTH is a power of two)
    localparam OW   = $clog2(DEPTH + 1);             // occupancy bits
    localparam LW   = $clog2(MAXLEN + 1);            // packet length count bits
    localparam EW   = 2 + PW + VCW + FLIT_W;         // entry: {first, tail, port, ovc, data}
    localparam AW   = $clog2(NVC * DEPTH);
    localparam NT   = 1 << TAG_W;
    localparam integer NP_I    = NPORTS;
    localparam integer NDVC_I  = NDVC;
    localparam integer DEPTH_I = DEPTH;
    localparam integer MAXLEN_I = MAXLEN;
    localparam integer STOP_I  = STOP_AT;
    localparam integer PORT_I  = PORT;

    localparam [1:0] ST_IDLE = 2'd0, ST_PASS = 2'd1, ST_DISC = 2'd2;

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_table_copy, mut_vc_wrap, mut_ctrl_map, mut_trunc_late, mut_straight_order, mut_offer_stale,
         mut_offer_move, mut_occ_slip, mut_stop_late, mut_ovf_trunc, mut_drop_ovf, mut_head_cut, mut_ovf_lastslot;
    sanfab_mutant #(.NAME("TABLE_COPY"))     u_mut_table_copy     (.on(mut_table_copy));
    sanfab_mutant #(.NAME("VC_WRAP"))        u_mut_vc_wrap        (.on(mut_vc_wrap));
    sanfab_mutant #(.NAME("CTRL_MAP"))       u_mut_ctrl_map       (.on(mut_ctrl_map));
    sanfab_mutant #(.NAME("TRUNC_LATE"))     u_mut_trunc_late     (.on(mut_trunc_late));
    sanfab_mutant #(.NAME("STRAIGHT_ORDER")) u_mut_straight_order (.on(mut_straight_order));
    sanfab_mutant #(.NAME("OFFER_STALE"))    u_mut_offer_stale    (.on(mut_offer_stale));
    sanfab_mutant #(.NAME("OFFER_MOVE"))     u_mut_offer_move     (.on(mut_offer_move));
    sanfab_mutant #(.NAME("OCC_SLIP"))       u_mut_occ_slip       (.on(mut_occ_slip));
    sanfab_mutant #(.NAME("STOP_LATE"))      u_mut_stop_late      (.on(mut_stop_late));
    sanfab_mutant #(.NAME("OVF_TRUNC"))      u_mut_ovf_trunc      (.on(mut_ovf_trunc));
    sanfab_mutant #(.NAME("DROP_OVF"))       u_mut_drop_ovf       (.on(mut_drop_ovf));
    sanfab_mutant #(.NAME("HEAD_CUT"))       u_mut_head_cut       (.on(mut_head_cut));
    sanfab_mutant #(.NAME("OVF_LASTSLOT"))   u_mut_ovf_lastslot   (.on(mut_ovf_lastslot));
`endif

    // ------------------------------------------------------------ tables (this input's copies)
    // block RAM by default; SANFAB_DIST_RAM (a synthesis option for ECP5, whose block RAM without
    // its output register is slow in nextpnr's model) asks for distributed RAM instead
`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`else
    (* ram_style = "block" *)
`endif
    reg [4:0]          rt_mem [0:NT-1];
    reg [NPORTS*5-1:0] vt_mem [0:NDVC-1];
    integer ti;
    initial begin
        for (ti = 0; ti < NT; ti = ti + 1) begin
            rt_mem[ti] = 5'd0;
        end
        for (ti = 0; ti < NDVC; ti = ti + 1) begin
            vt_mem[ti] = {(NPORTS*5){1'b0}};
        end
    end

    wire [3:0]     tw_in  = tw_idx[11:8];
    wire [3:0]     tw_out = tw_idx[7:4];
    wire [3:0]     tw_d   = tw_idx[3:0];
    wire [VCW-1:0] ndvc_v = NDVC_I[VCW-1:0];
    wire           unused_ok = &{1'b0, tw_d, rx_dvc};
    // data VC of the arriving flit (a control VC is looked up as its data twin)
    wire [VCW-1:0] rx_dvc = ((CTRL != 0) && (rx_vc >= ndvc_v)) ? rx_vc - ndvc_v : rx_vc;

    reg [4:0]          rt_q;
    reg [NPORTS*5-1:0] vrow_q;

    always @(posedge clk) begin
        if (
`ifdef SANFAB_MUTANTS
            mut_table_copy ? tw_route && PORT_I != 0 :   // deliberately broken: input 0's copy is never written
`endif
            tw_route) begin
            rt_mem[tw_idx[TAG_W-1:0]] <= tw_entry;
        end
        if (tw_vc && ({28'd0, tw_in} == PORT_I[31:0])) begin
            vt_mem[tw_d[DVW-1:0]][tw_out*5 +: 5] <= tw_entry;
        end
        rt_q   <= rt_mem[rx_data[TAG_W-1:0]];
        vrow_q <= vt_mem[rx_dvc[DVW-1:0]];
    end

    // ------------------------------------------------------------ input register
    reg              rq_v;
    reg [VCW-1:0]    rq_vc;
    reg              rq_tail;
    reg [FLIT_W-1:0] rq_data;

    always @(posedge clk) begin
        if (rst) begin
            rq_v    <= 1'b0;
            rq_vc   <= {VCW{1'b0}};
            rq_tail <= 1'b0;
            rq_data <= {FLIT_W{1'b0}};
        end else begin
            rq_v    <= rx_valid;
            rq_vc   <= rx_vc;
            rq_tail <= rx_tail;
            rq_data <= rx_data;
        end
    end

    // ------------------------------------------------------------ per-VC state (flat views of
    // the registers declared per VC in g_vc below)
    wire [NVC*2-1:0]  st_f;
    wire [NVC*LW-1:0] cnt_f;
    wire [NVC*OW-1:0] occ_f;
    wire [NVC*OW-1:0] mcnt_f;    // entries in the RAM part
    wire [NVC*DW-1:0] wp_f;
    wire [NVC*DW-1:0] rp_f;
    wire [NVC*2-1:0]  scnt_f;    // staging entries 0..3

    // read register R: the RAM's registered read port and the VC it belongs to
    reg           r_v_q;
    reg [VCW-1:0] r_vc_q;
    reg [EW-1:0]  r_q;

    // ------------------------------------------------------------ ingress decision (step k+1)
    wire [4:0]  rt_e     = rt_q;
    wire        port_ok  = rt_e[4] && ({28'd0, rt_e[3:0]} < NP_I[31:0]);
    reg  [4:0]  ve;
    integer     pi;
    always @* begin
        ve = 5'd0;
        for (pi = 0; pi < NPORTS; pi = pi + 1) begin
            if ({28'd0, rt_e[3:0]} == pi[31:0]) begin
                ve = vrow_q[pi*5 +: 5];
            end
        end
    end
    wire        vc_ok    =
`ifdef SANFAB_MUTANTS
                           mut_vc_wrap ? ve[4] :      // deliberately broken: the VC value wraps
`endif
                           ve[4] && ({28'd0, ve[3:0]} < NDVC_I[31:0]);
    wire           rq_ctl = (CTRL != 0) && (rq_vc >= ndvc_v);   // arrived on a control VC
    wire [VCW-1:0] ovc   =
`ifdef SANFAB_MUTANTS
                           mut_ctrl_map ? ve[VCW-1:0] :   // deliberately broken: control VCs land on data VCs
`endif
                           ve[VCW-1:0] + (rq_ctl ? ndvc_v : {VCW{1'b0}});

    wire [1:0]    st_c   = st_f[rq_vc*2 +: 2];
    wire [LW-1:0] cnt_c  = cnt_f[rq_vc*LW +: LW];
    wire [OW-1:0] occ_c  = occ_f[rq_vc*OW +: OW];

    reg           d_store;       // the flit is admitted
    reg           d_first;
    reg           d_tail;        // tail as stored (real or cut)
    reg  [1:0]    d_st;
    reg  [LW-1:0] d_cnt;
    reg           d_pkt, d_droute, d_dvc, d_trunc, d_ovf;
    reg  [LW-1:0] cnt_n;

    always @* begin
        d_store  = 1'b0;
        d_first  = 1'b0;
        d_tail   = rq_tail;
        d_st     = st_c;
        d_cnt    = cnt_c;
        d_pkt    = 1'b0;
        d_droute = 1'b0;
        d_dvc    = 1'b0;
        d_trunc  = 1'b0;
        d_ovf    = 1'b0;
        cnt_n    = cnt_c + {{(LW-1){1'b0}}, 1'b1};
        if (rq_v) begin
            if (st_c == ST_DISC) begin
                d_st = rq_tail ? ST_IDLE : ST_DISC;
            end else begin
                if (st_c == ST_IDLE) begin
                    d_pkt   = 1'b1;
                    d_first = 1'b1;
                    cnt_n   = {{(LW-1){1'b0}}, 1'b1};
                end
                if (st_c == ST_IDLE && !port_ok) begin
                    d_droute = 1'b1;
                    d_st     = rq_tail ? ST_IDLE : ST_DISC;
`ifdef SANFAB_MUTANTS
                    // deliberately broken: a head dropped by its routing entry at a full buffer counts overflow too
                    d_ovf    = mut_drop_ovf && ({{(32-OW){1'b0}}, occ_c} == DEPTH_I);
`endif
                end else if (st_c == ST_IDLE && !vc_ok) begin
                    d_dvc = 1'b1;
                    d_st  = rq_tail ? ST_IDLE : ST_DISC;
                end else begin
                    // length rule
                    if (!rq_tail && ({{(32-LW){1'b0}}, cnt_n} == MAXLEN_I
`ifdef SANFAB_MUTANTS
                                     + {31'd0, mut_trunc_late}   // deliberately broken: cut a flit late
                                     && !(mut_head_cut && st_c == ST_IDLE)   // deliberately broken: a head is never cut (MAXLEN = 1)
`endif
                                     )) begin
                        d_tail  = 1'b1;
                        d_trunc = 1'b1;
                    end
                    d_cnt = cnt_n;
                    // admission
                    if ({{(32-OW){1'b0}}, occ_c} <= DEPTH_I - 2) begin
                        d_store = 1'b1;
                    end else if ({{(32-OW){1'b0}}, occ_c} == DEPTH_I - 1) begin
                        d_store = 1'b1;
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
                    if (d_store) begin
                        d_st = !d_tail ? ST_PASS : ((rq_tail && !d_trunc && !d_ovf) ? ST_IDLE : ST_DISC);
                    end else begin
                        d_st = rq_tail ? ST_IDLE : ST_DISC;
                    end
                end
            end
        end
`ifdef SANFAB_MUTANTS
        // deliberately broken: the overflow events of the last input's last VC (the counters' highest slot) are lost
        if (mut_ovf_lastslot && PORT_I == NP_I - 1 && {{(32-VCW){1'b0}}, rq_vc} == NVC - 1) begin
            d_ovf = 1'b0;
        end
`endif
    end

    wire [EW-1:0] d_entry = {d_first, d_tail, (d_first ? rt_e[PW-1:0] : {PW{1'b0}}),
                             (d_first ? ovc : {VCW{1'b0}}), rq_data};

    // ------------------------------------------------------------ RAM read choice (registers only)
    reg  [NVC-1:0] rd_elig;
    integer        vi;
    always @* begin
        rd_elig = {NVC{1'b0}};
        for (vi = 0; vi < NVC; vi = vi + 1) begin
            if (mcnt_f[vi*OW +: OW] != {OW{1'b0}} &&
                ({1'b0, scnt_f[vi*2 +: 2]} + {2'b00, (r_v_q && ({{(32-VCW){1'b0}}, r_vc_q} == vi[31:0]))}) <= 3'd2) begin
                rd_elig[vi] = 1'b1;
            end
        end
    end

    wire           rd_any;
    wire [NVC-1:0] rd_gnt;
    rr_arbiter #(
        .N (NVC)
    ) u_rdarb (
        .clk       (clk),
        .rst       (rst),
        .hold      (1'b0),
        .en        (1'b1),
        .req       (rd_elig),
        .gnt_valid (rd_any),
        .gnt       (rd_gnt)
    );

    reg [VCW-1:0] rd_vc;
    always @* begin
        rd_vc = {VCW{1'b0}};
        for (vi = 0; vi < NVC; vi = vi + 1) begin
            if (rd_gnt[vi]) begin
                rd_vc = vi[VCW-1:0];
            end
        end
    end

    // straight into staging: the VC's RAM part is empty, R holds nothing of it, staging has room.
    // Where the flit goes is decided from registers only; the lookup only decides whether it is
    // admitted (d_store). The data is written before that is known (w_cand): into the free staging
    // slot or RAM word it would take, which a flit not admitted leaves free (counts and pointers
    // move only with d_store), so the table RAM's output does not drive any write enable.
    wire w_rin      = r_v_q && (r_vc_q == rq_vc);
    wire w_cand     = rq_v && (st_c != ST_DISC) && ({{(32-OW){1'b0}}, occ_c} != DEPTH_I);
    wire w_str_pos  = (mcnt_f[rq_vc*OW +: OW] == {OW{1'b0}}) &&
`ifdef SANFAB_MUTANTS
                      (mut_straight_order || !w_rin) &&   // deliberately broken: ignores R: reorders
`else
                      !w_rin &&
`endif
                      (scnt_f[rq_vc*2 +: 2] <= 2'd2);
    wire w_straight = d_store && w_str_pos;
    wire w_ram      = d_store && !w_str_pos;
    wire w_ram_we   = w_cand && !w_str_pos;

    // ------------------------------------------------------------ buffer RAM
`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`else
    (* ram_style = "block" *)
`endif
    reg [EW-1:0] mem [0:(1<<AW)-1];
    wire [AW-1:0] wa = {rq_vc, wp_f[rq_vc*DW +: DW]};
    wire [AW-1:0] ra = {rd_vc, rp_f[rd_vc*DW +: DW]};

    always @(posedge clk) begin
        if (w_ram_we) begin
            mem[wa] <= d_entry;
        end
        if (rd_any) begin
            r_q <= mem[ra];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            r_v_q  <= 1'b0;
            r_vc_q <= {VCW{1'b0}};
        end else begin
            r_v_q  <= rd_any;
            r_vc_q <= rd_vc;
        end
    end

    // ------------------------------------------------------------ heads and ownership (flat views)
    wire [NVC-1:0]        h_valid, h_first, h_tail, own_f;
    wire [NVC*PW-1:0]     h_port, own_port_f;
    wire [NVC*VCW-1:0]    h_ovc, own_ovc_f;
    wire [NVC*FLIT_W-1:0] h_data;
    wire [NVC-1:0]        pop;
    wire [NVC-1:0]        h2_first;                 // the staging entry behind the head
    wire [NVC*PW-1:0]     h2_port;
    wire [NVC*VCW-1:0]    h2_ovc;

    // ------------------------------------------------------------ pipelined allocation, input side
    // (docs/vcsw.md rule 3). F is the offer the outputs see this step; it is one of two registers
    // prepared in the previous step: fa_q for "the previous F was taken", fb_q for "it was not",
    // picked by tk_q. Neither the eligibility nor the input's round robin is on the path from the
    // outputs' requests to the grant.
    localparam FRW = 1 + VCW + PW + VCW + 1;           // {valid, v, port, ovc, first}
    reg  [FRW-1:0] fa_q, fb_q;
    reg            tk_q;
    wire [FRW-1:0] f_cur   = tk_q ? fa_q : fb_q;
    wire           f_valid = f_cur[FRW-1];
    wire [VCW-1:0] f_v     = f_cur[PW+VCW+1 +: VCW];
    wire [PW-1:0]  f_port  = f_cur[VCW+1 +: PW];
    wire [VCW-1:0] f_ovc   = f_cur[1 +: VCW];
    wire           f_first = f_cur[0];
    reg  [NVC-1:0] f_oh;                               // F's VC, one-hot
    reg  [NVC-1:0] f_above;                            // the VCs strictly above it
    integer        fi;
    always @* begin
        f_oh    = {NVC{1'b0}};
        f_above = {NVC{1'b0}};
        for (fi = 0; fi < NVC; fi = fi + 1) begin
            f_oh[fi]    = f_valid && (f_v == fi[VCW-1:0]);
            f_above[fi] = ({{(32-VCW){1'b0}}, f_v} < fi[31:0]);
        end
    end

    // F's flit: the head of its VC
    reg              of_tail_r;
    reg [FLIT_W-1:0] of_data_r;
    always @* begin
        of_tail_r = 1'b0;
        of_data_r = {FLIT_W{1'b0}};
        for (fi = 0; fi < NVC; fi = fi + 1) begin
            if (f_oh[fi]) begin
                of_tail_r = h_tail[fi];
                of_data_r = h_data[fi*FLIT_W +: FLIT_W];
            end
        end
    end
    // the output VC state a first flit would need, at each head and at F's next head
    function [0:0] ovc_bit;
        input [NPORTS*NVC-1:0] vec;
        input [PW-1:0]         port;
        input [VCW-1:0]        vc;
        integer                oi;
        begin
            oi = {{(32-PW){1'b0}}, port} * NVC + {{(32-VCW){1'b0}}, vc};
            ovc_bit = (oi < NPORTS * NVC) ? vec[oi] : 1'b0;
        end
    endfunction

    wire [NVC-1:0] h_blk;
    genvar hv;
    generate
        for (hv = 0; hv < NVC; hv = hv + 1) begin : g_hst
            assign h_blk[hv] = ovc_bit(blk_all, h_port[hv*PW +: PW], h_ovc[hv*VCW +: VCW]);
        end
    endgenerate

    // F's next head if F is taken: S_v[1], else R's entry if R holds one of v, else none
    reg  [NVC-1:0] h2_sel;
    always @* begin
        h2_sel = {NVC{1'b0}};
        for (fi = 0; fi < NVC; fi = fi + 1) begin
            h2_sel[fi] = f_oh[fi] && (scnt_f[fi*2 +: 2] >= 2'd2);
        end
    end
    wire           n_from_s = |h2_sel;
    wire           n_from_r = !n_from_s && r_v_q && (r_vc_q == f_v);
    reg            n_first;
    reg  [PW-1:0]  n_port;
    reg  [VCW-1:0] n_ovc;
    always @* begin
        n_first = r_q[EW-1];
        n_port  = r_q[FLIT_W+VCW +: PW];
        n_ovc   = r_q[FLIT_W +: VCW];
        for (fi = 0; fi < NVC; fi = fi + 1) begin
            if (h2_sel[fi]) begin
                n_first = h2_first[fi];
                n_port  = h2_port[fi*PW +: PW];
                n_ovc   = h2_ovc[fi*VCW +: VCW];
            end
        end
    end
    wire n_blk     = ovc_bit(blk_all, n_port, n_ovc);

    // eligibility: B for "F not taken" (the heads), A for "F taken" (F's VC looks at its next head)
    reg  [NVC-1:0] elig_b, elig_a;
    integer        ei;
    always @* begin
        elig_b = {NVC{1'b0}};
        for (ei = 0; ei < NVC; ei = ei + 1) begin
            if (h_valid[ei]) begin
                if (own_f[ei]) begin
                    elig_b[ei] = 1'b1;
                end else if (h_first[ei] && !h_blk[ei]) begin
                    elig_b[ei] = 1'b1;
                end
            end
        end
    end
    // (the mutants VCT_NOSTOP and VC_SHARE break blk_all itself, in vcsw_out)
    wire n_elig = (n_from_s || n_from_r) && (!n_first || !n_blk);
    wire stale =
`ifdef SANFAB_MUTANTS
                 mut_offer_stale ? 1'b1 :   // deliberately broken: the offer prepared for "F taken" still looks at F's own head
`endif
                 1'b0;
    always @* begin
`ifdef SANFAB_MUTANTS
        if (mut_offer_stale)
            elig_a = elig_b;
        else
`endif
        elig_a = (elig_b & ~f_oh) | (f_oh & {NVC{n_elig}});
    end

    // the round robins: B from the input's position, A from just past F's VC
    reg  [NVC-1:0] pos_q;                              // VCs at or after the input's position
    wire           fa_any, fb_any;
    wire [NVC-1:0] fa_sel, fb_sel, fa_above, fb_above;
    rr_pick #(
        .N (NVC)
    ) u_pick_a (
        .req   (elig_a),
        .mask  (f_above),
        .any   (fa_any),
        .gnt   (fa_sel),
        .above (fa_above)
    );
    rr_pick #(
        .N (NVC)
    ) u_pick_b (
        .req   (elig_b),
        .mask  (pos_q),
        .any   (fb_any),
        .gnt   (fb_sel),
        .above (fb_above)
    );
    wire unused_above = &{1'b0, fa_above, fb_above};

    // the candidates' fields: {v, port, ovc, first}
    localparam CW = VCW + PW + VCW + 1;
    reg [CW-1:0] ca, cb;
    integer      ci;
    always @* begin
        ca = {CW{1'b0}};
        cb = {CW{1'b0}};
        for (ci = 0; ci < NVC; ci = ci + 1) begin
            if (fb_sel[ci]) begin
                cb = {ci[VCW-1:0],
                      own_f[ci] ? own_port_f[ci*PW +: PW] : h_port[ci*PW +: PW],
                      own_f[ci] ? own_ovc_f[ci*VCW +: VCW] : h_ovc[ci*VCW +: VCW],
                      !own_f[ci]};
            end
            if (fa_sel[ci]) begin
                if (f_oh[ci] && !stale) begin
                    ca = {ci[VCW-1:0], n_first ? n_port : f_port, n_first ? n_ovc : f_ovc, n_first};
                end else begin
                    ca = {ci[VCW-1:0],
                          own_f[ci] ? own_port_f[ci*PW +: PW] : h_port[ci*PW +: PW],
                          own_f[ci] ? own_ovc_f[ci*VCW +: VCW] : h_ovc[ci*VCW +: VCW],
                          !own_f[ci]};
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            fa_q  <= {FRW{1'b0}};
            fb_q  <= {FRW{1'b0}};
            tk_q  <= 1'b0;
            pos_q <= {NVC{1'b1}};
        end else begin
            fa_q <= fa_any ? {1'b1, ca} : {FRW{1'b0}};
            fb_q <= fb_any ? {1'b1, cb} : {FRW{1'b0}};
            tk_q <= take;
            if (
`ifdef SANFAB_MUTANTS
                mut_offer_move ? f_valid :    // deliberately broken: an offer not taken moves the position
`endif
                take) begin
                pos_q <= f_above;
            end
        end
    end

    assign of_valid = f_valid;
    assign of_port  = f_port;
    assign of_vc    = f_ovc;
    assign of_first = f_first;
    assign of_tail  = of_tail_r;
    assign of_data  = of_data_r;
    assign pop      = take ? f_oh : {NVC{1'b0}};

`ifdef SANFAB_ASSERT
    // F always describes the head of its VC as it is now
    always @(posedge clk) begin
        if (!rst && f_valid) begin
            if (!h_valid[f_v] || h_first[f_v] != f_first ||
                (!f_first && (own_port_f[f_v*PW +: PW] != f_port || own_ovc_f[f_v*VCW +: VCW] != f_ovc)) ||
                (f_first && (h_port[f_v*PW +: PW] != f_port || h_ovc[f_v*VCW +: VCW] != f_ovc))) begin
                $display("ASSERTION vcsw_in[%0d]: the offer (VC %0d first %0d port %0d ovc %0d) is not its head",
                         PORT_I, f_v, f_first, f_port, f_ovc);
                $finish;
            end
        end
    end
`endif

    // ------------------------------------------------------------ per-VC updates
    genvar g;
    generate
        for (g = 0; g < NVC; g = g + 1) begin : g_vc
            wire          is_w    = rq_v && (rq_vc == g[VCW-1:0]);
            wire          app_r   = r_v_q && (r_vc_q == g[VCW-1:0]);
            wire          app_w   = w_straight && (rq_vc == g[VCW-1:0]);
            wire          app     = app_r || app_w;
            wire          app_s   = app_r || (w_cand && w_str_pos && (rq_vc == g[VCW-1:0]));  // slot write
            wire [EW-1:0] app_e   = app_r ? r_q : d_entry;
            wire          rd_me   = rd_gnt[g];
            wire          wr_me   = w_ram && (rq_vc == g[VCW-1:0]);
            wire          st_me   = d_store && (rq_vc == g[VCW-1:0]);
            reg           stop_q;
            reg           own_q;          // owns an output VC (its packet's head has left)
            reg  [PW-1:0] own_port_q;
            reg  [VCW-1:0] own_ovc_q;
            reg  [1:0]    st_q;
            reg  [LW-1:0] cnt_q;
            reg  [OW-1:0] occ_q;
            reg  [OW-1:0] mcnt_q;
            reg  [DW-1:0] wp_q;
            reg  [DW-1:0] rp_q;
            reg  [1:0]    scnt_q;
            reg  [EW-1:0] s0_q, s1_q, s2_q;
            // staging: three registers used as a ring; appends go to the tail slot tp_q, the head
            // the outputs see is slot sh_q. Neither depends on this step's pop.
            reg  [1:0]    sh_q, tp_q;
            wire [OW-1:0] occ_up  = occ_q + {{(OW-1){1'b0}}, 1'b1};
            wire [OW-1:0] occ_dn  = occ_q - {{(OW-1){1'b0}}, 1'b1};
            wire [1:0]    base    = scnt_q - {1'b0, pop[g]};   // staging count after the pop
            wire [1:0]    sh_n    = (sh_q == 2'd2) ? 2'd0 : sh_q + 2'd1;
            wire [1:0]    tp_n    = (tp_q == 2'd2) ? 2'd0 : tp_q + 2'd1;
            reg  [EW-1:0] hd, hd2;
            always @* begin
                case (sh_q)
                    2'd0:    hd = s0_q;
                    2'd1:    hd = s1_q;
                    default: hd = s2_q;
                endcase
                case (sh_n)
                    2'd0:    hd2 = s0_q;
                    2'd1:    hd2 = s1_q;
                    default: hd2 = s2_q;
                endcase
            end

            always @(posedge clk) begin
                if (app_s && tp_q == 2'd0) begin
                    s0_q <= app_e;
                end
                if (app_s && tp_q == 2'd1) begin
                    s1_q <= app_e;
                end
                if (app_s && tp_q == 2'd2) begin
                    s2_q <= app_e;
                end
                if (pop[g] && hd[EW-1] && !hd[EW-2]) begin
                    own_port_q <= hd[FLIT_W+VCW +: PW];
                    own_ovc_q  <= hd[FLIT_W +: VCW];
                end
                if (rst) begin
                    own_q     <= 1'b0;
                    sh_q      <= 2'd0;
                    tp_q      <= 2'd0;
                    st_q   <= ST_IDLE;
                    cnt_q  <= {LW{1'b0}};
                    occ_q  <= {OW{1'b0}};
                    mcnt_q <= {OW{1'b0}};
                    wp_q   <= {DW{1'b0}};
                    rp_q   <= {DW{1'b0}};
                    scnt_q <= 2'd0;
                    stop_q <= 1'b0;
                end else begin
                    if (is_w) begin
                        st_q  <= d_st;
                        cnt_q <= d_cnt;
                    end
                    // occupancy: both neighbours precomputed, the pop (late: it comes from the
                    // outputs' grants) only selects
`ifdef SANFAB_MUTANTS
                    if (mut_occ_slip)   // deliberately broken: a pop in the step of a store is not counted
                        occ_q  <= pop[g] ? (st_me ? occ_up : occ_dn) : (st_me ? occ_up : occ_q);
                    else
`endif
                    occ_q  <= pop[g] ? (st_me ? occ_q : occ_dn) : (st_me ? occ_up : occ_q);
                    mcnt_q <= mcnt_q + {{(OW-1){1'b0}}, wr_me} - {{(OW-1){1'b0}}, rd_me};
                    if (wr_me) begin
                        wp_q <= wp_q + {{(DW-1){1'b0}}, 1'b1};
                    end
                    if (rd_me) begin
                        rp_q <= rp_q + {{(DW-1){1'b0}}, 1'b1};
                    end
                    scnt_q <= base + {1'b0, app};
                    if (pop[g] && hd[EW-1] && !hd[EW-2]) begin
                        own_q <= 1'b1;
                    end
                    if (pop[g] && !hd[EW-1] && hd[EW-2]) begin
                        own_q <= 1'b0;
                    end
                    if (pop[g]) begin
                        sh_q <= sh_n;
                    end
                    if (app) begin
                        tp_q <= tp_n;
                    end
`ifdef SANFAB_MUTANTS
                    if (mut_stop_late)   // deliberately broken: STOP one flit late
                        stop_q <= ({{(32-OW){1'b0}}, occ_q} >= STOP_I + 1);
                    else
`endif
                    stop_q <= ({{(32-OW){1'b0}}, occ_q} >= STOP_I);
                end
            end

            assign stop[g]            = stop_q;
            assign own_f[g]           = own_q;
            assign own_port_f[g*PW +: PW]   = own_port_q;
            assign own_ovc_f[g*VCW +: VCW]  = own_ovc_q;
            assign st_f[g*2 +: 2]     = st_q;
            assign cnt_f[g*LW +: LW]  = cnt_q;
            assign occ_f[g*OW +: OW]  = occ_q;
            assign mcnt_f[g*OW +: OW] = mcnt_q;
            assign wp_f[g*DW +: DW]   = wp_q;
            assign rp_f[g*DW +: DW]   = rp_q;
            assign scnt_f[g*2 +: 2]   = scnt_q;
            assign h_valid[g]                  = (scnt_q != 2'd0);
            assign h_first[g]                  = hd[EW-1];
            assign h_tail[g]                   = hd[EW-2];
            assign h_port[g*PW +: PW]          = hd[FLIT_W+VCW +: PW];
            assign h_ovc[g*VCW +: VCW]         = hd[FLIT_W +: VCW];
            assign h_data[g*FLIT_W +: FLIT_W]  = hd[FLIT_W-1:0];
            assign h2_first[g]                 = hd2[EW-1];
            assign h2_port[g*PW +: PW]         = hd2[FLIT_W+VCW +: PW];
            assign h2_ovc[g*VCW +: VCW]        = hd2[FLIT_W +: VCW];
            assign ev_rx_flit[g]    = is_w;
            assign ev_rx_pkt[g]     = is_w && d_pkt;
            assign ev_drop_route[g] = is_w && d_droute;
            assign ev_drop_vc[g]    = is_w && d_dvc;
            assign ev_trunc[g]      = is_w && d_trunc;
            assign ev_ovf[g]        = is_w && d_ovf;

`ifdef SANFAB_ASSERT
            always @(posedge clk) begin
                if (!rst) begin
                    if (pop[g] && scnt_q == 2'd0) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: pop of an empty head", PORT_I, g);
                        $finish;
                    end
                    if (app && base == 2'd3) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: staging overflow", PORT_I, g);
                        $finish;
                    end
                    // occ_q is kept as a register (it feeds admission and Go & Stop directly);
                    // it must always equal the entries held: RAM part + staging + read register
                    if (occ_q != mcnt_q + {{(OW-2){1'b0}}, scnt_q} + {{(OW-1){1'b0}}, app_r}) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: occupancy %0d, entries held %0d", PORT_I, g,
                                 occ_q, mcnt_q + {{(OW-2){1'b0}}, scnt_q} + {{(OW-1){1'b0}}, app_r});
                        $finish;
                    end
                    if (is_w && !d_store && st_c == ST_PASS) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: body flit found its buffer full", PORT_I, g);
                        $finish;
                    end
                end
            end
`endif
        end
    endgenerate

endmodule

`default_nettype wire
