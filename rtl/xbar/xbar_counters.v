// sanfab — per-port event counters of the crossbar and the register read port: the counter bank
// (rtl/common/ctr_bank.v, which documents the schedule) with the crossbar's address decoding.
//
// NS = NPORTS*NCTR counters; slot s = port*NCTR + counter. Register read: reg_rd with reg_addr =
// {port[3:0], counter[3:0]} is accepted when no read is outstanding (a request while one is
// outstanding is ignored). It is answered when the flusher writes that slot: reg_rvalid is high
// for one cycle with the value written, so the answer comes 1..NS cycles after the request.
// Addresses of absent ports or counters answer 0 one cycle later.
`default_nettype none

module xbar_counters #(
    parameter NPORTS = 8,
    parameter NCTR   = 9,
    parameter CTR_WIDTH = 32       // counters wrap modulo 2^CTR_WIDTH; reg_rdata is zero-extended
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [NPORTS*NCTR-1:0] ev,         // event pulses, port i counter c at ev[i*NCTR + c]
    input  wire                   reg_rd,
    input  wire [7:0]             reg_addr,
    output wire [31:0]            reg_rdata,
    output wire                   reg_rvalid
);

    localparam NS = NPORTS * NCTR;
    localparam SW = $clog2(NS);
    localparam integer NCTR_I = NCTR;
    localparam integer NP_I   = NPORTS;
    localparam [SW-1:0] NCTR_W = NCTR_I[SW-1:0];

    wire [3:0]    a_port = reg_addr[7:4];
    wire [3:0]    a_ctr  = reg_addr[3:0];
    wire          a_ok   = ({28'd0, a_port} < NP_I[31:0]) && ({28'd0, a_ctr} < NCTR_I[31:0]);
    wire [SW-1:0] a_slot = {{(SW-4){1'b0}}, a_port} * NCTR_W + {{(SW-4){1'b0}}, a_ctr};

    ctr_bank #(
        .NS        (NS),
        .CTR_WIDTH (CTR_WIDTH)
    ) u_bank (
        .clk     (clk),
        .rst     (rst),
        .ev      (ev),
        .rd      (reg_rd),
        .rd_ok   (a_ok),
        .rd_slot (a_slot),
        .rdata   (reg_rdata),
        .rvalid  (reg_rvalid)
    );

endmodule

`default_nettype wire
