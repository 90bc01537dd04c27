/* sanfab-sim - cycle-exact network simulator: the switch models the RTL is held against (crossbar cmodel/xbar.c,
 * VC switch cmodel/vcsw.c, Maestro switch box cmodel/sbox.c) joined by the fabric (cmodel/net.c), with Myrinet NICs
 * and In-Transit Buffers (sw/sim/sf_nic.c), RHiNET NICs (sw/sim/sf_vcnic.c) or Maestro NIs (sw/sim/sf_mnic.c), one
 * traffic layer (sw/sim/sf_traffic.c). docs/network.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sf_cli.h"
#include "sf_sim.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-sim [CONFIG] [--KEY VALUE ...] [-o FILE] [--jobs N] [--time] [--quiet] [--no-skip]\n"
            "\n"
            "Simulates a network of switch models, one run per offered load, and writes the results as JSON\n"
            "(stdout, or -o FILE). CONFIG is a file of \"KEY VALUE\" lines after a first line \"sanfab-sim 1\"\n"
            "(# comments); every KEY is also an option --KEY VALUE that overrides the file. Paths in CONFIG are\n"
            "relative to its directory.\n"
            "\n"
            "Three kinds of network (key switch), each running the route sets it can:\n"
            "  xbar  Myrinet-style crossbars (cmodel/xbar.c) with Myrinet NICs: source routes of ONE VC, In-Transit\n"
            "        Buffers included (sanfab-route updown, itb, fm --deadlock itb, clos-all, ...). Load in\n"
            "        flits/ns/switch; 1 cycle = 1 flit = 6.25 ns (Flich et al. 2002).\n"
            "  vcsw  RHiNET-style table-lookup VC switches (cmodel/vcsw.c) with RHiNET NICs: route sets with VCs (dl,\n"
            "        lash, fm --deadlock layers, updown --vcs N) and one-VC sets without ITBs, through the tables of\n"
            "        sanfab-route --rhinet (key tables; without it the tables are written from the routes). Load and\n"
            "        throughput in flits/host/cycle (Koibuchi et al. 2003); defaults: 4 VCs, 128-flit packets, DEPTH 256,\n"
            "        cables of 0 registers, 50,000 + 950,000 cycles.\n"
            "  sbox  a tree of Maestro switch boxes (cmodel/sbox.c) with Maestro NIs (an MLC and its host driver per\n"
            "        host): destination tables of sanfab-route --maestro (key tables; without it written from the\n"
            "        routes: updown on a tree), at most 16 hosts, boxes of at most 8 ports (Yamagiwa et al. 2000).\n"
            "        Load and throughput in payload bytes/host/cycle (and Mbit/s at 50 MHz: 1 cycle = 20 ns);\n"
            "        message-size <= 11 is a Type0 message; defaults: 4-bit links of 0 registers, 2 KB FIFOs.\n"
            "        Directed measurements (Fig. 8, ping-pong, multicast, barrier): sanfab-maestro --help.\n"
            "  A route set with VCs on a crossbar network, or with ITBs on a VC network, is refused with a message\n"
            "  that names the kind to use; FM route sets with a host map (--map random) run with a workload.\n"
            "\n"
            "A run is either constant-rate traffic at one or more loads (key load), or one message workload (key\n"
            "workload: a built-in one; workload-file: your own, docs/network.md \"Workloads\") that runs until every\n"
            "host has finished its program: completion time, per-host and aggregate bandwidth (crossbar network).\n"
            "The NIC's route policy (key policy) chooses among a pair's alternative routes (clos-all, fm).\n"
            "\n"
            "options:\n"
            "  -o FILE      write the JSON to FILE instead of standard output\n"
            "  --jobs N     run up to N load points at once, in separate processes (1..64, default 1)\n"
            "  --time       add wall-clock figures (seconds, cycles/s, flit-hops/s) to the JSON (not reproducible)\n"
            "  --quiet      no progress and no per-point lines on standard error (the seed is still printed)\n"
            "  --no-skip    step every switch every cycle (default: quiet switches with idle inputs are skipped and\n"
            "               fast-forwarded exactly; the JSON is the same, only slower; for tests and timing)\n"
            "  --help       this text\n"
            "  --version    print the version\n"
            "\n"
            "keys (default for each kind, meaning):\n");
    sf_sim_keys_help(f);
    fprintf(f, "\none file per run: the topology and the routes made in the run (sanfab-topo's and sanfab-route's own code):\n"
               "  topology-gen random --switches 16 --hosts 4 --seed 1     (sanfab-topo's command line, no -o)\n"
               "  routing itb --seed 1                                     (sanfab-route's, no topology, no outputs)\n"
               "  write-topology net.topo   write-routes itb.routes        (keep what was made; write-tables: RHiNET tables)\n"
               "  On the command line quote the line: --topology-gen 'random --switches 16' --routing 'dl --vcs 3'.\n"
               "  Ready configs: examples/*.conf (examples/README.md).\n"
               "\nexample:\n"
               "  sanfab-topo random --switches 16 --seed 1 -o net.topo\n"
               "  sanfab-route itb net.topo --seed 1 -o itb.routes\n"
               "  sanfab-sim --topology net.topo --routes itb.routes --load 0.005,0.01,0.02 --jobs 2 -o itb.json\n"
               "  sanfab-route dl net.topo --vcs 3 --select sancho -o dl.routes --rhinet dl.rhinet\n"
               "  sanfab-sim --switch vcsw --topology net.topo --routes dl.routes --tables dl.rhinet --load 0.1,0.2 -o dl.json\n"
               "  sanfab-sim --switch sbox --topology-gen 'tree --levels 2 --fanout 4 --hosts 4' --routing updown \\\n"
               "             --load 0.02,0.05 -o maestro.json\n"
               "  sanfab-topo clos --leaves 8 --hosts 4 --spines 4 -o clos.topo\n"
               "  sanfab-route clos-all clos.topo -o clos.routes\n"
               "  sanfab-sim --topology clos.topo --routes clos.routes --workload exchange --message-bytes 65536 \\\n"
               "             --messages 4 --policy probing --threshold 16 --seed 3 -o x.json\n");
}

typedef struct {
    double load;
    int tty;
} prog_ctx;

static void progress(void *ctx, uint64_t done, uint64_t total)
{
    prog_ctx *p = ctx;
    if (!p->tty)
        return;
    int w = 40, k = total ? (int)(w * done / total) : w;
    fprintf(stderr, "\rsanfab-sim: load %-8.6g [%.*s%*s] %3d%%", p->load, k, "########################################", w - k, "",
            total ? (int)(100 * done / total) : 100);
    fflush(stderr);
}

static void point_line(const sf_sim_cfg *c, int i, double off, double acc, int sat, double secs, double hops, uint64_t cyc)
{
    fprintf(stderr, "sanfab-sim: load %g: offered %.5f accepted %.5f %s%s, %llu cycles in %.1f s (%.0f cycles/s, %.2f M flit-hops/s)\n",
            c->loads[i], off, acc, sf_sim_load_unit(c), !sat ? "" : sat == SF_SIM_SAT_HOTSPOT ? " (saturated: the hotspot host)" : " (saturated)",
            (unsigned long long)cyc, secs, cyc / (secs > 0 ? secs : 1e-9),
            hops / (secs > 0 ? secs : 1e-9) / 1e6);
}

/* runs load point i into `part`: a line "offered accepted saturated seconds flit_hops cycles", then its JSON */
static int do_point(const sf_sim_cfg *c, const sf_sim_net *net, int i, FILE *part, int with_time, prog_ctx *pc)
{
    double o, a, s, h;
    int st;
    uint64_t cyc;
    sf_err e = {{0}};
    pc->load = c->loads[i];
    FILE *body = tmpfile();
    int r = body ? sf_sim_run_point(c, net, i, body, with_time, progress, pc, &o, &a, &st, &s, &h, &cyc, &e) : -1;
    if (pc->tty)
        fprintf(stderr, "\r%*s\r", 70, "");
    if (r == 0) {
        fprintf(part, "%a %a %d %a %a %llu\n", o, a, st, s, h, (unsigned long long)cyc);
        rewind(body);
        int ch;
        while ((ch = fgetc(body)) != EOF)
            fputc(ch, part);
        if (fflush(part) != 0)
            r = -1;
    } else {
        fprintf(stderr, "sanfab-sim: %s\n", body ? e.msg : "cannot create a temporary file");
    }
    if (body)
        fclose(body);
    return r == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    sf_sim_cfg c;
    sf_sim_cfg_default(&c);
    sf_err e = {{0}};
    const char *cfgpath = NULL, *outpath = NULL;
    int jobs = 1, quiet = 0, with_time = 0, seen_o = 0, seen_jobs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            sf_cli_print_version(stdout, "sanfab-sim");
            return 0;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "--time") || !strcmp(a, "--no-skip")) {
            int *v = !strcmp(a, "--quiet") ? &quiet : !strcmp(a, "--time") ? &with_time : &c.no_skip;
            if (*v) {
                fprintf(stderr, "sanfab-sim: %s given twice\n", a);
                return 2;
            }
            *v = 1;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--jobs")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sanfab-sim: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "-o")) {
                if (seen_o++) {
                    fprintf(stderr, "sanfab-sim: -o given twice\n");
                    return 2;
                }
                outpath = v;
            } else {
                char *end;
                long j = strtol(v, &end, 10);
                if (seen_jobs++ || *end || !*v || j < 1 || j > 64) {
                    fprintf(stderr, "sanfab-sim: --jobs: expected a whole number 1..64 given once (got \"%s\")\n", v);
                    return 2;
                }
                jobs = (int)j;
            }
        } else if (a[0] == '-' && a[1] == '-') {
            static const char *const own[] = {"--jobs", "--time", "--quiet", "--no-skip", "--help", "--version"};
            if (sf_sim_cfg_arg(&c, "sanfab-sim", argc, argv, &i, own, sizeof own / sizeof own[0]))
                return 2;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sanfab-sim: unknown option %s (--help lists them)\n", a);
            return 2;
        } else {
            if (cfgpath) {
                fprintf(stderr, "sanfab-sim: more than one config file (%s, %s)\n", cfgpath, a);
                return 2;
            }
            cfgpath = a;
        }
    }
    if (cfgpath && sf_sim_cfg_read(&c, cfgpath, &e)) {
        fprintf(stderr, "sanfab-sim: %s\n", e.msg);
        return 1;
    }
    if (sf_sim_cfg_check(&c, &e)) {
        fprintf(stderr, "sanfab-sim: %s\n", e.msg);
        return 2;
    }
    if (jobs > c.nloads && c.nloads)
        jobs = c.nloads;
    fprintf(stderr, "sanfab-sim: seed %llu\n", (unsigned long long)c.tr.seed);
    sf_sim_net net;
    if (sf_sim_net_load(&c, &net, &e)) {
        fprintf(stderr, "sanfab-sim: %s\n", e.msg);
        return 1;
    }
    if (net.cyclic && !quiet)
        fprintf(stderr, "sanfab-sim: warning: the route set can deadlock (%s); forward resets will be counted\n", net.cycle);
    FILE *out = stdout;
    if (outpath && !(out = fopen(outpath, "w"))) {
        fprintf(stderr, "sanfab-sim: %s: cannot write: %s\n", outpath, strerror(errno));
        sf_sim_net_free(&net);
        return 1;
    }
    if (net.wl) { /* one workload run */
        prog_ctx pc = {0, !quiet && isatty(2)};
        double secs = 0, hops = 0;
        uint64_t cyc = 0;
        int rc = sf_sim_run_workload(&c, &net, out, with_time, progress, &pc, &secs, &hops, &cyc, &e);
        if (pc.tty)
            fprintf(stderr, "\r%*s\r", 70, "");
        if (rc)
            fprintf(stderr, "sanfab-sim: %s\n", e.msg);
        else if (!quiet)
            fprintf(stderr, "sanfab-sim: workload %s: %llu cycles in %.1f s (%.2f M flit-hops/s)\n", net.wl->desc,
                    (unsigned long long)cyc, secs, hops / (secs > 0 ? secs : 1e-9) / 1e6);
        if (out != stdout && fclose(out) != 0) {
            fprintf(stderr, "sanfab-sim: %s: write error\n", outpath);
            rc = -1;
        }
        sf_sim_net_free(&net);
        return rc ? 1 : 0;
    }
    int N = c.nloads, rc = 0;
    double *off = calloc((size_t)N, sizeof *off), *acc = calloc((size_t)N, sizeof *acc);
    int *sat = calloc((size_t)N, sizeof *sat);
    FILE **part = calloc((size_t)N, sizeof *part);
    pid_t *pid = calloc((size_t)N, sizeof *pid);
    if (!off || !acc || !sat || !part || !pid) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        return 2;
    }
    prog_ctx pc = {0, !quiet && jobs == 1 && isatty(2)};
    /* each point writes "offered accepted saturated seconds flit_hops cycles" (a line), then its JSON, into its own
     * temporary file; with --jobs the points run in child processes, JSON assembled in load order */
    for (int i = 0; i < N; i++)
        if (!(part[i] = tmpfile())) {
            fprintf(stderr, "sanfab-sim: cannot create a temporary file: %s\n", strerror(errno));
            return 1;
        }
    if (jobs == 1) {
        for (int i = 0; i < N && rc == 0; i++)
            rc = do_point(&c, &net, i, part[i], with_time, &pc);
    } else {
        int running = 0, next = 0, finished = 0;
        while (finished < next || next < N) {
            while (next < N && running < jobs) {
                fflush(NULL);
                pid[next] = fork();
                if (pid[next] < 0) {
                    fprintf(stderr, "sanfab-sim: fork: %s\n", strerror(errno));
                    return 1;
                }
                if (pid[next] == 0)
                    _exit(do_point(&c, &net, next, part[next], with_time, &pc));
                next++;
                running++;
            }
            int status;
            if (wait(&status) < 0)
                break;
            running--;
            finished++;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                rc = 1;
        }
    }
    if (rc == 0) {
        sf_sim_json_head(&c, &net, out);
        for (int i = 0; i < N; i++) {
            rewind(part[i]);
            double s, h;
            unsigned long long cyc;
            if (fscanf(part[i], "%la %la %d %la %la %llu\n", &off[i], &acc[i], &sat[i], &s, &h, &cyc) != 6) {
                fprintf(stderr, "sanfab-sim: load point %g produced no result\n", c.loads[i]);
                rc = 1;
                break;
            }
            if (!quiet)
                point_line(&c, i, off[i], acc[i], sat[i], s, h, cyc);
            if (i)
                fputs(",\n", out);
            int ch;
            while ((ch = fgetc(part[i])) != EOF)
                fputc(ch, out);
        }
        if (rc == 0)
            sf_sim_json_tail(&c, &net, off, acc, sat, out);
    }
    for (int i = 0; i < N; i++)
        if (part[i])
            fclose(part[i]);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "sanfab-sim: %s: write error\n", outpath);
        rc = 1;
    }
    free(off);
    free(acc);
    free(sat);
    free(part);
    free(pid);
    sf_sim_net_free(&net);
    return rc;
}
