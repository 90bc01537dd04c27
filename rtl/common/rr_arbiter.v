// sanfab — round-robin arbiter with a registered priority mask.
//
// When `en` is high and any request is set, `gnt` grants the first request at or after the
// priority position (wrapping); the position then moves past the granted input, so a granted
// input has the lowest priority next time. The position is kept as a thermometer mask of the
// inputs above the last grant; the first set bit of {req, req & mask} (one carry chain) is the
// winner. Combinational one-hot grant, registered mask.
`default_nettype none

module rr_arbiter #(
    parameter N = 8
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          en,
    input  wire [N-1:0]  req,
    output wire          gnt_valid,
    output wire [N-1:0]  gnt
);

    reg  [N-1:0]   mask_q, mask_d;   // inputs strictly above the last grant

    // lowest set bit of the doubled vector: masked requests first, then all requests
    wire [2*N-1:0] dbl    = {req, req & mask_q};
    wire [2*N-1:0] lowest = dbl & (~dbl + {{(2*N-1){1'b0}}, 1'b1});
    wire [N-1:0]   pick   = lowest[N-1:0] | lowest[2*N-1:N];

    assign gnt_valid = en & (|req);
    assign gnt       = en ? pick : {N{1'b0}};

    always @* begin
        mask_d = mask_q;
        if (gnt_valid) begin
`ifdef SANFAB_MUTANT_RR_NOROTATE
            mask_d = mask_q;  // deliberately broken: the priority never moves
`else
            mask_d = ~(pick | (pick - {{(N-1){1'b0}}, 1'b1}));
`endif
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            mask_q <= {N{1'b1}};
        end else begin
            mask_q <= mask_d;
        end
    end

endmodule

`default_nettype wire
