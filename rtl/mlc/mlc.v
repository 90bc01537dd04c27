// sanfab — Maestro Link Controller: one end of a half-duplex point-to-point link (docs/mlc.md is
// the contract; rule numbers below are its "Steps").
//
// Host side: two channels, each a send FIFO and a receive FIFO (rtl/common/sdp_ram.v, block RAM with
// registered read) with byte-count status registers. Link side: frames of up to 15 units, sent after every
// turn-round, carrying credits, toggle/echo and a CRC-16 (crc16).
//
// Every decision of step k uses the registers (state after step k-1) and the inputs of step k; the
// status outputs are registered from the next state. Send: the frame is built in its first step
// (TURN, w = 0) and its units are read from the send FIFO at ack + offset, one word ahead of the
// nibble that needs it. Receive: the units are written into the receive FIFO at acc + offset as they
// arrive and the receive parser runs on them tentatively; judging the frame (rule 6) moves acc and
// commits the parser, or not.
`default_nettype none

module mlc #(
    parameter LINK_W     = 4,
    parameter FIFO_BYTES = 2048,
    parameter TURN       = 1,
    parameter MASTER     = 1,
    parameter TIMEOUT    = 1024,
    parameter CTR_W      = 16,
    parameter GUARD      = 5      // slave: 2*LINK_DELAY + 4 + TURN of the master (rule 2's guard); 0 none
) (
    input  wire              clk,
    input  wire              rst,
    // host port
    input  wire              h_wr,
    input  wire              h_wch,
    input  wire [15:0]       h_wdata,
    input  wire              h_rd,
    input  wire              h_rch,
    output wire              h_rvalid,
    output wire [15:0]       h_rdata,
    output wire [12:0]       st_tx_space0,
    output wire [12:0]       st_tx_space1,
    output wire [12:0]       st_rx_avail0,
    output wire [12:0]       st_rx_avail1,
    // link
    output wire              tx_en,
    output wire [LINK_W-1:0] tx_d,
    input  wire              rx_en,
    input  wire [LINK_W-1:0] rx_d,
    // register port
    input  wire              reg_rd,
    input  wire              reg_wr,
    input  wire [4:0]        reg_addr,
    input  wire [15:0]       reg_wdata,
    output wire              reg_rvalid,
    output wire [31:0]       reg_rdata
);

    // ------------------------------------------------------------------ parameters
    localparam NPS  = LINK_W / 4;        // nibbles per symbol
    localparam CAPW = FIFO_BYTES / 2;    // FIFO capacity, words
    localparam CAPU = FIFO_BYTES / 16;   // FIFO capacity, units
    localparam WAW  = $clog2(CAPW);      // word address bits
    localparam WCW  = WAW + 1;           // word counts (modulo 2 * CAPW)
    localparam UCW  = WAW - 2;           // unit counts (modulo 2 * CAPU)
    localparam NCTR = 15;

    localparam [1:0] S_TURN = 2'd0, S_SEND = 2'd1, S_LISTEN = 2'd2;

    localparam [UCW-1:0]  CAPU_U = CAPU[UCW-1:0];
    localparam [WCW-1:0]  CAPW_W = CAPW[WCW-1:0];
    localparam [15:0]     TO_M1 = (TIMEOUT == 0) ? 16'hFFFF : TIMEOUT[15:0] - 16'd1;  // silent steps before the timing-out one
    localparam [3:0]      TURN4 = TURN[3:0];
    localparam [7:0]      GUARD8 = GUARD[7:0];

    // counter indices (docs/mlc.md, Counters)
    localparam [3:0] C_TX_FRAMES = 4'd0, C_TX_NULL = 4'd1, C_TX_PKTS = 4'd2, C_RX_FRAMES = 4'd3,
                     C_RX_NULL = 4'd4, C_RX_PKTS = 4'd5, C_ERR_CHECK = 4'd6, C_ERR_LEN = 4'd7,
                     C_ERR_CREDIT = 4'd8, C_DUP = 4'd9, C_RETX = 4'd10, C_TIMEOUT = 4'd11,
                     C_CONFLICT = 4'd12, C_WR_OVER = 4'd13, C_RD_UNDER = 4'd14;

    // parameter ranges: a bad set does not elaborate
    generate
        if (LINK_W != 4 && LINK_W != 8) begin : g_bad_link_w
            mlc_parameter_LINK_W_must_be_4_or_8 bad ();
        end
        if (FIFO_BYTES != 256 && FIFO_BYTES != 512 && FIFO_BYTES != 1024 && FIFO_BYTES != 2048 &&
            FIFO_BYTES != 4096) begin : g_bad_fifo
            mlc_parameter_FIFO_BYTES_must_be_256_512_1024_2048_or_4096 bad ();
        end
        if (TURN < 0 || TURN > 15) begin : g_bad_turn
            mlc_parameter_TURN_must_be_0_to_15 bad ();
        end
        if (MASTER != 0 && MASTER != 1) begin : g_bad_master
            mlc_parameter_MASTER_must_be_0_or_1 bad ();
        end
        if (TIMEOUT != 0 && (TIMEOUT < 16 || TIMEOUT > 65535)) begin : g_bad_timeout
            mlc_parameter_TIMEOUT_must_be_0_or_16_to_65535 bad ();
        end
        if (CTR_W < 8 || CTR_W > 32) begin : g_bad_ctr_w
            mlc_parameter_CTR_W_must_be_8_to_32 bad ();
        end
        if (GUARD < 0 || GUARD > 147) begin : g_bad_guard
            mlc_parameter_GUARD_must_be_0_to_147 bad ();
        end
    endgenerate

    // ------------------------------------------------------------------ message parser step
    // {need[15:0], wpc, L[UCW-1:0]}: need > 0 units still to come, wpc waiting for the
    // Pkt-Counter, L units since the last one that ended a message (saturating at CAPU)
    localparam PSW = 17 + UCW;

    function [PSW-1:0] parse;
        input [PSW-1:0]  ps;
        input [15:0]     w0;
        reg   [15:0]     need;
        reg              wpc;
        reg   [UCW-1:0]  l;
        reg              ends;
        begin
            need = ps[PSW-1:UCW+1];
            wpc  = ps[UCW];
            l    = ps[UCW-1:0];
            ends = 1'b0;
            if (wpc) begin
                need = ((w0 < 16'd2) ? 16'd2 : w0) - 16'd2;
                wpc  = 1'b0;
                ends = (need == 16'd0);
            end else if (need == 16'd0) begin
                if (!w0[0])
                    ends = 1'b1;
                else
                    wpc = 1'b1;
            end else begin
                need = need - 16'd1;
                ends = (need == 16'd0);
            end
            if (ends)
                l = {UCW{1'b0}};
            else if (l != CAPU_U)
                l = l + 1'b1;
            parse = {need, wpc, l};
        end
    endfunction

    // ------------------------------------------------------------------ state
    // link state machine
    reg [1:0]     st_q, st_d;
    reg [3:0]     w_q, w_d;
    reg [8:0]     ti_q, ti_d;         // next nibble of the frame being sent
    reg [3:0]     tnp_q, tnp_d;       // its NP
    reg [3:0]     tflags_q, tflags_d; // its FLAGS
    reg [15:0]    tcrc_q, tcrc_d;     // check over the nibbles sent so far
    reg           rin_q, rin_d;       // LISTEN: in a frame
    reg [8:0]     rn_q, rn_d;         // nibbles received (saturating above 488)
    reg [15:0]    rs_q, rs_d;         // check state
    reg [3:0]     rnp_q, rnp_d;
    reg [3:0]     rflags_q, rflags_d;
    reg [3:0]     rcr0_q, rcr0_d, rcr1_q, rcr1_d;
    reg [11:0]    rword_q, rword_d;   // nibbles 0..2 of the word being received
    reg [15:0]    sil_q, sil_d;       // master: silent steps in LISTEN
    reg [7:0]     gd_q, gd_d;         // slave: steps since its last symbol, saturating at GUARD
    reg           early_q, early_d;   // slave: LISTEN inside an early frame (ignored, rule 2)
    // protocol
    reg           good_q, good_d, oval_q, oval_d, och_q, och_d, ot_q, ot_d, tack_q, tack_d;
    reg           emine_q, emine_d, rr_q, rr_d, hold_q, hold_d;
    reg [3:0]     onp_q, onp_d;
    // rule 6's four tests on the frame received so far, registered from the next state, so the
    // judging step reads them ready: length, check, credit, duplicate (1 = the test fails)
    reg           jlen_q, jlen_d, jchk_q, jchk_d, jcr_q, jcr_d, jdup_q, jdup_d;
    // and none of them fails (the judgement's good frame, one register instead of four)
    reg           jgood_q, jgood_d;
    // and what a good frame would do if it ended now: acknowledge the outstanding units (ackpre),
    // accept units (accpre)
    reg           ackpre_q, ackpre_d, accpre_q, accpre_d;
    wire          judging = (st_q != S_TURN) && (st_q != S_SEND) && !rx_en && rin_q;
`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire          mut_guard_off, mut_crc_init, mut_sp_cap, mut_toggle_same, mut_frame_long, mut_wr_norefuse,
                  mut_retx_ack, mut_echo_stuck, mut_hold_stuck, mut_turn_short, mut_timeout_late,
                  mut_credit_ge, mut_dup_null, mut_credit_plus1, mut_ctr_sat, mut_ctr_top, mut_credit_clamp,
                  mut_avail_top, mut_chk_credit;
    sanfab_mutant #(.NAME("GUARD_OFF"))    u_mut_guard_off    (.on(mut_guard_off));
    sanfab_mutant #(.NAME("CRC_INIT"))     u_mut_crc_init     (.on(mut_crc_init));
    sanfab_mutant #(.NAME("SP_CAP"))       u_mut_sp_cap       (.on(mut_sp_cap));
    sanfab_mutant #(.NAME("TOGGLE_SAME"))  u_mut_toggle_same  (.on(mut_toggle_same));
    sanfab_mutant #(.NAME("FRAME_LONG"))   u_mut_frame_long   (.on(mut_frame_long));
    sanfab_mutant #(.NAME("WR_NOREFUSE"))  u_mut_wr_norefuse  (.on(mut_wr_norefuse));
    sanfab_mutant #(.NAME("RETX_ACK"))     u_mut_retx_ack     (.on(mut_retx_ack));
    sanfab_mutant #(.NAME("ECHO_STUCK"))   u_mut_echo_stuck   (.on(mut_echo_stuck));
    sanfab_mutant #(.NAME("HOLD_STUCK"))   u_mut_hold_stuck   (.on(mut_hold_stuck));
    sanfab_mutant #(.NAME("TURN_SHORT"))   u_mut_turn_short   (.on(mut_turn_short));
    sanfab_mutant #(.NAME("TIMEOUT_LATE")) u_mut_timeout_late (.on(mut_timeout_late));
    sanfab_mutant #(.NAME("CREDIT_GE"))    u_mut_credit_ge    (.on(mut_credit_ge));
    sanfab_mutant #(.NAME("DUP_NULL"))     u_mut_dup_null     (.on(mut_dup_null));
    sanfab_mutant #(.NAME("CREDIT_PLUS1")) u_mut_credit_plus1 (.on(mut_credit_plus1));
    sanfab_mutant #(.NAME("CTR_SAT"))      u_mut_ctr_sat      (.on(mut_ctr_sat));
    sanfab_mutant #(.NAME("CTR_TOP"))      u_mut_ctr_top      (.on(mut_ctr_top));
    sanfab_mutant #(.NAME("CREDIT_CLAMP")) u_mut_credit_clamp (.on(mut_credit_clamp));
    sanfab_mutant #(.NAME("AVAIL_TOP"))    u_mut_avail_top    (.on(mut_avail_top));
    sanfab_mutant #(.NAME("CHK_CREDIT"))   u_mut_chk_credit   (.on(mut_chk_credit));
