/* sf_sim.c - configuration, one load point's run and JSON results of the network simulator (sf_sim.h). */
#include "sf_sim.h"

#include "link.h"
#include "net.h"
#include "sf_cli.h"
#include "sf_route_cli.h"
#include "sf_topo_cli.h"
#include "sf_util.h"
#include "vcsw_net.h"
#include "xbar.h"
#include "xbar_net.h"

#include <unistd.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ configuration keys */

enum {
    K_TOPOLOGY, K_ROUTES, K_TABLES, K_TOPOGEN, K_ROUTING, K_WTOPO, K_WROUTES, K_WTABLES, K_SWITCH, K_TRAFFIC, K_HOTSPOT, K_LOCAL, K_MSGSIZE, K_PKTFLITS, K_LOAD, K_WARMUP,
    K_CYCLES, K_DRAIN, K_SEED, K_LINKDELAY, K_HOSTDELAY, K_ROUTEDELAY, K_SLACK, K_STOP, K_GO, K_TIMEOUT, K_VCS, K_CTRL,
    K_FLITW, K_TAGW, K_DEPTH, K_MAXLEN, K_COUNTERS, K_CTRW, K_ITBDETECT, K_ITBDMA, K_ITBPOOL, K_ITBPRIO, K_NICBUF,
    K_NICSTOP, K_NICGO, K_NICDRAIN, K_ALT, K_ALLOWDL, K_DEADLOCK, K_SAT, K_LINKS, K_POLICY, K_THRESH, K_PROB,
    K_PROBEROUNDS, K_PROBEMARGIN, K_WORKLOAD, K_WLFILE, K_MSGBYTES, K_MESSAGES, K_MTU, K_ROOT, K_MAXCYC, K_NSPC, K_TIMING,
    K_NICINJ, K_NICDUPLEX, K_N
};

/* which kinds use a key */
enum { FOR_ALL = 3, FOR_XBAR = 1, FOR_VCSW = 2 };

static const struct {
    const char *name, *def, *vdef, *help; /* default for xbar (and every kind), for vcsw when it differs */
    unsigned char kinds;
} keys[K_N] = {
    [K_TOPOLOGY] = {"topology", "(needed)", NULL, "topology file (docs/topology.md); or topology-gen", FOR_ALL},
    [K_ROUTES] = {"routes", "(needed)", NULL, "sanfab-route route file (docs/routing.md); or routing", FOR_ALL},
    [K_TABLES] = {"tables", "(written)", NULL, "sanfab-route --rhinet tables of the route set (default: written from the routes)", FOR_VCSW},
    [K_TOPOGEN] = {"topology-gen", "(none)", NULL, "instead of topology: sanfab-topo's command line, no -o (random --switches 16 --seed 1)", FOR_ALL},
    [K_ROUTING] = {"routing", "(none)", NULL, "instead of routes: sanfab-route's command line, no topology, no outputs (dl --vcs 3)", FOR_ALL},
    [K_WTOPO] = {"write-topology", "(none)", NULL, "write the topology of topology-gen to this file (what sanfab-topo -o writes)", FOR_ALL},
    [K_WROUTES] = {"write-routes", "(none)", NULL, "write the routes of routing to this file (what sanfab-route -o writes)", FOR_ALL},
    [K_WTABLES] = {"write-tables", "(none)", NULL, "write the route set's RHiNET tables to this file (what sanfab-route --rhinet writes)", FOR_ALL},
    [K_SWITCH] = {"switch", "xbar", NULL, "switch kind: xbar (crossbars, Myrinet NICs) | vcsw (VC switches, RHiNET NICs)", FOR_ALL},
    [K_TRAFFIC] = {"traffic", "uniform", NULL, "uniform|bit-reversal|hotspot|local|transpose|complement|permutation|butterfly", FOR_ALL},
    [K_HOTSPOT] = {"hotspot", "5", NULL, "hotspot: percent of messages sent to the hotspot host", FOR_ALL},
    [K_LOCAL] = {"local", "3", NULL, "local: destinations at most L switches away", FOR_ALL},
    [K_MSGSIZE] = {"message-size", "512", NULL, "payload bytes per message (8..65536)", FOR_XBAR},
    [K_PKTFLITS] = {"packet-flits", "-", "128", "flits per packet, head and tail included (Koibuchi et al. 2003: 128)", FOR_VCSW},
    [K_LOAD] = {"load", "(required)", NULL, "offered load(s) 0 < x <= 1000: flits/ns/switch (xbar), flits/host/cycle (vcsw, x <= 1); one or more", FOR_ALL},
    [K_WARMUP] = {"warmup", "20000", "50000", "warm-up cycles before the measurement window", FOR_ALL},
    [K_CYCLES] = {"cycles", "100000", "950000", "measurement window in cycles", FOR_ALL},
    [K_DRAIN] = {"drain", "0", NULL, "after the window: stop generating, run until empty or this many cycles", FOR_ALL},
    [K_SEED] = {"seed", "1", NULL, "random seed (0..2^64-1)", FOR_ALL},
    [K_LINKDELAY] = {"link-delay", "8", "0", "cable delay in cycles (xbar: switch-switch, 10 m = 8; vcsw: every link, the switches' LINK_DELAY)", FOR_ALL},
    [K_HOSTDELAY] = {"host-delay", "8", NULL, "host-to-switch cable delay in cycles", FOR_XBAR},
    [K_ROUTEDELAY] = {"route-delay", "21", NULL, "crossbar ROUTE_DELAY (21: 150 ns fall-through)", FOR_XBAR},
    [K_SLACK] = {"slack", "80", NULL, "crossbar SLACK_DEPTH (bytes)", FOR_XBAR},
    [K_STOP] = {"stop", "56", NULL, "crossbar STOP_THRESH", FOR_XBAR},
    [K_GO] = {"go", "40", NULL, "crossbar GO_THRESH", FOR_XBAR},
    [K_TIMEOUT] = {"timeout", "1048576", NULL, "crossbar TIMEOUT: cycles without progress before a forward reset (0 = never)", FOR_XBAR},
    [K_VCS] = {"vcs", "-", "4", "VC switch NVC: VCs per link (2, 4, 8, 16)", FOR_VCSW},
    [K_CTRL] = {"ctrl", "-", "0", "VC switch CTRL: 1 = the upper half of the VCs carries control packets", FOR_VCSW},
    [K_FLITW] = {"flit-width", "-", "16", "VC switch FLIT_W: bits per flit", FOR_VCSW},
    [K_TAGW] = {"tag-width", "-", "12", "VC switch TAG_W: destination-tag bits (routing table of 2^TAG_W entries)", FOR_VCSW},
    [K_DEPTH] = {"depth", "-", "256", "VC switch DEPTH: buffer per input VC in flits", FOR_VCSW},
    [K_MAXLEN] = {"maxlen", "-", "(packet)", "VC switch MAXLEN: longest packet in flits (default: packet-flits)", FOR_VCSW},
    [K_COUNTERS] = {"counters", "-", "0", "VC switch COUNTERS", FOR_VCSW},
    [K_CTRW] = {"ctr-width", "-", "32", "VC switch CTR_WIDTH", FOR_VCSW},
    [K_ITBDETECT] = {"itb-detect", "44", NULL, "cycles from an in-transit packet's first byte to its detection (275 ns)", FOR_XBAR},
    [K_ITBDMA] = {"itb-dma", "32", NULL, "further cycles to set the re-injection DMA up (200 ns)", FOR_XBAR},
    [K_ITBPOOL] = {"itb-pool", "524288", NULL, "ITB pool per NIC in bytes", FOR_XBAR},
    [K_ITBPRIO] = {"itb-prio", "8", NULL, "local queue length from which local and in-transit packets alternate", FOR_XBAR},
    [K_NICBUF] = {"nic-buffer", "80", "256", "NIC receive buffer (xbar: bytes; vcsw: flits, STOP at buffer - packet - 2 x cable - 4)", FOR_ALL},
    [K_NICSTOP] = {"nic-stop", "56", NULL, "NIC sends STOP at this occupancy", FOR_XBAR},
    [K_NICGO] = {"nic-go", "40", NULL, "NIC sends GO at this occupancy", FOR_XBAR},
    [K_NICDRAIN] = {"nic-drain", "64", NULL, "bytes (flits) the NIC takes from its receive buffer per 64 cycles (64 = link rate)", FOR_ALL},
    [K_ALT] = {"alternatives", "random", NULL, "random|first: which of a pair's alternative routes a message takes", FOR_ALL},
    [K_ALLOWDL] = {"allow-deadlock", "no", NULL, "yes: run a route set with a dependency cycle", FOR_ALL},
    [K_DEADLOCK] = {"deadlock-limit", "100000", NULL, "stop a point after this many cycles without a flit moving while messages are in flight (0 = never)", FOR_ALL},
    [K_SAT] = {"saturation", "0.95", NULL, "a point is saturated when accepted < this x offered (and, hotspot traffic, the hotspot host's)", FOR_ALL},
    [K_LINKS] = {"links", "yes", NULL, "yes|no: per-channel utilisation in the JSON", FOR_ALL},
    [K_POLICY] = {"policy", "oblivious", NULL, "route policy among a pair's alternatives: static|oblivious|adaptive|probing (Geoffray and Hoefler 2008, sec. 4; vcsw: not probing)", FOR_ALL},
    [K_THRESH] = {"threshold", "4", NULL, "adaptive/probing: stopped packets since the last change before dispersion", FOR_ALL},
    [K_PROB] = {"probability", "100", NULL, "adaptive/probing: percent chance a stopped packet past the threshold disperses", FOR_ALL},
    [K_PROBEROUNDS] = {"probe-rounds", "2", NULL, "probing: busy probes allowed = rounds x (routes - 1), then the route changes anyway", FOR_XBAR},
    [K_PROBEMARGIN] = {"probe-margin", "64", NULL, "probing: cycles a probe may take over its unloaded time and still find its route free", FOR_XBAR},
    [K_WORKLOAD] = {"workload", "(none)", NULL, "run a message workload instead of loads: exchange|bridge|alltoall|alltoall-phased|bcast-serial|bcast-tree|gather|barrier", FOR_XBAR},
    [K_WLFILE] = {"workload-file", "(none)", NULL, "run the workload of this file instead of loads (docs/network.md \"Workloads\")", FOR_XBAR},
    [K_MSGBYTES] = {"message-bytes", "65536", NULL, "workload: bytes per message", FOR_XBAR},
    [K_MESSAGES] = {"messages", "1", NULL, "workload: messages per pair (exchange, bridge) or repetitions (the others)", FOR_XBAR},
    [K_MTU] = {"mtu", "4096", NULL, "workload: largest packet payload in bytes (MX 4096, FM 1536); messages are cut into packets", FOR_XBAR},
    [K_ROOT] = {"root", "0", NULL, "workload: root host of bcast-serial, bcast-tree and gather", FOR_XBAR},
    [K_MAXCYC] = {"max-cycles", "100000000", NULL, "workload: stop the run after this many cycles (the JSON says it did not finish)", FOR_XBAR},
    [K_NSPC] = {"ns-per-cycle", "6.25", NULL, "xbar: nanoseconds per cycle (one character on a link: Myrinet 6.25, Myri-10G 0.8)", FOR_XBAR},
    [K_NICINJ] = {"nic-inject", "64", NULL, "xbar: the host's rate into its NIC, bytes per 64 cycles (64 = link rate: no limit)", FOR_XBAR},
    [K_NICDUPLEX] = {"nic-duplex", "full", NULL, "xbar: full|half: half = the NIC's host side serves one direction at a time (LANai, Etsion et al. 2000): its rate (nic-inject) is shared by the copy of sent packets and the drain of received ones", FOR_XBAR},
    [K_TIMING] = {"timing", "(none)", NULL, "a timing set: a name (myrinet2000, myri10g: sw/sim/timing/NAME.cfg) or a file of keys", FOR_ALL},
};

