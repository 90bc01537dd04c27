// sanfab — Myrinet-style source-routed wormhole crossbar (v2, pipelined).
//
// NPORTS full-duplex byte links of 9-bit characters. The first byte of a packet names the output
// port (0x80 | port) and is stripped; the packet's trailing CRC-8 is checked on the way in and
// regenerated on the way out. Slack buffers with STOP/GO flow control, one packet per output at a
// time with round-robin arbitration, a blocking timeout that drains stuck packets, and optional
// per-port counters on a small read port. Between the input and output ports only registers
// cross (requests, transfers, grant pulses, may-pop bits, abort requests); all outputs are
// registered. docs/xbar.md is the contract.
`default_nettype none

module xbar #(
    parameter NPORTS      = 8,
    parameter SLACK_DEPTH = 80,
    parameter STOP_THRESH = 56,
    parameter GO_THRESH   = 40,
    parameter ROUTE_DELAY = 0,
    parameter LINK_DELAY  = 0,
    parameter TIMEOUT     = 4096,
    parameter COUNTERS    = 1,
    parameter CTR_WIDTH   = 32
) (
    input  wire                clk,
    input  wire                rst,
    input  wire [NPORTS*9-1:0] rx,
    output wire [NPORTS*9-1:0] tx,
    input  wire                reg_rd,
    input  wire [((NPORTS > 16) ? 9 : 8)-1:0] reg_addr,   // {port, counter[3:0]}: 4 port bits, 5 above 16 ports
    output wire [31:0]         reg_rdata,
    output wire                reg_rvalid,
    output wire [NPORTS*8-1:0] stat_occ
);

    localparam PW   = (NPORTS > 1) ? $clog2(NPORTS) : 1;
    localparam NCTR = 9;
    localparam CTR_RX_PKTS = 0, CTR_RX_BYTES = 1, CTR_TX_PKTS = 2, CTR_TX_BYTES = 3,
               CTR_CRC_ERR = 4, CTR_DROP_ROUTE = 5, CTR_DROP_TIMEOUT = 6, CTR_MALFORMED = 7,
               CTR_OVERFLOW = 8;

`ifndef SYNTHESIS
    // ------------------------------------------------------------ parameter check (simulation and lint)
    // An invalid set instantiates a module that does not exist: Verilator and Icarus stop there. The ranges are
    // docs/xbar.md's (cmodel/sanfab_params.h); synthesis does not see this block, so its netlists and records stay.
    localparam PARAMS_OK =
        (NPORTS >= 2) && (NPORTS <= 32) &&
        (SLACK_DEPTH >= 4) && (SLACK_DEPTH <= 255) &&
        (STOP_THRESH >= 1) && (STOP_THRESH <= SLACK_DEPTH) &&
        (GO_THRESH >= 0) && (GO_THRESH < STOP_THRESH) &&
        (ROUTE_DELAY >= 0) && (ROUTE_DELAY <= 255) &&
        (LINK_DELAY >= 0) && (LINK_DELAY <= 64) &&
        (TIMEOUT == 0 || (TIMEOUT >= 2 && TIMEOUT <= 16777215)) &&
        (COUNTERS == 0 || COUNTERS == 1) && (CTR_WIDTH >= 8) && (CTR_WIDTH <= 32);
    generate
        if (!PARAMS_OK) begin : g_bad_params
            xbar_invalid_parameters_see_docs_xbar_md u_stop ();
        end
    endgenerate