`endif
    // rule 2's guard (slave, LISTEN): a symbol fewer than GUARD steps after this end's last one, and
    // the rest of its frame, are conflicts (the rule-2 branch only reads it in LISTEN)
    wire          guard_hit =
`ifdef SANFAB_MUTANTS
                              mut_guard_off ? 1'b0 :   // deliberately broken: no guard (crossing frames can lock)
`endif
                              (MASTER == 0) && rx_en && (early_q || (!rin_q && gd_q < GUARD8));
    reg [3:0]     crx_q [0:1];
    reg [3:0]     crx_d [0:1];
    reg [3:0]     cadv_q [0:1];
    reg [3:0]     cadv_d [0:1];
    reg [2:0]     cfg_q, cfg_d;
    // FIFO counts
    reg [WCW-1:0] wr_q [0:1];
    reg [WCW-1:0] wr_d [0:1];
    reg [UCW-1:0] ack_q [0:1];
    reg [UCW-1:0] ack_d [0:1];
    reg [UCW-1:0] acc_q [0:1];
    reg [UCW-1:0] acc_d [0:1];
    reg [WCW-1:0] rd_q [0:1];
    reg [WCW-1:0] rd_d [0:1];
    // parsers: send (per channel), receive (per channel, committed), receive tentative
    reg [PSW-1:0] tps_q [0:1];
    reg [PSW-1:0] tps_d [0:1];
    reg [15:0]    tw0_q [0:1];
    reg [15:0]    tw0_d [0:1];
    // the send parser's step over the unit being written, computed ahead in two stages: every
    // other step one channel's tps_q and tw0_q (tpsel_q) are copied into tpa_*, and the next step
    // parses them into tpn_q. Word 7 of a unit comes at least 7 steps after its word 0 and tps_q[c]
    // changes only at word 7, so at word 7 tpn_q[c] holds the parse of a copy made after word 0.
    reg [PSW-1:0] tpn_q [0:1];
    reg           tpsel_q;
    reg [PSW-1:0] tpa_ps_q;
    reg [15:0]    tpa_w0_q;
    reg           tpa_ch_q;
    reg [PSW-1:0] rps_q [0:1];
    reg [PSW-1:0] rps_d [0:1];
    reg [PSW-1:0] xps_q, xps_d;
    // the receive parser runs a step after the first word of a unit arrives (xwv_q, xw_q): the
    // judgement that commits it comes at least 11 nibbles later
    reg           xwv_q, xwv_d;
    reg [15:0]    xw_q, xw_d;
    // the unit of the nibble at rn_q is within NP and the credit granted (registered from the next state)
    reg           uok_q, uok_d;
    // counters
    reg [CTR_W-1:0] ctr_q [0:NCTR-1] /* verilator public_flat_rw */;   // public: the bench's counter preset (a test mode)
    reg [4:0]       inc   [0:NCTR-1];
    // registered outputs
    reg           tx_en_q, tx_en_d;
    reg [LINK_W-1:0] tx_d_q, tx_d_d;
    reg           rvalid_q, rvalid_d, rch_q, rch_d;
    reg [12:0]    space_q [0:1];
    reg [12:0]    space_d [0:1];
    reg [12:0]    avail_q [0:1];
    reg [12:0]    avail_d [0:1];
    reg           reg_rvalid_q, reg_rvalid_d;
    reg [31:0]    reg_rdata_q, reg_rdata_d;

    // RAM ports
    reg           txr_re;                // send FIFO read (link side), channel txr_ch
    reg           txr_ch;
    reg [WAW-1:0] txr_addr;
    reg           txw_we [0:1];          // send FIFO write (host side)
    reg           rxw_we [0:1];          // receive FIFO write (link side)
    reg [WAW-1:0] rxw_addr;
    reg [15:0]    rxw_data;
    reg           rxr_re [0:1];          // receive FIFO read (host side)
    wire [15:0]   txr_data [0:1];
    wire [15:0]   rxr_data [0:1];

    // ------------------------------------------------------------------ CRC steps
    // send: over this step's nibbles (up to two); receive: over the symbol's nibbles
    wire [3:0]  tnib0, tnib1;
    wire [15:0] tcrc_a, tcrc_b, rcrc_a, rcrc_b;
    wire [15:0] rcrc_in =
`ifdef SANFAB_MUTANTS
                          (mut_crc_init && !rin_q) ? 16'h0000 :   // deliberately broken: the receiver starts the check at 0, not 0xFFFF