static int key_index(const char *k)
{
    for (int i = 0; i < K_N; i++)
        if (strcmp(k, keys[i].name) == 0)
            return i;
    return -1;
}

int sf_sim_is_key(const char *key) { return key_index(key) >= 0; }

const char *sf_sim_key_suggest(const char *given)
{
    const char *names[K_N];
    for (int i = 0; i < K_N; i++)
        names[i] = keys[i].name;
    return sf_cli_suggest(given, names, K_N);
}

/* " (did you mean X?)" for a misspelt name among the comma-separated list `list` ("a, b, c"), or "" */
static const char *dym_list(char *buf, size_t len, const char *given, const char *list)
{
    char copy[600];
    const char *names[64];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *tok = strtok(copy, ", "); tok && n < 64; tok = strtok(NULL, ", "))
        names[n++] = tok;
    return sf_cli_did_you_mean(buf, len, given, names, n);
}

/* the unknown key message: "WHERE: unknown key "K" (did you mean X?)" */
static int unknown_key(sf_err *e, const char *where, const char *key, int cmdline)
{
    const char *s = sf_sim_key_suggest(key);
    if (s)
        snprintf(e->msg, sizeof e->msg, "%.240s: unknown %s \"%.100s\" (did you mean %s%s?)", where, cmdline ? "option" : "key", key,
                 cmdline ? "--" : "", s);
    else
        snprintf(e->msg, sizeof e->msg, "%.240s: unknown %s \"%.100s\" (sanfab-sim --help lists the keys)", where,
                 cmdline ? "option" : "key", key);
    return -1;
}

void sf_sim_keys_help(FILE *f)
{
    fprintf(f, "  %-15s %-8s %-8s %s\n", "KEY", "xbar", "vcsw", "meaning (\"-\": not a key of that kind)");
    for (int i = 0; i < K_N; i++)
        fprintf(f, "  %-15s %-8s %-8s %s\n", keys[i].name, keys[i].kinds & FOR_XBAR ? keys[i].def : "-",
                !(keys[i].kinds & FOR_VCSW) ? "-" : keys[i].vdef ? keys[i].vdef : keys[i].def, keys[i].help);
}

const char *sf_sim_load_unit(const sf_sim_cfg *c) { return c->k == SF_KIND_VCSW ? "flits/host/cycle" : "flits/ns/switch"; }

void sf_sim_cfg_default(sf_sim_cfg *c)
{
    memset(c, 0, sizeof *c);
    strcpy(c->kind, "xbar");
    c->k = SF_KIND_XBAR;
    c->tr.pattern = SF_TR_UNIFORM;
    c->tr.hotspot_frac = 0.05;
    c->tr.local_l = 3;
    c->tr.seed = 1;
    sf_nic_params_default(&c->nic);
    sf_vcnic_params_default(&c->vnic);
    c->vcsw = vcsw_default_params();
    c->vcsw.NVC = 4;
    c->vcsw.CTRL = 0;
    c->vcsw.TAG_W = 12;
    c->vcsw.DEPTH = 256;
    c->vcsw.MAXLEN = 128;
    c->vcsw.COUNTERS = 0;
    c->deadlock_limit = 100000;
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
    c->ns_per_cycle = SF_SIM_NS_PER_CYCLE;
    c->wlp.bytes = 65536;
    c->wlp.messages = 1;
    c->mtu = 4096;
    c->max_cycles = 100000000;
}

/* 1 if s is one of the built-in workloads' names */
static int is_workload(const char *s)
{
    const char *l = sf_workload_names();
    const size_t n = strlen(s);
    while (n && *l) {
        const char *end = strchr(l, ',');
        const size_t m = end ? (size_t)(end - l) : strlen(l);
        if (m == n && !strncmp(l, s, n))
            return 1;
        l = end ? end + 2 : l + m;
    }
    return 0;
}

