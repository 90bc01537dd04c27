// sanfab — Maestro switch box: the register port, the table, the up port and the box counters
// (docs/sbox.md, rule 6 and "Counters").
//
// A read in step r is answered after step r+1 with the value after step r-1: the box's own value is
// taken in step r (from the registers, i.e. after r-1) into a one-deep pipeline; an MLC register is
// requested from MLC p in step r (it answers after step r with its value after r-1) and its answer
// is passed on in step r+1. Writes take effect from the next step.
//
// Counters: eight plain CTR_W-bit registers, not rtl/common/ctr_bank.v: the page wants the value
// after step r-1 answered after step r+1, and ctr_bank answers 1..NS steps later.
//
// The up port (0x110) and a table entry (0x120..) keep reg_wdata bit 4 (valid) and bits 2..0 (the
// port); bit 3 is not stored and reads 0; a write with bit 4 set and a port >= PORTS is ignored.
`default_nettype none

module sbox_regs #(
    parameter PORTS = 8,
    parameter NODES = 16,
    parameter CTR_W = 16
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               reg_rd,
    input  wire               reg_wr,
    input  wire [8:0]         reg_addr,
    input  wire [15:0]        reg_wdata,
    output wire               reg_rvalid,
    output wire [31:0]        reg_rdata,
    // MLC pass-through: request to MLC p (reg_addr[4:0], reg_wdata go to every MLC)
    output reg  [PORTS-1:0]   mlc_rd,
    output reg  [PORTS-1:0]   mlc_wr,
    input  wire [31:0]        mlc_rdata,     // OR of the MLCs' answers (one at most is non-zero)
    // counter events of this step: msgs, mcast, words, drop_route, bar_req, bar_done, err_bar, err_msg
    input  wire [7:0]         ev,
    // barriers (channel 0, 1), after step k-1
    input  wire [1:0]         bar_busy,
    input  wire [1:0]         bar_ups,
    input  wire [2*PORTS-1:0] bar_a,
    input  wire [31:0]        bar_m,
    // configuration, after step k-1
    output wire [NODES*5-1:0] tab,
    output wire [4:0]         up
);

    localparam [31:0] NONE = 32'h8000_0000;

    reg [NODES*5-1:0] tab_q, tab_d;
    reg [4:0]         up_q, up_d;
    reg [CTR_W-1:0]   ctr_q [0:7] /* verilator public_flat_rw */;   // the benches' preset (docs/verification.md)
    // read pipeline: stage 1 (step r), the answer (step r+1)
    reg               rq_v_q, rq_mlc_q;
    reg [31:0]        rq_val_q;
    reg               rv_q;
    reg [31:0]        rdat_q;

    reg [31:0]        val;
    reg               is_mlc;
    reg [7:0]         a_pad [0:1];
    integer           ip, iw, r;   // one loop index per block
    wire              unused_wd = &{1'b0, reg_wdata[15:5], reg_wdata[3]};   // the MLCs take all 16 bits
`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire              mut_box_ctr_top;
    sanfab_mutant #(.NAME("BOX_CTR_TOP")) u_mut_box_ctr_top (.on(mut_box_ctr_top));
