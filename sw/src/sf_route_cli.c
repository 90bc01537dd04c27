/* sanfab-route's command line: parse an algorithm and its options, compute the routes, report (sf_route_cli.h). */
#include "sf_route_cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const ALGS[] = {"updown", "itb", "dl", "fm", "clos-all", "lash"};
static const char *const SELS[] = {"low", "random", "balanced", "sancho", "pch"};
static const char *const FIXES[] = {"itb", "layers", "none"};
static const char *const RULES[] = {"ud", "ud-du", "ud-dudu", "lturn"};
static const char *const FALLBACKS[] = {"updown", "refuse"};
static const char *const MAPS[] = {"random", "identity"};
/* " (did you mean X?)" for a misspelt value v of the list L, or "" (into the caller's buffer dym) */
#define DYM(v, L) sf_cli_did_you_mean(dym, sizeof dym, (v), (L), sizeof(L) / sizeof(L)[0])

static int errf(sf_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int errf(sf_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return SF_CLI_USAGE;
}

static int num(sf_err *e, const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || !(isdigit((unsigned char)v[0]) || (v[0] == '-' && isdigit((unsigned char)v[1]))) || *end || x < lo || x > hi) {
        errf(e, "%s needs a whole number in %ld..%ld, got \"%.100s\"", opt, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* option `o` was given but `why` says the chosen command does not use it */
static int unused(sf_err *e, const sf_route_cli_opt *o, const char *why)
{
    return errf(e, "%s is not used %s (see --help)", o->name, why);
}

static const sf_route_cli_opt OPTS0[SF_RO_N] = {
    [SF_RO_ROOT] = {"--root", 1, 0, 0}, [SF_RO_SELECT] = {"--select", 1, 0, 0}, [SF_RO_VCS] = {"--vcs", 1, 0, 0},
    [SF_RO_RULE] = {"--rule", 1, 0, 0}, [SF_RO_WEIGHT] = {"--weight", 1, 0, 0}, [SF_RO_MAXALT] = {"--max-alt", 1, 0, 0},
    [SF_RO_MAXVCS] = {"--max-vcs", 1, 0, 0}, [SF_RO_DEADLOCK] = {"--deadlock", 1, 0, 0}, [SF_RO_MAP] = {"--map", 1, 0, 0},
    [SF_RO_FALLBACK] = {"--fallback", 1, 0, 0}, [SF_RO_SEED] = {"--seed", 1, 0, 0}, [SF_RO_OUT] = {"-o", 1, 0, 0},
    [SF_RO_RHINET] = {"--rhinet", 1, 0, 0}, [SF_RO_MAESTRO] = {"--maestro", 1, 0, 0}, [SF_RO_STATS] = {"--stats", 0, 0, 0},
    [SF_RO_JSON] = {"--json", 0, 0, 0}, [SF_RO_LINKS] = {"--links", 0, 0, 0}, [SF_RO_ALLOW] = {"--allow-deadlock", 0, 0, 0},
    [SF_RO_TIME] = {"--time", 0, 0, 0},
};

int sf_route_cli_parse(sf_route_cli *r, int argc, char *const *argv, int tool, sf_err *e)
{
    memset(r, 0, sizeof *r);
    memcpy(r->O, OPTS0, sizeof r->O);
    sf_route_cli_opt *O = r->O;
    char dym[120];
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            if (tool) return SF_CLI_HELP;
            return errf(e, "--help is not an option of a routing line (sanfab-route --help lists the algorithms)");
        }
        if (!strcmp(a, "--version")) {
            if (tool) return SF_CLI_VERSION;
            return errf(e, "--version is not an option of a routing line");
        }
        if (a[0] == '-' && a[1]) {
            int k = 0;
            while (k < SF_RO_N && strcmp(O[k].name, a)) k++;
            if (k == SF_RO_N) {
                const char *names[SF_RO_N + 1];
                for (int j = 0; j < SF_RO_N; j++) names[j] = O[j].name;
                names[SF_RO_N] = "--help";
                const char *s = sf_cli_suggest(a, names, SF_RO_N + 1);
                return errf(e, "unknown option %s%s", a, s ? sf_cli_did_you_mean(dym, sizeof dym, a, names, SF_RO_N + 1) : " (see --help)");
            }
            if (!tool && (k == SF_RO_OUT || k == SF_RO_RHINET || k == SF_RO_MAESTRO || k == SF_RO_STATS || k == SF_RO_JSON ||
                          k == SF_RO_LINKS || k == SF_RO_TIME))
                return errf(e, "%s is not an option of a routing line (sanfab-sim writes the route set with write-routes FILE, "
                            "its RHiNET tables with write-tables FILE)", a);
            if (O[k].given++) return errf(e, "%s given twice", a);
            if (O[k].has_value) {
                if (i + 1 >= argc) return errf(e, "option %s needs a value (see --help)", a);
                O[k].value = argv[++i];
            }
            continue;
        }
        if (r->npos == (tool ? 3 : 1)) return errf(e, "unexpected argument \"%.100s\" (see --help)", a);
        r->pos[r->npos++] = a;
    }
    if (r->npos < (tool ? 2 : 1)) {
        if (tool) return SF_CLI_NOARGS;
        return errf(e, "no algorithm given (updown, itb, dl, fm, clos-all, lash)");
    }
    const char *alg = r->pos[0];
    r->alg = alg;
    int is_check = tool && !strcmp(alg, "check"), is_stats = tool && !strcmp(alg, "stats");
    r->is_check = is_check;
    r->is_stats = is_stats;
    int known = is_check || is_stats;
    for (size_t i = 0; i < sizeof ALGS / sizeof ALGS[0]; i++) known |= !strcmp(alg, ALGS[i]);
    if (!known) {
        const char *s = sf_cli_suggest(alg, ALGS, sizeof ALGS / sizeof ALGS[0]);
        return errf(e, "unknown algorithm \"%.100s\"%s", alg, s ? DYM(alg, ALGS) : tool ? " (see --help)"
                    : " (updown, itb, dl, fm, clos-all, lash)");
    }
    if (is_check || is_stats) {
        if (r->npos != 3) return errf(e, "usage: sanfab-route %s TOPOLOGY ROUTES", alg);
        for (int k = 0; k < SF_RO_N; k++) {
            if (!O[k].given) continue;
            if (is_stats && (k == SF_RO_JSON || k == SF_RO_LINKS)) continue;
            return unused(e, &O[k], is_check ? "by check (it takes no options)" : "by stats (only --json and --links)");
        }
    } else if (tool && r->npos != 2) return errf(e, "unexpected argument \"%.100s\" (see --help)", r->pos[2]);

    sf_route_opts o;
    sf_route_opts_default(&o);
    long x;
    int uses_seed = 0;
    /* --select: which selections each algorithm implements */
    if (O[SF_RO_SELECT].given) {
        const char *v = O[SF_RO_SELECT].value;
        if (!strcmp(v, "low")) o.sel = SF_SEL_LOW;
        else if (!strcmp(v, "random")) o.sel = SF_SEL_RANDOM;
        else if (!strcmp(v, "balanced")) o.sel = SF_SEL_BALANCED;
        else if (!strcmp(v, "sancho")) o.sel = SF_SEL_SANCHO;
        else if (!strcmp(v, "pch")) o.sel = SF_SEL_PCH;
        else return errf(e, "unknown --select %s%s (low, random, balanced, sancho, pch)", v, DYM(v, SELS));
        const char *ok = !strcmp(alg, "updown") ? "low random sancho pch balanced"
                       : !strcmp(alg, "dl")     ? "low random sancho pch balanced"
                       : !strcmp(alg, "lash")   ? "low random sancho" : NULL;
        if (!ok) return unused(e, &O[SF_RO_SELECT], !strcmp(alg, "itb") ? "by itb (it always takes a uniformly random minimal path)"
                                             : !strcmp(alg, "fm") ? "by fm (it always takes the least-used minimal path)"
                                             : "by clos-all (it keeps every shortest legal path)");
        char padded[64];
        snprintf(padded, sizeof padded, " %s ", ok);
        char key[40];
        snprintf(key, sizeof key, " %s ", v);
        if (!strstr(padded, key)) return errf(e, "%s does not implement --select %s (it implements: %s)", alg, v, ok);
    } else if (!strcmp(alg, "lash")) o.sel = SF_SEL_SANCHO; /* LASH's documented default: least static load */
    if (!is_check && !is_stats) {
        int ud = !strcmp(alg, "updown"), itb = !strcmp(alg, "itb"), dl = !strcmp(alg, "dl"), fm = !strcmp(alg, "fm"),
            ca = !strcmp(alg, "clos-all"), la = !strcmp(alg, "lash");
        if (O[SF_RO_DEADLOCK].given) {
            if (!fm) return unused(e, &O[SF_RO_DEADLOCK], "except by fm");
            const char *v = O[SF_RO_DEADLOCK].value;
            if (!strcmp(v, "itb")) o.fix = SF_FIX_ITB;
            else if (!strcmp(v, "layers")) o.fix = SF_FIX_LAYERS;
            else if (!strcmp(v, "none")) o.fix = SF_FIX_NONE;
            else return errf(e, "unknown --deadlock %s%s (itb, layers, none)", v, DYM(v, FIXES));
        }
        if (O[SF_RO_MAP].given) {
            if (!fm) return unused(e, &O[SF_RO_MAP], "except by fm");
            const char *v = O[SF_RO_MAP].value;
            if (strcmp(v, "random") && strcmp(v, "identity")) return errf(e, "--map random|identity, got \"%s\"%s", v, DYM(v, MAPS));
            o.map_random = !strcmp(v, "random");
        }
        if (O[SF_RO_ROOT].given) {
            if (la) return unused(e, &O[SF_RO_ROOT], "by lash (no up*/down* orientation)");
            if (fm && o.fix != SF_FIX_ITB) return unused(e, &O[SF_RO_ROOT], "by fm unless --deadlock itb");
            if (num(e, "--root", O[SF_RO_ROOT].value, 0, 1 << 20, &x)) return SF_CLI_USAGE;
            o.root = (int)x;
        }
        if (O[SF_RO_VCS].given) {
            if (!dl && !ud) return unused(e, &O[SF_RO_VCS], "except by dl and updown (lash and fm --deadlock layers take --max-vcs)");
            if (num(e, "--vcs", O[SF_RO_VCS].value, 1, 16, &x)) return SF_CLI_USAGE;
            if (dl) o.nvc = (int)x;
            else o.ud_vcs = (int)x;
        }
        if (O[SF_RO_RULE].given) {
            if (!dl) return unused(e, &O[SF_RO_RULE], "except by dl");
            const char *v = O[SF_RO_RULE].value;
            if (!strcmp(v, "ud")) o.rule = SF_RULE_UD;
            else if (!strcmp(v, "ud-du")) o.rule = SF_RULE_UDDU;
            else if (!strcmp(v, "ud-dudu")) o.rule = SF_RULE_UD_DU;
            else if (!strcmp(v, "lturn")) o.rule = SF_RULE_LTURN;
            else return errf(e, "unknown --rule %s%s (ud, ud-du, ud-dudu, lturn)", v, DYM(v, RULES));
        }
        if (O[SF_RO_WEIGHT].given) {
            if (!((ud || dl) && o.sel == SF_SEL_BALANCED)) return unused(e, &O[SF_RO_WEIGHT], "except by --select balanced (updown, dl)");
            const char *v = O[SF_RO_WEIGHT].value;
            char *end;
            o.weight = strtod(v, &end);
            if (!*v || *end || !(o.weight >= 0 && o.weight <= 1e6)) return errf(e, "--weight needs a number in 0..1e6, got \"%s\"", v);
        }
        if (O[SF_RO_MAXALT].given) {
            if (!ca) return unused(e, &O[SF_RO_MAXALT], "except by clos-all");
            if (num(e, "--max-alt", O[SF_RO_MAXALT].value, 1, 1024, &x)) return SF_CLI_USAGE;
            o.maxalt = (int)x;
        }
        if (O[SF_RO_MAXVCS].given) {
            if (!(la || (fm && o.fix == SF_FIX_LAYERS))) return unused(e, &O[SF_RO_MAXVCS], "except by lash and fm --deadlock layers");
            if (num(e, "--max-vcs", O[SF_RO_MAXVCS].value, 1, 64, &x)) return SF_CLI_USAGE;
            o.maxvc = (int)x;
        }
        if (O[SF_RO_FALLBACK].given) {
            if (!itb) return unused(e, &O[SF_RO_FALLBACK], "except by itb (fm --deadlock itb always refuses)");
            const char *v = O[SF_RO_FALLBACK].value;
            if (!strcmp(v, "updown")) o.fallback = SF_FALLBACK_UPDOWN;
            else if (!strcmp(v, "refuse")) o.fallback = SF_FALLBACK_REFUSE;
            else return errf(e, "unknown --fallback %s%s (updown, refuse)", v, DYM(v, FALLBACKS));
        }
        if (O[SF_RO_ALLOW].given && !(fm && o.fix == SF_FIX_NONE))
            return unused(e, &O[SF_RO_ALLOW], "except by fm --deadlock none (every other algorithm is deadlock-free by construction)");
        if (O[SF_RO_STATS].given && O[SF_RO_JSON].given) return errf(e, "give --stats (table) or --json, not both");
        if (O[SF_RO_LINKS].given && !O[SF_RO_STATS].given && !O[SF_RO_JSON].given) return unused(e, &O[SF_RO_LINKS], "without --stats or --json");
        uses_seed = itb || ((ud || dl || la) && o.sel == SF_SEL_RANDOM) || (fm && o.map_random);
        if (O[SF_RO_SEED].given) {
            if (!uses_seed) return unused(e, &O[SF_RO_SEED], "by this run: it makes no random choice (random choices: itb, --select random, fm --map random)");
            const char *v = O[SF_RO_SEED].value;
            char *end;
            errno = 0;
            unsigned long long sd = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end || errno) return errf(e, "--seed needs a whole number in 0..18446744073709551615, got \"%s\"", v);
            o.seed = sd;
        }
    }
    r->o = o;
    r->uses_seed = uses_seed;
    return SF_CLI_OK;
}

