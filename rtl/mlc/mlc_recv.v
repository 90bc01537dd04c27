// sanfab — Maestro Link Controller: receiving a frame and judging it (docs/mlc.md, rule 2
// "Receiving", rule 6 "Judging a frame, credits, acknowledgement and recovery").
//
// In LISTEN it takes the frame's nibbles: NP, FLAGS, the two credits, the unit words (written into
// the receive FIFO at acc + offset as they arrive, while they are within NP and the credit this end
// granted) and the check; the receive parser runs on the units tentatively. Rule 6's four tests
// (length, check, credit, duplicate) on the frame received so far are registered from the next
// state, so the judging step reads them ready: a good frame takes the credits received (crx),
// acknowledges the outstanding frame (tack) or has it resent, accepts its units (acc, E_mine) and
// commits the parser; every frame sets `good`.
`default_nettype none

module mlc_recv #(
    parameter LINK_W     = 4,
    parameter FIFO_BYTES = 2048
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [LINK_W-1:0] rx_d,
    // the step (mlc_link, mlc_send)
    input  wire              receiving,      // a symbol of a frame comes in
    input  wire              judge_step,     // the frame ended: judge it
    input  wire              frame_last,     // this end sends its frame's last symbol
    input  wire              timeout_fire,   // the master times out
    // the outstanding frame and the credits granted (mlc_send), now and after this step
    input  wire              out_valid_q,
    input  wire              out_t_q,
    input  wire [3:0]        out_np_q,
    input  wire              out_valid_d,
    input  wire              out_t_d,
    input  wire [7:0]        cadv_d,
    output reg               in_frame_q,     // LISTEN: in a frame
    output reg  [3:0]        rx_np_q,        // the NP of the frame being received
    output reg  [3:0]        rx_np_d,
    output wire              rx_ch_q,        // its channel (FLAGS bit 0)
    output reg               good_q,         // rule 4: the last frame received was good
    output reg               tack_q,         // the toggle of the last acknowledged frame
    output reg               e_mine_q,       // the toggle of the last accepted data frame (E_mine)
    output wire [7:0]        crx_q,          // {c1, c0}: the credits received
    output wire [7:0]        crx_d,
    output reg               frame_ok_q,     // rule 6: the frame so far passes the four tests
    output reg               ack_if_ok_q,    // and ending now it would acknowledge the outstanding units
    output reg               accept_if_ok_q, // and accept units
    output reg  [$clog2(FIFO_BYTES/2)-2:0] msg_acc_step_q,    // NP - L' + L of channel rx_ch: what accepting the frame adds to occ - L
    // the judgement of this step
    output wire              frame_good,     // a good frame
    output wire              ack_en,         // it acknowledges the outstanding frame's units
    output wire              acc_en,         // it accepts units into receive FIFO acc_ch
    output wire              acc_ch,
    // the receive FIFOs (mlc_hostq): write a unit word at acc + fifo_woff
    output reg  [1:0]        fifo_we,
    output wire              fifo_wch,       // the channel of the frame (FLAGS bit 0 as received)
    output reg  [6:0]        fifo_woff,
    output reg  [15:0]       fifo_wdata,
    // counters
    output wire              ev_rx_frame,
    output wire              ev_rx_null,
    output wire [3:0]        ev_rx_units,
    output wire              ev_err_len,
    output wire              ev_err_check,
    output wire              ev_err_credit,
    output wire              ev_dup,
    output wire [3:0]        ev_retx_units
);

    localparam NPS  = LINK_W / 4;        // nibbles per symbol
    localparam CAPU = FIFO_BYTES / 16;   // FIFO capacity, units
    localparam WAW  = $clog2(FIFO_BYTES / 2);   // word address bits
    localparam UCW  = WAW - 2;           // unit counts (modulo 2 * CAPU)
    localparam PSW  = 17 + UCW;          // message parser state

`ifdef SANFAB_MUTANTS
    wire mut_crc_init, mut_retx_ack, mut_echo_stuck, mut_credit_ge, mut_dup_null, mut_chk_credit;
    sanfab_mutant #(.NAME("CRC_INIT"))     u_mut_crc_init     (.on(mut_crc_init));
    sanfab_mutant #(.NAME("RETX_ACK"))     u_mut_retx_ack     (.on(mut_retx_ack));
    sanfab_mutant #(.NAME("ECHO_STUCK"))   u_mut_echo_stuck   (.on(mut_echo_stuck));
    sanfab_mutant #(.NAME("CREDIT_GE"))    u_mut_credit_ge    (.on(mut_credit_ge));
    sanfab_mutant #(.NAME("DUP_NULL"))     u_mut_dup_null     (.on(mut_dup_null));
    sanfab_mutant #(.NAME("CHK_CREDIT"))   u_mut_chk_credit   (.on(mut_chk_credit));
