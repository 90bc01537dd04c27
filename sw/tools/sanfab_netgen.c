/* sanfab-netgen: the RTL network generator (docs/network.md "RTL network"). Reads a topology file
 * (docs/topology.md, the routing tools' parser: same FILE:LINE messages) and writes one Verilog-2005
 * module of one switch kind:
 *   xbar: one crossbar per switch with its own port count, switch ports joined by cables of CABLE_DELAY
 *         registers, every host port brought out as a pair of 9-bit links through cables of HOST_DELAY
 *         registers, and every switch output on one flat bus for the network lockstep bench;
 *   vcsw: one VC switch per switch with its own port count, flit links and per-VC stop bits wired switch to
 *         switch (the cable is each switch's LINK_DELAY), every host port brought out as flit and stop buses,
 *         one configuration write port per switch (its tables are loaded through it before a reset), and
 *         every switch's flit outputs and stop bits on flat buses for the bench;
 *   sbox: one Maestro switch box per switch of a tree, its up port (towards the root) its link master, links as
 *         cables of LINK_DELAY registers, hosts brought out as en/d buses through cables of the same delay, one
 *         register port per box (its table and up port are loaded through it after reset), and every box output
 *         on flat buses for the bench. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_cli.h"
#include "sf_sim.h"
#include "sf_topo.h"
#include "sbox.h"
#include "xbar.h"

/* The module's parameters and their defaults: sanfab-sim's (sf_sim_cfg_default and the kind's defaults), so a
 * generated network and the C network it is held against start from the same timing. */
typedef struct {
    const char *name;
    unsigned value;
} param_t;
enum { NPARAM_MAX = 9 };

/* the parameters of kind `kind` (0 xbar, 1 vcsw, 2 sbox); returns their number */
static int params(int kind, param_t p[NPARAM_MAX])
{
    sf_sim_cfg c;
    sf_sim_cfg_default(&c);
    if (kind == 2) {
        /* the Maestro network's: sanfab-sim's sbox defaults (cmodel/sanfab_params.h, NET_SBOX_PARAM) */
        sf_err e;
        sf_sim_cfg_set(&c, "switch", "sbox", "netgen", 0, &e);
        sf_sim_cfg_kind_defaults(&c);
        const param_t d[] = {
#define NET_SBOX_PARAM(NAME, KEY, DEFAULT, FIELD) {#NAME, c.FIELD},
#include "sanfab_params.h"
        };
        memcpy(p, d, sizeof d);
        return (int)(sizeof d / sizeof d[0]);
    }
    if (kind == 0) {
        const param_t d[] = {{"SLACK_DEPTH", c.slack}, {"STOP_THRESH", c.stop},       {"GO_THRESH", c.go},
                             {"ROUTE_DELAY", c.route_delay}, {"TIMEOUT", c.timeout}, {"CABLE_DELAY", c.link_delay},
                             {"HOST_DELAY", c.host_delay}};
        memcpy(p, d, sizeof d);
        return (int)(sizeof d / sizeof d[0]);
    }
    sf_err e;
    sf_sim_cfg_set(&c, "switch", "vcsw", "netgen", 0, &e);
    sf_sim_cfg_kind_defaults(&c);
    const vcsw_params_t *v = &c.vcsw;
    const param_t d[] = {{"NVC", v->NVC},       {"CTRL", v->CTRL},         {"FLIT_W", v->FLIT_W},
                         {"TAG_W", v->TAG_W},   {"DEPTH", v->DEPTH},       {"MAXLEN", v->MAXLEN},
                         {"LINK_DELAY", v->LINK_DELAY}, {"COUNTERS", v->COUNTERS}, {"CTR_WIDTH", v->CTR_WIDTH}};
    memcpy(p, d, sizeof d);
    return (int)(sizeof d / sizeof d[0]);
}

/* the end of the header comment, then the module line, kind k's parameters (params: into p, their number returned)
 * and its clock and reset ports (the VC-switch and switch-box tops; the crossbar's keeps its own layout, as
 * rtl/net/net4.v has it) */
