// sanfab — RHiNET-2-style table-lookup virtual-channel switch.
//
// NPORTS links of flits on NVC virtual channels. The output port of a packet comes from a routing
// table indexed by the destination tag of its head, its output VC from a VC table indexed by
// (input port, output port, data VC); Go & Stop per VC; virtual cut-through (a head leaves only
// when the next buffer can take a whole MAXLEN packet); round-robin switch allocation per output,
// flit by flit. All outputs are registered. docs/vcsw.md is the contract.
`default_nettype none

module vcsw #(
    parameter NPORTS     = 8,
    parameter NVC        = 2,
    parameter CTRL       = 1,
    parameter FLIT_W     = 16,
    parameter TAG_W      = 8,
    parameter DEPTH      = 64,
    parameter MAXLEN     = 32,
    parameter LINK_DELAY = 0,
    parameter COUNTERS   = 1,
    parameter CTR_WIDTH  = 32
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire [NPORTS-1:0]          rx_valid,
    input  wire [NPORTS*$clog2(NVC)-1:0]  rx_vc,
    input  wire [NPORTS-1:0]          rx_tail,
    input  wire [NPORTS*FLIT_W-1:0]   rx_data,
    output wire [NPORTS*NVC-1:0]      rx_stop,
    output wire [NPORTS-1:0]          tx_valid,
    output wire [NPORTS*$clog2(NVC)-1:0]  tx_vc,
    output wire [NPORTS-1:0]          tx_tail,
    output wire [NPORTS*FLIT_W-1:0]   tx_data,
    input  wire [NPORTS*NVC-1:0]      tx_stop,
    input  wire                       cfg_we,
    input  wire                       cfg_re,
    input  wire [15:0]                cfg_addr,
    input  wire [15:0]                cfg_wdata,
    output wire                       cfg_rvalid,
    output wire [31:0]                cfg_rdata
);

    localparam VCW  = $clog2(NVC);
    localparam PW   = (NPORTS > 1) ? $clog2(NPORTS) : 1;
    localparam N    = NPORTS * NVC;
    localparam integer STOP_AT = DEPTH - MAXLEN - 2 * LINK_DELAY - 4;

    // ------------------------------------------------------------ parameter check
    // (an invalid set instantiates a module that does not exist: every tool stops there)
    localparam PARAMS_OK =
        (NPORTS >= 2) && (NPORTS <= 16) &&
        (NVC == 2 || NVC == 4 || NVC == 8 || NVC == 16) &&
        (CTRL == 0 || CTRL == 1) &&
        (TAG_W >= 1) && (TAG_W <= 12) && (FLIT_W >= TAG_W) && (FLIT_W <= 32) &&
        (DEPTH == 8 || DEPTH == 16 || DEPTH == 32 || DEPTH == 64 || DEPTH == 128 || DEPTH == 256) &&
        (MAXLEN >= 1) && (MAXLEN <= DEPTH) &&
        (LINK_DELAY >= 0) && (LINK_DELAY <= 64) &&
        (STOP_AT >= 1) &&
        (COUNTERS == 0 || COUNTERS == 1) && (CTR_WIDTH >= 8) && (CTR_WIDTH <= 32);
    generate
        if (!PARAMS_OK) begin : g_bad_params
            vcsw_invalid_parameters_see_docs_vcsw_md u_stop ();
        end
    endgenerate

    // ------------------------------------------------------------ configuration port
    wire        tw_route, tw_vc;
    wire [11:0] tw_idx;
    wire [4:0]  tw_entry;
    wire [N*8-1:0] ev;

    vcsw_cfg #(
        .NPORTS    (NPORTS),
        .NVC       (NVC),
        .CTRL      (CTRL),
        .TAG_W     (TAG_W),
        .COUNTERS  (COUNTERS),
        .CTR_WIDTH (CTR_WIDTH)
    ) u_cfg (
        .clk        (clk),
        .rst        (rst),
        .cfg_we     (cfg_we),
        .cfg_re     (cfg_re),
        .cfg_addr   (cfg_addr),
        .cfg_wdata  (cfg_wdata),
        .cfg_rvalid (cfg_rvalid),
        .cfg_rdata  (cfg_rdata),
        .tw_route   (tw_route),
        .tw_vc      (tw_vc),
        .tw_idx     (tw_idx),
        .tw_entry   (tw_entry),
        .ev         (ev)
    );

    // ------------------------------------------------------------ inputs
    wire [NPORTS-1:0]        of_valid, of_first, of_tail;
    wire [NPORTS*PW-1:0]     of_port;
    wire [NPORTS*VCW-1:0]    of_vc;
    wire [NPORTS*FLIT_W-1:0] of_data;
    wire [NPORTS*NPORTS-1:0] gnt_all;     // output o takes input i's offer at [o*NPORTS + i]
    wire [NPORTS-1:0]        take;
    wire [N-1:0]             blk_all;          // output VCs no new head may take (owned or stopped)
    wire [N-1:0]             ev_rx_flit, ev_rx_pkt, ev_drop_route, ev_drop_vc, ev_trunc, ev_ovf;
    wire [N-1:0]             ev_tx_flit, ev_tx_pkt;
    wire [N-1:0]             stop_raw;

    genvar p, c;
    generate
        for (p = 0; p < NPORTS; p = p + 1) begin : g_in
            vcsw_in #(
                .NPORTS  (NPORTS),
                .NVC     (NVC),
                .CTRL    (CTRL),
                .FLIT_W  (FLIT_W),
                .TAG_W   (TAG_W),
                .DEPTH   (DEPTH),
                .MAXLEN  (MAXLEN),
                .STOP_AT (STOP_AT),
                .PORT    (p),
                .PW      (PW),
                .VCW     (VCW)
            ) u_in (
                .clk           (clk),
                .rst           (rst),
                .rx_valid      (rx_valid[p]),
                .rx_vc         (rx_vc[p*VCW +: VCW]),
                .rx_tail       (rx_tail[p]),
                .rx_data       (rx_data[p*FLIT_W +: FLIT_W]),
                .stop          (stop_raw[p*NVC +: NVC]),
                .tw_route      (tw_route),
                .tw_vc         (tw_vc),
                .tw_idx        (tw_idx),
                .tw_entry      (tw_entry),
                .blk_all       (blk_all),
                .of_valid      (of_valid[p]),
                .of_port       (of_port[p*PW +: PW]),
                .of_vc         (of_vc[p*VCW +: VCW]),
                .of_first      (of_first[p]),
                .of_tail       (of_tail[p]),
                .of_data       (of_data[p*FLIT_W +: FLIT_W]),
                .take          (take[p]),
                .ev_rx_flit    (ev_rx_flit[p*NVC +: NVC]),
                .ev_rx_pkt     (ev_rx_pkt[p*NVC +: NVC]),
                .ev_drop_route (ev_drop_route[p*NVC +: NVC]),
                .ev_drop_vc    (ev_drop_vc[p*NVC +: NVC]),
                .ev_trunc      (ev_trunc[p*NVC +: NVC]),
                .ev_ovf        (ev_ovf[p*NVC +: NVC])
            );

            // Go & Stop towards the sender, over the cable
            delay_line #(
                .WIDTH (NVC),
                .DELAY (LINK_DELAY)
            ) u_stop_cable (
                .clk (clk),
                .rst (rst),
                .d   (stop_raw[p*NVC +: NVC]),
                .q   (rx_stop[p*NVC +: NVC])
            );
        end

        // an offer is taken by the output it is for (only that one can)
        for (c = 0; c < NPORTS; c = c + 1) begin : g_take
            wire [NPORTS-1:0] by;
            for (p = 0; p < NPORTS; p = p + 1) begin : g_o
                assign by[p] = gnt_all[p*NPORTS + c];
            end
            assign take[c] = |by;
        end

        // ------------------------------------------------------------ outputs
        for (p = 0; p < NPORTS; p = p + 1) begin : g_out
            wire              o_valid, o_tail;
            wire [VCW-1:0]    o_vc;
            wire [FLIT_W-1:0] o_data;

            vcsw_out #(
                .NPORTS (NPORTS),
                .NVC    (NVC),
                .FLIT_W (FLIT_W),
                .PORT   (p),
                .PW     (PW),
                .VCW    (VCW)
            ) u_out (
                .clk        (clk),
                .rst        (rst),
                .of_valid   (of_valid),
                .of_port    (of_port),
                .of_vc      (of_vc),
                .of_first   (of_first),
                .of_tail    (of_tail),
                .of_data    (of_data),
                .gnt        (gnt_all[p*NPORTS +: NPORTS]),
                .blk_q      (blk_all[p*NVC +: NVC]),
                .tx_stop    (tx_stop[p*NVC +: NVC]),
                .tx_valid_q (o_valid),
                .tx_vc_q    (o_vc),
                .tx_tail_q  (o_tail),
                .tx_data_q  (o_data),
                .ev_tx_flit (ev_tx_flit[p*NVC +: NVC]),
                .ev_tx_pkt  (ev_tx_pkt[p*NVC +: NVC])
            );

            // the cable
            delay_line #(
                .WIDTH (2 + VCW + FLIT_W),
                .DELAY (LINK_DELAY)
            ) u_tx_cable (
                .clk (clk),
                .rst (rst),
                .d   ({o_valid, o_tail, o_vc, o_data}),
                .q   ({tx_valid[p], tx_tail[p], tx_vc[p*VCW +: VCW], tx_data[p*FLIT_W +: FLIT_W]})
            );
        end

        // counter events: slot ((port*NVC)+vc)*8 + ctr
        for (c = 0; c < N; c = c + 1) begin : g_ev
            assign ev[c*8 +: 8] = {ev_ovf[c], ev_trunc[c], ev_drop_vc[c], ev_drop_route[c],
                                   ev_tx_pkt[c], ev_tx_flit[c], ev_rx_pkt[c], ev_rx_flit[c]};
        end
    endgenerate

`ifdef SANFAB_MUTANTS
    // the mutant-capable build: a +mutant=NAME that names no mutation site stops the simulation
    // (rtl/common/sanfab_mutant_check.v)
    sanfab_mutant_check u_mutant_check ();
`endif

endmodule

`default_nettype wire
