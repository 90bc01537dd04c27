// sanfab — Maestro Link Controller: building and sending a frame, the transfer modes and the send
// parser (docs/mlc.md, rule 4 "Building a frame", rule 5 "Transfer modes").
//
// In the building step (TURN, w = 0) it picks a channel round-robin from what each channel could
// send (registered a step ahead: min(cap, min(15, sendable units), crx), rule 4's inputs), remembers
// the outstanding frame (oval, och, onp, oT) and the credits it grants (cadv), and sends the frame's
// first symbol; the other steps send NP, FLAGS, the credits, the unit words (read from the send FIFO
// at ack + offset, one word ahead of the nibble that needs it) and the CRC-16. The send parser (one per
// send FIFO, shared in two stages) follows the host's writes for rule 5's message-based mode.
`default_nettype none

module mlc_send #(
    parameter LINK_W     = 4,
    parameter FIFO_BYTES = 2048
) (
    input  wire              clk,
    input  wire              rst,
    // the step (mlc_link)
    input  wire              building,
    input  wire              sending,
    // the receive side's state (mlc_recv): good, tack, E_mine; a good frame judged in this step
    input  wire              good_q,
    input  wire              tack_q,
    input  wire              e_mine_q,
    input  wire              frame_good,
    input  wire [7:0]        crx_d,          // {c1, c0}: the credits received, after this step
    // the FIFOs (mlc_hostq)
    input  wire [7:0]        rx_credit_q,    // {c1, c0}: min(15, free units of receive FIFO c)
    input  wire [2*($clog2(FIFO_BYTES/2) - 2)-1:0] tx_ack_q,    // {c1, c0}: units acknowledged
    input  wire [2*($clog2(FIFO_BYTES/2) - 2)-1:0] tx_npend_q,  // {c1, c0}: units pending
    input  wire [2*($clog2(FIFO_BYTES/2) - 2)-1:0] tx_npend_ack_q, // {c1, c0}: units pending after an acknowledgement
    input  wire [1:0]        tx_ack_take,    // {c1, c0}: this step's judgement acknowledges send FIFO c's units
    input  wire [31:0]       fifo_rdata,     // {c1, c0}: the send FIFOs' read registers
    output reg               fifo_re,        // read send FIFO fifo_rch at fifo_raddr
    output reg               fifo_rch,
    output reg  [$clog2(FIFO_BYTES/2)-1:0] fifo_raddr,
    // host writes into the send FIFOs (rule 7, mlc_hostq): word 0 and word 7 of a unit
    input  wire              h_wch,
    input  wire [15:0]       h_wdata,
    input  wire              wr_word0,
    input  wire              wr_word7,
    // the configuration (mlc_regs), after this step
    input  wire [2:0]        cfg_d,
    // the outstanding frame (rule 6 judges its acknowledgement)
    output reg               out_valid_q,
    output reg               out_ch_q,
    output reg  [3:0]        out_np_q,
    output reg               out_t_q,
    output reg               out_valid_d,
    output reg  [3:0]        out_np_d,
    output reg               out_t_d,
    output wire [7:0]        cadv_d,         // {c1, c0}: the credits granted (cadv), after this step
    // the link
    output wire              frame_last,     // this step sends the frame's last symbol
    output reg               tx_en_q,
    output reg  [LINK_W-1:0] tx_d_q,
    // counters tx_frames, tx_null, tx_pkts
    output wire              ev_tx_frame,
    output wire              ev_tx_null,
    output wire [3:0]        ev_tx_units
);

    localparam NPS  = LINK_W / 4;        // nibbles per symbol
    localparam CAPU = FIFO_BYTES / 16;   // FIFO capacity, units
    localparam WAW  = $clog2(FIFO_BYTES / 2);   // word address bits
    localparam UCW  = WAW - 2;           // unit counts (modulo 2 * CAPU)
    localparam PSW  = 17 + UCW;          // message parser state
    localparam [1:0] TI_LD = (NPS == 2) ? 2'd2 : 2'd3;   // nib_idx[1:0] of a step that registers a word
    localparam [1:0] TI_RD = (NPS == 2) ? 2'd0 : 2'd2;   // nib_idx[1:0] of a step that reads one

`ifdef SANFAB_MUTANTS
    wire mut_sp_cap, mut_toggle_same, mut_frame_long;
    sanfab_mutant #(.NAME("SP_CAP"))       u_mut_sp_cap       (.on(mut_sp_cap));
    sanfab_mutant #(.NAME("TOGGLE_SAME"))  u_mut_toggle_same  (.on(mut_toggle_same));
    sanfab_mutant #(.NAME("FRAME_LONG"))   u_mut_frame_long   (.on(mut_frame_long));
