// sanfab — VC switch input, step 1's lookup (docs/vcsw.md, "Tables" and step 1, Ingress): the input
// register and this input's copies of the routing table and of its VC table rows.
//
// In the step a flit arrives on rx, the routing table is read with its tag and the VC table row of
// this input with its data VC (a control VC is looked up as its data twin): registered RAM reads,
// alongside the input register, so in the next step the flit in the input register has its route
// (`rt_ok`, `rt_port`) and its output VC (`vc_ok`, `rt_ovc`, moved to the control twin when the flit
// came on a control VC) for the admission (vcsw_in_admit) with no extra step. Table writes come
// decoded from the configuration port (vcsw_cfg).
`default_nettype none

module vcsw_in_lookup #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter CTRL   = 1,
    parameter FLIT_W = 16,
    parameter TAG_W  = 8,
    parameter PORT   = 0,
    parameter PW     = 3,     // bits of a port number
    parameter VCW    = 1      // bits of a VC number
) (
    input  wire                     clk,
    input  wire                     rst,
    // link in
    input  wire                     rx_valid,
    input  wire [VCW-1:0]           rx_vc,
    input  wire                     rx_tail,
    input  wire [FLIT_W-1:0]        rx_data,
    // table writes (decoded by vcsw_cfg, this step)
    input  wire                     tw_route,
    input  wire                     tw_vc,
    input  wire [11:0]              tw_idx,      // route: tag; vc: {in, out, d}
    input  wire [4:0]               tw_entry,    // {valid, value[3:0]}
    // the input register: the flit that arrived in the previous step
    output reg                      in_valid_q,
    output reg  [VCW-1:0]           in_vc_q,
    output reg                      in_tail_q,
    output reg  [FLIT_W-1:0]        in_data_q,
    // its lookup (from the registered table reads)
    output wire                     rt_ok,       // the routing entry is valid and names a port
    output wire [PW-1:0]            rt_port,     // the output port it names
    output wire                     vc_ok,       // the VC entry is valid and names a data VC
    output wire [VCW-1:0]           rt_ovc       // the output VC (a control VC's twin for a control flit)
);

    localparam NDVC = (CTRL != 0) ? NVC / 2 : NVC;
    localparam DVW  = (NDVC > 1) ? $clog2(NDVC) : 1;
    localparam NT   = 1 << TAG_W;
    localparam integer NP_I    = NPORTS;
    localparam integer NDVC_I  = NDVC;
    localparam integer PORT_I  = PORT;

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_table_copy, mut_vc_wrap, mut_ctrl_map;
    sanfab_mutant #(.NAME("TABLE_COPY"))     u_mut_table_copy     (.on(mut_table_copy));
    sanfab_mutant #(.NAME("VC_WRAP"))        u_mut_vc_wrap        (.on(mut_vc_wrap));
    sanfab_mutant #(.NAME("CTRL_MAP"))       u_mut_ctrl_map       (.on(mut_ctrl_map));
`endif

    // ------------------------------------------------------------ tables (this input's copies)
    // block RAM by default; SANFAB_DIST_RAM (a synthesis option for ECP5, whose block RAM without
    // its output register is slow in nextpnr's model) asks for distributed RAM instead
`ifdef SANFAB_DIST_RAM
    (* ram_style = "distributed" *)
`else
    (* ram_style = "block" *)
`endif
    reg [4:0]          rt_mem [0:NT-1];
    reg [NPORTS*5-1:0] vt_mem [0:NDVC-1];
    integer ti;
    initial begin
        for (ti = 0; ti < NT; ti = ti + 1) begin
            rt_mem[ti] = 5'd0;
        end
        for (ti = 0; ti < NDVC; ti = ti + 1) begin
            vt_mem[ti] = {(NPORTS*5){1'b0}};
        end
    end

    wire [3:0]     tw_in  = tw_idx[11:8];
    wire [3:0]     tw_out = tw_idx[7:4];
    wire [3:0]     tw_d   = tw_idx[3:0];
    wire [VCW-1:0] ndvc_v = NDVC_I[VCW-1:0];
    wire           unused_ok = &{1'b0, tw_d, rx_dvc};
    // data VC of the arriving flit (a control VC is looked up as its data twin)
    wire [VCW-1:0] rx_dvc = ((CTRL != 0) && (rx_vc >= ndvc_v)) ? rx_vc - ndvc_v : rx_vc;

    reg [4:0]          route_q;     // the routing entry of the flit in the input register
    reg [NPORTS*5-1:0] vc_row_q;    // the VC table row of its data VC (one entry per output)

    always @(posedge clk) begin
        if (
`ifdef SANFAB_MUTANTS
            mut_table_copy ? tw_route && PORT_I != 0 :   // deliberately broken: input 0's copy is never written
`endif
            tw_route) begin
            rt_mem[tw_idx[TAG_W-1:0]] <= tw_entry;
        end
        if (tw_vc && ({28'd0, tw_in} == PORT_I[31:0])) begin
            vt_mem[tw_d[DVW-1:0]][tw_out*5 +: 5] <= tw_entry;
        end
        route_q  <= rt_mem[rx_data[TAG_W-1:0]];
        vc_row_q <= vt_mem[rx_dvc[DVW-1:0]];
    end

    // ------------------------------------------------------------ input register
    always @(posedge clk) begin
        if (rst) begin
            in_valid_q <= 1'b0;
            in_vc_q    <= {VCW{1'b0}};
            in_tail_q  <= 1'b0;
            in_data_q  <= {FLIT_W{1'b0}};
        end else begin
            in_valid_q <= rx_valid;
            in_vc_q    <= rx_vc;
            in_tail_q  <= rx_tail;
            in_data_q  <= rx_data;
        end
    end

    // ------------------------------------------------------------ the lookup's result (step k+1)
    reg  [4:0]  ve;              // the VC entry of the routed output
    integer     pi;
    always @* begin
        ve = 5'd0;
        for (pi = 0; pi < NPORTS; pi = pi + 1) begin
            if ({28'd0, route_q[3:0]} == pi[31:0]) begin
                ve = vc_row_q[pi*5 +: 5];
            end
        end
    end
    wire           in_ctl = (CTRL != 0) && (in_vc_q >= ndvc_v);   // arrived on a control VC

    assign rt_ok   = route_q[4] && ({28'd0, route_q[3:0]} < NP_I[31:0]);
    assign rt_port = route_q[PW-1:0];
    assign vc_ok   =
`ifdef SANFAB_MUTANTS
                     mut_vc_wrap ? ve[4] :      // deliberately broken: the VC value wraps
`endif
                     ve[4] && ({28'd0, ve[3:0]} < NDVC_I[31:0]);
    assign rt_ovc  =
`ifdef SANFAB_MUTANTS
                     mut_ctrl_map ? ve[VCW-1:0] :   // deliberately broken: control VCs land on data VCs
`endif
                     ve[VCW-1:0] + (in_ctl ? ndvc_v : {VCW{1'b0}});

endmodule

`default_nettype wire
