// sanfab — crossbar input port, read side: takes entries from the slack buffer's head.
//
// IDLE takes the next header (a route naming no port goes to DRAIN, counted); HDR requests its
// output after ROUTE_DELAY cycles; when granted, BOUND forwards entries whenever the output's
// registered data slot is free, up to the packet's last entry; DRAIN discards entries up to the
// packet's end. A blocking timeout drains a packet that waits or is stuck too long, and asks its
// output (registered, abort_req) to close it with ABORT. See docs/xbar.md.
`default_nettype none

module xbar_rdside #(
    parameter NPORTS      = 8,
    parameter PW          = 3,
    parameter ROUTE_DELAY = 0,
    parameter TIMEOUT     = 4096
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              h_v,         // slack buffer head valid ...
    input  wire [9:0]        h_d,         // ... and its entry {kind[1:0], byte[7:0]}
    input  wire              bypass,      // the route byte on rx comes straight from the ingress
    input  wire [7:0]        rx_byte,
    input  wire              grant,       // an output was granted to this input this cycle
    input  wire [NPORTS-1:0] free_vec,    // free_q of every output
    output reg               pop,         // the head entry is consumed this cycle
    output wire              idle,        // state IDLE
    output wire [NPORTS-1:0] req_vec,     // one-hot: the output this input requests now
    output wire              ready,       // bound, head valid and not a header
    output wire              abort_req,   // (registered) the bound packet must be closed with ABORT
    output reg               ev_drop_route,
    output reg               ev_drop_timeout
);

    localparam TW = (TIMEOUT > 1) ? $clog2(TIMEOUT) : 1;
    localparam DW = (ROUTE_DELAY > 0) ? $clog2(ROUTE_DELAY + 1) : 1;

    `include "xbar_defs.vh"
    localparam [1:0] RS_IDLE = 2'd0, RS_HDR = 2'd1, RS_BOUND = 2'd2, RS_DRAIN = 2'd3;

    localparam integer  RD_I    = ROUTE_DELAY;
    localparam integer  NP_I    = NPORTS;
    localparam integer  TMO_LAST_I = (TIMEOUT > 0) ? TIMEOUT - 1 : 0;
    localparam [TW-1:0] TMO_LAST = TMO_LAST_I[TW-1:0];
    localparam [DW-1:0] RD_W    = RD_I[DW-1:0];
    localparam [PW:0]   NPORTS_W = NP_I[PW:0];

    reg [1:0]        rs_q, rs_d;
    reg [NPORTS-1:0] hdr_oh_q, hdr_oh_d;   // the header's output, one-hot (kept while BOUND)
    reg              abort_q, abort_d;
    reg [DW-1:0]     rdly_q, rdly_d;
    reg [TW-1:0]     tmo_q, tmo_d;

    // ---------------- read side ----------------
    wire [1:0] h_kind  = h_d[9:8];
    wire       h_hdr   = h_v & (h_kind == K_HDR);
    wire       h_end   = (h_kind == K_LAST) | (h_kind == K_ABORT);
    wire       out_free = |(free_vec & hdr_oh_q);       // free_q of the bound output
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
    wire [7:0] hdr_byte = h_v ? h_d[7:0] : rx_byte;
    wire [PW:0] hdr_port_full = {1'b0, hdr_byte[PW-1:0]};
    wire       hdr_ok = (hdr_byte[7:6] == 2'b10) &&
                        ((hdr_byte[5:0] >> PW) == 6'd0) &&
                        (hdr_port_full < NPORTS_W);

    always @* begin
        rs_d            = rs_q;
        hdr_oh_d        = hdr_oh_q;
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

    always @(posedge clk) begin
        if (rst) begin
            rs_q       <= RS_IDLE;
            hdr_oh_q   <= {NPORTS{1'b0}};
            abort_q    <= 1'b0;
            rdly_q     <= {DW{1'b0}};
            tmo_q      <= {TW{1'b0}};
        end else begin
            rs_q       <= rs_d;
            hdr_oh_q   <= hdr_oh_d;
            abort_q    <= abort_d;
            rdly_q     <= rdly_d;
            tmo_q      <= tmo_d;
        end
    end

    assign idle      = (rs_q == RS_IDLE);
    assign req_vec   = hdr_oh_q & {NPORTS{(rs_q == RS_HDR) & rdly_done}};
    assign abort_req = abort_q;
    assign ready     = (rs_q == RS_BOUND) & h_v & ~h_hdr;

endmodule

`default_nettype wire