static int bad(sf_err *e, const char *where, const char *key, const char *why, const char *value)
{
    snprintf(e->msg, sizeof e->msg, "%.240s: %.60s: %.180s (got \"%.80s\")", where, key, why, value);
    return -1;
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
    if (k < 0)
        return unknown_key(e, where, key, 0);
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
    case K_ROUTES:
    case K_TABLES: {
        char *dst = k == K_TOPOLOGY ? c->topology : k == K_ROUTES ? c->routes : c->tables;
        if (!*value || strlen(value) >= sizeof c->topology)
            return bad(e, where, key, "empty or too long path", value);
        strcpy(dst, value);
        break;
    }
    case K_TOPOGEN:
    case K_ROUTING: {
        /* sanfab-topo's / sanfab-route's own parser: the same options, ranges and messages (sf_topo_cli.c, sf_route_cli.c) */
        char line[1024], *argv[256];
        if (strlen(value) >= sizeof line)
            return bad(e, where, key, "line too long (at most 1023 characters)", "...");
        strcpy(line, value);
        const int argc = sf_cli_split(line, argv, 256);
        if (argc <= 0)
            return bad(e, where, key, k == K_TOPOGEN ? "expected a generator and its options, e.g. random --switches 16 --seed 1"
                                                    : "expected an algorithm and its options, e.g. itb --seed 1", value);
        sf_err pe = {{0}};
        sf_topo_cli ta;
        sf_route_cli ra;
        const int rc = k == K_TOPOGEN ? sf_topo_cli_parse(&ta, argc, argv, 0, &pe) : sf_route_cli_parse(&ra, argc, argv, 0, &pe);
        if (rc != SF_CLI_OK) {
            snprintf(e->msg, sizeof e->msg, "%.200s: %.20s: %.360s", where, key, pe.msg);
            return -1;
        }
        snprintf(k == K_TOPOGEN ? c->topology_gen : c->routing, sizeof c->routing, "%s", value);
        snprintf(k == K_TOPOGEN ? c->topology_desc : c->routing_desc, sizeof c->routing_desc, "%.240s: %s %s", where, key, value);
        break;
    }
    case K_WTOPO:
    case K_WROUTES:
    case K_WTABLES:
        if (!*value || strlen(value) >= sizeof c->write_topology)
            return bad(e, where, key, "empty or too long path", value);
        strcpy(k == K_WTOPO ? c->write_topology : k == K_WROUTES ? c->write_routes : c->write_tables, value);
        break;
    case K_SWITCH:
        if (strcmp(value, "xbar") && strcmp(value, "vcsw")) {
            char why[300], dym[80];
            snprintf(why, sizeof why, "unknown switch kind%s (xbar or vcsw; the Maestro switch box is not a sanfab-sim network yet)",
                     dym_list(dym, sizeof dym, value, "xbar, vcsw"));
            return bad(e, where, key, why, value);
        }
        snprintf(c->kind, sizeof c->kind, "%s", value);
        c->k = strcmp(value, "vcsw") == 0 ? SF_KIND_VCSW : SF_KIND_XBAR;
        break;
    case K_TRAFFIC: {
        int t = sf_pattern_parse(value);
        if (t < 0) {
            char why[400], dym[80];
            snprintf(why, sizeof why, "unknown pattern%s (%s)", dym_list(dym, sizeof dym, value, sf_pattern_names()), sf_pattern_names());
            return bad(e, where, key, why, value);
        }
        c->tr.pattern = (sf_pattern)t;
        break;
    }
    case K_HOTSPOT:
        if (parse_dbl(value, 0, 100, &d))
            return bad(e, where, key, "expected a percentage 0..100", value);
        c->tr.hotspot_frac = d / 100.0;
        break;
    case K_LOCAL:
        if (sf_parse_u64(value, 1, 1000000, &u))
            return bad(e, where, key, "expected a whole number of switches 1..1000000", value);
        c->tr.local_l = (int)u;
        break;
    case K_MSGSIZE:
        if (sf_parse_u64(value, 8, 65536, &u))
            return bad(e, where, key, "expected bytes 8..65536", value);
        c->nic.msg_size = (unsigned)u;
        break;
    case K_PKTFLITS:
        if (sf_parse_u64(value, 2, 256, &u))
            return bad(e, where, key, "expected flits 2..256 (the VC switch's largest MAXLEN)", value);
        c->vnic.packet_flits = (unsigned)u;
        break;
    case K_LOAD: {
        /* one or more numbers, separated by spaces or commas; an empty item (a comma with no number on one side) is an
         * error, never skipped */
        char buf[4096];
        if (strlen(value) >= sizeof buf)
            return bad(e, where, key, "list too long (at most 4095 characters)", "...");
        strcpy(buf, value);
        int n = 0, need = 0; /* need: a comma was seen, a number must follow */
        char *p = buf;
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p == ',' || (!*p && need))
                return bad(e, where, key, "empty item in the list of loads (a comma with no number on one side)", value);
            if (!*p)
                break;
            char *tok = p;
            while (*p && *p != ' ' && *p != '\t' && *p != ',')
                p++;
            const char term = *p;
            *p = 0;
            if (term)
                p++;
            if (n == SF_SIM_MAX_LOADS)
                return bad(e, where, key, "more than 256 load points", value);
            if (parse_dbl(tok, 0, 1000, &d) || d <= 0)
                return bad(e, where, key, "expected loads 0 < x <= 1000 (flits/ns/switch for xbar; flits/host/cycle for vcsw, "
                                          "where x <= 1)", tok);
            c->loads[n++] = d;
            need = term == ',';
            if (!need) {
                while (*p == ' ' || *p == '\t')
                    p++;
                if (*p == ',') {
                    p++;
                    need = 1;
                }
            }
        }
        if (!n)
            return bad(e, where, key, "expected at least one load (0 < x <= 1000)", value);
        c->nloads = n;
        break;
    }
    case K_WARMUP:
    case K_CYCLES:
    case K_DRAIN:
        if (sf_parse_u64(value, k == K_CYCLES ? 1 : 0, 1000000000000ull, &u))
            return bad(e, where, key, k == K_CYCLES ? "expected cycles 1..10^12" : "expected cycles 0..10^12", value);
        *(k == K_WARMUP ? &c->warmup : k == K_CYCLES ? &c->cycles : &c->drain) = u;
        break;
    case K_SEED:
        if (sf_parse_u64(value, 0, UINT64_MAX, &u))
            return bad(e, where, key, "expected a whole number 0..2^64-1", value);
        c->tr.seed = u;
        break;
    case K_LINKDELAY:
    case K_HOSTDELAY:
        if (sf_parse_u64(value, 0, NET_MAX_DELAY, &u))
            return bad(e, where, key, "expected cycles 0..4096", value);
        *(k == K_LINKDELAY ? &c->link_delay : &c->host_delay) = (unsigned)u;
        break;
    case K_ROUTEDELAY:
    case K_SLACK:
    case K_STOP:
    case K_GO:
        if (sf_parse_u64(value, 0, k == K_ROUTEDELAY ? 255 : 8191, &u))
            return bad(e, where, key, k == K_ROUTEDELAY ? "expected a whole number 0..255" : "expected a whole number 0..8191", value);
        *(k == K_ROUTEDELAY ? &c->route_delay : k == K_SLACK ? &c->slack : k == K_STOP ? &c->stop : &c->go) = (unsigned)u;
        break;
    case K_TIMEOUT:
        if (sf_parse_u64(value, 0, (1u << 24) - 1u, &u) || u == 1)
            return bad(e, where, key, "expected 0 (never) or cycles 2..16777215", value);
        c->timeout = (unsigned)u;
        break;
    case K_VCS:
        if (sf_parse_u64(value, 2, 16, &u) || (u & (u - 1)))
            return bad(e, where, key, "expected 2, 4, 8 or 16 VCs", value);
        c->vcsw.NVC = (unsigned)u;
        break;
    case K_CTRL:
    case K_COUNTERS:
        if (sf_parse_u64(value, 0, 1, &u))
            return bad(e, where, key, "expected 0 or 1", value);
        *(k == K_CTRL ? &c->vcsw.CTRL : &c->vcsw.COUNTERS) = (unsigned)u;
        break;
    case K_FLITW:
    case K_TAGW:
    case K_CTRW:
        if (sf_parse_u64(value, 1, 32, &u))
            return bad(e, where, key, "expected bits 1..32 (checked with the other VC switch parameters)", value);
        *(k == K_FLITW ? &c->vcsw.FLIT_W : k == K_TAGW ? &c->vcsw.TAG_W : &c->vcsw.CTR_WIDTH) = (unsigned)u;
        break;
    case K_DEPTH:
    case K_MAXLEN:
        if (sf_parse_u64(value, 1, 256, &u))
            return bad(e, where, key, "expected flits 1..256 (checked with the other VC switch parameters)", value);
        *(k == K_DEPTH ? &c->vcsw.DEPTH : &c->vcsw.MAXLEN) = (unsigned)u;
        break;
    case K_ITBDETECT:
    case K_ITBDMA:
    case K_ITBPRIO:
        if (sf_parse_u64(value, 0, 1000000, &u))
            return bad(e, where, key, "expected a whole number 0..1000000", value);
        *(k == K_ITBDETECT ? &c->nic.itb_detect : k == K_ITBDMA ? &c->nic.itb_dma : &c->nic.prio_equal) = (unsigned)u;
        break;
    case K_ITBPOOL:
        if (sf_parse_u64(value, 0, U32 * 1024, &u))
            return bad(e, where, key, "expected bytes 0..2^42", value);
        c->nic.itb_pool = u;
        break;
    case K_NICBUF:
    case K_NICSTOP:
    case K_NICGO:
        if (sf_parse_u64(value, k == K_NICBUF ? 1 : 0, 65536, &u))
            return bad(e, where, key, k == K_NICBUF ? "expected bytes (flits) 1..65536" : "expected bytes 0..65536", value);
        if (k == K_NICBUF)
            c->nic.rx_buf = c->vnic.rx_buf = (unsigned)u;
        else
            *(k == K_NICSTOP ? &c->nic.rx_stop : &c->nic.rx_go) = (unsigned)u;
        break;
    case K_NICDRAIN:
        if (sf_parse_u64(value, 1, 64, &u))
            return bad(e, where, key, "expected bytes (flits) per 64 cycles 1..64", value);
        c->nic.rx_drain_per_64 = c->vnic.rx_drain_per_64 = (unsigned)u;
        break;
    case K_NICINJ:
        if (sf_parse_u64(value, 1, 64, &u))
            return bad(e, where, key, "expected bytes per 64 cycles 1..64", value);
        c->nic.tx_per_64 = (unsigned)u;
        break;
    case K_NICDUPLEX:
        if (strcmp(value, "full") && strcmp(value, "half"))
            return bad(e, where, key, "expected full or half", value);
        c->nic.half_duplex = strcmp(value, "half") == 0;
        break;
    case K_ALT:
        if (strcmp(value, "random") && strcmp(value, "first"))
            return bad(e, where, key, "expected random or first", value);
        c->nic.pol.kind = c->vnic.pol.kind = strcmp(value, "random") == 0 ? SF_POL_OBLIVIOUS : SF_POL_FIRST;
        break;
    case K_POLICY: {
        int pk = sf_policy_parse(value);
        if (pk < 0) {
            char why[200], dym[80];
            snprintf(why, sizeof why, "unknown policy%s (static, oblivious, adaptive, probing)",
                     dym_list(dym, sizeof dym, value, "static, oblivious, adaptive, probing"));
            return bad(e, where, key, why, value);
        }
        c->nic.pol.kind = c->vnic.pol.kind = (sf_policy_kind)pk;
        break;
    }
    case K_THRESH:
    case K_PROBEROUNDS:
    case K_PROBEMARGIN:
    case K_ROOT:
        if (sf_parse_u64(value, k == K_PROBEROUNDS ? 1 : 0, 1000000, &u))
            return bad(e, where, key, k == K_PROBEROUNDS ? "expected a whole number 1..1000000" : "expected a whole number 0..1000000",
                       value);
        *(k == K_THRESH ? &c->nic.pol.threshold : k == K_PROBEROUNDS ? &c->nic.pol.probe_rounds
                        : k == K_PROBEMARGIN ? &c->nic.probe_margin : &c->wlp.root) = (unsigned)u;
        if (k == K_THRESH)
            c->vnic.pol.threshold = (unsigned)u;
        break;
    case K_PROB:
        if (parse_dbl(value, 0, 100, &d))
            return bad(e, where, key, "expected a percentage 0..100", value);
        c->nic.pol.probability = c->vnic.pol.probability = d / 100.0;
        break;
    case K_WORKLOAD:
        if (!is_workload(value)) {
            char why[400], dym[80];
            snprintf(why, sizeof why, "unknown workload%s (%s; workload-file for your own)",
                     dym_list(dym, sizeof dym, value, sf_workload_names()), sf_workload_names());
            return bad(e, where, key, why, value);
        }
        snprintf(c->workload, sizeof c->workload, "%s", value);
        break;
    case K_WLFILE:
    case K_TIMING:
        if (!*value || strlen(value) >= sizeof c->workload_file)
            return bad(e, where, key, "empty or too long path", value);
        snprintf(k == K_WLFILE ? c->workload_file : c->timing, sizeof c->timing, "%s", value);
        break;
    case K_MSGBYTES:
        if (sf_parse_u64(value, 1, 1ull << 40, &u))
            return bad(e, where, key, "expected bytes 1..2^40", value);
        c->wlp.bytes = u;
        break;
    case K_MESSAGES:
        if (sf_parse_u64(value, 1, 1000000000, &u))
            return bad(e, where, key, "expected a whole number 1..10^9", value);
        c->wlp.messages = (unsigned)u;
        break;
    case K_MTU:
        if (sf_parse_u64(value, 16, 65536, &u))
            return bad(e, where, key, "expected bytes 16..65536", value);
        c->mtu = (unsigned)u;
        break;
    case K_MAXCYC:
        if (sf_parse_u64(value, 1, 1000000000000ull, &u))
            return bad(e, where, key, "expected cycles 1..10^12", value);
        c->max_cycles = u;
        break;
    case K_NSPC:
        if (parse_dbl(value, 0.001, 1000000, &d))
            return bad(e, where, key, "expected nanoseconds 0.001..10^6", value);
        c->ns_per_cycle = d;
        break;
    case K_DEADLOCK:
        if (sf_parse_u64(value, 0, 1000000000000ull, &u))
            return bad(e, where, key, "expected cycles 0..10^12 (0 = never)", value);
        c->deadlock_limit = u;
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
    c->given[k] = 1;
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

static int read_keys(sf_sim_cfg *c, const char *path, int timing, sf_err *e);

/* 1 if the command line gave the other way to name what key k names (--topology-gen for a file's topology,
 * --routes for its routing, ...): the command line overrides the file, whichever way it names the thing */
static int overridden(const sf_sim_cfg *c, int k)
{
    switch (k) {
    case K_TOPOLOGY: return c->set_cmd[K_TOPOGEN];
    case K_TOPOGEN: return c->set_cmd[K_TOPOLOGY];
    case K_ROUTES:
    case K_TABLES: return c->set_cmd[K_ROUTING];
    case K_ROUTING: return c->set_cmd[K_ROUTES];
    default: return 0;
    }
}

/* the file of a timing set: a path (has a '/' or ends in .cfg), else NAME -> sw/sim/timing/NAME.cfg beside the
 * tool (its directory's ../sim/timing) */
static void timing_path(const char *v, char *out, size_t n)
{
    const size_t L = strlen(v);
    if (strchr(v, '/') || (L > 4 && !strcmp(v + L - 4, ".cfg"))) {
        snprintf(out, n, "%s", v);
        return;
    }
    char exe[1024];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) {
        snprintf(out, n, "sw/sim/timing/%s.cfg", v);
        return;
    }
    exe[k] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    snprintf(out, n, "%s/../sim/timing/%s.cfg", exe, v);
}

/* the timing set `v` gives the keys nothing else has given yet (`where` names who asked for it) */
static int apply_timing(sf_sim_cfg *c, const char *v, const char *where, sf_err *e)
{
    char path[1100];
    timing_path(v, path, sizeof path);
    if (access(path, R_OK) != 0) {
        snprintf(e->msg, sizeof e->msg, "%.100s: timing: no timing set \"%.60s\" (%.250s: %.40s; the sets: myrinet2000, myri10g, "
                 "or a file)", where, v, path, strerror(errno));
        return -1;
    }
    return read_keys(c, path, 1, e);
}

int sf_sim_cfg_read(sf_sim_cfg *c, const char *path, sf_err *e) { return read_keys(c, path, 0, e); }