`endif

    wire [2:0] mp  = reg_addr[7:5];
    wire [3:0] d   = reg_addr[3:0];
    wire       low = ~reg_addr[8];                                   // 0x000..0x0FF: the MLCs
    wire       mlc_ok = low && ({1'b0, mp} < PORTS[3:0]);
    wire       d_ok   = ({1'b0, d} < NODES[4:0]);
    // a table entry or the up port keeps bit 4 (valid) and bits 2..0 (the port); bit 3 reads 0
    wire [4:0] wentry  = {reg_wdata[4], 1'b0, reg_wdata[2:0]};
    wire       port_ok = ~reg_wdata[4] || ({1'b0, reg_wdata[2:0]} < PORTS[3:0]);

    always @* begin
        for (ip = 0; ip < 2; ip = ip + 1) begin
            a_pad[ip] = 8'd0;
            a_pad[ip][PORTS-1:0] = bar_a[ip*PORTS +: PORTS];
        end
    end

    // ------------------------------------------------------------ the value after step r-1
    always @* begin
        val = NONE;
        is_mlc = 1'b0;
        if (low) begin
            if (mlc_ok)
                is_mlc = 1'b1;
        end else if (reg_addr[7:3] == 5'b00000) begin
            val = 32'd0;
            val[CTR_W-1:0] = ctr_q[reg_addr[2:0]];
        end else if (reg_addr[7:0] == 8'h10) begin
            val = {27'd0, up_q};
        end else if (reg_addr[7:0] == 8'h11) begin
            val = {bar_m[15:0], a_pad[0], 6'd0, bar_ups[0], bar_busy[0]};
        end else if (reg_addr[7:0] == 8'h12) begin
            val = {bar_m[31:16], a_pad[1], 6'd0, bar_ups[1], bar_busy[1]};
        end else if (reg_addr[7:4] == 4'h2) begin
            if (d_ok)
                val = {27'd0, tab_q[d*5 +: 5]};
        end
    end

    // ------------------------------------------------------------ MLC requests, writes
    always @* begin
        mlc_rd = {PORTS{1'b0}};
        mlc_wr = {PORTS{1'b0}};
        tab_d = tab_q;
        up_d = up_q;
        for (iw = 0; iw < PORTS; iw = iw + 1) begin
            if (mlc_ok && mp == iw[2:0]) begin
                mlc_rd[iw] = reg_rd;
                mlc_wr[iw] = reg_wr;
            end
        end
        if (reg_wr && !low && reg_addr[7:0] == 8'h10 && port_ok)
            up_d = wentry;
        if (reg_wr && !low && reg_addr[7:4] == 4'h2 && d_ok && port_ok)
            tab_d[d*5 +: 5] = wentry;
    end

    // ------------------------------------------------------------ registers
    always @(posedge clk) begin
        if (rst) begin
            tab_q <= {(NODES*5){1'b0}};
            up_q <= 5'd0;
            for (r = 0; r < 8; r = r + 1)
                ctr_q[r] <= {CTR_W{1'b0}};
            rq_v_q <= 1'b0;
            rq_mlc_q <= 1'b0;
            rq_val_q <= 32'd0;
            rv_q <= 1'b0;
            rdat_q <= 32'd0;
        end else begin
            tab_q <= tab_d;
            up_q <= up_d;
            for (r = 0; r < 8; r = r + 1)
`ifdef SANFAB_MUTANTS
                if (mut_box_ctr_top)   // deliberately broken: the carry into the top bit is lost (wraps at 2^(CTR_W-1))
                    ctr_q[r] <= (ctr_q[r] + {{(CTR_W-1){1'b0}}, ev[r]}) & {1'b0, {(CTR_W-1){1'b1}}};
                else
`endif
                ctr_q[r] <= ctr_q[r] + {{(CTR_W-1){1'b0}}, ev[r]};
            rq_v_q <= reg_rd;
            rq_mlc_q <= reg_rd & is_mlc;
            rq_val_q <= reg_rd ? val : 32'd0;
            rv_q <= rq_v_q;
            rdat_q <= rq_mlc_q ? mlc_rdata : rq_val_q;
        end
    end

`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire       mut_reg_late;
    sanfab_mutant #(.NAME("REG_LATE")) u_mut_reg_late (.on(mut_reg_late));
    reg        late_v_q;
    reg [31:0] late_d_q;
    always @(posedge clk) begin
        late_v_q <= rst ? 1'b0 : rv_q;
        late_d_q <= rst ? 32'd0 : rdat_q;
    end
`endif
    assign reg_rvalid =
`ifdef SANFAB_MUTANTS
                        mut_reg_late ? late_v_q :   // deliberately broken: the answer comes one step late
`endif
                        rv_q;
    assign reg_rdata  =
`ifdef SANFAB_MUTANTS
                        mut_reg_late ? late_d_q :
`endif
                        rdat_q;
    assign tab = tab_q;
    assign up  = up_q;

endmodule

`default_nettype wire