`endif
                          rin_q ? rs_q : 16'hFFFF;

    crc16 u_tcrc_a (.crc_in(tcrc_q), .nib(tnib0), .crc_out(tcrc_a));
    crc16 u_tcrc_b (.crc_in(tcrc_a), .nib(tnib1), .crc_out(tcrc_b));
    crc16 u_rcrc_a (.crc_in(rcrc_in), .nib(rx_d[3:0]), .crc_out(rcrc_a));
    generate
        if (NPS == 2) begin : g_rcrc8
            crc16 u_rcrc_b (.crc_in(rcrc_a), .nib(rx_d[LINK_W-1:LINK_W-4]), .crc_out(rcrc_b));
        end else begin : g_rcrc4
            assign rcrc_b = rcrc_a;
        end
    endgenerate

    // ------------------------------------------------------------------ rule 4's inputs
    // The frame decision reads only the state after step k-1, so what it needs of each channel is
    // computed at the end of step k-1 from the next state and registered (nq_q, rcr_q): the build
    // step itself only picks a channel.
    //   nq_q[c]  = min(cap, min(15, sendable units of c), crx[c])   (rule 4, 5)
    //   rcr_q[c] = min(15, free units of receive FIFO c)              (the credit this end grants)
    reg [3:0] nq_q [0:1];
    reg [3:0] nq_d [0:1];
    // unit counts kept as registers (updated by small steps instead of subtracting pointers):
    //   pend_q[c] = wr[c]/8 - ack[c]   complete units of send FIFO c not acknowledged
    //   occ_q[c]  = acc[c] - rd[c]/8   units of receive FIFO c not wholly read
    // and the values they take on an acknowledgement / acceptance, ready a step ahead
    //   pmo_q[c] = pend_q[c] - onp,   occp_q[c] = occ_q[c] + NP of the frame being received
    reg [UCW-1:0] pend_q [0:1];
    reg [UCW-1:0] pend_d [0:1];
    reg [UCW-1:0] pmo_q [0:1];
    reg [UCW-1:0] occ_q [0:1];
    reg [UCW-1:0] occ_d [0:1];
    reg [UCW-1:0] occp_q [0:1];
    reg [UCW-1:0] pmo_d [0:1];
    reg [UCW-1:0] occp_d [0:1];
    reg [3:0] rcr_q [0:1];
    reg [3:0] rcr_d [0:1];
    genvar gc;

    // cap: 15 in Network Burst, else 1, 2, 4 units (rule 5)
    function [3:0] cap_of;
        input [1:0] sp;
        begin
            case (sp)
                2'd0:    cap_of = 4'd15;
                2'd1:    cap_of =
`ifdef SANFAB_MUTANTS
                                  mut_sp_cap ? 4'd2 :   // deliberately broken: single-packet transfer of 1 unit sends 2
