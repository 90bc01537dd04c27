// sanfab — first-word-fall-through FIFO in block RAM.
//
// Storage is a RAM with a registered read port (maps to SB_RAM40_4K / DP16KD), followed by the
// RAM's read register (stage s1) and a head register (stage h). The head is valid in h_valid /
// h_data; `pop` consumes it in the same cycle. A write into a completely empty FIFO goes straight
// into the head register, so it is visible one cycle after it was written. `occ` counts every
// entry held (RAM + s1 + head). The caller must not write when occ == DEPTH.
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

    reg [WIDTH-1:0] mem [0:(1<<AW)-1];

    reg [AW-1:0]    wr_ptr_q, wr_ptr_d;
    reg [AW-1:0]    rd_ptr_q, rd_ptr_d;
    reg             s1_v_q, s1_v_d;
    reg [WIDTH-1:0] s1_d_q;
    reg             h_v_q, h_v_d;
    reg [WIDTH-1:0] h_d_q, h_d_d;
    reg [AW-1:0]    occ_q, occ_d;

    wire mem_ne  = (wr_ptr_q != rd_ptr_q);
    wire h_free  = ~h_v_q | pop;
    wire s1_to_h = s1_v_q & h_free;
    wire rd_en   = mem_ne & (~s1_v_q | s1_to_h);
`ifdef SANFAB_MUTANT_FIFO_BYPASS
    wire to_h    = wr & ~mem_ne & h_free;            // deliberately broken: ignores s1
`else
    wire to_h    = wr & ~mem_ne & ~s1_v_q & h_free;
`endif
    // every write goes into the RAM; one that also went straight to the head is skipped by the
    // read pointer at once (to_h and rd_en never coincide), so the write side never waits on pop
    wire mem_wr  = wr;

    always @* begin
        wr_ptr_d = wr_ptr_q;
        rd_ptr_d = rd_ptr_q;
        s1_v_d   = s1_v_q;
        h_v_d    = h_v_q;
        h_d_d    = h_d_q;
        // occupancy: both neighbours start from the register; wr and pop only select
        case ({wr, pop})
            2'b10:   occ_d = occ_q + {{(AW-1){1'b0}}, 1'b1};
            2'b01:   occ_d = occ_q - {{(AW-1){1'b0}}, 1'b1};
            default: occ_d = occ_q;
        endcase

        // the head register loads whenever it is free (its value only counts when h_v is set):
        // the late pop drives one enable, the data select does not depend on it
        if (h_free) begin
            h_d_d = s1_v_q ? s1_d_q : wr_data;
        end
        h_v_d = s1_to_h | to_h | (h_v_q & ~pop);

        if (rd_en) begin
            s1_v_d = 1'b1;
        end else if (s1_to_h) begin
            s1_v_d = 1'b0;
        end
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
            h_v_q    <= 1'b0;
            h_d_q    <= {WIDTH{1'b0}};
            occ_q    <= {AW{1'b0}};
        end else begin
            wr_ptr_q <= wr_ptr_d;
            rd_ptr_q <= rd_ptr_d;
            s1_v_q   <= s1_v_d;
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
