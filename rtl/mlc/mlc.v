// sanfab — Maestro Link Controller: one end of a half-duplex point-to-point link (docs/mlc.md is
// the contract; rule numbers below are its "Steps"). The top: the rules' modules wired together.
//
// Host side: two channels, each a send FIFO and a receive FIFO (rtl/common/sdp_ram.v, block RAM with
// registered read) with byte-count status registers. Link side: frames of up to 15 units, sent after every
// turn-round, carrying credits, toggle/echo and a CRC-16 (crc16).
//
//   mlc_link   rules 1, 3 (and rule 2's guard, the timeout): link state, turn-round, who drives
//   mlc_send   rules 4, 5: building and sending a frame, transfer modes, the send parser
//   mlc_recv   rules 2, 6: receiving a frame, judging it (credits, acknowledgement, recovery)
//   mlc_hostq  rule 7: host port, FIFOs, their counts and status registers, the credit to grant
//   mlc_regs   rule 8: register port, configuration, counters
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

    localparam UCW = $clog2(FIFO_BYTES / 2) - 2;   // unit counts (modulo 2 * FIFO_BYTES / 16)

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

    // ------------------------------------------------------------------ rules 1, 3: the link
    wire [1:0]  link_state_q;
    wire        hold_q, building, sending, receiving, judging, judge_step, timeout_fire;
    wire        frame_last;
    wire        ev_conflict, ev_timeout;
    // rules 2, 6: receiving and judging
    wire        in_frame_q, rx_ch_q, good_q, tack_q, e_mine_q, frame_ok_q, ack_if_ok_q, accept_if_ok_q;
    wire [3:0]  rx_np_q, rx_np_d;
    wire [7:0]  crx_q, crx_d;
    wire [UCW:0]     msg_acc_step_q;
    wire        frame_good, ack_en, acc_en, acc_ch;
    wire [1:0]  rxf_we;
    wire        rxf_wch;
    wire [6:0]  rxf_woff;
    wire [15:0] rxf_wdata;
    wire        ev_rx_frame, ev_rx_null, ev_err_len, ev_err_check, ev_err_credit, ev_dup;
    wire [3:0]  ev_rx_units, ev_retx_units;
    // rules 4, 5: building and sending
    wire        out_valid_q, out_ch_q, out_t_q, out_valid_d, out_t_d;
    wire [3:0]  out_np_q, out_np_d;
    wire [7:0]  cadv_d;
    wire        txf_re, txf_rch;
    wire [UCW+1:0] txf_raddr;
    wire        ev_tx_frame, ev_tx_null;
    wire [3:0]  ev_tx_units;
    // rule 7: the host port and the FIFOs
    wire        wr_word0, wr_word7;
    wire [2*UCW-1:0] tx_ack_q, tx_npend_q, tx_npend_ack_q;
    wire [1:0]  tx_ack_take;
    wire [31:0] txf_rdata;
    wire [7:0]  rx_credit_q;
    wire        ev_wr_over, ev_rd_under;
    // rule 8: the configuration
    wire [2:0]  cfg_d;

    mlc_link #(.TURN(TURN), .MASTER(MASTER), .TIMEOUT(TIMEOUT), .GUARD(GUARD)) u_link (
        .clk(clk), .rst(rst), .rx_en(rx_en),
        .in_frame_q(in_frame_q), .frame_last(frame_last), .frame_ok_q(frame_ok_q),
        .link_state_q(link_state_q), .hold_q(hold_q),
        .building(building), .sending(sending),
        .receiving(receiving), .judging(judging), .judge_step(judge_step), .timeout_fire(timeout_fire),
        .ev_conflict(ev_conflict), .ev_timeout(ev_timeout));

    mlc_send #(.LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES)) u_send (
        .clk(clk), .rst(rst),
        .building(building), .sending(sending),
        .good_q(good_q), .tack_q(tack_q), .e_mine_q(e_mine_q), .frame_good(frame_good), .crx_d(crx_d),
        .rx_credit_q(rx_credit_q), .tx_ack_q(tx_ack_q), .tx_npend_q(tx_npend_q), .tx_npend_ack_q(tx_npend_ack_q),
        .tx_ack_take(tx_ack_take), .fifo_rdata(txf_rdata),
        .fifo_re(txf_re), .fifo_rch(txf_rch), .fifo_raddr(txf_raddr),
        .h_wch(h_wch), .h_wdata(h_wdata), .wr_word0(wr_word0), .wr_word7(wr_word7),
        .cfg_d(cfg_d),
        .out_valid_q(out_valid_q), .out_ch_q(out_ch_q), .out_np_q(out_np_q), .out_t_q(out_t_q),
        .out_valid_d(out_valid_d), .out_np_d(out_np_d), .out_t_d(out_t_d),
        .cadv_d(cadv_d),
        .frame_last(frame_last), .tx_en_q(tx_en), .tx_d_q(tx_d),
        .ev_tx_frame(ev_tx_frame), .ev_tx_null(ev_tx_null), .ev_tx_units(ev_tx_units));

    mlc_recv #(.LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES)) u_recv (
        .clk(clk), .rst(rst), .rx_d(rx_d),
        .receiving(receiving), .judge_step(judge_step), .frame_last(frame_last), .timeout_fire(timeout_fire),
        .out_valid_q(out_valid_q), .out_t_q(out_t_q), .out_np_q(out_np_q),
        .out_valid_d(out_valid_d), .out_t_d(out_t_d), .cadv_d(cadv_d),
        .in_frame_q(in_frame_q), .rx_np_q(rx_np_q), .rx_np_d(rx_np_d), .rx_ch_q(rx_ch_q),
        .good_q(good_q), .tack_q(tack_q), .e_mine_q(e_mine_q), .crx_q(crx_q), .crx_d(crx_d),
        .frame_ok_q(frame_ok_q), .ack_if_ok_q(ack_if_ok_q), .accept_if_ok_q(accept_if_ok_q),
        .msg_acc_step_q(msg_acc_step_q),
        .frame_good(frame_good), .ack_en(ack_en), .acc_en(acc_en), .acc_ch(acc_ch),
        .fifo_we(rxf_we), .fifo_wch(rxf_wch), .fifo_woff(rxf_woff), .fifo_wdata(rxf_wdata),
        .ev_rx_frame(ev_rx_frame), .ev_rx_null(ev_rx_null), .ev_rx_units(ev_rx_units),
        .ev_err_len(ev_err_len), .ev_err_check(ev_err_check), .ev_err_credit(ev_err_credit),
        .ev_dup(ev_dup), .ev_retx_units(ev_retx_units));

    mlc_hostq #(.FIFO_BYTES(FIFO_BYTES)) u_hostq (
        .clk(clk), .rst(rst),
        .h_wr(h_wr), .h_wch(h_wch), .h_wdata(h_wdata), .h_rd(h_rd), .h_rch(h_rch),
        .h_rvalid_q(h_rvalid), .h_rdata(h_rdata),
        .st_tx_space0(st_tx_space0), .st_tx_space1(st_tx_space1),
        .st_rx_avail0(st_rx_avail0), .st_rx_avail1(st_rx_avail1),
        .wr_word0(wr_word0), .wr_word7(wr_word7),
        .tx_ack_q(tx_ack_q), .tx_npend_q(tx_npend_q), .tx_npend_ack_q(tx_npend_ack_q), .tx_ack_take(tx_ack_take),
        .fifo_re(txf_re), .fifo_rch(txf_rch), .fifo_raddr(txf_raddr), .fifo_rdata(txf_rdata),
        .rx_credit_q(rx_credit_q),
        .fifo_we(rxf_we), .fifo_wch(rxf_wch), .fifo_woff(rxf_woff), .fifo_wdata(rxf_wdata),
        .judging(judging), .ack_if_ok_q(ack_if_ok_q), .accept_if_ok_q(accept_if_ok_q),
        .out_ch_q(out_ch_q), .out_np_q(out_np_q), .out_np_d(out_np_d),
        .rx_ch_q(rx_ch_q), .rx_np_q(rx_np_q), .rx_np_d(rx_np_d),
        .ack_en(ack_en), .acc_en(acc_en), .acc_ch(acc_ch),
        .msg_mode_d(cfg_d[0]), .msg_acc_step_q(msg_acc_step_q),
        .ev_wr_over(ev_wr_over), .ev_rd_under(ev_rd_under));

    mlc_regs #(.CTR_W(CTR_W)) u_regs (
        .clk(clk), .rst(rst),
        .reg_rd(reg_rd), .reg_wr(reg_wr), .reg_addr(reg_addr), .reg_wdata(reg_wdata),
        .reg_rvalid_q(reg_rvalid), .reg_rdata_q(reg_rdata),
        .cfg_d(cfg_d),
        .good_q(good_q), .out_valid_q(out_valid_q), .tack_q(tack_q), .e_mine_q(e_mine_q),
        .crx_q(crx_q), .link_state_q(link_state_q), .hold_q(hold_q),
        .st_tx_space0(st_tx_space0), .st_tx_space1(st_tx_space1),
        .st_rx_avail0(st_rx_avail0), .st_rx_avail1(st_rx_avail1),
        .ev_tx_frame(ev_tx_frame), .ev_tx_null(ev_tx_null), .ev_tx_units(ev_tx_units),
        .ev_rx_frame(ev_rx_frame), .ev_rx_null(ev_rx_null), .ev_rx_units(ev_rx_units),
        .ev_err_check(ev_err_check), .ev_err_len(ev_err_len), .ev_err_credit(ev_err_credit),
        .ev_dup(ev_dup), .ev_retx_units(ev_retx_units), .ev_timeout(ev_timeout),
        .ev_conflict(ev_conflict), .ev_wr_over(ev_wr_over), .ev_rd_under(ev_rd_under));

`ifdef SANFAB_MUTANTS
    // the mutant-capable build: a +mutant=NAME that names no mutation site stops the simulation
    // (rtl/common/sanfab_mutant_check.v)
    sanfab_mutant_check u_mutant_check ();
`endif

endmodule

`default_nettype wire
