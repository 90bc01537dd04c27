// sanfab — simple dual-port RAM: one write port, one read port with a registered read (block RAM:
// SB_RAM40_4K / DP16KD; distributed RAM with SANFAB_DIST_RAM). rdata holds the word read at the last
// edge with re = 1. Contents are not reset (the users never read a word they have not written).
// Used by the MLC's FIFOs; the same RAM is still written out inline in vcsw_in.v (its buffer) and
// fifo_fwft_bram.v, which should instantiate this module the next time their synthesis records
// are made anew.
`default_nettype none

module sdp_ram #(
    parameter AW = 10,
    parameter DW = 16
) (
    input  wire          clk,
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [DW-1:0] wdata,
    input  wire          re,
    input  wire [AW-1:0] raddr,
    output reg  [DW-1:0] rdata
);

`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`else
    (* ram_style = "block" *)
`endif
    reg [DW-1:0] mem [0:(1<<AW)-1];

    always @(posedge clk) begin
        if (we)
            mem[waddr] <= wdata;
        if (re)
            rdata <= mem[raddr];
    end

endmodule

`default_nettype wire
