// sanfab — two Maestro Link Controllers of one link, the master (MASTER = 1) and the slave
// (MASTER = 0), side by side for the lockstep bench: ports a_* of the master and b_* of the slave,
// each the mlc's ports. The link between them is not here: the bench carries tx_* to rx_* through
// its link model (LINK_DELAY cable registers, with injected faults), as it does for the C models;
// LINK_DELAY also sets the slave's GUARD (docs/mlc.md rule 2).
`default_nettype none

module mlc_pair #(
    parameter LINK_W     = 4,
    parameter FIFO_BYTES = 2048,
    parameter TURN       = 1,
    parameter TIMEOUT    = 1024,
    parameter CTR_W      = 16,
    parameter LINK_DELAY = 0      // the bench's link model (docs/mlc.md); sets the slave's GUARD

) (
    input  wire              clk,
    input  wire              rst,
    input  wire              a_h_wr,
    input  wire              a_h_wch,
    input  wire [15:0]       a_h_wdata,
    input  wire              a_h_rd,
    input  wire              a_h_rch,
    output wire              a_h_rvalid,
    output wire [15:0]       a_h_rdata,
    output wire [12:0]       a_st_tx_space0,
    output wire [12:0]       a_st_tx_space1,
    output wire [12:0]       a_st_rx_avail0,
    output wire [12:0]       a_st_rx_avail1,
    output wire              a_tx_en,
    output wire [LINK_W-1:0] a_tx_d,
    input  wire              a_rx_en,
    input  wire [LINK_W-1:0] a_rx_d,
    input  wire              a_reg_rd,
    input  wire              a_reg_wr,
    input  wire [4:0]        a_reg_addr,
    input  wire [15:0]       a_reg_wdata,
    output wire              a_reg_rvalid,
    output wire [31:0]       a_reg_rdata,
    input  wire              b_h_wr,
    input  wire              b_h_wch,
    input  wire [15:0]       b_h_wdata,
    input  wire              b_h_rd,
    input  wire              b_h_rch,
    output wire              b_h_rvalid,
    output wire [15:0]       b_h_rdata,
    output wire [12:0]       b_st_tx_space0,
    output wire [12:0]       b_st_tx_space1,
    output wire [12:0]       b_st_rx_avail0,
    output wire [12:0]       b_st_rx_avail1,
    output wire              b_tx_en,
    output wire [LINK_W-1:0] b_tx_d,
    input  wire              b_rx_en,
    input  wire [LINK_W-1:0] b_rx_d,
    input  wire              b_reg_rd,
    input  wire              b_reg_wr,
    input  wire [4:0]        b_reg_addr,
    input  wire [15:0]       b_reg_wdata,
    output wire              b_reg_rvalid,
    output wire [31:0]       b_reg_rdata
);

`ifndef SYNTHESIS
    // parameter check of the pair's own parameter (simulation and lint; each mlc checks the others): a LINK_DELAY
    // outside docs/mlc.md's 0..64 instantiates a module that does not exist, and Verilator and Icarus stop there
    generate
        if (LINK_DELAY < 0 || LINK_DELAY > 64) begin : g_bad_link_delay
            mlc_pair_parameter_LINK_DELAY_must_be_0_to_64 bad ();
        end
    endgenerate
`endif

    mlc #(.LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN), .MASTER(1), .TIMEOUT(TIMEOUT),
          .CTR_W(CTR_W)) u_a (
        .clk(clk), .rst(rst),
        .h_wr(a_h_wr), .h_wch(a_h_wch), .h_wdata(a_h_wdata), .h_rd(a_h_rd), .h_rch(a_h_rch),
        .h_rvalid(a_h_rvalid), .h_rdata(a_h_rdata),
        .st_tx_space0(a_st_tx_space0), .st_tx_space1(a_st_tx_space1),
        .st_rx_avail0(a_st_rx_avail0), .st_rx_avail1(a_st_rx_avail1),
        .tx_en(a_tx_en), .tx_d(a_tx_d), .rx_en(a_rx_en), .rx_d(a_rx_d),
        .reg_rd(a_reg_rd), .reg_wr(a_reg_wr), .reg_addr(a_reg_addr), .reg_wdata(a_reg_wdata),
        .reg_rvalid(a_reg_rvalid), .reg_rdata(a_reg_rdata));

    // the slave's guard (docs/mlc.md rule 2): 2 LINK_DELAY + 4 + TURN of the master (the same TURN)
    mlc #(.LINK_W(LINK_W), .FIFO_BYTES(FIFO_BYTES), .TURN(TURN), .MASTER(0), .TIMEOUT(TIMEOUT),
          .CTR_W(CTR_W), .GUARD(2 * LINK_DELAY + 4 + TURN)) u_b (
        .clk(clk), .rst(rst),
        .h_wr(b_h_wr), .h_wch(b_h_wch), .h_wdata(b_h_wdata), .h_rd(b_h_rd), .h_rch(b_h_rch),
        .h_rvalid(b_h_rvalid), .h_rdata(b_h_rdata),
        .st_tx_space0(b_st_tx_space0), .st_tx_space1(b_st_tx_space1),
        .st_rx_avail0(b_st_rx_avail0), .st_rx_avail1(b_st_rx_avail1),
        .tx_en(b_tx_en), .tx_d(b_tx_d), .rx_en(b_rx_en), .rx_d(b_rx_d),
        .reg_rd(b_reg_rd), .reg_wr(b_reg_wr), .reg_addr(b_reg_addr), .reg_wdata(b_reg_wdata),
        .reg_rvalid(b_reg_rvalid), .reg_rdata(b_reg_rdata));

endmodule

`default_nettype wire
