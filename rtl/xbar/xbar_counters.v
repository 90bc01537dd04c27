// sanfab — per-port event counters of the crossbar and the register read port: the counter bank
// (rtl/common/ctr_bank.v, which documents the schedule) with the crossbar's address decoding.
//
// NS = NPORTS*NCTR counters; slot s = port*NCTR + counter. Register read: reg_rd with reg_addr =
// {port, counter[3:0]} (4 port bits, 5 above 16 ports) is accepted when no read is outstanding (a
// request while one is outstanding is ignored). It is answered when the flusher writes that slot:
// reg_rvalid is high for one cycle with the value written, so the answer comes 1..NS cycles after
// the request. Addresses of absent ports or counters answer 0 one cycle later.
//
// The bank's pending counts have LW = clog2(NS + 2) bits, and its words must be wider than that
// (8 bits from 15 ports on, 9 from 29): for counters of CTR_WIDTH <= LW bits the bank keeps LW + 1
// bit words and the read answers their low CTR_WIDTH bits, the count modulo 2^CTR_WIDTH all the same.
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
    input  wire [((NPORTS > 16) ? 9 : 8)-1:0] reg_addr,
    output wire [31:0]            reg_rdata,
    output wire                   reg_rvalid
);

    localparam NS = NPORTS * NCTR;
    localparam SW = $clog2(NS);
    localparam PAW = (NPORTS > 16) ? 5 : 4;     // port bits of reg_addr
    localparam integer NCTR_I = NCTR;
    localparam integer NP_I   = NPORTS;
    localparam [SW-1:0] NCTR_W = NCTR_I[SW-1:0];
    localparam LW     = $clog2(NS + 2);           // ctr_bank's pending-count width
    localparam BANK_W = (CTR_WIDTH > LW) ? CTR_WIDTH : LW + 1;

    wire [PAW-1:0] a_port = reg_addr[PAW+3:4];
    wire [3:0]     a_ctr  = reg_addr[3:0];
    wire           a_ok   = ({{(32-PAW){1'b0}}, a_port} < NP_I[31:0]) && ({28'd0, a_ctr} < NCTR_I[31:0]);
    // slot = port * NCTR + counter, as a sum of the port shifted by the constant's set bits (no
    // multiplier: a DSP block on the register read path is slow)
    reg  [SW-1:0]  a_slot;
    integer        b;
    always @* begin
        a_slot = {{(SW-4){1'b0}}, a_ctr};
        for (b = 0; b < SW; b = b + 1) begin
            if (NCTR_W[b]) begin
                a_slot = a_slot + ({{(SW-PAW){1'b0}}, a_port} << b);
            end
        end
    end

    wire [31:0]    bank_rdata;

    ctr_bank #(
        .NS        (NS),
        .CTR_WIDTH (BANK_W)
    ) u_bank (
        .clk     (clk),
        .rst     (rst),
        .ev      (ev),
        .rd      (reg_rd),
        .rd_ok   (a_ok),
        .rd_slot (a_slot),
        .rdata   (bank_rdata),
        .rvalid  (reg_rvalid)
    );

    generate
        if (BANK_W > CTR_WIDTH) begin : g_wide
            // the bank's words are wider than the counters: answer the count modulo 2^CTR_WIDTH
            assign reg_rdata = {{(32-CTR_WIDTH){1'b0}}, bank_rdata[CTR_WIDTH-1:0]};
            wire unused_ok = &{1'b0, bank_rdata[31:CTR_WIDTH]};
        end else begin : g_same
            assign reg_rdata = bank_rdata;
        end
    endgenerate

endmodule

`default_nettype wire
