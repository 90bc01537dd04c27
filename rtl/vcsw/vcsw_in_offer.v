// sanfab — VC switch input, step 3's input side of allocation (docs/vcsw.md, rule 3 and its
// implementation note): the offer register F the outputs arbitrate on, its two candidates prepared
// a step ahead, the input's round robin over its VCs, and each VC's ownership of an output VC.
//
// F (VC, output, output VC, first) is one of two registers prepared in the previous step:
// offer_taken_q for "the previous F was taken", offer_kept_q for "it was not", picked by taken_q.
// Each is the round-robin pick over the VCs eligible in its case: a VC is eligible when its next
// head is a flit of the packet it owns an output VC for, or a first flit whose output VC is free
// with stop bit 0 (blk_all, the outputs' registers). "Taken" looks at F's VC's next head (the
// staging entry behind the head, else R's entry of that VC, vcsw_in_buf) and picks from just past
// F's VC; "not taken" looks at the heads and picks from the input's position rr_pos_q. Neither the
// eligibility nor the round robin is on the path from the outputs' requests to the grant. The
// input pops F's VC when an output takes F (take); a popped first flit makes its VC own the output
// VC it names, a popped tail ends the ownership.
`default_nettype none

module vcsw_in_offer #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter FLIT_W = 16,
    /* verilator lint_off UNUSEDPARAM */   // the assertions' messages only
    parameter PORT   = 0,
    /* verilator lint_on UNUSEDPARAM */
    parameter PW     = 3,     // bits of a port number
    parameter VCW    = 1      // bits of a VC number
) (
    input  wire                     clk,
    input  wire                     rst,
    // the heads and what is behind them (vcsw_in_buf)
    input  wire [NVC-1:0]           h_valid,
    input  wire [NVC-1:0]           h_first,
    input  wire [NVC-1:0]           h_tail,
    input  wire [NVC*PW-1:0]        h_port,
    input  wire [NVC*VCW-1:0]       h_ovc,
    input  wire [NVC*FLIT_W-1:0]    h_data,
    input  wire [NVC-1:0]           h2_first,
    input  wire [NVC*PW-1:0]        h2_port,
    input  wire [NVC*VCW-1:0]       h2_ovc,
    input  wire [NVC*2-1:0]         stg_cnt_f,
    input  wire                     rd_valid,
    input  wire [VCW-1:0]           rd_vc,
    input  wire                     rd_first,
    input  wire [PW-1:0]            rd_port,
    input  wire [VCW-1:0]           rd_ovc,
    // the outputs' VC state (registers of the outputs) and this input's offer
    input  wire [NPORTS*NVC-1:0]    blk_all,     // output o's VC u owned or stopped, at [o*NVC + u]
    output wire                     of_valid,    // this input offers a flit
    output wire [PW-1:0]            of_port,     // to this output
    output wire [VCW-1:0]           of_vc,       // on this output VC
    output wire                     of_first,
    output reg                      of_tail,
    output reg  [FLIT_W-1:0]        of_data,
    input  wire                     take,        // the offer is taken: pop it
    output wire [NVC-1:0]           pop          // the VC popped this step
);


`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_offer_stale, mut_offer_move;
    sanfab_mutant #(.NAME("OFFER_STALE"))    u_mut_offer_stale    (.on(mut_offer_stale));
    sanfab_mutant #(.NAME("OFFER_MOVE"))     u_mut_offer_move     (.on(mut_offer_move));
