// sanfab — Maestro switch box: the barrier of one channel (docs/sbox.md, rule 5).
//
// State: busy, the members M, the ports arrived A, up_sent. A barrier request activated in step k
// (req_act, from the port arr, MASK m) is rejected or taken; a taken request that completes the
// barrier makes a unit for the channel's barrier source in the same step (make, mk_w0, mk_p; word
// 1 is m): a request up (P = {UP}) when UP is a member port, else a release to E'(m), which ends the
// barrier. A release activated in step k (rel_act) ends the barrier. M keeps the last m taken (the
// page clears only busy, A and up_sent).
`default_nettype none

module sbox_barrier #(
    parameter PORTS = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             req_act,    // a barrier request of this channel is activated
    input  wire             rel_act,    // a barrier release of this channel is activated
    input  wire [PORTS-1:0] arr,        // its arrival port, one-hot
    input  wire [15:0]      m,          // its MASK
    input  wire [PORTS-1:0] e_m,        // E(m): the member ports (table after step k-1)
    input  wire             up_v,       // an up port is set
    input  wire [PORTS-1:0] up_oh,      // the up port, one-hot (0 when none)
    output reg              taken,      // bar_req
    output reg              rejected,   // err_bar
    output reg              done,       // bar_done
    output reg              make,       // the barrier source makes a unit
    output reg  [15:0]      mk_w0,
    output reg  [PORTS-1:0] mk_p,
    output wire             busy,
    output wire             up_sent,
    output wire [PORTS-1:0] arrived,
    output wire [15:0]      members
);

    reg             busy_q, busy_d, ups_q, ups_d;
    reg [PORTS-1:0] a_q, a_d;
    reg [15:0]      m_q, m_d;

    wire [PORTS-1:0] e1    = e_m & ~up_oh;      // E'(m)
    wire [PORTS-1:0] a_new = a_q | arr;
`ifdef SANFAB_MUTANTS
    // run-time mutation site: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire             mut_bar_early;
    sanfab_mutant #(.NAME("BAR_EARLY")) u_mut_bar_early (.on(mut_bar_early));
    wire [PORTS-1:0] miss  = e1 & ~a_new;
`endif
    wire complete =
`ifdef SANFAB_MUTANTS
                    mut_bar_early ? ((miss & (miss - 1'b1)) == {PORTS{1'b0}}) :  // deliberately broken: one arrival early
`endif
                    (a_new == e1);
    wire bad = (busy_q && m != m_q) || ((arr & e1) == {PORTS{1'b0}}) ||
               ((arr & a_q) != {PORTS{1'b0}}) || ups_q;

    always @* begin
        busy_d = busy_q; ups_d = ups_q; a_d = a_q; m_d = m_q;
        taken = 1'b0; rejected = 1'b0; done = 1'b0; make = 1'b0;
        mk_w0 = 16'h0000; mk_p = {PORTS{1'b0}};

        if (req_act) begin
            if (bad) begin
                rejected = 1'b1;
            end else begin
                taken = 1'b1;
                busy_d = 1'b1;
                m_d = m;
                a_d = a_new;
                if (complete) begin
                    done = 1'b1;
                    make = 1'b1;
                    if (up_v && ((up_oh & e_m) != {PORTS{1'b0}})) begin
                        // members outside this subtree: one request up
                        mk_w0 = 16'hFF04;
                        mk_p = up_oh;
                        ups_d = 1'b1;
                    end else begin
                        // all members below: release them, the barrier ends
                        mk_w0 = 16'hFF06;
                        mk_p = e1;
                        busy_d = 1'b0;
                        a_d = {PORTS{1'b0}};
                        ups_d = 1'b0;
                    end
                end
            end
        end
        if (rel_act) begin
            busy_d = 1'b0;
            a_d = {PORTS{1'b0}};
            ups_d = 1'b0;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy_q <= 1'b0;
            ups_q <= 1'b0;
            a_q <= {PORTS{1'b0}};
            m_q <= 16'd0;
        end else begin
            busy_q <= busy_d;
            ups_q <= ups_d;
            a_q <= a_d;
            m_q <= m_d;
        end
    end

    assign busy    = busy_q;
    assign up_sent = ups_q;
    assign arrived = a_q;
    assign members = m_q;

endmodule

`default_nettype wire