/* a config file (timing 0), or a timing set's file (timing 1: only keys not given yet, no timing key in it) */
static int read_keys(sf_sim_cfg *c, const char *path, int timing, sf_err *e)
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
            rc = unknown_key(e, where, key, 0);
            break;
        }
        if (timing && (k == K_TIMING || k == K_TOPOLOGY || k == K_ROUTES || k == K_TABLES || k == K_WORKLOAD || k == K_WLFILE ||
                       k == K_TOPOGEN || k == K_ROUTING || k == K_WTOPO || k == K_WROUTES || k == K_WTABLES)) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s is not a timing key", where, key);
            rc = -1;
            break;
        }
        if (timing && c->given[k])
            continue;
        if (!timing && c->set_line[k]) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s given twice (first at line %d)", where, key, c->set_line[k]);
            rc = -1;
            break;
        }
        if (!*p) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s needs a value", where, key);
            rc = -1;
            break;
        }
        if (k != K_LOAD && k != K_TOPOGEN && k != K_ROUTING && strpbrk(p, " \t")) {
            snprintf(e->msg, sizeof e->msg, "%.240s: %.60s takes one value (got \"%.200s\")", where, key, p);
            rc = -1;
            break;
        }
        if (c->set_cmd[k] || overridden(c, k)) { /* the command line overrides the file */
            c->set_line[k] = ln;
            continue;
        }

        char val[2048];
        if (k == K_TOPOLOGY || k == K_ROUTES || k == K_TABLES || k == K_WLFILE || k == K_WTOPO || k == K_WROUTES || k == K_WTABLES ||
            (k == K_TIMING && (strchr(p, '/') || (strlen(p) > 4 && !strcmp(p + strlen(p) - 4, ".cfg"))))) {
            join_dir(val, sizeof val, path, p);
            p = val;
        }
        if (sf_sim_cfg_set(c, key, p, where, 0, e)) {
            rc = -1;
            break;
        }
        if (timing)
            continue;
        c->set_line[k] = ln;
        if (k == K_TIMING && (c->timing_done = 1) && apply_timing(c, c->timing, where, e)) {
            rc = -1;
            break;
        }
    }
    if (!rc && !header) {
        snprintf(e->msg, sizeof e->msg, "%.400s:%d: first line must be \"sanfab-sim 1\"", path, ln ? ln : 1);
        rc = -1;
    }
    /* a file that names its topology (routes) both ways: refused at the later line */
    static const int pairs[3][2] = {{K_TOPOLOGY, K_TOPOGEN}, {K_ROUTES, K_ROUTING}, {K_TABLES, K_ROUTING}};
    for (int i = 0; i < 3 && !rc && !timing; i++) {
        const int a = pairs[i][0], b = pairs[i][1];
        if (c->set_line[a] && c->set_line[b] && !c->set_cmd[a] && !c->set_cmd[b] && !overridden(c, a) && !overridden(c, b)) {
            const int first = c->set_line[a] < c->set_line[b] ? a : b, later = first == a ? b : a;
            snprintf(e->msg, sizeof e->msg, "%.300s:%d: %s and %s (line %d) both given: %s", path, c->set_line[later],
                     keys[later].name, keys[first].name, c->set_line[first],
                     i == 0 ? "a run takes its topology from a file (topology) or from a generator (topology-gen), not both"
                     : i == 1 ? "a run reads its routes from a file (routes) or computes them (routing), not both"
                              : "tables are the sanfab-route --rhinet file of a routes file; with routing they are written "
                                "from the computed routes (write-tables FILE keeps them)");
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

void sf_sim_cfg_kind_defaults(sf_sim_cfg *c)
{
    if (c->k != SF_KIND_VCSW)
        return;
    if (!c->given[K_LINKDELAY])
        c->link_delay = 0;
    if (!c->given[K_WARMUP])
        c->warmup = 50000;
    if (!c->given[K_CYCLES])
        c->cycles = 950000;
    if (!c->given[K_NICBUF])
        c->vnic.rx_buf = 256;
    if (!c->given[K_MAXLEN])
        c->vcsw.MAXLEN = c->vnic.packet_flits;
    c->vcsw.LINK_DELAY = c->link_delay;
    c->vnic.link_delay = c->link_delay;
    c->vnic.flit_w = c->vcsw.FLIT_W;
    c->vnic.tag_w = c->vcsw.TAG_W;
    c->vnic.nvc = c->vcsw.NVC;
}

/* where key k was given, for messages: "line N" of the config file, or "command line" */
static const char *origin(char b[32], const sf_sim_cfg *c, int k)
{
    if (c->set_line[k] && !c->set_cmd[k])
        snprintf(b, 32, "line %d", c->set_line[k]);
    else
        snprintf(b, 32, "command line");
    return b;
}

int sf_sim_cfg_check(sf_sim_cfg *c, sf_err *e)
{
    char o1[32], o2[32];
    if (c->timing[0] && !c->timing_done) { /* --timing: its keys come after the command line's and the file's */
        c->timing_done = 1;
        if (apply_timing(c, c->timing, "--timing", e))
            return -1;
    }
    if (c->topology[0] && c->topology_gen[0]) {
        snprintf(e->msg, sizeof e->msg, "topology (%s) and topology-gen (%s) both given: a run takes its topology from a file or from a "
                 "generator, not both (on the command line, either one overrides the config file's)", origin(o1, c, K_TOPOLOGY), origin(o2, c, K_TOPOGEN));
        return -1;
    }
    if (c->routes[0] && c->routing[0]) {
        snprintf(e->msg, sizeof e->msg, "routes (%s) and routing (%s) both given: a run reads its routes from a file or computes them with "
                 "an algorithm, not both (on the command line, either one overrides the config file's)", origin(o1, c, K_ROUTES), origin(o2, c, K_ROUTING));
        return -1;
    }
    if (c->tables[0] && c->routing[0]) {
        snprintf(e->msg, sizeof e->msg, "tables and routing both given: tables are the sanfab-route --rhinet file of a routes "
                 "file; with routing they are written from the computed routes (write-tables FILE keeps them)");
        return -1;
    }
    if (c->write_topology[0] && !c->topology_gen[0]) {
        snprintf(e->msg, sizeof e->msg, "write-topology without topology-gen: it writes the generated topology (this run reads %.400s)",
                 c->topology[0] ? c->topology : "none");
        return -1;
    }
    if (c->write_routes[0] && !c->routing[0]) {
        snprintf(e->msg, sizeof e->msg, "write-routes without routing: it writes the computed routes (this run reads %.400s)",
                 c->routes[0] ? c->routes : "none");
        return -1;
    }
    if (c->write_tables[0] && c->tables[0]) {
        snprintf(e->msg, sizeof e->msg, "write-tables and tables both given: write-tables writes the tables made from the routes");
        return -1;
    }
    if ((!c->topology[0] && !c->topology_gen[0]) || (!c->routes[0] && !c->routing[0])) {
        const int t = !c->topology[0] && !c->topology_gen[0];
        snprintf(e->msg, sizeof e->msg, "no %s given (config key %s, or --%s)", t ? "topology" : "routes",
                 t ? "topology FILE or topology-gen KIND [options]" : "routes FILE or routing ALGORITHM [options]",
                 t ? "topology / --topology-gen" : "routes / --routing");
        return -1;
    }
    {
        const char *w[3] = {c->write_topology, c->write_routes, c->write_tables};
        const char *wn[3] = {"write-topology", "write-routes", "write-tables"};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < i; j++)
                if (w[i][0] && !strcmp(w[i], w[j])) {
                    snprintf(e->msg, sizeof e->msg, "%s and %s name the same file %.300s", wn[j], wn[i], w[i]);
                    return -1;
                }
    }
    const int wl = c->workload[0] || c->workload_file[0];
    if (c->workload[0] && c->workload_file[0]) {
        snprintf(e->msg, sizeof e->msg, "workload and workload-file both given: one workload a run");
        return -1;
    }
    if (!c->nloads && !wl) {
        snprintf(e->msg, sizeof e->msg, "no load given (config key \"load\" or --load), and no workload");
        return -1;
    }
    if (c->nloads && wl) {
        snprintf(e->msg, sizeof e->msg, "load and a workload both given: a run is either constant-rate loads or one workload");
        return -1;
    }
    if (c->given[K_ALT] && c->given[K_POLICY]) {
        snprintf(e->msg, sizeof e->msg, "alternatives and policy both given (alternatives random = policy oblivious; first = "
                 "always the first route)");
        return -1;
    }
    if (!wl)
        for (int k = K_MSGBYTES; k <= K_MAXCYC; k++)
            if (c->given[k]) {
                snprintf(e->msg, sizeof e->msg, "%s is a workload key, and this run has no workload (workload or workload-file)",
                         keys[k].name);
                return -1;
            }
    /* a probe's unloaded time: both host cables, and per switch its header-to-first-byte latency (docs/xbar.md
     * "Latency": max(4, ROUTE_DELAY + 3)) and a cable */
    c->nic.probe_base = 2 * c->host_delay + 8;
    c->nic.probe_per_switch = (c->route_delay + 3 > 4 ? c->route_delay + 3 : 4) + c->link_delay;
    const unsigned kbit = c->k == SF_KIND_VCSW ? FOR_VCSW : FOR_XBAR;
    for (int k = 0; k < K_N; k++)
        if (c->given[k] && !(keys[k].kinds & kbit)) {
            snprintf(e->msg, sizeof e->msg, "%s is a key of the %s, and this run's switch is %s (sanfab-sim --help: the keys "
                     "of each kind)", keys[k].name, kbit == FOR_VCSW ? "crossbar network (switch xbar)" : "VC-switch network (switch vcsw)",
                     c->kind);
            return -1;
        }
    if (c->k == SF_KIND_XBAR) {
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
    /* the VC network: its defaults for the keys not given, then its checks */
    if (c->vnic.pol.kind == SF_POL_PROBING) {
        snprintf(e->msg, sizeof e->msg, "policy probing needs the crossbar network's NICs (probe packets); the VC network "
                 "runs static, oblivious and adaptive");
        return -1;
    }
    sf_sim_cfg_kind_defaults(c);
    vcsw_params_t p = c->vcsw;
    p.NPORTS = 8; /* every switch's own port count is checked when the network is built */
    const char *why = vcsw_params_check(&p);
    if (why) {
        snprintf(e->msg, sizeof e->msg, "VC switch parameters (vcs/ctrl/flit-width/tag-width/depth/maxlen/link-delay/counters/"
                 "ctr-width): %s", why);
        return -1;
    }
    if (c->vnic.packet_flits > c->vcsw.MAXLEN) {
        snprintf(e->msg, sizeof e->msg, "packet-flits %u is longer than the switches' maxlen %u: every packet would be cut",
                 c->vnic.packet_flits, c->vcsw.MAXLEN);
        return -1;
    }
    const unsigned idf = sf_vcnic_id_flits(c->vcsw.FLIT_W);
    if (c->vnic.packet_flits < 1 + idf) {
        snprintf(e->msg, sizeof e->msg, "packet-flits %u too short: the head and %u flits of source and sequence number "
                 "(flit-width %u) need %u", c->vnic.packet_flits, idf, c->vcsw.FLIT_W, 1 + idf);
        return -1;
    }
    if (sf_vcnic_stop_at(&c->vnic) < 1) {
        snprintf(e->msg, sizeof e->msg, "nic-buffer %u flits too small: it needs packet-flits (%u) + 2 x link-delay (%u) + 5",
                 c->vnic.rx_buf, c->vnic.packet_flits, c->link_delay);
        return -1;
    }
    for (int i = 0; i < c->nloads; i++)
        if (c->loads[i] > 1) {
            snprintf(e->msg, sizeof e->msg, "load %g flits/host/cycle: the VC network takes loads 0 < x <= 1 (a host link carries at most 1 flit a cycle)", c->loads[i]);
            return -1;
        }
    return 0;
}

/* ------------------------------------------------------------------ network */

/* The run's topology and routes as messages name them: the file, or the generator / algorithm line and where it was
 * given. */
static int write_file(const char *path, const char *what, const void *obj, sf_err *e);
static const char *TN(const sf_sim_cfg *c) { return c->topology[0] ? c->topology : c->topology_desc; }
static const char *RN(const sf_sim_cfg *c) { return c->routes[0] ? c->routes : c->routing_desc; }

/* The decoded tables of one switch: tag -> port (-1 none), (in, out, data VC) -> VC (-1 none). */
typedef struct {
    int8_t *rt;
    int8_t vt[16][16][16];
} dtab_t;

static void decode(const vcsw_tables_t *ts, unsigned ntags, dtab_t *d)
{
    memset(d->rt, -1, ntags);
    memset(d->vt, -1, sizeof d->vt);
    for (size_t i = 0; i < ts->nwrites; i++) {
        const unsigned sp = ts->writes[i].addr >> 14, ix = ts->writes[i].addr & 0x3FFFu, v = ts->writes[i].wdata & 15u;
        if (sp == VCSW_SPACE_ROUTE && ix < ntags)
            d->rt[ix] = (int8_t)v;
        else if (sp == VCSW_SPACE_VC)
            d->vt[ix >> 8 & 15u][ix >> 4 & 15u][ix & 15u] = (int8_t)v;
    }
}

/* The tables route every route of the set as the set says: each nic line's tag and VC, followed switch by switch
 * through the routing and VC tables, leave every switch by the route's port on the route's VC and reach the
 * destination host. 0, or -1 naming the first disagreement. */
static int tables_match(const sf_sim_cfg *c, const sf_sim_net *n, sf_err *e)
{
    const sf_topo *t = n->t;
    const vcsw_net_tables_t *tb = n->tables;
    const unsigned S = (unsigned)t->nsw, ntags = 1u << c->vcsw.TAG_W;
    dtab_t *d = calloc(S, sizeof *d);
    if (!d) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    int rc = 0;
    for (unsigned s = 0; s < S && !rc; s++) {
        if (!(d[s].rt = malloc(ntags))) {
            fprintf(stderr, "sanfab-sim: out of memory\n");
            exit(2);
        }
        decode(&tb->sw[s], ntags, &d[s]);
    }
    const char *tn = c->tables[0] ? c->tables : "(tables written from the routes)";
    size_t covered = 0;
    for (size_t i = 0; i < tb->nnics && !rc; i++) {
        const vcsw_nic_t *l = &tb->nics[i];
        int nh = 0, vc0 = 0;
        const sf_hop *h = (int)l->alt < n->rs->nalt ? sf_routes_get(n->rs, (int)l->src, (int)l->dst, (int)l->alt, &nh, &vc0) : NULL;
        if (!h && l->src != l->dst) {
            snprintf(e->msg, sizeof e->msg, "%.300s: nic %u dst %u alt %u: %.200s has no such route (are the tables of this "
                     "route set?)", tn, l->src, l->dst, l->alt, RN(c));
            rc = -1;
            break;
        }
        covered++;
        if (l->vc != (unsigned)vc0) {
            snprintf(e->msg, sizeof e->msg, "%.300s: host %u to %u (alt %u) starts on VC %u in the tables, on VC %d in %.200s",
                     tn, l->src, l->dst, l->alt, l->vc, vc0, RN(c));
            rc = -1;
            break;
        }
        unsigned sw = (unsigned)t->host[l->src].sw, in = (unsigned)t->host[l->src].port, vc = l->vc;
        for (int k = 0; k <= nh && !rc; k++) {
            const unsigned out = k < nh ? (unsigned)h[k].port : (unsigned)t->host[l->dst].port;
            const int want_vc = k < nh ? h[k].vc : (int)vc;
            const int port = d[sw].rt[l->tag];
            const int ovc = port >= 0 && in < 16 && (unsigned)port < 16 && vc < 16 ? d[sw].vt[in][port][vc] : -1;
            if ((k < nh && (unsigned)h[k].sw != sw) || port != (int)out || ovc != want_vc) {
                snprintf(e->msg, sizeof e->msg, "%.200s: host %u to %u (alt %u, tag %u) leaves switch %u by port %d on VC %d in "
                         "the tables, by port %u on VC %d in %.150s", tn, l->src, l->dst, l->alt, l->tag, sw, port, ovc, out,
                         want_vc, RN(c));
                rc = -1;
                break;
            }
            if (k < nh) {
                const sf_peer *pe = &t->sw[sw].peer[out];
                sw = (unsigned)pe->id;
                in = (unsigned)pe->port;
                vc = (unsigned)ovc;
            }
        }
    }
    if (!rc) {
        size_t routes = 0;
        for (sf_route_it it = {0}; sf_routes_next(n->rs, &it);)
            routes++;
        if (routes != covered) {
            snprintf(e->msg, sizeof e->msg, "%.300s: %zu nic lines for the %zu routes of %.200s (are the tables of this route set?)",
                     tn, covered, routes, RN(c));
            rc = -1;
        }
    }
    for (unsigned s = 0; s < S; s++)
        free(d[s].rt);
    free(d);
    return rc;
}

/* The VC network's tables: the tables file, or written from the routes (sanfab-route --rhinet's writer). */
static int load_tables(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e)
{
    for (size_t i = 0; i < n->rs->nhops; i++)
        if (n->rs->hops[i].itb) {
            snprintf(e->msg, sizeof e->msg, "%.300s: the route set uses In-Transit Buffers, which only the crossbar network's "
                     "NICs handle (switch xbar)", RN(c));
            return -1;
        }
    const unsigned S = (unsigned)n->t->nsw;
    unsigned *np = calloc(S, sizeof *np);
    n->tables = calloc(1, sizeof *n->tables);
    if (!np || !n->tables) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    for (unsigned s = 0; s < S; s++) {
        np[s] = (unsigned)n->t->sw[s].nports;
        if (np[s] > VCSW_MAX_PORTS) {
            snprintf(e->msg, sizeof e->msg, "%.300s: switch %u has %u ports; the VC switch has at most %d", TN(c), s, np[s],
                     VCSW_MAX_PORTS);
            free(np);
            return -1;
        }
        if (np[s] < 2)
            np[s] = 2;
    }
    char err[600];
    int rc;
    if (c->tables[0]) {
        rc = vcsw_load_network(c->tables, &c->vcsw, np, S, n->tables, err, sizeof err);
    } else {
        FILE *f = tmpfile();
        if (!f) {
            snprintf(e->msg, sizeof e->msg, "cannot create a temporary file for the tables");
            free(np);
            return -1;
        }
        if (sf_write_rhinet(n->rs, f, e)) {
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg);
            snprintf(e->msg, sizeof e->msg, "%.250s: the route set has no VC-switch tables: %.300s", RN(c), why);
            fclose(f);
            free(np);
            return -1;
        }
        if (c->write_tables[0] && write_file(c->write_tables, "write-tables", n->rs, e)) {
            fclose(f);
            free(np);
            return -1;
        }
        rewind(f);
        char name[1100];
        snprintf(name, sizeof name, "(tables written from %.1000s)", RN(c));
        rc = vcsw_load_network_stream(f, name, &c->vcsw, np, S, n->tables, err, sizeof err);
        fclose(f);
    }
    free(np);
    if (rc) {
        snprintf(e->msg, sizeof e->msg, "%.590s", err);
        return -1;
    }
    if (n->tables->hosts != (unsigned)n->t->nhost) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the tables are for %u hosts, %.200s has %d", c->tables, n->tables->hosts,
                 TN(c), n->t->nhost);
        return -1;
    }
    return tables_match(c, n, e);
}