static int module_head(FILE *f, const char *mod, int k, param_t p[NPARAM_MAX])
{
    fprintf(f, ".\n`default_nettype none\n\nmodule %s #(\n", mod);
    const int np = params(k, p);
    for (int i = 0; i < np; i++)
        fprintf(f, "    parameter %-10s = %u%s\n", p[i].name, p[i].value, i + 1 < np ? "," : "");
    fprintf(f, ") (\n    input  wire clk,\n    input  wire rst,\n");
    return np;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-netgen TOPOLOGY [--module NAME] [--kind xbar|vcsw|sbox] [-o FILE]\n"
            "Writes a Verilog-2005 top of the network of TOPOLOGY (docs/topology.md), of one switch kind\n"
            "(docs/network.md \"RTL network\"):\n"
            "  xbar (default): one crossbar (rtl/xbar/xbar.v) per switch with its own NPORTS, links as\n"
            "    rtl/common/delay_line.v cables, hosts brought out as from_host/to_host 9-bit links, and sw_tx: every\n"
            "    switch output port;\n"
            "  vcsw: one VC switch (rtl/vcsw/vcsw.v) per switch with its own NPORTS, links wired switch to switch\n"
            "    (the cable is each switch's LINK_DELAY), hosts brought out as from_host_*/to_host_* flit and stop\n"
            "    buses, cfg_we/cfg_addr/cfg_wdata: one table write port per switch (load the sanfab-route --rhinet\n"
            "    tables through them, then reset), and sw_tx_*/sw_rx_stop: every switch output;\n"
            "  sbox: one Maestro switch box (rtl/sbox/sbox.v) per switch of a tree with its own PORTS, NODES = the\n"
            "    host count, its up port (towards the root: the one level-0 switch, else switch 0) its link master\n"
            "    (MASTER_MASK), links as LINK_DELAY-register cables of {en, d}, hosts brought out as from_host_*/to_host_*\n"
            "    en and d buses through cables of the same delay, reg_*: one register port per box (load the tables and\n"
            "    up ports through them after reset, cmodel/sbox_net.h), and sw_tx_en/sw_tx_d: every box output.\n"
            "  --module NAME  module name (default: the output file's base name, else sanfab_net)\n"
            "  --kind KIND    switch kind: xbar, vcsw or sbox\n"
            "  --version      print the version\n"
            "Switch sizes the RTL builds: xbar NPORTS 2..32 (docs/xbar.md), vcsw NPORTS 2..16 (docs/vcsw.md), sbox\n"
            "PORTS 2..8 and 1..16 hosts (docs/sbox.md); a topology with a switch outside its kind's range is refused,\n"
            "and for sbox one that is not a tree or has more than 16 hosts.\n"
            "  -o FILE        output file (default standard output); the module should be named as the file\n"
            "Module parameters (defaults = sanfab-sim's; xbar: Myrinet timing, CABLE_DELAY is switch-switch):\n");
    static const char *const kname[3] = {"xbar", "vcsw", "sbox"};
    for (int k = 0; k < 3; k++) {
        param_t p[NPARAM_MAX];
        const int np = params(k, p);
        fprintf(f, "  %s:", kname[k]);
        for (int i = 0; i < np; i++)
            fprintf(f, "%s %s %u", i == 0 ? "" : ",", p[i].name, p[i].value);
        fprintf(f, ".\n");
    }
    fprintf(f, "Exit status: 0 written, 1 bad topology (FILE:LINE: problem), 2 bad command line or unwritable file.\n");
}

