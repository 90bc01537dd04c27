// sanfab — the Maestro switch box (docs/sbox.md is the contract; rule numbers below are its
// "Steps").
//
// PORTS whole MLCs (rtl/mlc/mlc.v and the modules it wires), the box being the host of all of them. NS = 2*PORTS + 2 sources
// (sbox_src: a (port, channel) pair s = 2p + c, and one barrier source per channel s = 2*PORTS + c)
// share one 16-bit bus. This top wires the box's parts, one module per rule of the page (the table
// in docs/sbox.md, "RTL modules", names them):
// - sbox_bus (rule 1, the switch controller): in every step at most one source is granted (round
//   robin from bp) a READ, MOVE or PUT; a read of step k is used in step k+1, a MOVE/PUT of step k is
//   written in step k+1 to every destination FIFO at once (the multicast);
// - sbox_analyzer (rule 2): what happens to words read, the class and port set of a header;
// - sbox_manager (rule 3): activates at most one waiting source per step (round robin from mp) whose
//   destination FIFOs are unlocked, and keeps the reservations;
// - sbox_src (rules 1..3 per source), sbox_barrier (rule 5, per channel), sbox_regs (rule 6: the
//   register port, table, up port and counters), sbox_pset (the member ports of a mask).
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
    wire [PORTS-1:0]    m_h_wr, m_h_rd;
    wire                m_h_wch, m_h_rch;
    wire [15:0]         m_h_wdata;

    // ------------------------------------------------------------ sources' signals
    wire [NS-1:0]       s_elig, s_rd, s_wr, s_move, s_rw0, s_rw1, s_rpc, s_last;
    wire [NS-1:0]       s_idle, s_wait, s_act;
    wire [NS*16-1:0]    s_pword, s_w0, s_w1;
    wire [NS*2-1:0]     s_cls;
    wire [NS*PORTS-1:0] s_p;

    wire [NS-1:0]       bgnt;       // bus grant of step k, one-hot
    wire [NS-1:0]       agnt;       // activation of step k, one-hot

    // ------------------------------------------------------------ register port (rule 6)
    wire [NODES*5-1:0] tab;
    wire [4:0]         up;
    wire [7:0]         ev;
    wire [1:0]         bar_busy, bar_ups;
    wire [2*PORTS-1:0] bar_a;
    wire [31:0]        bar_m;
    reg  [31:0]        mlc_rdata_or;
    integer            ix;

    always @* begin
        mlc_rdata_or = 32'd0;
        for (ix = 0; ix < PORTS; ix = ix + 1)
            mlc_rdata_or = mlc_rdata_or | m_reg_rdata[ix*32 +: 32];
    end
    wire unused_rv = &{1'b0, m_h_rvalid, m_reg_rvalid};

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

    // ------------------------------------------------------------ rule 1: the bus
    wire [NS-1:0]      avail_ok;
    wire [2*PORTS-1:0] sp_ok2, sp_ok4, wr_hit;
    wire [15:0]        x;            // the word read in step k-1
    wire [NS-1:0]      rd_src;       // the read of step k-1: its source (one-hot), which word
    wire               rd_w0, rd_w1, rd_pc, rd_move;

    sbox_bus #(
        .PORTS (PORTS),
        .NS    (NS)
    ) u_bus (
        .clk       (clk),
        .rst       (rst),
        .src_elig  (s_elig),
        .src_rd    (s_rd),
        .src_wr    (s_wr),
        .src_move  (s_move),
        .src_rw0   (s_rw0),
        .src_rw1   (s_rw1),
        .src_rpc   (s_rpc),
        .src_p     (s_p),
        .src_pword (s_pword),
        .space0    (m_space0),
        .space1    (m_space1),
        .avail0    (m_avail0),
        .avail1    (m_avail1),
        .h_rdata   (m_h_rdata),
        .avail_ok  (avail_ok),
        .sp_ok2    (sp_ok2),
        .sp_ok4    (sp_ok4),
        .wr_hit    (wr_hit),
        .gnt       (bgnt),
        .word      (x),
        .rd_src    (rd_src),
        .rd_w0     (rd_w0),
        .rd_w1     (rd_w1),
        .rd_pc     (rd_pc),
        .rd_move   (rd_move),
        .h_wr      (m_h_wr),
        .h_wch     (m_h_wch),
        .h_wdata   (m_h_wdata),
        .h_rd      (m_h_rd),
        .h_rch     (m_h_rch),
        .ev_words  (ev[2])
    );

    // ------------------------------------------------------------ rule 2: the analyzer
    wire [1:0]       an_cls;
    wire [PORTS-1:0] an_p;
    wire [15:0]      an_w1;

    sbox_analyzer #(
        .PORTS (PORTS),
        .NODES (NODES)
    ) u_analyzer (
        .rd_src     (rd_src[2*PORTS-1:0]),
        .rd_pc      (rd_pc),
        .rd_move    (rd_move),
        .word       (x),
        .src_w0     (s_w0[2*PORTS*16-1:0]),
        .tab        (tab),
        .up_v       (up_v),
        .up_oh      (up_oh),
        .cls        (an_cls),
        .p          (an_p),
        .w1         (an_w1),
        .ev_err_msg (ev[7])
    );

    wire unused_bar_w0 = &{1'b0, s_w0[NS*16-1:2*PORTS*16]};   // the barrier sources' w0: never analysed

    // ------------------------------------------------------------ rule 3: the manager
    wire               a_ch, a_req, a_rel;
    wire [2*PORTS-1:0] breq_arr;   // per channel, the request an activation would take: its port
    wire [31:0]        breq_w1;    // and its w1 (MASK)

    sbox_manager #(
        .PORTS (PORTS),
        .NS    (NS)
    ) u_manager (
        .clk           (clk),
        .rst           (rst),
        .src_idle      (s_idle),
        .src_wait      (s_wait),
        .src_act       (s_act),
        .src_last      (s_last),
        .src_cls       (s_cls),
        .src_p         (s_p),
        .src_w1        (s_w1),
        .up_oh         (up_oh),
        .act           (agnt),
        .act_ch        (a_ch),
        .act_req       (a_req),
        .act_rel       (a_rel),
        .breq_arr      (breq_arr),
        .breq_w1       (breq_w1),
        .ev_msgs       (ev[0]),
        .ev_mcast      (ev[1]),
        .ev_drop_route (ev[3])
    );

    // ------------------------------------------------------------ rule 5: barriers
    // Each channel's barrier judges its channel's request named by the manager (breq: the one an
    // activation of this step would take), beside the manager's pick; req_act says whether it is
    // activated.
    wire [1:0]       b_taken, b_rej, b_done, b_make;
    wire [31:0]      b_mk_w0;
    wire [2*PORTS-1:0] b_mk_p;

    genvar gc, gs;
    generate
        for (gc = 0; gc < 2; gc = gc + 1) begin : g_bar
            wire [PORTS-1:0] e_m;   // E(m) of the channel's request (table after step k-1)

            sbox_pset #(
                .PORTS (PORTS),
                .NODES (NODES)
            ) u_bar_pset (
                .tab  (tab),
                .dst  (8'hFF),
                .mask (breq_w1[gc*16 +: 16]),
                .set  (e_m)
            );

            sbox_barrier #(
                .PORTS (PORTS)
            ) u_bar (
                .clk      (clk),
                .rst      (rst),
                .req_act  (a_req && (a_ch == (gc == 1))),
                .rel_act  (a_rel && (a_ch == (gc == 1))),
                .arr      (breq_arr[gc*PORTS +: PORTS]),
                .m        (breq_w1[gc*16 +: 16]),
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
            wire cap = rd_src[gs];
            sbox_src #(
                .PORTS (PORTS),
                .BAR   (IS_BAR)
            ) u_src (
                .clk      (clk),
                .rst      (rst),
                .avail_ok (avail_ok[gs]),
                .sp_ok2   (sp_ok2[GC*PORTS +: PORTS]),
                .sp_ok4   (sp_ok4[GC*PORTS +: PORTS]),
                .wr_hit   (wr_hit[GC*PORTS +: PORTS]),
                .gnt      (bgnt[gs]),
                .cap_w0   (cap && rd_w0),
                .cap_w1   (cap && rd_w1),
                .cap_pc   (cap && rd_pc),
                .x        (x),
                .an_cls   (an_cls),
                .an_p     (an_p),
                .an_w1    (an_w1),
                .act      (agnt[gs]),
                .make     ((IS_BAR == 1) ? b_make[GC] : 1'b0),
                .mk_w0    (b_mk_w0[GC*16 +: 16]),
                .mk_w1    (breq_w1[GC*16 +: 16]),
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
                .h_wr         (m_h_wr[gs]),
                .h_wch        (m_h_wch),
                .h_wdata      (m_h_wdata),
                .h_rd         (m_h_rd[gs]),
                .h_rch        (m_h_rch),
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
    // ev[0] msgs, ev[1] mcast, ev[3] drop_route: the manager's (activations of port sources only);
    // ev[2] words: the bus's; ev[7] err_msg: the analyzer's
    assign ev[4] = |b_taken;                                               // bar_req
    assign ev[5] = |b_done;                                                // bar_done
    assign ev[6] = |b_rej;                                                 // err_bar

`ifdef SANFAB_MUTANTS
    // the mutant-capable build: a +mutant=NAME that names no mutation site stops the simulation
    // (rtl/common/sanfab_mutant_check.v)
    sanfab_mutant_check u_mutant_check ();
`endif

endmodule

`default_nettype wire