`endif

    // ------------------------------------------------------------------ state
    reg [8:0]     nib_idx_q, nib_idx_d;           // next nibble of the frame being sent
    reg [3:0]     frame_np_q, frame_np_d;         // its NP
    reg [3:0]     frame_flags_q, frame_flags_d;   // its FLAGS
    reg [15:0]    frame_crc_q, frame_crc_d;       // check over the nibbles sent so far (0xFFFF between frames)
    reg [15:0]    unit_word_q, unit_word_d;       // the unit word being sent (registered from the FIFO read)
    reg [WAW-1:0] fifo_raddr_q, fifo_raddr_d;     // send FIFO address of the next unit word to read
    reg [6:0]     fifo_rleft_q, fifo_rleft_d;     // unit words of the frame still to read
    reg           out_ch_d;
    reg           rr_q, rr_d;                     // rule 4: the channel asked first (round robin)
    reg [3:0]     cadv_ch_q [0:1];
    reg [3:0]     cadv_ch_d [0:1];
    // rule 4's inputs, registered from the next state: send_units_q[c] = min(cap, min(15, sendable
    // units of c), crx[c]), what channel c would send in a frame built now
    reg [3:0]     send_units_q [0:1];
    reg [3:0]     send_units_d [0:1];
    // the send parser per channel: its state over the complete units written, the first word of
    // the unit being written; its step over that unit computed ahead in two stages: every other step
    // one channel's state and word 0 (sp_sel_q) are copied into sp_copy_*, and the next step parses
    // them into sp_next_q. Word 7 of a unit comes at least 7 steps after its word 0 and sp_state_q[c]
    // changes only at word 7, so at word 7 sp_next_q[c] holds the parse of a copy made after word 0.
    reg [PSW-1:0] sp_state_q [0:1];
    reg [PSW-1:0] sp_state_d [0:1];
    reg [15:0]    sp_word0_q [0:1];
    reg [15:0]    sp_word0_d [0:1];
    reg [PSW-1:0] sp_next_q [0:1];
    reg           sp_sel_q;
    reg [PSW-1:0] sp_copy_state_q;
    reg [15:0]    sp_copy_word0_q;
    reg           sp_copy_ch_q;
    wire [PSW-1:0] sp_copy_parsed;
    // rule 5's message-based sendable units kept as registers changed by small steps, as pend is
    // (mlc_hostq): msg_q[c] = pend[c] - L[c] (UCW+1 bits, signed), msg_ack_q[c] the value an
    // acknowledgement of the outstanding frame would give, and msg_w7_q[c] = 1 + L[c] - L' what the
    // host's word 7 adds (pend + 1, L -> L' = sp_next_q[c]), registered from sp_state_q/sp_next_q a
    // step ahead (both hold still from 3 steps after word 0 to word 7, at least 7 steps later)
    reg [UCW:0]   msg_q [0:1];
    reg [UCW:0]   msg_d [0:1];
    reg [UCW:0]   msg_ack_q [0:1];
    reg [UCW:0]   msg_ack_d [0:1];
    reg [UCW:0]   msg_w7_q [0:1];
    reg           tx_en_d;
    reg [LINK_W-1:0] tx_d_d;

    wire [15:0]   fifo_rdata_ch [0:1];
    wire [UCW-1:0] ack_ch [0:1];
    wire [UCW-1:0] pend_ch [0:1];
    wire [UCW-1:0] pend_ack_ch [0:1];
    wire [3:0]    crx_d_ch [0:1];
    wire [3:0]    rx_credit_ch [0:1];
    assign fifo_rdata_ch[0] = fifo_rdata[15:0];   assign fifo_rdata_ch[1] = fifo_rdata[31:16];
    assign ack_ch[0]        = tx_ack_q[UCW-1:0];  assign ack_ch[1]        = tx_ack_q[2*UCW-1:UCW];
    assign pend_ch[0]       = tx_npend_q[UCW-1:0]; assign pend_ch[1]      = tx_npend_q[2*UCW-1:UCW];
    assign pend_ack_ch[0]   = tx_npend_ack_q[UCW-1:0]; assign pend_ack_ch[1] = tx_npend_ack_q[2*UCW-1:UCW];
    assign crx_d_ch[0]      = crx_d[3:0];         assign crx_d_ch[1]      = crx_d[7:4];
    assign rx_credit_ch[0]  = rx_credit_q[3:0];   assign rx_credit_ch[1]  = rx_credit_q[7:4];
    assign cadv_d = {cadv_ch_d[1], cadv_ch_d[0]};

    mlc_msg_parse #(.UCW(UCW), .CAPU(CAPU)) u_sp_parse (
        .state_in(sp_copy_state_q), .word0(sp_copy_word0_q), .state_out(sp_copy_parsed));

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

    // ------------------------------------------------------------------ rule 4: the frame built now
    wire [3:0] n_rr    = send_units_q[rr_q];
    wire [3:0] n_orr   = send_units_q[~rr_q];
    wire       b_data  = good_q & ((n_rr != 4'd0) | (n_orr != 4'd0));
    wire       b_ch    = (n_rr != 4'd0) ? rr_q : ~rr_q;
    wire [3:0] b_np    = ~good_q ? 4'd0 : ((n_rr != 4'd0) ? n_rr : n_orr);
    wire       b_t     =
`ifdef SANFAB_MUTANTS
                         mut_toggle_same ? b_data & tack_q :   // deliberately broken: a new data frame repeats the acknowledged toggle