`endif

    // ------------------------------------------------------------------ state
    reg           in_frame_d;
    reg [8:0]     rx_nibbles_q, rx_nibbles_d;   // nibbles received (saturating above 488)
    reg [15:0]    rx_crc_q, rx_crc_d;           // check state
    reg [3:0]     rx_flags_q, rx_flags_d;
    reg [3:0]     rx_cr0_q, rx_cr0_d, rx_cr1_q, rx_cr1_d;
    reg [11:0]    rx_word_q, rx_word_d;         // nibbles 0..2 of the word being received
    reg           good_d, tack_d, e_mine_d;
    reg [3:0]     crx_ch_q [0:1];
    reg [3:0]     crx_ch_d [0:1];
    // the receive parsers: committed per channel, and the tentative one over the frame being
    // received, which runs a step after the first word of a unit arrives (rp_word0_valid_q,
    // rp_word0_q): the judgement that commits it comes at least 11 nibbles later
    reg [PSW-1:0] rp_state_q [0:1];
    reg [PSW-1:0] rp_state_d [0:1];
    reg [PSW-1:0] rp_tent_q, rp_tent_d;
    reg           rp_word0_valid_q, rp_word0_valid_d;
    reg [15:0]    rp_word0_q, rp_word0_d;
    wire [PSW-1:0] rp_tent_parsed;
    // the unit of the nibble at rx_nibbles_q is within NP and the credit granted (registered from the
    // next state)
    reg           unit_ok_q, unit_ok_d;
    // rule 6's four tests (1 = the test fails): length, check, credit, duplicate
    reg           bad_len_q, bad_len_d, bad_check_q, bad_check_d, bad_credit_q, bad_credit_d, dup_q, dup_d;
    reg           frame_ok_d, ack_if_ok_d, accept_if_ok_d;

    wire [3:0]    cadv_d_ch [0:1];
    assign cadv_d_ch[0] = cadv_d[3:0];
    assign cadv_d_ch[1] = cadv_d[7:4];
    assign crx_q = {crx_ch_q[1], crx_ch_q[0]};
    assign crx_d = {crx_ch_d[1], crx_ch_d[0]};
    assign rx_ch_q = rx_flags_q[0];
    assign fifo_wch = rx_flags_d[0];

    mlc_msg_parse #(.UCW(UCW), .CAPU(CAPU)) u_rp_parse (
        .state_in(rp_tent_q), .word0(rp_word0_q), .state_out(rp_tent_parsed));

    // ------------------------------------------------------------------ CRC over the symbol's nibbles
    wire [15:0] rcrc_a, rcrc_b;
    wire [15:0] rcrc_in =
`ifdef SANFAB_MUTANTS
                          (mut_crc_init && !in_frame_q) ? 16'h0000 :   // deliberately broken: the receiver starts the check at 0, not 0xFFFF
`endif
                          in_frame_q ? rx_crc_q : 16'hFFFF;
    crc16 u_rcrc_a (.crc_in(rcrc_in), .nib(rx_d[3:0]), .crc_out(rcrc_a));
    generate
        if (NPS == 2) begin : g_rcrc8
            crc16 u_rcrc_b (.crc_in(rcrc_a), .nib(rx_d[LINK_W-1:LINK_W-4]), .crc_out(rcrc_b));
        end else begin : g_rcrc4
            assign rcrc_b = rcrc_a;
        end
    endgenerate

    // ------------------------------------------------------------------ rule 6: the judgement
    wire judge_bad = judge_step && !frame_ok_q;
    assign frame_good   = judge_step && frame_ok_q;
    // the outstanding frame is acknowledged when the frame's E is its toggle, else to be resent
    wire ack_match =
`ifdef SANFAB_MUTANTS
                     mut_retx_ack ||   // deliberately broken: a lost data frame counts as acknowledged
