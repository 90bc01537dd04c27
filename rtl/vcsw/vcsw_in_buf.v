// sanfab — VC switch input, step 2's input buffer (docs/vcsw.md, step 2): one RAM shared by the
// input's VCs, NVC*DEPTH entries of {first, tail, port, output VC, data}; per VC a write pointer, a
// read pointer, the count of entries in the RAM part, three staging registers used as a ring (the
// head the outputs see and the two behind it); one read register R (the RAM's registered read
// port) that serves the VCs round robin.
//
// An admitted entry (vcsw_in_admit) goes straight into staging when its VC's RAM part is empty, R
// holds nothing of it and staging has room, else into the RAM. Where the flit goes is decided from
// registers only; the lookup only decides whether it is admitted (store). The data is written
// before that is known (wr_cand): into the free staging slot or RAM word it would take, which a
// flit not admitted leaves free (counts and pointers move only with store), so the table RAM's
// output does not drive any write enable. Everything the RAM read decides on is a register: a pop
// (vcsw_in_offer) only moves the staging registers. The heads (and the entry behind each head, and
// R's fields) go to the offer.
`default_nettype none

module vcsw_in_buf #(
    parameter NVC    = 2,
    parameter FLIT_W = 16,
    parameter DEPTH  = 64,
    /* verilator lint_off UNUSEDPARAM */   // the assertions' messages only
    parameter PORT   = 0,
    /* verilator lint_on UNUSEDPARAM */
    parameter PW     = 3,     // bits of a port number
    parameter VCW    = 1      // bits of a VC number
) (
    input  wire                             clk,
    input  wire                             rst,
    // the admission's write (vcsw_in_admit): the flit's VC, may be written, is admitted, its entry
    input  wire [VCW-1:0]                   in_vc,
    input  wire                             wr_cand,
    input  wire                             store,
    input  wire [2+PW+VCW+FLIT_W-1:0]       entry,
    // the admission's occupancies: the entries held must always equal them (SANFAB_ASSERT)
    input  wire [NVC*$clog2(DEPTH+1)-1:0]   occ_f,
    // the pops of this step (vcsw_in_offer)
    input  wire [NVC-1:0]                   pop,
    // the heads (staging slot the outputs see), per VC
    output wire [NVC-1:0]                   h_valid,
    output wire [NVC-1:0]                   h_first,
    output wire [NVC-1:0]                   h_tail,
    output wire [NVC*PW-1:0]                h_port,
    output wire [NVC*VCW-1:0]               h_ovc,
    output wire [NVC*FLIT_W-1:0]            h_data,
    // the staging entry behind each head, and the staging counts
    output wire [NVC-1:0]                   h2_first,
    output wire [NVC*PW-1:0]                h2_port,
    output wire [NVC*VCW-1:0]               h2_ovc,
    output wire [NVC*2-1:0]                 stg_cnt_f,
    // the read register R: holds an entry, of this VC, its fields
    output reg                              rd_valid_q,
    output reg  [VCW-1:0]                   rd_vc_q,
    output wire                             rd_first,
    output wire [PW-1:0]                    rd_port,
    output wire [VCW-1:0]                   rd_ovc
);

    localparam DW   = $clog2(DEPTH);                 // pointer bits (DEPTH is a power of two)
    localparam OW   = $clog2(DEPTH + 1);             // occupancy bits
    localparam EW   = 2 + PW + VCW + FLIT_W;         // entry: {first, tail, port, ovc, data}
    localparam AW   = $clog2(NVC * DEPTH);

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_straight_order;
    sanfab_mutant #(.NAME("STRAIGHT_ORDER")) u_mut_straight_order (.on(mut_straight_order));
`endif

    // ------------------------------------------------------------ per-VC state (flat views of
    // the registers declared per VC in g_vc below)
    wire [NVC*OW-1:0] ram_cnt_f;   // entries in the RAM part
    wire [NVC*DW-1:0] wr_ptr_f;
    wire [NVC*DW-1:0] rd_ptr_f;

    reg  [EW-1:0]     rd_entry_q;  // R: the entry read from the RAM

    // ------------------------------------------------------------ RAM read choice (registers only)
    reg  [NVC-1:0] rd_elig;
    integer        vi;
    always @* begin
        rd_elig = {NVC{1'b0}};
        for (vi = 0; vi < NVC; vi = vi + 1) begin
            if (ram_cnt_f[vi*OW +: OW] != {OW{1'b0}} &&
                ({1'b0, stg_cnt_f[vi*2 +: 2]} + {2'b00, (rd_valid_q && ({{(32-VCW){1'b0}}, rd_vc_q} == vi[31:0]))}) <= 3'd2) begin
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

    // ------------------------------------------------------------ where an admitted flit goes
    // straight into staging: the VC's RAM part is empty, R holds nothing of it, staging has room
    wire w_rin      = rd_valid_q && (rd_vc_q == in_vc);
    wire w_str_pos  = (ram_cnt_f[in_vc*OW +: OW] == {OW{1'b0}}) &&
`ifdef SANFAB_MUTANTS
                      (mut_straight_order || !w_rin) &&   // deliberately broken: ignores R: reorders
`else
                      !w_rin &&
`endif
                      (stg_cnt_f[in_vc*2 +: 2] <= 2'd2);
    wire w_straight = store && w_str_pos;
    wire w_ram      = store && !w_str_pos;
    wire w_ram_we   = wr_cand && !w_str_pos;

    // ------------------------------------------------------------ buffer RAM
`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`else
    (* ram_style = "block" *)
`endif
    reg [EW-1:0] mem [0:(1<<AW)-1];
    wire [AW-1:0] wa = {in_vc, wr_ptr_f[in_vc*DW +: DW]};
    wire [AW-1:0] ra = {rd_vc, rd_ptr_f[rd_vc*DW +: DW]};

    always @(posedge clk) begin
        if (w_ram_we) begin
            mem[wa] <= entry;
        end
        if (rd_any) begin
            rd_entry_q <= mem[ra];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            rd_valid_q <= 1'b0;
            rd_vc_q    <= {VCW{1'b0}};
        end else begin
            rd_valid_q <= rd_any;
            rd_vc_q    <= rd_vc;
        end
    end

    assign rd_first = rd_entry_q[EW-1];
    assign rd_port  = rd_entry_q[FLIT_W+VCW +: PW];
    assign rd_ovc   = rd_entry_q[FLIT_W +: VCW];
    wire   unused_ok = &{1'b0, occ_f};   // read by the assertion only

    // ------------------------------------------------------------ per-VC updates
    genvar g;
    generate
        for (g = 0; g < NVC; g = g + 1) begin : g_vc
            wire          app_r   = rd_valid_q && (rd_vc_q == g[VCW-1:0]);
            wire          app_w   = w_straight && (in_vc == g[VCW-1:0]);
            wire          app     = app_r || app_w;
            wire          app_s   = app_r || (wr_cand && w_str_pos && (in_vc == g[VCW-1:0]));  // slot write
            wire [EW-1:0] app_e   = app_r ? rd_entry_q : entry;
            wire          rd_me   = rd_gnt[g];
            wire          wr_me   = w_ram && (in_vc == g[VCW-1:0]);
            reg  [OW-1:0] ram_cnt_q;      // entries in the RAM part
            reg  [DW-1:0] wr_ptr_q;
            reg  [DW-1:0] rd_ptr_q;
            reg  [1:0]    stg_cnt_q;      // staging entries 0..3
            reg  [EW-1:0] stg0_q, stg1_q, stg2_q;
            // staging: three registers used as a ring; appends go to the tail slot stg_tail_q, the
            // head the outputs see is slot stg_head_q. Neither depends on this step's pop.
            reg  [1:0]    stg_head_q, stg_tail_q;
            wire [1:0]    base    = stg_cnt_q - {1'b0, pop[g]};   // staging count after the pop
            wire [1:0]    head_n  = (stg_head_q == 2'd2) ? 2'd0 : stg_head_q + 2'd1;
            wire [1:0]    tail_n  = (stg_tail_q == 2'd2) ? 2'd0 : stg_tail_q + 2'd1;
            reg  [EW-1:0] hd, hd2;
            always @* begin
                case (stg_head_q)
                    2'd0:    hd = stg0_q;
                    2'd1:    hd = stg1_q;
                    default: hd = stg2_q;
                endcase
                case (head_n)
                    2'd0:    hd2 = stg0_q;
                    2'd1:    hd2 = stg1_q;
                    default: hd2 = stg2_q;
                endcase
            end

            always @(posedge clk) begin
                if (app_s && stg_tail_q == 2'd0) begin
                    stg0_q <= app_e;
                end
                if (app_s && stg_tail_q == 2'd1) begin
                    stg1_q <= app_e;
                end
                if (app_s && stg_tail_q == 2'd2) begin
                    stg2_q <= app_e;
                end
                if (rst) begin
                    stg_head_q <= 2'd0;
                    stg_tail_q <= 2'd0;
                    ram_cnt_q  <= {OW{1'b0}};
                    wr_ptr_q   <= {DW{1'b0}};
                    rd_ptr_q   <= {DW{1'b0}};
                    stg_cnt_q  <= 2'd0;
                end else begin
                    ram_cnt_q <= ram_cnt_q + {{(OW-1){1'b0}}, wr_me} - {{(OW-1){1'b0}}, rd_me};
                    if (wr_me) begin
                        wr_ptr_q <= wr_ptr_q + {{(DW-1){1'b0}}, 1'b1};
                    end
                    if (rd_me) begin
                        rd_ptr_q <= rd_ptr_q + {{(DW-1){1'b0}}, 1'b1};
                    end
                    stg_cnt_q <= base + {1'b0, app};
                    if (pop[g]) begin
                        stg_head_q <= head_n;
                    end
                    if (app) begin
                        stg_tail_q <= tail_n;
                    end
                end
            end

            assign ram_cnt_f[g*OW +: OW]       = ram_cnt_q;
            assign wr_ptr_f[g*DW +: DW]        = wr_ptr_q;
            assign rd_ptr_f[g*DW +: DW]        = rd_ptr_q;
            assign stg_cnt_f[g*2 +: 2]         = stg_cnt_q;
            assign h_valid[g]                  = (stg_cnt_q != 2'd0);
            assign h_first[g]                  = hd[EW-1];
            assign h_tail[g]                   = hd[EW-2];
            assign h_port[g*PW +: PW]          = hd[FLIT_W+VCW +: PW];
            assign h_ovc[g*VCW +: VCW]         = hd[FLIT_W +: VCW];
            assign h_data[g*FLIT_W +: FLIT_W]  = hd[FLIT_W-1:0];
            assign h2_first[g]                 = hd2[EW-1];
            assign h2_port[g*PW +: PW]         = hd2[FLIT_W+VCW +: PW];
            assign h2_ovc[g*VCW +: VCW]        = hd2[FLIT_W +: VCW];

`ifdef SANFAB_ASSERT
            always @(posedge clk) begin
                if (!rst) begin
                    if (pop[g] && stg_cnt_q == 2'd0) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: pop of an empty head", PORT, g);
                        $finish;
                    end
                    if (app && base == 2'd3) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: staging overflow", PORT, g);
                        $finish;
                    end
                    // the occupancy (vcsw_in_admit) is kept as a register (it feeds admission and
                    // Go & Stop directly); it must always equal the entries held: RAM part +
                    // staging + read register
                    if (occ_f[g*OW +: OW] != ram_cnt_q + {{(OW-2){1'b0}}, stg_cnt_q} + {{(OW-1){1'b0}}, app_r}) begin
                        $display("ASSERTION vcsw_in[%0d] vc %0d: occupancy %0d, entries held %0d", PORT, g,
                                 occ_f[g*OW +: OW], ram_cnt_q + {{(OW-2){1'b0}}, stg_cnt_q} + {{(OW-1){1'b0}}, app_r});
                        $finish;
                    end
                end
            end
`endif
        end
    endgenerate

endmodule

`default_nettype wire
