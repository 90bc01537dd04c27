/* sf_simkeys.c - the network simulator's configuration keys: their table, help, defaults and the setter of one key
 * (sf_sim.h). */
#include "sf_sim_int.h"

#include "net.h"
#include "sf_cli.h"
#include "sf_route_cli.h"
#include "sf_topo_cli.h"
#include "sf_util.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const sf_sim_key sf_sim_keys[K_N] = {
    [K_TOPOLOGY] = {"topology", "(needed)", NULL, "topology file (docs/topology.md); or topology-gen", FOR_ALL},
    [K_ROUTES] = {"routes", "(needed)", NULL, "sanfab-route route file (docs/routing.md); or routing", FOR_ALL},
    [K_TABLES] = {"tables", "(written)", NULL, "the route set's switch tables: sanfab-route --rhinet (vcsw), --maestro (sbox) (default: written from the routes)", FOR_VCSW | FOR_SBOX},
    [K_TOPOGEN] = {"topology-gen", "(none)", NULL, "instead of topology: sanfab-topo's command line, no -o (random --switches 16 --seed 1)", FOR_ALL},
    [K_ROUTING] = {"routing", "(none)", NULL, "instead of routes: sanfab-route's command line, no topology, no outputs (dl --vcs 3)", FOR_ALL},
    [K_WTOPO] = {"write-topology", "(none)", NULL, "write the topology of topology-gen to this file (what sanfab-topo -o writes)", FOR_ALL},
    [K_WROUTES] = {"write-routes", "(none)", NULL, "write the routes of routing to this file (what sanfab-route -o writes)", FOR_ALL},
    [K_WTABLES] = {"write-tables", "(none)", NULL, "write the route set's tables to this file (what sanfab-route --rhinet writes; sbox: --maestro)", FOR_ALL},
    [K_SWITCH] = {"switch", "xbar", NULL, "switch kind: xbar (crossbars, Myrinet NICs) | vcsw (VC switches, RHiNET NICs) | sbox (Maestro switch boxes, Maestro NIs)", FOR_ALL},
    [K_TRAFFIC] = {"traffic", "uniform", NULL, "uniform|bit-reversal|hotspot|local|transpose|complement|permutation|butterfly|multicast (sbox)", FOR_ALL},
    [K_HOTSPOT] = {"hotspot", "5", NULL, "hotspot: percent of messages sent to the hotspot host", FOR_ALL},
    [K_LOCAL] = {"local", "3", NULL, "local: destinations at most L switches away", FOR_ALL},
    [K_MSGSIZE] = {"message-size", "512", NULL, "payload bytes per message (8..65536; sbox: user bytes 8..65535, <= 11 a Type0 message)", FOR_XBAR | FOR_SBOX, "11"},
    [K_PKTFLITS] = {"packet-flits", "-", "128", "flits per packet, head and tail included (Koibuchi et al. 2003: 128)", FOR_VCSW},
    [K_LOAD] = {"load", "(required)", NULL, "offered load(s) 0 < x <= 1000: flits/ns/switch (xbar), flits/host/cycle (vcsw, x <= 1), payload bytes/host/cycle (sbox, x <= link-width/8); one or more", FOR_ALL},
    [K_WARMUP] = {"warmup", "20000", "50000", "warm-up cycles before the measurement window", FOR_ALL},
    [K_CYCLES] = {"cycles", "100000", "950000", "measurement window in cycles", FOR_ALL},
    [K_DRAIN] = {"drain", "0", NULL, "after the window: stop generating, run until empty or this many cycles", FOR_ALL},
    [K_SEED] = {"seed", "1", NULL, "random seed (0..2^64-1)", FOR_ALL},
    [K_LINKDELAY] = {"link-delay", "8", "0", "cable delay in cycles (xbar: switch-switch, 10 m = 8; vcsw, sbox: every link, the switches' LINK_DELAY)", FOR_ALL, "0"},
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
    [K_CTRW] = {"ctr-width", "-", "32", "VC switch CTR_WIDTH; sbox: every MLC's and box's CTR_W (8..32)", FOR_VCSW | FOR_SBOX, "16"},
    [K_ITBDETECT] = {"itb-detect", "44", NULL, "cycles from an in-transit packet's first byte to its detection (275 ns)", FOR_XBAR},
    [K_ITBDMA] = {"itb-dma", "32", NULL, "further cycles to set the re-injection DMA up (200 ns)", FOR_XBAR},
    [K_ITBPOOL] = {"itb-pool", "524288", NULL, "ITB pool per NIC in bytes", FOR_XBAR},
    [K_ITBPRIO] = {"itb-prio", "8", NULL, "local queue length from which local and in-transit packets alternate", FOR_XBAR},
    [K_NICBUF] = {"nic-buffer", "80", "256", "NIC receive buffer (xbar: bytes; vcsw: flits, STOP at buffer - packet - 2 x cable - 4)", FOR_XBAR | FOR_VCSW},
    [K_NICSTOP] = {"nic-stop", "56", NULL, "NIC sends STOP at this occupancy", FOR_XBAR},
    [K_NICGO] = {"nic-go", "40", NULL, "NIC sends GO at this occupancy", FOR_XBAR},
    [K_NICDRAIN] = {"nic-drain", "64", NULL, "bytes (flits) the NIC takes from its receive buffer per 64 cycles (64 = link rate)", FOR_XBAR | FOR_VCSW},
    [K_ALT] = {"alternatives", "random", NULL, "random|first: which of a pair's alternative routes a message takes", FOR_XBAR | FOR_VCSW},
    [K_ALLOWDL] = {"allow-deadlock", "no", NULL, "yes: run a route set with a dependency cycle", FOR_ALL},
    [K_DEADLOCK] = {"deadlock-limit", "100000", NULL, "stop a point after this many cycles without a flit moving while messages are in flight (0 = never)", FOR_ALL},
    [K_SAT] = {"saturation", "0.95", NULL, "a point is saturated when accepted < this x offered (and, hotspot traffic, the hotspot host's)", FOR_ALL},
    [K_LINKS] = {"links", "yes", NULL, "yes|no: per-channel utilisation in the JSON", FOR_ALL},
    [K_POLICY] = {"policy", "oblivious", NULL, "route policy among a pair's alternatives: static|oblivious|adaptive|probing (Geoffray and Hoefler 2008, sec. 4; vcsw: not probing)", FOR_XBAR | FOR_VCSW},
    [K_THRESH] = {"threshold", "4", NULL, "adaptive/probing: stopped packets since the last change before dispersion", FOR_XBAR | FOR_VCSW},
    [K_PROB] = {"probability", "100", NULL, "adaptive/probing: percent chance a stopped packet past the threshold disperses", FOR_XBAR | FOR_VCSW},
    [K_PROBEROUNDS] = {"probe-rounds", "2", NULL, "probing: busy probes allowed = rounds x (routes - 1), then the route changes anyway", FOR_XBAR},
    [K_PROBEMARGIN] = {"probe-margin", "64", NULL, "probing: cycles a probe may take over its unloaded time and still find its route free", FOR_XBAR},
    [K_WORKLOAD] = {"workload", "(none)", NULL, "run a message workload instead of loads: exchange|bridge|alltoall|alltoall-phased|bcast-serial|bcast-tree|gather|barrier", FOR_XBAR | FOR_SBOX},
    [K_WLFILE] = {"workload-file", "(none)", NULL, "run the workload of this file instead of loads (docs/network.md \"Workloads\")", FOR_XBAR | FOR_SBOX},
    [K_MSGBYTES] = {"message-bytes", "65536", NULL, "workload: bytes per message", FOR_XBAR | FOR_SBOX},
    [K_MESSAGES] = {"messages", "1", NULL, "workload: messages per pair (exchange, bridge) or repetitions (the others)", FOR_XBAR | FOR_SBOX},
    [K_MTU] = {"mtu", "4096", NULL, "workload: largest packet payload in bytes (MX 4096, FM 1536); messages are cut into packets", FOR_XBAR | FOR_SBOX},
    [K_ROOT] = {"root", "0", NULL, "workload: root host of bcast-serial, bcast-tree and gather", FOR_XBAR | FOR_SBOX},
    [K_MAXCYC] = {"max-cycles", "100000000", NULL, "workload: stop the run after this many cycles (the JSON says it did not finish)", FOR_XBAR | FOR_SBOX},
    [K_NSPC] = {"ns-per-cycle", "6.25", NULL, "nanoseconds per cycle (xbar: one character on a link: Myrinet 6.25, Myri-10G 0.8; sbox: the MLC's clock, 50 MHz)", FOR_XBAR | FOR_SBOX, "20"},
    [K_NICINJ] = {"nic-inject", "64", NULL, "xbar: the host's rate into its NIC, bytes per 64 cycles (64 = link rate: no limit)", FOR_XBAR},
    [K_NICDUPLEX] = {"nic-duplex", "full", NULL, "xbar: full|half: half = the NIC's host side serves one direction at a time (LANai, Etsion et al. 2000): its rate (nic-inject) is shared by the copy of sent packets and the drain of received ones", FOR_XBAR},
    [K_TIMING] = {"timing", "(none)", NULL, "a timing set: a name (myrinet2000, myri10g: sw/sim/timing/NAME.cfg) or a file of keys", FOR_XBAR | FOR_VCSW},
    [K_LINKW] = {"link-width", "-", NULL, "Maestro LINK_W: link data bits, 4 (the IEEE1394 PHY of Yamagiwa et al. 2000) or 8", FOR_SBOX, "4"},
    [K_FIFO] = {"fifo-bytes", "-", NULL, "Maestro FIFO_BYTES: each MLC FIFO (256, 512, 1024, 2048, 4096)", FOR_SBOX, "2048"},
    [K_TURN] = {"turn", "-", NULL, "Maestro TURN: a link master's wait before it takes the link back (0..15)", FOR_SBOX, "1"},
    [K_MCASTK] = {"multicast-size", "-", NULL, "multicast traffic: members of each message, random hosts other than its source (0 = every other host)", FOR_SBOX, "0"},
    [K_MLCTMO] = {"mlc-timeout", "-", NULL, "Maestro TIMEOUT: a link master's wait for the slave's frame, cycles (0 = none, or 16..65535)", FOR_SBOX, "1024"},
};

