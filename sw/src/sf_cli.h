/* sanfab command-line conventions shared by every tool (sw/tools/, the benches of tb/): the version from one
 * place (the repository's VERSION file, compiled in as SANFAB_VERSION) and "did you mean" for misspelt names. */
#ifndef SF_CLI_H
#define SF_CLI_H

#include <stddef.h>
#include <stdio.h>

/* The sanfab version this binary was built from ("0.1.0"; "unknown" when built without -DSANFAB_VERSION). */
const char *sf_cli_version(void);

/* Prints "TOOL (sanfab) VERSION" and a newline to f: the --version text of every tool. */
void sf_cli_print_version(FILE *f, const char *tool);

/* The name among known[0..n) closest to given (edit distance, case-insensitive, leading dashes ignored) when it is
 * close enough to be a likely misspelling (distance <= 2, and less than half the name's length); NULL otherwise. */
const char *sf_cli_suggest(const char *given, const char *const *known, size_t n);

/* Writes " (did you mean NAME?)" for sf_cli_suggest's answer into buf (size len), or "" when there is none;
 * returns buf, to append to an "unknown option" message. */
const char *sf_cli_did_you_mean(char *buf, size_t len, const char *given, const char *const *known, size_t n);

/* What parsing a tool's command line (or a config line holding one, sf_topo_cli.h, sf_route_cli.h) found. */
enum {
    SF_CLI_OK = 0,      /* parsed; go on */
    SF_CLI_FAIL = 1,    /* bad input (exit status 1) */
    SF_CLI_USAGE = 2,   /* usage error, the message in the sf_err (exit status 2) */
    SF_CLI_HELP = 3,    /* --help or -h: print the help, exit 0 */
    SF_CLI_VERSION = 4, /* --version: print the version, exit 0 */
    SF_CLI_NOARGS = 5   /* too few arguments: print the usage on standard error, exit 2 */
};

/* Splits line in place at spaces and tabs into at most max words (argv[0..n)); returns n, or -1 if there are more. */
int sf_cli_split(char *line, char **argv, int max);

#endif
