// sanfab — crossbar input port: ingress, slack buffer in block RAM, read side, and the STOP/GO
// wish for the sender feeding this port. See xbar_ingress.v, xbar_rdside.v and docs/xbar.md.
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
    output wire              ev_rx_pkt,
    output wire              ev_rx_byte,
    output wire              ev_crc_err,
    output wire              ev_drop_route,
    output wire              ev_drop_timeout,
    output wire              ev_malformed,
    output wire              ev_overflow
);

    localparam AW = $clog2(SLACK_DEPTH + 1);

    localparam integer  STOP_I  = STOP_THRESH;
    localparam integer  GO_I    = GO_THRESH;
    localparam [AW-1:0] STOP_W  = STOP_I[AW-1:0];
    localparam [AW-1:0] GO_W    = GO_I[AW-1:0];

    wire          wr;
    wire [9:0]    went;
    wire          bypass;
    wire          pop;
    wire          rd_idle;
    wire          h_v;
    wire [9:0]    h_d;
    wire [AW-1:0] occ;

    xbar_ingress #(
        .SLACK_DEPTH (SLACK_DEPTH)
    ) u_ingress (
        .clk          (clk),
        .rst          (rst),
        .rx           (rx),
        .occ          (occ),
        .rd_idle      (rd_idle),
        .wr           (wr),
        .went         (went),
        .bypass       (bypass),
        .ev_rx_pkt    (ev_rx_pkt),
        .ev_rx_byte   (ev_rx_byte),
        .ev_crc_err   (ev_crc_err),
        .ev_malformed (ev_malformed),
        .ev_overflow  (ev_overflow)
    );

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

    xbar_rdside #(
        .NPORTS      (NPORTS),
        .PW          (PW),
        .ROUTE_DELAY (ROUTE_DELAY),
        .TIMEOUT     (TIMEOUT)
    ) u_rdside (
        .clk             (clk),
        .rst             (rst),
        .h_v             (h_v),
        .h_d             (h_d),
        .bypass          (bypass),
        .rx_byte         (rx[7:0]),
        .grant           (grant),
        .free_vec        (free_vec),
        .pop             (pop),
        .idle            (rd_idle),
        .req_vec         (req_vec),
        .ready           (ready),
        .abort_req       (abort_req),
        .ev_drop_route   (ev_drop_route),
        .ev_drop_timeout (ev_drop_timeout)
    );

    // flow control wish: hysteresis on the registered occupancy
    reg want_r_q, want_r_d;

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
            want_r_q <= 1'b0;
        end else begin
            want_r_q <= want_r_d;
        end
    end

    assign head   = h_d;
    assign want_q = want_r_q;
    assign want_d = want_r_d;

endmodule

`default_nettype wire
