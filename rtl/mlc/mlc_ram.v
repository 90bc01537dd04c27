// sanfab — simple dual-port RAM for the MLC's FIFOs: one write port, one read port with a
// registered read (block RAM: SB_RAM40_4K / DP16KD). rdata holds the word read at the last edge
// with re = 1. Contents are not reset (the MLC never reads a word it has not written).
`default_nettype none

module mlc_ram #(
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
