// sanfab — the Maestro switch box (docs/sbox.md is the contract; rule numbers below are its
// "Steps").
//
// PORTS whole MLCs (rtl/mlc/mlc.v), the box being the host of all of them. NS = 2*PORTS + 2 sources
// (sbox_src: a (port, channel) pair s = 2p + c, and one barrier source per channel s = 2*PORTS + c)
// share one 16-bit bus: in every step at most one source is granted (round robin from bp) a READ,
// MOVE or PUT; a read of step k is used in step k+1 (the analyzer, rule 2) and a MOVE/PUT of step
// k is written in step k+1 to every destination FIFO at once (the multicast). The manager (rule 3)
// activates at most one waiting source per step (round robin from mp) whose destination FIFOs are
// unlocked; barriers per channel (sbox_barrier, rule 5); the register port, table, up port and
// counters (sbox_regs, rule 6).
//
// Every decision of step k is taken on the box's registers and the MLCs' outputs (both after step
// k-1) and the inputs of step k; the MLCs' host and register inputs of step k are driven from that.
// The box's own outputs (reg_rvalid, reg_rdata) are registers; tx_en/tx_d are the MLCs'.
//
// Readings of the page where it leaves a choice (each also in the report of the first version):
// - msgs/mcast/drop_route count activations of port sources only: rule 3 lists no count for a
//   barrier source's activation (its made release is not counted in msgs).
// - E(m), E'(m) and UP of a barrier request are taken at its activation (rule 5: the table and up
//   port after step k-1); the port set P of a message at its analysis (rule 2).
// - the up port and table registers: see sbox_regs.v; the barrier's M: see sbox_barrier.v.
// - h_rch, h_wch, h_wdata go to every MLC in every step (the read/written channel and word, else
//   whatever the pipeline holds): an MLC ignores them without h_rd/h_wr.
`default_nettype none

module sbox #(
    parameter PORTS       = 8,
    parameter NODES       = 16,
    parameter LINK_W      = 4,
    parameter FIFO_BYTES  = 2048,
    parameter TURN        = 1,
    parameter TIMEOUT     = 1024,
    parameter CTR_W       = 16,
    parameter MASTER_MASK = 0,
    parameter LINK_DELAY  = 0    // cable registers of the ports' links: slave MLCs' GUARD = 2*LINK_DELAY + 4 (docs/mlc.md)
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire [PORTS-1:0]         rx_en,
    input  wire [PORTS*LINK_W-1:0]  rx_d,
    output wire [PORTS-1:0]         tx_en,
    output wire [PORTS*LINK_W-1:0]  tx_d,
    input  wire                     reg_rd,
    input  wire                     reg_wr,
    input  wire [8:0]               reg_addr,
    input  wire [15:0]              reg_wdata,
    output wire                     reg_rvalid,
    output wire [31:0]              reg_rdata
);

    localparam NS = 2 * PORTS + 2;
    localparam [1:0] C_DATA = 2'd0, C_REQ = 2'd1, C_REL = 2'd2;

    // ------------------------------------------------------------ parameter check
    // (an invalid set instantiates a module that does not exist: every tool stops there; the MLC
    // checks its own parameters again)
    localparam PARAMS_OK =
        (PORTS >= 2) && (PORTS <= 8) &&
        (NODES >= 1) && (NODES <= 16) &&
        (LINK_W == 4 || LINK_W == 8) &&
        (FIFO_BYTES == 256 || FIFO_BYTES == 512 || FIFO_BYTES == 1024 || FIFO_BYTES == 2048 ||
         FIFO_BYTES == 4096) &&
        (TURN >= 0) && (TURN <= 15) &&
        (TIMEOUT == 0 || (TIMEOUT >= 16 && TIMEOUT <= 65535)) &&
        (CTR_W >= 8) && (CTR_W <= 32) &&
        (MASTER_MASK >= 0) && (MASTER_MASK < (1 << PORTS)) &&
        (LINK_DELAY >= 0) && (LINK_DELAY <= 64);
    generate
        if (!PARAMS_OK) begin : g_bad_params
            sbox_invalid_parameters_see_docs_sbox_md u_stop ();
        end
    endgenerate

    // ------------------------------------------------------------ the MLCs' signals
    wire [PORTS-1:0]    m_h_rvalid;
    wire [PORTS*16-1:0] m_h_rdata;
    wire [PORTS*13-1:0] m_space0, m_space1, m_avail0, m_avail1;
    wire [PORTS-1:0]    m_reg_rd, m_reg_wr, m_reg_rvalid;
    wire [PORTS*32-1:0] m_reg_rdata;

    // ------------------------------------------------------------ sources' signals
    wire [NS-1:0]       s_elig, s_rd, s_wr, s_move, s_rw0, s_rw1, s_rpc, s_last;
    wire [NS-1:0]       s_idle, s_wait, s_act;
    wire [NS*16-1:0]    s_pword, s_w0, s_w1;
    wire [NS*2-1:0]     s_cls;
    wire [NS*PORTS-1:0] s_p;

    wire [NS-1:0]       bgnt;       // bus grant of step k, one-hot
    wire [NS-1:0]       agnt;       // activation of step k, one-hot

    // ------------------------------------------------------------ box registers
    reg  [NS-1:0]    bmask_q, bmask_d;     // bus pointer bp, as the mask of sources >= bp
    reg  [NS-1:0]    amask_q, amask_d;     // manager pointer mp, the same
    // the read of step k-1 (rule 2 in step k)
    reg  [NS-1:0]    rdsel_q;              // source, one-hot (0: no read)
    reg              rd_w0_q, rd_w1_q, rd_pc_q;
    // the write of step k (granted in step k-1)
    reg              wr_v_q, wr_c_q, wr_mv_q;
    reg  [PORTS-1:0] wr_p_q;
    reg  [15:0]      wr_data_q;

    // ------------------------------------------------------------ register port
    wire [NODES*5-1:0] tab;
    wire [4:0]         up;
    wire [7:0]         ev;
    wire [1:0]         bar_busy, bar_ups;
    wire [2*PORTS-1:0] bar_a;
    wire [31:0]        bar_m;
    reg  [31:0]        mlc_rdata_or;

    sbox_regs #(
        .PORTS (PORTS),
        .NODES (NODES),
        .CTR_W (CTR_W)
    ) u_regs (
        .clk        (clk),
        .rst        (rst),
        .reg_rd     (reg_rd),
        .reg_wr     (reg_wr),
        .reg_addr   (reg_addr),
        .reg_wdata  (reg_wdata),
        .reg_rvalid (reg_rvalid),
        .reg_rdata  (reg_rdata),
        .mlc_rd     (m_reg_rd),
        .mlc_wr     (m_reg_wr),
        .mlc_rdata  (mlc_rdata_or),
        .ev         (ev),
        .bar_busy   (bar_busy),
        .bar_ups    (bar_ups),
        .bar_a      (bar_a),
        .bar_m      (bar_m),
        .tab        (tab),
        .up         (up)
    );

    wire             up_v  = up[4];
    wire [PORTS-1:0] up_oh = up_v ? ({{(PORTS-1){1'b0}}, 1'b1} << up[2:0]) : {PORTS{1'b0}};
    wire             unused_up = &{1'b0, up[3]};

    // ------------------------------------------------------------ the word read in step k-1
    // (only the MLC that was read has h_rvalid, and an MLC's h_rdata is 0 without it)
    reg [15:0] x;
    integer    ix, ia, isp, ig, il, iv, j;   // one loop index per block

    always @* begin
        x = 16'd0;
        mlc_rdata_or = 32'd0;
        for (ix = 0; ix < PORTS; ix = ix + 1) begin
            x = x | m_h_rdata[ix*16 +: 16];
            mlc_rdata_or = mlc_rdata_or | m_reg_rdata[ix*32 +: 32];
        end
    end
    wire unused_rv = &{1'b0, m_h_rvalid, m_reg_rvalid};

    // ------------------------------------------------------------ rule 2: the analyzer
    // The source whose word 1 arrives: its w0, the arrival port; class and port set
    reg  [15:0]      an_w0;
    reg  [PORTS-1:0] an_arr;
    wire [PORTS-1:0] an_set;
    wire [1:0]       an_cls = (an_w0 == 16'hFF04) ? C_REQ : (an_w0 == 16'hFF06) ? C_REL : C_DATA;

    always @* begin
        an_w0 = 16'd0;
        an_arr = {PORTS{1'b0}};
        for (ia = 0; ia < 2 * PORTS; ia = ia + 1) begin
            if (rdsel_q[ia]) begin
                an_w0 = an_w0 | s_w0[ia*16 +: 16];
                an_arr[ia/2] = 1'b1;
            end
        end
    end

    sbox_pset #(
        .PORTS (PORTS),
        .NODES (NODES)
    ) u_an_pset (
        .tab  (tab),
        .dst  (an_w0[15:8]),
        .mask (x),
        .set  (an_set)
    );

    // The three rules of the page's "Messages and destinations": N(a), the nodes behind the arrival
    // port (a node port has at most one); 1. a multicast that needs UP and did not come from UP goes
    // to UP alone, from a node port with its sender's bit cleared in MASK (not a barrier request);
    // 2. a unicast, or a message from UP or from a node port: never back to the arrival port;
    // 3. a multicast from a box port below turns here: the arrival port stays in the set.
    localparam [PORTS-1:0] ONE_P = {{(PORTS-1){1'b0}}, 1'b1};
    reg  [15:0]      an_behind;
    reg  [PORTS-1:0] an_p;
    reg  [15:0]      an_w1;
    integer          ib;
`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_up_mix, mut_no_clear, mut_no_excl, mut_lock_early, mut_rsv_off, mut_rr_stuck;
    sanfab_mutant #(.NAME("UP_MIX"))     u_mut_up_mix     (.on(mut_up_mix));
    sanfab_mutant #(.NAME("NO_CLEAR"))   u_mut_no_clear   (.on(mut_no_clear));
    sanfab_mutant #(.NAME("NO_EXCL"))    u_mut_no_excl    (.on(mut_no_excl));
    sanfab_mutant #(.NAME("LOCK_EARLY")) u_mut_lock_early (.on(mut_lock_early));
    sanfab_mutant #(.NAME("RSV_OFF"))    u_mut_rsv_off    (.on(mut_rsv_off));
    sanfab_mutant #(.NAME("RR_STUCK"))   u_mut_rr_stuck   (.on(mut_rr_stuck));
    wire mut_space_narrow, mut_pc_drop;
    sanfab_mutant #(.NAME("SPACE_NARROW")) u_mut_space_narrow (.on(mut_space_narrow));
    sanfab_mutant #(.NAME("PC_DROP"))      u_mut_pc_drop      (.on(mut_pc_drop));
