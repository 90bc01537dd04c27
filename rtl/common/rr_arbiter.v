// sanfab — round-robin arbiter with a registered priority mask.
//
// When `en` is high and any request is set, `gnt` grants the first request at or after the
// priority position (wrapping); the position then moves past the granted input, so a granted
// input has the lowest priority next time, unless `hold` is high (the grant was not used: the
// position stays, and the same request wins again next time). The position is kept as a mask of the inputs above
// the last grant: the lowest masked request wins, else the lowest request.
//
// The search itself is rr_pick (two short carry chains). Combinational one-hot grant, registered
// mask.
`default_nettype none

module rr_arbiter #(
    parameter N = 8
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         en,
    input  wire         hold,
    input  wire [N-1:0] req,
    output wire         gnt_valid,
    output wire [N-1:0] gnt
);

    reg  [N-1:0] mask_q;                          // inputs strictly above the last grant
    wire         any;
    wire [N-1:0] pick, above;

    rr_pick #(
        .N (N)
    ) u_pick (
        .req   (req),
        .mask  (mask_q),
        .any   (any),
        .gnt   (pick),
        .above (above)
    );

`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire         mut_rr_norotate;
    sanfab_mutant #(.NAME("RR_NOROTATE")) u_mut_rr_norotate (.on(mut_rr_norotate));
`endif

    assign gnt_valid = en & any;
    assign gnt       = en ? pick : {N{1'b0}};

    always @(posedge clk) begin
        if (rst) begin
            mask_q <= {N{1'b1}};
        end else if (gnt_valid && !hold) begin
`ifdef SANFAB_MUTANTS
            if (mut_rr_norotate)
                mask_q <= mask_q;  // deliberately broken: the priority never moves
            else
`endif
            mask_q <= above;
        end
    end

endmodule

`default_nettype wire
