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
    input  wire              gp,          // an output's grant pulse names this input
    input  wire              mp,          // an output's may-pop bit names this input
    output wire [NPORTS-1:0] req_vec,     // one-hot: the output this input requests now
    output wire [9:0]        xf_d,        // transfer register: the entry (zero when none) ...
    output wire [NPORTS-1:0] xf_to,       // ... for this output, one-hot (zero when none)
    output wire [NPORTS-1:0] xf_end,      // one-hot: the transfer ends its packet on this output
    output wire              ab,          // abort request for the owning output (registered pulse)
    output wire              want,        // STOP wanted for this input's buffer (registered)
    output wire [7:0]        occ8,        // slack buffer occupancy (registered)
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
        .gp              (gp),
        .mp              (mp),
        .pop             (pop),
        .idle            (rd_idle),
        .req_vec         (req_vec),
        .xf_d            (xf_d),
        .xf_to           (xf_to),
        .xf_end          (xf_end),
        .ab              (ab),
        .ev_drop_route   (ev_drop_route),
        .ev_drop_timeout (ev_drop_timeout)
    );

    // flow control wish: hysteresis on the registered occupancy
    reg want_q, want_d;
`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_go_nohyst, mut_go_zero, mut_occ_top;
    sanfab_mutant #(.NAME("GO_NOHYST")) u_mut_go_nohyst (.on(mut_go_nohyst));
    sanfab_mutant #(.NAME("GO_ZERO"))   u_mut_go_zero   (.on(mut_go_zero));
    sanfab_mutant #(.NAME("OCC_TOP"))   u_mut_occ_top   (.on(mut_occ_top));
`endif

    always @* begin
        want_d = want_q;
`ifdef SANFAB_MUTANTS
        if (mut_go_nohyst)
            want_d = (occ >= STOP_W);  // deliberately broken: GO as soon as it falls below STOP
        else
`endif
        if (occ >= STOP_W) begin
            want_d = 1'b1;
        end else if (
`ifdef SANFAB_MUTANTS
                     // deliberately broken: GO when occ - 1 < GO_THRESH, which never holds for GO_THRESH 0
                     // (occ - 1 wraps at 0); the same as occ <= GO_THRESH for every other GO_THRESH
                     /* verilator lint_off UNSIGNED */
                     mut_go_zero ? (occ - {{(AW-1){1'b0}}, 1'b1} < GO_W) :
                     /* verilator lint_on UNSIGNED */
`endif
                     occ <= GO_W) begin
            want_d = 1'b0;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            want_q <= 1'b0;
        end else begin
            want_q <= want_d;
        end
    end

    assign want = want_q;
    generate
        if (AW < 8) begin : g_occ_narrow
            assign occ8 = {{(8-AW){1'b0}}, occ};
`ifdef SANFAB_MUTANTS
            wire unused_mut_occ_top = mut_occ_top;  // (OCC_TOP: no bit 7 to break below 128 entries)
`endif
        end else begin : g_occ_full
            assign occ8 =
`ifdef SANFAB_MUTANTS
                          mut_occ_top ? {1'b0, occ[6:0]} :  // deliberately broken: stat_occ's top bit stuck at 0
`endif
                          occ[7:0];
        end
    endgenerate

endmodule

`default_nettype wire