`endif

    wire an_mc      = (an_w0[15:8] == 8'hFF);
    wire an_from_up = |(an_arr & up_oh);
    wire an_node    = ((an_behind & (an_behind - 16'd1)) == 16'd0);
    wire an_up      =
`ifdef SANFAB_MUTANTS
                      mut_up_mix ? 1'b0 :   // deliberately broken: a multicast goes up and down at once
`endif
                      an_mc && up_v && !an_from_up && (|(an_set & up_oh));

    always @* begin
        an_behind = 16'd0;
        for (ib = 0; ib < NODES; ib = ib + 1)
            an_behind[ib] = tab[ib*5 + 4] && (|(an_arr & (ONE_P << tab[ib*5 +: 3])));
    end

    always @* begin
        an_p = {PORTS{1'b0}};
        an_w1 = x;
        if (an_up) begin
            an_p = up_oh;
            if (an_node && (an_w0 != 16'hFF04)
`ifdef SANFAB_MUTANTS
                && !mut_no_clear   // deliberately broken: going up alone keeps the sender's bit
`endif
                )
                an_w1 = x & ~an_behind;
        end else if (!an_mc || an_from_up || an_node) begin
`ifdef SANFAB_MUTANTS
            if (mut_no_excl)
                an_p = an_set;          // deliberately broken: the arrival port is not excluded
            else
