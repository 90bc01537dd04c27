// sanfab — crossbar input port: ingress (CRC check and regeneration), slack buffer, read side.
//
// Ingress: data characters of a packet are written to the slack buffer one cycle late (the
// held byte ih), so that the packet's last byte, its CRC, can be replaced at the GAP by the CRC
// of the bytes actually forwarded (marked bad by complementing when the packet was bad). The
// route byte becomes a header entry, or, when the input is idle and its buffer empty, goes
// straight into the read side (bypass). Read side: IDLE -> HDR (waiting for its output) ->
// BOUND (forwarding) -> IDLE, or DRAIN (discard to the packet end). See docs/xbar.md.
`default_nettype none

module xbar_in #(
    parameter NPORTS      = 8,
    parameter PW          = 3,
    parameter SLACK_DEPTH = 80,
    parameter STOP_THRESH = 56,
    parameter GO_THRESH   = 40,
    parameter ROUTE_DELAY = 0,
    parameter TIMEOUT     = 4096
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [8:0]        rx,
    input  wire              grant,       // an output was granted to this input this cycle
    input  wire [NPORTS-1:0] free_vec,    // free_q of every output
    output wire [NPORTS-1:0] req_vec,     // one-hot: the output this input requests now
    output wire              ready,       // bound, head valid and not a header
    output wire [9:0]        head,        // head entry {kind[1:0], byte[7:0]}
    output wire              abort_req,   // (registered) the bound packet must be closed with ABORT
    output wire              want_q,      // STOP wanted for this input's buffer (registered)
    output wire              want_d,      // its next value
    output reg               ev_rx_pkt,
    output reg               ev_rx_byte,
    output reg               ev_crc_err,
    output reg               ev_drop_route,
    output reg               ev_drop_timeout,
    output reg               ev_malformed,
    output reg               ev_overflow
);

    localparam AW = $clog2(SLACK_DEPTH + 1);
    localparam TW = (TIMEOUT > 1) ? $clog2(TIMEOUT) : 1;
    localparam DW = (ROUTE_DELAY > 0) ? $clog2(ROUTE_DELAY + 1) : 1;

    localparam [1:0] K_DATA = 2'd0, K_LAST = 2'd1, K_HDR = 2'd2, K_ABORT = 2'd3;
    localparam [1:0] RS_IDLE = 2'd0, RS_HDR = 2'd1, RS_BOUND = 2'd2, RS_DRAIN = 2'd3;

    localparam [7:0] C_IDLE = 8'h00, C_GAP = 8'h01, C_STOP = 8'h02, C_GO = 8'h03, C_ABORT = 8'h04;
    localparam [7:0] MARKED_RESIDUE = 8'hF3;

    localparam integer  DEPTH_I = SLACK_DEPTH;
    localparam integer  STOP_I  = STOP_THRESH;
    localparam integer  GO_I    = GO_THRESH;
    localparam integer  RD_I    = ROUTE_DELAY;
    localparam integer  NP_I    = NPORTS;
    localparam [AW-1:0] DEPTH_W = DEPTH_I[AW-1:0];
    localparam [AW-1:0] STOP_W  = STOP_I[AW-1:0];
    localparam [AW-1:0] GO_W    = GO_I[AW-1:0];
    localparam integer  TMO_LAST_I = (TIMEOUT > 0) ? TIMEOUT - 1 : 0;
    localparam [TW-1:0] TMO_LAST = TMO_LAST_I[TW-1:0];
    localparam [DW-1:0] RD_W    = RD_I[DW-1:0];
    localparam [PW:0]   NPORTS_W = NP_I[PW:0];

    // ---------------- registers ----------------
    reg          in_pkt_q, in_pkt_d;
    reg          ih_v_q, ih_v_d;
    reg [7:0]    ih_d_q, ih_d_d;
    reg [7:0]    crc_chk_q, crc_chk_d;
    reg [7:0]    crc_fwd_q, crc_fwd_d;
    reg          err_q, err_d;
    reg          dropping_q, dropping_d; // this packet found no room for its header: discard it
    reg [1:0]    rs_q, rs_d;
    reg [PW-1:0] hdr_port_q, hdr_port_d;
    reg [NPORTS-1:0] hdr_oh_q, hdr_oh_d;   // hdr_port one-hot
    reg          abort_q, abort_d;
    reg [PW-1:0] oport_q, oport_d;
    reg [DW-1:0] rdly_q, rdly_d;
    reg [TW-1:0] tmo_q, tmo_d;
    reg          want_r_q, want_r_d;

    // ---------------- slack buffer ----------------
    reg          wr;
    reg  [9:0]   went;
    reg          pop;
    wire         h_v;
    wire [9:0]   h_d;
    wire [AW-1:0] occ;

    fifo_fwft_bram #(
        .WIDTH (10),
        .DEPTH (SLACK_DEPTH)
    ) u_slack (
        .clk     (clk),
        .rst     (rst),
        .wr      (wr),
        .wr_data (went),
        .pop     (pop),
        .h_valid (h_v),
        .h_data  (h_d),
        .occ     (occ)
    );

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

    // ---------------- ingress ----------------
    reg bypass;
    reg wr_req;
    reg wr_end;                                      // the entry is a packet end (LAST/ABORT)
    wire full      = (occ >= DEPTH_W);               // no room at all
    wire full_data = (occ >= DEPTH_W - 1'b1);        // data and headers keep one slot for an end

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
                            if (crc_chk_q != 8'h00 && crc_chk_q != MARKED_RESIDUE) begin
                                ev_crc_err = 1'b1;
                            end
`ifdef SANFAB_MUTANT_CRC_NOMARK
                            went = {K_LAST, crc_fwd_q};  // deliberately broken: bad packets not marked
