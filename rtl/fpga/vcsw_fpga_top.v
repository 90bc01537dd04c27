`default_nettype none
// vcsw_fpga_top -- FPGA synthesis wrapper for the vcsw virtual-channel switch core.
//
// The core has hundreds of data pins, more than any package, so the wrapper feeds it through a
// serial scan chain on five pins, as rtl/fpga/xbar_fpga_top.v does:
//   clk   core clock
//   rst   synchronous reset, registered once, then to the core
//   sin   serial data in: shifted into shin_q every cycle
//   load  (registered) copies shin_q into the core input register in_q and, in the same cycle,
//         the captured core outputs out_q into the output chain shout_q
//   sout  serial data out: MSB of shout_q, which shifts every cycle when load is low
//
// Input word (MSB first): {cfg_wdata, cfg_addr, cfg_re, cfg_we, tx_stop, rx_data, rx_tail, rx_vc,
// rx_valid}; output word: {cfg_rdata, cfg_rvalid, rx_stop, tx_data, tx_tail, tx_vc, tx_valid}.
//
// Every core input comes from a flop (in_q) and every core output goes into a flop (out_q), so
// nothing of the core can be optimised away and the clock's Fmax is set by the core's own paths.
// The core instance is its own hierarchy level (keep_hierarchy) so scripts/synth.py counts its
// cells apart from the wrapper's.
//
// Only the width-setting parameters are wrapper parameters; any other core parameter is passed in
// by scripts/synth.py as the macro SANFAB_CORE_PARAMS (e.g. ", .DEPTH(32)"), so the core's defaults
// are never copied here.
`ifndef SANFAB_CORE_PARAMS
`define SANFAB_CORE_PARAMS
`endif

module vcsw_fpga_top #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter FLIT_W = 16
) (
    input  wire clk,
    input  wire rst,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam VCW   = $clog2(NVC);
    localparam LW    = NPORTS * (2 + VCW + FLIT_W);      // one direction of all links
    localparam SW    = NPORTS * NVC;                     // stop bits
    localparam IN_W  = LW + SW + 2 + 16 + 16;
    localparam OUT_W = LW + SW + 1 + 32;

    reg              rst_q;
    reg              sin_q;
    reg              load_q;
    reg [IN_W-1:0]   shin_q;
    reg [IN_W-1:0]   in_q;
    reg [OUT_W-1:0]  out_q;
    reg [OUT_W-1:0]  shout_q;
    reg [OUT_W-1:0]  shout_d;

    wire [NPORTS-1:0]        c_tx_valid, c_tx_tail;
    wire [NPORTS*VCW-1:0]    c_tx_vc;
    wire [NPORTS*FLIT_W-1:0] c_tx_data;
    wire [SW-1:0]            c_rx_stop;
    wire                     c_cfg_rvalid;
    wire [31:0]              c_cfg_rdata;

    // input word fields
    localparam O_VC   = NPORTS;
    localparam O_TAIL = O_VC + NPORTS * VCW;
    localparam O_DATA = O_TAIL + NPORTS;
    localparam O_STOP = O_DATA + NPORTS * FLIT_W;
    localparam O_CFG  = O_STOP + SW;

    always @(*) begin
        if (load_q) begin
            shout_d = out_q;
        end else begin
            shout_d = {shout_q[OUT_W-2:0], 1'b0};
        end
    end

    always @(posedge clk) begin
        rst_q   <= rst;
        sin_q   <= sin;
        load_q  <= load;
        shin_q  <= {shin_q[IN_W-2:0], sin_q};
        if (load_q) begin
            in_q <= shin_q;
        end
        out_q   <= {c_cfg_rdata, c_cfg_rvalid, c_rx_stop, c_tx_data, c_tx_tail, c_tx_vc, c_tx_valid};
        shout_q <= shout_d;
    end

    assign sout = shout_q[OUT_W-1];

    (* keep_hierarchy *)
    vcsw #(
        .NPORTS     (NPORTS),
        .NVC        (NVC),
        .FLIT_W     (FLIT_W)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk        (clk),
        .rst        (rst_q),
        .rx_valid   (in_q[NPORTS-1:0]),
        .rx_vc      (in_q[O_TAIL-1:O_VC]),
        .rx_tail    (in_q[O_DATA-1:O_TAIL]),
        .rx_data    (in_q[O_STOP-1:O_DATA]),
        .rx_stop    (c_rx_stop),
        .tx_valid   (c_tx_valid),
        .tx_vc      (c_tx_vc),
        .tx_tail    (c_tx_tail),
        .tx_data    (c_tx_data),
        .tx_stop    (in_q[O_CFG-1:O_STOP]),
        .cfg_we     (in_q[O_CFG]),
        .cfg_re     (in_q[O_CFG+1]),
        .cfg_addr   (in_q[O_CFG+17:O_CFG+2]),
        .cfg_wdata  (in_q[O_CFG+33:O_CFG+18]),
        .cfg_rvalid (c_cfg_rvalid),
        .cfg_rdata  (c_cfg_rdata)
    );
endmodule
