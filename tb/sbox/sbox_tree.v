// sanfab — test top of the two-box tree bench (tb/sbox/sbox_tree_bench.c, docs/sbox.md "Verification"):
// two switch boxes (rtl/sbox/sbox.v) of one parameter set, A the root and B below it, with every port
// of both on this top's pins under the names a_* and b_*. Nothing joins them here: the bench carries
// every link, the one between A's port and B's up port UP_B as well (a link model with its delay),
// exactly as it joins the nodes. B's MLC on its up port is the link master (MASTER_MASK bit UP_B), as
// a node is on every other port; A has no up port. Test bench only: not synthesized, no .core.
`default_nettype none

module sbox_tree #(
    parameter PORTS      = 8,
    parameter NODES      = 16,
    parameter LINK_W     = 4,
    parameter FIFO_BYTES = 2048,
    parameter TURN       = 1,
    parameter TIMEOUT    = 1024,
    parameter CTR_W      = 16,
    parameter LINK_DELAY = 0,
    parameter UP_B       = 0     // B's up port (its MLC there is a master)
) (
    input  wire                     clk,
    input  wire                     rst,
    // box A (the root)
    input  wire [PORTS-1:0]         a_rx_en,
    input  wire [PORTS*LINK_W-1:0]  a_rx_d,
    output wire [PORTS-1:0]         a_tx_en,
    output wire [PORTS*LINK_W-1:0]  a_tx_d,
    input  wire                     a_reg_rd,
    input  wire                     a_reg_wr,
    input  wire [8:0]               a_reg_addr,
    input  wire [15:0]              a_reg_wdata,
    output wire                     a_reg_rvalid,
    output wire [31:0]              a_reg_rdata,
    // box B (below A)
    input  wire [PORTS-1:0]         b_rx_en,
    input  wire [PORTS*LINK_W-1:0]  b_rx_d,
    output wire [PORTS-1:0]         b_tx_en,
    output wire [PORTS*LINK_W-1:0]  b_tx_d,
    input  wire                     b_reg_rd,
    input  wire                     b_reg_wr,
    input  wire [8:0]               b_reg_addr,
    input  wire [15:0]              b_reg_wdata,
    output wire                     b_reg_rvalid,
    output wire [31:0]              b_reg_rdata
);

    sbox #(
        .PORTS(PORTS), .NODES(NODES), .LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN),
        .TIMEOUT(TIMEOUT), .CTR_W(CTR_W), .MASTER_MASK(0), .LINK_DELAY(LINK_DELAY)
    ) u_a (
        .clk(clk), .rst(rst),
        .rx_en(a_rx_en), .rx_d(a_rx_d), .tx_en(a_tx_en), .tx_d(a_tx_d),
        .reg_rd(a_reg_rd), .reg_wr(a_reg_wr), .reg_addr(a_reg_addr), .reg_wdata(a_reg_wdata),
        .reg_rvalid(a_reg_rvalid), .reg_rdata(a_reg_rdata)
    );

    sbox #(
        .PORTS(PORTS), .NODES(NODES), .LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN),
        .TIMEOUT(TIMEOUT), .CTR_W(CTR_W), .MASTER_MASK(1 << UP_B), .LINK_DELAY(LINK_DELAY)
    ) u_b (
        .clk(clk), .rst(rst),
        .rx_en(b_rx_en), .rx_d(b_rx_d), .tx_en(b_tx_en), .tx_d(b_tx_d),
        .reg_rd(b_reg_rd), .reg_wr(b_reg_wr), .reg_addr(b_reg_addr), .reg_wdata(b_reg_wdata),
        .reg_rvalid(b_reg_rvalid), .reg_rdata(b_reg_rdata)
    );

endmodule

`default_nettype wire
