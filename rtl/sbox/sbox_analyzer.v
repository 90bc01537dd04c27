// sanfab — Maestro switch box: the message analyzer, what happens to words read (docs/sbox.md,
// "Steps", rule 2, with "Messages and destinations"), combinational.
//
// In step k+1, for the read of step k (the bus's rd_src, one-hot over the port sources) with word =
// the word read: the message whose word 1 arrives is analysed on its source's w0 and word, the table
// and the up port: its class (data, barrier request, release), its port set P by the page's three
// rules (up alone, never back to a node, turn) and word 1 as it leaves (the sender's bit cleared
// when it goes up alone from a node port). The source takes them when its word 1 arrives (the
// sources hold w0, P, the class; this module holds nothing). The PC word of a Type1 message counts
// err_msg when PC < 2. Mutation sites: UP_MIX, NO_CLEAR, NO_EXCL, PC_DROP.
`default_nettype none

module sbox_analyzer #(
    parameter PORTS = 8,
    parameter NODES = 16
) (
    input  wire [2*PORTS-1:0]  rd_src,       // the port source read in step k-1, one-hot (bit 2p + c)
    input  wire                rd_pc,        // ... it read the PC word
    input  wire                rd_move,      // ... by a MOVE (else a READ in DROP)
    input  wire [15:0]         word,         // the word read in step k-1
    input  wire [2*PORTS*16-1:0] src_w0,     // the port sources' w0
    input  wire [NODES*5-1:0]  tab,          // the table (sbox_regs)
    input  wire                up_v,         // there is an up port
    input  wire [PORTS-1:0]    up_oh,        // the up port, one-hot (0: none)
    output wire [1:0]          cls,          // class of the analysed message
    output reg  [PORTS-1:0]    p,            // its port set P
    output reg  [15:0]         w1,           // its word 1 as it leaves
    output wire                ev_err_msg    // counter event: a PC < 2 read
);

    localparam [1:0] C_DATA = 2'd0, C_REQ = 2'd1, C_REL = 2'd2;
    localparam [PORTS-1:0] ONE_P = {{(PORTS-1){1'b0}}, 1'b1};

    integer ia, ib;   // one loop index per block

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_up_mix, mut_no_clear, mut_no_excl, mut_pc_drop;
    sanfab_mutant #(.NAME("UP_MIX"))     u_mut_up_mix     (.on(mut_up_mix));
    sanfab_mutant #(.NAME("NO_CLEAR"))   u_mut_no_clear   (.on(mut_no_clear));
    sanfab_mutant #(.NAME("NO_EXCL"))    u_mut_no_excl    (.on(mut_no_excl));
    sanfab_mutant #(.NAME("PC_DROP"))    u_mut_pc_drop    (.on(mut_pc_drop));
`endif

    // ------------------------------------------------------------ the source whose word 1 arrives
    // its w0 and its arrival port; class and the member ports E
    reg  [15:0]      w0;
    reg  [PORTS-1:0] arr;
    wire [PORTS-1:0] set;

    always @* begin
        w0 = 16'd0;
        arr = {PORTS{1'b0}};
        for (ia = 0; ia < 2 * PORTS; ia = ia + 1) begin
            if (rd_src[ia]) begin
                w0 = w0 | src_w0[ia*16 +: 16];
                arr[ia/2] = 1'b1;
            end
        end
    end

    assign cls = (w0 == 16'hFF04) ? C_REQ : (w0 == 16'hFF06) ? C_REL : C_DATA;

    sbox_pset #(
        .PORTS (PORTS),
        .NODES (NODES)
    ) u_an_pset (
        .tab  (tab),
        .dst  (w0[15:8]),
        .mask (word),
        .set  (set)
    );

    // ------------------------------------------------------------ the port set
    // The three rules of the page's "Messages and destinations": N(a), the nodes behind the arrival
    // port (a node port has at most one); 1. a multicast that needs UP and did not come from UP goes
    // to UP alone, from a node port with its sender's bit cleared in MASK (not a barrier request);
    // 2. a unicast, or a message from UP or from a node port: never back to the arrival port;
    // 3. a multicast from a box port below turns here: the arrival port stays in the set.
    reg  [15:0] behind;

    wire mc       = (w0[15:8] == 8'hFF);
    wire from_up  = |(arr & up_oh);
    wire node     = ((behind & (behind - 16'd1)) == 16'd0);
    wire go_up    =
`ifdef SANFAB_MUTANTS
                    mut_up_mix ? 1'b0 :   // deliberately broken: a multicast goes up and down at once
`endif
                    mc && up_v && !from_up && (|(set & up_oh));

    always @* begin
        behind = 16'd0;
        for (ib = 0; ib < NODES; ib = ib + 1)
            behind[ib] = tab[ib*5 + 4] && (|(arr & (ONE_P << tab[ib*5 +: 3])));
    end

    always @* begin
        p = {PORTS{1'b0}};
        w1 = word;
        if (go_up) begin
            p = up_oh;
            if (node && (w0 != 16'hFF04)
`ifdef SANFAB_MUTANTS
                && !mut_no_clear   // deliberately broken: going up alone keeps the sender's bit
`endif
                )
                w1 = word & ~behind;
        end else if (!mc || from_up || node) begin
`ifdef SANFAB_MUTANTS
            if (mut_no_excl)
                p = set;            // deliberately broken: the arrival port is not excluded
            else
`endif
            p = set & ~arr;         // never back to a node, nor up again
        end else begin
            p = set;                // turn: back down the box port it came up
        end
    end

    // ------------------------------------------------------------ err_msg
    assign ev_err_msg = rd_pc && (word < 16'd2)
`ifdef SANFAB_MUTANTS
                        && (!mut_pc_drop || rd_move)   // deliberately broken: PC < 2 of a message dropped (read in DROP) not counted
`endif
                        ;

    wire unused_move = &{1'b0, rd_move};   // read by the PC_DROP mutant only

endmodule

`default_nettype wire
