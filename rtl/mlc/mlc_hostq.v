// sanfab — Maestro Link Controller: the host port and the FIFO accounting (docs/mlc.md, rule 7
// "Host port", "FIFOs and status").
//
// Holds the two send FIFOs and the two receive FIFOs (rtl/common/sdp_ram.v) and their counts: words
// written (wr) and units acknowledged (ack) of each send FIFO, units accepted (acc) and words read (rd)
// of each receive FIFO, the unit counts kept as registers changed by small steps (pending wr/8 - ack,
// occupied acc - rd/8, with the values an acknowledgement or an acceptance would give a step ahead),
// the status registers st_tx_space and st_rx_avail with their != 0 flags (rule 7's checks read them)
// and the credit each receive FIFO can grant, min(15, free units) (rule 4's CR). Host writes and
// reads are checked against the status after the step before; refused ones are counted.
`default_nettype none

module mlc_hostq #(
    parameter FIFO_BYTES = 2048
) (
    input  wire              clk,
    input  wire              rst,
    // host port
    input  wire              h_wr,
    input  wire              h_wch,
    input  wire [15:0]       h_wdata,
    input  wire              h_rd,
    input  wire              h_rch,
    output reg               h_rvalid_q,
    output wire [15:0]       h_rdata,
    output wire [12:0]       st_tx_space0,
    output wire [12:0]       st_tx_space1,
    output wire [12:0]       st_rx_avail0,
    output wire [12:0]       st_rx_avail1,
    // host writes accepted in this step: word 0 and word 7 of a unit (the send parser, mlc_send)
    output wire              wr_word0,
    output wire              wr_word7,
    // the send FIFOs' link side (mlc_send)
    output wire [2*($clog2(FIFO_BYTES/2)-2)-1:0] tx_ack_q,     // {c1, c0}: units acknowledged
    output wire [2*($clog2(FIFO_BYTES/2)-2)-1:0] tx_npend_q,   // {c1, c0}: units pending (wr/8 - ack)
    output wire [2*($clog2(FIFO_BYTES/2)-2)-1:0] tx_npend_ack_q, // {c1, c0}: units pending if the outstanding frame is acknowledged
    output wire [1:0]        tx_ack_take,                      // {c1, c0}: this step acknowledges send FIFO c's units
    input  wire              fifo_re,
    input  wire              fifo_rch,
    input  wire [$clog2(FIFO_BYTES/2)-1:0] fifo_raddr,
    output wire [31:0]       fifo_rdata,                       // {c1, c0}
    output wire [7:0]        rx_credit_q,                      // {c1, c0}: min(15, free units of receive FIFO c)
    // the receive FIFOs' link side (mlc_recv): a unit word at acc + fifo_woff
    input  wire [1:0]        fifo_we,
    input  wire              fifo_wch,
    input  wire [6:0]        fifo_woff,
    input  wire [15:0]       fifo_wdata,
    // rule 6 (mlc_link, mlc_send, mlc_recv): the judging step, what a good frame would do, what it does
    input  wire              judging,
    input  wire              ack_if_ok_q,
    input  wire              accept_if_ok_q,
    input  wire              out_ch_q,
    input  wire [3:0]        out_np_q,
    input  wire [3:0]        out_np_d,
    input  wire              rx_ch_q,
    input  wire [3:0]        rx_np_q,
    input  wire [3:0]        rx_np_d,
    input  wire              ack_en,
    input  wire              acc_en,
    input  wire              acc_ch,
    // rule 5's message-based mode (the configuration, mlc_regs; the receive parsers' L, mlc_recv, as
    // what an acceptance changes in occ - L)
    input  wire              msg_mode_d,
    input  wire [$clog2(FIFO_BYTES/2)-2:0] msg_acc_step_q,        // what an acceptance adds to occ - L (mlc_recv)
    // counters wr_over, rd_under
    output wire              ev_wr_over,
    output wire              ev_rd_under
);

    localparam CAPW = FIFO_BYTES / 2;    // FIFO capacity, words
    localparam CAPU = FIFO_BYTES / 16;   // FIFO capacity, units
    localparam WAW  = $clog2(CAPW);      // word address bits
    localparam WCW  = WAW + 1;           // word counts (modulo 2 * CAPW)
    localparam UCW  = WAW - 2;           // unit counts (modulo 2 * CAPU)
    localparam [UCW-1:0] CAPU_U = CAPU[UCW-1:0];
    localparam [WCW-1:0] CAPW_W = CAPW[WCW-1:0];

`ifdef SANFAB_MUTANTS
    wire mut_wr_norefuse, mut_credit_plus1, mut_credit_clamp, mut_avail_top;
    sanfab_mutant #(.NAME("WR_NOREFUSE"))  u_mut_wr_norefuse  (.on(mut_wr_norefuse));
    sanfab_mutant #(.NAME("CREDIT_PLUS1")) u_mut_credit_plus1 (.on(mut_credit_plus1));
    sanfab_mutant #(.NAME("CREDIT_CLAMP")) u_mut_credit_clamp (.on(mut_credit_clamp));
    sanfab_mutant #(.NAME("AVAIL_TOP"))    u_mut_avail_top    (.on(mut_avail_top));
