`default_nettype none
// vcsw_fpga_top -- FPGA synthesis wrapper for the vcsw virtual-channel switch core.
//
// The core has hundreds of data pins, more than any package, so the wrapper feeds it through the
// shared five-pin scan harness rtl/fpga/scan_io.v (clk, rst, sin, load, sout; see its header), with
// the protocol rtl/fpga/xbar_fpga_top.v describes.
//
// Input word (MSB first): {cfg_wdata, cfg_addr, cfg_re, cfg_we, tx_stop, rx_data, rx_tail, rx_vc,
// rx_valid}; output word: {cfg_rdata, cfg_rvalid, rx_stop, tx_data, tx_tail, tx_vc, tx_valid}.
//
// scan_io loads every core input from a flop and captures every core output into a flop, so
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

    wire                     c_rst;
    wire [IN_W-1:0]          c_in;
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

    scan_io #(
        .IN_W     (IN_W),
        .OUT_W    (OUT_W)
    ) u_scan (
        .clk      (clk),
        .rst      (rst),
        .sin      (sin),
        .load     (load),
        .sout     (sout),
        .core_rst (c_rst),
        .core_in  (c_in),
        .core_out ({c_cfg_rdata, c_cfg_rvalid, c_rx_stop, c_tx_data, c_tx_tail, c_tx_vc, c_tx_valid})
    );

    (* keep_hierarchy *)
    vcsw #(
        .NPORTS     (NPORTS),
        .NVC        (NVC),
        .FLIT_W     (FLIT_W)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk        (clk),
        .rst        (c_rst),
        .rx_valid   (c_in[NPORTS-1:0]),
        .rx_vc      (c_in[O_TAIL-1:O_VC]),
        .rx_tail    (c_in[O_DATA-1:O_TAIL]),
        .rx_data    (c_in[O_STOP-1:O_DATA]),
        .rx_stop    (c_rx_stop),
        .tx_valid   (c_tx_valid),
        .tx_vc      (c_tx_vc),
        .tx_tail    (c_tx_tail),
        .tx_data    (c_tx_data),
        .tx_stop    (c_in[O_CFG-1:O_STOP]),
        .cfg_we     (c_in[O_CFG]),
        .cfg_re     (c_in[O_CFG+1]),
        .cfg_addr   (c_in[O_CFG+17:O_CFG+2]),
        .cfg_wdata  (c_in[O_CFG+33:O_CFG+18]),
        .cfg_rvalid (c_cfg_rvalid),
        .cfg_rdata  (c_cfg_rdata)
    );
endmodule
