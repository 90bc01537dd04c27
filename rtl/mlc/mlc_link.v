// sanfab — Maestro Link Controller: the link state, turn-round and the slave's guard (docs/mlc.md,
// rule 1 "Link state", rule 3 "Turn-round", the guard of rule 2 and the master's timeout).
//
// Holds the link state (TURN, SEND, LISTEN), the turn-round wait `w`, the master's silent steps, the
// slave's `since` (steps since its own last symbol, saturating at GUARD), the early-frame flag and
// `hold`. Decodes from them the phase of the step every other rule reads: building (TURN, w = 0),
// sending (a symbol goes out), receiving (a symbol of a frame comes in), judging (a frame ended:
// rule 6) and the master's timeout. Its next state follows the send side's last symbol and the
// judge's verdict; it counts the conflicts and the timeouts.
`default_nettype none

module mlc_link #(
    parameter TURN    = 1,
    parameter MASTER  = 1,
    parameter TIMEOUT = 1024,
    parameter GUARD   = 5
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       rx_en,          // the link's CTL in
    input  wire       in_frame_q,     // rule 2: LISTEN inside a frame (mlc_recv)
    input  wire       frame_last,     // this step sends the frame's last symbol (mlc_send)
    input  wire       frame_ok_q,     // rule 6: the frame received so far passes the four tests (mlc_recv)
    output reg  [1:0] link_state_q,   // rule 1: S_TURN, S_SEND, S_LISTEN
    output reg        hold_q,         // rule 3: a conflict since the last good frame (slave)
    output wire       building,       // rule 4's step: TURN with w = 0
    output wire       sending,        // a symbol goes out in this step (building or SEND)
    output wire       receiving,      // LISTEN, a symbol of a frame comes in
    output wire       judging,        // LISTEN, CTL low after a frame (the judging step of rule 6)
    output wire       judge_step,     // the judging step as rule 2's branch takes it (not an early frame's end)
    output wire       timeout_fire,   // the master times out in this step
    output wire       ev_conflict,    // counter `conflict` + 1
    output wire       ev_timeout      // counter `timeout` + 1
);

    localparam [1:0]  S_TURN = 2'd0, S_SEND = 2'd1, S_LISTEN = 2'd2;
    localparam [15:0] TO_M1  = (TIMEOUT == 0) ? 16'hFFFF : TIMEOUT[15:0] - 16'd1;  // silent steps before the timing-out one
    localparam [3:0]  TURN4  = TURN[3:0];
    localparam [7:0]  GUARD8 = GUARD[7:0];

`ifdef SANFAB_MUTANTS
    // run-time mutation sites: +mutant=NAME (rtl/common/sanfab_mutant.v)
    wire mut_guard_off, mut_hold_stuck, mut_turn_short, mut_timeout_late;
    sanfab_mutant #(.NAME("GUARD_OFF"))    u_mut_guard_off    (.on(mut_guard_off));
    sanfab_mutant #(.NAME("HOLD_STUCK"))   u_mut_hold_stuck   (.on(mut_hold_stuck));
    sanfab_mutant #(.NAME("TURN_SHORT"))   u_mut_turn_short   (.on(mut_turn_short));
    sanfab_mutant #(.NAME("TIMEOUT_LATE")) u_mut_timeout_late (.on(mut_timeout_late));
`endif

    reg [1:0]  link_state_d;
    reg [3:0]  turn_wait_q, turn_wait_d;         // rule 3: TURN steps still to wait (w)
    reg [15:0] silent_steps_q, silent_steps_d;   // master: silent steps in LISTEN
    reg [7:0]  since_sent_q, since_sent_d;       // slave: steps since its last symbol, saturating at GUARD
    reg        early_frame_q, early_frame_d;     // slave: LISTEN inside an early frame (ignored, rule 2)
    reg        hold_d;
    wire       tx_phase;    // TURN or SEND
    wire       guard_hit;   // rule 2's guard: this symbol is part of an early frame

    // the phase of this step, from the state after step k-1
    assign tx_phase  = (link_state_q == S_TURN) || (link_state_q == S_SEND);
    assign building  = (link_state_q == S_TURN) && (turn_wait_q == 4'd0);
    assign sending   = tx_phase && !((link_state_q == S_TURN) && (turn_wait_q != 4'd0));
    assign judging   = (link_state_q != S_TURN) && (link_state_q != S_SEND) && !rx_en && in_frame_q;
    // rule 2's guard (slave, LISTEN): a symbol fewer than GUARD steps after this end's last one, and
    // the rest of its frame, are conflicts (the rule-2 branch only reads it in LISTEN)
    assign guard_hit =
`ifdef SANFAB_MUTANTS
                       mut_guard_off ? 1'b0 :   // deliberately broken: no guard (crossing frames can lock)
