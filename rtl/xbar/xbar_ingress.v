// sanfab — crossbar input port, ingress: decodes the receive link and writes the slack buffer.
//
// Data characters of a packet are written one cycle late (the held byte ih), so that at the GAP
// the packet's last byte, its CRC, can be replaced by the CRC of the bytes actually forwarded
// (complemented, "marked", when the packet was bad). The route byte becomes a header entry, or,
// when the read side is idle and the buffer empty, goes straight to the read side (bypass).
// Data and headers never take the buffer's last free slot, so an accepted packet always has room
// for its end; a header without room for itself and its end discards the whole packet.
`default_nettype none

module xbar_ingress #(
    parameter SLACK_DEPTH = 80
) (
    input  wire                             clk,
    input  wire                             rst,
    input  wire [8:0]                       rx,
    input  wire [$clog2(SLACK_DEPTH+1)-1:0] occ,      // slack buffer occupancy
    input  wire                             rd_idle,  // the read side is idle (bypass allowed)
    output reg                              wr,       // write `went` into the slack buffer
    output reg  [9:0]                       went,     // entry {kind[1:0], byte[7:0]}
    output reg                              bypass,   // the route byte on rx goes to the read side
    output reg                              ev_rx_pkt,
    output reg                              ev_rx_byte,
    output reg                              ev_crc_err,
    output reg                              ev_malformed,
    output reg                              ev_overflow
);

    localparam AW = $clog2(SLACK_DEPTH + 1);

    `include "link_defs.vh"
    `include "xbar_defs.vh"
    localparam [7:0] MARKED_RESIDUE = 8'hF3;

    localparam integer  DEPTH_I = SLACK_DEPTH;
    localparam [AW-1:0] DEPTH_W = DEPTH_I[AW-1:0];

    reg          in_pkt_q, in_pkt_d;
    reg          ih_v_q, ih_v_d;
    reg [7:0]    ih_d_q, ih_d_d;
    reg [7:0]    crc_chk_q, crc_chk_d;
    reg [7:0]    crc_fwd_q, crc_fwd_d;
    reg          err_q, err_d;
    reg          dropping_q, dropping_d; // this packet found no room for its header: discard it

    // ---------------- CRC units ----------------
    wire [7:0] crc_chk_next;
    wire [7:0] crc_fwd_next;

    crc8 u_crc_chk (
        .crc_in  (in_pkt_q ? crc_chk_q : 8'h00),
        .data    (rx[7:0]),
        .crc_out (crc_chk_next)
    );

    crc8 u_crc_fwd (
        .crc_in  (crc_fwd_q),
        .data    (ih_d_q),
        .crc_out (crc_fwd_next)
    );

    reg wr_req;
    reg wr_end;                                      // the entry is a packet end (LAST/ABORT)
    wire full      = (occ >= DEPTH_W);               // no room at all
    wire full_data = (occ >= DEPTH_W - 1'b1);        // data and headers keep one slot for an end

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_crc_nomark, mut_illegal_narrow, mut_illegal_between, mut_crc_err_once;
    sanfab_mutant #(.NAME("CRC_NOMARK"))      u_mut_crc_nomark      (.on(mut_crc_nomark));
    sanfab_mutant #(.NAME("CRC_ERR_ONCE"))    u_mut_crc_err_once    (.on(mut_crc_err_once));
    sanfab_mutant #(.NAME("ILLEGAL_NARROW"))  u_mut_illegal_narrow  (.on(mut_illegal_narrow));
    sanfab_mutant #(.NAME("ILLEGAL_BETWEEN")) u_mut_illegal_between (.on(mut_illegal_between));
`endif

    always @* begin
        in_pkt_d     = in_pkt_q;
        ih_v_d       = ih_v_q;
        ih_d_d       = ih_d_q;
        crc_chk_d    = crc_chk_q;
        crc_fwd_d    = crc_fwd_q;
        err_d        = err_q;
        dropping_d   = dropping_q;
        wr_req       = 1'b0;
        wr_end       = 1'b0;
        went         = 10'd0;
        bypass       = 1'b0;
        ev_rx_pkt    = 1'b0;
        ev_rx_byte   = 1'b0;
        ev_crc_err   = 1'b0;
        ev_malformed = 1'b0;
        ev_overflow  = 1'b0;

        if (rx[8]) begin
            case (rx[7:0])
                C_IDLE, C_STOP, C_GO: begin
                    // STOP/GO are taken by the output side of this port
                end
                C_GAP, C_ABORT: begin
                    if (in_pkt_q) begin
                        in_pkt_d   = 1'b0;
                        ih_v_d     = 1'b0;
                        ev_rx_pkt  = 1'b1;
                        wr_req     = 1'b1;
                        wr_end     = 1'b1;
                        dropping_d = 1'b0;
                        if (rx[7:0] == C_GAP && ih_v_q) begin
                            if (crc_chk_q != 8'h00 && crc_chk_q != MARKED_RESIDUE
`ifdef SANFAB_MUTANTS
                                // deliberately broken: a packet already bad (an illegal code inside, data
                                // lost to overflow) is not counted crc_err again
                                && !(mut_crc_err_once && err_q)
`endif
                                ) begin
                                ev_crc_err = 1'b1;
                            end
