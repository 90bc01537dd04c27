`default_nettype none
// scan_io -- the serial scan harness of the FPGA synthesis wrappers (rtl/fpga/*_fpga_top.v).
//
// A core has more data pins than a package, so a wrapper feeds it through a scan chain on five
// pins:
//   clk   core clock
//   rst   synchronous reset, registered once, then to the core (core_rst)
//   sin   serial data in: shifted into shin_q every cycle
//   load  (registered) copies shin_q into the core input register in_q (core_in) and, in the same
//         cycle, the captured core outputs out_q into the output chain shout_q
//   sout  serial data out: MSB of shout_q, which shifts every cycle when load is low
//
// Every core input comes from a flop (in_q) and every core output goes into a flop (out_q), so
// nothing of the core can be optimised away and the clock's Fmax is set by the core's own paths.
// The wrapper packs the core's ports into core_in / core_out and instantiates the core with
// (* keep_hierarchy *) so scripts/synth.py counts its cells apart from the harness's.
module scan_io #(
    parameter IN_W  = 8,
    parameter OUT_W = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             sin,
    input  wire             load,
    output wire             sout,
    output wire             core_rst,
    output wire [IN_W-1:0]  core_in,
    input  wire [OUT_W-1:0] core_out
);
    reg              rst_q;
    reg              sin_q;
    reg              load_q;
    reg [IN_W-1:0]   shin_q;
    reg [IN_W-1:0]   in_q;
    reg [OUT_W-1:0]  out_q;
    reg [OUT_W-1:0]  shout_q;
    reg [OUT_W-1:0]  shout_d;

    always @(*) begin
        shout_d = {shout_q[OUT_W-2:0], 1'b0};
        if (load_q) begin
            shout_d = out_q;
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
        out_q   <= core_out;
        shout_q <= shout_d;
    end

    assign sout     = shout_q[OUT_W-1];
    assign core_rst = rst_q;
    assign core_in  = in_q;
endmodule
