// sanfab — one input of the VC switch (docs/vcsw.md, steps 1 to 4, the input's side): the wiring of
// its four parts, one per rule of the doc, each with its own registers:
//   vcsw_in_lookup  step 1, Tables: the input register and this input's copies of the routing table
//                   and of its VC table rows, read in the step a flit arrives (registered RAM reads)
//   vcsw_in_admit   step 1, Ingress, and step 4, Go & Stop: per VC the ingress state, the packet's
//                   length, admission (drops, truncation, overflow), the occupancy and the stop bit
//   vcsw_in_buf     step 2, Input buffer: the RAM shared by the VCs, per VC its pointers and counts,
//                   the staging registers (the heads), the read register R
//   vcsw_in_offer   step 3, the input side of allocation: the offer register F prepared a step ahead
//                   twice, the round robin over the VCs, each VC's ownership of an output VC
// No logic of its own: the flit in the input register and its lookup go to the admission; the
// admitted entry to the buffer; the heads to the offer; the offer's pops back to the buffer and to
// the occupancies. The wires occ_f, occ_c and h_* are the waves' view (tb/vcsw/vcsw.gtkw).
`default_nettype none

module vcsw_in #(
    parameter NPORTS = 8,
    parameter NVC    = 2,
    parameter CTRL   = 1,
    parameter FLIT_W = 16,
    parameter TAG_W  = 8,
    parameter DEPTH  = 64,
    parameter MAXLEN = 32,
    parameter STOP_AT = 28,
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
    output wire [NVC-1:0]           stop,        // Go & Stop bits, registered (before the cable)
    // table writes (decoded by vcsw_cfg, this step)
    input  wire                     tw_route,
    input  wire                     tw_vc,
    input  wire [11:0]              tw_idx,      // route: tag; vc: {in, out, d}
    input  wire [4:0]               tw_entry,    // {valid, value[3:0]}
    // allocation, input side: the outputs' VC state (registers of the outputs) and this input's offer
    input  wire [NPORTS*NVC-1:0]    blk_all,     // output o's VC u owned or stopped, at [o*NVC + u]
    output wire                     of_valid,    // this input offers a flit
    output wire [PW-1:0]            of_port,     // to this output
    output wire [VCW-1:0]           of_vc,       // on this output VC
    output wire                     of_first,
    output wire                     of_tail,
    output wire [FLIT_W-1:0]        of_data,
    input  wire                     take,        // the offer is taken: pop it
    // counter events of this step: {overflow, trunc, drop_vc, drop_route, rx_pkts, rx_flits} per VC
    output wire [NVC-1:0]           ev_rx_flit,
    output wire [NVC-1:0]           ev_rx_pkt,
    output wire [NVC-1:0]           ev_drop_route,
    output wire [NVC-1:0]           ev_drop_vc,
    output wire [NVC-1:0]           ev_trunc,
    output wire [NVC-1:0]           ev_ovf
);


    localparam OW  = $clog2(DEPTH + 1);              // occupancy bits
    localparam EW  = 2 + PW + VCW + FLIT_W;          // buffer entry: {first, tail, port, ovc, data}

    // ------------------------------------------------------------ lookup (step 1, Tables)
    wire              in_valid, in_tail;
    wire [VCW-1:0]    in_vc;
    wire [FLIT_W-1:0] in_data;
    wire              rt_ok, vc_ok;
    wire [PW-1:0]     rt_port;
    wire [VCW-1:0]    rt_ovc;

    vcsw_in_lookup #(
        .NPORTS (NPORTS),
        .NVC    (NVC),
        .CTRL   (CTRL),
        .FLIT_W (FLIT_W),
        .TAG_W  (TAG_W),
        .PORT   (PORT),
        .PW     (PW),
        .VCW    (VCW)
    ) u_lookup (
        .clk        (clk),
        .rst        (rst),
        .rx_valid   (rx_valid),
        .rx_vc      (rx_vc),
        .rx_tail    (rx_tail),
        .rx_data    (rx_data),
        .tw_route   (tw_route),
        .tw_vc      (tw_vc),
        .tw_idx     (tw_idx),
        .tw_entry   (tw_entry),
        .in_valid_q (in_valid),
        .in_vc_q    (in_vc),
        .in_tail_q  (in_tail),
        .in_data_q  (in_data),
        .rt_ok      (rt_ok),
        .rt_port    (rt_port),
        .vc_ok      (vc_ok),
        .rt_ovc     (rt_ovc)
    );

    // ------------------------------------------------------------ admission (step 1, Ingress; step 4)
    wire              wr_cand, store;
    wire [EW-1:0]     entry;
    wire [NVC*OW-1:0] occ_f;
    wire [NVC-1:0]    pop;

    vcsw_in_admit #(
        .NPORTS  (NPORTS),
        .NVC     (NVC),
        .FLIT_W  (FLIT_W),
        .DEPTH   (DEPTH),
        .MAXLEN  (MAXLEN),
        .STOP_AT (STOP_AT),
        .PORT    (PORT),
        .PW      (PW),
        .VCW     (VCW)
    ) u_admit (
        .clk           (clk),
        .rst           (rst),
        .in_valid      (in_valid),
        .in_vc         (in_vc),
        .in_tail       (in_tail),
        .in_data       (in_data),
        .rt_ok         (rt_ok),
        .rt_port       (rt_port),
        .vc_ok         (vc_ok),
        .rt_ovc        (rt_ovc),
        .pop           (pop),
        .wr_cand       (wr_cand),
        .store         (store),
        .entry         (entry),
        .occ_f         (occ_f),
        .stop          (stop),
        .ev_rx_flit    (ev_rx_flit),
        .ev_rx_pkt     (ev_rx_pkt),
        .ev_drop_route (ev_drop_route),
        .ev_drop_vc    (ev_drop_vc),
        .ev_trunc      (ev_trunc),
        .ev_ovf        (ev_ovf)
    );

    // the arriving flit's VC's occupancy (the waves' view only)
    wire [OW-1:0] occ_c = occ_f[in_vc*OW +: OW];
    wire          unused_waves = &{1'b0, occ_c};

    // ------------------------------------------------------------ buffer (step 2)
    wire [NVC-1:0]        h_valid, h_first, h_tail, h2_first;
    wire [NVC*PW-1:0]     h_port, h2_port;
    wire [NVC*VCW-1:0]    h_ovc, h2_ovc;
    wire [NVC*FLIT_W-1:0] h_data;
    wire [NVC*2-1:0]      stg_cnt_f;
    wire                  rd_valid, rd_first;
    wire [VCW-1:0]        rd_vc, rd_ovc;
    wire [PW-1:0]         rd_port;

    vcsw_in_buf #(
        .NVC    (NVC),
        .FLIT_W (FLIT_W),
        .DEPTH  (DEPTH),
        .PORT   (PORT),
        .PW     (PW),
        .VCW    (VCW)
    ) u_buf (
        .clk        (clk),
        .rst        (rst),
        .in_vc      (in_vc),
        .wr_cand    (wr_cand),
        .store      (store),
        .entry      (entry),
        .occ_f      (occ_f),
        .pop        (pop),
        .h_valid    (h_valid),
        .h_first    (h_first),
        .h_tail     (h_tail),
        .h_port     (h_port),
        .h_ovc      (h_ovc),
        .h_data     (h_data),
        .h2_first   (h2_first),
        .h2_port    (h2_port),
        .h2_ovc     (h2_ovc),
        .stg_cnt_f  (stg_cnt_f),
        .rd_valid_q (rd_valid),
        .rd_vc_q    (rd_vc),
        .rd_first   (rd_first),
        .rd_port    (rd_port),
        .rd_ovc     (rd_ovc)
    );

    // ------------------------------------------------------------ offer (step 3, the input side)
    vcsw_in_offer #(
        .NPORTS (NPORTS),
        .NVC    (NVC),
        .FLIT_W (FLIT_W),
        .PORT   (PORT),
        .PW     (PW),
        .VCW    (VCW)
    ) u_offer (
        .clk       (clk),
        .rst       (rst),
        .h_valid   (h_valid),
        .h_first   (h_first),
        .h_tail    (h_tail),
        .h_port    (h_port),
        .h_ovc     (h_ovc),
        .h_data    (h_data),
        .h2_first  (h2_first),
        .h2_port   (h2_port),
        .h2_ovc    (h2_ovc),
        .stg_cnt_f (stg_cnt_f),
        .rd_valid  (rd_valid),
        .rd_vc     (rd_vc),
        .rd_first  (rd_first),
        .rd_port   (rd_port),
        .rd_ovc    (rd_ovc),
        .blk_all   (blk_all),
        .of_valid  (of_valid),
        .of_port   (of_port),
        .of_vc     (of_vc),
        .of_first  (of_first),
        .of_tail   (of_tail),
        .of_data   (of_data),
        .take      (take),
        .pop       (pop)
    );

endmodule

`default_nettype wire
