// sanfab — Maestro switch box: the port set of a header (docs/sbox.md, "Messages and
// destinations"), combinational.
//
// tab holds NODES entries of 5 bits (bit 4 valid, bits 2..0 port; a valid entry's port is < PORTS,
// the register write refuses anything else). DST < NODES: { port(DST) } if valid; DST = 255: the
// ports of the valid entries whose MASK bit is set; any other DST: none. The arrival port is taken
// out by the caller (the same function gives E(m) of the barriers with DST = 255).
`default_nettype none

module sbox_pset #(
    parameter PORTS = 8,
    parameter NODES = 16
) (
    input  wire [NODES*5-1:0] tab,
    input  wire [7:0]         dst,
    input  wire [15:0]        mask,
    output reg  [PORTS-1:0]   set
);

    localparam [PORTS-1:0] ONE = {{(PORTS-1){1'b0}}, 1'b1};

    integer i;
    reg     hit;
`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire    mut_top_node;
    sanfab_mutant #(.NAME("TOP_NODE")) u_mut_top_node (.on(mut_top_node));
`endif

    always @* begin
        set = {PORTS{1'b0}};
        hit = 1'b0;
        for (i = 0; i < NODES; i = i + 1) begin
            hit = tab[i*5 + 4] && (((dst == 8'hFF) && mask[i]) || (dst == i[7:0]));
`ifdef SANFAB_MUTANTS
            if (mut_top_node && i == NODES - 1)
                hit = 1'b0;   // deliberately broken: the table's top entry (node NODES-1) never routes
`endif
            if (hit)
                set = set | (ONE << tab[i*5 +: 3]);
        end
    end

endmodule

`default_nettype wire
