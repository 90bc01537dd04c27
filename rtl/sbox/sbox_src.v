// sanfab — Maestro switch box: one source (docs/sbox.md, "Sources and their states", rules
// 1..3), a (port, channel) pair (BAR = 0) or the barrier source of a channel (BAR = 1).
//
// Holds the source's state, the header words w0/w1, the port set P, the class, the index wi of the
// next word and the length tot (known once TYPE = 0 is analysed or the PC word of a Type1 message
// has been read). Tells the bus whether it is eligible now (on the state after step k-1, the
// channel's space/in-flight-write view and its port's avail) and what its grant does; takes the
// grant, the analyzer's captures, the manager's activation and the barrier's made unit.
`default_nettype none

module sbox_src #(
    parameter PORTS = 8,
    parameter BAR   = 0          // 1: the barrier source of a channel (never HEAD1, HEAD2, DROP)
) (
    input  wire             clk,
    input  wire             rst,
    // the view of step k (state after step k-1)
    input  wire             avail_ok,   // avail(p, c) >= 2 (port source)
    input  wire [PORTS-1:0] sp_ok2,     // space(q, c) >= 2, every q
    input  wire [PORTS-1:0] sp_ok4,     // space(q, c) >= 4, every q
    input  wire [PORTS-1:0] wr_hit,     // the write of step k goes to (q, c)
    // events of step k
    input  wire             gnt,        // granted the bus
    input  wire             cap_w0,     // rule 2: word 0 read in step k-1 arrives (x)
    input  wire             cap_w1,     // rule 2: word 1 arrives: analysed (an_cls, an_p)
    input  wire             cap_pc,     // rule 2: the PC word of a Type1 message arrives
    input  wire [15:0]      x,
    input  wire [1:0]       an_cls,
    input  wire [PORTS-1:0] an_p,
    input  wire [15:0]      an_w1,      // rule 2: word 1 as it leaves (the sender's bit cleared going up)
    input  wire             act,        // rule 3: activated by the manager
    input  wire             make,       // rule 5: the barrier makes a unit (barrier source)
    input  wire [15:0]      mk_w0,
    input  wire [15:0]      mk_w1,
    input  wire [PORTS-1:0] mk_p,
    // to the bus
    output wire             elig,
    output wire             o_rd,       // a grant reads (READ, MOVE)
    output wire             o_wr,       // a grant writes in the next step (PUT, MOVE)
    output wire             o_move,     // ... the word read (MOVE), else o_pword (PUT)
    output wire [15:0]      o_pword,
    output wire             o_rw0,      // a grant reads word 0
    output wire             o_rw1,      // a grant reads word 1
    output wire             o_rpc,      // a grant reads the PC word (word 8 of a Type1 message)
    output wire             o_last,     // a grant ends the message
    // to the manager and the analyzer
    output wire             o_idle,
    output wire             o_wait,
    output wire             o_act,
    output wire [1:0]       o_cls,
    output wire [PORTS-1:0] o_p,
    output wire [15:0]      o_w0,
    output wire [15:0]      o_w1
);

    localparam [2:0] S_IDLE = 3'd0, S_HEAD1 = 3'd1, S_HEAD2 = 3'd2, S_WAIT = 3'd3, S_ACT = 3'd4,
                     S_DROP = 3'd5;
    localparam [1:0] C_DATA = 2'd0, C_REQ = 2'd1;
    localparam WIW = 19;                  // wi and tot: up to 8 * 65535 words

    reg [2:0]       st_q, st_d;
    reg [15:0]      w0_q, w0_d, w1_q, w1_d;
    reg [PORTS-1:0] p_q, p_d;
    reg [1:0]       cls_q, cls_d;
    reg [WIW-1:0]   wi_q, wi_d, tot_q, tot_d;
    reg             known_q, known_d;

    wire [WIW-1:0] wi_inc = wi_q + {{(WIW-1){1'b0}}, 1'b1};
    wire           wi_lo  = ~|wi_q[WIW-1:1];         // wi < 2: the next word is a header word (PUT)
    wire           in_act = (st_q == S_ACT);
    wire           in_drp = (st_q == S_DROP);

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_room_off, mut_pc_off;
    sanfab_mutant #(.NAME("ROOM_OFF")) u_mut_room_off (.on(mut_room_off));
    sanfab_mutant #(.NAME("PC_OFF"))   u_mut_pc_off   (.on(mut_pc_off));
`endif
    // room: every destination FIFO takes one more word, and two if the write of this step goes there
    wire room =
