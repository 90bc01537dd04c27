// sanfab — one run-time mutation site of the mutant-capable build (docs/verification.md, "The
// mutation proof"). Simulation only: the RTL instantiates it only under `ifdef SANFAB_MUTANTS, and
// the builds that define SANFAB_MUTANTS add this file (it is in no file list, so synthesis, lint
// of the clean design, FuseSoC and the normal benches never see it). A site reads
//
//   `ifdef SANFAB_MUTANTS
//       wire mut_foo;
//       sanfab_mutant #(.NAME("FOO")) u_mut_foo (.on(mut_foo));
//   `endif
//       ...
//       x =
//   `ifdef SANFAB_MUTANTS
//           mut_foo ? <broken> :
//   `endif
//           <good>;
//
// (the good logic written once; or `if (mut_foo) <broken> else` before a statement). `on` is 1 when
// the simulation was started with +mutant=NAME (the whole word, exactly), else 0: it is set once at
// time 0 and never changes, so without +mutant the build is the clean design. A selected site
// prints "MUTANT NAME selected: <instance>". Whether a +mutant names any site at all is checked
// once per block by sanfab_mutant_check (each block's top module has one), not here: every instance
// of this module is its own code in a Verilated model, so it does as little as it can.
`default_nettype none

module sanfab_mutant #(
    parameter [8*32-1:0] NAME = ""                   // a site name, at most 32 characters
) (
    output wire on
);

    // (every name inside is sm_/SM_: Verilator inlines the module and warns when a name hides one
    // of the instantiating module's)
    localparam integer SM_SB = 40;                   // bytes of a +mutant value: a longer value, or
                                                     // one over 32, can never equal a NAME
    reg [8*SM_SB-1:0] sm_sel;
    reg               sm_on;
    initial begin
        sm_on  = 1'b0;
        sm_sel = {(8*SM_SB){1'b0}};
        if ($value$plusargs("mutant=%s", sm_sel) && sm_sel == {{(8*(SM_SB-32)){1'b0}}, NAME}) begin
            sm_on = 1'b1;
            $display("MUTANT %0s selected: %m", sm_sel);
        end
    end
    assign on = sm_on;

endmodule

`default_nettype wire
