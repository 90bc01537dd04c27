`default_nettype none
// sbox_fpga_top -- FPGA synthesis wrapper for the sbox Maestro switch box core (docs/sbox.md).
//
// The core's PORTS links and register port go through the shared scan harness rtl/fpga/scan_io.v
// (five pins: clk, rst, sin, load, sout; see its header).
//
// Input word (MSB first): {reg_wdata, reg_addr, reg_wr, reg_rd, rx_d, rx_en}; output word:
// {reg_rdata, reg_rvalid, tx_d, tx_en}.
//
// Only the width-setting parameters PORTS and LINK_W are wrapper parameters; any other core
// parameter is passed in by scripts/synth.py as the macro SANFAB_CORE_PARAMS, so the core's
// defaults are never copied here.
`ifndef SANFAB_CORE_PARAMS
`define SANFAB_CORE_PARAMS
`endif

module sbox_fpga_top #(
    parameter PORTS  = 8,
    parameter LINK_W = 4
) (
    input  wire clk,
    input  wire rst,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam LW    = PORTS * (1 + LINK_W);   // one direction of all links
    localparam IN_W  = LW + 2 + 9 + 16;
    localparam OUT_W = LW + 1 + 32;

    wire              c_rst;
    wire [IN_W-1:0]   c_in;
    wire [PORTS-1:0]  c_tx_en;
    wire [PORTS*LINK_W-1:0] c_tx_d;
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
        .core_out ({c_reg_rdata, c_reg_rvalid, c_tx_d, c_tx_en})
    );

    (* keep_hierarchy *)
    sbox #(
        .PORTS      (PORTS),
        .LINK_W     (LINK_W)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk        (clk),
        .rst        (c_rst),
        .rx_en      (c_in[PORTS-1:0]),
        .rx_d       (c_in[LW-1:PORTS]),
        .tx_en      (c_tx_en),
        .tx_d       (c_tx_d),
        .reg_rd     (c_in[LW]),
        .reg_wr     (c_in[LW+1]),
        .reg_addr   (c_in[LW+10:LW+2]),
        .reg_wdata  (c_in[LW+26:LW+11]),
        .reg_rvalid (c_reg_rvalid),
        .reg_rdata  (c_reg_rdata)
    );
endmodule
