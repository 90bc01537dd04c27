/* sanfab-topo's command line: parse a generator and its options, generate (sf_topo_cli.h). */
#include "sf_topo_cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* options each kind uses; any other option is an error, never ignored */
static const struct {
    const char *kind, *opts;
} K[] = {
    {"random", " --switches --ports --hosts --seed "}, {"mesh", " --k --ky --ports --hosts "},
    {"torus", " --k --ky --ports --hosts "}, {"express", " --k --ports --hosts "}, {"cplant", " "},
    {"clos", " --leaves --hosts --spines "}, {"fattree", " --k --n "}, {"hypercube", " --dim --ports --hosts "},
    {"dual8", " --bisection "}, {"parpar", " --boxes "}, {"tree", " --levels --ports --fanout --hosts "},
};
enum { NK = sizeof K / sizeof K[0] };
static const char *const KINDS[NK] = {"random", "mesh", "torus", "express", "cplant", "clos", "fattree", "hypercube", "dual8",
                                      "parpar", "tree"};
static const char *const OPTS[] = {"--switches", "--ports", "--hosts", "--seed", "--k", "--ky", "--leaves", "--spines",
                                   "--n", "--dim", "--bisection", "--boxes", "--levels", "--fanout", "-o", "--help", "--version"};

static int usage_err(sf_err *e, const char *msg) { snprintf(e->msg, sizeof e->msg, "%s", msg); return SF_CLI_USAGE; }

int sf_topo_cli_parse(sf_topo_cli *a, int argc, char *const *argv, int tool, sf_err *e)
{
    memset(a, 0, sizeof *a);
    a->n = a->p = a->h = a->k = a->ky = a->levels = a->fanout = -1;
    a->leaves = 32;
    a->spines = 16;
    a->nlev = 3;
    a->dim = 4;
    a->bis = 4;
    a->boxes = 2;
    a->seed = 1;
    char dym[120];
    if (argc < 1) return usage_err(e, "no kind given (random, mesh, torus, express, cplant, clos, fattree, hypercube, dual8, parpar, tree)");
    const char *kind = argv[0], *kopts = NULL;
    for (size_t i = 0; i < NK; i++)
        if (!strcmp(kind, K[i].kind)) kopts = K[i].opts;
    if (!kopts) {
        if (kind[0] == '-' && !strcmp(kind, "--version")) return SF_CLI_VERSION;
        snprintf(e->msg, sizeof e->msg, "unknown kind \"%.100s\"%s", kind,
                 sf_cli_suggest(kind, KINDS, NK) ? sf_cli_did_you_mean(dym, sizeof dym, kind, KINDS, NK) : " (see --help)");
        return SF_CLI_USAGE;
    }
    snprintf(a->kind, sizeof a->kind, "%s", kind);
    char seen[400] = " ";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            if (tool) return SF_CLI_HELP;
            return usage_err(e, "--help is not an option of a generator line (sanfab-topo --help lists the kinds)");
        }
        if (!strcmp(o, "--version")) {
            if (tool) return SF_CLI_VERSION;
            return usage_err(e, "--version is not an option of a generator line");
        }
        if (o[0] != '-') {
            snprintf(e->msg, sizeof e->msg, "unexpected argument \"%.100s\" (see --help)", o);
            return SF_CLI_USAGE;
        }
        char key[64];
        snprintf(key, sizeof key, " %.60s ", o);
        if (!tool && !strcmp(o, "-o")) return usage_err(e, "-o is not an option of a generator line (write-topology FILE keeps the topology)");
        if (strcmp(o, "-o") && !strstr(kopts, key)) {
            int any = 0;
            for (size_t k = 0; k < NK; k++) any |= strstr(K[k].opts, key) != NULL;
            if (any) {
                if (tool) snprintf(e->msg, sizeof e->msg, "%.60s is not an option of %s (its options:%s-o)", o, kind, kopts);
                else if (!strcmp(kopts, " ")) snprintf(e->msg, sizeof e->msg, "%.60s is not an option of %s (it takes none)", o, kind);
                else snprintf(e->msg, sizeof e->msg, "%.60s is not an option of %s (its options:%.*s)", o, kind, (int)strlen(kopts) - 1, kopts);
            } else {
                const char *s = sf_cli_suggest(o, OPTS, sizeof OPTS / sizeof OPTS[0] - 2);
                snprintf(e->msg, sizeof e->msg, "unknown option %.60s%s", o,
                         s ? sf_cli_did_you_mean(dym, sizeof dym, o, OPTS, sizeof OPTS / sizeof OPTS[0] - 2) : " (see --help)");
            }
            return SF_CLI_USAGE;
        }
        if (strstr(seen, key)) {
            snprintf(e->msg, sizeof e->msg, "%.60s given twice", o);
            return SF_CLI_USAGE;
        }
        if (strlen(seen) + strlen(key) < sizeof seen) strcat(seen, key + 1);
        if (i + 1 >= argc) {
            snprintf(e->msg, sizeof e->msg, "option %.60s needs a value", o);
            return SF_CLI_USAGE;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "-o")) { a->out = v; continue; }
        if (!strcmp(o, "--seed")) {
            char *end;
            errno = 0;
            unsigned long long sv = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end || errno) {
                snprintf(e->msg, sizeof e->msg, "--seed needs a whole number in 0..18446744073709551615, got \"%.100s\"", v);
                return SF_CLI_USAGE;
            }
            a->seed = sv;
            continue;
        }
        char *end;
        long x = strtol(v, &end, 10);
        long lo = strcmp(o, "--hosts") ? 1 : 0;
        if (!isdigit((unsigned char)v[0]) || *end || x < lo || x > 100000) {
            snprintf(e->msg, sizeof e->msg, "option %.60s needs a whole number in %ld..100000, got \"%.100s\"", o, lo, v);
            return SF_CLI_USAGE;
        }
        if (!strcmp(o, "--switches")) a->n = (int)x;
        else if (!strcmp(o, "--ports")) a->p = (int)x;
        else if (!strcmp(o, "--hosts")) a->h = (int)x;
        else if (!strcmp(o, "--k")) a->k = (int)x;
        else if (!strcmp(o, "--ky")) a->ky = (int)x;
        else if (!strcmp(o, "--leaves")) a->leaves = (int)x;
        else if (!strcmp(o, "--spines")) a->spines = (int)x;
        else if (!strcmp(o, "--n")) a->nlev = (int)x;
        else if (!strcmp(o, "--dim")) a->dim = (int)x;
        else if (!strcmp(o, "--bisection")) a->bis = (int)x;
        else if (!strcmp(o, "--boxes")) a->boxes = (int)x;
        else if (!strcmp(o, "--levels")) a->levels = (int)x;
        else if (!strcmp(o, "--fanout")) a->fanout = (int)x;
    }
    if (!strcmp(kind, "tree") && a->levels < 0) return usage_err(e, "tree needs --levels K (1..6)");
    return SF_CLI_OK;
}