`endif

    // ------------------------------------------------------------ ownership (flat views of the
    // registers declared per VC in g_own below)
    wire [NVC-1:0]     own_f;
    wire [NVC*PW-1:0]  own_port_f;
    wire [NVC*VCW-1:0] own_ovc_f;

    // ------------------------------------------------------------ the offer register F
    localparam FRW = 1 + VCW + PW + VCW + 1;           // {valid, v, port, ovc, first}
    reg  [FRW-1:0] offer_taken_q;                      // F if the previous F was taken
    reg  [FRW-1:0] offer_kept_q;                       // F if it was not
    reg            taken_q;                            // the previous F was taken
    wire [FRW-1:0] f_cur   = taken_q ? offer_taken_q : offer_kept_q;
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
    always @* begin
        of_tail = 1'b0;
        of_data = {FLIT_W{1'b0}};
        for (fi = 0; fi < NVC; fi = fi + 1) begin
            if (f_oh[fi]) begin
                of_tail = h_tail[fi];
                of_data = h_data[fi*FLIT_W +: FLIT_W];
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

    // F's next head if F is taken: the staging entry behind the head, else R's entry if R holds
    // one of F's VC, else none
    reg  [NVC-1:0] h2_sel;
    always @* begin
        h2_sel = {NVC{1'b0}};
        for (fi = 0; fi < NVC; fi = fi + 1) begin
            h2_sel[fi] = f_oh[fi] && (stg_cnt_f[fi*2 +: 2] >= 2'd2);
        end
    end
    wire           n_from_s = |h2_sel;
    wire           n_from_r = !n_from_s && rd_valid && (rd_vc == f_v);
    reg            n_first;
    reg  [PW-1:0]  n_port;
    reg  [VCW-1:0] n_ovc;
    always @* begin
        n_first = rd_first;
        n_port  = rd_port;
        n_ovc   = rd_ovc;
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

    // the round robins: "kept" from the input's position, "taken" from just past F's VC
    reg  [NVC-1:0] rr_pos_q;                           // VCs at or after the input's position
    wire           taken_any, kept_any;
    wire [NVC-1:0] taken_sel, kept_sel, taken_above, kept_above;
    rr_pick #(
        .N (NVC)
    ) u_pick_a (
        .req   (elig_a),
        .mask  (f_above),
        .any   (taken_any),
        .gnt   (taken_sel),
        .above (taken_above)
    );
    rr_pick #(
        .N (NVC)
    ) u_pick_b (
        .req   (elig_b),
        .mask  (rr_pos_q),
        .any   (kept_any),
        .gnt   (kept_sel),
        .above (kept_above)
    );
    wire unused_above = &{1'b0, taken_above, kept_above};

    // the candidates' fields: {v, port, ovc, first}
    localparam CW = VCW + PW + VCW + 1;
    reg [CW-1:0] cand_taken, cand_kept;
    integer      ci;
    always @* begin
        cand_taken = {CW{1'b0}};
        cand_kept  = {CW{1'b0}};
        for (ci = 0; ci < NVC; ci = ci + 1) begin
            if (kept_sel[ci]) begin
                cand_kept = {ci[VCW-1:0],
                             own_f[ci] ? own_port_f[ci*PW +: PW] : h_port[ci*PW +: PW],
                             own_f[ci] ? own_ovc_f[ci*VCW +: VCW] : h_ovc[ci*VCW +: VCW],
                             !own_f[ci]};
            end
            if (taken_sel[ci]) begin
                if (f_oh[ci] && !stale) begin
                    cand_taken = {ci[VCW-1:0], n_first ? n_port : f_port, n_first ? n_ovc : f_ovc, n_first};
                end else begin
                    cand_taken = {ci[VCW-1:0],
                                  own_f[ci] ? own_port_f[ci*PW +: PW] : h_port[ci*PW +: PW],
                                  own_f[ci] ? own_ovc_f[ci*VCW +: VCW] : h_ovc[ci*VCW +: VCW],
                                  !own_f[ci]};
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            offer_taken_q <= {FRW{1'b0}};
            offer_kept_q  <= {FRW{1'b0}};
            taken_q       <= 1'b0;
            rr_pos_q      <= {NVC{1'b1}};
        end else begin
            offer_taken_q <= taken_any ? {1'b1, cand_taken} : {FRW{1'b0}};
            offer_kept_q  <= kept_any ? {1'b1, cand_kept} : {FRW{1'b0}};
            taken_q       <= take;
            if (
`ifdef SANFAB_MUTANTS
                mut_offer_move ? f_valid :    // deliberately broken: an offer not taken moves the position
`endif
                take) begin
                rr_pos_q <= f_above;
            end
        end
    end

    assign of_valid = f_valid;
    assign of_port  = f_port;
    assign of_vc    = f_ovc;
    assign of_first = f_first;
    assign pop      = take ? f_oh : {NVC{1'b0}};

    // ------------------------------------------------------------ ownership, per VC
    genvar g;
    generate
        for (g = 0; g < NVC; g = g + 1) begin : g_own
            reg            own_q;          // owns an output VC (its packet's head has left)
            reg  [PW-1:0]  own_port_q;     // the output port it owns a VC of
            reg  [VCW-1:0] own_ovc_q;      // that output VC

            always @(posedge clk) begin
                if (pop[g] && h_first[g] && !h_tail[g]) begin
                    own_port_q <= h_port[g*PW +: PW];
                    own_ovc_q  <= h_ovc[g*VCW +: VCW];
                end
                if (rst) begin
                    own_q <= 1'b0;
                end else begin
                    if (pop[g] && h_first[g] && !h_tail[g]) begin
                        own_q <= 1'b1;
                    end
                    if (pop[g] && !h_first[g] && h_tail[g]) begin
                        own_q <= 1'b0;
                    end
                end
            end

            assign own_f[g]                 = own_q;
            assign own_port_f[g*PW +: PW]   = own_port_q;
            assign own_ovc_f[g*VCW +: VCW]  = own_ovc_q;
        end
    endgenerate

`ifdef SANFAB_ASSERT
    // F always describes the head of its VC as it is now
    always @(posedge clk) begin
        if (!rst && f_valid) begin
            if (!h_valid[f_v] || h_first[f_v] != f_first ||
                (!f_first && (own_port_f[f_v*PW +: PW] != f_port || own_ovc_f[f_v*VCW +: VCW] != f_ovc)) ||
                (f_first && (h_port[f_v*PW +: PW] != f_port || h_ovc[f_v*VCW +: VCW] != f_ovc))) begin
                $display("ASSERTION vcsw_in[%0d]: the offer (VC %0d first %0d port %0d ovc %0d) is not its head",
                         PORT, f_v, f_first, f_port, f_ovc);
                $finish;
            end
        end
    end
`endif

endmodule

`default_nettype wire
