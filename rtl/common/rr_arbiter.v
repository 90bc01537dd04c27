// sanfab — round-robin arbiter with a registered priority pointer.
//
// When `en` is high and any request is set, `gnt` grants the first request at or after the
// pointer (wrapping); the pointer then moves to the input after the granted one, so a granted
// input has the lowest priority next time. Combinational grant, registered pointer.
`default_nettype none

module rr_arbiter #(
    parameter N  = 8,
    parameter IW = 3
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          en,
    input  wire [N-1:0]  req,
    output reg           gnt_valid,
    output reg  [IW-1:0] gnt_idx,
    output wire [N-1:0]  gnt
);

    localparam integer  N_I    = N;
    localparam integer  LAST_I = N - 1;
    localparam [IW:0]   NW     = N_I[IW:0];
    localparam [IW-1:0] LAST   = LAST_I[IW-1:0];

    reg [IW-1:0] ptr_q, ptr_d;

    // Requests doubled so that a scan from ptr upward covers every input once.
    wire [2*N-1:0] req2 = {req, req};

    integer k;
    reg     found;
    reg [IW:0] cand;

    always @* begin
        gnt_valid = 1'b0;
        gnt_idx   = {IW{1'b0}};
        found     = 1'b0;
        cand      = {(IW+1){1'b0}};
        ptr_d     = ptr_q;
        for (k = 0; k < N; k = k + 1) begin
            cand = {1'b0, ptr_q} + k[IW:0];
            if (!found && req2[cand]) begin
                found   = 1'b1;
                gnt_idx = (cand >= NW) ? (cand[IW-1:0] - NW[IW-1:0]) : cand[IW-1:0];
            end
        end
        if (en && found) begin
            gnt_valid = 1'b1;
`ifdef SANFAB_MUTANT_RR_NOROTATE
            ptr_d     = ptr_q;  // deliberately broken: fixed priority
`else
            ptr_d     = (gnt_idx == LAST) ? {IW{1'b0}} : gnt_idx + 1'b1;
`endif
        end
    end

    assign gnt = gnt_valid ? ({{(N-1){1'b0}}, 1'b1} << gnt_idx) : {N{1'b0}};

    always @(posedge clk) begin
        if (rst) begin
            ptr_q <= {IW{1'b0}};
        end else begin
            ptr_q <= ptr_d;
        end
    end

endmodule

`default_nettype wire
