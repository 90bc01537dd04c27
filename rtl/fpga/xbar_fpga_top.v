`default_nettype none
// xbar_fpga_top -- FPGA synthesis wrapper for the xbar crossbar core.
//
// The core has NPORTS*9*2 + NPORTS*8 + 42 data pins (43 above 16 ports), far more than any
// package, so the wrapper feeds it through the shared five-pin scan harness rtl/fpga/scan_io.v
// (clk, rst, sin, load, sout; see its header).
//
// Protocol (sin, load and rst are registered once at the pins): drive the IN_W-bit input word
// {reg_addr, reg_rd, rx} on sin MSB first, one bit per cycle, and raise load for one cycle in the
// cycle right after the last bit; the core sees the word two cycles later. The same load copies
// the core's outputs {stat_occ, reg_rvalid, reg_rdata, tx} (as registered one cycle earlier) into the output
// chain; sout then shows them MSB first, one bit per cycle (scripts/test_synth.py checks this).
//
// scan_io loads every core input from a flop and captures every core output into a flop, so
// nothing of the core can be optimised away and the clock's Fmax is set by the core's own paths.
// The core instance is kept as its own hierarchy level (keep_hierarchy) so scripts/synth.py can
// count the core's cells apart from the wrapper's and no logic moves across the boundary.
//
// Only the width-setting parameter NPORTS is a wrapper parameter. Any other core parameter is
// passed in by scripts/synth.py as the macro SANFAB_CORE_PARAMS (e.g. ", .SLACK_DEPTH(40)"), so
// the core's defaults are never copied here: a parameter not named in the config keeps the core's
// own default. Without the macro (plain simulation or lint) only NPORTS is overridden.
`ifndef SANFAB_CORE_PARAMS
`define SANFAB_CORE_PARAMS
`endif

module xbar_fpga_top #(
    parameter NPORTS = 8
) (
    input  wire clk,
    input  wire rst,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam RX_W  = NPORTS * 9;
    localparam RA_W  = (NPORTS > 16) ? 9 : 8;  // reg_addr: {port, counter[3:0]}
    localparam IN_W  = RX_W + 1 + RA_W;        // {reg_addr, reg_rd, rx}
    localparam OUT_W = NPORTS * 8 + RX_W + 32 + 1;  // {stat_occ, reg_rvalid, reg_rdata, tx}

    wire             c_rst;
    wire [IN_W-1:0]  c_in;
    wire [RX_W-1:0]  core_tx;
    wire [31:0]      core_reg_rdata;
    wire             core_reg_rvalid;
    wire [NPORTS*8-1:0] core_stat_occ;

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
        .core_out ({core_stat_occ, core_reg_rvalid, core_reg_rdata, core_tx})
    );

    (* keep_hierarchy *)
    xbar #(
        .NPORTS     (NPORTS)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk        (clk),
        .rst        (c_rst),
        .rx         (c_in[RX_W-1:0]),
        .tx         (core_tx),
        .reg_rd     (c_in[RX_W]),
        .reg_addr   (c_in[RX_W+RA_W:RX_W+1]),
        .reg_rdata  (core_reg_rdata),
        .reg_rvalid (core_reg_rvalid),
        .stat_occ   (core_stat_occ)
    );
endmodule