`endif
                       (MASTER == 0) && rx_en && (early_frame_q || (!in_frame_q && since_sent_q < GUARD8));
    assign receiving  = !tx_phase && !guard_hit && rx_en;
    assign judge_step = !tx_phase && !guard_hit && !rx_en && !early_frame_q && in_frame_q;
    wire   silent     = !tx_phase && !guard_hit && !rx_en && !early_frame_q && !in_frame_q &&
                        (MASTER == 1) && (TIMEOUT != 0);
    assign timeout_fire = silent && (silent_steps_q >= TO_M1)
`ifdef SANFAB_MUTANTS
                          && !(mut_timeout_late && silent_steps_q == TO_M1)   // deliberately broken: the master times out a step late
`endif
                          ;
    assign ev_conflict = (tx_phase && rx_en) || (!tx_phase && guard_hit);
    assign ev_timeout  = timeout_fire;

    always @* begin
        link_state_d = link_state_q; turn_wait_d = turn_wait_q; silent_steps_d = silent_steps_q;
        since_sent_d = since_sent_q; early_frame_d = early_frame_q; hold_d = hold_q;
        if (tx_phase) begin
            // rule 1: TURN and SEND; a symbol coming in is a conflict (the slave holds)
            if (rx_en && MASTER == 0)
                hold_d = 1'b1;
            if (!sending) begin
                turn_wait_d = turn_wait_q - 4'd1;
            end else begin
                if (building)
                    link_state_d = S_SEND;
                if (frame_last) begin
                    link_state_d = S_LISTEN;
                    silent_steps_d = 16'd0;
                    since_sent_d = 8'd1;   // in the next step: 1 step since the last symbol
                end
            end
        end else begin
            // rule 2: LISTEN; the slave's guard counts the steps since its last symbol
            if (since_sent_q < GUARD8)
                since_sent_d = since_sent_q + 8'd1;
            if (guard_hit) begin
                // an early frame: every symbol a conflict, the frame ignored, not answered
                early_frame_d = 1'b1;
                hold_d = 1'b1;
            end else if (rx_en) begin
                // a symbol of a frame (mlc_recv)
            end else if (early_frame_q) begin
                early_frame_d = 1'b0;   // the early frame ended: silence
            end else if (in_frame_q) begin
                // rule 6 judges the frame (mlc_recv); a good frame clears hold, and the end turns
                // round after a good frame, or after a bad one when it does not hold
                if (frame_ok_q) begin
`ifdef SANFAB_MUTANTS
                    if (mut_hold_stuck)
                        hold_d = hold_q;   // deliberately broken: a good frame does not clear hold
                    else
`endif
                    hold_d = 1'b0;
                end
                if (frame_ok_q || !hold_q) begin
                    link_state_d = S_TURN;
`ifdef SANFAB_MUTANTS
                    if (mut_turn_short)
                        turn_wait_d = (TURN4 == 4'd0) ? 4'd0 : TURN4 - 4'd1;   // deliberately broken: replies a step early
                    else
`endif
                    turn_wait_d = TURN4;
                end
            end else if (silent) begin
                silent_steps_d = silent_steps_q + 16'd1;
                if (timeout_fire) begin
                    link_state_d = S_TURN;
                    turn_wait_d = TURN4;
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            link_state_q <= (MASTER == 1) ? S_TURN : S_LISTEN;
            turn_wait_q <= TURN4;
            silent_steps_q <= 16'd0;
            since_sent_q <= GUARD8;
            early_frame_q <= 1'b0;
            hold_q <= 1'b0;
        end else begin
            link_state_q <= link_state_d;
            turn_wait_q <= turn_wait_d;
            silent_steps_q <= silent_steps_d;
            since_sent_q <= since_sent_d;
            early_frame_q <= early_frame_d;
            hold_q <= hold_d;
        end
    end

endmodule

`default_nettype wire