`endif
                                  4'd1;
                2'd2:    cap_of = 4'd2;
                default: cap_of = 4'd4;
            endcase
        end
    endfunction

    function [3:0] min4;
        input [3:0] a;
        input [3:0] b;
        begin
            min4 = (a < b) ? a : b;
        end
    endfunction

    // rule 4: the frame this end would build now (used in the step TURN w = 0)
    wire [3:0] n_rr  = nq_q[rr_q];
    wire [3:0] n_orr = nq_q[~rr_q];
    wire       b_data = good_q & ((n_rr != 4'd0) | (n_orr != 4'd0));
    wire       b_ch   = (n_rr != 4'd0) ? rr_q : ~rr_q;
    wire [3:0] b_np   = ~good_q ? 4'd0 : ((n_rr != 4'd0) ? n_rr : n_orr);
    wire       b_t    =
`ifdef SANFAB_MUTANTS
                        mut_toggle_same ? b_data & tack_q :   // deliberately broken: a new data frame repeats the acknowledged toggle
`endif
                        b_data & ~tack_q;
    wire [3:0] b_flags = {1'b0, emine_q, b_t, b_data & b_ch};

    // the step that builds a frame sends its nibbles 0 (and 1) straight from the decision; the
    // other steps of the frame read the registered NP, FLAGS and credits
    wire       building = (st_q == S_TURN) && (w_q == 4'd0);
    wire [8:0] t_dl     = 9'd4 + {tnp_q, 5'd0};      // nibbles before the check
    wire [8:0] t_last   =
`ifdef SANFAB_MUTANTS
                          mut_frame_long ? t_dl + 9'd4 :   // deliberately broken: the frame runs a symbol past its check
`endif
                          t_dl + 9'd4 - NPS[8:0];    // ti of the frame's last symbol
    // the unit word being sent: read from the send FIFO two steps before its first nibble and
    // registered here a step before it, so the block RAM's clock-to-out is not in front of the
    // nibble select and the check
    reg  [15:0] f_word_q, f_word_d;
    reg  [WAW-1:0] tra_q, tra_d;       // send FIFO address of the next unit word to read
    reg  [6:0]  trem_q, trem_d;        // unit words of the frame still to read
    reg            tr_go, tr_ch;       // this step reads a send FIFO word: go, channel,
    reg  [WAW-1:0] tr_a;               // address,
    reg  [6:0]     tr_n;               // and words still to read before it
    localparam [1:0] TI_LD = (NPS == 2) ? 2'd2 : 2'd3;   // ti[1:0] of a step that registers a word
    localparam [1:0] TI_RD = (NPS == 2) ? 2'd0 : 2'd2;   // ti[1:0] of a step that reads one
    wire [15:0] f_word  = f_word_q;

    // nibble i of the frame being sent
    function [3:0] tx_nib;
        input [8:0]  i;
        input [8:0]  dl;
        input [3:0]  np;
        input [3:0]  flags;
        input [3:0]  cr0;
        input [3:0]  cr1;
        input [15:0] word;
        input [15:0] crc;
        begin
            if (i == 9'd0)
                tx_nib = np;
            else if (i == 9'd1)
                tx_nib = flags;
            else if (i == 9'd2)
                tx_nib = cr0;
            else if (i == 9'd3)
                tx_nib = cr1;
            else if (i < dl)
                tx_nib = word[{i[1:0], 2'b00} +: 4];
            else
                tx_nib = crc[{~i[1:0], 2'b00} +: 4];   // the check starts at a multiple of 4
        end
    endfunction

    assign tnib0 = building ? b_np :
                   tx_nib(ti_q, t_dl, tnp_q, tflags_q, cadv_q[0], cadv_q[1], f_word, tcrc_q);
    assign tnib1 = building ? b_flags :
                   tx_nib(ti_q + 9'd1, t_dl, tnp_q, tflags_q, cadv_q[0], cadv_q[1], f_word, tcrc_q);

    // ------------------------------------------------------------------ register read value
    reg [31:0] reg_val;
    always @* begin
        reg_val = 32'h8000_0000;
        if (reg_addr < 5'd15)
            reg_val = {{(32-CTR_W){1'b0}}, ctr_q[reg_addr[3:0]]};
        else if (reg_addr == 5'd15)
            reg_val = {17'd0, hold_q, st_q, crx_q[1], crx_q[0], emine_q, tack_q, oval_q, good_q};
        else if (reg_addr == 5'd16)
            reg_val = {29'd0, cfg_q};
        else if (reg_addr == 5'd17)
            reg_val = {19'd0, space_q[0]};
        else if (reg_addr == 5'd18)
            reg_val = {19'd0, space_q[1]};
        else if (reg_addr == 5'd19)
            reg_val = {19'd0, avail_q[0]};
        else if (reg_addr == 5'd20)
            reg_val = {19'd0, avail_q[1]};
    end

    // ------------------------------------------------------------------ the step
    integer  c, k;
    reg      do_wr, do_rd, good_fr;
    reg [8:0] p, rel;
    reg [3:0] x;
    reg [8:0] ru;
    reg [3:0] bad;
    reg       jch, jt, je;
    reg [UCW:0] usig;
    reg [WCW-1:0] uw;
    reg [1:0]   upos;
    reg [WCW-1:0] wsum;
    reg [UCW-1:0] pend;
    reg [UCW:0]   msg_s, snd;
    reg [3:0]     sn;
    wire unused_ok = &{1'b0, reg_wdata[15:3], wsum[WCW-1], ru[4:0]};
    // status != 0, registered with the status (rule 7's checks read them)
    reg  [1:0] spnz_q, avnz_q;

    always @* begin
        // defaults: hold everything
        st_d = st_q; w_d = w_q; ti_d = ti_q; tnp_d = tnp_q; tflags_d = tflags_q; tcrc_d = tcrc_q;
        rin_d = rin_q; rn_d = rn_q; rs_d = rs_q; rnp_d = rnp_q; rflags_d = rflags_q;
        rcr0_d = rcr0_q; rcr1_d = rcr1_q; rword_d = rword_q; sil_d = sil_q;
        gd_d = gd_q; early_d = early_q;
        good_d = good_q; oval_d = oval_q; och_d = och_q; ot_d = ot_q; tack_d = tack_q;
        emine_d = emine_q; rr_d = rr_q; hold_d = hold_q; onp_d = onp_q; cfg_d = cfg_q;
        xps_d = xwv_q ? parse(xps_q, xw_q) : xps_q;
        xwv_d = 1'b0; xw_d = xw_q;
        for (c = 0; c < 2; c = c + 1) begin
            crx_d[c] = crx_q[c]; cadv_d[c] = cadv_q[c];
            wr_d[c] = wr_q[c]; ack_d[c] = ack_q[c]; acc_d[c] = acc_q[c]; rd_d[c] = rd_q[c];
            tps_d[c] = tps_q[c]; tw0_d[c] = tw0_q[c]; rps_d[c] = rps_q[c];
            txw_we[c] = 1'b0; rxw_we[c] = 1'b0; rxr_re[c] = 1'b0;
        end
        for (c = 0; c < NCTR; c = c + 1)
            inc[c] = 5'd0;
        txr_re = 1'b0; txr_ch = 1'b0; txr_addr = {WAW{1'b0}}; f_word_d = f_word_q;
        tra_d = tra_q; trem_d = trem_q;
        tr_go = 1'b0; tr_ch = 1'b0; tr_a = {WAW{1'b0}}; tr_n = 7'd0;
        rxw_addr = {WAW{1'b0}}; rxw_data = 16'd0;
        tx_en_d = 1'b0; tx_d_d = {LINK_W{1'b0}};
        rvalid_d = 1'b0; rch_d = rch_q;
        reg_rvalid_d = reg_rd; reg_rdata_d = reg_rd ? reg_val : 32'd0;
        p = 9'd0; rel = 9'd0; x = 4'd0; ru = 9'd0; bad = 4'd0;
        jch = 1'b0; jt = 1'b0; je = 1'b0; good_fr = 1'b0; usig = {(UCW+1){1'b0}}; uw = {WCW{1'b0}}; upos = 2'b00;
        wsum = {WCW{1'b0}};
        pend = {UCW{1'b0}}; msg_s = {(UCW+1){1'b0}}; snd = {(UCW+1){1'b0}};
        sn = 4'd0;
        k = 0;

        // rule 7: host checks on the status after k-1
`ifdef SANFAB_MUTANTS
        if (mut_wr_norefuse)
            do_wr = h_wr;   // deliberately broken: a host write with no space is stored
        else
