// sanfab — round-robin arbiter with a registered priority mask.
//
// When `en` is high and any request is set, `gnt` grants the first request at or after the
// priority position (wrapping); the position then moves past the granted input, so a granted
// input has the lowest priority next time. The position is kept as a mask of the inputs above
// the last grant: the lowest masked request wins, else the lowest request.
//
// Both "lowest set bit" searches are two's-complement operations side by side (x & -x keeps the
// lowest set bit of x): on FPGAs they map to short carry chains instead of an N-deep priority
// chain of LUTs. The new mask (the inputs strictly above the grant) is ~((gnt << 1) - 1).
// Combinational one-hot grant, registered mask.
`default_nettype none

module rr_arbiter #(
    parameter N = 8
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         en,
    input  wire [N-1:0] req,
    output wire         gnt_valid,
    output wire [N-1:0] gnt
);

    reg  [N-1:0] mask_q;                          // inputs strictly above the last grant
    wire [N-1:0] one    = {{(N-1){1'b0}}, 1'b1};
    wire [N-1:0] req_m  = req & mask_q;
    wire [N-1:0] low_m  = req_m & (~req_m + one);   // lowest masked request
    wire [N-1:0] low_a  = req & (~req + one);       // lowest request
    wire [N-1:0] pick   = (|req_m) ? low_m : low_a;
    wire [N-1:0] above  = ~({pick[N-2:0], 1'b0} - one);

    assign gnt_valid = en & (|req);
    assign gnt       = en ? pick : {N{1'b0}};

    always @(posedge clk) begin
        if (rst) begin
            mask_q <= {N{1'b1}};
        end else if (gnt_valid) begin
`ifdef SANFAB_MUTANT_RR_NOROTATE
            mask_q <= mask_q;  // deliberately broken: the priority never moves
`else
            mask_q <= above;
`endif
        end
    end

endmodule

`default_nettype wire
