// sanfab — the VC switch's configuration port: table writes (decoded in the step they arrive, so
// a write in step w reaches the inputs' table copies at edge w), readback copies of both tables,
// and the counters (docs/vcsw.md, "Configuration port" and "Counters").
`default_nettype none

module vcsw_cfg #(
    parameter NPORTS    = 8,
    parameter NVC       = 2,
    parameter CTRL      = 1,
    parameter TAG_W     = 8,
    parameter COUNTERS  = 1,
    parameter CTR_WIDTH = 32
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      cfg_we,
    input  wire                      cfg_re,
    input  wire [15:0]               cfg_addr,
    input  wire [15:0]               cfg_wdata,
    output reg                       cfg_rvalid,
    output reg  [31:0]               cfg_rdata,
    output wire                      tw_route,
    output wire                      tw_vc,
    output wire [11:0]               tw_idx,
    output wire [4:0]                tw_entry,
    input  wire [NPORTS*NVC*8-1:0]   ev          // slot ((port*NVC)+vc)*8 + ctr
);

    localparam NDVC = (CTRL != 0) ? NVC / 2 : NVC;
    localparam NT   = 1 << TAG_W;
    localparam NVE  = NPORTS * NPORTS * NDVC;
    localparam VEW  = $clog2(NVE);
    localparam NS   = NPORTS * NVC * 8;
    localparam SW   = $clog2(NS);
    localparam integer NP_I   = NPORTS;
    localparam integer NVC_I  = NVC;
    localparam integer NDVC_I = NDVC;

    localparam [1:0] K_TABLE_RT = 2'd0, K_TABLE_VC = 2'd1, K_ERR = 2'd2, K_ZERO = 2'd3;

    wire [1:0]  space = cfg_addr[15:14];
    wire [13:0] idx   = cfg_addr[13:0];

    // routing table index: a tag
    wire        rt_ok = (idx >> TAG_W) == 14'd0;
    // VC table index: {in, out, d}
    wire [3:0]  v_in  = idx[11:8];
    wire [3:0]  v_out = idx[7:4];
    wire [3:0]  v_d   = idx[3:0];
    wire        vc_ok = (idx[13:12] == 2'd0) && ({28'd0, v_in} < NP_I[31:0]) &&
                        ({28'd0, v_out} < NP_I[31:0]) && ({28'd0, v_d} < NDVC_I[31:0]);
    wire [31:0] ve_i32 = ({28'd0, v_in} * NP_I[31:0] + {28'd0, v_out}) * NDVC_I[31:0] + {28'd0, v_d};
    wire [VEW-1:0] ve_i = ve_i32[VEW-1:0];
    // counter index: {port, vc, ctr}
    wire [3:0]  c_port = idx[10:7];
    wire [3:0]  c_vc   = idx[6:3];
    wire [2:0]  c_ctr  = idx[2:0];
    wire        ct_ok  = (idx[13:11] == 3'd0) && ({28'd0, c_port} < NP_I[31:0]) &&
                         ({28'd0, c_vc} < NVC_I[31:0]);
    wire [31:0] slot32 = ({28'd0, c_port} * NVC_I[31:0] + {28'd0, c_vc}) * 32'd8 + {29'd0, c_ctr};

    assign tw_route = cfg_we && (space == 2'd0) && rt_ok;
    assign tw_vc    = cfg_we && (space == 2'd1) && vc_ok;
    assign tw_idx   = idx[11:0];
    assign tw_entry = {cfg_wdata[15], cfg_wdata[3:0]};
    wire unused_ok = &{1'b0, cfg_wdata[14:4], ve_i32, slot32};

    // ------------------------------------------------------------ readback copies
    reg [4:0] rt_sh [0:NT-1];
    reg [4:0] vc_sh [0:NVE-1];
    integer   i;
    initial begin
        for (i = 0; i < NT; i = i + 1) begin
            rt_sh[i] = 5'd0;
        end
        for (i = 0; i < NVE; i = i + 1) begin
            vc_sh[i] = 5'd0;
        end
    end
    reg [4:0] rt_rd_q, vc_rd_q;
`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire      mut_cfg_shadow;
    sanfab_mutant #(.NAME("CFG_SHADOW")) u_mut_cfg_shadow (.on(mut_cfg_shadow));
    wire      mut_ctr_topbit;
    sanfab_mutant #(.NAME("CTR_TOPBIT")) u_mut_ctr_topbit (.on(mut_ctr_topbit));