int sf_sim_key_index(const char *k)
{
    for (int i = 0; i < K_N; i++)
        if (strcmp(k, sf_sim_keys[i].name) == 0)
            return i;
    return -1;
}

int sf_sim_is_key(const char *key) { return sf_sim_key_index(key) >= 0; }

const char *sf_sim_key_suggest(const char *given)
{
    const char *names[K_N];
    for (int i = 0; i < K_N; i++)
        names[i] = sf_sim_keys[i].name;
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

const char *sf_sim_option_hint(char *buf, size_t len, const char *opt, const char *const *own, size_t n_own)
{
    const char *s = n_own ? sf_cli_suggest(opt, own, n_own) : NULL;
    const char *k = s || strncmp(opt, "--", 2) != 0 ? NULL : sf_sim_key_suggest(opt + 2);
    if (s)
        snprintf(buf, len, " (did you mean %s?)", s);
    else if (k)
        snprintf(buf, len, " (did you mean --%s?)", k);
    else if (len)
        buf[0] = '\0';
    return buf;
}

int sf_sim_cfg_arg(sf_sim_cfg *c, const char *prog, int argc, char *const *argv, int *i, const char *const *own, size_t n_own)
{
    const char *a = argv[*i];
    if (!sf_sim_is_key(a + 2)) {
        char hint[160];
        sf_sim_option_hint(hint, sizeof hint, a, own, n_own);
        fprintf(stderr, "%s: unknown option %s%s\n", prog, a, hint[0] ? hint : " (--help lists them)");
        return 2;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", prog, a);
        return 2;
    }
    sf_err e = {{0}};
    if (sf_sim_cfg_set(c, a + 2, argv[*i + 1], a, 1, &e)) {
        fprintf(stderr, "%s: %s\n", prog, e.msg);
        return 2;
    }
    ++*i;
    return 0;
}

int sf_sim_unknown_key(sf_err *e, const char *where, const char *key, int cmdline)
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
    fprintf(f, "  %-15s %-8s %-8s %-8s %s\n", "KEY", "xbar", "vcsw", "sbox", "meaning (\"-\": not a key of that kind)");
    for (int i = 0; i < K_N; i++) {
        const sf_sim_key *k = &sf_sim_keys[i];
        fprintf(f, "  %-15s %-8s %-8s %-8s %s\n", k->name, k->kinds & FOR_XBAR ? k->def : "-",
                !(k->kinds & FOR_VCSW) ? "-" : k->vdef ? k->vdef : k->def, !(k->kinds & FOR_SBOX) ? "-" : k->sdef ? k->sdef : k->def,
                k->help);
    }
}

