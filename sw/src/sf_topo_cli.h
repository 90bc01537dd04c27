/* sf_topo_cli.h - sanfab-topo's command line as a library: one parser and one dispatcher for the tool
 * (sw/tools/sanfab_topo.c) and for sanfab-sim's `topology-gen KIND [options]` key (docs/network.md), so both read
 * a generator's options with the same code and the same messages. No global state. */
#ifndef SF_TOPO_CLI_H
#define SF_TOPO_CLI_H

#include "sf_cli.h"
#include "sf_topo.h"

/* A generator and its options as sanfab-topo reads them (-1: not given, the kind's default applies). */
typedef struct {
    char kind[16];
    int n, p, h, k, ky, leaves, spines, nlev, dim, bis, boxes, levels, fanout;
    unsigned long long seed;
    const char *out; /* -o FILE (the tool only; points into argv), NULL = standard output */
} sf_topo_cli;

/* Parse "KIND [options]" (argv[0] = KIND; tool = 1 accepts -o FILE, 0 refuses it: a config line). SF_CLI_OK,
 * SF_CLI_HELP, SF_CLI_VERSION, or SF_CLI_USAGE with e->msg "problem" (no tool name in front). */
int sf_topo_cli_parse(sf_topo_cli *a, int argc, char *const *argv, int tool, sf_err *e);
/* Generate the parsed topology (a finished topology, or NULL with e set). */
sf_topo *sf_topo_cli_generate(const sf_topo_cli *a, sf_err *e);
/* 1 if the parsed kind makes random choices (random: its seed is worth printing). */
int sf_topo_cli_uses_seed(const sf_topo_cli *a);

#endif
