// sanfab — the check that a +mutant=NAME names a mutation site of the mutant-capable build
// (docs/verification.md, "The mutation proof"; the sites: rtl/common/sanfab_mutant.v). Simulation
// only, like sanfab_mutant: each block's top module (xbar, vcsw, mlc, sbox) instantiates it under
// `ifdef SANFAB_MUTANTS, and the builds that define SANFAB_MUTANTS add this file.
// The build defines SANFAB_MUTANT_SITES, every site name of its RTL (a string, space-separated), and
// SANFAB_MUTANT_KNOWN(s), true when s equals one of them: the file scripts/mutant_sites.sh writes,
// first on the compile line. A +mutant naming none of them (a typo, another block's name) prints
// "%Error: MUTANT ..." and stops the simulation ($stop), so a misspelt mutant can never pass as a
// mutant that was not caught, nor as the clean design. Without the two defines every +mutant is
// unknown.
`default_nettype none

`ifndef SANFAB_MUTANT_SITES
`define SANFAB_MUTANT_SITES ""
`define SANFAB_MUTANT_KNOWN(s) 1'b0
`endif

module sanfab_mutant_check;

    localparam integer SMC_SB = 40;                  // bytes of a +mutant value (as sanfab_mutant's)
    reg [8*SMC_SB-1:0] smc_sel;
    initial begin
        smc_sel = {(8*SMC_SB){1'b0}};
        if ($value$plusargs("mutant=%s", smc_sel) && !(`SANFAB_MUTANT_KNOWN(smc_sel))) begin
            $display("%%Error: MUTANT +mutant=%0s names no mutation site of this build (sites:%0s)",
                     smc_sel, `SANFAB_MUTANT_SITES);
            $stop;
        end
    end

endmodule

`default_nettype wire