/* Write a topology (what "write-topology"), a route set ("write-routes") or its RHiNET tables ("write-tables") to
 * path, as sanfab-topo -o, sanfab-route -o and sanfab-route --rhinet write them; 0, or -1 with e set. */
static int write_file(const char *path, const char *what, const void *obj, sf_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(e->msg, sizeof e->msg, "%s %.400s: cannot write: %s", what, path, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (!strcmp(what, "write-topology"))
        sf_topo_write(obj, f);
    else if (!strcmp(what, "write-routes"))
        sf_write_routes(obj, f);
    else if (sf_write_rhinet(obj, f, e)) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        snprintf(e->msg, sizeof e->msg, "%s %.300s: the route set has no RHiNET tables: %.200s", what, path, why);
        rc = -1;
    }
    if (fclose(f) != 0 && !rc) {
        snprintf(e->msg, sizeof e->msg, "%s %.400s: write error", what, path);
        rc = -1;
    }
    return rc;
}

/* The topology of the topology-gen line (sanfab-topo's parser and generators, sf_topo_cli.c); written to
 * write-topology if given. NULL with e = "WHERE: topology-gen: problem". */
static sf_topo *gen_topology(const sf_sim_cfg *c, sf_err *e)
{
    char line[1024], *argv[256];
    snprintf(line, sizeof line, "%s", c->topology_gen);
    const int argc = sf_cli_split(line, argv, 256);
    sf_topo_cli a;
    sf_err pe = {{0}};
    sf_topo *t = NULL;
    if (argc > 0 && sf_topo_cli_parse(&a, argc, argv, 0, &pe) == SF_CLI_OK)
        t = sf_topo_cli_generate(&a, &pe);
    if (!t) {
        snprintf(e->msg, sizeof e->msg, "%.280s: %.300s", c->topology_desc, pe.msg);
        return NULL;
    }
    if (c->write_topology[0] && write_file(c->write_topology, "write-topology", t, e)) {
        sf_topo_free(t);
        return NULL;
    }
    return t;
}

/* The routes of the routing line on t (sanfab-route's parser and algorithms, sf_route_cli.c), checked as
 * sanfab-route checks what it writes (a dependency cycle is left to allow-deadlock); written to write-routes if
 * given. NULL with e = "WHERE: routing: problem". */
static sf_routes *compute_routes(const sf_sim_cfg *c, const sf_topo *t, sf_err *e)
{
    char line[1024], *argv[256];
    snprintf(line, sizeof line, "%s", c->routing);
    const int argc = sf_cli_split(line, argv, 256);
    sf_route_cli r;
    sf_err pe = {{0}};
    sf_routes *rs = NULL;
    int status = SF_CLI_FAIL;
    if (argc > 0 && sf_route_cli_parse(&r, argc, argv, 0, &pe) == SF_CLI_OK)
        rs = sf_route_cli_compute(&r, t, &status, &pe);
    if (!rs) {
        snprintf(e->msg, sizeof e->msg, "%.280s: %.300s", c->routing_desc, pe.msg);
        return NULL;
    }
    char prefix[1500];
    snprintf(prefix, sizeof prefix, "sanfab-sim: %.1400s: ", c->routing_desc);
    sf_route_cli_report(&r, rs, stderr, prefix);
    if (sf_verify(rs, 1, NULL, "")) {
        sf_verify(rs, 1, stderr, prefix);
        snprintf(e->msg, sizeof e->msg, "%.500s: the computed route set fails its checks (above)", c->routing_desc);
        sf_routes_free(rs);
        return NULL;
    }
    if (c->write_routes[0] && write_file(c->write_routes, "write-routes", rs, e)) {
        sf_routes_free(rs);
        return NULL;
    }
    return rs;
}

