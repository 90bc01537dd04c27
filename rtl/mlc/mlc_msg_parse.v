// sanfab — Maestro Link Controller: one step of a message parser (docs/mlc.md, "Messages": the
// message parser, one per FIFO; rule 5's message-based mode and rule 7's status read its L).
//
// Combinational: the parser state after one more unit whose first word is `word0`. The state is
// {need[15:0], wpc, L[UCW-1:0]}: need > 0 units still to come, wpc waiting for the Pkt-Counter,
// L units since the last one that ended a message (saturating at CAPU). mlc_send runs it on the send
// FIFOs' units as the host writes them, mlc_recv on the receive FIFOs' units as they arrive.
`default_nettype none

module mlc_msg_parse #(
    parameter UCW  = 8,      // unit count bits
    parameter CAPU = 128     // FIFO capacity, units (L saturates there)
) (
    input  wire [16+UCW:0] state_in,
    input  wire [15:0]     word0,
    output reg  [16+UCW:0] state_out
);

    localparam [UCW-1:0] CAPU_U = CAPU[UCW-1:0];

    reg [15:0]    need;
    reg           wpc;
    reg [UCW-1:0] l;
    reg           ends;

    always @* begin
        need = state_in[16+UCW:UCW+1];
        wpc  = state_in[UCW];
        l    = state_in[UCW-1:0];
        ends = 1'b0;
        // the message ends are decided from the inputs, not from the new need (fewer levels):
        // max(word0, 2) - 2 == 0 exactly when word0 <= 2, need - 1 == 0 exactly when need == 1
        if (wpc) begin
            need = (word0 <= 16'd2) ? 16'd0 : word0 - 16'd2;
            wpc  = 1'b0;
            ends = (word0 <= 16'd2);
        end else if (need == 16'd0) begin
            if (!word0[0])
                ends = 1'b1;
            else
                wpc = 1'b1;
        end else begin
            ends = (need == 16'd1);
            need = need - 16'd1;
        end
        if (ends)
            l = {UCW{1'b0}};
        else if (l != CAPU_U)
            l = l + 1'b1;
        state_out = {need, wpc, l};
    end

endmodule

`default_nettype wire