`endif

    // ------------------------------------------------------------------ state
    reg [WCW-1:0] tx_wr_q [0:1];          // words written into send FIFO c
    reg [WCW-1:0] tx_wr_d [0:1];
    reg [UCW-1:0] tx_ack_ch_q [0:1];      // units of send FIFO c acknowledged (ack)
    reg [UCW-1:0] tx_ack_ch_d [0:1];
    reg [UCW-1:0] rx_acc_q [0:1];         // units of receive FIFO c accepted (acc)
    reg [UCW-1:0] rx_acc_d [0:1];
    reg [WCW-1:0] rx_rd_q [0:1];          // words read from receive FIFO c
    reg [WCW-1:0] rx_rd_d [0:1];
    //   tx_pend_q[c] = wr[c]/8 - ack[c]    complete units of send FIFO c not acknowledged
    //   rx_occ_q[c]  = acc[c] - rd[c]/8    units of receive FIFO c not wholly read
    // and the values they take on an acknowledgement / acceptance, ready a step ahead:
    //   tx_pend_ack_q[c] = tx_pend_q[c] - onp,  rx_occ_acc_q[c] = rx_occ_q[c] + NP of the frame being received
    reg [UCW-1:0] tx_pend_q [0:1];
    reg [UCW-1:0] tx_pend_ch_d [0:1];
    reg [UCW-1:0] tx_pend_ack_q [0:1];
    reg [UCW-1:0] tx_pend_ack_d [0:1];
    reg [UCW-1:0] rx_occ_q [0:1];
    reg [UCW-1:0] rx_occ_d [0:1];
    reg [UCW-1:0] rx_occ_acc_q [0:1];
    reg [UCW-1:0] rx_occ_acc_d [0:1];
    // rx_msg_q[c] = occ[c] - L[c] (UCW+1 bits, signed), the message-based words-available base kept as
    // a register changed by small steps: an acceptance adds msg_acc_step_q, a unit read takes 1
    reg [UCW:0]   rx_msg_q [0:1];
    reg [UCW:0]   rx_msg_d [0:1];
    reg [3:0]     rx_credit_ch_q [0:1];   // min(15, free units of receive FIFO c)
    reg [3:0]     rx_credit_ch_d [0:1];
    reg [12:0]    tx_space_q [0:1];       // the status registers
    reg [12:0]    tx_space_d [0:1];
    reg [12:0]    rx_avail_q [0:1];
    reg [12:0]    rx_avail_d [0:1];
    reg [1:0]     tx_space_nz_q, rx_avail_nz_q;   // status != 0, registered with the status
    reg           h_rvalid_d, h_rch_q, h_rch_d;   // a read's data next step, from channel h_rch_q

    assign tx_ack_q  = {tx_ack_ch_q[1], tx_ack_ch_q[0]};
    assign tx_npend_q = {tx_pend_q[1], tx_pend_q[0]};
    assign tx_npend_ack_q = {tx_pend_ack_q[1], tx_pend_ack_q[0]};
    assign tx_ack_take = {judging && ack_if_ok_q && out_ch_q, judging && ack_if_ok_q && !out_ch_q};
    assign rx_credit_q = {rx_credit_ch_q[1], rx_credit_ch_q[0]};

    // ------------------------------------------------------------------ rule 7: the host's checks
    // on the status after step k-1
    wire do_wr =
`ifdef SANFAB_MUTANTS
                 mut_wr_norefuse ? h_wr :   // deliberately broken: a host write with no space is stored
