/* sf_route_cli.h - sanfab-route's command line as a library: one parser (options, which algorithm uses which, their
 * values and ranges) and one dispatcher for the tool (sw/tools/sanfab_route.c) and for sanfab-sim's
 * `routing ALGORITHM [options]` key (docs/network.md), so both read an algorithm's options with the same code and
 * the same messages. No global state. */
#ifndef SF_ROUTE_CLI_H
#define SF_ROUTE_CLI_H

#include "sf_cli.h"
#include "sf_route.h"

/* sanfab-route's options, in the order of their table */
enum { SF_RO_ROOT, SF_RO_SELECT, SF_RO_VCS, SF_RO_RULE, SF_RO_WEIGHT, SF_RO_MAXALT, SF_RO_MAXVCS, SF_RO_DEADLOCK, SF_RO_MAP,
       SF_RO_FALLBACK, SF_RO_SEED, SF_RO_OUT, SF_RO_RHINET, SF_RO_MAESTRO, SF_RO_STATS, SF_RO_JSON, SF_RO_LINKS, SF_RO_ALLOW,
       SF_RO_TIME, SF_RO_N };

/* One option: its name, whether it takes a value, the value (points into argv) and how often it was given. */
typedef struct { const char *name; int has_value; const char *value; int given; } sf_route_cli_opt;

/* A parsed sanfab-route command line: the command, its arguments, its options and the routing options they make. */
typedef struct {
    sf_route_cli_opt O[SF_RO_N];
    const char *pos[3]; /* the tool: ALGORITHM TOPOLOGY [ROUTES]; a config line: ALGORITHM */
    int npos;
    const char *alg;    /* pos[0] */
    int is_check, is_stats;
    sf_route_opts o;    /* the algorithm's options */
    int uses_seed;      /* the run makes random choices (print its seed) */
} sf_route_cli;

/* Parse sanfab-route's arguments (tool = 1: argv = everything after the tool's name, "ALGORITHM TOPOLOGY [options]",
 * check and stats included, outputs allowed; tool = 0: a config line "ALGORITHM [options]", no outputs, no --stats).
 * Checks every option against the algorithm, with the ranges in the messages. SF_CLI_OK, SF_CLI_HELP,
 * SF_CLI_VERSION, SF_CLI_NOARGS (the tool shows its usage), or SF_CLI_USAGE with e->msg "problem". */
int sf_route_cli_parse(sf_route_cli *r, int argc, char *const *argv, int tool, sf_err *e);
/* Compute the parsed algorithm's routes on t (not check/stats): the set, or NULL with e set and *status SF_CLI_USAGE (a
 * --root the topology does not have) or SF_CLI_FAIL (the algorithm failed). */
sf_routes *sf_route_cli_compute(const sf_route_cli *r, const sf_topo *t, int *status, sf_err *e);
/* Print what a computed set's user should know on log, each line after prefix: the layers LASH needed (a warning
 * above 8), the ITB pairs that fell back to up/down routes. */
void sf_route_cli_report(const sf_route_cli *r, const sf_routes *rs, FILE *log, const char *prefix);

#endif
