/* tsel.h - --test NAME and --list of the C test programs of several files (test_net, test_sw): their main runs a
 * table of named tests, all of them or only the ones --test names (repeatable; in the table's order), and --list
 * prints the names. A name no test has is refused (exit status 2). */
#ifndef TSEL_H
#define TSEL_H

#include <stdio.h>
#include <string.h>

#define TSEL_MAX 64

typedef struct {
    const char *only[TSEL_MAX]; /* the --test names */
    int known[TSEL_MAX];        /* each names a test of the table */
    int nonly, list;
} tsel;

/* argv[*i] is --test NAME (then *i moves past NAME) or --list: 1; anything else: 0 */
static inline int tsel_arg(tsel *s, int argc, char **argv, int *i)
{
    if (!strcmp(argv[*i], "--list")) {
        s->list = 1;
        return 1;
    }
    if (!strcmp(argv[*i], "--test") && *i + 1 < argc && s->nonly < TSEL_MAX) {
        s->only[s->nonly++] = argv[++*i];
        return 1;
    }
    return 0;
}

/* call once for each test of the table: 1 when it is to run (no --test, or a --test names it) */
static inline int tsel_runs(tsel *s, const char *name)
{
    int run = s->nonly == 0;
    for (int k = 0; k < s->nonly; k++)
        if (!strcmp(s->only[k], name))
            run = s->known[k] = 1;
    return run;
}

/* after tsel_runs over the whole table: 0, or a message on stderr for each unknown --test name and 1 */
static inline int tsel_unknown(const tsel *s, const char *prog)
{
    int bad = 0;
    for (int k = 0; k < s->nonly; k++)
        if (!s->known[k]) {
            fprintf(stderr, "%s: no test named \"%s\" (--list gives the names)\n", prog, s->only[k]);
            bad = 1;
        }
    return bad;
}

#endif