`ifdef SANFAB_MUTANTS
                mut_room_off ? &(~p_q | sp_ok2) :  // deliberately broken: in-flight write ignored
`endif
                &(~p_q | (wr_hit & sp_ok4) | (~wr_hit & sp_ok2));

    generate
        if (BAR != 0) begin : g_bar
            // made unit: word 0, word 1 = M, word 2 = 0x00FF (SRC 255), words 3..7 = 0
            assign elig    = in_act & room;
            assign o_rd    = 1'b0;
            assign o_move  = 1'b0;
            assign o_rw0   = 1'b0;
            assign o_rw1   = 1'b0;
            assign o_rpc   = 1'b0;
            wire   unused_bar = &{1'b0, avail_ok, wi_lo};
            assign o_pword = (wi_q == 19'd0) ? w0_q : (wi_q == 19'd1) ? w1_q :
                             (wi_q == 19'd2) ? 16'h00FF : 16'h0000;
        end else begin : g_port
            assign elig    = (((st_q == S_IDLE) || (st_q == S_HEAD1) || in_drp) && avail_ok) ||
                             (in_act && wi_lo && room) ||
                             (in_act && !wi_lo && avail_ok && room);
            assign o_rd    = (st_q == S_IDLE) || (st_q == S_HEAD1) || in_drp || (in_act && !wi_lo);
            assign o_move  = in_act && !wi_lo;
            assign o_rw0   = (st_q == S_IDLE);
            assign o_rw1   = (st_q == S_HEAD1);
            assign o_rpc   = (in_act || in_drp) && (wi_q == 19'd8) && w0_q[0];
            assign o_pword = (wi_q == 19'd0) ? w0_q : (wi_q == 19'd1) ? w1_q : 16'h0000;
        end
    endgenerate

    assign o_wr   = in_act;
    assign o_last = (in_act || in_drp) && known_q && (wi_inc == tot_q);
    assign o_idle = (st_q == S_IDLE);
    assign o_wait = (st_q == S_WAIT);
    assign o_act  = in_act;
    assign o_cls  = cls_q;
    assign o_p    = p_q;
    assign o_w0   = w0_q;
    assign o_w1   = w1_q;

    // Type1 length from PC: 8 * max(2, PC) words
    wire [WIW-1:0] pc_tot =
`ifdef SANFAB_MUTANTS
                            mut_pc_off ? {x, 3'b000} :   // deliberately broken: PC < 2 not taken as 2
`endif
                            (x < 16'd2) ? 19'd16 : {x, 3'b000};

    always @* begin
        st_d = st_q; w0_d = w0_q; w1_d = w1_q; p_d = p_q; cls_d = cls_q;
        wi_d = wi_q; tot_d = tot_q; known_d = known_q;

        // rule 1: the grant
        if (gnt) begin
            if (st_q == S_IDLE) begin
                st_d = S_HEAD1;
            end else if (st_q == S_HEAD1) begin
                st_d = S_HEAD2;
            end else begin
                wi_d = wi_inc;
                if (known_q && wi_inc == tot_q)
                    st_d = S_IDLE;
            end
        end

        // rule 2: words read in the step before
        if (cap_w0)
            w0_d = x;
        if (cap_w1) begin
            w1_d = an_w1;
            cls_d = an_cls;
            p_d = an_p;
            st_d = S_WAIT;
            tot_d = 19'd8;
            known_d = ~w0_q[0];           // Type1: known when PC arrives
        end
        if (cap_pc) begin
            tot_d = pc_tot;
            known_d = 1'b1;
        end

        // rule 3: activation (a barrier request or an empty port set is read and dropped)
        if (act) begin
            if (BAR != 0 || (cls_q != C_REQ && p_q != {PORTS{1'b0}})) begin
                st_d = S_ACT;
                wi_d = {WIW{1'b0}};
            end else begin
                st_d = S_DROP;
                wi_d = 19'd2;
            end
        end

        // rule 5: a made unit (8 words)
        if (make) begin
            st_d = S_WAIT;
            w0_d = mk_w0;
            w1_d = mk_w1;
            p_d = mk_p;
            cls_d = C_DATA;
            tot_d = 19'd8;
            known_d = 1'b1;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            st_q <= S_IDLE;
            w0_q <= 16'd0;
            w1_q <= 16'd0;
            p_q <= {PORTS{1'b0}};
            cls_q <= C_DATA;
            wi_q <= {WIW{1'b0}};
            tot_q <= {WIW{1'b0}};
            known_q <= 1'b0;
        end else begin
            st_q <= st_d;
            w0_q <= w0_d;
            w1_q <= w1_d;
            p_q <= p_d;
            cls_q <= cls_d;
            wi_q <= wi_d;
            tot_q <= tot_d;
            known_q <= known_d;
        end
    end

endmodule

`default_nettype wire
