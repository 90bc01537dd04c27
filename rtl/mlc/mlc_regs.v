// sanfab — Maestro Link Controller: the register port, the configuration and the counters
// (docs/mlc.md, rule 8 "Register port", "Configuration", "Counters").
//
// Holds the 15 event counters (CTR_W bits, wrapping; each counts in the step of its event, the
// events coming from mlc_link, mlc_send, mlc_recv and mlc_hostq), the configuration register
// (address 16) and the registered read answer: a read in step r returns the value after step r-1.
`default_nettype none

module mlc_regs #(
    parameter CTR_W = 16
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        reg_rd,
    input  wire        reg_wr,
    input  wire [4:0]  reg_addr,
    input  wire [15:0] reg_wdata,
    output reg         reg_rvalid_q,
    output reg  [31:0] reg_rdata_q,
    // the configuration: bit 0 message-based, bits 2..1 single-packet size (docs/mlc.md)
    output wire [2:0]  cfg_d,
    // register 15, the link state
    input  wire        good_q,
    input  wire        out_valid_q,
    input  wire        tack_q,
    input  wire        e_mine_q,
    input  wire [7:0]  crx_q,
    input  wire [1:0]  link_state_q,
    input  wire        hold_q,
    // registers 17..20, the status
    input  wire [12:0] st_tx_space0,
    input  wire [12:0] st_tx_space1,
    input  wire [12:0] st_rx_avail0,
    input  wire [12:0] st_rx_avail1,
    // the counters' events of this step (table Counters)
    input  wire        ev_tx_frame,
    input  wire        ev_tx_null,
    input  wire [3:0]  ev_tx_units,
    input  wire        ev_rx_frame,
    input  wire        ev_rx_null,
    input  wire [3:0]  ev_rx_units,
    input  wire        ev_err_check,
    input  wire        ev_err_len,
    input  wire        ev_err_credit,
    input  wire        ev_dup,
    input  wire [3:0]  ev_retx_units,
    input  wire        ev_timeout,
    input  wire        ev_conflict,
    input  wire        ev_wr_over,
    input  wire        ev_rd_under
);

    localparam NCTR = 15;
    // counter indices (docs/mlc.md, Counters)
    localparam [3:0] C_TX_FRAMES = 4'd0, C_TX_NULL = 4'd1, C_TX_PKTS = 4'd2, C_RX_FRAMES = 4'd3,
                     C_RX_NULL = 4'd4, C_RX_PKTS = 4'd5, C_ERR_CHECK = 4'd6, C_ERR_LEN = 4'd7,
                     C_ERR_CREDIT = 4'd8, C_DUP = 4'd9, C_RETX = 4'd10, C_TIMEOUT = 4'd11,
                     C_CONFLICT = 4'd12, C_WR_OVER = 4'd13, C_RD_UNDER = 4'd14;

`ifdef SANFAB_MUTANTS
    wire mut_ctr_sat, mut_ctr_top;
    sanfab_mutant #(.NAME("CTR_SAT"))      u_mut_ctr_sat      (.on(mut_ctr_sat));
    sanfab_mutant #(.NAME("CTR_TOP"))      u_mut_ctr_top      (.on(mut_ctr_top));
`endif

    reg [2:0]       cfg_q;
    reg [CTR_W-1:0] ctr_q [0:NCTR-1] /* verilator public_flat_rw */;   // public: the bench's counter preset (a test mode)
    reg [4:0]       inc   [0:NCTR-1];   // what each counter adds in this step
    reg             reg_rvalid_d;
    reg [31:0]      reg_rdata_d;
    reg [31:0]      reg_val;

    // rule 8: configuration write
    assign cfg_d = (reg_wr && reg_addr == 5'd16) ? reg_wdata[2:0] : cfg_q;

    integer c;
    always @* begin
        for (c = 0; c < NCTR; c = c + 1)
            inc[c] = 5'd0;
        inc[C_TX_FRAMES]  = {4'd0, ev_tx_frame};
        inc[C_TX_NULL]    = {4'd0, ev_tx_null};
        inc[C_TX_PKTS]    = {1'b0, ev_tx_units};
        inc[C_RX_FRAMES]  = {4'd0, ev_rx_frame};
        inc[C_RX_NULL]    = {4'd0, ev_rx_null};
        inc[C_RX_PKTS]    = {1'b0, ev_rx_units};
        inc[C_ERR_CHECK]  = {4'd0, ev_err_check};
        inc[C_ERR_LEN]    = {4'd0, ev_err_len};
        inc[C_ERR_CREDIT] = {4'd0, ev_err_credit};
        inc[C_DUP]        = {4'd0, ev_dup};
        inc[C_RETX]       = {1'b0, ev_retx_units};
        inc[C_TIMEOUT]    = {4'd0, ev_timeout};
        inc[C_CONFLICT]   = {4'd0, ev_conflict};
        inc[C_WR_OVER]    = {4'd0, ev_wr_over};
        inc[C_RD_UNDER]   = {4'd0, ev_rd_under};
    end

    // the register read value (the state after step r-1)
    always @* begin
        reg_val = 32'h8000_0000;
        if (reg_addr < 5'd15)
            reg_val = {{(32-CTR_W){1'b0}}, ctr_q[reg_addr[3:0]]};
        else if (reg_addr == 5'd15)
            reg_val = {17'd0, hold_q, link_state_q, crx_q[7:4], crx_q[3:0], e_mine_q, tack_q, out_valid_q, good_q};
        else if (reg_addr == 5'd16)
            reg_val = {29'd0, cfg_q};
        else if (reg_addr == 5'd17)
            reg_val = {19'd0, st_tx_space0};
        else if (reg_addr == 5'd18)
            reg_val = {19'd0, st_tx_space1};
        else if (reg_addr == 5'd19)
            reg_val = {19'd0, st_rx_avail0};
        else if (reg_addr == 5'd20)
            reg_val = {19'd0, st_rx_avail1};
        reg_rvalid_d = reg_rd;
        reg_rdata_d = reg_rd ? reg_val : 32'd0;
    end
    wire unused_ok = &{1'b0, reg_wdata[15:3]};

    integer r;
    always @(posedge clk) begin
        if (rst) begin
            for (r = 0; r < NCTR; r = r + 1)
                ctr_q[r] <= {CTR_W{1'b0}};
            cfg_q <= 3'd0;
            reg_rvalid_q <= 1'b0; reg_rdata_q <= 32'd0;
        end else begin
            for (r = 0; r < NCTR; r = r + 1)
`ifdef SANFAB_MUTANTS
                if (mut_ctr_sat)
                    ctr_q[r] <= (&ctr_q[r]) ? ctr_q[r] : ctr_q[r] + {{(CTR_W-5){1'b0}}, inc[r]};   // deliberately broken: counters stop at 2^CTR_W - 1 instead of wrapping
                else if (mut_ctr_top)
                    ctr_q[r] <= {ctr_q[r][CTR_W-1], ctr_q[r][CTR_W-2:0] + {{(CTR_W-6){1'b0}}, inc[r]}};   // deliberately broken: the carry into the top bit is lost
                else
`endif
                ctr_q[r] <= ctr_q[r] + {{(CTR_W-5){1'b0}}, inc[r]};
            cfg_q <= cfg_d;
            reg_rvalid_q <= reg_rvalid_d; reg_rdata_q <= reg_rdata_d;
        end
    end

endmodule

`default_nettype wire
