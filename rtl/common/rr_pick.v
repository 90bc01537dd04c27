// sanfab — round-robin pick, combinational: the first request at or after a priority position.
//
// The position is given as a mask of the inputs at or after it (`mask`): the lowest masked request
// wins, else the lowest request (wrapping). `above` is the mask of the inputs strictly above the
// winner: the position after it. Both "lowest set bit" searches are two's-complement negations:
// x & -x keeps the lowest set bit of x and x ^ -x is every bit above it, so on FPGAs the pick is
// two short carry chains and a row of LUTs instead of an N-deep priority chain.
// Used by rr_arbiter (registered position) and where the position comes from elsewhere (vcsw_in_offer).
`default_nettype none

module rr_pick #(
    parameter N = 8
) (
    input  wire [N-1:0] req,
    input  wire [N-1:0] mask,      // inputs at or after the priority position
    output wire         any,
    output wire [N-1:0] gnt,       // one-hot winner (0 when no request)
    output wire [N-1:0] above      // inputs strictly above the winner
);

    wire [N-1:0] one   = {{(N-1){1'b0}}, 1'b1};
    wire [N-1:0] req_m = req & mask;
    wire [N-1:0] neg_m = ~req_m + one;
    wire [N-1:0] neg_a = ~req + one;
    wire         any_m = |req_m;

    assign any   = |req;
    assign gnt   = any_m ? (req_m & neg_m) : (req & neg_a);
    assign above = any_m ? (req_m ^ neg_m) : (req ^ neg_a);

endmodule

`default_nettype wire
