/* sf_simcfg.c - the network simulator's configuration files, timing sets, the switch kind's defaults and the checks of
 * a configuration (sf_sim.h). */
#include "sf_sim_int.h"

#include "mlc_host.h"
#include "xbar.h"

#include <unistd.h>

#include <errno.h>
#include <string.h>

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
        int k = sf_sim_key_index(key);
        if (k < 0) {
            rc = sf_sim_unknown_key(e, where, key, 0);
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
                     sf_sim_keys[later].name, sf_sim_keys[first].name, c->set_line[first],
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
    if (c->k == SF_KIND_SBOX) {
        if (!c->given[K_LINKDELAY])
            c->link_delay = 0;
        if (!c->given[K_NSPC])
            c->ns_per_cycle = 20.0;
        c->mnic.msg_bytes = c->given[K_MSGSIZE] ? c->nic.msg_size : MLC_T0_DATA;
        c->mnic.link_delay = c->link_delay;
        return;
    }
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
                         sf_sim_keys[k].name);
                return -1;
            }
    /* a probe's unloaded time: both host cables, and per switch its header-to-first-byte latency (docs/xbar.md
     * "Latency": max(4, ROUTE_DELAY + 3)) and a cable */
    c->nic.probe_base = 2 * c->host_delay + 8;
    c->nic.probe_per_switch = (c->route_delay + 3 > 4 ? c->route_delay + 3 : 4) + c->link_delay;
    const unsigned kbit = c->k == SF_KIND_VCSW ? FOR_VCSW : c->k == SF_KIND_SBOX ? FOR_SBOX : FOR_XBAR;
    static const char *const kind_name[3] = {"crossbar network (switch xbar)", "VC-switch network (switch vcsw)",
                                             "Maestro network (switch sbox)"};
    for (int k = 0; k < K_N; k++)
        if (c->given[k] && !(sf_sim_keys[k].kinds & kbit)) {
            char owners[200] = "";
            for (unsigned i = 0, n = 0; i < 3; i++)
                if (sf_sim_keys[k].kinds & (1u << i)) {
                    const size_t l = strlen(owners);
                    snprintf(owners + l, sizeof owners - l, "%s%s", n++ ? " and the " : "", kind_name[i]);
                }
            snprintf(e->msg, sizeof e->msg, "%s is a key of the %s, and this run's switch is %s (sanfab-sim --help: the keys "
                     "of each kind)", sf_sim_keys[k].name, owners, c->kind);
            return -1;
        }
    if (c->tr.pattern == SF_TR_MULTICAST && c->k != SF_KIND_SBOX) {
        snprintf(e->msg, sizeof e->msg, "multicast traffic runs on the Maestro network (switch sbox), whose boxes copy a message on "
                 "their bus; this run's switch is %s", c->kind);
        return -1;
    }
    if (c->k == SF_KIND_SBOX) {
        sf_sim_cfg_kind_defaults(c);
        if (wl && c->mtu > MLC_T1_MAX_LEN) {
            snprintf(e->msg, sizeof e->msg, "mtu %u: a Maestro message carries at most %u user bytes (LEN is 16 bits)", c->mtu,
                     MLC_T1_MAX_LEN);
            return -1;
        }
        if (c->mnic.msg_bytes > MLC_T1_MAX_LEN) {
            snprintf(e->msg, sizeof e->msg, "message-size %u: a Maestro message carries at most %u user bytes (LEN is 16 bits)",
                     c->mnic.msg_bytes, MLC_T1_MAX_LEN);
            return -1;
        }
        sbox_params_t p = {8, SBOX_MAX_NODES, c->mnic.link_w, c->mnic.fifo_bytes, c->mnic.turn, c->mnic.timeout,
                           c->mnic.ctr_w, 0, c->link_delay};
        char why[200];
        if (c->link_delay > MLC_MAX_LINK_DELAY) {
            snprintf(e->msg, sizeof e->msg, "link-delay %u: a Maestro link has at most %d cable registers (the boxes' LINK_DELAY)",
                     c->link_delay, MLC_MAX_LINK_DELAY);
            return -1;
        }
        if (sbox_params_check(&p, why, sizeof why)) {
            snprintf(e->msg, sizeof e->msg, "Maestro parameters (link-width/fifo-bytes/turn/mlc-timeout/ctr-width): %s", why);
            return -1;
        }
        for (int i = 0; i < c->nloads; i++)
            if (c->loads[i] > c->mnic.link_w / 8.0) {
                snprintf(e->msg, sizeof e->msg, "load %g bytes/host/cycle: a Maestro link of link-width %u carries at most %g bytes a "
                         "cycle", c->loads[i], c->mnic.link_w, c->mnic.link_w / 8.0);
                return -1;
            }
        return 0;
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
