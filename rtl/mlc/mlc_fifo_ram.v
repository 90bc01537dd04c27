// sanfab — one FIFO RAM of the MLC (docs/mlc.md, Implementation notes): a simple dual-port RAM of
// 2^AW words of DW bits with a registered read that holds its word until the next read (re = 1).
// The same RAM as rtl/common/sdp_ram.v, but marked no_rw_check: the MLC never reads a word in the
// step it writes it (send FIFO: the host writes at wr, the link reads complete units below it;
// receive FIFO: the link writes at most cadv units beyond acc, which the credit keeps clear of the
// word the host reads at rd), so Yosys need not build its read-during-write bypass (on iCE40 a
// 10-11 bit address and data register and a compare per RAM, about 30 LUT4 and 40 FF, with the
// block RAMs joined through an output mux) and the RAM is block RAM only.
`default_nettype none

module mlc_fifo_ram #(
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

    (* ram_style = "block", no_rw_check *)
    reg [DW-1:0] mem [0:(1<<AW)-1];

    always @(posedge clk) begin
        if (we)
            mem[waddr] <= wdata;
        if (re)
            rdata <= mem[raddr];
    end

endmodule

`default_nettype wire
