// sanfab — per-port event counters of the crossbar and the register read port.
//
// NCTR counters per port, 32 bits each, free running (software takes differences).
// A read request (reg_rd, reg_addr = {port[3:0], counter[3:0]}) is registered; one cycle later
// reg_rvalid rises with the counter's value in reg_rdata. Unused addresses read as zero.
`default_nettype none

module xbar_counters #(
    parameter NPORTS = 8,
    parameter NCTR   = 9
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [NPORTS*NCTR-1:0] ev,         // event pulses, port i counter c at ev[i*NCTR + c]
    input  wire                   reg_rd,
    input  wire [7:0]             reg_addr,
    output reg  [31:0]            reg_rdata,
    output reg                    reg_rvalid
);

    reg         rd_q;
    reg [7:0]   addr_q;
    wire [NPORTS*NCTR*32-1:0] ctr_flat;

    genvar k;
    generate
        for (k = 0; k < NPORTS * NCTR; k = k + 1) begin : g_ctr
            reg [31:0] ctr_q;
            always @(posedge clk) begin
                if (rst) begin
                    ctr_q <= 32'd0;
                end else if (ev[k]) begin
                    ctr_q <= ctr_q + 32'd1;
                end
            end
            assign ctr_flat[k*32 +: 32] = ctr_q;
        end
    endgenerate

    wire [3:0] rd_port = addr_q[7:4];
    wire [3:0] rd_ctr  = addr_q[3:0];
    reg [31:0] rdata_d;
    localparam [31:0] NCTR_W = NCTR;
    localparam [31:0] NPORTS_W = NPORTS;

    always @* begin
        rdata_d = 32'd0;
        if ({28'd0, rd_port} < NPORTS_W && {28'd0, rd_ctr} < NCTR_W) begin
            rdata_d = ctr_flat[({4'd0, rd_port} * NCTR_W[7:0] + {4'd0, rd_ctr}) * 32 +: 32];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            rd_q       <= 1'b0;
            addr_q     <= 8'h00;
            reg_rvalid <= 1'b0;
            reg_rdata  <= 32'd0;
        end else begin
            rd_q       <= reg_rd;
            addr_q     <= reg_addr;
            reg_rvalid <= rd_q;
            reg_rdata  <= rd_q ? rdata_d : 32'd0;
        end
    end

endmodule

`default_nettype wire