int sf_sim_net_load(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e)
{
    memset(n, 0, sizeof *n);
    n->t = c->topology_gen[0] ? gen_topology(c, e) : sf_topo_read(c->topology, e);
    if (!n->t)
        return -1;
    n->rs = c->routing[0] ? compute_routes(c, n->t, e) : sf_read_routes(n->t, c->routes, e);
    if (!n->rs) {
        sf_sim_net_free(n);
        return -1;
    }
    if (c->write_tables[0] && c->k != SF_KIND_VCSW && write_file(c->write_tables, "write-tables", n->rs, e)) {
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
                     RN(c), n->cycle);
            sf_sim_net_free(n);
            return -1;
        }
    }
    if (c->given[K_POLICY] && c->nic.pol.kind != SF_POL_STATIC && n->rs->nalt < 2) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the %s policy chooses among a pair's alternative routes, and this route set "
                 "has one route a pair (sanfab-route clos-all or fm write alternatives)", RN(c),
                 sf_policy_name(c->nic.pol.kind));
        sf_sim_net_free(n);
        return -1;
    }
    if (sf_routes_maps_hosts(n->rs) && !c->workload[0] && !c->workload_file[0]) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the route set maps logical to physical hosts (FM --map random): sanfab-sim runs "
                 "it with a workload (its programs are placed by the map), not with constant-rate loads", RN(c));
        sf_sim_net_free(n);
        return -1;
    }
    if (c->workload[0] || c->workload_file[0]) {
        sf_wl_params wp = c->wlp;
        wp.seed = c->tr.seed;
        n->wl = c->workload[0] ? sf_workload_builtin(c->workload, n->t, &wp, e)
                               : sf_workload_read(c->workload_file, (unsigned)n->t->nhost, e);
        if (!n->wl) {
            sf_sim_net_free(n);
            return -1;
        }
        if (sf_routes_maps_hosts(n->rs))
            sf_workload_remap(n->wl, n->rs->map);
    }
    if (c->k == SF_KIND_VCSW) {
        if (load_tables(c, n, e)) {
            sf_sim_net_free(n);
            return -1;
        }
        return 0;
    }
    if (n->rs->nvc > 1) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the route set uses %d VCs; the crossbar network has none (run it on the VC-switch "
                 "network: --switch vcsw, with its sanfab-route --rhinet tables as --tables, or none: they are then written "
                 "from the routes)", RN(c), n->rs->nvc);
        sf_sim_net_free(n);
        return -1;
    }
    for (int s = 0; s < n->t->nsw; s++)
        if (n->t->sw[s].nports > XBAR_MAX_PORTS) {
            snprintf(e->msg, sizeof e->msg, "%.300s: switch %d has %d ports; the crossbar model has at most %d", TN(c), s,
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
    vcsw_net_tables_free(n->tables);
    free(n->tables);
    sf_workload_free(n->wl);
    n->wl = NULL;
    n->rs = NULL;
    n->t = NULL;
    n->tables = NULL;
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
    const int vc = c->k == SF_KIND_VCSW;
    fprintf(out, "{\"tool\": \"sanfab-sim\", \"format\": 2, \"seed\": %llu,\n \"config\": {", (unsigned long long)c->tr.seed);
    /* the files read, or (topology-gen, routing) the lines that made them and the files written, null if none */
    const char *tf = c->topology[0] ? c->topology : c->write_topology, *rf = c->routes[0] ? c->routes : c->write_routes;
    const char *bf = c->tables[0] ? c->tables : c->write_tables;
    fprintf(out, "\"topology\": ");
    tf[0] ? jstr(out, tf) : (void)fputs("null", out);
    if (c->topology_gen[0]) {
        fprintf(out, ", \"topology_gen\": ");
        jstr(out, c->topology_gen);
    }
    fprintf(out, ", \"routes\": ");
    rf[0] ? jstr(out, rf) : (void)fputs("null", out);
    if (c->routing[0]) {
        fprintf(out, ", \"routing\": ");
        jstr(out, c->routing);
    }
    if (vc) {
        fprintf(out, ", \"tables\": ");
        if (bf[0])
            jstr(out, bf);
        else
            fputs("null", out);
    }
    fprintf(out, ", \"switch\": \"%s\"", c->kind);
    if (n->wl) {
        fprintf(out, ", \"deadlock_limit\": %llu, \"link_delay\": %u", (unsigned long long)c->deadlock_limit, c->link_delay);
        goto kind_keys;
    }
    fprintf(out, ", \"traffic\": \"%s\"", sf_pattern_name(c->tr.pattern));
    if (c->tr.pattern == SF_TR_HOTSPOT)
        fprintf(out, ", \"hotspot\": %.6g", 100.0 * c->tr.hotspot_frac);
    if (c->tr.pattern == SF_TR_LOCAL)
        fprintf(out, ", \"local\": %d", c->tr.local_l);
    if (vc)
        fprintf(out, ", \"packet_flits\": %u", c->vnic.packet_flits);
    else
        fprintf(out, ", \"message_size\": %u", c->nic.msg_size);
    fprintf(out, ", \"load_unit\": \"%s\", \"loads\": [", sf_sim_load_unit(c));
    for (int i = 0; i < c->nloads; i++) {
        fputs(i ? ", " : "", out);
        jnum(out, c->loads[i]);
    }
    fprintf(out, "], \"warmup\": %llu, \"cycles\": %llu, \"drain\": %llu, \"deadlock_limit\": %llu, \"link_delay\": %u",
            (unsigned long long)c->warmup, (unsigned long long)c->cycles, (unsigned long long)c->drain,
            (unsigned long long)c->deadlock_limit, c->link_delay);
kind_keys:
    if (vc) {
        const vcsw_params_t *p = &c->vcsw;
        fprintf(out, ", \"vcs\": %u, \"ctrl\": %u, \"flit_width\": %u, \"tag_width\": %u, \"depth\": %u, \"maxlen\": %u, "
                     "\"counters\": %u, \"ctr_width\": %u, \"stop_at\": %d",
                p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN, p->COUNTERS, p->CTR_WIDTH, vcsw_stop_at(p));
        fprintf(out, ", \"nic_buffer\": %u, \"nic_stop_at\": %d, \"nic_drain\": %u, \"alternatives\": \"%s\"", c->vnic.rx_buf,
                sf_vcnic_stop_at(&c->vnic), c->vnic.rx_drain_per_64, c->vnic.pol.kind == SF_POL_FIRST ? "first" : "random");
        if (c->vnic.pol.kind != SF_POL_OBLIVIOUS && c->vnic.pol.kind != SF_POL_FIRST)
            fprintf(out, ", \"policy\": \"%s\"", sf_policy_name(c->vnic.pol.kind));
        if (c->vnic.pol.kind == SF_POL_ADAPTIVE)
            fprintf(out, ", \"threshold\": %u, \"probability\": %.6g", c->vnic.pol.threshold, 100.0 * c->vnic.pol.probability);
    } else {
        fprintf(out, ", \"host_delay\": %u", c->host_delay);
        fprintf(out, ", \"route_delay\": %u, \"slack\": %u, \"stop\": %u, \"go\": %u, \"timeout\": %u", c->route_delay, c->slack,
                c->stop, c->go, c->timeout);
        fprintf(out, ", \"itb_detect\": %u, \"itb_dma\": %u, \"itb_pool\": %llu, \"itb_prio\": %u", c->nic.itb_detect,
                c->nic.itb_dma, (unsigned long long)c->nic.itb_pool, c->nic.prio_equal);
        fprintf(out, ", \"nic_buffer\": %u, \"nic_stop\": %u, \"nic_go\": %u, \"nic_drain\": %u, \"policy\": \"%s\"",
                c->nic.rx_buf, c->nic.rx_stop, c->nic.rx_go, c->nic.rx_drain_per_64, sf_policy_name(c->nic.pol.kind));
        if (c->nic.tx_per_64 < 64)
            fprintf(out, ", \"nic_inject\": %u", c->nic.tx_per_64);
        if (c->nic.half_duplex)
            fprintf(out, ", \"nic_duplex\": \"half\"");
        if (c->nic.pol.kind == SF_POL_ADAPTIVE || c->nic.pol.kind == SF_POL_PROBING)
            fprintf(out, ", \"threshold\": %u, \"probability\": %.6g", c->nic.pol.threshold, 100.0 * c->nic.pol.probability);
        if (c->nic.pol.kind == SF_POL_PROBING)
            fprintf(out, ", \"probe_rounds\": %u, \"probe_margin\": %u", c->nic.pol.probe_rounds, c->nic.probe_margin);
        if (n->wl) {
            fprintf(out, ", \"workload\": ");
            jstr(out, n->wl->desc);
            fprintf(out, ", \"mtu\": %u, \"max_cycles\": %llu", c->mtu, (unsigned long long)c->max_cycles);
        }
        if (c->timing[0]) {
            fprintf(out, ", \"timing\": ");
            jstr(out, c->timing);
        }
    }
    fprintf(out, ", \"allow_deadlock\": %s, \"saturation\": %.6g", c->allow_deadlock ? "true" : "false", c->sat_ratio);
    if (!vc)
        fprintf(out, ", \"ns_per_cycle\": %.6g", c->ns_per_cycle);
    fprintf(out, "},\n \"network\": {\"name\": ");
    jstr(out, n->t->name);
    fprintf(out, ", \"switches\": %d, \"hosts\": %d, \"links\": %d, \"algorithm\": ", n->t->nsw, n->t->nhost, sf_topo_nlinks(n->t));
    jstr(out, n->algo);
    fprintf(out, ", \"vcs_used\": %d", n->rs->nvc);
    if (vc)
        fprintf(out, ", \"tags\": %u", n->tables->tags);
    fprintf(out, ", \"deadlock_free\": %s", n->cyclic ? "false" : "true");
    if (n->cyclic) {
        fprintf(out, ", \"cycle\": ");
        jstr(out, n->cycle);
    }
    fprintf(out, "}");
    if (!n->wl)
        fprintf(out, ",\n \"points\": [\n");
}

void sf_sim_json_tail(const sf_sim_cfg *c, const sf_sim_net *n, const double *offered, const double *accepted,
                      const int *saturated, FILE *out)
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
                 "the other patterns)\", ",
            c->sat_ratio, c->sat_ratio);
    const double S = n->t->nsw, H = n->t->nhost;
    if (c->k == SF_KIND_VCSW) {
        fprintf(out, "\"throughput_flits_cycle_host\": ");
        jnum(out, best);
    } else {
        fprintf(out, "\"throughput_flits_ns_sw\": ");
        jnum(out, best);
        fprintf(out, ", \"throughput_flits_cycle_sw\": ");
        jnum(out, best * c->ns_per_cycle);
        fprintf(out, ", \"throughput_flits_cycle_host\": ");
        jnum(out, best * c->ns_per_cycle * S / H);
    }
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

void sf_sim_busy_mask(sf_kind k, uint64_t *mask, uint64_t *value)
{
    *mask = k == SF_KIND_VCSW ? VCSW_NET_VALID : XBAR_NET_BUSY_MASK;
    *value = k == SF_KIND_VCSW ? VCSW_NET_VALID : 0;
}

int sf_sim_point_nics(const sf_sim_cfg *c, const sf_sim_net *n, int li, sf_sim_point *pt, sf_err *e)
{
    const sf_topo *t = n->t;
    memset(pt, 0, sizeof *pt);
    pt->k = c->k;
    sf_traffic_params tp = c->tr;
    if (li < 0) {
        if (!n->wl || c->k == SF_KIND_VCSW) {
            snprintf(e->msg, sizeof e->msg, "no workload to run (workloads run on the crossbar network)");
            return -1;
        }
        tp.wl = n->wl;
        tp.mtu = c->mtu;
        tp.rate = 0;
        tp.msg_units = c->mtu;
    } else if (c->k == SF_KIND_VCSW) {
        tp.msg_units = c->vnic.packet_flits;
        tp.rate = c->loads[li] / c->vnic.packet_flits; /* flits/host/cycle -> packets per cycle per host */
    } else {
        tp.msg_units = c->nic.msg_size;
        tp.rate = c->loads[li] * c->ns_per_cycle * t->nsw / t->nhost / c->nic.msg_size; /* messages per cycle per host */
    }
    pt->tr = sf_traffic_new(t, &tp, e);
    if (!pt->tr)
        return -1;
    if (c->k == SF_KIND_VCSW) {
        pt->nics = sf_vcnics_new(t, n->tables, &c->vnic, pt->tr, e);
        pt->nic_step = sf_vcnics_step;
    } else {
        pt->nics = sf_nics_new(t, n->rs, &c->nic, pt->tr, e);
        pt->nic_step = sf_nics_step;
    }
    if (!pt->nics) {
        sf_sim_point_free(pt);
        return -1;
    }
    return 0;
}