const char *sf_sim_load_unit(const sf_sim_cfg *c)
{
    return c->k == SF_KIND_VCSW ? "flits/host/cycle" : c->k == SF_KIND_SBOX ? "bytes/host/cycle" : "flits/ns/switch";
}

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
    sf_mnic_params_default(&c->mnic);
    c->vcsw = vcsw_default_params();
    /* the networks' switch parameters: their defaults in cmodel/sanfab_params.h, the one table of them */
#define NET_XBAR_PARAM(NAME, KEY, DEFAULT, FIELD) c->FIELD = DEFAULT;
#define NET_VCSW_PARAM(NAME, KEY, DEFAULT, FIELD) c->FIELD = DEFAULT;
#define NET_SBOX_PARAM(NAME, KEY, DEFAULT, FIELD) c->FIELD = DEFAULT;
#include "sanfab_params.h"
    c->deadlock_limit = 100000;
    c->warmup = 20000;
    c->cycles = 100000;
    c->drain = 0;
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

/* How a number key's value is stored: the type of its field. */
enum { F_NONE, F_UNS, F_U64, F_INT, F_DBL };
/* a field of sf_sim_cfg: its offset and its type (a field of another type does not compile) */
#define FIELD(m) offsetof(sf_sim_cfg, m), _Generic(((sf_sim_cfg *)0)->m, unsigned: F_UNS, uint64_t: F_U64, int: F_INT, double: F_DBL)
#define NOFIELD 0, F_NONE

