`default_nettype none
// net_fpga_top -- FPGA synthesis wrapper for the generated 4-switch network rtl/net/net4.v
// (docs/network.md "RTL network": 4 crossbars of 4 ports in a ring, 8 hosts, cables of CABLE_DELAY and
// HOST_DELAY registers).
//
// The network's host links go through the shared scan harness rtl/fpga/scan_io.v (five pins: clk,
// rst, sin, load, sout; see its header), as the crossbar's own wrapper feeds its ports.
//
// Input word (MSB first): from_host (8 x 9 bits); output word: to_host (8 x 9 bits). The switch
// outputs bus sw_tx (for the lockstep bench) is not brought out: every switch output already drives a
// cable or a host link.
//
// No network parameter is a wrapper parameter (the host count is fixed by the generated top); any
// core parameter is passed in by scripts/synth.py as the macro SANFAB_CORE_PARAMS (e.g.
// ", .TIMEOUT(4096)"), so the network's defaults (sanfab-sim's Myrinet timing) are never copied here.
`ifndef SANFAB_CORE_PARAMS
`define SANFAB_CORE_PARAMS
`endif

module net_fpga_top (
    input  wire clk,
    input  wire rst,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam HOSTS = 8;
    localparam PORTS = 16;
    localparam HW    = HOSTS * 9;

    wire          c_rst;
    wire [HW-1:0] c_in;
    wire [HW-1:0] c_to_host;
    wire [PORTS*9-1:0] c_sw_tx;

    scan_io #(
        .IN_W     (HW),
        .OUT_W    (HW)
    ) u_scan (
        .clk      (clk),
        .rst      (rst),
        .sin      (sin),
        .load     (load),
        .sout     (sout),
        .core_rst (c_rst),
        .core_in  (c_in),
        .core_out (c_to_host)
    );

    (* keep_hierarchy *)
    net4 #(
        .HOST_DELAY (8)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk       (clk),
        .rst       (c_rst),
        .from_host (c_in),
        .to_host   (c_to_host),
        .sw_tx     (c_sw_tx)
    );

    wire unused_ok = &{1'b0, c_sw_tx};
endmodule

`default_nettype wire