`endif
                 h_wr & tx_space_nz_q[h_wch];
    wire do_rd = h_rd & rx_avail_nz_q[h_rch];
    assign ev_wr_over  = h_wr && !do_wr;
    assign ev_rd_under = h_rd && !do_rd;
    assign wr_word0 = do_wr && (tx_wr_q[h_wch][2:0] == 3'd0);
    assign wr_word7 = do_wr && (tx_wr_q[h_wch][2:0] == 3'd7);

    // ------------------------------------------------------------------ the step
    integer       c, rr;
    reg [1:0]     txw_we, rxr_re;
    reg [UCW:0]   usig;
    reg [WCW-1:0] uw, pw;
    reg           upos, ppos, rdu, rd_c;
    reg [2:0]     rd_lo;
    reg [1:0]     apos;
    reg [1:0]     acc_take;
    // the receive side's values for no read (index 0) and a read (1) of the FIFO
    reg [UCW-1:0] occ_v [0:1];
    reg [UCW-1:0] occ_acc_v [0:1];
    reg [UCW:0]   msg_v [0:1];
    reg [1:0]     apos_v;
    reg [12:0]    avail_v [0:1];
    reg [3:0]     credit_v [0:1];

    always @* begin
        for (c = 0; c < 2; c = c + 1) begin
            tx_wr_d[c] = tx_wr_q[c]; tx_ack_ch_d[c] = tx_ack_ch_q[c];
            rx_acc_d[c] = rx_acc_q[c]; rx_rd_d[c] = rx_rd_q[c];
        end
        txw_we = 2'b00; rxr_re = 2'b00;
        h_rvalid_d = 1'b0; h_rch_d = h_rch_q;
        usig = {(UCW+1){1'b0}}; uw = {WCW{1'b0}}; upos = 1'b0;
        pw = {WCW{1'b0}}; ppos = 1'b0; apos = 2'b00; rdu = 1'b0; rd_c = 1'b0; rd_lo = 3'd0;
        acc_take = 2'b00; apos_v = 2'b00;
        for (rr = 0; rr < 2; rr = rr + 1) begin
            occ_v[rr] = {UCW{1'b0}}; occ_acc_v[rr] = {UCW{1'b0}}; msg_v[rr] = {(UCW+1){1'b0}};
            avail_v[rr] = 13'd0; credit_v[rr] = 4'd0;
        end

        // rule 6: an acknowledgement moves ack, an acceptance acc
        if (ack_en)
            tx_ack_ch_d[out_ch_q] = tx_ack_ch_q[out_ch_q] + {{(UCW-4){1'b0}}, out_np_q};
        if (acc_en)
            rx_acc_d[acc_ch] = rx_acc_q[acc_ch] + {{(UCW-4){1'b0}}, rx_np_q};

        // rule 7: host actions
        if (do_wr) begin
            txw_we[h_wch] = 1'b1;
            tx_wr_d[h_wch] = tx_wr_q[h_wch] + 1'b1;
        end
        if (do_rd) begin
            rxr_re[h_rch] = 1'b1;
            h_rvalid_d = 1'b1;
            h_rch_d = h_rch;
            rx_rd_d[h_rch] = rx_rd_q[h_rch] + 1'b1;
        end

        // status after this step
        for (c = 0; c < 2; c = c + 1) begin
            tx_pend_ch_d[c] = (tx_ack_take[c] ? tx_pend_ack_q[c] : tx_pend_q[c]) +
                              {{(UCW-1){1'b0}}, do_wr && h_wch == (c == 1) && tx_wr_q[c][2:0] == 3'd7};
            acc_take[c] = judging && accept_if_ok_q && rx_ch_q == (c == 1);
            tx_pend_ack_d[c] = tx_pend_ch_d[c] - {{(UCW-4){1'b0}}, out_np_d};
            tx_space_d[c] = {{(13-WCW){1'b0}}, CAPW_W - {tx_pend_ch_d[c], tx_wr_d[c][2:0]}} << 1;
            // the receive side, computed for both values of this step's read of FIFO c (rr: no read, a
            // read) and picked by it at the end, so the host's read (in the switch box the last input to
            // settle: the bus's grant) only drives the selects
            for (rr = 0; rr < 2; rr = rr + 1) begin
                rd_lo = rx_rd_q[c][2:0] + rr[2:0];                       // rd[2:0] after the step
                rdu = (rr == 1) && (rx_rd_q[c][2:0] == 3'd7);             // the read ends a unit
                occ_v[rr] = (acc_take[c] ? rx_occ_acc_q[c] : rx_occ_q[c]) - {{(UCW-1){1'b0}}, rdu};
                msg_v[rr] = (acc_take[c] ? rx_msg_q[c] + msg_acc_step_q : rx_msg_q[c]) - {{UCW{1'b0}}, rdu};
                occ_acc_v[rr] = occ_v[rr] + {{(UCW-4){1'b0}}, rx_np_d};
                // words available: max(0, 8 u - rd[2:0]) with u = occ - L (L the units of the unfinished
                // message) in message-based mode, u = occ in pipelined mode, both computed and the mode
                // picking at the end; u >= 1 exactly when it is not 0
                usig = msg_v[rr];
                upos = !usig[UCW] && (usig[UCW-1:0] != {UCW{1'b0}});
                uw = {usig[UCW-1:0] - {{(UCW-1){1'b0}}, rd_lo != 3'd0}, 3'd0 - rd_lo};
                ppos = (occ_v[rr] != {UCW{1'b0}});
                pw = {occ_v[rr] - {{(UCW-1){1'b0}}, rd_lo != 3'd0}, 3'd0 - rd_lo};
                apos_v[rr] = msg_mode_d ? upos : ppos;
                avail_v[rr] = msg_mode_d ? (upos ? ({{(13-WCW){1'b0}}, uw} << 1) : 13'd0) :
                                           (ppos ? ({{(13-WCW){1'b0}}, pw} << 1) : 13'd0);
                // the credit: min(15, CAPU - occ): CAPU is a multiple of 16, so the low bits are those of -occ
`ifdef SANFAB_MUTANTS
                if (mut_credit_plus1)
                    credit_v[rr] = (occ_v[rr] < CAPU_U - {{(UCW-4){1'b0}}, 4'd15}) ? 4'd15 : (4'd1 - occ_v[rr][3:0]);   // deliberately broken: the credit grants one unit more than is free
                else if (mut_credit_clamp)
                    credit_v[rr] = ((occ_v[rr] < CAPU_U - {{(UCW-4){1'b0}}, 4'd15}) && (occ_v[rr] != CAPU_U - {{(UCW-5){1'b0}}, 5'd16})) ? 4'd15 : (4'd0 - occ_v[rr][3:0]);   // deliberately broken: the clamp at 15 misses 16 free units (credit 0)
                else
`endif
                credit_v[rr] = (occ_v[rr] < CAPU_U - {{(UCW-4){1'b0}}, 4'd15}) ? 4'd15 : (4'd0 - occ_v[rr][3:0]);
            end
            rd_c = do_rd && h_rch == (c == 1);
            rx_occ_d[c] = rd_c ? occ_v[1] : occ_v[0];
            rx_msg_d[c] = rd_c ? msg_v[1] : msg_v[0];
            rx_occ_acc_d[c] = rd_c ? occ_acc_v[1] : occ_acc_v[0];
            apos[c] = rd_c ? apos_v[1] : apos_v[0];
`ifdef SANFAB_MUTANTS
            if (mut_avail_top)
                rx_avail_d[c] = (rd_c ? avail_v[1] : avail_v[0]) & ~FIFO_BYTES[12:0];   // deliberately broken: the status bit of FIFO_BYTES stuck at 0
            else
`endif
            rx_avail_d[c] = rd_c ? avail_v[1] : avail_v[0];
            rx_credit_ch_d[c] = rd_c ? credit_v[1] : credit_v[0];
        end
    end

    // ------------------------------------------------------------------ registers
    integer r;

    always @(posedge clk) begin
        if (rst) begin
            h_rvalid_q <= 1'b0; h_rch_q <= 1'b0;
            for (r = 0; r < 2; r = r + 1) begin
                tx_wr_q[r] <= {WCW{1'b0}}; tx_ack_ch_q[r] <= {UCW{1'b0}};
                rx_acc_q[r] <= {UCW{1'b0}}; rx_rd_q[r] <= {WCW{1'b0}};
                tx_space_q[r] <= FIFO_BYTES[12:0]; rx_avail_q[r] <= 13'd0;
                rx_credit_ch_q[r] <= 4'd15;
                tx_space_nz_q[r] <= 1'b1; rx_avail_nz_q[r] <= 1'b0;
                tx_pend_q[r] <= {UCW{1'b0}}; tx_pend_ack_q[r] <= {UCW{1'b0}};
                rx_occ_q[r] <= {UCW{1'b0}}; rx_occ_acc_q[r] <= {UCW{1'b0}};
                rx_msg_q[r] <= {(UCW+1){1'b0}};
            end
        end else begin
            h_rvalid_q <= h_rvalid_d; h_rch_q <= h_rch_d;
            for (r = 0; r < 2; r = r + 1) begin
                tx_wr_q[r] <= tx_wr_d[r]; tx_ack_ch_q[r] <= tx_ack_ch_d[r];
                rx_acc_q[r] <= rx_acc_d[r]; rx_rd_q[r] <= rx_rd_d[r];
                tx_space_q[r] <= tx_space_d[r]; rx_avail_q[r] <= rx_avail_d[r];
                rx_credit_ch_q[r] <= rx_credit_ch_d[r];
                tx_space_nz_q[r] <= ({tx_pend_ch_d[r], tx_wr_d[r][2:0]} != CAPW_W); rx_avail_nz_q[r] <= apos[r];
                tx_pend_q[r] <= tx_pend_ch_d[r]; tx_pend_ack_q[r] <= tx_pend_ack_d[r];
                rx_occ_q[r] <= rx_occ_d[r]; rx_occ_acc_q[r] <= rx_occ_acc_d[r];
                rx_msg_q[r] <= rx_msg_d[r];
            end
        end
    end

    // ------------------------------------------------------------------ FIFO RAMs
    // sdp_ram has no read-during-write bypass, and needs none here: the MLC never reads a word in
    // the step it writes it (send FIFO: the host writes at wr, the link reads complete units below
    // it; receive FIFO: the link writes at most cadv units beyond acc, which the credit keeps clear
    // of the word the host reads at rd).
    wire [15:0]    txr_data [0:1];
    wire [15:0]    rxr_data [0:1];
    wire [WCW-1:0] rxw_sum = {rx_acc_q[fifo_wch], 3'b000} + {{(WCW-7){1'b0}}, fifo_woff};
    wire [WAW-1:0] rxw_addr = (fifo_we != 2'b00) ? rxw_sum[WAW-1:0] : {WAW{1'b0}};
    wire           unused_ok = &{1'b0, rxw_sum[WCW-1]};
    genvar gc;
    generate
        for (gc = 0; gc < 2; gc = gc + 1) begin : g_ram
            sdp_ram #(.AW(WAW), .DW(16)) u_tx (
                .clk(clk), .we(txw_we[gc]), .waddr(tx_wr_q[gc][WAW-1:0]), .wdata(h_wdata),
                .re(fifo_re && (fifo_rch == (gc == 1))), .raddr(fifo_raddr), .rdata(txr_data[gc]));
            sdp_ram #(.AW(WAW), .DW(16)) u_rx (
                .clk(clk), .we(fifo_we[gc]), .waddr(rxw_addr), .wdata(fifo_wdata),
                .re(rxr_re[gc]), .raddr(rx_rd_q[gc][WAW-1:0]), .rdata(rxr_data[gc]));
        end
    endgenerate

    assign fifo_rdata   = {txr_data[1], txr_data[0]};
    assign h_rdata      = h_rvalid_q ? rxr_data[h_rch_q] : 16'd0;   // the RAM's read register, gated
    assign st_tx_space0 = tx_space_q[0];
    assign st_tx_space1 = tx_space_q[1];
    assign st_rx_avail0 = rx_avail_q[0];
    assign st_rx_avail1 = rx_avail_q[1];

endmodule

`default_nettype wire