void sf_sim_point_free(sf_sim_point *pt)
{
    net_free(pt->net);
    if (pt->k == SF_KIND_VCSW)
        sf_vcnics_free(pt->nics);
    else
        sf_nics_free(pt->nics);
    sf_traffic_free(pt->tr);
    memset(pt, 0, sizeof *pt);
}

void sf_sim_point_losses(const sf_sim_point *pt, uint64_t *lost_msgs, uint64_t *rx_overflow)
{
    if (pt->k == SF_KIND_VCSW) {
        sf_vcnic_counts v;
        sf_vcnics_counts(pt->nics, &v);
        *lost_msgs = v.lost_corrupt + v.lost_length;
        *rx_overflow = v.rx_overflow;
    } else {
        sf_nic_counts m;
        sf_nics_counts(pt->nics, &m);
        *lost_msgs = m.lost_aborted + m.lost_crc + m.lost_itb_pool;
        *rx_overflow = m.rx_overflow;
    }
}

int sf_sim_point_build(const sf_sim_cfg *c, const sf_sim_net *n, int li, net_nic_fn nic_fn, void *nic_ctx,
                       sf_sim_point *pt, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    if (sf_sim_point_nics(c, n, li, pt, e))
        return -1;
    /* the fabric's description of the topology; a VC network's cables are inside its switches (LINK_DELAY) and
     * its NICs, so its links have delay 0 */
    const int vc = c->k == SF_KIND_VCSW;
    const unsigned ld = vc ? 0 : c->link_delay, hd = vc ? 0 : c->host_delay;
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
                                   (unsigned)t->ch_tport[2 * l], ld};
    for (unsigned h = 0; h < H; h++)
        hosts[h] = (net_host_desc){(unsigned)t->host[h].sw, (unsigned)t->host[h].port, hd};
    net_desc d = {S, NL, H, nports, links, hosts};
    xbar_params_t xp = xbar_default_params();
    xp.SLACK_DEPTH = c->slack;
    xp.STOP_THRESH = c->stop;
    xp.GO_THRESH = c->go;
    xp.ROUTE_DELAY = c->route_delay;
    xp.TIMEOUT = c->timeout;
    xp.LINK_DELAY = 0; /* cables are the fabric's links */
    xp.COUNTERS = 0;
    vcsw_net_params_t vp = {c->vcsw, n->tables};
    char err[300];
    pt->net = net_new(&d, net_switch_kind(c->kind), vc ? (const void *)&vp : (const void *)&xp,
                      nic_fn ? nic_fn : pt->nic_step, nic_fn ? nic_ctx : pt->nics, err, sizeof err);
    free(nports);
    free(links);
    free(hosts);
    if (!pt->net) {
        snprintf(e->msg, sizeof e->msg, "%.250s: %.300s", TN(c), err);
        sf_sim_point_free(pt);
        return -1;
    }
    uint64_t mask, value;
    sf_sim_busy_mask(c->k, &mask, &value);
    net_set_busy_mask(pt->net, mask, value);
    return 0;
}

/* Flits (data characters) moved over every channel so far. */
static uint64_t busy_total(const net_t *net)
{
    uint64_t t = 0;
    const unsigned NC = net_nchannels(net);
    for (unsigned ch = 0; ch < NC; ch++)
        t += net_channel_busy(net, ch);
    return t;
}

/* Watch for a deadlock: the cycle a flit last moved (checked every 1024 cycles). */
typedef struct {
    uint64_t limit, last_busy, last_move;
    int dead;
} stall_t;

/* Runs up to n cycles; stops early (returns 1) when no flit has moved for the limit while messages are in flight. */
static int run_cycles(net_t *net, const sf_traffic *tr, uint64_t n, uint64_t *done, uint64_t total, sf_sim_progress prog,
                      void *pctx, stall_t *st)
{
    for (uint64_t i = 0; i < n; i++) {
        net_step(net);
        ++*done;
        if (prog && (*done & 16383u) == 0)
            prog(pctx, *done, total);
        if (st->limit && (*done & 1023u) == 0) {
            const uint64_t b = busy_total(net), now = net_cycle(net);
            if (b != st->last_busy || sf_traffic_in_flight(tr) == 0) {
                st->last_busy = b;
                st->last_move = now;
            } else if (now - st->last_move >= st->limit) {
                st->dead = 1;
                return 1;
            }
        }
    }
    return 0;
}

