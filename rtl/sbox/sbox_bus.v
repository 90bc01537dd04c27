// sanfab — Maestro switch box: the bus, the switch controller (docs/sbox.md, "Steps", rule 1).
//
// In every step at most one of the NS sources is granted the bus, the first eligible one in round
// robin from the bus pointer bp; then bp = s + 1. The grant's READ or MOVE reads MLC p in this step
// (h_rd, h_rch); the word arrives in step k+1 (word: the OR of the MLCs' h_rdata, only the MLC that
// was read has one), where the analyzer (rule 2) and the sources use it. A MOVE or PUT of step k is
// written in step k+1 to every MLC of its port set P at once (the multicast: h_wr, h_wch, h_wdata).
// Also the view of step k the sources' eligibility is judged on: avail(p, c) >= 2 per source,
// space(q, c) >= 2 and >= 4 per channel, and where the write of step k goes (rule 1's `room`).
//
// Registers: the bus pointer, the read of step k-1 (its source and which word it was) and the write
// of step k (granted in step k-1). Mutation sites: SPACE_NARROW, RR_STUCK.
`default_nettype none

module sbox_bus #(
    parameter PORTS = 8,
    parameter NS    = 2 * PORTS + 2          // sources: 2p + c, then the barrier sources 2*PORTS + c
) (
    input  wire                clk,
    input  wire                rst,
    // the sources (state after step k-1): eligible, and what a grant of each does
    input  wire [NS-1:0]       src_elig,
    input  wire [NS-1:0]       src_rd,       // reads (READ, MOVE)
    input  wire [NS-1:0]       src_wr,       // writes in the next step (PUT, MOVE)
    input  wire [NS-1:0]       src_move,     // ... the word read (MOVE), else its put word (PUT)
    input  wire [NS-1:0]       src_rw0,      // reads word 0
    input  wire [NS-1:0]       src_rw1,      // reads word 1
    input  wire [NS-1:0]       src_rpc,      // reads the PC word
    input  wire [NS*PORTS-1:0] src_p,        // port sets P
    input  wire [NS*16-1:0]    src_pword,    // put words
    // the MLCs (after step k-1)
    input  wire [PORTS*13-1:0] space0,       // st_tx_space0 of each MLC
    input  wire [PORTS*13-1:0] space1,
    input  wire [PORTS*13-1:0] avail0,       // st_rx_avail0 of each MLC
    input  wire [PORTS*13-1:0] avail1,
    input  wire [PORTS*16-1:0] h_rdata,
    // the view of step k, to the sources
    output reg  [NS-1:0]       avail_ok,     // avail(p, c) >= 2 of each port source
    output reg  [2*PORTS-1:0]  sp_ok2,       // bits c*PORTS + q: space(q, c) >= 2
    output reg  [2*PORTS-1:0]  sp_ok4,       // bits c*PORTS + q: space(q, c) >= 4
    output reg  [2*PORTS-1:0]  wr_hit,       // bits c*PORTS + q: the write of step k goes to (q, c)
    // the grant of step k (one-hot) and the word read in step k-1
    output wire [NS-1:0]       gnt,
    output reg  [15:0]         word,
    // the read of step k-1, arriving in step k (rule 2)
    output wire [NS-1:0]       rd_src,       // its source, one-hot (0: no read)
    output wire                rd_w0,        // it read word 0
    output wire                rd_w1,        // word 1
    output wire                rd_pc,        // the PC word
    output wire                rd_move,      // it was a MOVE (the word is also written now)
    // the MLCs' host inputs of step k
    output wire [PORTS-1:0]    h_wr,
    output wire                h_wch,
    output wire [15:0]         h_wdata,
    output reg  [PORTS-1:0]    h_rd,
    output reg                 h_rch,
    // counter event: a grant that writes (words)
    output reg                 ev_words
);

    // ------------------------------------------------------------ registers
    reg  [NS-1:0]    bp_mask_q, bp_mask_d;   // bus pointer bp, as the mask of the sources >= bp
    // the read of step k-1
    reg  [NS-1:0]    rd_src_q;               // its source, one-hot (0: no read)
    reg              rd_w0_q, rd_w1_q, rd_pc_q;
    // the write of step k (granted in step k-1)
    reg              wr_valid_q;             // there is one
    reg              wr_ch_q;                // its channel
    reg              wr_move_q;              // it writes the word read (MOVE), else wr_put_q (PUT)
    reg  [PORTS-1:0] wr_ports_q;             // its port set (0 without a write)
    reg  [15:0]      wr_put_q;               // the word of a PUT (the granted source's put word)

    integer ix, isp, ig;   // one loop index per block

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_space_narrow, mut_rr_stuck;
    sanfab_mutant #(.NAME("SPACE_NARROW")) u_mut_space_narrow (.on(mut_space_narrow));
    sanfab_mutant #(.NAME("RR_STUCK"))     u_mut_rr_stuck     (.on(mut_rr_stuck));
`endif

    // ------------------------------------------------------------ the word read in step k-1
    // (only the MLC that was read has h_rvalid, and an MLC's h_rdata is 0 without it)
    always @* begin
        word = 16'd0;
        for (ix = 0; ix < PORTS; ix = ix + 1)
            word = word | h_rdata[ix*16 +: 16];
    end

    // ------------------------------------------------------------ space/avail of step k, per channel
    // (x >= 2 is x[12:1] != 0 and x >= 4 is x[12:2] != 0: written as OR reductions, which map to a
    // LUT tree, where a compare with a constant maps to a carry chain on the grant's critical path)
    always @* begin
        avail_ok = {NS{1'b0}};
        sp_ok2 = {(2*PORTS){1'b0}};
        sp_ok4 = {(2*PORTS){1'b0}};
        for (isp = 0; isp < PORTS; isp = isp + 1) begin
            sp_ok2[isp]         = |space0[isp*13 + 1 +: 12];
            sp_ok4[isp]         = |space0[isp*13 + 2 +: 11];
            sp_ok2[PORTS + isp] = |space1[isp*13 + 1 +: 12];
            sp_ok4[PORTS + isp] = |space1[isp*13 + 2 +: 11];
`ifdef SANFAB_MUTANTS
            if (mut_space_narrow) begin   // deliberately broken: room reads 12 bits of the 13-bit space
                sp_ok2[isp]         = |space0[isp*13 + 1 +: 11];
                sp_ok4[isp]         = |space0[isp*13 + 2 +: 10];
                sp_ok2[PORTS + isp] = |space1[isp*13 + 1 +: 11];
                sp_ok4[PORTS + isp] = |space1[isp*13 + 2 +: 10];
            end
`endif
            avail_ok[2*isp]     = |avail0[isp*13 + 1 +: 12];
            avail_ok[2*isp + 1] = |avail1[isp*13 + 1 +: 12];
        end
        wr_hit = {((wr_valid_q && wr_ch_q) ? wr_ports_q : {PORTS{1'b0}}),
                  ((wr_valid_q && !wr_ch_q) ? wr_ports_q : {PORTS{1'b0}})};
    end

    // ------------------------------------------------------------ the grant
    wire          any;
    wire [NS-1:0] above;

    rr_pick #(
        .N (NS)
    ) u_bus_pick (
        .req   (src_elig),
        .mask  (bp_mask_q),
        .any   (any),
        .gnt   (gnt),
        .above (above)
    );

    wire unused_any = &{1'b0, any};

    // what the grant does (one-hot selects)
    reg              g_rd, g_wr, g_move, g_rw0, g_rw1, g_rpc, g_ch;
    reg [PORTS-1:0]  g_port, g_p;
    reg [15:0]       g_pword;

    always @* begin
        g_rd = |(gnt & src_rd);
        g_wr = |(gnt & src_wr);
        g_move = |(gnt & src_move);
        g_rw0 = |(gnt & src_rw0);
        g_rw1 = |(gnt & src_rw1);
        g_rpc = |(gnt & src_rpc);
        g_ch = 1'b0;
        g_port = {PORTS{1'b0}};
        g_p = {PORTS{1'b0}};
        g_pword = 16'd0;
        for (ig = 0; ig < NS; ig = ig + 1) begin
            if (gnt[ig]) begin
                g_ch = g_ch | ig[0];                 // s = 2p + c and 2*PORTS + c: c is bit 0
                g_p = g_p | src_p[ig*PORTS +: PORTS];
                g_pword = g_pword | src_pword[ig*16 +: 16];
                if (ig < 2 * PORTS)
                    g_port[ig/2] = 1'b1;
            end
        end
    end

    // the MLCs' host inputs: the read of the grant, the write of step k (every destination MLC takes
    // the same word)
    always @* begin
        h_rd = g_rd ? g_port : {PORTS{1'b0}};
        h_rch = g_ch;
        ev_words = g_wr;
    end
    assign h_wr    = wr_valid_q ? wr_ports_q : {PORTS{1'b0}};
    assign h_wch   = wr_ch_q;
    assign h_wdata = wr_move_q ? word : wr_put_q;

    assign rd_src  = rd_src_q;
    assign rd_w0   = rd_w0_q;
    assign rd_w1   = rd_w1_q;
    assign rd_pc   = rd_pc_q;
    assign rd_move = wr_move_q;

    // ------------------------------------------------------------ the pointer and the pipelines
    always @* begin
        bp_mask_d = bp_mask_q;
        if (|gnt) begin
`ifdef SANFAB_MUTANTS
            if (mut_rr_stuck)
                bp_mask_d = bp_mask_q;   // deliberately broken: the bus pointer does not move
            else
`endif
            bp_mask_d = above;           // bp = s + 1
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            bp_mask_q <= {NS{1'b1}};
            rd_src_q <= {NS{1'b0}};
            rd_w0_q <= 1'b0;
            rd_w1_q <= 1'b0;
            rd_pc_q <= 1'b0;
            wr_valid_q <= 1'b0;
            wr_ch_q <= 1'b0;
            wr_move_q <= 1'b0;
            wr_ports_q <= {PORTS{1'b0}};
            wr_put_q <= 16'd0;
        end else begin
            bp_mask_q <= bp_mask_d;
            rd_src_q <= gnt & src_rd;
            rd_w0_q <= g_rw0;
            rd_w1_q <= g_rw1;
            rd_pc_q <= g_rpc;
            wr_valid_q <= g_wr;
            wr_ch_q <= g_ch;
            wr_move_q <= g_move;
            wr_ports_q <= g_wr ? g_p : {PORTS{1'b0}};
            wr_put_q <= g_pword;
        end
    end

endmodule

`default_nettype wire
