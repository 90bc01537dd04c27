// sanfab — one output of the VC switch: the output's round robin over the inputs offering to it,
// which of its VCs are owned, which of them no new head may take (owned or stopped, one registered
// bit per VC for the inputs) and the transmit register (docs/vcsw.md, step 3). Each input offers at most one flit per step from its offer register
// (vcsw_in); a first flit requests this output only while its output VC is free and unstopped. The
// output takes one of the requests, pops it (through `gnt`) and loads the transmit register in the
// same step.
`default_nettype none

module vcsw_out #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter FLIT_W = 16,
    parameter PORT   = 0,
    parameter PW     = 3,
    parameter VCW    = 1
) (
    input  wire                       clk,
    input  wire                       rst,
    // the inputs' offers
    input  wire [NPORTS-1:0]          of_valid,
    input  wire [NPORTS*PW-1:0]       of_port,
    input  wire [NPORTS*VCW-1:0]      of_vc,
    input  wire [NPORTS-1:0]          of_first,
    input  wire [NPORTS-1:0]          of_tail,
    input  wire [NPORTS*FLIT_W-1:0]   of_data,
    output wire [NPORTS-1:0]          gnt,         // the offer of input i is taken
    // this output's state as the inputs' eligibility sees it (one bit per output VC, so each head
    // looks up one vector, not two)
    output reg  [NVC-1:0]             blk_q,       // owned or stopped: no new head may take it
    input  wire [NVC-1:0]             tx_stop,
    output reg                        tx_valid_q,
    output reg  [VCW-1:0]             tx_vc_q,
    output reg                        tx_tail_q,
    output reg  [FLIT_W-1:0]          tx_data_q,
    output wire [NVC-1:0]             ev_tx_flit,
    output wire [NVC-1:0]             ev_tx_pkt
);

    localparam integer PORT_I = PORT;
`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_no_recheck, mut_tail_keep, mut_vct_nostop, mut_vc_share;
    sanfab_mutant #(.NAME("NO_RECHECK")) u_mut_no_recheck (.on(mut_no_recheck));
    sanfab_mutant #(.NAME("TAIL_KEEP"))  u_mut_tail_keep  (.on(mut_tail_keep));
    sanfab_mutant #(.NAME("VCT_NOSTOP")) u_mut_vct_nostop (.on(mut_vct_nostop));
    sanfab_mutant #(.NAME("VC_SHARE"))   u_mut_vc_share   (.on(mut_vc_share));
`endif

    reg [NVC-1:0] busy_q;                          // output VC owned by a packet

    // ------------------------------------------------------------ requests and the round robin
    reg [NPORTS-1:0] req;
    integer          i;
    always @* begin
        req = {NPORTS{1'b0}};
        for (i = 0; i < NPORTS; i = i + 1) begin
            // a first flit requests only while its output VC is free and its stop bit 0 (rule 3.1)
            req[i] = of_valid[i] && ({{(32-PW){1'b0}}, of_port[i*PW +: PW]} == PORT_I[31:0]) &&
                     (!of_first[i] || !blk_q[of_vc[i*VCW +: VCW]]
`ifdef SANFAB_MUTANTS
                      || mut_no_recheck                               // deliberately broken: no re-check
`endif
                     );
        end
    end

    wire              any;
    wire [NPORTS-1:0] win;
    rr_arbiter #(
        .N (NPORTS)
    ) u_arb (
        .clk       (clk),
        .rst       (rst),
        .hold      (1'b0),
        .en        (1'b1),
        .req       (req),
        .gnt_valid (any),
        .gnt       (win)
    );
    assign gnt = win;

    // ------------------------------------------------------------ the winner's flit (AND-OR mux,
    // one OR-reduction per bit over the inputs)
    localparam FW = 2 + VCW + FLIT_W;              // {first, tail, VC, data}
    wire [NPORTS*FW-1:0] fields;
    wire [FW-1:0]        w_f;
    genvar fc, fb;
    generate
        for (fc = 0; fc < NPORTS; fc = fc + 1) begin : g_fields
            assign fields[fc*FW +: FW] = {of_first[fc], of_tail[fc], of_vc[fc*VCW +: VCW],
                                          of_data[fc*FLIT_W +: FLIT_W]};
        end
        for (fb = 0; fb < FW; fb = fb + 1) begin : g_mux
            wire [NPORTS-1:0] col;
            for (fc = 0; fc < NPORTS; fc = fc + 1) begin : g_col
                assign col[fc] = fields[fc*FW + fb];
            end
            assign w_f[fb] = |(col & win);
        end
    endgenerate
    wire              w_first = w_f[FW-1];
    wire              w_tail  = w_f[FW-2];
    wire [VCW-1:0]    w_vc    = w_f[FLIT_W +: VCW];
    wire [FLIT_W-1:0] w_data  = w_f[FLIT_W-1:0];

    // ------------------------------------------------------------ registers
    // the output VCs' next ownership: a first flit without tail takes one, a tail frees it
    reg [NVC-1:0] busy_n;
    integer u;
    always @* begin
        busy_n = busy_q;
        for (u = 0; u < NVC; u = u + 1) begin
            if (any && w_first && !w_tail && (w_vc == u[VCW-1:0])) begin
                busy_n[u] = 1'b1;
            end
            if (any && w_tail && !w_first &&
`ifdef SANFAB_MUTANTS
                (!mut_tail_keep || w_data[0]) &&   // deliberately broken: some tails keep the VC
`endif
                (w_vc == u[VCW-1:0])) begin
                busy_n[u] = 1'b0;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy_q     <= {NVC{1'b0}};
            blk_q      <= {NVC{1'b0}};
            tx_valid_q <= 1'b0;
            tx_vc_q    <= {VCW{1'b0}};
            tx_tail_q  <= 1'b0;
            tx_data_q  <= {FLIT_W{1'b0}};
        end else begin
            busy_q     <= busy_n;
`ifdef SANFAB_MUTANTS
            if (mut_vct_nostop)
                blk_q  <= busy_n;               // deliberately broken: heads ignore the stop bit
            else if (mut_vc_share)
                blk_q  <= tx_stop;              // deliberately broken: heads take owned VCs
            else
`endif
            blk_q      <= busy_n | tx_stop;
            tx_valid_q <= any;
            tx_vc_q    <= any ? w_vc : {VCW{1'b0}};
            tx_tail_q  <= any & w_tail;
            tx_data_q  <= any ? w_data : {FLIT_W{1'b0}};
        end
    end

    genvar g;
    generate
        for (g = 0; g < NVC; g = g + 1) begin : g_ev
            assign ev_tx_flit[g] = any && (w_vc == g[VCW-1:0]);
            assign ev_tx_pkt[g]  = any && w_tail && (w_vc == g[VCW-1:0]);
        end
    endgenerate

`ifdef SANFAB_ASSERT
    always @(posedge clk) begin
        if (!rst && any && w_first && busy_q[w_vc]) begin
            $display("ASSERTION vcsw_out[%0d]: a head took an owned VC", PORT_I);
            $finish;
        end
        if (!rst && any && !w_first && !busy_q[w_vc]) begin
            $display("ASSERTION vcsw_out[%0d]: a body flit on a VC nobody owns", PORT_I);
            $finish;
        end
    end
`endif

endmodule

`default_nettype wire