/* The keys whose value is one number in a range, stored in one field (and a second: the same figure of the other
 * kind's NICs): whole numbers lo..hi, or (F_DBL) real numbers dlo..dhi stored divided by div; why = the message for
 * a value out of range or not a number. The other keys (paths, names, lists, and the numbers with a further rule:
 * timeout, vcs) have their cases in sf_sim_cfg_set. */
typedef struct {
    const char *why;
    uint64_t lo, hi;
    double dlo, dhi, div;
    size_t off;
    unsigned char type;
    size_t off2;
    unsigned char type2;
} num_key;

#define U(lo, hi, why, f1, f2) {why, lo, hi, 0, 0, 0, f1, f2}
#define D(lo, hi, div, why, f1, f2) {why, 0, 0, lo, hi, div, f1, f2}
static const num_key num_keys[K_N] = {
    [K_HOTSPOT] = D(0, 100, 100.0, "expected a percentage 0..100", FIELD(tr.hotspot_frac), NOFIELD),
    [K_LOCAL] = U(1, 1000000, "expected a whole number of switches 1..1000000", FIELD(tr.local_l), NOFIELD),
    [K_MSGSIZE] = U(8, 65536, "expected bytes 8..65536", FIELD(nic.msg_size), NOFIELD),
    [K_PKTFLITS] = U(2, 256, "expected flits 2..256 (the VC switch's largest MAXLEN)", FIELD(vnic.packet_flits), NOFIELD),
    [K_WARMUP] = U(0, 1000000000000ull, "expected cycles 0..10^12", FIELD(warmup), NOFIELD),
    [K_CYCLES] = U(1, 1000000000000ull, "expected cycles 1..10^12", FIELD(cycles), NOFIELD),
    [K_DRAIN] = U(0, 1000000000000ull, "expected cycles 0..10^12", FIELD(drain), NOFIELD),
    [K_SEED] = U(0, UINT64_MAX, "expected a whole number 0..2^64-1", FIELD(tr.seed), NOFIELD),
    [K_LINKDELAY] = U(0, NET_MAX_DELAY, "expected cycles 0..4096", FIELD(link_delay), NOFIELD),
    [K_HOSTDELAY] = U(0, NET_MAX_DELAY, "expected cycles 0..4096", FIELD(host_delay), NOFIELD),
    [K_ROUTEDELAY] = U(0, 255, "expected a whole number 0..255", FIELD(route_delay), NOFIELD),
    [K_SLACK] = U(0, 8191, "expected a whole number 0..8191", FIELD(slack), NOFIELD),
    [K_STOP] = U(0, 8191, "expected a whole number 0..8191", FIELD(stop), NOFIELD),
    [K_GO] = U(0, 8191, "expected a whole number 0..8191", FIELD(go), NOFIELD),
    [K_CTRL] = U(0, 1, "expected 0 or 1", FIELD(vcsw.CTRL), NOFIELD),
    [K_COUNTERS] = U(0, 1, "expected 0 or 1", FIELD(vcsw.COUNTERS), NOFIELD),
    [K_FLITW] = U(1, 32, "expected bits 1..32 (checked with the other VC switch parameters)", FIELD(vcsw.FLIT_W), NOFIELD),
    [K_TAGW] = U(1, 32, "expected bits 1..32 (checked with the other VC switch parameters)", FIELD(vcsw.TAG_W), NOFIELD),
    [K_CTRW] = U(1, 32, "expected bits 1..32 (checked with the other switch parameters)", FIELD(vcsw.CTR_WIDTH), FIELD(mnic.ctr_w)),
    [K_LINKW] = U(4, 8, "expected 4 or 8 (checked with the other Maestro parameters)", FIELD(mnic.link_w), NOFIELD),
    [K_FIFO] = U(256, 4096, "expected bytes 256..4096 (a power of 2; checked with the other Maestro parameters)", FIELD(mnic.fifo_bytes), NOFIELD),
    [K_TURN] = U(0, 15, "expected cycles 0..15", FIELD(mnic.turn), NOFIELD),
    [K_MCASTK] = U(0, 63, "expected members 0..63 (0 = every other host)", FIELD(tr.mcast_k), NOFIELD),
    [K_MLCTMO] = U(0, 65535, "expected cycles 0..65535 (0 or at least 16)", FIELD(mnic.timeout), NOFIELD),
    [K_DEPTH] = U(1, 256, "expected flits 1..256 (checked with the other VC switch parameters)", FIELD(vcsw.DEPTH), NOFIELD),
    [K_MAXLEN] = U(1, 256, "expected flits 1..256 (checked with the other VC switch parameters)", FIELD(vcsw.MAXLEN), NOFIELD),
    [K_ITBDETECT] = U(0, 1000000, "expected a whole number 0..1000000", FIELD(nic.itb_detect), NOFIELD),
    [K_ITBDMA] = U(0, 1000000, "expected a whole number 0..1000000", FIELD(nic.itb_dma), NOFIELD),
    [K_ITBPRIO] = U(0, 1000000, "expected a whole number 0..1000000", FIELD(nic.prio_equal), NOFIELD),
    [K_ITBPOOL] = U(0, 0xFFFFFFFFull * 1024, "expected bytes 0..2^42", FIELD(nic.itb_pool), NOFIELD),
    [K_NICBUF] = U(1, 65536, "expected bytes (flits) 1..65536", FIELD(nic.rx_buf), FIELD(vnic.rx_buf)),
    [K_NICSTOP] = U(0, 65536, "expected bytes 0..65536", FIELD(nic.rx_stop), NOFIELD),
    [K_NICGO] = U(0, 65536, "expected bytes 0..65536", FIELD(nic.rx_go), NOFIELD),
    [K_NICDRAIN] = U(1, 64, "expected bytes (flits) per 64 cycles 1..64", FIELD(nic.rx_drain_per_64), FIELD(vnic.rx_drain_per_64)),
    [K_NICINJ] = U(1, 64, "expected bytes per 64 cycles 1..64", FIELD(nic.tx_per_64), NOFIELD),
    [K_THRESH] = U(0, 1000000, "expected a whole number 0..1000000", FIELD(nic.pol.threshold), FIELD(vnic.pol.threshold)),
    [K_PROBEROUNDS] = U(1, 1000000, "expected a whole number 1..1000000", FIELD(nic.pol.probe_rounds), NOFIELD),
    [K_PROBEMARGIN] = U(0, 1000000, "expected a whole number 0..1000000", FIELD(nic.probe_margin), NOFIELD),
    [K_ROOT] = U(0, 1000000, "expected a whole number 0..1000000", FIELD(wlp.root), NOFIELD),
    [K_PROB] = D(0, 100, 100.0, "expected a percentage 0..100", FIELD(nic.pol.probability), FIELD(vnic.pol.probability)),
    [K_MSGBYTES] = U(1, 1ull << 40, "expected bytes 1..2^40", FIELD(wlp.bytes), NOFIELD),
    [K_MESSAGES] = U(1, 1000000000, "expected a whole number 1..10^9", FIELD(wlp.messages), NOFIELD),
    [K_MTU] = U(16, 65536, "expected bytes 16..65536", FIELD(mtu), NOFIELD),
    [K_MAXCYC] = U(1, 1000000000000ull, "expected cycles 1..10^12", FIELD(max_cycles), NOFIELD),
    [K_NSPC] = D(0.001, 1000000, 1.0, "expected nanoseconds 0.001..10^6", FIELD(ns_per_cycle), NOFIELD),
    [K_DEADLOCK] = U(0, 1000000000000ull, "expected cycles 0..10^12 (0 = never)", FIELD(deadlock_limit), NOFIELD),
    [K_SAT] = D(0.01, 1, 1.0, "expected a ratio 0.01..1", FIELD(sat_ratio), NOFIELD),
};
#undef U
#undef D

