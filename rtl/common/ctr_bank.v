// sanfab — a bank of NS event counters kept in block RAM, with a read port (shared by the blocks).
//
// NS counters of CTR_WIDTH bits live in a RAM. Each slot s also has a small pending count in
// flip-flops that counts its events. A flusher visits one slot per cycle in rotation: it reads the
// slot's RAM word, takes the pending count (restarting it with this cycle's event) and, two cycles
// later, writes word + pending back (the RAM read data is registered once more, so the adder starts
// from a register). A pending count therefore never holds more than one rotation (NS cycles) of
// events. Pending counts are kept as maximal-length XNOR LFSRs rather than binary incrementers (a
// shift with one feedback LUT instead of a carry chain per slot): state 0 is a count of 0 and one
// step from 0 is state 1, so a restart loads {0, event} exactly as a binary count would. The one
// selected state is turned back into a binary count by a small ROM (a block RAM read, which is the
// pipeline register that was there anyway), so the counts, and every cycle of the read port, are
// the same as with binary pending counts.
// Events are registered on the way in (ev_q), so they reach the counts one cycle after they happen.
// During the first rotation after reset the RAM words are taken as zero (that clears them).
//
// Schedule (the blocks' docs state it in steps): slot s is written in every step W >= 3 with
// W = s + 3 (mod NS); the value written counts the slot's events in steps <= W - 4.
//
// Read: `rd` with `rd_ok` and `rd_slot` is accepted when no read is outstanding (a request while one
// is outstanding is ignored). It is answered when the flusher writes that slot: `rvalid` is high for
// one cycle with the value written, so the answer comes 1..NS cycles after the request. A request
// with `rd_ok` low (an absent counter) answers 0 one cycle later.
`default_nettype none

module ctr_bank #(
    parameter NS        = 72,
    parameter CTR_WIDTH = 32       // counters wrap modulo 2^CTR_WIDTH; rdata is zero-extended
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire [NS-1:0]                 ev,         // event pulses, one per slot
    input  wire                          rd,
    input  wire                          rd_ok,
    input  wire [((NS > 1) ? $clog2(NS) : 1)-1:0] rd_slot,
    output reg  [31:0]                   rdata,
    output reg                           rvalid
);

    localparam SW  = (NS > 1) ? $clog2(NS) : 1;
    localparam LW  = $clog2(NS + 2);         // LFSR width: period 2^LW-1 holds counts 0..NS
    localparam integer LAST_I = NS - 1;
    localparam [SW-1:0] LAST_SLOT = LAST_I[SW-1:0];

    // XNOR feedback taps of a maximal-length LFSR of LW bits (shifting towards the MSB)
    localparam [11:0] TAPS12 = (LW <= 2) ? 12'b000000000011 :
                               (LW == 3) ? 12'b000000000110 :
                               (LW == 4) ? 12'b000000001100 :
                               (LW == 5) ? 12'b000000010100 :
                               (LW == 6) ? 12'b000000110000 :
                               (LW == 7) ? 12'b000001100000 :
                               (LW == 8) ? 12'b000010111000 :
                               (LW == 9) ? 12'b000100010000 :
                               (LW == 10) ? 12'b001001000000 :
                               (LW == 11) ? 12'b010100000000 : 12'b100000101001;
    localparam [LW-1:0] TAPS = TAPS12[LW-1:0];

    function [LW-1:0] lfsr_step;
        input [LW-1:0] st;
        begin
            lfsr_step = {st[LW-2:0], ~(^(st & TAPS))};
        end
    endfunction

    // ROM: LFSR state -> number of steps from state 0 (unreached states decode to 0)
`ifdef SANFAB_DIST_RAM
    (* rom_style = "logic" *)