`endif
        do_wr = h_wr & spnz_q[h_wch];
        do_rd = h_rd & avnz_q[h_rch];

        // rule 1: the link
        if (st_q == S_TURN || st_q == S_SEND) begin
            if (rx_en) begin
                inc[C_CONFLICT] = 5'd1;
                if (MASTER == 0)
                    hold_d = 1'b1;
            end
            if (st_q == S_TURN && w_q != 4'd0) begin
                w_d = w_q - 4'd1;
            end else begin
                if (building) begin
                    // rule 4: build the frame on the state after k-1
                    st_d = S_SEND;
                    tnp_d = b_np;
                    tflags_d = b_flags;
                    cadv_d[0] = rcr_q[0];
                    cadv_d[1] = rcr_q[1];
                    if (b_data) begin
                        oval_d = 1'b1;
                        och_d = b_ch;
                        onp_d = b_np;
                        ot_d = b_t;
                        rr_d = ~b_ch;
                    end
                    inc[C_TX_FRAMES] = 5'd1;
                    inc[C_TX_NULL] = (b_np == 4'd0) ? 5'd1 : 5'd0;
                    inc[C_TX_PKTS] = {1'b0, b_np};
                end
                tx_en_d = 1'b1;
                tx_d_d[3:0] = tnib0;
                if (NPS == 2)
                    tx_d_d[LINK_W-1:LINK_W-4] = tnib1;
                // the check runs over the nibbles before it (a symbol is all data or all check)
                // (tcrc_q is 0xFFFF between frames)
                if (building || ti_q < t_dl)
                    tcrc_d = (NPS == 2) ? tcrc_b : tcrc_a;
                ti_d = (building ? 9'd0 : ti_q) + NPS[8:0];
                // when this step sends the last nibble of a word (ti + NPS a multiple of 4),
                // register the next unit word, read in the step before; the words are read in
                // order from ack * 8 (tra_q, trem_q words still to read), each in the step
                // before the one that sends the last nibble of the word before it (ti + 2 NPS
                // a multiple of 4): for the first unit word at LINK_W 8 that is the building step
                if (!building && ti_q[1:0] == TI_LD)
                    f_word_d = txr_data[och_q];
                // the building step starts the frame's reads at ack * 8 (b_np units), and
                // at LINK_W 8 reads its first word; later steps read at TI_RD while words remain
                if (building) begin
                    tr_go = (NPS == 2) && (b_np != 4'd0);
                    tr_ch = b_ch;
                    tr_a = {ack_q[b_ch][UCW-2:0], 3'b000};
                    tr_n = {b_np, 3'b000};
                end else begin
                    tr_go = (ti_q[1:0] == TI_RD) && (trem_q != 7'd0);
                    tr_ch = och_q;
                    tr_a = tra_q;
                    tr_n = trem_q;
                end
                tra_d = tr_a;
                trem_d = tr_n;
                if (tr_go) begin
                    txr_re = 1'b1;
                    txr_ch = tr_ch;
                    txr_addr = tr_a;
                    tra_d = tr_a + 1'b1;
                    trem_d = tr_n - 7'd1;
                end
                if (!building && ti_q == t_last) begin
                    st_d = S_LISTEN;
                    rin_d = 1'b0;
                    sil_d = 16'd0;
                    gd_d = 8'd1;   // in the next step: 1 step since the last symbol
                    tcrc_d = 16'hFFFF;
                end
            end
        end else begin
            // rule 2: LISTEN; the slave's guard counts the steps since its last symbol
            if (gd_q < GUARD8)
                gd_d = gd_q + 8'd1;
            if (guard_hit) begin
                // an early frame: every symbol a conflict, the frame ignored, not answered
                early_d = 1'b1;
                inc[C_CONFLICT] = 5'd1;
                hold_d = 1'b1;
            end else if (rx_en) begin
                rin_d = 1'b1;
                rs_d = rcrc_b;
                for (k = 0; k < NPS; k = k + 1) begin
                    p = (rin_q ? rn_q : 9'd0) + k[8:0];
                    x = rx_d[4*k +: 4];
                    if (p == 9'd0)
                        rnp_d = x;
                    if (p == 9'd1) begin
                        rflags_d = x;
                        xps_d = rps_q[x[0]];
                    end
                    if (p == 9'd2)
                        rcr0_d = x;
                    if (p == 9'd3)
                        rcr1_d = x;
                    if (p >= 9'd4 && p < 9'd484) begin
                        rel = p - 9'd4;
                        if (rel[1:0] != 2'b11) begin
                            rword_d[{rel[1:0], 2'b00} +: 4] = x;
                        end else if (uok_q) begin
                            // a whole word of a unit within NP and the credit granted
                            rxw_we[rflags_d[0]] = 1'b1;
                            wsum = {acc_q[rflags_d[0]], 3'b000} + {{(WCW-7){1'b0}}, rel[8:2]};
                            rxw_addr = wsum[WAW-1:0];
                            rxw_data = {x, rword_d[11:0]};
                            if (rel[4:2] == 3'd0) begin
                                xwv_d = 1'b1;
                                xw_d = {x, rword_d[11:0]};
                            end
                        end
                    end
                end
                p = (rin_q ? rn_q : 9'd0);
                rn_d = (p > 9'd488) ? p : p + NPS[8:0];
            end else if (early_q) begin
                early_d = 1'b0;   // the early frame ended: silence
            end else if (rin_q) begin
                // rule 6: judge the frame that ended in this step
                rin_d = 1'b0;
                jch = rflags_q[0];
                jt = rflags_q[1];
                je = rflags_q[2];
                if (jlen_q)
                    bad = C_ERR_LEN;
`ifdef SANFAB_MUTANTS
                else if (mut_chk_credit && jcr_q)
                    bad = C_ERR_CREDIT;   // deliberately broken: a frame failing both the check and the credit test counts as a credit error