`endif
    always @(posedge clk) begin
        if (
`ifdef SANFAB_MUTANTS
            mut_cfg_shadow ? tw_route && !tw_entry[0] :   // deliberately broken: odd ports never reach the readback copy
`endif
            tw_route) begin
            rt_sh[idx[TAG_W-1:0]] <= tw_entry;
        end
        if (tw_vc) begin
            vc_sh[ve_i] <= tw_entry;
        end
        rt_rd_q <= rt_sh[idx[TAG_W-1:0]];
        vc_rd_q <= vc_sh[ve_i];
    end

    // ------------------------------------------------------------ reads
    reg        tb_pend_q;          // a non-counter read, answered in the next step
    reg [1:0]  tb_kind_q;
    reg        ct_pend_q;          // a counter read, answered the step after the bank answers
    wire       busy   = tb_pend_q | ct_pend_q;
    wire       accept = cfg_re && !cfg_we && !busy;
    wire       is_ctr = (space == 2'd2) && ct_ok && (COUNTERS != 0);

    wire [31:0] bank_rdata;
    wire        bank_rvalid;

    always @(posedge clk) begin
        if (rst) begin
            tb_pend_q  <= 1'b0;
            tb_kind_q  <= K_ZERO;
            ct_pend_q  <= 1'b0;
            cfg_rvalid <= 1'b0;
            cfg_rdata  <= 32'd0;
        end else begin
            cfg_rvalid <= 1'b0;
            cfg_rdata  <= 32'd0;
            tb_pend_q  <= 1'b0;
            if (tb_pend_q) begin
                cfg_rvalid <= 1'b1;
                case (tb_kind_q)
                    K_TABLE_RT: cfg_rdata <= {16'd0, rt_rd_q[4], 11'd0, rt_rd_q[3:0]};
                    K_TABLE_VC: cfg_rdata <= {16'd0, vc_rd_q[4], 11'd0, vc_rd_q[3:0]};
                    K_ERR:      cfg_rdata <= 32'h8000_0000;
                    default:    cfg_rdata <= 32'd0;
                endcase
            end
            if (ct_pend_q && bank_rvalid) begin
                ct_pend_q  <= 1'b0;
                cfg_rvalid <= 1'b1;
                cfg_rdata  <= bank_rdata;
`ifdef SANFAB_MUTANTS
                if (mut_ctr_topbit) begin
                    cfg_rdata <= bank_rdata & ~(32'd1 << (CTR_WIDTH - 1));   // deliberately broken: a counter's top bit reads as 0
                end
`endif
            end
            if (accept) begin
                if (is_ctr) begin
                    ct_pend_q <= 1'b1;
                end else begin
                    tb_pend_q <= 1'b1;
                    if (space == 2'd0 && rt_ok) begin
                        tb_kind_q <= K_TABLE_RT;
                    end else if (space == 2'd1 && vc_ok) begin
                        tb_kind_q <= K_TABLE_VC;
                    end else if (space == 2'd2 && ct_ok) begin
                        tb_kind_q <= K_ZERO;          // COUNTERS = 0
                    end else begin
                        tb_kind_q <= K_ERR;
                    end
                end
            end
        end
    end

    // ------------------------------------------------------------ counters
    generate
        if (COUNTERS != 0) begin : g_ctr
            ctr_bank #(
                .NS        (NS),
                .CTR_WIDTH (CTR_WIDTH)
            ) u_bank (
                .clk     (clk),
                .rst     (rst),
                .ev      (ev),
                .rd      (accept && is_ctr),
                .rd_ok   (1'b1),
                .rd_slot (slot32[SW-1:0]),
                .rdata   (bank_rdata),
                .rvalid  (bank_rvalid)
            );
        end else begin : g_noctr
            assign bank_rdata  = 32'd0;
            assign bank_rvalid = 1'b0;
            wire unused_ev = &{1'b0, ev};
        end
    endgenerate

endmodule

`default_nettype wire
