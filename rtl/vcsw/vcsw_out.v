// sanfab — one output of the VC switch: candidates, round-robin switch allocation, output-VC
// ownership, the registered stop bits and the transmit register (docs/vcsw.md, step 3).
//
// Candidates are the (input, VC) heads, numbered c = input*NVC + vc. A head is a candidate when
// its (input, VC) owns an output VC here (body and tail flits), or when it is a packet's first
// flit routed here whose output VC is free and whose stop bit (tx_stop registered once) is 0.
// Every candidate term is a register of the inputs or of this output; the grant pops the winner's
// head and loads the transmit register in the same step.
`default_nettype none

module vcsw_out #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter FLIT_W = 16,
    parameter PORT   = 0,
    parameter PW     = 3,
    parameter VCW    = 1
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire [NPORTS*NVC-1:0]        h_valid,
    input  wire [NPORTS*NVC-1:0]        h_first,
    input  wire [NPORTS*NVC-1:0]        h_tail,
    input  wire [NPORTS*NVC*PW-1:0]     h_port,
    input  wire [NPORTS*NVC*VCW-1:0]    h_ovc,
    input  wire [NPORTS*NVC*FLIT_W-1:0] h_data,
    output wire [NPORTS*NVC-1:0]        gnt,         // pops the winner's head
    input  wire [NVC-1:0]               tx_stop,     // stop bits from the receiver (this step)
    output reg                          tx_valid_q,
    output reg  [VCW-1:0]               tx_vc_q,
    output reg                          tx_tail_q,
    output reg  [FLIT_W-1:0]            tx_data_q,
    output wire [NVC-1:0]               ev_tx_flit,
    output wire [NVC-1:0]               ev_tx_pkt
);

    localparam N = NPORTS * NVC;
    localparam integer PORT_I = PORT;

    reg  [NVC-1:0]   stop_q;        // tx_stop of the previous step
    reg  [NVC-1:0]   busy_q;        // output VC owned
    reg  [N-1:0]     owns_q;        // candidate c owns an output VC here
    reg  [N*VCW-1:0] ownvc_q;       // which one

    // ------------------------------------------------------------ candidates
    reg [N-1:0] cand;
    integer     c;
    always @* begin
        cand = {N{1'b0}};
        for (c = 0; c < N; c = c + 1) begin
            if (h_valid[c]) begin
                if (owns_q[c]) begin
                    cand[c] = 1'b1;
                end else if (h_first[c] && ({{(32-PW){1'b0}}, h_port[c*PW +: PW]} == PORT_I[31:0])
`ifdef SANFAB_MUTANT_VCT_NOSTOP
                             && !busy_q[h_ovc[c*VCW +: VCW]]) begin
`elsif SANFAB_MUTANT_VC_SHARE
                             && !stop_q[h_ovc[c*VCW +: VCW]]) begin
`else
                             && !busy_q[h_ovc[c*VCW +: VCW]] && !stop_q[h_ovc[c*VCW +: VCW]]) begin
`endif
                    cand[c] = 1'b1;
                end
            end
        end
    end

    wire         any;
    wire [N-1:0] win;
    rr_arbiter #(
        .N (N)
    ) u_arb (
        .clk       (clk),
        .rst       (rst),
        .en        (1'b1),
        .req       (cand),
        .gnt_valid (any),
        .gnt       (win)
    );
    assign gnt = win;

    // ------------------------------------------------------------ the winner's flit (AND-OR mux,
    // one OR-reduction per bit over the candidates)
    localparam FW = 2 + 2 * VCW + FLIT_W;          // {first, tail, head's VC, owned VC, data}
    wire [N*FW-1:0] fields;
    wire [FW-1:0]   w_f;
    genvar fc, fb;
    generate
        for (fc = 0; fc < N; fc = fc + 1) begin : g_fields
            assign fields[fc*FW +: FW] = {h_first[fc], h_tail[fc], h_ovc[fc*VCW +: VCW],
                                          ownvc_q[fc*VCW +: VCW], h_data[fc*FLIT_W +: FLIT_W]};
        end
        for (fb = 0; fb < FW; fb = fb + 1) begin : g_mux
            wire [N-1:0] col;
            for (fc = 0; fc < N; fc = fc + 1) begin : g_col
                assign col[fc] = fields[fc*FW + fb];
            end
            assign w_f[fb] = |(col & win);
        end
    endgenerate
    wire              w_first = w_f[FW-1];
    wire              w_tail  = w_f[FW-2];
    wire [VCW-1:0]    w_hovc  = w_f[FLIT_W+VCW +: VCW];
    wire [VCW-1:0]    w_ownvc = w_f[FLIT_W +: VCW];
    wire [FLIT_W-1:0] w_data  = w_f[FLIT_W-1:0];
    wire [VCW-1:0] w_vc = w_first ? w_hovc : w_ownvc;

    // ------------------------------------------------------------ registers
    integer u;
    always @(posedge clk) begin
        if (rst) begin
            stop_q     <= {NVC{1'b0}};
            busy_q     <= {NVC{1'b0}};
            owns_q     <= {N{1'b0}};
            ownvc_q    <= {(N*VCW){1'b0}};
            tx_valid_q <= 1'b0;
            tx_vc_q    <= {VCW{1'b0}};
            tx_tail_q  <= 1'b0;
            tx_data_q  <= {FLIT_W{1'b0}};
        end else begin
            stop_q     <= tx_stop;
            tx_valid_q <= any;
            tx_vc_q    <= any ? w_vc : {VCW{1'b0}};
            tx_tail_q  <= any & w_tail;
            tx_data_q  <= any ? w_data : {FLIT_W{1'b0}};
            for (c = 0; c < N; c = c + 1) begin
                if (win[c]) begin
                    if (w_first && !w_tail) begin
                        owns_q[c]               <= 1'b1;
                        ownvc_q[c*VCW +: VCW]   <= w_hovc;
                    end
`ifdef SANFAB_MUTANT_TAIL_KEEP
                    if (w_tail && !w_first && w_data[0]) begin
`else
                    if (w_tail && !w_first) begin
`endif
                        owns_q[c] <= 1'b0;
                    end
                end
            end
            for (u = 0; u < NVC; u = u + 1) begin
                if (any && w_first && !w_tail && (w_hovc == u[VCW-1:0])) begin
                    busy_q[u] <= 1'b1;
                end
`ifdef SANFAB_MUTANT_TAIL_KEEP
                if (any && w_tail && !w_first && w_data[0] && (w_ownvc == u[VCW-1:0])) begin
`else
                if (any && w_tail && !w_first && (w_ownvc == u[VCW-1:0])) begin
`endif
                    busy_q[u] <= 1'b0;
                end
            end
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
        if (!rst && any && !w_first && !(|(win & owns_q))) begin
            $display("ASSERTION vcsw_out[%0d]: a body flit won without owning a VC", PORT_I);
            $finish;
        end
    end
`endif

endmodule

`default_nettype wire
