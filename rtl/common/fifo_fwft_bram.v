// sanfab — first-word-fall-through FIFO in block RAM.
//
// Storage is a RAM with a registered read port (maps to SB_RAM40_4K / DP16KD), then three
// staging registers: the RAM's read register s1, a second stage h1 and the head h0. The head is
// valid in h_valid / h_data; `pop` consumes it in the same cycle. A write into a completely empty
// FIFO (or one whose last entry is popped in the same cycle) goes straight into the head; any
// other write reaches the head at the earliest two cycles later through the RAM. So an entry
// written in cycle w is at the head from cycle w (straight in), or from max(w + 2, p) where p is
// the cycle its predecessor is popped (docs/xbar.md, "Slack buffer").
//
// The RAM is read whenever a staging register is free by the registers alone, so neither the
// RAM's read enable nor the pointers wait on `pop`: a late pop only shifts the staging registers.
// `occ` counts every entry held (RAM + staging). The caller must not write when occ == DEPTH.
`default_nettype none

module fifo_fwft_bram #(
    parameter WIDTH = 10,
    parameter DEPTH = 80
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire                          wr,
    input  wire [WIDTH-1:0]              wr_data,
    input  wire                          pop,
    output wire                          h_valid,
    output wire [WIDTH-1:0]              h_data,
    output wire [$clog2(DEPTH+1)-1:0]    occ
);

    localparam AW = $clog2(DEPTH + 1);

    // block RAM by default; SANFAB_DIST_RAM (a synthesis option, e.g. for ECP5, whose block RAM
    // without its output register is slow in nextpnr's model) asks for distributed RAM instead
`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`else
    (* ram_style = "block" *)
`endif
    reg [WIDTH-1:0] mem [0:(1<<AW)-1];

    reg [AW-1:0]    wr_ptr_q, wr_ptr_d;
    reg [AW-1:0]    rd_ptr_q, rd_ptr_d;
    reg             s1_v_q, s1_v_d;
    reg [WIDTH-1:0] s1_d_q;
    reg             h1_v_q, h1_v_d;
    reg [WIDTH-1:0] h1_d_q, h1_d_d;
    reg             h_v_q, h_v_d;
    reg [WIDTH-1:0] h_d_q, h_d_d;
    reg [AW-1:0]    occ_q, occ_d;

    wire mem_ne  = (wr_ptr_q != rd_ptr_q);
    wire h_free  = ~h_v_q | pop;
    // read the RAM when a staging register is free (registers only): the chain then shifts for sure
    wire rd_en   = mem_ne & ~(s1_v_q & h1_v_q & h_v_q);
`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_fifo_bypass;
    sanfab_mutant #(.NAME("FIFO_BYPASS")) u_mut_fifo_bypass (.on(mut_fifo_bypass));
`endif
    wire to_h    =
`ifdef SANFAB_MUTANTS
                   mut_fifo_bypass ? wr & ~mem_ne & ~h1_v_q & h_free :   // deliberately broken: ignores s1
`endif
                   wr & ~mem_ne & ~s1_v_q & ~h1_v_q & h_free;
    // every write goes into the RAM; one that also went straight to the head is skipped by the
    // read pointer at once (to_h and rd_en never coincide), so the write side never waits on pop
    wire mem_wr  = wr;

    always @* begin
        wr_ptr_d = wr_ptr_q;
        rd_ptr_d = rd_ptr_q;
        s1_v_d   = s1_v_q;
        h1_v_d   = h1_v_q;
        h1_d_d   = h1_d_q;
        h_v_d    = h_v_q;
        h_d_d    = h_d_q;
        // occupancy: both neighbours start from the register; wr and pop only select
        case ({wr, pop})
            2'b10:   occ_d = occ_q + {{(AW-1){1'b0}}, 1'b1};
            2'b01:   occ_d = occ_q - {{(AW-1){1'b0}}, 1'b1};
            default: occ_d = occ_q;
        endcase

        // the head loads whenever it is free (its value only counts when h_v is set): from h1,
        // else from s1, else straight from the write
        if (h_free) begin
            h_d_d = h1_v_q ? h1_d_q : (s1_v_q ? s1_d_q : wr_data);
            h_v_d = h1_v_q | s1_v_q | to_h;
        end
        // h1 holds the entry after the head: it moves to the head when that is free, and takes
        // s1 when it is (or becomes) empty while the head stays occupied
        if (h1_v_q) begin
            if (h_free) begin
                h1_d_d = s1_d_q;
                h1_v_d = s1_v_q;
            end
        end else begin
            h1_d_d = s1_d_q;
            h1_v_d = s1_v_q & ~h_free;
        end
        // s1 is free after this cycle unless it stays put (h1 full and the head not free)
        s1_v_d = rd_en | (s1_v_q & h1_v_q & ~h_free);

        if (rd_en | to_h) begin
            rd_ptr_d = rd_ptr_q + {{(AW-1){1'b0}}, 1'b1};
        end
        if (mem_wr) begin
            wr_ptr_d = wr_ptr_q + {{(AW-1){1'b0}}, 1'b1};
        end
    end

    // RAM: one write port, one registered read port; the read register is stage s1.
    always @(posedge clk) begin
        if (mem_wr) begin
            mem[wr_ptr_q] <= wr_data;
        end
        if (rd_en) begin
            s1_d_q <= mem[rd_ptr_q];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr_q <= {AW{1'b0}};
            rd_ptr_q <= {AW{1'b0}};
            s1_v_q   <= 1'b0;
            h1_v_q   <= 1'b0;
            h1_d_q   <= {WIDTH{1'b0}};
            h_v_q    <= 1'b0;
            h_d_q    <= {WIDTH{1'b0}};
            occ_q    <= {AW{1'b0}};
        end else begin
            wr_ptr_q <= wr_ptr_d;
            rd_ptr_q <= rd_ptr_d;
            s1_v_q   <= s1_v_d;
            h1_v_q   <= h1_v_d;
            h1_d_q   <= h1_d_d;
            h_v_q    <= h_v_d;
            h_d_q    <= h_d_d;
            occ_q    <= occ_d;
        end
    end

    assign h_valid = h_v_q;
    assign h_data  = h_d_q;
    assign occ     = occ_q;

endmodule

`default_nettype wire