`else
    (* rom_style = "block", ram_style = "block" *)
`endif
    reg [LW-1:0] dec_rom [0:(1<<LW)-1];
    integer      r;
    reg [LW-1:0] r_st;
    initial begin
        for (r = 0; r < (1 << LW); r = r + 1) begin
            dec_rom[r] = {LW{1'b0}};
        end
        r_st = {LW{1'b0}};
        for (r = 0; r < (1 << LW) - 1; r = r + 1) begin
            dec_rom[r_st] = r[LW-1:0];
            r_st = lfsr_step(r_st);
        end
    end

    // ---------------- flusher ----------------
    reg  [SW-1:0] fl_q;          // slot read this cycle
    reg  [NS-1:0] ring_q;        // the same, one-hot (selects the slot's pending count)
    reg           init_q;        // first rotation after reset: RAM words count as zero
    reg  [SW-1:0] rd_slot_q;     // slot whose word is in ram_q
    reg           rd_v_q;
    reg           rd_init_q;
    reg  [LW-1:0] rd_snap_q;     // pending count (LFSR state) taken from rd_slot_q
    localparam CW = CTR_WIDTH;
    reg  [CW-1:0] ram_q;         // RAM read register: word of rd_slot_q
    reg  [SW-1:0] wr_slot_q;     // slot written this cycle
    reg           wr_v_q;
    reg           wr_init_q;
    reg  [LW-1:0] snap_q;        // pending count of wr_slot_q, binary (ROM read register)
    reg  [CW-1:0] word_q;        // its RAM word, registered once more

`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`endif
    reg  [CW-1:0] mem [0:NS-1] /* verilator public_flat_rw */;
`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire          mut_ctr_narrow, mut_ctr_lose;
    sanfab_mutant #(.NAME("CTR_NARROW")) u_mut_ctr_narrow (.on(mut_ctr_narrow));
    sanfab_mutant #(.NAME("CTR_LOSE"))   u_mut_ctr_lose   (.on(mut_ctr_lose));
    wire [CW-1:0] wsum  =
`else
    wire [CW-1:0] wdata =
`endif
                          (wr_init_q ? {CW{1'b0}} : word_q) + {{(CW-LW){1'b0}}, snap_q};
`ifdef SANFAB_MUTANTS
    // deliberately broken: the top bit of every counter is lost (wraps at 2^(CTR_WIDTH-1))
    wire [CW-1:0] wdata = mut_ctr_narrow ? {1'b0, wsum[CW-2:0]} : wsum;
`endif

    wire [31:0]   wdata32;
    generate
        if (CW < 32) begin : g_narrow
            assign wdata32 = {{(32-CW){1'b0}}, wdata};
        end else begin : g_full
            assign wdata32 = wdata;
        end
    endgenerate

    // pending count of slot fl_q: an AND-OR over the slots, each slot gated by its own hit (one
    // OR-reduction per bit, so the tools see a balanced tree rather than a chain of NS ORs)
    wire [NS*LW-1:0] pend_gated;
    wire [LW-1:0]    pend_sel;
    genvar           b, s2;
    generate
        for (b = 0; b < LW; b = b + 1) begin : g_sel
            wire [NS-1:0] col;
            for (s2 = 0; s2 < NS; s2 = s2 + 1) begin : g_col
                assign col[s2] = pend_gated[s2*LW + b];
            end
            assign pend_sel[b] = |col;
        end
    endgenerate

    reg [NS-1:0] ev_q;   // events of the previous cycle

    always @(posedge clk) begin
        if (rst) begin
            ev_q <= {NS{1'b0}};
        end else begin
            ev_q <= ev;
        end
    end

    genvar s;
    generate
        for (s = 0; s < NS; s = s + 1) begin : g_slot
            reg [LW-1:0] pend_q;
            wire hit = ring_q[s];
            always @(posedge clk) begin
                if (rst) begin
                    pend_q <= {LW{1'b0}};
                end else if (hit) begin
`ifdef SANFAB_MUTANTS
                    if (mut_ctr_lose)
                        pend_q <= {LW{1'b0}};  // deliberately broken: an event at the restart is lost
                    else
`endif
                    pend_q <= {{(LW-1){1'b0}}, ev_q[s]};  // 0 or one step from 0
                end else if (ev_q[s]) begin
                    pend_q <= lfsr_step(pend_q);
                end
            end
            assign pend_gated[s*LW +: LW] = hit ? pend_q : {LW{1'b0}};
        end
    endgenerate

    always @(posedge clk) begin
        snap_q <= dec_rom[rd_snap_q];   // ROM read register (no reset: used only when wr_v_q)
    end

    always @(posedge clk) begin
        if (wr_v_q) begin
            mem[wr_slot_q] <= wdata;
        end
        ram_q  <= mem[fl_q];
        word_q <= ram_q;
    end

    always @(posedge clk) begin
        if (rst) begin
            fl_q      <= {SW{1'b0}};
            ring_q    <= {{(NS-1){1'b0}}, 1'b1};
            init_q    <= 1'b1;
            rd_slot_q <= {SW{1'b0}};
            rd_v_q    <= 1'b0;
            rd_init_q <= 1'b0;
            rd_snap_q <= {LW{1'b0}};
            wr_slot_q <= {SW{1'b0}};
            wr_v_q    <= 1'b0;
            wr_init_q <= 1'b0;
        end else begin
            fl_q      <= (fl_q == LAST_SLOT) ? {SW{1'b0}} : fl_q + {{(SW-1){1'b0}}, 1'b1};
            ring_q    <= {ring_q[NS-2:0], ring_q[NS-1]};
            if (fl_q == LAST_SLOT) begin
                init_q <= 1'b0;
            end
            rd_slot_q <= fl_q;
            rd_v_q    <= 1'b1;
            rd_init_q <= init_q;
            rd_snap_q <= pend_sel;
            wr_slot_q <= rd_slot_q;
            wr_v_q    <= rd_v_q;
            wr_init_q <= rd_init_q;
        end
    end

    // ---------------- read port ----------------
    reg           rq_v_q;
    reg  [SW-1:0] rq_slot_q;

    always @(posedge clk) begin
        if (rst) begin
            rq_v_q    <= 1'b0;
            rq_slot_q <= {SW{1'b0}};
            rvalid    <= 1'b0;
            rdata     <= 32'd0;
        end else begin
            rvalid <= 1'b0;
            rdata  <= 32'd0;
            if (rq_v_q && wr_v_q && wr_slot_q == rq_slot_q) begin
                rq_v_q <= 1'b0;
                rvalid <= 1'b1;
                rdata  <= wdata32;
            end else if (!rq_v_q && rd) begin
                if (rd_ok) begin
                    rq_v_q    <= 1'b1;
                    rq_slot_q <= rd_slot;
                end else begin
                    rvalid <= 1'b1;
                end
            end
        end
    end

endmodule

`default_nettype wire