int sf_sim_run_point(const sf_sim_cfg *c, const sf_sim_net *n, int li, FILE *out, int with_time, sf_sim_progress prog,
                     void *pctx, double *offered, double *accepted, int *saturated, double *seconds, double *flit_hops,
                     uint64_t *cycles_run, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    const int vc = c->k == SF_KIND_VCSW;
    sf_sim_point pt;
    const double load = c->loads[li];
    if (sf_sim_point_build(c, n, li, NULL, NULL, &pt, e))
        return -1;
    net_t *net = pt.net;
    sf_traffic *tr = pt.tr;
    net_set_skip(net, !c->no_skip); /* quiet switches are skipped: same results, faster */
    const net_switch_ops *k = net_kind(net);
    const unsigned NC = net_nchannels(net);
    uint64_t *busy0 = calloc(NC, sizeof *busy0);
    if (!busy0) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    double t0 = now_s();
    uint64_t done = 0, total = c->warmup + c->cycles + c->drain;
    stall_t st = {c->deadlock_limit, 0, 0, 0};
    run_cycles(net, tr, c->warmup, &done, total, prog, pctx, &st);
    const uint64_t wstart = net_cycle(net);
    sf_traffic_window_start(tr, wstart);
    sf_nic_counts mc_wstart;
    memset(&mc_wstart, 0, sizeof mc_wstart);
    if (!vc) {
        sf_nics_window_start(pt.nics, wstart);
        sf_nics_counts(pt.nics, &mc_wstart);
    }
    for (unsigned ch = 0; ch < NC; ch++)
        busy0[ch] = net_channel_busy(net, ch);
    uint64_t tmo0 = k->ctr_timeout >= 0 ? net_counter_total(net, (unsigned)k->ctr_timeout) : 0;
    if (!st.dead)
        run_cycles(net, tr, c->cycles, &done, total, prog, pctx, &st);
    const uint64_t wend = net_cycle(net);
    const double W = wend > wstart ? (double)(wend - wstart) : 1.0; /* the window (shorter if the network deadlocked) */
    uint64_t tmo_win = (k->ctr_timeout >= 0 ? net_counter_total(net, (unsigned)k->ctr_timeout) : 0) - tmo0;
    sf_traffic_counts all, win;
    sf_traffic_counts_get(tr, &all, &win);
    sf_lat lat;
    sf_traffic_latency(tr, &lat);
    /* the NICs' counts at the window's end (ITB packets of the window: their difference from those at its start) */
    sf_nic_counts mc_wend;
    memset(&mc_wend, 0, sizeof mc_wend);
    if (!vc)
        sf_nics_counts(pt.nics, &mc_wend);
    /* ITB pools (crossbar network) */
    double pool_avg_mean = 0, pool_avg_max = 0;
    uint64_t pool_max_pkts = 0, pool_max_bytes = 0;
    double *pavg = calloc(H, sizeof *pavg);
    uint64_t *pmax = calloc(H, sizeof *pmax);
    for (unsigned h = 0; h < H && !vc; h++) {
        double ab;
        uint64_t mb;
        sf_nics_pool(pt.nics, h, wend, &pavg[h], &pmax[h], &ab, &mb);
        pool_avg_mean += pavg[h] / H;
        if (pavg[h] > pool_avg_max)
            pool_avg_max = pavg[h];
        if (pmax[h] > pool_max_pkts)
            pool_max_pkts = pmax[h];
        if (mb > pool_max_bytes)
            pool_max_bytes = mb;
    }
    /* links in the window: busy0[ch] becomes the flits channel ch carried in the window (a drain adds none) */
    double umax = 0, usum = 0, inj = 0, ej = 0, hops_win = 0;
    for (unsigned ch = 0; ch < NC; ch++) {
        busy0[ch] = net_channel_busy(net, ch) - busy0[ch];
        const double b = (double)busy0[ch];
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
    if (c->drain && !st.dead) {
        sf_traffic_set_generate(tr, 0);
        while (drained < c->drain) {
            uint64_t step = c->drain - drained < 1024 ? c->drain - drained : 1024;
            int dead = run_cycles(net, tr, step, &done, total, prog, pctx, &st);
            drained += step;
            if (dead || sf_traffic_in_flight(tr) == 0)
                break;
        }
        sf_traffic_counts_get(tr, &all, NULL);
    }
    double secs = now_s() - t0;
    double hops_all = (double)busy_total(net);
    const double ns = c->ns_per_cycle;
    /* offered and accepted traffic: payload bytes per ns per switch (xbar), flits per cycle per host (vcsw) */
    const double off_h = (double)win.gen_units / W / H, acc_h = (double)win.deliv_units / W / H;
    const double off_c = (double)win.gen_units / W / S, acc_c = (double)win.deliv_units / W / S;
    *offered = vc ? off_h : off_c / ns;
    *accepted = vc ? acc_h : acc_c / ns;
    /* the hotspot host alone (hotspot traffic): its own share can saturate while the total still passes */
    const int hot = sf_traffic_hotspot(tr);
    const double hot_off = (double)win.hot_gen_units / W, hot_acc = (double)win.hot_deliv_units / W;
    const int hot_sat = hot >= 0 && hot_acc < c->sat_ratio * hot_off;
    *saturated = (acc_h < c->sat_ratio * off_h ? SF_SIM_SAT_TOTAL : 0) | (hot_sat ? SF_SIM_SAT_HOTSPOT : 0);
    *seconds = secs;
    *flit_hops = hops_all;
    *cycles_run = net_cycle(net);
    /* JSON */
    fprintf(out, "  {\"load\": ");
    jnum(out, load);
    if (!vc) {
        fprintf(out, ", \"offered_flits_ns_sw\": ");
        jnum(out, *offered);
        fprintf(out, ", \"accepted_flits_ns_sw\": ");
        jnum(out, *accepted);
        fprintf(out, ", \"offered_flits_cycle_sw\": ");
        jnum(out, off_c);
        fprintf(out, ", \"accepted_flits_cycle_sw\": ");
        jnum(out, acc_c);
    }
    fprintf(out, ", \"offered_flits_cycle_host\": ");
    jnum(out, off_h);
    fprintf(out, ", \"accepted_flits_cycle_host\": ");
    jnum(out, acc_h);
    fprintf(out, ", \"saturated\": %s,\n   ", *saturated ? "true" : "false");
    if (hot >= 0) {
        fprintf(out, "\"hotspot_host\": {\"host\": %d, ", hot);
        if (vc) {
            fprintf(out, "\"offered_flits_cycle\": ");
            jnum(out, hot_off);
            fprintf(out, ", \"accepted_flits_cycle\": ");
            jnum(out, hot_acc);
        } else {
            fprintf(out, "\"offered_flits_ns\": ");
            jnum(out, hot_off / ns);
            fprintf(out, ", \"accepted_flits_ns\": ");
            jnum(out, hot_acc / ns);
        }
        fprintf(out, ", \"saturated\": %s},\n   ", hot_sat ? "true" : "false");
    }
    fprintf(out, "\"messages\": {\"window_generated\": %llu, \"window_delivered\": %llu, \"latency_samples\": %llu, "
                 "\"generated\": %llu, \"injected\": %llu, \"delivered\": %llu, \"in_flight\": %llu, \"queued\": %llu, ",
            (unsigned long long)win.generated, (unsigned long long)win.delivered, (unsigned long long)lat.count,
            (unsigned long long)all.generated, (unsigned long long)all.injected, (unsigned long long)all.delivered,
            (unsigned long long)sf_traffic_in_flight(tr), (unsigned long long)sf_traffic_queued(tr));
    sf_nic_counts mc;
    sf_vcnic_counts vcc;
    if (vc) {
        sf_vcnics_counts(pt.nics, &vcc);
        fprintf(out, "\"lost_corrupt\": %llu, \"lost_length\": %llu, ", (unsigned long long)vcc.lost_corrupt,
                (unsigned long long)vcc.lost_length);
    } else {
        sf_nics_counts(pt.nics, &mc);
        fprintf(out, "\"lost_aborted\": %llu, \"lost_crc\": %llu, \"lost_itb_pool\": %llu, ", (unsigned long long)mc.lost_aborted,
                (unsigned long long)mc.lost_crc, (unsigned long long)mc.lost_itb_pool);
    }
    fprintf(out, "\"misrouted\": %llu, \"duplicate\": %llu, \"nic_rx_overflow\": %llu, \"drain_cycles\": %llu},\n   ",
            (unsigned long long)all.misrouted, (unsigned long long)all.duplicate,
            (unsigned long long)(vc ? vcc.rx_overflow : mc.rx_overflow), (unsigned long long)drained);
    lat_json(out, "latency_cycles", &lat, 1.0);
    if (!vc) {
        fprintf(out, ",\n   ");
        lat_json(out, "latency_ns", &lat, ns);
        fprintf(out, ",\n   \"itbs_per_msg\": ");
        jnum(out, lat.marks_per_msg);
        fprintf(out, ", \"itb\": {\"span\": {\"packets\": \"run\", \"reinjected\": \"run\", \"packets_window\": \"window\", "
                     "\"reinjected_window\": \"window\", \"pool_avg_pkts_mean\": \"window\", \"pool_avg_pkts_max\": \"window\", "
                     "\"pool_max_pkts\": \"window\", \"pool_max_bytes\": \"window\", \"per_nic_avg_max_pkts\": \"window\"}, "
                     "\"packets\": %llu, \"reinjected\": %llu, \"packets_window\": %llu, \"reinjected_window\": %llu, "
                     "\"pool_avg_pkts_mean\": ",
                (unsigned long long)mc.itb_packets, (unsigned long long)mc.itb_reinjected,
                (unsigned long long)(mc_wend.itb_packets - mc_wstart.itb_packets),
                (unsigned long long)(mc_wend.itb_reinjected - mc_wstart.itb_reinjected));
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
        fprintf(out, "]}");
    }
    fprintf(out, ",\n   \"deadlock\": ");
    if (st.dead)
        fprintf(out, "{\"detected_cycle\": %llu, \"no_flit_moved_since\": %llu, \"in_flight\": %llu}",
                (unsigned long long)net_cycle(net), (unsigned long long)st.last_move,
                (unsigned long long)sf_traffic_in_flight(tr));
    else
        fputs("null", out);
    fprintf(out, ",\n   \"switches\": {");
    if (k->ctr_timeout >= 0)
        fprintf(out, "\"forward_resets_window\": %llu, ", (unsigned long long)tmo_win);
    int first = 1;
    for (unsigned ctr = 0; ctr < k->nctr; ctr++) {
        const char *nm = k->counter_name(ctr);
        if (strstr(nm, "drop") || strstr(nm, "err") || strstr(nm, "malformed") || strstr(nm, "overflow") || strstr(nm, "trunc")) {
            fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", nm, (unsigned long long)net_counter_total(net, ctr));
            first = 0;
        }
    }
    if (vc)
        fprintf(out, "},\n   \"flow_control\": {\"nic_stops\": %llu, \"source_stalled_cycles\": %llu},\n   ",
                (unsigned long long)vcc.stops_sent, (unsigned long long)vcc.stalled);
    else
        fprintf(out, "},\n   \"flow_control\": {\"nic_stops\": %llu, \"nic_gos\": %llu},\n   ", (unsigned long long)mc.stops_sent,
                (unsigned long long)mc.gos_sent);
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
            fprintf(out, "%s[%d, %d, %d, %d, ", ch ? ", " : "", t->ch_from[ch], t->ch_fport[ch], t->ch_to[ch], t->ch_tport[ch]);
            jnum(out, (double)busy0[ch] / W);
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
    sf_sim_point_free(&pt);
    return 0;
}

/* ------------------------------------------------------------------ a workload run */

int sf_sim_run_workload(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out, int with_time, sf_sim_progress prog, void *pctx,
                        double *seconds, double *flit_hops, uint64_t *cycles, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, NL = (unsigned)sf_topo_nlinks(t);
    sf_sim_point pt;
    if (sf_sim_point_build(c, n, -1, NULL, NULL, &pt, e))
        return -1;
    net_t *net = pt.net;
    sf_traffic *tr = pt.tr;
    net_set_skip(net, !c->no_skip);
    const double t0 = now_s();
    uint64_t done = 0;
    stall_t st = {c->deadlock_limit, 0, 0, 0};
    /* run in steps of 64 cycles until every host has completed (the end is the completion cycle, not the step's) */
    while (!sf_traffic_done(tr) && done < c->max_cycles && !st.dead) {
        const uint64_t step = c->max_cycles - done < 64 ? c->max_cycles - done : 64;
        run_cycles(net, tr, step, &done, c->max_cycles, prog, pctx, &st);
    }
    const double secs = now_s() - t0;
    const uint64_t now = net_cycle(net);
    sf_wl_result r;
    sf_traffic_workload(tr, now, &r);
    sf_traffic_counts all;
    sf_traffic_counts_get(tr, &all, NULL);
    sf_nic_counts mc;
    sf_nics_counts(pt.nics, &mc);
    sf_policy_counts pc;
    sf_nics_policy_counts(pt.nics, &pc);
    const double ns = c->ns_per_cycle, hops = (double)busy_total(net);
    sf_sim_json_head(c, n, out);
    fprintf(out, ",\n \"workload\": {\"name\": ");
    jstr(out, n->wl->desc);
    fprintf(out, ", \"finished\": %s, \"cycles\": %llu, \"time_ns\": ", r.finished ? "true" : "false", (unsigned long long)r.end);
    jnum(out, (double)r.end * ns);
    fprintf(out, ", \"messages\": %llu, \"packets\": %llu, \"bytes\": %llu, \"senders\": %u,\n  \"bandwidth_bytes_cycle\": {\"min\": ",
            (unsigned long long)r.messages, (unsigned long long)r.packets, (unsigned long long)r.units, r.senders);
    jnum(out, r.bw_min);
    fprintf(out, ", \"avg\": ");
    jnum(out, r.bw_avg);
    fprintf(out, ", \"max\": ");
    jnum(out, r.bw_max);
    fprintf(out, "}, \"bandwidth_mb_s\": {\"min\": "); /* bytes/cycle / ns/cycle = GB/s; x 1000 = MB/s */
    jnum(out, r.bw_min / ns * 1000.0);
    fprintf(out, ", \"avg\": ");
    jnum(out, r.bw_avg / ns * 1000.0);
    fprintf(out, ", \"max\": ");
    jnum(out, r.bw_max / ns * 1000.0);
    fprintf(out, "},\n  \"aggregate_bytes_cycle\": ");
    jnum(out, r.aggregate);
    fprintf(out, ", \"aggregate_gbit_s\": ");
    jnum(out, r.aggregate / ns * 8.0);
    fprintf(out, ", \"message_latency_cycles\": {\"avg\": ");
    jnum(out, r.msg_lat_avg);
    fprintf(out, ", \"max\": ");
    jnum(out, r.msg_lat_max);
    fprintf(out, "},\n  \"packets_delivered\": %llu, \"reordered_packets\": %llu, \"lost_aborted\": %llu, \"lost_crc\": %llu, "
                 "\"lost_itb_pool\": %llu, \"misrouted\": %llu, \"duplicate\": %llu, \"nic_rx_overflow\": %llu,\n",
            (unsigned long long)all.delivered, (unsigned long long)all.reordered, (unsigned long long)mc.lost_aborted,
            (unsigned long long)mc.lost_crc, (unsigned long long)mc.lost_itb_pool, (unsigned long long)all.misrouted,
            (unsigned long long)all.duplicate, (unsigned long long)mc.rx_overflow);
    fprintf(out, "  \"policy\": {\"name\": \"%s\", \"stopped_packets\": %llu, \"route_changes\": %llu, \"forced_changes\": %llu, "
                 "\"probes\": %llu, \"probes_busy\": %llu, \"probe_timeouts\": %llu, \"answers\": %llu, \"control_lost\": %llu},\n",
            sf_policy_name(c->nic.pol.kind), (unsigned long long)pc.stopped, (unsigned long long)pc.changes,
            (unsigned long long)pc.forced, (unsigned long long)mc.probes_sent, (unsigned long long)pc.probes_busy,
            (unsigned long long)mc.probe_timeouts, (unsigned long long)mc.answers_sent, (unsigned long long)mc.ctl_lost);
    fprintf(out, "  \"stopped_by\": ");
    if (r.finished)
        fputs("null", out);
    else {
        char why[400];
        snprintf(why, sizeof why, "%s; %s", st.dead ? "deadlock: no flit moved for deadlock-limit cycles" : "max-cycles",
                 r.waiting_host >= 0 ? r.waiting : "?");
        jstr(out, why);
    }
    /* links over the whole run */
    double umax = 0, usum = 0;
    for (unsigned ch = 0; ch < 2 * NL; ch++) {
        const double u = (double)net_channel_busy(net, ch) / (double)(now ? now : 1);
        usum += u;
        if (u > umax)
            umax = u;
    }
    fprintf(out, "},\n \"links\": {\"mean_util\": ");
    jnum(out, NL ? usum / (2.0 * NL) : 0);
    fprintf(out, ", \"max_util\": ");
    jnum(out, umax);
    fprintf(out, ", \"flit_hops\": %.0f", hops);
    if (c->links) {
        fprintf(out, ",\n  \"per_channel\": [");
        for (unsigned ch = 0; ch < 2 * NL; ch++) {
            fprintf(out, "%s[%d, %d, %d, %d, ", ch ? ", " : "", t->ch_from[ch], t->ch_fport[ch], t->ch_to[ch], t->ch_tport[ch]);
            jnum(out, (double)net_channel_busy(net, ch) / (double)(now ? now : 1));
            fputc(']', out);
        }
        fprintf(out, "]");
    }
    fprintf(out, "}");
    if (with_time)
        fprintf(out, ",\n \"perf\": {\"cycles\": %llu, \"seconds\": %.4f, \"cycles_per_s\": %.0f, \"flit_hops\": %.0f, "
                     "\"flit_hops_per_s\": %.0f, \"switch_cycles_skipped\": %.4f}",
                (unsigned long long)now, secs, (double)now / secs, hops, hops / secs,
                (double)net_skipped(net) / ((double)now * S));
    fprintf(out, "}\n");
    *seconds = secs;
    *flit_hops = hops;
    *cycles = now;
    sf_sim_point_free(&pt);
    return 0;
}
