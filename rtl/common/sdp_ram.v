// sanfab — simple dual-port RAM: one write port, one read port with a registered read (block RAM:
// SB_RAM40_4K / DP16KD; distributed RAM with SANFAB_DIST_RAM). rdata holds the word read at the last
// edge with re = 1. Contents are not reset (the users never read a word they have not written).
//
// Users never read a word in the step they write it, so the RAM is marked no_rw_check: Yosys builds
// no read-during-write bypass (on iCE40 an address and data register and a compare per RAM, about 30
// LUT4 and 40 FF, with the block RAMs joined through an output mux) and the RAM is block RAM only. A
// read of the word being written is not defined (simulation returns the old word).
//
// Used by the MLC's FIFOs (rtl/mlc/mlc_hostq.v says why they keep that rule). The crossbar's slack buffers
// (fifo_fwft_bram.v) and the VC switch's buffer (vcsw_in.v) still write their RAM out inline; they
// should instantiate this module, where they keep its rule, the next time their synthesis records
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
    (* ram_style = "distributed", no_rw_check *)
`else
    (* ram_style = "block", no_rw_check *)
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