`endif
                         b_data & ~tack_q;
    wire [3:0] b_flags = {1'b0, e_mine_q, b_t, b_data & b_ch};

    assign ev_tx_frame = building;
    assign ev_tx_null  = building && (b_np == 4'd0);
    assign ev_tx_units = building ? b_np : 4'd0;

    // the building step sends its nibbles 0 (and 1) straight from the decision; the other steps of
    // the frame read the registered NP, FLAGS and credits
    wire [8:0] t_dl   = 9'd4 + {frame_np_q, 5'd0};      // nibbles before the check
    wire [8:0] t_last =
`ifdef SANFAB_MUTANTS
                        mut_frame_long ? t_dl + 9'd4 :   // deliberately broken: the frame runs a symbol past its check
`endif
                        t_dl + 9'd4 - NPS[8:0];    // nib_idx of the frame's last symbol
    assign frame_last = sending && !building && (nib_idx_q == t_last);

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

    wire [3:0]  tnib0 = building ? b_np :
                        tx_nib(nib_idx_q, t_dl, frame_np_q, frame_flags_q, cadv_ch_q[0], cadv_ch_q[1], unit_word_q, frame_crc_q);
    wire [3:0]  tnib1 = building ? b_flags :
                        tx_nib(nib_idx_q + 9'd1, t_dl, frame_np_q, frame_flags_q, cadv_ch_q[0], cadv_ch_q[1], unit_word_q, frame_crc_q);
    wire [15:0] tcrc_a, tcrc_b;
    crc16 u_tcrc_a (.crc_in(frame_crc_q), .nib(tnib0), .crc_out(tcrc_a));
    crc16 u_tcrc_b (.crc_in(tcrc_a), .nib(tnib1), .crc_out(tcrc_b));

    // ------------------------------------------------------------------ the step
    integer        c;
    reg            tr_go, tr_ch;       // this step reads a send FIFO word: go, channel,
    reg  [WAW-1:0] tr_a;               // address,
    reg  [6:0]     tr_n;               // and words still to read before it

    always @* begin
        nib_idx_d = nib_idx_q; frame_np_d = frame_np_q; frame_flags_d = frame_flags_q;
        frame_crc_d = frame_crc_q; unit_word_d = unit_word_q;
        fifo_raddr_d = fifo_raddr_q; fifo_rleft_d = fifo_rleft_q;
        out_valid_d = out_valid_q; out_ch_d = out_ch_q; out_np_d = out_np_q; out_t_d = out_t_q;
        rr_d = rr_q;
        for (c = 0; c < 2; c = c + 1) begin
            cadv_ch_d[c] = cadv_ch_q[c];
            sp_state_d[c] = sp_state_q[c]; sp_word0_d[c] = sp_word0_q[c];
        end
        fifo_re = 1'b0; fifo_rch = 1'b0; fifo_raddr = {WAW{1'b0}};
        tr_go = 1'b0; tr_ch = 1'b0; tr_a = {WAW{1'b0}}; tr_n = 7'd0;
        tx_en_d = 1'b0; tx_d_d = {LINK_W{1'b0}};

        if (sending) begin
            if (building) begin
                // rule 4: build the frame on the state after k-1
                frame_np_d = b_np;
                frame_flags_d = b_flags;
                cadv_ch_d[0] = rx_credit_ch[0];
                cadv_ch_d[1] = rx_credit_ch[1];
                if (b_data) begin
                    out_valid_d = 1'b1;
                    out_ch_d = b_ch;
                    out_np_d = b_np;
                    out_t_d = b_t;
                    rr_d = ~b_ch;
                end
            end
            tx_en_d = 1'b1;
            tx_d_d[3:0] = tnib0;
            if (NPS == 2)
                tx_d_d[LINK_W-1:LINK_W-4] = tnib1;
            // the check runs over the nibbles before it (a symbol is all data or all check)
            if (building || nib_idx_q < t_dl)
                frame_crc_d = (NPS == 2) ? tcrc_b : tcrc_a;
            nib_idx_d = (building ? 9'd0 : nib_idx_q) + NPS[8:0];
            // when this step sends the last nibble of a word (nib_idx + NPS a multiple of 4),
            // register the next unit word, read in the step before; the words are read in order
            // from ack * 8 (fifo_raddr_q, fifo_rleft_q words still to read), each in the step before
            // the one that sends the last nibble of the word before it (nib_idx + 2 NPS a multiple
            // of 4): for the first unit word at LINK_W 8 that is the building step
            if (!building && nib_idx_q[1:0] == TI_LD)
                unit_word_d = fifo_rdata_ch[out_ch_q];
            // the building step starts the frame's reads at ack * 8 (b_np units), and at LINK_W 8
            // reads its first word; later steps read at TI_RD while words remain
            if (building) begin
                tr_go = (NPS == 2) && (b_np != 4'd0);
                tr_ch = b_ch;
                tr_a = {ack_ch[b_ch][UCW-2:0], 3'b000};
                tr_n = {b_np, 3'b000};
            end else begin
                tr_go = (nib_idx_q[1:0] == TI_RD) && (fifo_rleft_q != 7'd0);
                tr_ch = out_ch_q;
                tr_a = fifo_raddr_q;
                tr_n = fifo_rleft_q;
            end
            fifo_raddr_d = tr_a;
            fifo_rleft_d = tr_n;
            if (tr_go) begin
                fifo_re = 1'b1;
                fifo_rch = tr_ch;
                fifo_raddr = tr_a;
                fifo_raddr_d = tr_a + 1'b1;
                fifo_rleft_d = tr_n - 7'd1;
            end
            if (frame_last)
                frame_crc_d = 16'hFFFF;
        end

        // rule 6: a good frame received ends the outstanding frame (acknowledged or to be resent)
        if (frame_good && out_valid_q)
            out_valid_d = 1'b0;

        // rule 5: the send parser follows the host's writes (rule 7)
        if (wr_word0)
            sp_word0_d[h_wch] = h_wdata;
        if (wr_word7)
            sp_state_d[h_wch] = sp_next_q[h_wch];
    end

    // min(15, n_in) of a pending count, and of a message-based one (0 when negative)
    function [3:0] sat_p;
        input [UCW-1:0] n_in;
        begin
            sat_p = (n_in > {{(UCW-4){1'b0}}, 4'd15}) ? 4'd15 : n_in[3:0];
        end
    endfunction
    // min(15, n_in + 1) of a pending count (n_in < CAPU, so n_in + 1 does not wrap)
    function [3:0] sat_p1;
        input [UCW-1:0] n_in;
        begin
            sat_p1 = ((|n_in[UCW-1:4]) || (&n_in[3:0])) ? 4'd15 : n_in[3:0] + 4'd1;
        end
    endfunction
    function [3:0] sat_m;
        input [UCW:0] n_in;
        begin
            sat_m = n_in[UCW] ? 4'd0 : ((n_in > {{(UCW-3){1'b0}}, 4'd15}) ? 4'd15 : n_in[3:0]);
        end
    endfunction

    // rule 4's inputs for the next step, on the state after this step. The sendable units after this
    // step are one of four values computed from the registers alone (acknowledged in this step or not,
    // a unit completed by the host's word 7 or not), pipelined and message-based, saturated at 15; the
    // judgement, the host's write and the configuration only pick among them at the end.
    reg           w7, tk;
    reg [UCW:0]   m01, m11;
    reg [3:0]     snp, snm, sn;
    always @* begin
        w7 = 1'b0; tk = 1'b0;
        m01 = {(UCW+1){1'b0}}; m11 = {(UCW+1){1'b0}}; snp = 4'd0; snm = 4'd0; sn = 4'd0;
        for (c = 0; c < 2; c = c + 1) begin
            w7 = wr_word7 && h_wch == (c == 1);
            tk = tx_ack_take[c];
            m01 = msg_q[c] + msg_w7_q[c];
            m11 = msg_ack_q[c] + msg_w7_q[c];
            msg_d[c] = tk ? (w7 ? m11 : msg_ack_q[c]) : (w7 ? m01 : msg_q[c]);
            msg_ack_d[c] = msg_d[c] - {{(UCW-3){1'b0}}, out_np_d};
            snp = tk ? (w7 ? sat_p1(pend_ack_ch[c]) : sat_p(pend_ack_ch[c])) : (w7 ? sat_p1(pend_ch[c]) : sat_p(pend_ch[c]));
            snm = tk ? (w7 ? sat_m(m11) : sat_m(msg_ack_q[c])) : (w7 ? sat_m(m01) : sat_m(msg_q[c]));
            sn = cfg_d[0] ? snm : snp;
            send_units_d[c] = min4(sn, min4(cap_of(cfg_d[2:1]), crx_d_ch[c]));
        end
    end

    // ------------------------------------------------------------------ registers
    integer r;

    always @(posedge clk) begin
        if (rst) begin
            nib_idx_q <= 9'd0; frame_np_q <= 4'd0; frame_flags_q <= 4'd0; frame_crc_q <= 16'hFFFF;
            unit_word_q <= 16'd0; fifo_raddr_q <= {WAW{1'b0}}; fifo_rleft_q <= 7'd0;
            out_valid_q <= 1'b0; out_ch_q <= 1'b0; out_np_q <= 4'd0; out_t_q <= 1'b0; rr_q <= 1'b0;
            sp_sel_q <= 1'b0;
            sp_copy_state_q <= {PSW{1'b0}}; sp_copy_word0_q <= 16'd0; sp_copy_ch_q <= 1'b0;
            for (r = 0; r < 2; r = r + 1) begin
                cadv_ch_q[r] <= 4'd0; send_units_q[r] <= 4'd0;
                msg_q[r] <= {(UCW+1){1'b0}}; msg_ack_q[r] <= {(UCW+1){1'b0}};
                msg_w7_q[r] <= {{UCW{1'b0}}, 1'b1};
                sp_state_q[r] <= {PSW{1'b0}}; sp_word0_q[r] <= 16'd0; sp_next_q[r] <= {PSW{1'b0}};
            end
            tx_en_q <= 1'b0; tx_d_q <= {LINK_W{1'b0}};
        end else begin
            nib_idx_q <= nib_idx_d; frame_np_q <= frame_np_d; frame_flags_q <= frame_flags_d;
            frame_crc_q <= frame_crc_d; unit_word_q <= unit_word_d;
            fifo_raddr_q <= fifo_raddr_d; fifo_rleft_q <= fifo_rleft_d;
            out_valid_q <= out_valid_d; out_ch_q <= out_ch_d; out_np_q <= out_np_d; out_t_q <= out_t_d;
            rr_q <= rr_d;
            sp_sel_q <= ~sp_sel_q;
            sp_copy_state_q <= sp_state_q[sp_sel_q];
            sp_copy_word0_q <= sp_word0_q[sp_sel_q];
            sp_copy_ch_q <= sp_sel_q;
            sp_next_q[sp_copy_ch_q] <= sp_copy_parsed;
            for (r = 0; r < 2; r = r + 1) begin
                cadv_ch_q[r] <= cadv_ch_d[r]; send_units_q[r] <= send_units_d[r];
                msg_q[r] <= msg_d[r]; msg_ack_q[r] <= msg_ack_d[r];
                msg_w7_q[r] <= {{UCW{1'b0}}, 1'b1} + {1'b0, sp_state_q[r][UCW-1:0]} - {1'b0, sp_next_q[r][UCW-1:0]};
                sp_state_q[r] <= sp_state_d[r]; sp_word0_q[r] <= sp_word0_d[r];
            end
            tx_en_q <= tx_en_d; tx_d_q <= tx_d_d;
        end
    end

endmodule

`default_nettype wire