`ifdef SANFAB_MUTANTS
                            if (mut_crc_nomark)
                                went = {K_LAST, crc_fwd_q};  // deliberately broken: bad packets not marked
                            else
`endif
                            went = {K_LAST, crc_fwd_q ^ {8{(crc_chk_q != 8'h00) | err_q}}};
                        end else begin
                            if (rx[7:0] == C_GAP) begin
                                ev_malformed = 1'b1;
                            end
                            went = {K_ABORT, 8'h00};
                        end
                    end
                end
                default: begin
                    // an illegal control character (0x105-0x1FF): counted; inside a packet it
                    // marks the packet bad
`ifdef SANFAB_MUTANTS
                    if (mut_illegal_narrow)
                        ev_malformed = (rx[7:4] == 4'h0);  // deliberately broken: only 0x105-0x10F
                    else if (mut_illegal_between)
                        ev_malformed = in_pkt_q;           // deliberately broken: not between packets
                    else
`endif
                    ev_malformed = 1'b1;
                    if (in_pkt_q) begin
                        err_d = 1'b1;
                    end
                end
            endcase
        end else begin
            ev_rx_byte = 1'b1;
            crc_chk_d  = crc_chk_next;
            if (!in_pkt_q) begin
                in_pkt_d  = 1'b1;
                err_d     = 1'b0;
                crc_fwd_d = 8'h00;
                ih_v_d    = 1'b0;
                if (rd_idle && occ == {AW{1'b0}}) begin
                    bypass = 1'b1;
                end else begin
                    wr_req = 1'b1;
                    went   = {K_HDR, rx[7:0]};
                    // a header needs room for itself and its packet's end, else the packet is lost
                    dropping_d = full_data;
                end
            end else begin
                if (ih_v_q) begin
                    wr_req = 1'b1;
                    went   = {K_DATA, ih_d_q};
                    if (!full_data && !dropping_q) begin
                        // the regenerated CRC covers only bytes that were forwarded
                        crc_fwd_d = crc_fwd_next;
                    end
                end
                ih_v_d = 1'b1;
                ih_d_d = rx[7:0];
            end
        end

        // an end always has room unless its packet is being discarded; data keep a slot free
        wr = wr_req & (wr_end ? (~full & ~dropping_q) : (~full_data & ~dropping_q));
        if (wr_req && !wr) begin
            ev_overflow = 1'b1;
            if (in_pkt_d) begin
                err_d = 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            in_pkt_q   <= 1'b0;
            ih_v_q     <= 1'b0;
            ih_d_q     <= 8'h00;
            crc_chk_q  <= 8'h00;
            crc_fwd_q  <= 8'h00;
            err_q      <= 1'b0;
            dropping_q <= 1'b0;
        end else begin
            in_pkt_q   <= in_pkt_d;
            ih_v_q     <= ih_v_d;
            ih_d_q     <= ih_d_d;
            crc_chk_q  <= crc_chk_d;
            crc_fwd_q  <= crc_fwd_d;
            err_q      <= err_d;
            dropping_q <= dropping_d;
        end
    end

endmodule

`default_nettype wire
