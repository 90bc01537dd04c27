`default_nettype none
// mlc_fpga_top -- FPGA synthesis wrapper for the mlc Maestro Link Controller core (docs/mlc.md).
//
// The core has 44 + LINK_W input and 103 + LINK_W output pins, more than the iCE40 UP5K's SG48
// package has, so the wrapper feeds it through the shared five-pin scan harness rtl/fpga/scan_io.v
// (clk, rst, sin, load, sout; see there), as every block's wrapper does.
//
// Input word (MSB first): {reg_wdata, reg_addr, reg_wr, reg_rd, rx_d, rx_en, h_rch, h_rd,
// h_wdata, h_wch, h_wr}; output word: {reg_rdata, reg_rvalid, tx_d, tx_en, st_rx_avail1,
// st_rx_avail0, st_tx_space1, st_tx_space0, h_rdata, h_rvalid}.
//
// scan_io loads every core input from a flop and captures every core output into a flop, so
// nothing of the core can be optimised away and the clock's Fmax is set by the core's own paths.
// The core instance is its own hierarchy level (keep_hierarchy) so scripts/synth.py counts its
// cells apart from the wrapper's.
//
// Only the width-setting parameter LINK_W is a wrapper parameter; any other core parameter
// (MASTER, FIFO_BYTES, TURN, TIMEOUT, CTR_W) is passed in by scripts/synth.py as the macro
// SANFAB_CORE_PARAMS (e.g. ", .MASTER(1)"), so the core's defaults are never copied here.
`ifndef SANFAB_CORE_PARAMS
`define SANFAB_CORE_PARAMS
`endif

module mlc_fpga_top #(
    parameter LINK_W = 4
) (
    input  wire clk,
    input  wire rst,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam IN_W  = 44 + LINK_W;
    localparam OUT_W = 103 + LINK_W;

    // input word fields
    localparam O_WDATA = 2;                 // h_wdata
    localparam O_RD    = O_WDATA + 16;      // h_rd, then h_rch
    localparam O_RXEN  = O_RD + 2;          // rx_en
    localparam O_RXD   = O_RXEN + 1;        // rx_d
    localparam O_REG   = O_RXD + LINK_W;    // reg_rd, reg_wr, reg_addr, reg_wdata

    wire              c_rst;
    wire [IN_W-1:0]   c_in;
    wire              c_h_rvalid;
    wire [15:0]       c_h_rdata;
    wire [12:0]       c_space0, c_space1, c_avail0, c_avail1;
    wire              c_tx_en;
    wire [LINK_W-1:0] c_tx_d;
    wire              c_reg_rvalid;
    wire [31:0]       c_reg_rdata;

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
        .core_out ({c_reg_rdata, c_reg_rvalid, c_tx_d, c_tx_en, c_avail1, c_avail0, c_space1, c_space0,
                    c_h_rdata, c_h_rvalid})
    );

    (* keep_hierarchy *)
    mlc #(
        .LINK_W       (LINK_W)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk          (clk),
        .rst          (c_rst),
        .h_wr         (c_in[0]),
        .h_wch        (c_in[1]),
        .h_wdata      (c_in[O_RD-1:O_WDATA]),
        .h_rd         (c_in[O_RD]),
        .h_rch        (c_in[O_RD+1]),
        .h_rvalid     (c_h_rvalid),
        .h_rdata      (c_h_rdata),
        .st_tx_space0 (c_space0),
        .st_tx_space1 (c_space1),
        .st_rx_avail0 (c_avail0),
        .st_rx_avail1 (c_avail1),
        .tx_en        (c_tx_en),
        .tx_d         (c_tx_d),
        .rx_en        (c_in[O_RXEN]),
        .rx_d         (c_in[O_REG-1:O_RXD]),
        .reg_rd       (c_in[O_REG]),
        .reg_wr       (c_in[O_REG+1]),
        .reg_addr     (c_in[O_REG+6:O_REG+2]),
        .reg_wdata    (c_in[O_REG+22:O_REG+7]),
        .reg_rvalid   (c_reg_rvalid),
        .reg_rdata    (c_reg_rdata)
    );
endmodule