int sf_topo_cli_uses_seed(const sf_topo_cli *a) { return !strcmp(a->kind, "random"); }

sf_topo *sf_topo_cli_generate(const sf_topo_cli *a, sf_err *e)
{
    const char *kind = a->kind;
    const int n = a->n, p = a->p, h = a->h, k = a->k, ky = a->ky;
    if (!strcmp(kind, "random")) return sf_gen_random(n < 0 ? 16 : n, p < 0 ? 8 : p, h < 0 ? 4 : h, a->seed, e);
    if (!strcmp(kind, "mesh")) return sf_gen_mesh(k < 0 ? 4 : k, ky < 0 ? (k < 0 ? 4 : k) : ky, 0, p < 0 ? 8 : p, h < 0 ? 4 : h, e);
    if (!strcmp(kind, "torus")) return sf_gen_mesh(k < 0 ? 8 : k, ky < 0 ? (k < 0 ? 8 : k) : ky, 1, p < 0 ? 16 : p, h < 0 ? 8 : h, e);
    if (!strcmp(kind, "express")) return sf_gen_express(k < 0 ? 8 : k, p < 0 ? 16 : p, h < 0 ? 8 : h, e);
    if (!strcmp(kind, "cplant")) return sf_gen_cplant(e);
    if (!strcmp(kind, "clos")) return sf_gen_clos(a->leaves, h < 0 ? 16 : h, a->spines, e);
    if (!strcmp(kind, "fattree")) return sf_gen_fattree(k < 0 ? 4 : k, a->nlev, e);
    if (!strcmp(kind, "dual8")) return sf_gen_dual8(a->bis, e);
    if (!strcmp(kind, "parpar")) return sf_gen_parpar(a->boxes, e);
    if (!strcmp(kind, "hypercube")) return sf_gen_hypercube(a->dim, p < 0 ? 8 : p, h < 0 ? 4 : h, e);
    if (!strcmp(kind, "tree")) {
        /* one level: one box, every port a host; more: leaves keep their last port for the parent */
        if (a->levels == 1 && a->fanout >= 0) {
            snprintf(e->msg, sizeof e->msg, "generator: tree: --fanout has no use with --levels 1 (one box, no children)");
            return NULL;
        }
        const int tp = p < 0 ? 8 : p;
        return sf_gen_tree(a->levels, tp, a->fanout < 0 ? 2 : a->fanout, h < 0 ? (a->levels == 1 ? tp : tp - 1) : h, e);
    }
    snprintf(e->msg, sizeof e->msg, "unknown kind \"%s\"", kind);
    return NULL;
}