`endif
                else if (jchk_q)
                    bad = C_ERR_CHECK;
                else if (jcr_q)
                    bad = C_ERR_CREDIT;
                else if (jdup_q)
                    bad = C_DUP;
                good_fr = jgood_q;   // = (bad == 4'd0)
                if (!good_fr) begin
                    inc[bad] = 5'd1;
                    good_d = 1'b0;
                end else begin
                    inc[C_RX_FRAMES] = 5'd1;
                    inc[C_RX_NULL] = (rnp_q == 4'd0) ? 5'd1 : 5'd0;
                    crx_d[0] = rcr0_q;
                    crx_d[1] = rcr1_q;
                    if (oval_q) begin
                        if (
`ifdef SANFAB_MUTANTS
                            mut_retx_ack ||   // deliberately broken: a lost data frame counts as acknowledged
`endif
                            je == ot_q) begin
                            ack_d[och_q] = ack_q[och_q] + {{(UCW-4){1'b0}}, onp_q};

                            tack_d = ot_q;
                        end else begin
                            inc[C_RETX] = {1'b0, onp_q};
                        end
                        oval_d = 1'b0;
                    end
                    if (rnp_q != 4'd0) begin
                        acc_d[jch] = acc_q[jch] + {{(UCW-4){1'b0}}, rnp_q};

                        rps_d[jch] = xps_q;
                        inc[C_RX_PKTS] = {1'b0, rnp_q};
`ifdef SANFAB_MUTANTS
                        if (mut_echo_stuck)
                            emine_d = emine_q;   // deliberately broken: the echo does not follow accepted frames
                        else
`endif
                        emine_d = jt;
                    end
                    good_d = 1'b1;
`ifdef SANFAB_MUTANTS
                    if (mut_hold_stuck)
                        hold_d = hold_q;   // deliberately broken: a good frame does not clear hold
                    else
