// sanfab — round-robin arbiter with a registered priority mask.
//
// When `en` is high and any request is set, `gnt` grants the first request at or after the
// priority position (wrapping); the position then moves past the granted input, so a granted
// input has the lowest priority next time. The position is kept as a mask of the inputs above
// the last grant: the lowest masked request wins, else the lowest request. Combinational
// one-hot grant, registered mask.
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

    reg [N-1:0] mask_q;      // inputs strictly above the last grant
    reg [N-1:0] pick_m, pick_a, pick, above;
    reg         any_m, seen_m, seen_a;
    integer     k;

    always @* begin
        pick_m = {N{1'b0}};
        pick_a = {N{1'b0}};
        seen_m = 1'b0;
        seen_a = 1'b0;
        for (k = 0; k < N; k = k + 1) begin
            pick_m[k] = req[k] & mask_q[k] & ~seen_m;
            pick_a[k] = req[k] & ~seen_a;
            seen_m    = seen_m | (req[k] & mask_q[k]);
            seen_a    = seen_a | req[k];
        end
        any_m = seen_m;
        pick  = any_m ? pick_m : pick_a;
        above = {N{1'b0}};
        for (k = 1; k < N; k = k + 1) begin
            above[k] = above[k-1] | pick[k-1];
        end
    end

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
