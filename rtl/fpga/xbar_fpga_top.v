`default_nettype none
// xbar_fpga_top -- FPGA synthesis wrapper for the xbar crossbar core.
//
// The core has NPORTS*9*2 + 42 data pins, far more than any package, so the wrapper feeds it
// through a serial scan chain on five pins:
//   clk   core clock
//   rst   synchronous reset, registered once, then to the core
//   sin   serial data in: shifted into shin_q every cycle
//   load  (registered) copies shin_q into the core input register in_q and, in the same cycle,
//         the captured core outputs out_q into the output chain shout_q
//   sout  serial data out: MSB of shout_q, which shifts every cycle when load is low
//
// Protocol (sin, load and rst are registered once at the pins): drive the IN_W-bit input word
// {reg_addr, reg_rd, rx} on sin MSB first, one bit per cycle, and raise load for one cycle in the
// cycle right after the last bit; the core sees the word two cycles later. The same load copies
// the core's outputs {stat_occ, reg_rvalid, reg_rdata, tx} (as registered one cycle earlier) into the output
// chain; sout then shows them MSB first, one bit per cycle.
//
// Every core input comes from a flop (in_q) and every core output goes into a flop (out_q), so
// nothing of the core can be optimised away and the wrapper's own paths are flop -> (mux) -> flop,
// trivially fast: the clock's Fmax is set by the core's own paths. The core instance is kept as
// its own hierarchy level (keep_hierarchy) so scripts/synth.py can count the core's cells apart
// from the wrapper's and no logic moves across the boundary.
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
    localparam IN_W  = RX_W + 1 + 8;   // {reg_addr, reg_rd, rx}
    localparam OUT_W = NPORTS * 8 + RX_W + 32 + 1;  // {stat_occ, reg_rvalid, reg_rdata, tx}

    reg              rst_q;
    reg              sin_q;
    reg              load_q;
    reg [IN_W-1:0]   shin_q;
    reg [IN_W-1:0]   in_q;
    reg [OUT_W-1:0]  out_q;
    reg [OUT_W-1:0]  shout_q;
    reg [OUT_W-1:0]  shout_d;

    wire [RX_W-1:0]  core_tx;
    wire [31:0]      core_reg_rdata;
    wire             core_reg_rvalid;
    wire [NPORTS*8-1:0] core_stat_occ;

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
        out_q   <= {core_stat_occ, core_reg_rvalid, core_reg_rdata, core_tx};
        shout_q <= shout_d;
    end

    assign sout = shout_q[OUT_W-1];

    (* keep_hierarchy *)
    xbar #(
        .NPORTS     (NPORTS)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk        (clk),
        .rst        (rst_q),
        .rx         (in_q[RX_W-1:0]),
        .tx         (core_tx),
        .reg_rd     (in_q[RX_W]),
        .reg_addr   (in_q[RX_W+8:RX_W+1]),
        .reg_rdata  (core_reg_rdata),
        .reg_rvalid (core_reg_rvalid),
        .stat_occ   (core_stat_occ)
    );
endmodule
