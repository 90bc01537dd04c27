/* sf_sim.c - configuration, one load point's run and JSON results of the network simulator (sf_sim.h). */
#include "sf_sim.h"

#include "link.h"
#include "net.h"
#include "xbar.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ configuration keys */

enum {
    K_TOPOLOGY, K_ROUTES, K_SWITCH, K_TRAFFIC, K_HOTSPOT, K_LOCAL, K_MSGSIZE, K_LOAD, K_WARMUP, K_CYCLES, K_DRAIN,
    K_SEED, K_LINKDELAY, K_HOSTDELAY, K_ROUTEDELAY, K_SLACK, K_STOP, K_GO, K_TIMEOUT, K_ITBDETECT, K_ITBDMA,
    K_ITBPOOL, K_ITBPRIO, K_NICBUF, K_NICSTOP, K_NICGO, K_NICDRAIN, K_ALT, K_ALLOWDL, K_SAT, K_LINKS, K_N
};

static const struct {
    const char *name, *def, *help;
} keys[K_N] = {
    [K_TOPOLOGY] = {"topology", "(required)", "topology file (docs/topology.md)"},
    [K_ROUTES] = {"routes", "(required)", "sanfab-route source-route file (docs/routing.md)"},
    [K_SWITCH] = {"switch", "xbar", "switch kind (xbar)"},
    [K_TRAFFIC] = {"traffic", "uniform", "uniform|bit-reversal|hotspot|local|transpose|complement|permutation"},
    [K_HOTSPOT] = {"hotspot", "5", "hotspot: percent of messages sent to the hotspot host"},
    [K_LOCAL] = {"local", "3", "local: destinations at most L switches away"},
    [K_MSGSIZE] = {"message-size", "512", "payload bytes per message (8..65536)"},
    [K_LOAD] = {"load", "(required)", "offered load(s), flits/ns/switch: one or more numbers (a sweep)"},
    [K_WARMUP] = {"warmup", "20000", "warm-up cycles before the measurement window"},
    [K_CYCLES] = {"cycles", "100000", "measurement window in cycles"},
    [K_DRAIN] = {"drain", "0", "after the window: stop generating, run until empty or this many cycles"},
    [K_SEED] = {"seed", "1", "random seed (0..2^64-1)"},
    [K_LINKDELAY] = {"link-delay", "8", "switch-to-switch cable delay in cycles (10 m = 8)"},
    [K_HOSTDELAY] = {"host-delay", "8", "host-to-switch cable delay in cycles"},
    [K_ROUTEDELAY] = {"route-delay", "21", "crossbar ROUTE_DELAY (21: 150 ns fall-through)"},
    [K_SLACK] = {"slack", "80", "crossbar SLACK_DEPTH (bytes)"},
    [K_STOP] = {"stop", "56", "crossbar STOP_THRESH"},
    [K_GO] = {"go", "40", "crossbar GO_THRESH"},
    [K_TIMEOUT] = {"timeout", "1048576", "crossbar TIMEOUT: cycles without progress before a forward reset (0 = never)"},
    [K_ITBDETECT] = {"itb-detect", "44", "cycles from an in-transit packet's first byte to its detection (275 ns)"},
    [K_ITBDMA] = {"itb-dma", "32", "further cycles to set the re-injection DMA up (200 ns)"},
    [K_ITBPOOL] = {"itb-pool", "524288", "ITB pool per NIC in bytes"},
    [K_ITBPRIO] = {"itb-prio", "8", "local queue length from which local and in-transit packets alternate"},
    [K_NICBUF] = {"nic-buffer", "80", "NIC receive buffer in bytes"},
    [K_NICSTOP] = {"nic-stop", "56", "NIC sends STOP at this occupancy"},
    [K_NICGO] = {"nic-go", "40", "NIC sends GO at this occupancy"},
    [K_NICDRAIN] = {"nic-drain", "64", "bytes the NIC takes from its receive buffer per 64 cycles (64 = link rate)"},
    [K_ALT] = {"alternatives", "random", "random|first: which of a pair's alternative routes a message takes"},
    [K_ALLOWDL] = {"allow-deadlock", "no", "yes: run a route set with a dependency cycle (forward resets clear it)"},
    [K_SAT] = {"saturation", "0.95", "a point is saturated when accepted < this x offered (and, hotspot traffic, the hotspot host's)"},
    [K_LINKS] = {"links", "yes", "yes|no: per-channel utilisation in the JSON"},
};

static int key_index(const char *k)
{
    for (int i = 0; i < K_N; i++)
        if (strcmp(k, keys[i].name) == 0)
            return i;
    return -1;
}