`endif
                     (rx_flags_q[2] == out_t_q);
    assign ack_en        = frame_good && out_valid_q && ack_match;
    assign ev_retx_units = (frame_good && out_valid_q && !ack_match) ? out_np_q : 4'd0;
    assign acc_en        = frame_good && (rx_np_q != 4'd0);
    assign acc_ch        = rx_flags_q[0];
    assign ev_rx_frame   = frame_good;
    assign ev_rx_null    = frame_good && (rx_np_q == 4'd0);
    assign ev_rx_units   = acc_en ? rx_np_q : 4'd0;
    // a bad frame counts the first failing test
    assign ev_err_len    = judge_bad && bad_len_q;
`ifdef SANFAB_MUTANTS
    wire   chk_as_credit = mut_chk_credit && bad_credit_q;   // deliberately broken: a frame failing both the check and the credit test counts as a credit error
`else
    wire   chk_as_credit = 1'b0;
`endif
    assign ev_err_check  = judge_bad && !bad_len_q && !chk_as_credit && bad_check_q;
    assign ev_err_credit = judge_bad && !bad_len_q && (chk_as_credit || (!bad_check_q && bad_credit_q));
    assign ev_dup        = judge_bad && !bad_len_q && !chk_as_credit && !bad_check_q && !bad_credit_q && dup_q;

    // ------------------------------------------------------------------ the step
    integer   c, k;
    reg [8:0] p, rel;
    reg [3:0] x;

    always @* begin
        in_frame_d = in_frame_q; rx_nibbles_d = rx_nibbles_q; rx_crc_d = rx_crc_q;
        rx_np_d = rx_np_q; rx_flags_d = rx_flags_q; rx_cr0_d = rx_cr0_q; rx_cr1_d = rx_cr1_q;
        rx_word_d = rx_word_q;
        good_d = good_q; tack_d = tack_q; e_mine_d = e_mine_q;
        rp_tent_d = rp_word0_valid_q ? rp_tent_parsed : rp_tent_q;
        rp_word0_valid_d = 1'b0; rp_word0_d = rp_word0_q;
        for (c = 0; c < 2; c = c + 1) begin
            crx_ch_d[c] = crx_ch_q[c]; rp_state_d[c] = rp_state_q[c];
        end
        fifo_we = 2'b00; fifo_woff = 7'd0; fifo_wdata = 16'd0;
        p = 9'd0; rel = 9'd0; x = 4'd0;
        k = 0;

        if (frame_last)
            in_frame_d = 1'b0;
        if (receiving) begin
            // rule 2: a symbol of the frame
            in_frame_d = 1'b1;
            rx_crc_d = rcrc_b;
            for (k = 0; k < NPS; k = k + 1) begin
                p = (in_frame_q ? rx_nibbles_q : 9'd0) + k[8:0];
                x = rx_d[4*k +: 4];
                if (p == 9'd0)
                    rx_np_d = x;
                if (p == 9'd1) begin
                    rx_flags_d = x;
                    rp_tent_d = rp_state_q[x[0]];
                end
                if (p == 9'd2)
                    rx_cr0_d = x;
                if (p == 9'd3)
                    rx_cr1_d = x;
                if (p >= 9'd4 && p < 9'd484) begin
                    rel = p - 9'd4;
                    if (rel[1:0] != 2'b11) begin
                        rx_word_d[{rel[1:0], 2'b00} +: 4] = x;
                    end else if (unit_ok_q) begin
                        // a whole word of a unit within NP and the credit granted
                        fifo_we[rx_flags_d[0]] = 1'b1;
                        fifo_woff = rel[8:2];
                        fifo_wdata = {x, rx_word_d[11:0]};
                        if (rel[4:2] == 3'd0) begin
                            rp_word0_valid_d = 1'b1;
                            rp_word0_d = {x, rx_word_d[11:0]};
                        end
                    end
                end
            end
            p = (in_frame_q ? rx_nibbles_q : 9'd0);
            rx_nibbles_d = (p > 9'd488) ? p : p + NPS[8:0];
        end else if (judge_step) begin
            // rule 6: judge the frame that ended in this step
            in_frame_d = 1'b0;
            if (!frame_ok_q) begin
                good_d = 1'b0;
            end else begin
                crx_ch_d[0] = rx_cr0_q;
                crx_ch_d[1] = rx_cr1_q;
                if (ack_en)
                    tack_d = out_t_q;
                if (acc_en) begin
                    rp_state_d[rx_flags_q[0]] = rp_tent_q;
`ifdef SANFAB_MUTANTS
                    if (mut_echo_stuck)
                        e_mine_d = e_mine_q;   // deliberately broken: the echo does not follow accepted frames
                    else
`endif
                    e_mine_d = rx_flags_q[1];
                end
                good_d = 1'b1;
            end
        end
        if (timeout_fire)
            good_d = 1'b0;
    end

    // rule 6's tests on the state after this step
    reg [8:0] ru;
    always @* begin
        ru = rx_nibbles_d - 9'd4;
        unit_ok_d = ({1'b0, ru[8:5]} < {1'b0, rx_np_d}) && ({1'b0, ru[8:5]} < {1'b0, cadv_d_ch[rx_flags_d[0]]});
        bad_len_d = (rx_nibbles_d != 9'd8 + {rx_np_d, 5'd0});
        bad_check_d = (rx_crc_d != 16'd0);
`ifdef SANFAB_MUTANTS
        if (mut_credit_ge)
            bad_credit_d = (rx_np_d >= cadv_d_ch[rx_flags_d[0]]);   // deliberately broken: a frame using all the credit granted is refused
        else
`endif
        bad_credit_d = (rx_np_d > cadv_d_ch[rx_flags_d[0]]);
`ifdef SANFAB_MUTANTS
        if (mut_dup_null)
            dup_d = (rx_flags_d[1] == e_mine_d);   // deliberately broken: null frames are judged duplicates too
        else
`endif
        dup_d = (rx_np_d != 4'd0) && (rx_flags_d[1] == e_mine_d);
        frame_ok_d = !(bad_len_d || bad_check_d || bad_credit_d || dup_d);
        ack_if_ok_d = frame_ok_d && out_valid_d && (rx_flags_d[2] == out_t_d);
        accept_if_ok_d = frame_ok_d && (rx_np_d != 4'd0);
    end
    wire unused_ok = &{1'b0, ru[4:0]};

    // ------------------------------------------------------------------ registers
    integer r;

    always @(posedge clk) begin
        if (rst) begin
            in_frame_q <= 1'b0; rx_nibbles_q <= 9'd0; rx_crc_q <= 16'hFFFF; rx_np_q <= 4'd0;
            rx_flags_q <= 4'd0; rx_cr0_q <= 4'd0; rx_cr1_q <= 4'd0; rx_word_q <= 12'd0;
            good_q <= 1'b0; tack_q <= 1'b0; e_mine_q <= 1'b0;
            msg_acc_step_q <= {(UCW+1){1'b0}};
            rp_tent_q <= {PSW{1'b0}}; rp_word0_valid_q <= 1'b0; rp_word0_q <= 16'd0; unit_ok_q <= 1'b0;
            bad_len_q <= 1'b1; bad_check_q <= 1'b1; bad_credit_q <= 1'b0; dup_q <= 1'b0; frame_ok_q <= 1'b0;
            ack_if_ok_q <= 1'b0; accept_if_ok_q <= 1'b0;
            for (r = 0; r < 2; r = r + 1) begin
                crx_ch_q[r] <= 4'd0; rp_state_q[r] <= {PSW{1'b0}};
            end
        end else begin
            in_frame_q <= in_frame_d; rx_nibbles_q <= rx_nibbles_d; rx_crc_q <= rx_crc_d; rx_np_q <= rx_np_d;
            rx_flags_q <= rx_flags_d; rx_cr0_q <= rx_cr0_d; rx_cr1_q <= rx_cr1_d; rx_word_q <= rx_word_d;
            good_q <= good_d; tack_q <= tack_d; e_mine_q <= e_mine_d;
            // registered from the registers: NP, the tentative parse and L of the frame's channel hold
            // still in the steps before its judgement (the last unit's word 0 comes 8 words before the end)
            msg_acc_step_q <= {{(UCW-3){1'b0}}, rx_np_q} - {1'b0, rp_tent_q[UCW-1:0]} + {1'b0, rp_state_q[rx_ch_q][UCW-1:0]};
            rp_tent_q <= rp_tent_d; rp_word0_valid_q <= rp_word0_valid_d; rp_word0_q <= rp_word0_d;
            unit_ok_q <= unit_ok_d;
            bad_len_q <= bad_len_d; bad_check_q <= bad_check_d; bad_credit_q <= bad_credit_d; dup_q <= dup_d;
            frame_ok_q <= frame_ok_d;
            ack_if_ok_q <= ack_if_ok_d; accept_if_ok_q <= accept_if_ok_d;
            for (r = 0; r < 2; r = r + 1) begin
                crx_ch_q[r] <= crx_ch_d[r]; rp_state_q[r] <= rp_state_d[r];
            end
        end
    end

endmodule

`default_nettype wire