`endif

    // input side
    wire [NPORTS*NPORTS-1:0] in_req;      // input i requests output p at [i*NPORTS + p]
    wire [NPORTS*10-1:0]     in_xf_d;
    wire [NPORTS*NPORTS-1:0] in_xf_to;    // input i's transfer is for output p at [i*NPORTS + p]
    wire [NPORTS*NPORTS-1:0] in_xf_end;   // input i ends a packet on output p at [i*NPORTS + p]
    wire [NPORTS-1:0]        in_ab;
    wire [NPORTS-1:0]        in_want;
    wire [NPORTS-1:0]        in_gp;
    wire [NPORTS-1:0]        in_mp;

    // output side
    wire [NPORTS*NPORTS-1:0] out_gp;      // output p's grant pulse for input i at [p*NPORTS + i]
    wire [NPORTS*NPORTS-1:0] out_mp;      // output p's may-pop bit for input i at [p*NPORTS + i]

    wire [NPORTS*NCTR-1:0] ev;

    genvar i, p;

    generate
        for (i = 0; i < NPORTS; i = i + 1) begin : g_in
            // grant pulse and may-pop bit for this input: an OR of the outputs' registers
            wire [NPORTS-1:0] gcol;
            wire [NPORTS-1:0] mcol;
            for (p = 0; p < NPORTS; p = p + 1) begin : g_col
                assign gcol[p] = out_gp[p*NPORTS + i];
                assign mcol[p] = out_mp[p*NPORTS + i];
            end
            assign in_gp[i] = |gcol;
            assign in_mp[i] = |mcol;

            xbar_in #(
                .NPORTS      (NPORTS),
                .PW          (PW),
                .SLACK_DEPTH (SLACK_DEPTH),
                .STOP_THRESH (STOP_THRESH),
                .GO_THRESH   (GO_THRESH),
                .ROUTE_DELAY (ROUTE_DELAY),
                .TIMEOUT     (TIMEOUT)
            ) u_in (
                .clk             (clk),
                .rst             (rst),
                .rx              (rx[i*9 +: 9]),
                .gp              (in_gp[i]),
                .mp              (in_mp[i]),
                .req_vec         (in_req[i*NPORTS +: NPORTS]),
                .xf_d            (in_xf_d[i*10 +: 10]),
                .xf_to           (in_xf_to[i*NPORTS +: NPORTS]),
                .xf_end          (in_xf_end[i*NPORTS +: NPORTS]),
                .ab              (in_ab[i]),
                .want            (in_want[i]),
                .occ8            (stat_occ[i*8 +: 8]),
                .ev_rx_pkt       (ev[i*NCTR + CTR_RX_PKTS]),
                .ev_rx_byte      (ev[i*NCTR + CTR_RX_BYTES]),
                .ev_crc_err      (ev[i*NCTR + CTR_CRC_ERR]),
                .ev_drop_route   (ev[i*NCTR + CTR_DROP_ROUTE]),
                .ev_drop_timeout (ev[i*NCTR + CTR_DROP_TIMEOUT]),
                .ev_malformed    (ev[i*NCTR + CTR_MALFORMED]),
                .ev_overflow     (ev[i*NCTR + CTR_OVERFLOW])
            );
        end

        for (p = 0; p < NPORTS; p = p + 1) begin : g_out
            // requests for this output
            wire [NPORTS-1:0] preq;
            wire [NPORTS-1:0] pend;
            wire [NPORTS-1:0] pto;
            for (i = 0; i < NPORTS; i = i + 1) begin : g_req
                assign preq[i] = in_req[i*NPORTS + p];
                assign pend[i] = in_xf_end[i*NPORTS + p];
                assign pto[i]  = in_xf_to[i*NPORTS + p];
            end

            xbar_out #(
                .NPORTS     (NPORTS),
                .LINK_DELAY (LINK_DELAY)
            ) u_out (
                .clk        (clk),
                .rst        (rst),
                .rx         (rx[p*9 +: 9]),
                .req        (preq),
                .xf_to      (pto),
                .xf_d       (in_xf_d),
                .xf_end     (pend),
                .ab         (in_ab),
                .want       (in_want[p]),
                .gp         (out_gp[p*NPORTS +: NPORTS]),
                .mp         (out_mp[p*NPORTS +: NPORTS]),
                .tx         (tx[p*9 +: 9]),
                .ev_tx_pkt  (ev[p*NCTR + CTR_TX_PKTS]),
                .ev_tx_byte (ev[p*NCTR + CTR_TX_BYTES])
            );
        end

        if (COUNTERS != 0) begin : g_ctr
            xbar_counters #(
                .NPORTS    (NPORTS),
                .NCTR      (NCTR),
                .CTR_WIDTH (CTR_WIDTH)
            ) u_ctr (
                .clk        (clk),
                .rst        (rst),
                .ev         (ev),
                .reg_rd     (reg_rd),
                .reg_addr   (reg_addr),
                .reg_rdata  (reg_rdata),
                .reg_rvalid (reg_rvalid)
            );
        end else begin : g_noctr
            // no counter block: every read is answered at once with 0
            reg rv_q;
            always @(posedge clk) begin
                rv_q <= rst ? 1'b0 : reg_rd;
            end
            assign reg_rvalid = rv_q;
            assign reg_rdata  = 32'd0;
            wire unused_ok = &{1'b0, ev, reg_addr};
        end
    endgenerate

`ifdef SANFAB_MUTANTS
    // the mutant-capable build: a +mutant=NAME that names no mutation site stops the simulation
    // (rtl/common/sanfab_mutant_check.v)
    sanfab_mutant_check u_mutant_check ();
`endif

endmodule

`default_nettype wire
