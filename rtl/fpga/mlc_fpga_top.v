`default_nettype none
// mlc_fpga_top -- FPGA synthesis wrapper for the mlc Maestro Link Controller core (docs/mlc.md).
//
// The core has 44 + LINK_W input and 103 + LINK_W output pins, more than the iCE40 UP5K's SG48
// package has, so the wrapper feeds it through a serial scan chain on five pins, as
// rtl/fpga/xbar_fpga_top.v and vcsw_fpga_top.v do:
//   clk   core clock
//   rst   synchronous reset, registered once, then to the core
//   sin   serial data in: shifted into shin_q every cycle
//   load  (registered) copies shin_q into the core input register in_q and, in the same cycle,
//         the captured core outputs out_q into the output chain shout_q
//   sout  serial data out: MSB of shout_q, which shifts every cycle when load is low
//
// Input word (MSB first): {reg_wdata, reg_addr, reg_wr, reg_rd, rx_d, rx_en, h_rch, h_rd,
// h_wdata, h_wch, h_wr}; output word: {reg_rdata, reg_rvalid, tx_d, tx_en, st_rx_avail1,
// st_rx_avail0, st_tx_space1, st_tx_space0, h_rdata, h_rvalid}.
//
// Every core input comes from a flop (in_q) and every core output goes into a flop (out_q), so
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

    reg              rst_q;
    reg              sin_q;
    reg              load_q;
    reg [IN_W-1:0]   shin_q;
    reg [IN_W-1:0]   in_q;
    reg [OUT_W-1:0]  out_q;
    reg [OUT_W-1:0]  shout_q;
    reg [OUT_W-1:0]  shout_d;

    wire              c_h_rvalid;
    wire [15:0]       c_h_rdata;
    wire [12:0]       c_space0, c_space1, c_avail0, c_avail1;
    wire              c_tx_en;
    wire [LINK_W-1:0] c_tx_d;
    wire              c_reg_rvalid;
    wire [31:0]       c_reg_rdata;

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
        out_q   <= {c_reg_rdata, c_reg_rvalid, c_tx_d, c_tx_en, c_avail1, c_avail0, c_space1, c_space0,
                    c_h_rdata, c_h_rvalid};
        shout_q <= shout_d;
    end

    assign sout = shout_q[OUT_W-1];

    (* keep_hierarchy *)
    mlc #(
        .LINK_W       (LINK_W)
        `SANFAB_CORE_PARAMS
    ) u_core (
        .clk          (clk),
        .rst          (rst_q),
        .h_wr         (in_q[0]),
        .h_wch        (in_q[1]),
        .h_wdata      (in_q[O_RD-1:O_WDATA]),
        .h_rd         (in_q[O_RD]),
        .h_rch        (in_q[O_RD+1]),
        .h_rvalid     (c_h_rvalid),
        .h_rdata      (c_h_rdata),
        .st_tx_space0 (c_space0),
        .st_tx_space1 (c_space1),
        .st_rx_avail0 (c_avail0),
        .st_rx_avail1 (c_avail1),
        .tx_en        (c_tx_en),
        .tx_d         (c_tx_d),
        .rx_en        (in_q[O_RXEN]),
        .rx_d         (in_q[O_REG-1:O_RXD]),
        .reg_rd       (in_q[O_REG]),
        .reg_wr       (in_q[O_REG+1]),
        .reg_addr     (in_q[O_REG+6:O_REG+2]),
        .reg_wdata    (in_q[O_REG+22:O_REG+7]),
        .reg_rvalid   (c_reg_rvalid),
        .reg_rdata    (c_reg_rdata)
    );
endmodule
