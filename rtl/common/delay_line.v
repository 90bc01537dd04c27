// sanfab — a chain of DELAY registers (a cable), each reset to RESET_VAL; DELAY = 0 is a wire.
`default_nettype none

module delay_line #(
    parameter WIDTH = 8,
    parameter DELAY = 0,
    parameter [WIDTH-1:0] RESET_VAL = {WIDTH{1'b0}}
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [WIDTH-1:0] d,
    output wire [WIDTH-1:0] q
);

    generate
        if (DELAY == 0) begin : g_wire
            assign q = d;
            wire unused_ok = &{1'b0, clk, rst};
        end else begin : g_regs
            reg [WIDTH-1:0] chain_q [0:DELAY-1];
            integer k;
            always @(posedge clk) begin
                if (rst) begin
                    for (k = 0; k < DELAY; k = k + 1) begin
                        chain_q[k] <= RESET_VAL;
                    end
                end else begin
                    chain_q[0] <= d;
                    for (k = 1; k < DELAY; k = k + 1) begin
                        chain_q[k] <= chain_q[k-1];
                    end
                end
            end
            assign q = chain_q[DELAY-1];
        end
    endgenerate

endmodule

`default_nettype wire