int sf_sim_is_key(const char *key) { return key_index(key) >= 0; }

void sf_sim_keys_help(FILE *f)
{
    for (int i = 0; i < K_N; i++)
        fprintf(f, "  %-15s %-11s %s\n", keys[i].name, keys[i].def, keys[i].help);
}

void sf_sim_cfg_default(sf_sim_cfg *c)
{
    memset(c, 0, sizeof *c);
    strcpy(c->kind, "xbar");
    sf_nic_params_default(&c->nic);
    c->warmup = 20000;
    c->cycles = 100000;
    c->drain = 0;
    c->link_delay = c->host_delay = 8;
    c->slack = 80;
    c->stop = 56;
    c->go = 40;
    c->route_delay = 21;
    c->timeout = 1048576;
    c->links = 1;
    c->sat_ratio = 0.95;
}

static int bad(sf_err *e, const char *where, const char *key, const char *why, const char *value)
{
    snprintf(e->msg, sizeof e->msg, "%.240s: %.60s: %.180s (got \"%.80s\")", where, key, why, value);
    return -1;
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (!*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

static int parse_dbl(const char *s, double lo, double hi, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (!*s || errno || *end || !isfinite(x) || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

static int yesno(const char *s, int *v)
{
    if (strcmp(s, "yes") == 0)
        *v = 1;
    else if (strcmp(s, "no") == 0)
        *v = 0;
    else
        return -1;
    return 0;
}

int sf_sim_cfg_set(sf_sim_cfg *c, const char *key, const char *value, const char *where, int from_cmdline, sf_err *e)
{
    int k = key_index(key);
    if (k < 0) {
        snprintf(e->msg, sizeof e->msg, "%.240s: unknown key \"%.100s\" (sanfab-sim --help lists the keys)", where, key);
        return -1;
    }
    if (from_cmdline && c->set_cmd[k]) {
        snprintf(e->msg, sizeof e->msg, "%.240s: --%.60s given twice", where, key);
        return -1;
    }
    uint64_t u;
    double d;
    int yn;
    const uint64_t U32 = 0xFFFFFFFFu;
    switch (k) {
    case K_TOPOLOGY:
    case K_ROUTES: {
        char *dst = k == K_TOPOLOGY ? c->topology : c->routes;
        if (!*value || strlen(value) >= sizeof c->topology)
            return bad(e, where, key, "empty or too long path", value);
        strcpy(dst, value);
        break;
    }
    case K_SWITCH:
        if (!net_switch_kind(value))
            return bad(e, where, key, "unknown switch kind (only xbar so far)", value);
        snprintf(c->kind, sizeof c->kind, "%s", value);
        break;
    case K_TRAFFIC: {
        int t = sf_traffic_parse(value);
        if (t < 0)
            return bad(e, where, key, "unknown pattern (uniform, bit-reversal, hotspot, local, transpose, complement, permutation)",
                       value);
        c->nic.traffic = (sf_traffic)t;
        break;
    }
    case K_HOTSPOT:
        if (parse_dbl(value, 0, 100, &d))
            return bad(e, where, key, "expected a percentage 0..100", value);
        c->nic.hotspot_frac = d / 100.0;
        break;
    case K_LOCAL:
        if (parse_u64(value, 1, 1000000, &u))
            return bad(e, where, key, "expected a whole number of switches 1..1000000", value);
        c->nic.local_l = (int)u;
        break;
    case K_MSGSIZE:
        if (parse_u64(value, 8, 65536, &u))
            return bad(e, where, key, "expected bytes 8..65536", value);
        c->nic.msg_size = (unsigned)u;
        break;
    case K_LOAD: {
        /* one or more numbers, separated by spaces or commas */
        char buf[4096];
        if (strlen(value) >= sizeof buf)
            return bad(e, where, key, "list too long", "...");
        strcpy(buf, value);
        int n = 0;
        for (char *tok = strtok(buf, " \t,"); tok; tok = strtok(NULL, " \t,")) {
            if (n == SF_SIM_MAX_LOADS)
                return bad(e, where, key, "more than 256 load points", value);
            if (parse_dbl(tok, 0, 1000, &d) || d <= 0)
                return bad(e, where, key, "expected loads in flits/ns/switch, numbers > 0", tok);
            c->loads[n++] = d;
        }
        if (!n)
            return bad(e, where, key, "expected at least one load", value);
        c->nloads = n;
        break;
    }
    case K_WARMUP:
    case K_CYCLES:
    case K_DRAIN:
        if (parse_u64(value, k == K_CYCLES ? 1 : 0, 1000000000000ull, &u))
            return bad(e, where, key, k == K_CYCLES ? "expected cycles 1..10^12" : "expected cycles 0..10^12", value);
        *(k == K_WARMUP ? &c->warmup : k == K_CYCLES ? &c->cycles : &c->drain) = u;
        break;
    case K_SEED:
        if (parse_u64(value, 0, UINT64_MAX, &u))
            return bad(e, where, key, "expected a whole number 0..2^64-1", value);
        c->nic.seed = u;
        break;
    case K_LINKDELAY:
    case K_HOSTDELAY:
        if (parse_u64(value, 0, NET_MAX_DELAY, &u))
            return bad(e, where, key, "expected cycles 0..4096", value);
        *(k == K_LINKDELAY ? &c->link_delay : &c->host_delay) = (unsigned)u;
        break;
    case K_ROUTEDELAY:
    case K_SLACK:
    case K_STOP:
    case K_GO:
        if (parse_u64(value, 0, 255, &u))
            return bad(e, where, key, "expected a whole number 0..255", value);
        *(k == K_ROUTEDELAY ? &c->route_delay : k == K_SLACK ? &c->slack : k == K_STOP ? &c->stop : &c->go) = (unsigned)u;
        break;
    case K_TIMEOUT:
        if (parse_u64(value, 0, (1u << 24) - 1u, &u) || u == 1)
            return bad(e, where, key, "expected 0 (never) or cycles 2..16777215", value);
        c->timeout = (unsigned)u;
        break;
    case K_ITBDETECT:
    case K_ITBDMA:
    case K_ITBPRIO:
        if (parse_u64(value, 0, 1000000, &u))
            return bad(e, where, key, "expected a whole number 0..1000000", value);
        *(k == K_ITBDETECT ? &c->nic.itb_detect : k == K_ITBDMA ? &c->nic.itb_dma : &c->nic.prio_equal) = (unsigned)u;
        break;
    case K_ITBPOOL:
        if (parse_u64(value, 0, U32 * 1024, &u))
            return bad(e, where, key, "expected bytes 0..2^42", value);
        c->nic.itb_pool = u;
        break;
    case K_NICBUF:
    case K_NICSTOP:
    case K_NICGO:
        if (parse_u64(value, k == K_NICBUF ? 1 : 0, 65536, &u))
            return bad(e, where, key, k == K_NICBUF ? "expected bytes 1..65536" : "expected bytes 0..65536", value);
        *(k == K_NICBUF ? &c->nic.rx_buf : k == K_NICSTOP ? &c->nic.rx_stop : &c->nic.rx_go) = (unsigned)u;
        break;
    case K_NICDRAIN:
        if (parse_u64(value, 1, 64, &u))
            return bad(e, where, key, "expected bytes per 64 cycles 1..64", value);
        c->nic.rx_drain_per_64 = (unsigned)u;
        break;
    case K_ALT:
        if (strcmp(value, "random") && strcmp(value, "first"))
            return bad(e, where, key, "expected random or first", value);
        c->nic.alt_random = strcmp(value, "random") == 0;
        break;
    case K_ALLOWDL:
    case K_LINKS:
        if (yesno(value, &yn))
            return bad(e, where, key, "expected yes or no", value);
        *(k == K_ALLOWDL ? &c->allow_deadlock : &c->links) = yn;
        break;
    case K_SAT:
        if (parse_dbl(value, 0.01, 1, &d))
            return bad(e, where, key, "expected a ratio 0.01..1", value);
        c->sat_ratio = d;
        break;
    }
    if (from_cmdline)
        c->set_cmd[k] = 1;
    return 0;
}

static void join_dir(char *dst, size_t n, const char *cfgpath, const char *rel)
{
    const char *slash = strrchr(cfgpath, '/');
    if (rel[0] == '/' || !slash)
        snprintf(dst, n, "%s", rel);
    else
        snprintf(dst, n, "%.*s/%s", (int)(slash - cfgpath), cfgpath, rel);
}

int sf_sim_cfg_read(sf_sim_cfg *c, const char *path, sf_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(e->msg, sizeof e->msg, "%.400s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[8192], where[240];
    int ln = 0, header = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        snprintf(where, sizeof where, "%.220s:%d", path, ln);
        size_t L = strlen(line);
        if (L == sizeof line - 1 && line[L - 1] != '\n') {
            snprintf(e->msg, sizeof e->msg, "%s: line too long", where);
            rc = -1;
            break;
        }
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        char *end = p + strlen(p);
        while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
            *--end = 0;
        if (!*p)
            continue;
        char *key = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = 0;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!header) {
            if (strcmp(key, "sanfab-sim") || strcmp(p, "1")) {
                snprintf(e->msg, sizeof e->msg, "%s: first line must be \"sanfab-sim 1\"", where);
                rc = -1;
                break;
            }
            header = 1;
            continue;
        }
        int k = key_index(key);
        if (k < 0) {
            snprintf(e->msg, sizeof e->msg, "%.240s: unknown key \"%.100s\" (sanfab-sim --help lists the keys)", where, key);
            rc = -1;
            break;
        }
        if (c->set_line[k]) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s given twice (first at line %d)", where, key, c->set_line[k]);
            rc = -1;
            break;
        }
        if (!*p) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s needs a value", where, key);
            rc = -1;
            break;
        }
        if (k != K_LOAD && strpbrk(p, " \t")) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s takes one value (got \"%.200s\")", where, key, p);
            rc = -1;
            break;
        }
        if (c->set_cmd[k]) { /* the command line overrides the file */
            c->set_line[k] = ln;
            continue;
        }
        char val[2048];
        if (k == K_TOPOLOGY || k == K_ROUTES) {
            join_dir(val, sizeof val, path, p);
            p = val;
        }
        if (sf_sim_cfg_set(c, key, p, where, 0, e)) {
            rc = -1;
            break;
        }
        c->set_line[k] = ln;
    }
    if (!rc && !header) {
        snprintf(e->msg, sizeof e->msg, "%.400s:%d: first line must be \"sanfab-sim 1\"", path, ln ? ln : 1);
        rc = -1;
    }
    fclose(f);
    return rc;
}