`endif
            an_p = an_set & ~an_arr;    // never back to a node, nor up again
        end else begin
            an_p = an_set;              // turn: back down the box port it came up
        end
    end

    // ------------------------------------------------------------ rule 1: the bus
    // space/avail of step k, per channel; the destinations of the write of step k
    reg [PORTS-1:0] sp_ok2 [0:1];
    reg [PORTS-1:0] sp_ok4 [0:1];
    reg [PORTS-1:0] wr_hit [0:1];
    reg [NS-1:0]    avail_ok;

    always @* begin
        avail_ok = {NS{1'b0}};
        for (isp = 0; isp < PORTS; isp = isp + 1) begin
            sp_ok2[0][isp] = (m_space0[isp*13 +: 13] >= 13'd2);
            sp_ok4[0][isp] = (m_space0[isp*13 +: 13] >= 13'd4);
            sp_ok2[1][isp] = (m_space1[isp*13 +: 13] >= 13'd2);
            sp_ok4[1][isp] = (m_space1[isp*13 +: 13] >= 13'd4);
`ifdef SANFAB_MUTANTS
            if (mut_space_narrow) begin   // deliberately broken: room reads 12 bits of the 13-bit space
                sp_ok2[0][isp] = (m_space0[isp*13 +: 12] >= 12'd2);
                sp_ok4[0][isp] = (m_space0[isp*13 +: 12] >= 12'd4);
                sp_ok2[1][isp] = (m_space1[isp*13 +: 12] >= 12'd2);
                sp_ok4[1][isp] = (m_space1[isp*13 +: 12] >= 12'd4);
            end
`endif
            avail_ok[2*isp]     = (m_avail0[isp*13 +: 13] >= 13'd2);
            avail_ok[2*isp + 1] = (m_avail1[isp*13 +: 13] >= 13'd2);
        end
        wr_hit[0] = (wr_v_q && !wr_c_q) ? wr_p_q : {PORTS{1'b0}};
        wr_hit[1] = (wr_v_q && wr_c_q) ? wr_p_q : {PORTS{1'b0}};
    end

    wire          b_any;
    wire [NS-1:0] b_above;

    rr_pick #(
        .N (NS)
    ) u_bus_pick (
        .req   (s_elig),
        .mask  (bmask_q),
        .any   (b_any),
        .gnt   (bgnt),
        .above (b_above)
    );

    // what the grant does (one-hot selects)
    reg              g_rd, g_wr, g_move, g_rw0, g_rw1, g_rpc, g_ch;
    reg [PORTS-1:0]  g_port, g_p;
    reg [15:0]       g_pword;

    always @* begin
        g_rd = |(bgnt & s_rd);
        g_wr = |(bgnt & s_wr);
        g_move = |(bgnt & s_move);
        g_rw0 = |(bgnt & s_rw0);
        g_rw1 = |(bgnt & s_rw1);
        g_rpc = |(bgnt & s_rpc);
        g_ch = 1'b0;
        g_port = {PORTS{1'b0}};
        g_p = {PORTS{1'b0}};
        g_pword = 16'd0;
        for (ig = 0; ig < NS; ig = ig + 1) begin
            if (bgnt[ig]) begin
                g_ch = g_ch | ig[0];                 // s = 2p + c and 2*PORTS + c: c is bit 0
                g_p = g_p | s_p[ig*PORTS +: PORTS];
                g_pword = g_pword | s_pword[ig*16 +: 16];
                if (ig < 2 * PORTS)
                    g_port[ig/2] = 1'b1;
            end
        end
    end

    // the write of step k: every destination MLC takes the same word
    wire [15:0] wr_word = wr_mv_q ? x : wr_data_q;

    // ------------------------------------------------------------ rule 3: the manager
    // locks after step k-1: the port sets of the active sources of each channel; the reservation of
    // each channel (a source, one-hot in rsv_q[c*NS +: NS], 0: none) and the ports it reserves
    reg  [PORTS-1:0] lock [0:1];
    reg  [PORTS-1:0] rsv_p [0:1];
    reg  [NS-1:0]    m_req;
    reg  [2*NS-1:0]  rsv_q, rsv_d;
    reg              m_blk;

    always @* begin
        lock[0] = {PORTS{1'b0}};
        lock[1] = {PORTS{1'b0}};
        rsv_p[0] = {PORTS{1'b0}};
        rsv_p[1] = {PORTS{1'b0}};
        m_blk = 1'b0;
        for (il = 0; il < NS; il = il + 1) begin
            if (s_act[il]
`ifdef SANFAB_MUTANTS
                && !(mut_lock_early && s_last[il])   // deliberately broken: unlocked before the last word
`endif
                )
                lock[il % 2] = lock[il % 2] | s_p[il*PORTS +: PORTS];
            if (rsv_q[(il % 2)*NS + il])
                rsv_p[il % 2] = rsv_p[il % 2] | s_p[il*PORTS +: PORTS];
        end
        m_req = {NS{1'b0}};
        for (il = 0; il < NS; il = il + 1) begin
            j = il % 2;
            // its FIFOs: unlocked, and none reserved for another source
`ifdef SANFAB_MUTANTS
            if (mut_rsv_off)
                m_blk = 1'b0;                // deliberately broken: reservations are not kept
            else
`endif
            m_blk = ((s_p[il*PORTS +: PORTS] & rsv_p[j]) != {PORTS{1'b0}}) && !rsv_q[j*NS + il];
            if (s_wait[il]) begin
                if (il >= 2 * PORTS)
                    m_req[il] = ((s_p[il*PORTS +: PORTS] & lock[j]) == {PORTS{1'b0}}) && !m_blk;
                else if (s_cls[il*2 +: 2] == C_REQ)
                    m_req[il] = s_idle[2 * PORTS + j];
                else if (s_cls[il*2 +: 2] == C_REL)
                    m_req[il] = ((s_p[il*PORTS +: PORTS] & lock[j]) == {PORTS{1'b0}}) && !m_blk &&
                               s_idle[2 * PORTS + j];
                else
                    m_req[il] = ((s_p[il*PORTS +: PORTS] & lock[j]) == {PORTS{1'b0}}) && !m_blk;
            end
        end
    end

    // the reservation's candidates: waiting, need not met, not a barrier request, P not {UP} or empty;
    // per channel the first from mp takes a free reservation; a reservation ends at its activation
    reg  [NS-1:0] r_cand [0:1];
    integer       ir;

    always @* begin
        r_cand[0] = {NS{1'b0}};
        r_cand[1] = {NS{1'b0}};
        for (ir = 0; ir < NS; ir = ir + 1) begin
            r_cand[ir % 2][ir] = s_wait[ir] && !m_req[ir] &&
                                 (ir >= 2 * PORTS || s_cls[ir*2 +: 2] != C_REQ) &&
                                 ((s_p[ir*PORTS +: PORTS] & ~up_oh) != {PORTS{1'b0}});
        end
    end

    wire [1:0]    r_any;
    wire [NS-1:0] r_gnt [0:1];
    wire [NS-1:0] r_above [0:1];

    genvar gr;
    generate
        for (gr = 0; gr < 2; gr = gr + 1) begin : g_rsv
            rr_pick #(
                .N (NS)
            ) u_rsv_pick (
                .req   (r_cand[gr]),
                .mask  (amask_q),
                .any   (r_any[gr]),
                .gnt   (r_gnt[gr]),
                .above (r_above[gr])
            );
        end
    endgenerate

    wire          a_any;
    wire [NS-1:0] a_above;

    rr_pick #(
        .N (NS)
    ) u_mgr_pick (
        .req   (m_req),
        .mask  (amask_q),
        .any   (a_any),
        .gnt   (agnt),
        .above (a_above)
    );

    // the activated source
    reg              a_port_src, a_ch;
    reg [1:0]        a_cls;
    reg [PORTS-1:0]  a_p, a_arr;
    reg [15:0]       a_w1;

    always @* begin
        a_port_src = 1'b0;
        a_ch = 1'b0;
        a_cls = 2'd0;
        a_p = {PORTS{1'b0}};
        a_arr = {PORTS{1'b0}};
        a_w1 = 16'd0;
        for (iv = 0; iv < NS; iv = iv + 1) begin
            if (agnt[iv]) begin
                a_ch = a_ch | iv[0];
                a_cls = a_cls | s_cls[iv*2 +: 2];
                a_p = a_p | s_p[iv*PORTS +: PORTS];
                a_w1 = a_w1 | s_w1[iv*16 +: 16];
                if (iv < 2 * PORTS) begin
                    a_port_src = 1'b1;
                    a_arr[iv/2] = 1'b1;
                end
            end
        end
    end

    wire a_fwd   = a_port_src && (a_cls != C_REQ);       // data or release
    wire a_empty = (a_p == {PORTS{1'b0}});
    wire a_req   = a_port_src && (a_cls == C_REQ);
    wire a_rel   = a_port_src && (a_cls == C_REL);

    // ------------------------------------------------------------ rule 5: barriers
    wire [PORTS-1:0] e_m;
    wire [1:0]       b_taken, b_rej, b_done, b_make;
    wire [31:0]      b_mk_w0;
    wire [2*PORTS-1:0] b_mk_p;

    sbox_pset #(
        .PORTS (PORTS),
        .NODES (NODES)
    ) u_bar_pset (
        .tab  (tab),
        .dst  (8'hFF),
        .mask (a_w1),
        .set  (e_m)
    );

    genvar gc, gs;
    generate
        for (gc = 0; gc < 2; gc = gc + 1) begin : g_bar
            sbox_barrier #(
                .PORTS (PORTS)
            ) u_bar (
                .clk      (clk),
                .rst      (rst),
                .req_act  (a_req && (a_ch == (gc == 1))),
                .rel_act  (a_rel && (a_ch == (gc == 1))),
                .arr      (a_arr),
                .m        (a_w1),
                .e_m      (e_m),
                .up_v     (up_v),
                .up_oh    (up_oh),
                .taken    (b_taken[gc]),
                .rejected (b_rej[gc]),
                .done     (b_done[gc]),
                .make     (b_make[gc]),
                .mk_w0    (b_mk_w0[gc*16 +: 16]),
                .mk_p     (b_mk_p[gc*PORTS +: PORTS]),
                .busy     (bar_busy[gc]),
                .up_sent  (bar_ups[gc]),
                .arrived  (bar_a[gc*PORTS +: PORTS]),
                .members  (bar_m[gc*16 +: 16])
            );
        end

        // ------------------------------------------------------------ the sources
        for (gs = 0; gs < NS; gs = gs + 1) begin : g_src
            localparam IS_BAR = (gs >= 2 * PORTS) ? 1 : 0;
            localparam GC = gs % 2;
            wire cap = rdsel_q[gs];
            sbox_src #(
                .PORTS (PORTS),
                .BAR   (IS_BAR)
            ) u_src (
                .clk      (clk),
                .rst      (rst),
                .avail_ok (avail_ok[gs]),
                .sp_ok2   (sp_ok2[GC]),
                .sp_ok4   (sp_ok4[GC]),
                .wr_hit   (wr_hit[GC]),
                .gnt      (bgnt[gs]),
                .cap_w0   (cap && rd_w0_q),
                .cap_w1   (cap && rd_w1_q),
                .cap_pc   (cap && rd_pc_q),
                .x        (x),
                .an_cls   (an_cls),
                .an_p     (an_p),
                .an_w1    (an_w1),
                .act      (agnt[gs]),
                .make     ((IS_BAR == 1) ? b_make[GC] : 1'b0),
                .mk_w0    (b_mk_w0[GC*16 +: 16]),
                .mk_w1    (a_w1),
                .mk_p     (b_mk_p[GC*PORTS +: PORTS]),
                .elig     (s_elig[gs]),
                .o_rd     (s_rd[gs]),
                .o_wr     (s_wr[gs]),
                .o_move   (s_move[gs]),
                .o_pword  (s_pword[gs*16 +: 16]),
                .o_rw0    (s_rw0[gs]),
                .o_rw1    (s_rw1[gs]),
                .o_rpc    (s_rpc[gs]),
                .o_last   (s_last[gs]),
                .o_idle   (s_idle[gs]),
                .o_wait   (s_wait[gs]),
                .o_act    (s_act[gs]),
                .o_cls    (s_cls[gs*2 +: 2]),
                .o_p      (s_p[gs*PORTS +: PORTS]),
                .o_w0     (s_w0[gs*16 +: 16]),
                .o_w1     (s_w1[gs*16 +: 16])
            );
        end

        // ------------------------------------------------------------ the MLCs
        for (gs = 0; gs < PORTS; gs = gs + 1) begin : g_mlc
            mlc #(
                .LINK_W     (LINK_W),
                .FIFO_BYTES (FIFO_BYTES),
                .TURN       (TURN),
                .MASTER     ((MASTER_MASK >> gs) & 1),
                .TIMEOUT    (TIMEOUT),
                .CTR_W      (CTR_W),
                .GUARD      (2 * LINK_DELAY + 4)   // a slave port's guard; the node's TURN is not the box's to know
            ) u_mlc (
                .clk          (clk),
                .rst          (rst),
                .h_wr         (wr_v_q && wr_p_q[gs]),
                .h_wch        (wr_c_q),
                .h_wdata      (wr_word),
                .h_rd         (g_rd && g_port[gs]),
                .h_rch        (g_ch),
                .h_rvalid     (m_h_rvalid[gs]),
                .h_rdata      (m_h_rdata[gs*16 +: 16]),
                .st_tx_space0 (m_space0[gs*13 +: 13]),
                .st_tx_space1 (m_space1[gs*13 +: 13]),
                .st_rx_avail0 (m_avail0[gs*13 +: 13]),
                .st_rx_avail1 (m_avail1[gs*13 +: 13]),
                .tx_en        (tx_en[gs]),
                .tx_d         (tx_d[gs*LINK_W +: LINK_W]),
                .rx_en        (rx_en[gs]),
                .rx_d         (rx_d[gs*LINK_W +: LINK_W]),
                .reg_rd       (m_reg_rd[gs]),
                .reg_wr       (m_reg_wr[gs]),
                .reg_addr     (reg_addr[4:0]),
                .reg_wdata    (reg_wdata),
                .reg_rvalid   (m_reg_rvalid[gs]),
                .reg_rdata    (m_reg_rdata[gs*32 +: 32])
            );
        end
    endgenerate

    // ------------------------------------------------------------ counters' events
    // (port sources only for msgs, mcast, drop_route: a barrier source's activation counts nothing)
    assign ev[0] = a_fwd && !a_empty;                                      // msgs
    assign ev[1] = a_fwd && ((a_p & (a_p - 1'b1)) != {PORTS{1'b0}});       // mcast
    assign ev[2] = g_wr;                                                   // words
    assign ev[3] = a_fwd && a_empty;                                       // drop_route
    assign ev[4] = |b_taken;                                               // bar_req
    assign ev[5] = |b_done;                                                // bar_done
    assign ev[6] = |b_rej;                                                 // err_bar
    assign ev[7] = rd_pc_q && (x < 16'd2)                                  // err_msg
`ifdef SANFAB_MUTANTS
                   && (!mut_pc_drop || wr_mv_q)   // deliberately broken: PC < 2 of a message dropped (read in DROP) not counted
`endif
                   ;

    wire unused_any = &{1'b0, b_any, a_any, s_last, r_above[0], r_above[1]};   // s_last: the LOCK_EARLY mutant's

    // ------------------------------------------------------------ the reservations' next values
    always @* begin
        rsv_d = rsv_q;
        if (rsv_q[0 +: NS] != {NS{1'b0}}) begin
            if ((agnt & rsv_q[0 +: NS]) != {NS{1'b0}})
                rsv_d[0 +: NS] = {NS{1'b0}};
        end else if (r_any[0]) begin
            rsv_d[0 +: NS] = r_gnt[0];
        end
        if (rsv_q[NS +: NS] != {NS{1'b0}}) begin
            if ((agnt & rsv_q[NS +: NS]) != {NS{1'b0}})
                rsv_d[NS +: NS] = {NS{1'b0}};
        end else if (r_any[1]) begin
            rsv_d[NS +: NS] = r_gnt[1];
        end
    end

    // ------------------------------------------------------------ pointers and pipelines
    always @* begin
        bmask_d = bmask_q;
        amask_d = amask_q;
        if (|bgnt) begin
`ifdef SANFAB_MUTANTS
            if (mut_rr_stuck)
                bmask_d = bmask_q;   // deliberately broken: the bus pointer does not move
            else
`endif
            bmask_d = b_above;       // bp = s + 1
        end
        if (|agnt)
            amask_d = a_above;       // mp = s + 1
    end

    always @(posedge clk) begin
        if (rst) begin
            bmask_q <= {NS{1'b1}};
            amask_q <= {NS{1'b1}};
            rsv_q <= {(2*NS){1'b0}};
            rdsel_q <= {NS{1'b0}};
            rd_w0_q <= 1'b0;
            rd_w1_q <= 1'b0;
            rd_pc_q <= 1'b0;
            wr_v_q <= 1'b0;
            wr_c_q <= 1'b0;
            wr_mv_q <= 1'b0;
            wr_p_q <= {PORTS{1'b0}};
            wr_data_q <= 16'd0;
        end else begin
            bmask_q <= bmask_d;
            amask_q <= amask_d;
            rsv_q <= rsv_d;
            rdsel_q <= bgnt & s_rd;
            rd_w0_q <= g_rw0;
            rd_w1_q <= g_rw1;
            rd_pc_q <= g_rpc;
            wr_v_q <= g_wr;
            wr_c_q <= g_ch;
            wr_mv_q <= g_move;
            wr_p_q <= g_wr ? g_p : {PORTS{1'b0}};
            wr_data_q <= g_pword;
        end
    end

`ifdef SANFAB_MUTANTS
    // the mutant-capable build: a +mutant=NAME that names no mutation site stops the simulation
    // (rtl/common/sanfab_mutant_check.v)
    sanfab_mutant_check u_mutant_check ();
`endif

endmodule

`default_nettype wire
