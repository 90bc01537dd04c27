`default_nettype none
// vnet_fpga_top -- FPGA synthesis wrapper for the generated 4-switch VC network rtl/net/vnet4.v
// (docs/network.md "RTL network": 4 VC switches of 4 ports in a ring, 8 hosts, every switch's table write port).
//
// The network's host links and table write ports go through the shared scan harness rtl/fpga/scan_io.v (five
// pins: clk, rst, sin, load, sout; see its header), as the VC switch's own wrapper feeds its ports.
//
// Input word (MSB first): {cfg_wdata (4 x 16), cfg_addr (4 x 16), cfg_we (4), from_host_stop (8 x NVC),
// from_host_data (8 x FLIT_W), from_host_tail (8), from_host_vc (8 x VCW), from_host_valid (8)}; output word:
// {to_host_stop, to_host_data, to_host_tail, to_host_vc, to_host_valid}. The switch outputs buses sw_tx_* and
// sw_rx_stop (for the lockstep bench) are not brought out: every switch output already drives a link or a host.
//
// Only the width-setting parameters are wrapper parameters; any other core parameter is passed in by
// scripts/synth.py as the macro SANFAB_CORE_PARAMS (e.g. ", .DEPTH(16)"), so the network's defaults (sanfab-sim's
// Koibuchi et al. 2003 set) are never copied here.
`ifndef SANFAB_CORE_PARAMS
`define SANFAB_CORE_PARAMS
`endif

module vnet_fpga_top #(
    parameter NVC    = 2,
    parameter FLIT_W = 16
) (
    input  wire clk,
    input  wire rst,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam HOSTS = 8;
    localparam SWS   = 4;
    localparam PORTS = 16;
    localparam VCW   = $clog2(NVC);
    localparam HW    = HOSTS * (2 + VCW + FLIT_W + NVC);   // one direction of every host link, stop bits included
    localparam CW    = SWS * (1 + 16 + 16);                // the table write ports
    localparam IN_W  = HW + CW;
    localparam OUT_W = HW;

    wire                      c_rst;
    wire [IN_W-1:0]           c_in;
    wire [HOSTS-1:0]          c_to_valid, c_to_tail;
    wire [HOSTS*VCW-1:0]      c_to_vc;
    wire [HOSTS*FLIT_W-1:0]   c_to_data;
    wire [HOSTS*NVC-1:0]      c_to_stop;
    wire [PORTS-1:0]          c_sw_valid, c_sw_tail;
    wire [PORTS*VCW-1:0]      c_sw_vc;
    wire [PORTS*FLIT_W-1:0]   c_sw_data;
    wire [PORTS*NVC-1:0]      c_sw_stop;

    // input word fields
    localparam O_VC   = HOSTS;
    localparam O_TAIL = O_VC + HOSTS * VCW;
    localparam O_DATA = O_TAIL + HOSTS;
    localparam O_STOP = O_DATA + HOSTS * FLIT_W;
    localparam O_WE   = O_STOP + HOSTS * NVC;
    localparam O_ADDR = O_WE + SWS;
    localparam O_WDAT = O_ADDR + SWS * 16;

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
        .core_out ({c_to_stop, c_to_data, c_to_tail, c_to_vc, c_to_valid})
    );

    (* keep_hierarchy *)
    vnet4 #(
        .NVC    (NVC),
        .FLIT_W (FLIT_W)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk             (clk),
        .rst             (c_rst),
        .cfg_we          (c_in[O_WE +: SWS]),
        .cfg_addr        (c_in[O_ADDR +: SWS * 16]),
        .cfg_wdata       (c_in[O_WDAT +: SWS * 16]),
        .from_host_valid (c_in[0 +: HOSTS]),
        .from_host_vc    (c_in[O_VC +: HOSTS * VCW]),
        .from_host_tail  (c_in[O_TAIL +: HOSTS]),
        .from_host_data  (c_in[O_DATA +: HOSTS * FLIT_W]),
        .from_host_stop  (c_in[O_STOP +: HOSTS * NVC]),
        .to_host_valid   (c_to_valid),
        .to_host_vc      (c_to_vc),
        .to_host_tail    (c_to_tail),
        .to_host_data    (c_to_data),
        .to_host_stop    (c_to_stop),
        .sw_tx_valid     (c_sw_valid),
        .sw_tx_vc        (c_sw_vc),
        .sw_tx_tail      (c_sw_tail),
        .sw_tx_data      (c_sw_data),
        .sw_rx_stop      (c_sw_stop)
    );

    wire unused_ok = &{1'b0, c_sw_valid, c_sw_vc, c_sw_tail, c_sw_data, c_sw_stop};
endmodule

`default_nettype wire