`endif
                    hold_d = 1'b0;
                end
                if (good_fr || !hold_q) begin
                    st_d = S_TURN;
`ifdef SANFAB_MUTANTS
                    if (mut_turn_short)
                        w_d = (TURN4 == 4'd0) ? 4'd0 : TURN4 - 4'd1;   // deliberately broken: replies a step early
                    else
`endif
                    w_d = TURN4;
                end
            end else if (MASTER == 1 && TIMEOUT != 0) begin
                sil_d = sil_q + 16'd1;
                if (sil_q >= TO_M1
`ifdef SANFAB_MUTANTS
                    && !(mut_timeout_late && sil_q == TO_M1)   // deliberately broken: the master times out a step late
`endif
                    ) begin
                    inc[C_TIMEOUT] = 5'd1;
                    good_d = 1'b0;
                    st_d = S_TURN;
                    w_d = TURN4;
                end
            end
        end

        // rule 7: host actions
        if (do_wr) begin
            txw_we[h_wch] = 1'b1;
            wr_d[h_wch] = wr_q[h_wch] + 1'b1;
            if (wr_q[h_wch][2:0] == 3'd0)
                tw0_d[h_wch] = h_wdata;
            if (wr_q[h_wch][2:0] == 3'd7)
                tps_d[h_wch] = tpn_q[h_wch];
        end else if (h_wr) begin
            inc[C_WR_OVER] = 5'd1;
        end
        if (do_rd) begin
            rxr_re[h_rch] = 1'b1;
            rvalid_d = 1'b1;
            rch_d = h_rch;
            rd_d[h_rch] = rd_q[h_rch] + 1'b1;
        end else if (h_rd) begin
            inc[C_RD_UNDER] = 5'd1;
        end

        // rule 8: configuration write
        if (reg_wr && reg_addr == 5'd16)
            cfg_d = reg_wdata[2:0];

        // rule 6's tests on the state after this step
        ru = rn_d - 9'd4;
        uok_d = ({1'b0, ru[8:5]} < {1'b0, rnp_d}) && ({1'b0, ru[8:5]} < {1'b0, cadv_d[rflags_d[0]]});
        jlen_d = (rn_d != 9'd8 + {rnp_d, 5'd0});
        jchk_d = (rs_d != 16'd0);
`ifdef SANFAB_MUTANTS
        if (mut_credit_ge)
            jcr_d  = (rnp_d >= cadv_d[rflags_d[0]]);   // deliberately broken: a frame using all the credit granted is refused
        else
`endif
        jcr_d  = (rnp_d > cadv_d[rflags_d[0]]);
`ifdef SANFAB_MUTANTS
        if (mut_dup_null)
            jdup_d = (rflags_d[1] == emine_d);   // deliberately broken: null frames are judged duplicates too
        else
`endif
        jdup_d = (rnp_d != 4'd0) && (rflags_d[1] == emine_d);
        jgood_d = !(jlen_d || jchk_d || jcr_d || jdup_d);
        ackpre_d = jgood_d && oval_d && (rflags_d[2] == ot_d);
        accpre_d = jgood_d && (rnp_d != 4'd0);

        // status after this step
        for (c = 0; c < 2; c = c + 1) begin
            pend_d[c] = ((judging && ackpre_q && och_q == (c == 1)) ? pmo_q[c] : pend_q[c]) +
                        {{(UCW-1){1'b0}}, do_wr && h_wch == (c == 1) && wr_q[c][2:0] == 3'd7};
            occ_d[c] = ((judging && accpre_q && rflags_q[0] == (c == 1)) ? occp_q[c] : occ_q[c]) -
                       {{(UCW-1){1'b0}}, do_rd && h_rch == (c == 1) && rd_q[c][2:0] == 3'd7};
            pmo_d[c] = pend_d[c] - {{(UCW-4){1'b0}}, onp_d};
            occp_d[c] = occ_d[c] + {{(UCW-4){1'b0}}, rnp_d};
            space_d[c] = {{(13-WCW){1'b0}}, CAPW_W - {pend_d[c], wr_d[c][2:0]}} << 1;
            // words available: max(0, 8 (occ - L) - rd[2:0]) with L (units of the unfinished
            // message) only in message-based mode; u = occ - L >= 1 exactly when it is not 0
            usig = {1'b0, occ_d[c]} - (cfg_d[0] ? {1'b0, rps_d[c][UCW-1:0]} : {(UCW+1){1'b0}});
            upos[c] = !usig[UCW] && (usig[UCW-1:0] != {UCW{1'b0}});
            uw = {usig[UCW-1:0] - {{(UCW-1){1'b0}}, rd_d[c][2:0] != 3'd0}, 3'd0 - rd_d[c][2:0]};
`ifdef SANFAB_MUTANTS
            if (mut_avail_top)
                avail_d[c] = upos[c] ? (({{(13-WCW){1'b0}}, uw} << 1) & ~FIFO_BYTES[12:0]) : 13'd0;   // deliberately broken: the status bit of FIFO_BYTES stuck at 0
            else
`endif
            avail_d[c] = upos[c] ? ({{(13-WCW){1'b0}}, uw} << 1) : 13'd0;
            // rule 4's inputs for the next step
            pend = pend_d[c];
            // min(15, CAPU - occ): CAPU is a multiple of 16, so the low bits are those of -occ
`ifdef SANFAB_MUTANTS
            if (mut_credit_plus1)
                rcr_d[c] = (occ_d[c] < CAPU_U - {{(UCW-4){1'b0}}, 4'd15}) ? 4'd15 : (4'd1 - occ_d[c][3:0]);   // deliberately broken: the credit grants one unit more than is free
            else if (mut_credit_clamp)
                rcr_d[c] = ((occ_d[c] < CAPU_U - {{(UCW-4){1'b0}}, 4'd15}) && (occ_d[c] != CAPU_U - {{(UCW-5){1'b0}}, 5'd16})) ? 4'd15 : (4'd0 - occ_d[c][3:0]);   // deliberately broken: the clamp at 15 misses 16 free units (credit 0)
            else
`endif
            rcr_d[c] = (occ_d[c] < CAPU_U - {{(UCW-4){1'b0}}, 4'd15}) ? 4'd15 : (4'd0 - occ_d[c][3:0]);
            msg_s = {1'b0, pend} - {1'b0, tps_d[c][UCW-1:0]};
            snd = cfg_d[0] ? (msg_s[UCW] ? {(UCW+1){1'b0}} : msg_s) : {1'b0, pend};
            sn = (snd > {{(UCW-3){1'b0}}, 4'd15}) ? 4'd15 : snd[3:0];
            nq_d[c] = min4(sn, min4(cap_of(cfg_d[2:1]), crx_d[c]));
        end
    end

    // ------------------------------------------------------------------ registers
    integer r;   // loop index of the clocked block (c and k belong to the step's comb block)

    always @(posedge clk) begin
        if (rst) begin
            st_q <= (MASTER == 1) ? S_TURN : S_LISTEN;
            w_q <= TURN4;
            ti_q <= 9'd0; tnp_q <= 4'd0; tflags_q <= 4'd0; tcrc_q <= 16'hFFFF;
            rin_q <= 1'b0; rn_q <= 9'd0; rs_q <= 16'hFFFF; rnp_q <= 4'd0; rflags_q <= 4'd0;
            rcr0_q <= 4'd0; rcr1_q <= 4'd0; rword_q <= 12'd0; sil_q <= 16'd0;
            gd_q <= GUARD8; early_q <= 1'b0;
            good_q <= 1'b0; oval_q <= 1'b0; och_q <= 1'b0; ot_q <= 1'b0; tack_q <= 1'b0;
            emine_q <= 1'b0; rr_q <= 1'b0; hold_q <= 1'b0; onp_q <= 4'd0; cfg_q <= 3'd0;
            xps_q <= {PSW{1'b0}}; f_word_q <= 16'd0; tra_q <= {WAW{1'b0}}; trem_q <= 7'd0;
            xwv_q <= 1'b0; xw_q <= 16'd0; uok_q <= 1'b0;
            jlen_q <= 1'b1; jchk_q <= 1'b1; jcr_q <= 1'b0; jdup_q <= 1'b0; jgood_q <= 1'b0;
            ackpre_q <= 1'b0; accpre_q <= 1'b0;
            tpsel_q <= 1'b0;
            tpa_ps_q <= {PSW{1'b0}}; tpa_w0_q <= 16'd0; tpa_ch_q <= 1'b0;
            for (r = 0; r < 2; r = r + 1) begin
                crx_q[r] <= 4'd0; cadv_q[r] <= 4'd0;
                wr_q[r] <= {WCW{1'b0}}; ack_q[r] <= {UCW{1'b0}};
                acc_q[r] <= {UCW{1'b0}}; rd_q[r] <= {WCW{1'b0}};
                tps_q[r] <= {PSW{1'b0}}; tw0_q[r] <= 16'd0; rps_q[r] <= {PSW{1'b0}};
                tpn_q[r] <= {PSW{1'b0}};
                space_q[r] <= FIFO_BYTES[12:0]; avail_q[r] <= 13'd0;
                nq_q[r] <= 4'd0; rcr_q[r] <= 4'd15;
                spnz_q[r] <= 1'b1; avnz_q[r] <= 1'b0;
                pend_q[r] <= {UCW{1'b0}}; pmo_q[r] <= {UCW{1'b0}};
                occ_q[r] <= {UCW{1'b0}}; occp_q[r] <= {UCW{1'b0}};
            end
            for (r = 0; r < NCTR; r = r + 1)
                ctr_q[r] <= {CTR_W{1'b0}};
            tx_en_q <= 1'b0; tx_d_q <= {LINK_W{1'b0}};
            rvalid_q <= 1'b0; rch_q <= 1'b0;
            reg_rvalid_q <= 1'b0; reg_rdata_q <= 32'd0;
        end else begin
            st_q <= st_d; w_q <= w_d; ti_q <= ti_d; tnp_q <= tnp_d; tflags_q <= tflags_d;
            tcrc_q <= tcrc_d;
            rin_q <= rin_d; rn_q <= rn_d; rs_q <= rs_d; rnp_q <= rnp_d; rflags_q <= rflags_d;
            rcr0_q <= rcr0_d; rcr1_q <= rcr1_d; rword_q <= rword_d; sil_q <= sil_d;
            gd_q <= gd_d; early_q <= early_d;
            good_q <= good_d; oval_q <= oval_d; och_q <= och_d; ot_q <= ot_d; tack_q <= tack_d;
            emine_q <= emine_d; rr_q <= rr_d; hold_q <= hold_d; onp_q <= onp_d; cfg_q <= cfg_d;
            xps_q <= xps_d; f_word_q <= f_word_d; tra_q <= tra_d; trem_q <= trem_d;
            xwv_q <= xwv_d; xw_q <= xw_d; uok_q <= uok_d;
            jlen_q <= jlen_d; jchk_q <= jchk_d; jcr_q <= jcr_d; jdup_q <= jdup_d; jgood_q <= jgood_d;
            ackpre_q <= ackpre_d; accpre_q <= accpre_d;
            tpsel_q <= ~tpsel_q;
            tpa_ps_q <= tps_q[tpsel_q];
            tpa_w0_q <= tw0_q[tpsel_q];
            tpa_ch_q <= tpsel_q;
            tpn_q[tpa_ch_q] <= parse(tpa_ps_q, tpa_w0_q);
            for (r = 0; r < 2; r = r + 1) begin
                crx_q[r] <= crx_d[r]; cadv_q[r] <= cadv_d[r];
                wr_q[r] <= wr_d[r]; ack_q[r] <= ack_d[r]; acc_q[r] <= acc_d[r]; rd_q[r] <= rd_d[r];
                tps_q[r] <= tps_d[r]; tw0_q[r] <= tw0_d[r]; rps_q[r] <= rps_d[r];
                space_q[r] <= space_d[r]; avail_q[r] <= avail_d[r];
                nq_q[r] <= nq_d[r]; rcr_q[r] <= rcr_d[r];
                spnz_q[r] <= ({pend_d[r], wr_d[r][2:0]} != CAPW_W); avnz_q[r] <= upos[r];
                pend_q[r] <= pend_d[r]; pmo_q[r] <= pmo_d[r];
                occ_q[r] <= occ_d[r]; occp_q[r] <= occp_d[r];
            end
            for (r = 0; r < NCTR; r = r + 1)
`ifdef SANFAB_MUTANTS
                if (mut_ctr_sat)
                    ctr_q[r] <= (&ctr_q[r]) ? ctr_q[r] : ctr_q[r] + {{(CTR_W-5){1'b0}}, inc[r]};   // deliberately broken: counters stop at 2^CTR_W - 1 instead of wrapping
                else if (mut_ctr_top)
                    ctr_q[r] <= {ctr_q[r][CTR_W-1], ctr_q[r][CTR_W-2:0] + {{(CTR_W-6){1'b0}}, inc[r]}};   // deliberately broken: the carry into the top bit is lost
                else
`endif
                ctr_q[r] <= ctr_q[r] + {{(CTR_W-5){1'b0}}, inc[r]};
            tx_en_q <= tx_en_d; tx_d_q <= tx_d_d;
            rvalid_q <= rvalid_d; rch_q <= rch_d;
            reg_rvalid_q <= reg_rvalid_d; reg_rdata_q <= reg_rdata_d;
        end
    end

    // ------------------------------------------------------------------ FIFO RAMs
    // sdp_ram has no read-during-write bypass, and needs none here: the MLC never reads a word in
    // the step it writes it (send FIFO: the host writes at wr, the link reads complete units below
    // it; receive FIFO: the link writes at most cadv units beyond acc, which the credit keeps clear
    // of the word the host reads at rd).
    generate
        for (gc = 0; gc < 2; gc = gc + 1) begin : g_ram
            sdp_ram #(.AW(WAW), .DW(16)) u_tx (
                .clk(clk), .we(txw_we[gc]), .waddr(wr_q[gc][WAW-1:0]), .wdata(h_wdata),
                .re(txr_re && (txr_ch == (gc == 1))), .raddr(txr_addr), .rdata(txr_data[gc]));
            sdp_ram #(.AW(WAW), .DW(16)) u_rx (
                .clk(clk), .we(rxw_we[gc]), .waddr(rxw_addr), .wdata(rxw_data),
                .re(rxr_re[gc]), .raddr(rd_q[gc][WAW-1:0]), .rdata(rxr_data[gc]));
        end
    endgenerate

    // ------------------------------------------------------------------ outputs
    assign tx_en        = tx_en_q;
    assign tx_d         = tx_d_q;
    assign h_rvalid     = rvalid_q;
    assign h_rdata      = rvalid_q ? rxr_data[rch_q] : 16'd0;   // the RAM's read register, gated
    assign st_tx_space0 = space_q[0];
    assign st_tx_space1 = space_q[1];
    assign st_rx_avail0 = avail_q[0];
    assign st_rx_avail1 = avail_q[1];
    assign reg_rvalid   = reg_rvalid_q;
    assign reg_rdata    = reg_rdata_q;

`ifdef SANFAB_MUTANTS
    // the mutant-capable build: a +mutant=NAME that names no mutation site stops the simulation
    // (rtl/common/sanfab_mutant_check.v)
    sanfab_mutant_check u_mutant_check ();
`endif

endmodule

`default_nettype wire