/* store a number key's value in a field of c */
static void store(sf_sim_cfg *c, size_t off, unsigned char type, uint64_t u, double d)
{
    void *f = (char *)c + off;
    if (type == F_UNS)
        *(unsigned *)f = (unsigned)u;
    else if (type == F_U64)
        *(uint64_t *)f = u;
    else if (type == F_INT)
        *(int *)f = (int)u;
    else if (type == F_DBL)
        *(double *)f = d;
}

int sf_sim_cfg_set(sf_sim_cfg *c, const char *key, const char *value, const char *where, int from_cmdline, sf_err *e)
{
    int k = sf_sim_key_index(key);
    if (k < 0)
        return sf_sim_unknown_key(e, where, key, 0);
    if (from_cmdline && c->set_cmd[k]) {
        snprintf(e->msg, sizeof e->msg, "%.240s: --%.60s given twice", where, key);
        return -1;
    }
    uint64_t u = 0;
    double d = 0;
    int yn;
    const num_key *nk = &num_keys[k];
    if (nk->why) { /* a number in a range, in one or two fields */
        if (nk->type == F_DBL ? parse_dbl(value, nk->dlo, nk->dhi, &d) : sf_parse_u64(value, nk->lo, nk->hi, &u))
            return bad(e, where, key, nk->why, value);
        if (nk->type == F_DBL)
            d /= nk->div;
        store(c, nk->off, nk->type, u, d);
        store(c, nk->off2, nk->type2, u, d);
    }
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
        if (strcmp(value, "xbar") && strcmp(value, "vcsw") && strcmp(value, "sbox")) {
            char why[300], dym[80];
            snprintf(why, sizeof why, "unknown switch kind%s (xbar, vcsw or sbox)", dym_list(dym, sizeof dym, value, "xbar, vcsw, sbox"));
            return bad(e, where, key, why, value);
        }
        snprintf(c->kind, sizeof c->kind, "%s", value);
        c->k = strcmp(value, "vcsw") == 0 ? SF_KIND_VCSW : strcmp(value, "sbox") == 0 ? SF_KIND_SBOX : SF_KIND_XBAR;
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
    case K_ALLOWDL:
    case K_LINKS:
        if (yesno(value, &yn))
            return bad(e, where, key, "expected yes or no", value);
        *(k == K_ALLOWDL ? &c->allow_deadlock : &c->links) = yn;
        break;
    }
    if (from_cmdline)
        c->set_cmd[k] = 1;
    c->given[k] = 1;
    return 0;
}