`else
                            went = {K_LAST, crc_fwd_q ^ {8{(crc_chk_q != 8'h00) | err_q}}};
`endif
                        end else begin
                            if (rx[7:0] == C_GAP) begin
                                ev_malformed = 1'b1;
                            end
                            went = {K_ABORT, 8'h00};
                        end
                    end
                end
                default: begin
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
                if (rs_q == RS_IDLE && occ == {AW{1'b0}}) begin
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

    // ---------------- read side ----------------
    wire [1:0] h_kind  = h_d[9:8];
    wire       h_hdr   = h_v & (h_kind == K_HDR);
    wire       h_end   = (h_kind == K_LAST) | (h_kind == K_ABORT);
    wire       out_free = free_vec[oport_q];
    wire       tmo_fire = (TIMEOUT != 0) && (tmo_q == TMO_LAST);

    wire       rdly_done;
    generate
        if (ROUTE_DELAY == 0) begin : g_nodelay
            assign rdly_done = 1'b1;
        end else begin : g_delay
            assign rdly_done = (rdly_q >= RD_W);
        end
    endgenerate

    reg        hdr_load;
    // the header comes from the head entry, or (bypass, head empty) straight from the link
    wire [7:0] hdr_byte = h_v ? h_d[7:0] : rx[7:0];
    wire [PW:0] hdr_port_full = {1'b0, hdr_byte[PW-1:0]};
    wire       hdr_ok = (hdr_byte[7:6] == 2'b10) &&
                        ((hdr_byte[5:0] >> PW) == 6'd0) &&
                        (hdr_port_full < NPORTS_W);

    always @* begin
        rs_d            = rs_q;
        hdr_port_d      = hdr_port_q;
        hdr_oh_d        = hdr_oh_q;
        oport_d         = oport_q;
        rdly_d          = rdly_q;
        tmo_d           = tmo_q;
        pop             = 1'b0;
        hdr_load        = 1'b0;
        abort_d         = 1'b0;
        ev_drop_route   = 1'b0;
        ev_drop_timeout = 1'b0;

        case (rs_q)
            RS_IDLE: begin
                if (h_v) begin
                    pop = 1'b1;
                    if (h_kind == K_HDR) begin
                        hdr_load = 1'b1;
                    end
                end else if (bypass) begin
                    hdr_load = 1'b1;
                end
            end
            RS_HDR: begin
                if (grant) begin
                    rs_d    = RS_BOUND;
                    oport_d = hdr_port_q;
                    tmo_d   = {TW{1'b0}};
                end else begin
                    if (!rdly_done) begin
                        rdly_d = rdly_q + {{(DW-1){1'b0}}, 1'b1};
                    end
                    if (tmo_fire) begin
                        rs_d            = RS_DRAIN;
                        tmo_d           = {TW{1'b0}};
                        ev_drop_timeout = 1'b1;
                    end else begin
                        tmo_d = tmo_q + {{(TW-1){1'b0}}, 1'b1};
                    end
                end
            end
            RS_BOUND: begin
                if (h_hdr) begin
                    // the packet's end was lost (slack overflow): close it downstream
                    rs_d      = RS_IDLE;
                    abort_d = 1'b1;
                end else if (h_v && out_free) begin
                    pop   = 1'b1;
                    tmo_d = {TW{1'b0}};
                    if (h_end) begin
                        rs_d = RS_IDLE;
                    end
                end else if (tmo_fire) begin
                    rs_d            = RS_DRAIN;
                    tmo_d           = {TW{1'b0}};
                    abort_d         = 1'b1;
                    ev_drop_timeout = 1'b1;
                end else begin
                    tmo_d = tmo_q + {{(TW-1){1'b0}}, 1'b1};
                end
            end
            default: begin // RS_DRAIN
                if (h_v) begin
                    if (h_kind == K_HDR) begin
                        rs_d = RS_IDLE;
                    end else begin
                        pop = 1'b1;
                        if (h_end) begin
                            rs_d = RS_IDLE;
                        end
                    end
                end
            end
        endcase

        if (hdr_load) begin
            hdr_port_d = hdr_ok ? hdr_byte[PW-1:0] : {PW{1'b0}};
            hdr_oh_d   = hdr_ok ? ({{(NPORTS-1){1'b0}}, 1'b1} << hdr_byte[PW-1:0]) : {NPORTS{1'b0}};
            rdly_d     = {DW{1'b0}};
            tmo_d      = {TW{1'b0}};
            if (hdr_ok) begin
                rs_d = RS_HDR;
            end else begin
                rs_d          = RS_DRAIN;
                ev_drop_route = 1'b1;
            end
        end
    end

    // ---------------- flow control wish (hysteresis on the registered occupancy) ----------------
    always @* begin
        want_r_d = want_r_q;
        if (occ >= STOP_W) begin
            want_r_d = 1'b1;
        end else if (occ <= GO_W) begin
            want_r_d = 1'b0;
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
            rs_q       <= RS_IDLE;
            hdr_port_q <= {PW{1'b0}};
            hdr_oh_q   <= {NPORTS{1'b0}};
            abort_q    <= 1'b0;
            oport_q    <= {PW{1'b0}};
            rdly_q     <= {DW{1'b0}};
            tmo_q      <= {TW{1'b0}};
            want_r_q   <= 1'b0;
        end else begin
            in_pkt_q   <= in_pkt_d;
            ih_v_q     <= ih_v_d;
            ih_d_q     <= ih_d_d;
            crc_chk_q  <= crc_chk_d;
            crc_fwd_q  <= crc_fwd_d;
            err_q      <= err_d;
            dropping_q <= dropping_d;
            rs_q       <= rs_d;
            hdr_port_q <= hdr_port_d;
            hdr_oh_q   <= hdr_oh_d;
            abort_q    <= abort_d;
            oport_q    <= oport_d;
            rdly_q     <= rdly_d;
            tmo_q      <= tmo_d;
            want_r_q   <= want_r_d;
        end
    end

    assign req_vec   = hdr_oh_q & {NPORTS{(rs_q == RS_HDR) & rdly_done}};
    assign abort_req = abort_q;
    assign ready    = (rs_q == RS_BOUND) & h_v & ~h_hdr;
    assign head     = h_d;
    assign want_q   = want_r_q;
    assign want_d   = want_r_d;

endmodule

`default_nettype wire