sf_routes *sf_route_cli_compute(const sf_route_cli *r, const sf_topo *t, int *status, sf_err *e)
{
    const char *alg = r->alg;
    *status = SF_CLI_FAIL;
    if (r->o.root >= t->nsw) {
        snprintf(e->msg, sizeof e->msg, "--root %d: no such switch (0..%d)", r->o.root, t->nsw - 1);
        *status = SF_CLI_USAGE;
        return NULL;
    }
    if (!strcmp(alg, "updown")) return sf_route_updown(t, &r->o, e);
    if (!strcmp(alg, "itb")) return sf_route_itb(t, &r->o, e);
    if (!strcmp(alg, "dl")) return sf_route_dl(t, &r->o, e);
    if (!strcmp(alg, "fm")) return sf_route_fm(t, &r->o, e);
    if (!strcmp(alg, "clos-all")) return sf_route_allud(t, &r->o, e);
    if (!strcmp(alg, "lash")) return sf_route_lash(t, &r->o, e);
    snprintf(e->msg, sizeof e->msg, "%s computes no routes", alg);
    return NULL;
}

static void report_fallbacks(const sf_routes *rs, FILE *log, const char *pf)
{
    const sf_topo *t = rs->t;
    int nf = rs->fallbacks;
    fprintf(log, "%swarning: itb: %d host pair%s %s no minimal route whose ITBs all fall at switches with a "
            "host; %s up*/down* routes instead (not minimal: the file does not promise minimality)\n", pf, nf, nf > 1 ? "s" : "",
            nf > 1 ? "have" : "has", nf > 1 ? "they take" : "it takes");
    int *cnt = calloc((size_t)t->nsw, sizeof(int));
    if (!cnt) exit(2);
    for (int i = 0; i < nf; i++)
        if (rs->fallback_pairs[3 * i + 2] >= 0) cnt[rs->fallback_pairs[3 * i + 2]]++;
    fprintf(log, "%swarning: itb: switches without a host where a minimal route would need its ITB:", pf);
    for (int x = 0; x < t->nsw; x++)
        if (cnt[x]) fprintf(log, " %d (%d pair%s)", x, cnt[x], cnt[x] > 1 ? "s" : "");
    fprintf(log, "\n");
    free(cnt);
    int show = nf < 20 ? nf : 20;
    for (int i = 0; i < show; i++) {
        int a = rs->fallback_pairs[3 * i], b = rs->fallback_pairs[3 * i + 1];
        fprintf(log, "%swarning: itb: host %d -> host %d (switch %d -> switch %d): ITB needed at switch %d\n", pf, a,
                b, t->host[a].sw, t->host[b].sw, rs->fallback_pairs[3 * i + 2]);
    }
    if (nf > show) fprintf(log, "%swarning: itb: ... and %d more pairs\n", pf, nf - show);
    fprintf(log, "%swarning: itb: use --fallback refuse to fail instead\n", pf);
}

void sf_route_cli_report(const sf_route_cli *r, const sf_routes *rs, FILE *log, const char *prefix)
{
    if (!strcmp(r->alg, "lash")) {
        fprintf(log, "%slash needs %d layers\n", prefix, rs->nvc);
        if (rs->nvc > 8)
            fprintf(log, "%swarning: lash needs %d layers, more than the 8 data VLs of InfiniBand (--max-vcs N "
                    "makes it fail instead)\n", prefix, rs->nvc);
    }
    if (rs->fallbacks) report_fallbacks(rs, log, prefix);
}