int sf_sim_cfg_check(const sf_sim_cfg *c, sf_err *e)
{
    if (!c->topology[0] || !c->routes[0]) {
        snprintf(e->msg, sizeof e->msg, "no %s given (config key or --%s)", !c->topology[0] ? "topology" : "routes",
                 !c->topology[0] ? "topology" : "routes");
        return -1;
    }
    if (!c->nloads) {
        snprintf(e->msg, sizeof e->msg, "no load given (config key \"load\" or --load)");
        return -1;
    }
    xbar_params_t p = xbar_default_params();
    p.SLACK_DEPTH = c->slack;
    p.STOP_THRESH = c->stop;
    p.GO_THRESH = c->go;
    p.ROUTE_DELAY = c->route_delay;
    p.TIMEOUT = c->timeout;
    const char *why = xbar_params_check(&p);
    if (why) {
        snprintf(e->msg, sizeof e->msg, "crossbar parameters (slack/stop/go/route-delay/timeout): %s", why);
        return -1;
    }
    if (c->nic.rx_stop > c->nic.rx_buf || c->nic.rx_go >= c->nic.rx_stop) {
        snprintf(e->msg, sizeof e->msg, "NIC buffer: need nic-go < nic-stop <= nic-buffer (have %u, %u, %u)", c->nic.rx_go,
                 c->nic.rx_stop, c->nic.rx_buf);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ network */

int sf_sim_net_load(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e)
{
    memset(n, 0, sizeof *n);
    n->t = sf_topo_read(c->topology, e);
    if (!n->t)
        return -1;
    n->rs = sf_read_routes(n->t, c->routes, e);
    if (!n->rs) {
        sf_sim_net_free(n);
        return -1;
    }
    snprintf(n->algo, sizeof n->algo, "%s", n->rs->algo);
    if (sf_check_routes(n->rs, e)) {
        sf_sim_net_free(n);
        return -1;
    }
    if (sf_check_deadlock(n->rs, n->cycle, sizeof n->cycle)) {
        n->cyclic = 1;
        if (!c->allow_deadlock) {
            snprintf(e->msg, sizeof e->msg, "%.200s: the route set can deadlock (%.300s); give allow-deadlock yes to run it anyway",
                     c->routes, n->cycle);
            sf_sim_net_free(n);
            return -1;
        }
    }
    for (int s = 0; s < n->t->nsw; s++)
        if (n->t->sw[s].nports > XBAR_MAX_PORTS) {
            snprintf(e->msg, sizeof e->msg, "%.300s: switch %d has %d ports; the crossbar model has at most %d", c->topology, s,
                     n->t->sw[s].nports, XBAR_MAX_PORTS);
            sf_sim_net_free(n);
            return -1;
        }
    return 0;
}

void sf_sim_net_free(sf_sim_net *n)
{
    sf_routes_free(n->rs);
    sf_topo_free(n->t);
    n->rs = NULL;
    n->t = NULL;
}

/* ------------------------------------------------------------------ JSON */

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void jnum(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

void sf_sim_json_head(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out)
{
    fprintf(out, "{\"tool\": \"sanfab-sim\", \"format\": 1, \"seed\": %llu,\n \"config\": {", (unsigned long long)c->nic.seed);
    fprintf(out, "\"topology\": ");
    jstr(out, c->topology);
    fprintf(out, ", \"routes\": ");
    jstr(out, c->routes);
    fprintf(out, ", \"switch\": \"%s\", \"traffic\": \"%s\"", c->kind, sf_traffic_name(c->nic.traffic));
    if (c->nic.traffic == SF_TR_HOTSPOT)
        fprintf(out, ", \"hotspot\": %.6g", 100.0 * c->nic.hotspot_frac);
    if (c->nic.traffic == SF_TR_LOCAL)
        fprintf(out, ", \"local\": %d", c->nic.local_l);
    fprintf(out, ", \"message_size\": %u, \"loads\": [", c->nic.msg_size);
    for (int i = 0; i < c->nloads; i++) {
        fputs(i ? ", " : "", out);
        jnum(out, c->loads[i]);
    }
    fprintf(out, "], \"warmup\": %llu, \"cycles\": %llu, \"drain\": %llu, \"link_delay\": %u, \"host_delay\": %u",
            (unsigned long long)c->warmup, (unsigned long long)c->cycles, (unsigned long long)c->drain, c->link_delay,
            c->host_delay);
    fprintf(out, ", \"route_delay\": %u, \"slack\": %u, \"stop\": %u, \"go\": %u, \"timeout\": %u", c->route_delay, c->slack,
            c->stop, c->go, c->timeout);
    fprintf(out, ", \"itb_detect\": %u, \"itb_dma\": %u, \"itb_pool\": %llu, \"itb_prio\": %u", c->nic.itb_detect,
            c->nic.itb_dma, (unsigned long long)c->nic.itb_pool, c->nic.prio_equal);
    fprintf(out, ", \"nic_buffer\": %u, \"nic_stop\": %u, \"nic_go\": %u, \"nic_drain\": %u, \"alternatives\": \"%s\"",
            c->nic.rx_buf, c->nic.rx_stop, c->nic.rx_go, c->nic.rx_drain_per_64, c->nic.alt_random ? "random" : "first");
    fprintf(out, ", \"allow_deadlock\": %s, \"saturation\": %.6g, \"ns_per_cycle\": %.6g},\n", c->allow_deadlock ? "true" : "false",
            c->sat_ratio, SF_SIM_NS_PER_CYCLE);
    fprintf(out, " \"network\": {\"name\": ");
    jstr(out, n->t->name);
    fprintf(out, ", \"switches\": %d, \"hosts\": %d, \"links\": %d, \"algorithm\": ", n->t->nsw, n->t->nhost, sf_topo_nlinks(n->t));
    jstr(out, n->algo);
    fprintf(out, ", \"deadlock_free\": %s", n->cyclic ? "false" : "true");
    if (n->cyclic) {
        fprintf(out, ", \"cycle\": ");
        jstr(out, n->cycle);
    }
    fprintf(out, "},\n \"points\": [\n");
}

void sf_sim_json_tail(const sf_sim_cfg *c, const double *offered, const double *accepted, const int *saturated, FILE *out)
{
    double best = -1;
    int first_sat = -1, lowest = 0;
    (void)offered;
    for (int i = 0; i < c->nloads; i++) {
        if (!(saturated[i] & SF_SIM_SAT_HOTSPOT) && accepted[i] > best)
            best = accepted[i];
        if (saturated[i] && (first_sat < 0 || c->loads[i] < c->loads[first_sat]))
            first_sat = i;
        if (c->loads[i] < c->loads[lowest])
            lowest = i;
    }
    if (best < 0) /* the hotspot host saturated at every point: the lowest load's */
        best = c->nloads ? accepted[lowest] : 0;
    fprintf(out, "\n ],\n \"saturation\": {\"rule\": \"a point is saturated when accepted < %.6g x offered traffic, or "
                 "(hotspot traffic) when the hotspot host accepts < %.6g x the traffic offered to it; throughput = the "
                 "highest accepted traffic of the points at which the hotspot host is not saturated (every point for "
                 "the other patterns)\", \"throughput_flits_ns_sw\": ",
            c->sat_ratio, c->sat_ratio);
    jnum(out, best);
    fprintf(out, ", \"throughput_flits_cycle_sw\": ");
    jnum(out, best * SF_SIM_NS_PER_CYCLE);
    fprintf(out, ", \"saturation_load\": ");
    if (first_sat >= 0)
        jnum(out, c->loads[first_sat]);
    else
        fputs("null", out);
    fprintf(out, "}}\n");
}

/* ------------------------------------------------------------------ one load point */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_cycles(net_t *net, uint64_t n, uint64_t *done, uint64_t total, sf_sim_progress prog, void *pctx)
{
    for (uint64_t i = 0; i < n; i++) {
        net_step(net);
        if (prog && ((++*done) & 16383u) == 0)
            prog(pctx, *done, total);
    }
}

static void lat_json(FILE *out, const char *name, const sf_lat *l, double scale)
{
    fprintf(out, "\"%s\": {\"avg\": ", name);
    jnum(out, l->avg * scale);
    fprintf(out, ", \"avg_network\": ");
    jnum(out, l->avg_net * scale);
    fprintf(out, ", \"p50\": ");
    jnum(out, l->p50 * scale);
    fprintf(out, ", \"p95\": ");
    jnum(out, l->p95 * scale);
    fprintf(out, ", \"p99\": ");
    jnum(out, l->p99 * scale);
    fprintf(out, ", \"max\": ");
    jnum(out, l->max * scale);
    fprintf(out, "}");
}

sf_nics *sf_sim_point_nics(const sf_sim_cfg *c, const sf_sim_net *n, int li, sf_err *e)
{
    const sf_topo *t = n->t;
    sf_nic_params np = c->nic;
    np.rate = c->loads[li] * SF_SIM_NS_PER_CYCLE * t->nsw / t->nhost / np.msg_size; /* messages per cycle per host */
    return sf_nics_new(t, n->rs, &np, e);
}

int sf_sim_point_build(const sf_sim_cfg *c, const sf_sim_net *n, int li, net_nic_fn nic_fn, void *nic_ctx,
                       sf_nics **nics_out, net_t **net_out, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    sf_nics *nics = sf_sim_point_nics(c, n, li, e);
    if (!nics)
        return -1;
    /* the fabric's description of the topology */
    unsigned *nports = calloc(S, sizeof *nports);
    net_link_desc *links = calloc(NL ? NL : 1, sizeof *links);
    net_host_desc *hosts = calloc(H, sizeof *hosts);
    if (!nports || !links || !hosts) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    for (unsigned s = 0; s < S; s++)
        nports[s] = (unsigned)t->sw[s].nports;
    for (unsigned l = 0; l < NL; l++)
        links[l] = (net_link_desc){(unsigned)t->ch_from[2 * l], (unsigned)t->ch_fport[2 * l], (unsigned)t->ch_to[2 * l],
                                   (unsigned)t->ch_tport[2 * l], c->link_delay};
    for (unsigned h = 0; h < H; h++)
        hosts[h] = (net_host_desc){(unsigned)t->host[h].sw, (unsigned)t->host[h].port, c->host_delay};
    net_desc d = {S, NL, H, nports, links, hosts};
    xbar_params_t xp = xbar_default_params();
    xp.SLACK_DEPTH = c->slack;
    xp.STOP_THRESH = c->stop;
    xp.GO_THRESH = c->go;
    xp.ROUTE_DELAY = c->route_delay;
    xp.TIMEOUT = c->timeout;
    xp.LINK_DELAY = 0; /* cables are the fabric's links */
    xp.COUNTERS = 0;
    char err[300];
    net_t *net = net_new(&d, net_switch_kind(c->kind), &xp, nic_fn ? nic_fn : sf_nics_step, nic_fn ? nic_ctx : nics, err, sizeof err);
    free(nports);
    free(links);
    free(hosts);
    if (!net) {
        snprintf(e->msg, sizeof e->msg, "%.250s: %.300s", c->topology, err);
        sf_nics_free(nics);
        return -1;
    }
    *nics_out = nics;
    *net_out = net;
    return 0;
}

int sf_sim_run_point(const sf_sim_cfg *c, const sf_sim_net *n, int li, FILE *out, int with_time, sf_sim_progress prog,
                     void *pctx, double *offered, double *accepted, int *saturated, double *seconds, double *flit_hops,
                     uint64_t *cycles_run, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    sf_nics *nics;
    net_t *net;
    const double load = c->loads[li];
    if (sf_sim_point_build(c, n, li, NULL, NULL, &nics, &net, e))
        return -1;
    net_set_busy_mask(net, 0x100, 0); /* a channel is busy in a cycle that carries a data character */
    net_set_skip(net, !c->no_skip);   /* quiet switches are skipped: same results, faster */
    const net_switch_ops *k = net_kind(net);
    const unsigned NC = net_nchannels(net);
    uint64_t *busy0 = calloc(NC, sizeof *busy0);
    if (!busy0) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    double t0 = now_s();
    uint64_t done = 0, total = c->warmup + c->cycles + c->drain;
    run_cycles(net, c->warmup, &done, total, prog, pctx);
    sf_nics_window_start(nics, net_cycle(net));
    for (unsigned ch = 0; ch < NC; ch++)
        busy0[ch] = net_channel_busy(net, ch);
    uint64_t tmo0 = k->ctr_timeout >= 0 ? net_counter_total(net, (unsigned)k->ctr_timeout) : 0;
    run_cycles(net, c->cycles, &done, total, prog, pctx);
    const uint64_t wend = net_cycle(net);
    uint64_t tmo_win = (k->ctr_timeout >= 0 ? net_counter_total(net, (unsigned)k->ctr_timeout) : 0) - tmo0;
    sf_nic_counts all, win;
    sf_nics_counts(nics, &all, &win);
    sf_lat lat;
    sf_nics_latency(nics, &lat);
    /* pools */
    double pool_avg_mean = 0, pool_avg_max = 0;
    uint64_t pool_max_pkts = 0, pool_max_bytes = 0;
    double *pavg = calloc(H, sizeof *pavg);
    uint64_t *pmax = calloc(H, sizeof *pmax);
    for (unsigned h = 0; h < H; h++) {
        double ab;
        uint64_t mb;
        sf_nics_pool(nics, h, wend, &pavg[h], &pmax[h], &ab, &mb);
        pool_avg_mean += pavg[h] / H;
        if (pavg[h] > pool_avg_max)
            pool_avg_max = pavg[h];
        if (pmax[h] > pool_max_pkts)
            pool_max_pkts = pmax[h];
        if (mb > pool_max_bytes)
            pool_max_bytes = mb;
    }
    /* links in the window */
    double W = (double)c->cycles;
    double umax = 0, usum = 0, inj = 0, ej = 0, hops_win = 0;
    for (unsigned ch = 0; ch < NC; ch++) {
        double b = (double)(net_channel_busy(net, ch) - busy0[ch]);
        hops_win += b;
        if (ch < 2 * NL) {
            usum += b / W;
            if (b / W > umax)
                umax = b / W;
        } else if (((ch - 2 * NL) & 1) == 0)
            inj += b / W / H;
        else
            ej += b / W / H;
    }
    /* drain */
    uint64_t drained = 0;
    if (c->drain) {
        sf_nics_generate(nics, 0);
        while (drained < c->drain) {
            uint64_t step = c->drain - drained < 1024 ? c->drain - drained : 1024;
            run_cycles(net, step, &done, total, prog, pctx);
            drained += step;
            if (sf_nics_in_flight(nics) == 0)
                break;
        }
        sf_nics_counts(nics, &all, NULL);
    }
    double secs = now_s() - t0;
    double hops_all = 0;
    for (unsigned ch = 0; ch < NC; ch++)
        hops_all += (double)net_channel_busy(net, ch);
    const double ns = SF_SIM_NS_PER_CYCLE;
    double off_c = (double)win.gen_bytes / W / S, acc_c = (double)win.deliv_bytes / W / S;
    *offered = off_c / ns;
    *accepted = acc_c / ns;
    /* the hotspot host alone (hotspot traffic): its own share can saturate while the total still passes */
    const int hot = sf_nics_hotspot(nics);
    const double hot_off = (double)win.hot_gen_bytes / W, hot_acc = (double)win.hot_deliv_bytes / W;
    const int hot_sat = hot >= 0 && hot_acc < c->sat_ratio * hot_off;
    *saturated = (acc_c < c->sat_ratio * off_c ? SF_SIM_SAT_TOTAL : 0) | (hot_sat ? SF_SIM_SAT_HOTSPOT : 0);
    *seconds = secs;
    *flit_hops = hops_all;
    *cycles_run = net_cycle(net);
    /* JSON */
    fprintf(out, "  {\"load\": ");
    jnum(out, load);
    fprintf(out, ", \"offered_flits_ns_sw\": ");
    jnum(out, *offered);
    fprintf(out, ", \"accepted_flits_ns_sw\": ");
    jnum(out, *accepted);
    fprintf(out, ", \"offered_flits_cycle_sw\": ");
    jnum(out, off_c);
    fprintf(out, ", \"accepted_flits_cycle_sw\": ");
    jnum(out, acc_c);
    fprintf(out, ", \"saturated\": %s,\n   ", *saturated ? "true" : "false");
    if (hot >= 0) {
        fprintf(out, "\"hotspot_host\": {\"host\": %d, \"offered_flits_ns\": ", hot);
        jnum(out, hot_off / ns);
        fprintf(out, ", \"accepted_flits_ns\": ");
        jnum(out, hot_acc / ns);
        fprintf(out, ", \"saturated\": %s},\n   ", hot_sat ? "true" : "false");
    }
    fprintf(out, "\"messages\": {\"window_generated\": %llu, \"window_delivered\": %llu, \"latency_samples\": %llu, "
                 "\"generated\": %llu, \"injected\": %llu, \"delivered\": %llu, \"in_flight\": %llu, \"queued\": %llu, "
                 "\"lost_aborted\": %llu, \"lost_crc\": %llu, \"lost_itb_pool\": %llu, \"misrouted\": %llu, \"duplicate\": %llu, "
                 "\"nic_rx_overflow\": %llu, \"drain_cycles\": %llu},\n   ",
            (unsigned long long)win.generated, (unsigned long long)win.delivered, (unsigned long long)lat.count,
            (unsigned long long)all.generated, (unsigned long long)all.injected, (unsigned long long)all.delivered,
            (unsigned long long)sf_nics_in_flight(nics), (unsigned long long)sf_nics_queued(nics),
            (unsigned long long)all.lost_aborted, (unsigned long long)all.lost_crc, (unsigned long long)all.lost_itb_pool,
            (unsigned long long)all.misrouted, (unsigned long long)all.duplicate, (unsigned long long)all.rx_overflow,
            (unsigned long long)drained);
    lat_json(out, "latency_cycles", &lat, 1.0);
    fprintf(out, ",\n   ");
    lat_json(out, "latency_ns", &lat, ns);
    fprintf(out, ",\n   \"itbs_per_msg\": ");
    jnum(out, lat.itbs_per_msg);
    fprintf(out, ", \"itb\": {\"packets\": %llu, \"reinjected\": %llu, \"pool_avg_pkts_mean\": ", (unsigned long long)all.itb_packets,
            (unsigned long long)all.itb_reinjected);
    jnum(out, pool_avg_mean);
    fprintf(out, ", \"pool_avg_pkts_max\": ");
    jnum(out, pool_avg_max);
    fprintf(out, ", \"pool_max_pkts\": %llu, \"pool_max_bytes\": %llu, \"per_nic_avg_max_pkts\": [",
            (unsigned long long)pool_max_pkts, (unsigned long long)pool_max_bytes);
    for (unsigned h = 0; h < H; h++) {
        fprintf(out, "%s[", h ? ", " : "");
        jnum(out, pavg[h]);
        fprintf(out, ", %llu]", (unsigned long long)pmax[h]);
    }
    fprintf(out, "]},\n   \"switches\": {\"forward_resets_window\": %llu", (unsigned long long)tmo_win);
    for (unsigned ctr = 0; ctr < k->nctr; ctr++) {
        const char *nm = k->counter_name(ctr);
        if (strstr(nm, "drop") || strstr(nm, "err") || strstr(nm, "malformed") || strstr(nm, "overflow"))
            fprintf(out, ", \"%s\": %llu", nm, (unsigned long long)net_counter_total(net, ctr));
    }
    fprintf(out, "},\n   \"flow_control\": {\"nic_stops\": %llu, \"nic_gos\": %llu},\n   ", (unsigned long long)all.stops_sent,
            (unsigned long long)all.gos_sent);
    fprintf(out, "\"links\": {\"mean_util\": ");
    jnum(out, NL ? usum / (2.0 * NL) : 0);
    fprintf(out, ", \"max_util\": ");
    jnum(out, umax);
    fprintf(out, ", \"host_inject_util\": ");
    jnum(out, inj);
    fprintf(out, ", \"host_eject_util\": ");
    jnum(out, ej);
    fprintf(out, ", \"flit_hops_window\": %.0f", hops_win);
    if (c->links) {
        fprintf(out, ",\n    \"per_channel\": [");
        for (unsigned ch = 0; ch < 2 * NL; ch++) {
            double b = (double)(net_channel_busy(net, ch) - busy0[ch]);
            fprintf(out, "%s[%d, %d, %d, %d, ", ch ? ", " : "", t->ch_from[ch], t->ch_fport[ch], t->ch_to[ch], t->ch_tport[ch]);
            jnum(out, b / W);
            fputc(']', out);
        }
        fprintf(out, "]");
    }
    fprintf(out, "}");
    if (with_time)
        fprintf(out, ",\n   \"perf\": {\"cycles\": %llu, \"seconds\": %.4f, \"cycles_per_s\": %.0f, \"flit_hops\": %.0f, "
                     "\"flit_hops_per_s\": %.0f, \"switch_cycles_skipped\": %.4f}",
                (unsigned long long)net_cycle(net), secs, (double)net_cycle(net) / secs, hops_all, hops_all / secs,
                (double)net_skipped(net) / ((double)net_cycle(net) * S));
    fprintf(out, "}");
    free(pavg);
    free(pmax);
    free(busy0);
    net_free(net);
    sf_nics_free(nics);
    return 0;
}