static int valid_ident(const char *s)
{
    if (!*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* A Verilog sized constant of a port range: "[hi:lo]" of port p of a 9-bit bus. */
static void slice(char *buf, size_t n, int p) { snprintf(buf, n, "[%d:%d]", p * 9 + 8, p * 9); }

/* Each switch's first port in the flat buses (base[s]; base[S] = every port), and the module's first comment
 * lines: what made it from which file (`how`: the options that name the kind) and the topology's name. */
static int *first_ports(FILE *f, const sf_topo *t, const char *mod, const char *topo_path, const char *how)
{
    const int S = t->nsw;
    int *base = calloc((size_t)S + 1, sizeof *base);
    if (!base) {
        fprintf(stderr, "sanfab-netgen: out of memory\n");
        exit(2);
    }
    for (int s = 0; s < S; s++)
        base[s + 1] = base[s] + t->sw[s].nports;
    const char *base_name = strrchr(topo_path, '/') ? strrchr(topo_path, '/') + 1 : topo_path;
    fprintf(f, "// %s -- generated by sanfab-netgen%s from %s; do not edit (docs/network.md \"RTL network\").\n", mod, how,
            base_name);
    if (t->name[0])
        fprintf(f, "// topology: %s\n", t->name);
    return base;
}

static void write_net(FILE *f, const sf_topo *t, const char *mod, const char *topo_path)
{
    const int S = t->nsw, H = t->nhost, L = sf_topo_nlinks(t);
    int *base = first_ports(f, t, mod, topo_path, "");
    const int P = base[S];
    fprintf(f, "// %d switches, %d hosts, %d links, %d switch ports. Cycle contract of cmodel/net.h: a word a switch or host\n"
               "// puts out after edge k is sampled at the far end at edge k + 1 + D (D = CABLE_DELAY or HOST_DELAY registers).\n",
            S, H, L, P);
    fprintf(f, "// from_host[h*9 +: 9]: what host h sends (sampled by its switch port HOST_DELAY + 1 edges later);\n"
               "// to_host[h*9 +: 9]: what reaches host h; sw_tx[(first port of switch s + p)*9 +: 9]: output p of switch s\n"
               "// (first ports:");
    for (int s = 0; s < S; s++)
        fprintf(f, "%s%d", s ? " " : " ", base[s]);
    fprintf(f, ").\n`default_nettype none\n\nmodule %s #(\n", mod);
    param_t p[NPARAM_MAX];
    const int np = params(0, p);
    for (int i = 0; i < np; i++)
        fprintf(f, "    parameter %-11s = %u%s\n", p[i].name, p[i].value, i + 1 < np ? "," : "");
    fprintf(f, ") (\n");
    fprintf(f, "    input  wire           clk,\n    input  wire           rst,\n");
    fprintf(f, "    input  wire [%d:0] from_host,\n    output wire [%d:0] to_host,\n    output wire [%d:0] sw_tx\n);\n\n",
            H * 9 - 1, H * 9 - 1, P * 9 - 1);
    fprintf(f, "    localparam [8:0] IDLE = 9'h100;\n\n");
    for (int s = 0; s < S; s++) {
        const int np = t->sw[s].nports;
        fprintf(f, "    wire [%d:0] s%d_rx;\n    wire [%d:0] s%d_tx;\n    wire [31:0] s%d_rdata;\n    wire s%d_rvalid;\n"
                   "    wire [%d:0] s%d_occ;\n",
                np * 9 - 1, s, np * 9 - 1, s, s, s, np * 8 - 1, s);
    }
    fprintf(f, "\n");
    for (int s = 0; s < S; s++) {
        const int np = t->sw[s].nports;
        fprintf(f, "    // switch %d: %d ports\n", s, np);
        fprintf(f, "    xbar #(\n        .NPORTS      (%d),\n        .SLACK_DEPTH (SLACK_DEPTH),\n"
                   "        .STOP_THRESH (STOP_THRESH),\n        .GO_THRESH   (GO_THRESH),\n"
                   "        .ROUTE_DELAY (ROUTE_DELAY),\n        .LINK_DELAY  (0),\n        .TIMEOUT     (TIMEOUT),\n"
                   "        .COUNTERS    (0),\n        .CTR_WIDTH   (32)\n    ) u_sw%d (\n",
                np, s);
        /* reg_addr is {port, counter[3:0]}: 8 bits, 9 above 16 ports (docs/xbar.md) */
        fprintf(f, "        .clk        (clk),\n        .rst        (rst),\n        .rx         (s%d_rx),\n"
                   "        .tx         (s%d_tx),\n        .reg_rd     (1'b0),\n        .reg_addr   (%d'd0),\n"
                   "        .reg_rdata  (s%d_rdata),\n        .reg_rvalid (s%d_rvalid),\n        .stat_occ   (s%d_occ)\n    );\n",
                s, s, np > 16 ? 9 : 8, s, s, s);
        fprintf(f, "    assign sw_tx[%d:%d] = s%d_tx;\n", base[s + 1] * 9 - 1, base[s] * 9, s);
        for (int p = 0; p < np; p++)
            if (t->sw[s].peer[p].kind == SF_PEER_NONE) {
                char sl[32];
                slice(sl, sizeof sl, p);
                fprintf(f, "    assign s%d_rx%s = IDLE; // port %d unconnected\n", s, sl, p);
            }
        fprintf(f, "\n");
    }
    for (int l = 0; l < L; l++) {
        for (int dir = 0; dir < 2; dir++) {
            const int c = 2 * l + dir;
            char sa[32], sb[32];
            slice(sa, sizeof sa, t->ch_fport[c]);
            slice(sb, sizeof sb, t->ch_tport[c]);
            fprintf(f, "    // link %d, channel %d: switch %d port %d -> switch %d port %d\n", l, c, t->ch_from[c],
                    t->ch_fport[c], t->ch_to[c], t->ch_tport[c]);
            fprintf(f, "    delay_line #(\n        .WIDTH     (9),\n        .DELAY     (CABLE_DELAY),\n"
                       "        .RESET_VAL (IDLE)\n    ) u_ch%d (\n        .clk (clk),\n        .rst (rst),\n"
                       "        .d   (s%d_tx%s),\n        .q   (s%d_rx%s)\n    );\n",
                    c, t->ch_from[c], sa, t->ch_to[c], sb);
        }
    }
    for (int h = 0; h < H; h++) {
        char sp[32], sh[32];
        slice(sp, sizeof sp, t->host[h].port);
        slice(sh, sizeof sh, h);
        fprintf(f, "    // host %d on switch %d port %d\n", h, t->host[h].sw, t->host[h].port);
        fprintf(f, "    delay_line #(\n        .WIDTH     (9),\n        .DELAY     (HOST_DELAY),\n"
                   "        .RESET_VAL (IDLE)\n    ) u_h%d_in (\n        .clk (clk),\n        .rst (rst),\n"
                   "        .d   (from_host%s),\n        .q   (s%d_rx%s)\n    );\n",
                h, sh, t->host[h].sw, sp);
        fprintf(f, "    delay_line #(\n        .WIDTH     (9),\n        .DELAY     (HOST_DELAY),\n"
                   "        .RESET_VAL (IDLE)\n    ) u_h%d_out (\n        .clk (clk),\n        .rst (rst),\n"
                   "        .d   (s%d_tx%s),\n        .q   (to_host%s)\n    );\n",
                h, t->host[h].sw, sp, sh);
    }
    fprintf(f, "\n    // register ports and occupancies are not used in a network\n    wire unused_ok = &{1'b0");
    for (int s = 0; s < S; s++)
        fprintf(f, ", s%d_rdata, s%d_rvalid, s%d_occ", s, s, s);
    fprintf(f, "};\n\nendmodule\n\n`default_nettype wire\n");
    free(base);
}


/* The VC-switch network (--kind vcsw). */
static void write_vcnet(FILE *f, const sf_topo *t, const char *mod, const char *topo_path)
{
    const int S = t->nsw, H = t->nhost, L = sf_topo_nlinks(t);
    int *base = first_ports(f, t, mod, topo_path, " --kind vcsw");
    const int P = base[S];
    fprintf(f, "// %d VC switches, %d hosts, %d links, %d switch ports. Cycle contract of cmodel/net.h with every cable inside\n"
               "// the switches (LINK_DELAY registers after each output) and the hosts' own cables outside this module: a flit\n"
               "// or a stop bit a switch puts out after edge k (and its LINK_DELAY registers) is sampled by its neighbour at\n"
               "// edge k + 1. Buses of port i (host h, or switch port i = first port of switch s + p) hold its field of width\n"
               "// w at [i*w +: w]: *_valid and *_tail 1 bit, *_vc $clog2(NVC), *_data FLIT_W, *_stop NVC (bit v = VC v).\n"
               "// from_host_stop is host h's Go & Stop towards its switch, to_host_stop its switch's towards it; sw_rx_stop\n"
               "// is what each switch port sends towards its sender. cfg_*[s]: switch s's configuration write port\n"
               "// (docs/vcsw.md); load the tables, then reset (rst keeps them). First ports:",
            S, H, L, P);
    for (int s = 0; s < S; s++)
        fprintf(f, " %d", base[s]);
    param_t p[NPARAM_MAX];
    const int np = module_head(f, mod, 1, p);
    fprintf(f, "    input  wire [%d:0] cfg_we,\n    input  wire [%d:0] cfg_addr,\n    input  wire [%d:0] cfg_wdata,\n", S - 1,
            S * 16 - 1, S * 16 - 1);
    const char *dir[2] = {"from_host", "to_host"};
    for (int d = 0; d < 2; d++) {
        const char *io = d ? "output" : "input ";
        fprintf(f, "    %s wire [%d:0] %s_valid,\n    %s wire [%d*$clog2(NVC)-1:0] %s_vc,\n    %s wire [%d:0] %s_tail,\n"
                   "    %s wire [%d*FLIT_W-1:0] %s_data,\n    %s wire [%d*NVC-1:0] %s_stop,\n",
                io, H - 1, dir[d], io, H, dir[d], io, H - 1, dir[d], io, H, dir[d], io, H, dir[d]);
    }
    fprintf(f, "    output wire [%d:0] sw_tx_valid,\n    output wire [%d*$clog2(NVC)-1:0] sw_tx_vc,\n    output wire [%d:0] sw_tx_tail,\n"
               "    output wire [%d*FLIT_W-1:0] sw_tx_data,\n    output wire [%d*NVC-1:0] sw_rx_stop\n);\n\n",
            P - 1, P, P - 1, P, P);
    fprintf(f, "    localparam VCW = $clog2(NVC);\n\n");
    for (int s = 0; s < S; s++) {
        const int n = t->sw[s].nports;
        fprintf(f, "    wire [%d:0] s%d_rx_valid, s%d_rx_tail, s%d_tx_valid, s%d_tx_tail;\n", n - 1, s, s, s, s);
        fprintf(f, "    wire [%d*VCW-1:0] s%d_rx_vc, s%d_tx_vc;\n    wire [%d*FLIT_W-1:0] s%d_rx_data, s%d_tx_data;\n", n, s, s, n, s, s);
        fprintf(f, "    wire [%d*NVC-1:0] s%d_rx_stop, s%d_tx_stop;\n    wire s%d_rvalid;\n    wire [31:0] s%d_rdata;\n", n, s, s, s, s);
    }
    fprintf(f, "\n");
    for (int s = 0; s < S; s++) {
        const int n = t->sw[s].nports;
        fprintf(f, "    // switch %d: %d ports\n", s, n);
        fprintf(f, "    vcsw #(\n        .NPORTS     (%d),\n", n);
        for (int i = 0; i < np; i++)
            fprintf(f, "        .%-10s (%s)%s\n", p[i].name, p[i].name, i + 1 < np ? "," : "");
        fprintf(f, "    ) u_sw%d (\n        .clk        (clk),\n        .rst        (rst),\n", s);
        fprintf(f, "        .rx_valid   (s%d_rx_valid),\n        .rx_vc      (s%d_rx_vc),\n        .rx_tail    (s%d_rx_tail),\n"
                   "        .rx_data    (s%d_rx_data),\n        .rx_stop    (s%d_rx_stop),\n",
                s, s, s, s, s);
        fprintf(f, "        .tx_valid   (s%d_tx_valid),\n        .tx_vc      (s%d_tx_vc),\n        .tx_tail    (s%d_tx_tail),\n"
                   "        .tx_data    (s%d_tx_data),\n        .tx_stop    (s%d_tx_stop),\n",
                s, s, s, s, s);
        fprintf(f, "        .cfg_we     (cfg_we[%d]),\n        .cfg_re     (1'b0),\n        .cfg_addr   (cfg_addr[%d +: 16]),\n"
                   "        .cfg_wdata  (cfg_wdata[%d +: 16]),\n        .cfg_rvalid (s%d_rvalid),\n        .cfg_rdata  (s%d_rdata)\n"
                   "    );\n",
                s, s * 16, s * 16, s, s);
        const int b = base[s];
        fprintf(f, "    assign sw_tx_valid[%d +: %d] = s%d_tx_valid;\n    assign sw_tx_vc[%d*VCW +: %d*VCW] = s%d_tx_vc;\n"
                   "    assign sw_tx_tail[%d +: %d] = s%d_tx_tail;\n    assign sw_tx_data[%d*FLIT_W +: %d*FLIT_W] = s%d_tx_data;\n"
                   "    assign sw_rx_stop[%d*NVC +: %d*NVC] = s%d_rx_stop;\n",
                b, n, s, b, n, s, b, n, s, b, n, s, b, n, s);
        for (int q = 0; q < n; q++)
            if (t->sw[s].peer[q].kind == SF_PEER_NONE)
                fprintf(f, "    assign s%d_rx_valid[%d] = 1'b0; // port %d unconnected\n    assign s%d_rx_vc[%d*VCW +: VCW] = "
                           "{VCW{1'b0}};\n    assign s%d_rx_tail[%d] = 1'b0;\n    assign s%d_rx_data[%d*FLIT_W +: FLIT_W] = "
                           "{FLIT_W{1'b0}};\n    assign s%d_tx_stop[%d*NVC +: NVC] = {NVC{1'b0}};\n",
                        s, q, q, s, q, s, q, s, q, s, q);
        fprintf(f, "\n");
    }
    for (int l = 0; l < L; l++)
        for (int d = 0; d < 2; d++) {
            const int c = 2 * l + d, a = t->ch_from[c], pa = t->ch_fport[c], b = t->ch_to[c], pb = t->ch_tport[c];
            fprintf(f, "    // link %d, channel %d: switch %d port %d -> switch %d port %d (and its stop bits back)\n", l, c, a, pa,
                    b, pb);
            fprintf(f, "    assign s%d_rx_valid[%d] = s%d_tx_valid[%d];\n    assign s%d_rx_vc[%d*VCW +: VCW] = s%d_tx_vc[%d*VCW +: VCW];\n"
                       "    assign s%d_rx_tail[%d] = s%d_tx_tail[%d];\n"
                       "    assign s%d_rx_data[%d*FLIT_W +: FLIT_W] = s%d_tx_data[%d*FLIT_W +: FLIT_W];\n"
                       "    assign s%d_tx_stop[%d*NVC +: NVC] = s%d_rx_stop[%d*NVC +: NVC];\n",
                    b, pb, a, pa, b, pb, a, pa, b, pb, a, pa, b, pb, a, pa, a, pa, b, pb);
        }
    for (int h = 0; h < H; h++) {
        const int s = t->host[h].sw, q = t->host[h].port;
        fprintf(f, "    // host %d on switch %d port %d\n", h, s, q);
        fprintf(f, "    assign s%d_rx_valid[%d] = from_host_valid[%d];\n    assign s%d_rx_vc[%d*VCW +: VCW] = from_host_vc[%d*VCW +: VCW];\n"
                   "    assign s%d_rx_tail[%d] = from_host_tail[%d];\n"
                   "    assign s%d_rx_data[%d*FLIT_W +: FLIT_W] = from_host_data[%d*FLIT_W +: FLIT_W];\n"
                   "    assign s%d_tx_stop[%d*NVC +: NVC] = from_host_stop[%d*NVC +: NVC];\n",
                s, q, h, s, q, h, s, q, h, s, q, h, s, q, h);
        fprintf(f, "    assign to_host_valid[%d] = s%d_tx_valid[%d];\n    assign to_host_vc[%d*VCW +: VCW] = s%d_tx_vc[%d*VCW +: VCW];\n"
                   "    assign to_host_tail[%d] = s%d_tx_tail[%d];\n"
                   "    assign to_host_data[%d*FLIT_W +: FLIT_W] = s%d_tx_data[%d*FLIT_W +: FLIT_W];\n"
                   "    assign to_host_stop[%d*NVC +: NVC] = s%d_rx_stop[%d*NVC +: NVC];\n",
                h, s, q, h, s, q, h, s, q, h, s, q, h, s, q);
    }
    fprintf(f, "\n    // the configuration read ports are not used in a network\n    wire unused_ok = &{1'b0");
    for (int s = 0; s < S; s++)
        fprintf(f, ", s%d_rdata, s%d_rvalid", s, s);
    fprintf(f, "};\n\nendmodule\n\n`default_nettype wire\n");
    free(base);
}

/* The Maestro network (--kind sbox): one switch box per switch, its up port (towards the root) its one master. */
static void write_sbnet(FILE *f, const sf_topo *t, const char *mod, const char *topo_path, const int *up, int root)
{
    const int S = t->nsw, H = t->nhost, L = sf_topo_nlinks(t);
    int *base = first_ports(f, t, mod, topo_path, " --kind sbox");
    const int P = base[S];
    fprintf(f, "// %d Maestro switch boxes (rtl/sbox/sbox.v; switch %d the root), %d hosts (nodes 0..%d), %d links, %d box ports.\n"
               "// Cycle contract of cmodel/net.h: a link symbol {en, d} a box or host puts out after edge k is sampled at\n"
               "// the far end at edge k + 1 + LINK_DELAY (a cable of LINK_DELAY registers on every link, host links too).\n"
               "// Each box's MLC on its up port is the link master (MASTER_MASK), the nodes' MLCs are the masters of their\n"
               "// links. from_host_*[h], to_host_*[h]: host h's link (d: LINK_W bits at [h*LINK_W +: LINK_W]); sw_tx_*: every\n"
               "// box output port (port i = first port of box s + p); reg_*: box s's register port (reg_addr[s*9 +: 9],\n"
               "// reg_wdata[s*16 +: 16], reg_rdata[s*32 +: 32]): its table and up port are loaded through it after reset\n"
               "// (cmodel/sbox_net.h). First ports:",
            S, root, H, H - 1, L, P);
    for (int s = 0; s < S; s++)
        fprintf(f, " %d", base[s]);
    fprintf(f, "; up ports:");
    for (int s = 0; s < S; s++)
        fprintf(f, " %d", up[s]);
    param_t p[NPARAM_MAX];
    module_head(f, mod, 2, p);
    fprintf(f, "    input  wire [%d:0] from_host_en,\n    input  wire [%d*LINK_W-1:0] from_host_d,\n"
               "    output wire [%d:0] to_host_en,\n    output wire [%d*LINK_W-1:0] to_host_d,\n",
            H - 1, H, H - 1, H);
    fprintf(f, "    input  wire [%d:0] reg_rd,\n    input  wire [%d:0] reg_wr,\n    input  wire [%d:0] reg_addr,\n"
               "    input  wire [%d:0] reg_wdata,\n    output wire [%d:0] reg_rvalid,\n    output wire [%d:0] reg_rdata,\n",
            S - 1, S - 1, S * 9 - 1, S * 16 - 1, S - 1, S * 32 - 1);
    fprintf(f, "    output wire [%d:0] sw_tx_en,\n    output wire [%d*LINK_W-1:0] sw_tx_d\n);\n\n", P - 1, P);
    for (int s = 0; s < S; s++) {
        const int n = t->sw[s].nports;
        fprintf(f, "    wire [%d:0] s%d_rx_en, s%d_tx_en;\n    wire [%d*LINK_W-1:0] s%d_rx_d, s%d_tx_d;\n", n - 1, s, s, n, s, s);
    }
    fprintf(f, "\n");
    for (int s = 0; s < S; s++) {
        const int n = t->sw[s].nports;
        if (up[s] >= 0)
            fprintf(f, "    // box %d: %d ports, up port %d\n", s, n, up[s]);
        else
            fprintf(f, "    // box %d: %d ports, the root\n", s, n);
        fprintf(f, "    sbox #(\n        .PORTS       (%d),\n        .NODES       (%d),\n        .LINK_W      (LINK_W),\n"
                   "        .FIFO_BYTES  (FIFO_BYTES),\n        .TURN        (TURN),\n        .TIMEOUT     (TIMEOUT),\n"
                   "        .CTR_W       (CTR_W),\n        .MASTER_MASK (%u),\n        .LINK_DELAY  (LINK_DELAY)\n    ) u_sw%d (\n",
                n, H, up[s] >= 0 ? 1u << up[s] : 0u, s);
        fprintf(f, "        .clk        (clk),\n        .rst        (rst),\n        .rx_en      (s%d_rx_en),\n"
                   "        .rx_d       (s%d_rx_d),\n        .tx_en      (s%d_tx_en),\n        .tx_d       (s%d_tx_d),\n",
                s, s, s, s);
        fprintf(f, "        .reg_rd     (reg_rd[%d]),\n        .reg_wr     (reg_wr[%d]),\n        .reg_addr   (reg_addr[%d +: 9]),\n"
                   "        .reg_wdata  (reg_wdata[%d +: 16]),\n        .reg_rvalid (reg_rvalid[%d]),\n"
                   "        .reg_rdata  (reg_rdata[%d +: 32])\n    );\n",
                s, s, s * 9, s * 16, s, s * 32);
        fprintf(f, "    assign sw_tx_en[%d +: %d] = s%d_tx_en;\n    assign sw_tx_d[%d*LINK_W +: %d*LINK_W] = s%d_tx_d;\n", base[s], n, s,
                base[s], n, s);
        for (int q = 0; q < n; q++)
            if (t->sw[s].peer[q].kind == SF_PEER_NONE)
                fprintf(f, "    assign s%d_rx_en[%d] = 1'b0; // port %d unconnected\n"
                           "    assign s%d_rx_d[%d*LINK_W +: LINK_W] = {LINK_W{1'b0}};\n", s, q, q, s, q);
        fprintf(f, "\n");
    }
    /* one cable: a delay line of {en, d}, LINK_DELAY registers reset to the idle link (0) */
    for (int l = 0; l < L; l++)
        for (int d = 0; d < 2; d++) {
            const int c = 2 * l + d, a = t->ch_from[c], pa = t->ch_fport[c], b = t->ch_to[c], pb = t->ch_tport[c];
            fprintf(f, "    // link %d, channel %d: box %d port %d -> box %d port %d\n", l, c, a, pa, b, pb);
            fprintf(f, "    wire [LINK_W:0] ch%d_q;\n    delay_line #(\n        .WIDTH (LINK_W + 1),\n        .DELAY (LINK_DELAY)\n"
                       "    ) u_ch%d (\n        .clk (clk),\n        .rst (rst),\n"
                       "        .d   ({s%d_tx_en[%d], s%d_tx_d[%d*LINK_W +: LINK_W]}),\n        .q   (ch%d_q)\n    );\n",
                    c, c, a, pa, a, pa, c);
            fprintf(f, "    assign s%d_rx_en[%d] = ch%d_q[LINK_W];\n    assign s%d_rx_d[%d*LINK_W +: LINK_W] = ch%d_q[LINK_W-1:0];\n", b,
                    pb, c, b, pb, c);
        }
    for (int h = 0; h < H; h++) {
        const int s = t->host[h].sw, q = t->host[h].port;
        fprintf(f, "    // host %d on box %d port %d\n", h, s, q);
        fprintf(f, "    wire [LINK_W:0] h%d_in_q, h%d_out_q;\n    delay_line #(\n        .WIDTH (LINK_W + 1),\n"
                   "        .DELAY (LINK_DELAY)\n    ) u_h%d_in (\n        .clk (clk),\n        .rst (rst),\n"
                   "        .d   ({from_host_en[%d], from_host_d[%d*LINK_W +: LINK_W]}),\n        .q   (h%d_in_q)\n    );\n",
                h, h, h, h, h, h);
        fprintf(f, "    assign s%d_rx_en[%d] = h%d_in_q[LINK_W];\n    assign s%d_rx_d[%d*LINK_W +: LINK_W] = h%d_in_q[LINK_W-1:0];\n", s,
                q, h, s, q, h);
        fprintf(f, "    delay_line #(\n        .WIDTH (LINK_W + 1),\n        .DELAY (LINK_DELAY)\n    ) u_h%d_out (\n"
                   "        .clk (clk),\n        .rst (rst),\n        .d   ({s%d_tx_en[%d], s%d_tx_d[%d*LINK_W +: LINK_W]}),\n"
                   "        .q   (h%d_out_q)\n    );\n",
                h, s, q, s, q, h);
        fprintf(f, "    assign to_host_en[%d] = h%d_out_q[LINK_W];\n    assign to_host_d[%d*LINK_W +: LINK_W] = h%d_out_q[LINK_W-1:0];\n",
                h, h, h, h);
    }
    fprintf(f, "\nendmodule\n\n`default_nettype wire\n");
    free(base);
}

int main(int argc, char **argv)
{
    const char *topo = NULL, *out = NULL, *mod = NULL, *kind = "xbar";
    int seen[3] = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--version")) {
            sf_cli_print_version(stdout, "sanfab-netgen");
            return 0;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "--module") || !strcmp(a, "--kind")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sanfab-netgen: option %s needs a value\n", a);
                return 2;
            }
            const char **dst = !strcmp(a, "-o") ? &out : !strcmp(a, "--module") ? &mod : &kind;
            int *given = !strcmp(a, "-o") ? &seen[0] : !strcmp(a, "--module") ? &seen[1] : &seen[2];
            if ((*given)++) {
                fprintf(stderr, "sanfab-netgen: %s given twice\n", a);
                return 2;
            }
            *dst = argv[++i];
            continue;
        }
        if (a[0] == '-') {
            static const char *const opts[] = {"-o", "--module", "--kind", "--help", "--version"};
            char dym[80];
            sf_cli_did_you_mean(dym, sizeof dym, a, opts, sizeof opts / sizeof opts[0]);
            fprintf(stderr, "sanfab-netgen: unknown option %s%s\n", a, dym[0] ? dym : " (see --help)");
            return 2;
        }
        if (topo) {
            fprintf(stderr, "sanfab-netgen: unexpected argument \"%s\" (one topology file; see --help)\n", a);
            return 2;
        }
        topo = a;
    }
    if (!topo) {
        usage(stderr);
        return 2;
    }
    if (strcmp(kind, "xbar") && strcmp(kind, "vcsw") && strcmp(kind, "sbox")) {
        static const char *const kinds[] = {"xbar", "vcsw", "sbox"};
        char dym[80];
        fprintf(stderr, "sanfab-netgen: unknown switch kind \"%s\"%s (known: xbar, vcsw, sbox)\n", kind,
                sf_cli_did_you_mean(dym, sizeof dym, kind, kinds, 3));
        return 2;
    }
    const int vc = strcmp(kind, "vcsw") == 0, sb = strcmp(kind, "sbox") == 0;
    char name[256];
    if (!mod) {
        if (out) {
            const char *b = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
            snprintf(name, sizeof name, "%s", b);
            char *dot = strchr(name, '.');
            if (dot)
                *dot = 0;
        } else
            snprintf(name, sizeof name, "sanfab_net");
        mod = name;
    }
    if (!valid_ident(mod)) {
        fprintf(stderr, "sanfab-netgen: module name \"%s\" is not a Verilog identifier (give --module NAME)\n", mod);
        return 2;
    }
    sf_err e = {""};
    sf_topo *t = sf_topo_read(topo, &e);
    if (!t) {
        fprintf(stderr, "sanfab-netgen: %s\n", e.msg);
        return 1;
    }
    for (int s = 0; s < t->nsw; s++)
        if (t->sw[s].nports < 2) {
            fprintf(stderr, "sanfab-netgen: %s:%d: switch %d has %d port; the %s takes %s 2..%d\n", topo, t->sw[s].line, s,
                    t->sw[s].nports, sb ? "switch box" : vc ? "VC switch" : "crossbar", sb ? "PORTS" : "NPORTS",
                    sb ? SBOX_MAX_PORTS : vc ? VCSW_MAX_PORTS : XBAR_MAX_PORTS);
            sf_topo_free(t);
            return 1;
        } else if (sb && t->sw[s].nports > SBOX_MAX_PORTS) {
            fprintf(stderr, "sanfab-netgen: %s:%d: switch %d has %d ports; the switch box (rtl/sbox/sbox.v) takes PORTS 2..%d\n",
                    topo, t->sw[s].line, s, t->sw[s].nports, SBOX_MAX_PORTS);
            sf_topo_free(t);
            return 1;
        } else if (vc && t->sw[s].nports > VCSW_MAX_PORTS) {
            fprintf(stderr, "sanfab-netgen: %s:%d: switch %d has %d ports; the VC switch (rtl/vcsw/vcsw.v) takes NPORTS 2..%d\n", topo,
                    t->sw[s].line, s, t->sw[s].nports, VCSW_MAX_PORTS);
            sf_topo_free(t);
            return 1;
        } else if (!vc && !sb && t->sw[s].nports > XBAR_MAX_PORTS) {
            fprintf(stderr, "sanfab-netgen: %s:%d: switch %d has %d ports; the crossbar (rtl/xbar/xbar.v) takes NPORTS 2..%d\n", topo,
                    t->sw[s].line, s, t->sw[s].nports, XBAR_MAX_PORTS);
            sf_topo_free(t);
            return 1;
        }
    if (t->nhost < 1) {
        fprintf(stderr, "sanfab-netgen: %s: no host: a network top needs at least one host port\n", topo);
        sf_topo_free(t);
        return 1;
    }
    int *up = NULL, root = 0;
    if (sb) {
        if (t->nhost > SBOX_MAX_NODES) {
            fprintf(stderr, "sanfab-netgen: %s: %d hosts; a Maestro network has at most %d nodes (the switch box's "
                    "destination MASK has 16 bits: NODES 1..%d)\n", topo, t->nhost, SBOX_MAX_NODES, SBOX_MAX_NODES);
            sf_topo_free(t);
            return 1;
        }
        up = malloc((size_t)t->nsw * sizeof *up);
        /* the tree and every box's up port (towards the root), as sanfab-sim's Maestro network finds them */
        if (!up || sf_topo_tree(t, topo, up, &root, &e)) {
            fprintf(stderr, "sanfab-netgen: %s\n", up ? e.msg : "out of memory");
            free(up);
            sf_topo_free(t);
            return up ? 1 : 2;
        }
    }
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "sanfab-netgen: %s: cannot write: %s\n", out, strerror(errno));
        sf_topo_free(t);
        free(up);
        return 2;
    }
    if (sb)
        write_sbnet(f, t, mod, topo, up, root);
    else if (vc)
        write_vcnet(f, t, mod, topo);
    else
        write_net(f, t, mod, topo);
    int bad = ferror(f);
    if (out && fclose(f))
        bad = 1;
    sf_topo_free(t);
    free(up);
    if (bad) {
        fprintf(stderr, "sanfab-netgen: %s: write error\n", out ? out : "standard output");
        return 2;
    }
    return 0;
}
