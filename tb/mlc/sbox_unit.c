/* sanfab — unit tests of the Maestro switch box C model (cmodel/sbox.c) against the rules of
 * docs/switchbox.md.
 *
 * The box's ports are driven by node MLC models (MASTER = 1; the box's MLCs are slaves) joined
 * through the link model (mlc_link_*) and driven by the host driver sw/mlc_host.c; two boxes join
 * port to port for the tree test. Every expectation of a directed test is computed by hand from the
 * doc (the comments give the steps): register port timing, the 13-step transit (counters, the
 * source's and destination's status through the register port, the first frame start >= t+14
 * carrying the unit), bus and manager round robin, locks, drops, PC < 2, barriers in one box and
 * through a two-box tree, counter wrap and reset. The soak runs random unicast and multicast
 * messages on both channels through an 8-port box under a scoreboard. tb/mlc/sbox_mutants.sh breaks
 * the model in several ways and checks that this test fails for each.
 *
 * Build and run (from the repository root):
 *   mkdir -p build/mlc && cc -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined \
 *     -fno-sanitize-recover=all cmodel/mlc.c cmodel/sbox.c sw/mlc_host.c tb/mlc/sbox_unit.c \
 *     -o build/mlc/sbox_unit && build/mlc/sbox_unit
 * Options: -v (print passing checks), --seed N (seed of the soak, default 1), --cycles N (soak
 * steps of the 8-port run before draining, default 200000). A failing check prints
 * "CHECK ... FAIL"; the last line is "sbox_unit: N checks, M failed"; exit status 1 on any failure.
 */
#include "../common/unit_main.h"
#include "../../cmodel/mlc.h"
#include "../../cmodel/sbox.h"
#include "../../sw/mlc_host.h"
#include "../../sw/ring.h"
#include "../common/rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "sbox_unit: out of memory\n");
        exit(2);
    }
    return p;
}

static void xpush(ring_t *q, const void *e)
{
    if (ring_push(q, e)) {
        fprintf(stderr, "sbox_unit: out of memory\n");
        exit(2);
    }
}

/* ================================================================ the fabric: boxes, nodes, links */

#define MAXB 2
#define MAXN 16
/* frees every message named */
#define FREE_MSGS(...)                                                                  \
    do {                                                                                \
        mlc_msg_t *fm_[] = {__VA_ARGS__};                                               \
        for (size_t i_ = 0; i_ < sizeof fm_ / sizeof fm_[0]; i_++)                      \
            mlc_msg_free(fm_[i_]);                                                      \
    } while (0)

typedef struct { int box; unsigned idx, port; } end_t;   /* box 0: node idx; box 1: box idx, port */
typedef struct { mlc_link_t *l; end_t a, b; } wire_t;    /* a: the master end */
typedef struct { uint16_t w; uint8_t ch; } raw_t;        /* a word written by hand into a node's send FIFO */
typedef struct { mlc_msg_t m; unsigned ch; uint64_t step; } rec_t; /* a message received by a node */

typedef struct {
    unsigned nbox, nnode, nwire;
    sbox_params_t bp[MAXB];
    sbox_t *box[MAXB];
    sbox_in_t bin[MAXB];   /* rx fields of the next step (from the links) */
    sbox_in_t breg[MAXB];  /* register request of the next step */
    sbox_out_t bout[MAXB]; /* outputs after the last step */
    uint8_t bprev[MAXB][8]; /* tx_en before the last step */
    mlc_params_t np[MAXN];
    mlc_t *node[MAXN];
    mlc_host_t *host[MAXN];
    unsigned at_box[MAXN], at_port[MAXN];
    mlc_in_t nin[MAXN];
    mlc_out_t nout[MAXN];
    ring_t raw[MAXN];  /* raw_t */
    ring_t got[MAXN];  /* rec_t */
    wire_t w[MAXN + 4];
    uint64_t k;
    unsigned stall;    /* % of steps a node holds its reads */
    uint8_t hold[MAXN]; /* node i reads nothing while set */
    rng_t r;
} fab_t;

static sbox_params_t bparams(unsigned ports, unsigned nodes)
{
    sbox_params_t p = {ports, nodes, 4, 2048, 1, 1024, 16, 0, 0};
    return p;
}

static mlc_params_t nparams(const sbox_params_t *bp)
{
    mlc_params_t p = mlc_default_params();
    p.LINK_W = bp->LINK_W;
    p.FIFO_BYTES = bp->FIFO_BYTES;
    p.TURN = 1;
    p.MASTER = 1;
    p.TIMEOUT = 0;
    p.CTR_W = 32;
    return p;
}

static fab_t *fab_new(unsigned nbox, const sbox_params_t *bp)
{
    fab_t *F = xcalloc(1, sizeof *F);
    F->nbox = nbox;
    for (unsigned j = 0; j < nbox; j++) {
        F->bp[j] = bp[j];
        F->box[j] = sbox_new(&bp[j]);
        if (!F->box[j]) {
            char e[200];
            sbox_params_check(&bp[j], e, sizeof e);
            fprintf(stderr, "sbox_unit: bad box parameters: %s\n", e);
            exit(2);
        }
    }
    rng_seed(&F->r, 12345);
    return F;
}

/* a node (MASTER = 1) on box j's port q; node parameters from the box's unless np is given */
static unsigned fab_node(fab_t *F, unsigned j, unsigned q, const mlc_params_t *np)
{
    unsigned i = F->nnode++;
    F->np[i] = np ? *np : nparams(&F->bp[j]);
    F->node[i] = mlc_new(&F->np[i]);
    F->host[i] = mlc_host_new(F->np[i].FIFO_BYTES, 0);
    if (!F->node[i] || !F->host[i]) {
        fprintf(stderr, "sbox_unit: bad node parameters: %s\n", mlc_params_check(&F->np[i]));
        exit(2);
    }
    F->at_box[i] = j;
    F->at_port[i] = q;
    for (unsigned c = 0; c < MLC_NCH; c++)
        F->nout[i].st_tx_space[c] = (uint16_t)F->np[i].FIFO_BYTES;
    F->raw[i] = ring_make(sizeof(raw_t));
    F->got[i] = ring_make(sizeof(rec_t));
    wire_t *w = &F->w[F->nwire++];
    w->l = mlc_link_new(0);
    w->a = (end_t){0, i, 0};
    w->b = (end_t){1, j, q};
    return i;
}

/* a link between two boxes' ports; (ja, qa) is the master end (its MASTER_MASK bit set) */
static void fab_join(fab_t *F, unsigned ja, unsigned qa, unsigned jb, unsigned qb)
{
    wire_t *w = &F->w[F->nwire++];
    w->l = mlc_link_new(0);
    w->a = (end_t){1, ja, qa};
    w->b = (end_t){1, jb, qb};
}

static void fab_free(fab_t *F)
{
    for (unsigned j = 0; j < F->nbox; j++)
        sbox_free(F->box[j]);
    for (unsigned i = 0; i < F->nnode; i++) {
        mlc_free(F->node[i]);
        mlc_host_free(F->host[i]);
        ring_free(&F->raw[i]);
        rec_t x;
        while (ring_pop(&F->got[i], &x))
            mlc_msg_free(&x.m);
        ring_free(&F->got[i]);
    }
    for (unsigned i = 0; i < F->nwire; i++)
        mlc_link_free(F->w[i].l);
    free(F);
}

static mlc_out_t end_out(const fab_t *F, end_t e)
{
    if (!e.box)
        return F->nout[e.idx];
    mlc_out_t o;
    memset(&o, 0, sizeof o);
    o.tx_en = F->bout[e.idx].tx_en[e.port];
    o.tx_d = F->bout[e.idx].tx_d[e.port];
    return o;
}

static void end_in(fab_t *F, end_t e, const mlc_in_t *x)
{
    if (!e.box) {
        F->nin[e.idx].rx_en = x->rx_en;
        F->nin[e.idx].rx_d = x->rx_d;
    } else {
        F->bin[e.idx].rx_en[e.port] = x->rx_en;
        F->bin[e.idx].rx_d[e.port] = x->rx_d;
    }
}

static void fab_step(fab_t *F)
{
    F->k++;
    for (unsigned i = 0; i < F->nnode; i++) {
        mlc_in_t in;
        memset(&in, 0, sizeof in);
        in.rx_en = F->nin[i].rx_en;
        in.rx_d = F->nin[i].rx_d;
        if (F->hold[i] || (F->stall && rng_below(&F->r, 100) < F->stall))
            mlc_host_hold(F->host[i], 0, 1);
        mlc_host_drive(F->host[i], &F->nout[i], &in);
        raw_t *x = ring_front(&F->raw[i]);
        if (!in.h_wr && x && F->nout[i].st_tx_space[x->ch] >= 2) {
            in.h_wr = 1;
            in.h_wch = x->ch;
            in.h_wdata = x->w;
            ring_pop(&F->raw[i], NULL);
        }
        mlc_step(F->node[i], &in, &F->nout[i]);
        mlc_host_collect(F->host[i], &F->nout[i]);
        for (unsigned c = 0; c < MLC_NCH; c++) {
            rec_t g;
            while (mlc_host_recv(F->host[i], c, &g.m)) {
                g.ch = c;
                g.step = F->k;
                xpush(&F->got[i], &g);
            }
        }
    }
    for (unsigned j = 0; j < F->nbox; j++) {
        sbox_in_t in = F->bin[j];
        in.reg_rd = F->breg[j].reg_rd;
        in.reg_wr = F->breg[j].reg_wr;
        in.reg_addr = F->breg[j].reg_addr;
        in.reg_wdata = F->breg[j].reg_wdata;
        memset(&F->breg[j], 0, sizeof F->breg[j]);
        memcpy(F->bprev[j], F->bout[j].tx_en, 8);
        sbox_step(F->box[j], &in, &F->bout[j]);
    }
    for (unsigned i = 0; i < F->nwire; i++) {
        wire_t *w = &F->w[i];
        mlc_out_t oa = end_out(F, w->a), ob = end_out(F, w->b);
        mlc_in_t ia, ib;
        memset(&ia, 0, sizeof ia);
        memset(&ib, 0, sizeof ib);
        mlc_link_step(w->l, &oa, &ob, &ia, &ib);
        end_in(F, w->a, &ia);
        end_in(F, w->b, &ib);
    }
}

static void fab_run(fab_t *F, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fab_step(F);
}

/* a register write to box j in one step */
static void fab_wr(fab_t *F, unsigned j, unsigned addr, unsigned data)
{
    F->breg[j].reg_wr = 1;
    F->breg[j].reg_addr = (uint16_t)addr;
    F->breg[j].reg_wdata = (uint16_t)data;
    fab_step(F);
}

/* a register read of box j: requested in the next step r, answered after r+1 */
static uint32_t fab_rd(fab_t *F, unsigned j, unsigned addr)
{
    F->breg[j].reg_rd = 1;
    F->breg[j].reg_addr = (uint16_t)addr;
    fab_step(F);
    fab_step(F);
    check(F->bout[j].reg_rvalid == 1, "reg read 0x%03X of box %u answered after r+1", addr, j);
    return F->bout[j].reg_rdata;
}

/* node i's table entry in box j: valid, port q */
static void fab_route(fab_t *F, unsigned j, unsigned d, unsigned q) { fab_wr(F, j, SBOX_REG_TABLE(d), 0x10u | q); }

/* a message with recognisable data (len bytes for Type1) */
static mlc_msg_t mk_msg(unsigned type, unsigned kind, unsigned dst, unsigned mask, unsigned src, unsigned len,
                        unsigned seed)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = type;
    m.kind = kind;
    m.dst = dst;
    m.mask = mask;
    m.src = src;
    m.len = type ? len : MLC_T0_DATA;
    m.data = xcalloc(m.len + 1, 1);
    for (unsigned i = 0; i < m.len; i++)
        m.data[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
    return m;
}

static void send(fab_t *F, unsigned node, unsigned ch, const mlc_msg_t *m)
{
    if (mlc_host_send(F->host[node], ch, m) != 0)
        check(0, "host refused a message");
}

/* a message written by hand (raw words) with its Pkt-Counter forced to pc (Type1) when pc >= 0 */
static void send_raw(fab_t *F, unsigned node, unsigned ch, const mlc_msg_t *m, int pc)
{
    unsigned units = mlc_msg_units(m);
    uint8_t *buf = xcalloc(16u * units, 1);
    mlc_msg_encode(m, buf);
    if (m->type && pc >= 0) {
        buf[16] = (uint8_t)pc;
        buf[17] = (uint8_t)(pc >> 8);
    }
    for (unsigned i = 0; i < 8 * units; i++) {
        raw_t x = {(uint16_t)(buf[2 * i] | (buf[2 * i + 1] << 8)), (uint8_t)ch};
        xpush(&F->raw[node], &x);
    }
    free(buf);
}

/* runs until node i has received n messages (or max steps) */
static int run_until_got(fab_t *F, unsigned i, size_t n, uint64_t max)
{
    for (uint64_t s = 0; s < max && F->got[i].n < n; s++)
        fab_step(F);
    return F->got[i].n >= n;
}

/* pops node i's oldest message: 1 if it equals m on channel ch */
static int got_eq(fab_t *F, unsigned i, unsigned ch, const mlc_msg_t *m, uint64_t *step)
{
    rec_t g;
    if (!ring_pop(&F->got[i], &g))
        return 0;
    int ok = g.ch == ch && mlc_msg_eq(&g.m, m);
    if (step)
        *step = g.step;
    mlc_msg_free(&g.m);
    return ok;
}

static uint64_t ctr(const fab_t *F, unsigned j, unsigned i) { return sbox_counter(F->box[j], i); }

static int no_over_under(const fab_t *F)
{
    uint32_t s = 0;
    for (unsigned j = 0; j < F->nbox; j++)
        for (unsigned q = 0; q < F->bp[j].PORTS; q++)
            s += mlc_counter(sbox_mlc(F->box[j], q), MLC_CTR_WR_OVER) + mlc_counter(sbox_mlc(F->box[j], q), MLC_CTR_RD_UNDER);
    for (unsigned i = 0; i < F->nnode; i++)
        s += mlc_counter(F->node[i], MLC_CTR_WR_OVER) + mlc_counter(F->node[i], MLC_CTR_RD_UNDER);
    return s == 0;
}

/* a box of `ports` ports and `nodes` table entries, a node on each port, entry d -> port d (d < ports) */
static fab_t *star(sbox_params_t bp)
{
    fab_t *F = fab_new(1, &bp);
    for (unsigned q = 0; q < bp.PORTS; q++)
        fab_node(F, 0, q, NULL);
    for (unsigned d = 0; d < bp.PORTS && d < bp.NODES; d++)
        fab_route(F, 0, d, d);
    return F;
}

/* ================================================================ parameters */

static void test_params(void)
{
    sbox_params_t p = bparams(8, 16);
    char e[200];
    check(sbox_params_check(&p, e, sizeof e) == 0, "params: defaults valid");
    struct {
        unsigned field, value;
        const char *word;
    } bad[] = {{0, 1, "PORTS"},     {0, 9, "PORTS"},      {1, 0, "NODES"},   {1, 17, "NODES"},
               {2, 5, "LINK_W"},    {3, 100, "FIFO_BYTES"}, {4, 16, "TURN"},  {5, 15, "TIMEOUT"},
               {5, 65536, "TIMEOUT"}, {6, 7, "CTR_W"},    {6, 33, "CTR_W"},  {7, 256, "MASTER_MASK"}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sbox_params_t q = bparams(8, 16);
        unsigned *f[] = {&q.PORTS, &q.NODES, &q.LINK_W, &q.FIFO_BYTES, &q.TURN, &q.TIMEOUT, &q.CTR_W, &q.MASTER_MASK};
        *f[bad[i].field] = bad[i].value;
        e[0] = 0;
        int r = sbox_params_check(&q, e, sizeof e);
        check(r == -1 && strstr(e, bad[i].word), "params: %s = %u refused, naming it (%s)", bad[i].word, bad[i].value, e);
        sbox_t *b = sbox_new(&q);
        check(b == NULL, "params: sbox_new refuses %s = %u", bad[i].word, bad[i].value);
        sbox_free(b);
    }
    sbox_params_t q = bparams(3, 1);
    q.MASTER_MASK = 8;
    check(sbox_params_check(&q, NULL, 0) == -1, "params: MASTER_MASK 2^PORTS refused (PORTS 3), err NULL allowed");
    q.MASTER_MASK = 7;
    check(sbox_params_check(&q, e, sizeof e) == 0, "params: MASTER_MASK 2^PORTS-1 valid");
    sbox_params_t edge[] = {bparams(2, 1), bparams(8, 16)};
    edge[0].LINK_W = 8;
    edge[0].FIFO_BYTES = 256;
    edge[0].TURN = 0;
    edge[0].TIMEOUT = 0;
    edge[0].CTR_W = 8;
    edge[1].FIFO_BYTES = 4096;
    edge[1].TURN = 15;
    edge[1].TIMEOUT = 65535;
    edge[1].CTR_W = 32;
    edge[1].MASTER_MASK = 255;
    for (unsigned i = 0; i < 2; i++) {
        check(sbox_params_check(&edge[i], e, sizeof e) == 0, "params: edge set %u valid", i);
        sbox_t *b = sbox_new(&edge[i]);
        check(b != NULL && sbox_mlc(b, edge[i].PORTS - 1) != NULL && sbox_mlc(b, edge[i].PORTS) == NULL,
              "params: edge set %u built, PORTS MLCs", i);
        check(b && sbox_counter(b, 0) == 0 && sbox_counter(b, SBOX_NCTR) == 0, "params: counters 0, index 8 gives 0");
        sbox_free(b);
    }
    char small[6];
    q.PORTS = 0;
    check(sbox_params_check(&q, small, sizeof small) == -1 && strlen(small) == 5, "params: message cut to n bytes");
    check(sbox_params_check(NULL, e, sizeof e) == -1, "params: NULL refused");
    sbox_free(NULL);
}

/* ================================================================ register port (box alone) */

typedef struct {
    sbox_t *b;
    sbox_out_t o;
    uint64_t k;
} one_t;

static void one_step(one_t *B, unsigned rd, unsigned wr, unsigned addr, unsigned wdata)
{
    sbox_in_t in;
    memset(&in, 0, sizeof in);
    in.reg_rd = (uint8_t)rd;
    in.reg_wr = (uint8_t)wr;
    in.reg_addr = (uint16_t)addr;
    in.reg_wdata = (uint16_t)wdata;
    sbox_step(B->b, &in, &B->o);
    B->k++;
}

/* a read in step r answered after r+1; returns the value (checks rvalid after r 0 when nothing was read in r-1) */
static uint32_t one_read(one_t *B, unsigned addr)
{
    one_step(B, 1, 0, addr, 0);
    int quiet = B->o.reg_rvalid == 0 && B->o.reg_rdata == 0;
    one_step(B, 0, 0, 0, 0);
    check(quiet && B->o.reg_rvalid == 1, "regs: read of 0x%03X: nothing after r, answer after r+1", addr);
    return B->o.reg_rdata;
}

static void test_regs(void)
{
    sbox_params_t p = bparams(4, 6);
    p.MASTER_MASK = 1; /* port 0's MLC is a master: it sends null frames (tx_frames counts) */
    p.TIMEOUT = 0;
    one_t B = {sbox_new(&p), {{0}, {0}, 0, 0}, 0};
    /* step 1: read of the up port; nothing after step 1, the answer after step 2 */
    one_step(&B, 1, 0, SBOX_REG_UP, 0);
    check(B.o.reg_rvalid == 0 && B.o.reg_rdata == 0, "regs: nothing after step r");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 1 && B.o.reg_rdata == 0, "regs: up port 0 (none) after reset, after step r+1");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 0 && B.o.reg_rdata == 0, "regs: rvalid 0, rdata 0 without a read");
    /* read and write in one step w: the read returns the old value; a read in w+1 the new one */
    one_step(&B, 1, 1, SBOX_REG_UP, 0x13);   /* w */
    one_step(&B, 1, 0, SBOX_REG_UP, 0);      /* w+1: answer of w */
    check(B.o.reg_rvalid == 1 && B.o.reg_rdata == 0, "regs: read and write in one step: old value");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 1 && B.o.reg_rdata == 0x13, "regs: write of step w seen by a read in w+1 (0x%X)", B.o.reg_rdata);
    one_step(&B, 0, 1, SBOX_REG_UP, 0x14); /* port 4 >= PORTS: ignored */
    check(one_read(&B, SBOX_REG_UP) == 0x13, "regs: up port write with port >= PORTS ignored");
    one_step(&B, 0, 1, SBOX_REG_UP, 0xFFE0); /* bits 4..0 = 0: none */
    check(one_read(&B, SBOX_REG_UP) == 0, "regs: up port none (bits 4..0 of reg_wdata)");
    /* table */
    for (unsigned d = 0; d < 6; d++)
        check(one_read(&B, SBOX_REG_TABLE(d)) == 0, "regs: table entry %u invalid after reset", d);
    check(one_read(&B, SBOX_REG_TABLE(6)) == SBOX_RDATA_ERROR && one_read(&B, SBOX_REG_TABLE(15)) == SBOX_RDATA_ERROR,
          "regs: table entry >= NODES reads 0x80000000");
    one_step(&B, 0, 1, SBOX_REG_TABLE(6), 0x11);
    check(one_read(&B, SBOX_REG_TABLE(6)) == SBOX_RDATA_ERROR, "regs: table write >= NODES ignored");
    one_step(&B, 1, 1, SBOX_REG_TABLE(5), 0x13);
    one_step(&B, 1, 1, SBOX_REG_TABLE(5), 0x15); /* port 5 >= PORTS: ignored */
    check(B.o.reg_rvalid && B.o.reg_rdata == 0, "regs: table read+write same step: old value");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 0x13, "regs: table entry written (0x%X), bad port ignored", B.o.reg_rdata);
    one_step(&B, 0, 1, SBOX_REG_TABLE(5), 0x02);
    check(one_read(&B, SBOX_REG_TABLE(5)) == 0x02, "regs: table entry invalidated (bit 4 and bits 2..0 as written)");
    one_step(&B, 0, 1, SBOX_REG_TABLE(5), 0xFF1A); /* bit 3 and bits 15..5 are not stored */
    check(one_read(&B, SBOX_REG_TABLE(5)) == 0x12, "regs: table entry keeps bit 4 and bits 2..0 only");
    one_step(&B, 0, 1, SBOX_REG_UP, 0x0A);          /* not valid: bit 3 dropped, port kept */
    check(one_read(&B, SBOX_REG_UP) == 0x02, "regs: up port keeps bit 4 and bits 2..0 only");
    one_step(&B, 0, 1, SBOX_REG_UP, 0);
    /* counters, barriers, holes */
    for (unsigned i = 0; i < SBOX_NCTR; i++)
        check(one_read(&B, SBOX_REG_CTR(i)) == 0, "regs: counter %u 0", i);
    check(one_read(&B, SBOX_REG_BAR(0)) == 0 && one_read(&B, SBOX_REG_BAR(1)) == 0, "regs: barriers 0");
    static const unsigned holes[] = {0x108, 0x10F, 0x113, 0x11F, 0x130, 0x1FF, 0x140};
    for (unsigned i = 0; i < sizeof holes / sizeof holes[0]; i++) {
        one_step(&B, 0, 1, holes[i], 0x11);
        check(one_read(&B, holes[i]) == SBOX_RDATA_ERROR, "regs: 0x%03X reads 0x80000000", holes[i]);
    }
    /* MLC pass-through: configuration of MLC 2 written in w; read in w old, in w+1 new */
    one_step(&B, 1, 1, SBOX_REG_MLC(2, MLC_REG_CFG), 0x5);
    one_step(&B, 1, 0, SBOX_REG_MLC(2, MLC_REG_CFG), 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 0, "regs: MLC 2 cfg read+write same step: old value");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 5, "regs: MLC 2 cfg written through the box (0x%X)", B.o.reg_rdata);
    check(one_read(&B, SBOX_REG_MLC(1, MLC_REG_CFG)) == 0, "regs: MLC 1 cfg untouched");
    check(one_read(&B, SBOX_REG_MLC(3, MLC_REG_TX_SPACE(1))) == 2048, "regs: MLC 3 tx_space1 = FIFO_BYTES");
    check(one_read(&B, SBOX_REG_MLC(3, 21)) == SBOX_RDATA_ERROR, "regs: MLC register 21 reads 0x80000000 (the MLC's)");
    check(one_read(&B, SBOX_REG_MLC(4, MLC_REG_CFG)) == SBOX_RDATA_ERROR &&
              one_read(&B, SBOX_REG_MLC(7, 0)) == SBOX_RDATA_ERROR,
          "regs: MLC p >= PORTS reads 0x80000000");
    one_step(&B, 0, 1, SBOX_REG_MLC(4, MLC_REG_CFG), 1); /* ignored; nothing to see but no effect */
    check(one_read(&B, SBOX_REG_MLC(0, MLC_REG_CFG)) == 0, "regs: write to MLC 4 (>= PORTS) reaches no MLC");
    sbox_free(B.b);

    /* pass-through value timing: MLC 0 (master, TURN 1) starts its first frame in step 2
     * (tx_frames 1 after step 2). A read in step r answers after r+1 with the value after r-1. */
    B.b = sbox_new(&p);
    B.k = 0;
    one_step(&B, 1, 0, SBOX_REG_MLC(0, MLC_CTR_TX_FRAMES), 0); /* r = 1: value after 0 */
    one_step(&B, 1, 0, SBOX_REG_MLC(0, MLC_CTR_TX_FRAMES), 0); /* r = 2: value after 1; answer of r = 1 */
    check(B.o.reg_rvalid && B.o.reg_rdata == 0 && B.o.tx_en[0] == 1, "regs: MLC 0 tx_frames after 0 = 0 (frame starts in 2)");
    one_step(&B, 1, 0, SBOX_REG_MLC(0, MLC_CTR_TX_FRAMES), 0); /* r = 3: value after 2 */
    check(B.o.reg_rvalid && B.o.reg_rdata == 0, "regs: MLC 0 tx_frames read in 2 = value after 1 = 0");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 1, "regs: MLC 0 tx_frames read in 3 = value after 2 = 1 (%u)", B.o.reg_rdata);
    check(mlc_counter(sbox_mlc(B.b, 0), MLC_CTR_TX_FRAMES) == 1, "regs: sbox_mlc gives the port's MLC");
    /* a read pending across a reset is not answered */
    one_step(&B, 1, 0, SBOX_REG_UP, 0);
    sbox_reset(B.b);
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 0 && B.o.reg_rdata == 0, "regs: reset drops the pending answer");
    sbox_free(B.b);
}

/* ================================================================ transit through an idle box */

/* One Type0 message node 0 -> node 2 (channel ch) through a 4-port box. t = the step in which box
 * MLC 0 accepts the unit (its rx_pkts counts). Doc: RD0 t+1, RD1 t+2, analyse t+3, act t+4 (msgs),
 * PUT0 t+5 .. MOV7 t+12 (words 1..8 after t+5..t+12), writes t+6..t+13. variant: which register
 * is read in every step (0: box counter words, 1: MLC 2 tx_space, 2: MLC 0 rx_avail). Returns the
 * offset (from t) of the first box port-2 frame start after t, and checks the NP of every frame. */
static int transit_run(unsigned lw, unsigned turn2, unsigned delay, unsigned variant, unsigned ch, int *hit)
{
    sbox_params_t bp = bparams(4, 4);
    bp.LINK_W = lw;
    bp.FIFO_BYTES = 512;
    fab_t *F = fab_new(1, &bp);
    for (unsigned q = 0; q < 4; q++) {
        mlc_params_t np = nparams(&bp);
        if (q == 2)
            np.TURN = turn2; /* node 2's TURN moves the phase of port 2's frames */
        fab_node(F, 0, q, &np);
    }
    for (unsigned d = 0; d < 4; d++)
        fab_route(F, 0, d, d);
    fab_run(F, delay);
    mlc_msg_t m = mk_msg(0, 0, 2, 0, 0, 0, 7);
    send(F, 0, ch, &m);
    enum { N = 400 };
    uint64_t words[N], msgs[N], rdv[N + 2], rdd[N + 2];
    memset(rdv, 0, sizeof rdv);
    memset(rdd, 0, sizeof rdd);
    uint64_t t = 0, k0 = F->k, frames[16], nps[16];
    unsigned nf = 0;
    unsigned addr = variant == 0 ? SBOX_REG_CTR(SBOX_CTR_WORDS)
                  : variant == 1 ? SBOX_REG_MLC(2, MLC_REG_TX_SPACE(ch)) : SBOX_REG_MLC(0, MLC_REG_RX_AVAIL(ch));
    for (unsigned i = 0; i < N; i++) {
        F->breg[0].reg_rd = 1;
        F->breg[0].reg_addr = (uint16_t)addr;
        fab_step(F);
        words[i] = ctr(F, 0, SBOX_CTR_WORDS);
        msgs[i] = ctr(F, 0, SBOX_CTR_MSGS);
        rdv[i] = F->bout[0].reg_rvalid;
        rdd[i] = F->bout[0].reg_rdata;
        if (!t && mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS) == 1)
            t = F->k;
        if (F->bout[0].tx_en[2] && !F->bprev[0][2] && t && nf < 16) {
            frames[nf] = F->k;
            nps[nf] = F->bout[0].tx_d[2] & 15u;
            nf++;
        }
    }
    int first = -1;
    int ok = t > k0;
    if (ok) {
        unsigned ti = (unsigned)(t - k0 - 1); /* index of step t in the arrays (index i = step k0+1+i) */
        /* counters after each step, by hand */
        for (unsigned j = 0; j <= 14 && ti + j < N; j++) {
            uint64_t ew = j < 5 ? 0 : j <= 12 ? j - 4 : 8;
            uint64_t em = j < 4 ? 0 : 1;
            ok &= check(words[ti + j] == ew && msgs[ti + j] == em,
                        "transit LINK_W %u ch %u: after t+%u words %" PRIu64 " (want %" PRIu64 "), msgs %" PRIu64 " (want %" PRIu64 ")",
                        lw, ch, j, words[ti + j], ew, msgs[ti + j], em);
        }
        /* register port: the read of step r (index i) answers after r+1 (index i+1) with the value after r-1 (i-1) */
        for (unsigned j = 0; j <= 13; j++) {
            unsigned i = ti + j; /* value after step t+j, answered after step t+j+2 */
            uint64_t e;
            if (variant == 0)
                e = words[i];
            else if (variant == 1)
                e = 512 - 2 * (j < 5 ? 0 : j - 5 > 8 ? 8 : j - 5);
            else
                e = j == 0 ? 16 : j == 1 ? 14 : j <= 6 ? 12 : j >= 12 ? 0 : 2 * (12 - j);
            if (i + 2 < N)
                ok &= check(rdv[i + 2] == 1 && rdd[i + 2] == e,
                            "transit variant %u: value after t+%u read through the register port = %" PRIu64 " (want %" PRIu64 ")",
                            variant, j, rdd[i + 2], e);
        }
        for (unsigned f = 0; f < nf; f++) {
            int off = (int)(frames[f] - t);
            if (off <= 0)
                continue;
            if (first < 0)
                first = off;
            if (off <= 13)
                ok &= check(nps[f] == 0, "transit: a frame of port 2 starting at t+%d carries nothing (NP %" PRIu64 ")", off, nps[f]);
            else {
                ok &= check(nps[f] == 1, "transit: the first frame of port 2 starting at t+%d >= t+14 carries the unit (NP %" PRIu64 ")",
                            off, nps[f]);
                break;
            }
        }
        for (unsigned f = 0; f < nf; f++) {
            hit[0] |= frames[f] == t + 13;
            hit[1] |= frames[f] == t + 14;
        }
    }
    check(ok, "transit LINK_W %u node-2 TURN %u delay %u variant %u ch %u: t = %" PRIu64, lw, turn2, delay, variant, ch, t);
    check(run_until_got(F, 2, 1, 3000) && got_eq(F, 2, ch, &m, NULL), "transit: node 2 gets the message");
    check(F->got[1].n == 0 && F->got[3].n == 0 && F->got[0].n == 0, "transit: nobody else does");
    mlc_msg_free(&m);
    fab_free(F);
    return first;
}

static void test_transit(void)
{
    int hit[2] = {0, 0};
    unsigned runs = 0;
    for (unsigned lw = 4; lw <= 8; lw += 4)
        for (unsigned turn2 = 0; turn2 < 16; turn2++)
            for (unsigned delay = 0; delay < 4; delay++, runs++)
                transit_run(lw, turn2, delay * 5, runs % 3, (runs / 3) % 2, hit);
    check(hit[0] && hit[1], "transit: the sweep saw port-2 frames start at t+13 (empty) and t+14 (carrying) (%d %d)",
          hit[0], hit[1]);
}

/* ================================================================ unicast, multicast, drops */

static void test_routes(void)
{
    sbox_params_t bp = bparams(4, 8);
    fab_t *F = star(bp); /* entries 0..3 -> ports 0..3; 4..7 invalid */
    mlc_msg_t a = mk_msg(0, 0, 3, 0, 0, 0, 1);
    send(F, 0, 0, &a);
    check(run_until_got(F, 3, 1, 2000) && got_eq(F, 3, 0, &a, NULL), "routes: unicast 0 -> 3");
    fab_run(F, 200);
    check(F->got[0].n + F->got[1].n + F->got[2].n == 0, "routes: unicast reaches only its destination");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 1 && ctr(F, 0, SBOX_CTR_MCAST) == 0 && ctr(F, 0, SBOX_CTR_WORDS) == 8,
          "routes: msgs 1, mcast 0, words 8");
    /* multicast from node 1 to nodes 0..3 on channel 1, Type1 of 100 bytes = 7 units = 56 words */
    mlc_msg_t b = mk_msg(1, 0, 255, 0x000F, 1, 100, 2);
    send(F, 1, 1, &b);
    int ok = 1;
    static const unsigned to[] = {0, 2, 3};
    for (unsigned i = 0; i < 3; i++)
        ok &= run_until_got(F, to[i], 1, 4000) && got_eq(F, to[i], 1, &b, NULL);
    check(ok, "routes: multicast 1 -> {0,2,3} on channel 1, each whole");
    fab_run(F, 300);
    check(F->got[1].n == 0, "routes: the sender gets no copy of its multicast");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 2 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_WORDS) == 8 + 56,
          "routes: multicast counted once: msgs 2, mcast 1, words 64 (%" PRIu64 ")", ctr(F, 0, SBOX_CTR_WORDS));
    /* drops: each followed on the same channel by a good message that must arrive intact */
    mlc_msg_t d[6];
    d[0] = mk_msg(1, 0, 4, 0, 0, 600, 3);         /* invalid entry, Type1 of 39 units: read whole */
    d[1] = mk_msg(0, 0, 20, 0, 0, 0, 4);          /* DST >= NODES */
    d[2] = mk_msg(0, 0, 255, 0x00F0, 0, 0, 5);    /* multicast to invalid entries only */
    d[3] = mk_msg(1, 1, 255, 0x0001, 0, 40, 6);   /* multicast only to its own port */
    d[4] = mk_msg(0, 0, 0, 0, 0, 0, 7);           /* unicast to its own port */
    d[5] = mk_msg(1, 0, 254, 0xFFFF, 0, 300, 8);  /* DST 254 >= NODES */
    mlc_msg_t g = mk_msg(1, 0, 2, 0, 0, 50, 9);
    for (unsigned i = 0; i < 6; i++) {
        send(F, 0, 0, &d[i]);
        send(F, 0, 0, &g);
    }
    ok = 1;
    for (unsigned i = 0; i < 6; i++)
        ok &= run_until_got(F, 2, 1, 6000) && got_eq(F, 2, 0, &g, NULL);
    check(ok, "routes: every message after a dropped one arrives whole");
    fab_run(F, 500);
    check(F->got[0].n + F->got[1].n + F->got[2].n + F->got[3].n == 0, "routes: dropped messages reach nobody");
    /* g: Type1 of 50 bytes = 2 + 2 = 4 units = 32 words */
    check(ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 6 && ctr(F, 0, SBOX_CTR_MSGS) == 8 && ctr(F, 0, SBOX_CTR_WORDS) == 64 + 6 * 32,
          "routes: drop_route 6, msgs 8, words 256 (%" PRIu64 " %" PRIu64 " %" PRIu64 ")", ctr(F, 0, SBOX_CTR_DROP_ROUTE),
          ctr(F, 0, SBOX_CTR_MSGS), ctr(F, 0, SBOX_CTR_WORDS));
    check(fab_rd(F, 0, SBOX_REG_MLC(0, MLC_REG_RX_AVAIL(0))) == 0, "routes: the source FIFO is empty after the drops");
    check(no_over_under(F), "routes: no wr_over / rd_under");
    for (unsigned i = 0; i < 6; i++)
        mlc_msg_free(&d[i]);
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    mlc_msg_free(&g);
    fab_free(F);
}

/* ================================================================ Type1 with PC < 2 */

static void test_pc(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    /* Type1 messages of 2 units whose PC says 0 and 1: taken as 2 (16 words each), err_msg each;
     * one with PC 1 to an invalid destination: dropped after 16 words; then good ones */
    mlc_msg_t a = mk_msg(1, 0, 1, 0, 0, 20, 1), b = mk_msg(1, 0, 1, 0, 0, 23, 2), c = mk_msg(1, 0, 3, 0, 0, 10, 3);
    mlc_msg_t x = mk_msg(1, 0, 1, 0, 0, 70, 4), y = mk_msg(0, 0, 1, 0, 0, 0, 5);
    send_raw(F, 0, 1, &a, 0);
    send_raw(F, 0, 1, &b, 1);
    fab_wr(F, 0, SBOX_REG_TABLE(3), 0); /* entry 3 invalid */
    send_raw(F, 0, 1, &c, 1);
    send_raw(F, 0, 1, &x, -1);
    send_raw(F, 0, 1, &y, -1);
    int ok = run_until_got(F, 1, 4, 5000);
    ok &= got_eq(F, 1, 1, &a, NULL);
    ok &= got_eq(F, 1, 1, &b, NULL);
    ok &= got_eq(F, 1, 1, &x, NULL);
    ok &= got_eq(F, 1, 1, &y, NULL);
    check(ok, "pc: PC 0 and PC 1 messages pass as 2 units, the next ones whole");
    /* x: 70 bytes = 2 + 3 = 5 units = 40 words; y 8 */
    check(ctr(F, 0, SBOX_CTR_ERR_MSG) == 3 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 4 &&
              ctr(F, 0, SBOX_CTR_WORDS) == 16 + 16 + 40 + 8,
          "pc: err_msg 3 (two passed, one dropped), drop_route 1, words 80 (%" PRIu64 ", %" PRIu64 ")",
          ctr(F, 0, SBOX_CTR_ERR_MSG), ctr(F, 0, SBOX_CTR_WORDS));
    check(fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_ERR_MSG)) == 3, "pc: err_msg on the register port");
    check(no_over_under(F), "pc: no wr_over / rd_under");
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    mlc_msg_free(&c);
    mlc_msg_free(&x);
    mlc_msg_free(&y);
    fab_free(F);
}

/* ================================================================ bus and manager round robin, locks */

/* Nodes 0 and 1 send a Type0 to node 2 on channel 0 in the same step: box MLCs 0 and 1 accept
 * in the same step t. Sources s0 = port 0 ch 0, s2 = port 1 ch 0, NS = 10, bp = mp = 0:
 *   t+1 RD0 s0 (bp 1), t+2 RD0 s2 (bp 3), t+3 RD1 s0 (bp 1), t+4 RD1 s2 (bp 3), s0 analysed -> WAIT;
 *   t+5 manager act s0 (msgs 1), s2 analysed; t+6 PUT0 s0 .. t+13 MOV7 s0 (words 1..8), s0 IDLE;
 *   s2 waits for (2,0) locked by s0 until the manager of t+14 (msgs 2); t+15..t+22 its words. */
static void test_lock_rr(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    mlc_msg_t a = mk_msg(0, 0, 2, 0, 0, 0, 1), b = mk_msg(0, 0, 2, 0, 1, 0, 2);
    send(F, 0, 0, &a);
    send(F, 1, 0, &b);
    uint64_t t = 0, w[64], m[64];
    unsigned n = 0;
    for (unsigned i = 0; i < 400 && n < 64; i++) {
        fab_step(F);
        if (!t && mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS) == 1) {
            t = F->k;
            check(mlc_counter(sbox_mlc(F->box[0], 1), MLC_CTR_RX_PKTS) == 1, "lock: both units accepted in step t");
        }
        if (t) {
            w[n] = ctr(F, 0, SBOX_CTR_WORDS);
            m[n] = ctr(F, 0, SBOX_CTR_MSGS);
            n++;
        }
    }
    int ok = n == 64;
    for (unsigned j = 0; j < 24 && ok; j++) { /* w[j]: after t+j */
        uint64_t ew = j < 6 ? 0 : j <= 13 ? j - 5 : j == 14 ? 8 : j <= 22 ? j - 6 : 16;
        uint64_t em = j < 5 ? 0 : j < 14 ? 1 : 2;
        ok &= check(w[j] == ew && m[j] == em, "lock/rr: after t+%u words %" PRIu64 " (want %" PRIu64 ") msgs %" PRIu64 " (want %" PRIu64 ")",
                    j, w[j], ew, m[j], em);
    }
    check(ok, "lock/rr: the hand-computed schedule of two sources to one destination");
    ok = run_until_got(F, 2, 2, 2000) && got_eq(F, 2, 0, &a, NULL) && got_eq(F, 2, 0, &b, NULL);
    check(ok, "lock: node 2 gets node 0's message, then node 1's, whole");
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    fab_free(F);

    /* long messages: two sources to one destination, not mixed; the second activated only after
     * every word of the first went on the bus */
    F = star(bp);
    a = mk_msg(1, 0, 2, 0, 0, 900, 3);
    b = mk_msg(1, 0, 2, 0, 1, 700, 4);
    unsigned wa = 8 * mlc_msg_units(&a), wb = 8 * mlc_msg_units(&b);
    send(F, 0, 1, &a);
    send(F, 1, 1, &b);
    uint64_t words_at_second = 0;
    for (unsigned i = 0; i < 20000 && F->got[2].n < 2; i++) {
        uint64_t before = ctr(F, 0, SBOX_CTR_MSGS);
        fab_step(F);
        if (before == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 2)
            words_at_second = ctr(F, 0, SBOX_CTR_WORDS);
    }
    ok = F->got[2].n == 2 && got_eq(F, 2, 1, &a, NULL) && got_eq(F, 2, 1, &b, NULL);
    check(ok, "lock: two long messages to one destination arrive whole, not mixed");
    check(words_at_second == wa, "lock: the second is activated once the first's %u words are on the bus (%" PRIu64 ")", wa,
          words_at_second);
    check(ctr(F, 0, SBOX_CTR_WORDS) == wa + wb, "lock: words %u", wa + wb);
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    fab_free(F);
}

/* A long message node 5 -> node 2 holds (2,0). Then node 0 multicasts to {1,2} (waits for (2,0))
 * and node 4 sends to node 3. From mp = 11 (after s10 = port 5 ch 0), the manager meets s0 (the
 * multicast) before s8 (port 4): the blocked multicast must not make node 4's message wait. */
static void test_manager_skip(void)
{
    sbox_params_t bp = bparams(6, 6);
    fab_t *F = star(bp);
    mlc_msg_t L = mk_msg(1, 0, 2, 0, 5, 4000, 1), M = mk_msg(0, 0, 255, 0x0006, 0, 0, 2), U = mk_msg(0, 0, 3, 0, 4, 0, 3);
    send(F, 5, 0, &L);
    uint64_t act = 0;
    for (unsigned i = 0; i < 3000 && !act; i++) {
        fab_step(F);
        if (ctr(F, 0, SBOX_CTR_MSGS) == 1)
            act = F->k;
    }
    fab_run(F, 200);
    send(F, 0, 0, &M);
    send(F, 4, 0, &U);
    uint64_t s1 = 0, s2 = 0, s3 = 0, sl = 0;
    int ok = run_until_got(F, 1, 1, 40000) && got_eq(F, 1, 0, &M, &s1);
    ok &= run_until_got(F, 3, 1, 100) && got_eq(F, 3, 0, &U, &s3);
    ok &= run_until_got(F, 2, 2, 2000) && got_eq(F, 2, 0, &L, &sl) && got_eq(F, 2, 0, &M, &s2);
    check(ok && act, "manager: all three messages arrive whole");
    check(s3 + 2000 < s1 && sl <= s2, "manager: node 3 served at %" PRIu64 " while the multicast waited for node 2 (long one %" PRIu64
          ", multicast %" PRIu64 "/%" PRIu64 ")", s3, sl, s1, s2);
    check(ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 3, "manager: msgs 3, mcast 1");
    mlc_msg_free(&L);
    mlc_msg_free(&M);
    mlc_msg_free(&U);
    fab_free(F);
}

/* Manager round robin: a long message L from node 0 (s0) to node 4 holds (4,0), and node 0 queues y
 * to node 4 behind it; node 1 (s2) queues x1, which waits and takes the reservation of channel 0
 * (rule 3); then node 2 (s4) x3 and node 3 (s6) x5, all to node 4. When L ends: x1 (reserved; mp 3);
 * the reservation goes to the first waiting source from mp 3: s4 (x3; s0 is still reading y's header);
 * when x1 ends, x3 (mp 5); the reservation from mp 5: s6 (x5) before s0 (y, waiting by then). A
 * manager that searched from 0 would serve y before x5. */
static void test_manager_rr(void)
{
    sbox_params_t bp = bparams(5, 5);
    fab_t *F = star(bp);
    mlc_msg_t L = mk_msg(1, 0, 4, 0, 0, 3000, 1), y = mk_msg(0, 0, 4, 0, 0, 0, 3);
    mlc_msg_t x1 = mk_msg(0, 0, 4, 0, 1, 0, 2), x3 = mk_msg(0, 0, 4, 0, 2, 0, 4), x5 = mk_msg(0, 0, 4, 0, 3, 0, 5);
    send(F, 0, 0, &L);
    send(F, 0, 0, &y);
    fab_run(F, 300);
    send(F, 1, 0, &x1);
    fab_run(F, 300);
    send(F, 2, 0, &x3);
    send(F, 3, 0, &x5);
    int ok = run_until_got(F, 4, 5, 60000) && got_eq(F, 4, 0, &L, NULL);
    ok &= got_eq(F, 4, 0, &x1, NULL) && got_eq(F, 4, 0, &x3, NULL) && got_eq(F, 4, 0, &x5, NULL) && got_eq(F, 4, 0, &y, NULL);
    check(ok, "manager rr: after the long message x1, x3, x5, y (the reservation round robin from mp)");
    FREE_MSGS(&L, &y, &x1, &x3, &x5);
    fab_free(F);
}

/* Reservation (rule 3): node 1 streams 16 messages to node 2 and node 4 16 to node 3, back to back
 * and out of step, so (2,0) and (3,0) are hardly ever free together; node 0's multicast to {2, 3},
 * sent once both streams run, reserves them when it first waits and is activated as soon as the two
 * messages in progress end: node 2 gets it among the first three of node 1's messages, not after the
 * whole stream. */
static void test_reservation(void)
{
    sbox_params_t bp = bparams(5, 5);
    fab_t *F = star(bp);
    mlc_msg_t a[16], c[16], M = mk_msg(0, 0, 255, 0x000C, 0, 0, 40);
    for (unsigned i = 0; i < 16; i++) {
        a[i] = mk_msg(1, 0, 2, 0, 1, 200, 41 + i);
        c[i] = mk_msg(1, 0, 3, 0, 4, 150, 61 + i);
        send(F, 1, 0, &a[i]);
        send(F, 4, 0, &c[i]);
    }
    fab_run(F, 1200);
    send(F, 0, 0, &M);
    int ok = run_until_got(F, 2, 17, 200000) && run_until_got(F, 3, 17, 200000);
    unsigned at[2] = {99, 99}, k[2] = {0, 0};
    const mlc_msg_t *stream[2] = {a, c};
    for (unsigned i = 0; i < 17 && ok; i++)
        for (unsigned j = 0; j < 2; j++) { /* node 2 (a's), node 3 (c's) */
            rec_t g;
            ring_pop(&F->got[2 + j], &g);
            if (mlc_msg_eq(&g.m, &M))
                at[j] = i;
            else
                ok &= k[j] < 16 && mlc_msg_eq(&g.m, &stream[j][k[j]++]);
            mlc_msg_free(&g.m);
        }
    unsigned at2 = at[0], at3 = at[1];
    check(ok, "reservation: both streams and the multicast arrive whole, the streams in order");
    check(at2 <= 3 && at3 <= 3, "reservation: the multicast arrives at node 2 as message %u and at node 3 as message %u "
          "of 17 (at most the 4th: it waits only for the messages in progress)", at2 + 1, at3 + 1);
    check(no_over_under(F), "reservation: no wr_over / rd_under");
    for (unsigned i = 0; i < 16; i++) {
        mlc_msg_free(&a[i]);
        mlc_msg_free(&c[i]);
    }
    mlc_msg_free(&M);
    fab_free(F);
}

/* ================================================================ back-pressure (room, avail) */

/* Node 2 stops reading: its receive FIFO, then box port 2's send FIFO fill up. The box must fill
 * that FIFO to exactly 0 bytes of space and never write beyond it (room counts the write in flight),
 * nor read beyond the source's status; a multicast to {1, 2} waits for its slowest port; when node 2
 * reads again, everything arrives whole. */
static void test_backpressure(void)
{
    sbox_params_t bp = bparams(3, 3);
    bp.FIFO_BYTES = 256;
    fab_t *F = star(bp);
    F->hold[2] = 1;
    mlc_msg_t a = mk_msg(1, 0, 2, 0, 0, 2000, 1), m = mk_msg(1, 0, 255, 0x6, 0, 900, 2);
    send(F, 0, 0, &a);
    send(F, 0, 0, &m);
    fab_run(F, 6000);
    uint64_t w1 = ctr(F, 0, SBOX_CTR_WORDS);
    fab_run(F, 1000);
    uint32_t sp = fab_rd(F, 0, SBOX_REG_MLC(2, MLC_REG_TX_SPACE(0)));
    check(sp == 0 && ctr(F, 0, SBOX_CTR_WORDS) == w1 && w1 > 0, "backpressure: box port 2's send FIFO filled to 0 bytes (%u), the bus "
          "stopped (%" PRIu64 " words)", sp, w1);
    check(no_over_under(F), "backpressure: no wr_over / rd_under in the box while blocked");
    check(F->got[1].n == 0 && F->got[2].n == 0, "backpressure: nothing delivered yet");
    F->hold[2] = 0;
    int ok = run_until_got(F, 2, 2, 60000) && got_eq(F, 2, 0, &a, NULL) && got_eq(F, 2, 0, &m, NULL);
    ok &= run_until_got(F, 1, 1, 1000) && got_eq(F, 1, 0, &m, NULL);
    check(ok, "backpressure: after node 2 reads again, both messages whole");
    check(ctr(F, 0, SBOX_CTR_WORDS) == 8u * (mlc_msg_units(&a) + mlc_msg_units(&m)) && no_over_under(F),
          "backpressure: words %" PRIu64 ", no wr_over / rd_under", ctr(F, 0, SBOX_CTR_WORDS));
    mlc_msg_free(&a);
    mlc_msg_free(&m);
    fab_free(F);
}

/* ================================================================ barriers */

static int is_release(const rec_t *g, unsigned mask)
{
    static const uint8_t zero[MLC_T0_DATA] = {0};
    return g->m.type == 0 && g->m.kind == MLC_KIND_RELEASE && g->m.dst == 255 && g->m.mask == mask && g->m.src == 255 &&
           g->m.len == MLC_T0_DATA && memcmp(g->m.data, zero, MLC_T0_DATA) == 0;
}

/* pops node i's messages: how many are releases of mask on channel ch (others count in *other) */
static unsigned releases(fab_t *F, unsigned i, unsigned ch, unsigned mask, unsigned *other)
{
    unsigned n = 0;
    rec_t g;
    while (ring_pop(&F->got[i], &g)) {
        if (g.ch == ch && is_release(&g, mask))
            n++;
        else if (other)
            (*other)++;
        mlc_msg_free(&g.m);
    }
    return n;
}

static void test_barrier_one(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    /* four members, late arrivals: no release before the last request is taken */
    static const unsigned when[4] = {0, 300, 700, 1200};
    unsigned early = 0, ch = 1;
    for (uint64_t s = 0; s <= 1200; s++) {
        for (unsigned i = 0; i < 4; i++)
            if (s == when[i])
                mlc_host_barrier(F->host[i], ch, i, 0x000F, 1);
        fab_step(F);
        for (unsigned i = 0; i < 4; i++)
            early += (unsigned)F->got[i].n;
    }
    check(early == 0, "barrier: no release before the last request");
    uint32_t v = fab_rd(F, 0, SBOX_REG_BAR(ch));
    check(v == (SBOX_BAR_BUSY | (0x7u << 8) | (0x000Fu << 16)), "barrier: busy, A = ports 0..2, M = 0x000F (0x%08X)", v);
    check(ctr(F, 0, SBOX_CTR_BAR_REQ) == 3 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 0, "barrier: bar_req 3, not done");
    fab_run(F, 1500);
    unsigned other = 0, ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, ch, 0x000F, &other) == 1;
    check(ok && other == 0, "barrier: every member (arrived ones included) gets one release, nothing else");
    check(ctr(F, 0, SBOX_CTR_BAR_REQ) == 4 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 1 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 0 &&
              ctr(F, 0, SBOX_CTR_WORDS) == 8 && ctr(F, 0, SBOX_CTR_MSGS) == 0 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 0,
          "barrier: bar_req 4, bar_done 1, the made release 8 words (not in msgs)");
    uint32_t v0 = fab_rd(F, 0, SBOX_REG_BAR(ch)), v1 = fab_rd(F, 0, SBOX_REG_BAR(1 - ch));
    check(v0 == (0x000Fu << 16) && v1 == 0, "barrier: ended: busy, A, up_sent 0; M kept (0x%08X 0x%08X)", v0, v1);

    /* err_bar: members {0,1,2} on channel 0: node 3 is no member, node 0 twice, node 1 with another set */
    mlc_host_barrier(F->host[0], 0, 0, 0x0007, 2);
    fab_run(F, 300);
    mlc_host_barrier(F->host[3], 0, 3, 0x0007, 2);
    mlc_host_barrier(F->host[0], 0, 0, 0x0007, 2);
    mlc_host_barrier(F->host[1], 0, 1, 0x0003, 2);
    fab_run(F, 600);
    check(ctr(F, 0, SBOX_CTR_ERR_BAR) == 3 && ctr(F, 0, SBOX_CTR_BAR_REQ) == 5, "barrier: 3 requests rejected (err_bar)");
    check(fab_rd(F, 0, SBOX_REG_BAR(0)) == (SBOX_BAR_BUSY | (0x1u << 8) | (0x0007u << 16)), "barrier: rejected ones change nothing");
    mlc_host_barrier(F->host[1], 0, 1, 0x0007, 2);
    mlc_host_barrier(F->host[2], 0, 2, 0x0007, 2);
    fab_run(F, 1200);
    other = 0;
    ok = releases(F, 0, 0, 7, &other) == 1 && releases(F, 1, 0, 7, &other) == 1 && releases(F, 2, 0, 7, &other) == 1 &&
         releases(F, 3, 0, 7, &other) == 0;
    check(ok && other == 0, "barrier: members {0,1,2} released once, node 3 not");
    check(ctr(F, 0, SBOX_CTR_BAR_DONE) == 2 && ctr(F, 0, SBOX_CTR_BAR_REQ) == 7, "barrier: bar_done 2");

    /* a release from a node ends the barrier and is forwarded to every member port but its own */
    mlc_host_barrier(F->host[0], 0, 0, 0x000E, 3); /* node 0 is no member of {1,2,3}: err_bar */
    mlc_host_barrier(F->host[1], 0, 1, 0x000E, 3);
    fab_run(F, 400);
    check(fab_rd(F, 0, SBOX_REG_BAR(0)) == (SBOX_BAR_BUSY | (0x2u << 8) | (0x000Eu << 16)), "barrier: busy with {1,2,3}");
    mlc_msg_t rel = mk_msg(0, MLC_KIND_RELEASE, 255, 0x0007, 9, 0, 0);
    send(F, 2, 0, &rel);
    fab_run(F, 400);
    ok = run_until_got(F, 0, 1, 100) && got_eq(F, 0, 0, &rel, NULL) && run_until_got(F, 1, 1, 100) && got_eq(F, 1, 0, &rel, NULL);
    check(ok && F->got[2].n == 0 && F->got[3].n == 0, "barrier: a release from node 2 goes to ports 0 and 1");
    check(fab_rd(F, 0, SBOX_REG_BAR(0)) == (0x000Eu << 16), "barrier: the release ended the barrier");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 1 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 4,
          "barrier: the release counted in msgs and mcast");
    mlc_msg_free(&rel);
    fab_free(F);
}

/* Exact timing of the barrier source and of a drop, by hand (4-port box, idle, ch 0):
 * a barrier request of node 0 with MASK = {node 0} accepted by box MLC 0 in step t: RD0 t+1,
 * RD1 t+2 (bp 1), analysed t+3, activated t+4 (rule 5: taken and complete: bar_req, bar_done, the
 * barrier source s8 makes a release for E'(m) = {0} and waits; s0 DROP, wi 2). t+5: s0 READ word 2
 * (bp 1), the manager activates s8. The bus then alternates (round robin from bp): s8 PUT0 t+6
 * (bp 9), s0 READ t+7 (bp 1), s8 PUT1 t+8, ... s0 READ word 7 t+15 (done), s8 PUT4 t+14, PUT5..7
 * t+16..t+18: words after t+j = 0 (j < 6), (j-4)/2 (6..15), j-10 up to 8. Then a dropped Type0 (DST 3, entry invalid) and a
 * Type0 to node 2 accepted together in step u: drop act u+4 (drop_route), READs of words 2..7 in
 * u+5..u+10, the next header RD0 u+11, RD1 u+12, act u+14 (msgs), PUT0 u+15 (words 9). */
static void test_exact_bar_drop(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    fab_wr(F, 0, SBOX_REG_TABLE(3), 0);
    mlc_host_barrier(F->host[0], 0, 0, 0x0001, 1);
    uint64_t t = 0, hist[3][40];
    unsigned n = 0;
    for (unsigned i = 0; i < 300 && n < 40; i++) {
        fab_step(F);
        if (!t && mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS) == 1)
            t = F->k;
        if (t) {
            hist[0][n] = ctr(F, 0, SBOX_CTR_BAR_REQ) * 10 + ctr(F, 0, SBOX_CTR_BAR_DONE);
            hist[1][n] = ctr(F, 0, SBOX_CTR_WORDS);
            hist[2][n] = ctr(F, 0, SBOX_CTR_MSGS) + ctr(F, 0, SBOX_CTR_MCAST) + ctr(F, 0, SBOX_CTR_DROP_ROUTE);
            n++;
        }
    }
    int ok = n == 40;
    for (unsigned j = 0; j < 22 && ok; j++) {
        uint64_t eb = j < 4 ? 0 : 11, ew = j < 6 ? 0 : j <= 15 ? (j - 4) / 2 : j - 10 < 8 ? j - 10 : 8;
        ok &= check(hist[0][j] == eb && hist[1][j] == ew && hist[2][j] == 0,
                    "exact barrier: after t+%u bar_req*10+bar_done %" PRIu64 " (want %" PRIu64 "), words %" PRIu64 " (want %" PRIu64 ")",
                    j, hist[0][j], eb, hist[1][j], ew);
    }
    unsigned other = 0;
    fab_run(F, 300);
    check(ok && releases(F, 0, 0, 0x0001, &other) == 1 && other == 0, "exact barrier: node 0 released by the box's made release");
    /* drop then data, both units in one frame: the node's null frames start every 22 steps from step 2 */
    while ((F->k + 1) % 22 != 3)
        fab_step(F);
    mlc_msg_t d = mk_msg(0, 0, 3, 0, 0, 0, 1), g = mk_msg(0, 0, 2, 0, 0, 0, 2);
    send(F, 0, 0, &d);
    send(F, 0, 0, &g);
    uint64_t u = 0, p0 = mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS), w0 = ctr(F, 0, SBOX_CTR_WORDS);
    n = 0;
    for (unsigned i = 0; i < 300 && n < 40; i++) {
        fab_step(F);
        uint32_t pk = mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS);
        if (!u && pk != p0) {
            u = F->k;
            check(pk == p0 + 2, "exact drop: both units accepted in one step u");
        }
        if (u) {
            hist[0][n] = ctr(F, 0, SBOX_CTR_DROP_ROUTE);
            hist[1][n] = ctr(F, 0, SBOX_CTR_WORDS) - w0;
            hist[2][n] = ctr(F, 0, SBOX_CTR_MSGS);
            n++;
        }
    }
    ok = n == 40;
    for (unsigned j = 0; j < 24 && ok; j++) {
        uint64_t ed = j < 4 ? 0 : 1, ew = j < 15 ? 0 : j <= 22 ? j - 14 : 8, em = j < 14 ? 0 : 1;
        ok &= check(hist[0][j] == ed && hist[1][j] == ew && hist[2][j] == em,
                    "exact drop: after u+%u drop_route %" PRIu64 " (want %" PRIu64 ") words %" PRIu64 " (want %" PRIu64 ") msgs %" PRIu64
                    " (want %" PRIu64 ")", j, hist[0][j], ed, hist[1][j], ew, hist[2][j], em);
    }
    check(run_until_got(F, 2, 1, 1000) && got_eq(F, 2, 0, &g, NULL) && F->got[3].n == 0, "exact drop: node 2 gets the second message");
    mlc_msg_free(&d);
    mlc_msg_free(&g);
    fab_free(F);
}

/* Two boxes: A (root) ports 0,1 -> nodes 0,1, port 2 <-> B port 3 (B's up port, B's end master);
 * B ports 0,1 -> nodes 2,3, port 2 -> node 4 (entered in B's table only by the up_sent case). */
static fab_t *tree(unsigned lw)
{
    sbox_params_t bp[2] = {bparams(4, 5), bparams(4, 5)};
    bp[0].LINK_W = bp[1].LINK_W = lw;
    bp[1].MASTER_MASK = 1u << 3;
    fab_t *F = fab_new(2, bp);
    fab_node(F, 0, 0, NULL);
    fab_node(F, 0, 1, NULL);
    fab_node(F, 1, 0, NULL);
    fab_node(F, 1, 1, NULL);
    fab_node(F, 1, 2, NULL); /* node 4: in A's table (port 2), not yet in B's */
    fab_join(F, 1, 3, 0, 2);
    static const unsigned ta[4] = {0, 1, 2, 2}, tb[4] = {3, 3, 0, 1};
    for (unsigned d = 0; d < 4; d++) {
        fab_route(F, 0, d, ta[d]);
        fab_route(F, 1, d, tb[d]);
    }
    fab_route(F, 0, 4, 2);
    fab_wr(F, 1, SBOX_REG_UP, 0x13);
    return F;
}

static void test_tree(void)
{
    fab_t *F = tree(4);
    check(fab_rd(F, 1, SBOX_REG_UP) == 0x13 && fab_rd(F, 0, SBOX_REG_UP) == 0, "tree: B's up port 3, A none");
    /* data across the tree */
    mlc_msg_t a = mk_msg(1, 0, 3, 0, 0, 200, 1), b = mk_msg(0, 0, 1, 0, 3, 0, 2), m = mk_msg(1, 0, 255, 0x000F, 2, 60, 3);
    send(F, 0, 0, &a);
    send(F, 3, 1, &b);
    send(F, 2, 0, &m);
    int ok = run_until_got(F, 3, 2, 8000);
    ok &= run_until_got(F, 1, 2, 8000) && run_until_got(F, 0, 1, 8000);
    fab_run(F, 500);
    /* node 3: a and m (channel 0, order between two sources is free); node 1: b (ch 1) and m; node 0: m.
     * m needs B's up port: it goes up alone with node 2's bit cleared (MASK 0x000B), turns at A (port 2
     * is a box port: nodes 2 and 3 behind it) and comes back down to node 3 (docs/switchbox.md, Messages) */
    mlc_msg_t m_up = mk_msg(1, 0, 255, 0x000B, 2, 60, 3);
    unsigned seen = 0;
    for (unsigned i = 0; i < 4; i++) {
        rec_t g;
        while (ring_pop(&F->got[i], &g)) {
            if (i == 3 && g.ch == 0 && mlc_msg_eq(&g.m, &a))
                seen |= 1;
            else if (i == 1 && g.ch == 1 && mlc_msg_eq(&g.m, &b))
                seen |= 2;
            else if (g.ch == 0 && mlc_msg_eq(&g.m, &m_up) && i != 2)
                seen |= 4u << i;
            else
                seen |= 0x100;
            mlc_msg_free(&g.m);
        }
    }
    check(ok && seen == (1 | 2 | 4 | 8 | 32),
          "tree: unicast both ways, multicast from node 2 to 0, 1, 3 once each, its bit cleared (0x%X)", seen);
    check(ctr(F, 1, SBOX_CTR_MCAST) == 0 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 1, SBOX_CTR_MSGS) == 4 &&
              ctr(F, 0, SBOX_CTR_MSGS) == 3,
          "tree: the multicast is one in A (the turn), two single-port messages in B (up, then down to node 3)");

    /* barrier of all four nodes on channel 1: node 0 early (A), node 2 (B), node 1 (A), node 3 last (B) */
    static const unsigned when[4] = {0, 900, 300, 1500};
    unsigned early = 0;
    int b_up = 0;
    for (uint64_t s = 0; s <= 1500; s++) {
        for (unsigned i = 0; i < 4; i++)
            if (s == when[i])
                mlc_host_barrier(F->host[i], 1, i, 0x000F, 1);
        fab_step(F);
        for (unsigned i = 0; i < 4; i++)
            early += (unsigned)F->got[i].n;
    }
    check(early == 0, "tree barrier: no release before the last request");
    b_up = ctr(F, 1, SBOX_CTR_BAR_DONE) == 0;
    uint32_t va = fab_rd(F, 0, SBOX_REG_BAR(1)), vb = fab_rd(F, 1, SBOX_REG_BAR(1));
    check(b_up && vb == (SBOX_BAR_BUSY | (0x1u << 8) | (0x000Fu << 16)) && va == (SBOX_BAR_BUSY | (0x3u << 8) | (0x000Fu << 16)),
          "tree barrier: before node 3, B has port 0, A ports 0 and 1 (A 0x%08X B 0x%08X)", va, vb);
    /* B completes: request up (up_sent); A completes with port 2: release down */
    unsigned other = 0;
    int seen_up_sent = 0;
    for (unsigned s = 0; s < 3000; s++) {
        fab_step(F);
        if (!seen_up_sent && ctr(F, 1, SBOX_CTR_BAR_DONE) == 1 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 0) {
            uint32_t v = fab_rd(F, 1, SBOX_REG_BAR(1));
            seen_up_sent = v == (SBOX_BAR_BUSY | SBOX_BAR_UP_SENT | (0x3u << 8) | (0x000Fu << 16));
            check(seen_up_sent, "tree barrier: B sent its request up, keeps the barrier (0x%08X)", v);
            /* a second request from node 2 now: A bit set, up_sent: err_bar */
            mlc_host_barrier(F->host[2], 1, 2, 0x000F, 1);
        }
    }
    ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, 1, 0x000F, &other) == 1;
    check(ok && other == 0 && seen_up_sent, "tree barrier: every node released once");
    check(ctr(F, 0, SBOX_CTR_BAR_REQ) == 3 && ctr(F, 1, SBOX_CTR_BAR_REQ) == 2 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 1 &&
              ctr(F, 1, SBOX_CTR_BAR_DONE) == 1 && ctr(F, 1, SBOX_CTR_ERR_BAR) == 1 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 0,
          "tree barrier: bar_req A 3 B 2, bar_done 1 and 1, err_bar B 1");
    check(fab_rd(F, 0, SBOX_REG_BAR(1)) == (0x000Fu << 16) && fab_rd(F, 1, SBOX_REG_BAR(1)) == (0x000Fu << 16),
          "tree barrier: ended in both boxes");
    /* the release down counted in B's msgs (forwarded), not A's made one */
    check(ctr(F, 1, SBOX_CTR_MSGS) == 5 && ctr(F, 0, SBOX_CTR_MSGS) == 3, "tree barrier: B forwarded the release (msgs A %" PRIu64
          " B %" PRIu64 ")", ctr(F, 0, SBOX_CTR_MSGS), ctr(F, 1, SBOX_CTR_MSGS));
    /* a second barrier works (nothing left over) */
    for (unsigned i = 0; i < 4; i++)
        mlc_host_barrier(F->host[i], 1, i, 0x000F, 2);
    fab_run(F, 3000);
    ok = 1;
    other = 0;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, 1, 0x000F, &other) == 1;
    check(ok && other == 0, "tree barrier: a second barrier releases everyone once");

    /* up_sent alone rejects: members 0x1F on channel 0 with node 4 (B port 2) not yet in B's table:
     * B completes with ports {0,1} and sends its request up; then entry 4 becomes valid (port 2) and
     * node 4's request (a member port that has not arrived, same M) is rejected: up_sent. A completes
     * with nodes 0, 1 and releases {0,1,2}; B forwards the release to ports 0, 1 and now 2. */
    unsigned e0 = (unsigned)ctr(F, 1, SBOX_CTR_ERR_BAR);
    mlc_host_barrier(F->host[2], 0, 2, 0x001F, 3);
    mlc_host_barrier(F->host[3], 0, 3, 0x001F, 3);
    fab_run(F, 1500);
    uint32_t v5 = fab_rd(F, 1, SBOX_REG_BAR(0));
    check(v5 == (SBOX_BAR_BUSY | SBOX_BAR_UP_SENT | (0x3u << 8) | (0x001Fu << 16)), "tree barrier 0x1F: B's request went up (0x%08X)", v5);
    fab_route(F, 1, 4, 2);
    mlc_host_barrier(F->host[4], 0, 4, 0x001F, 3);
    fab_run(F, 1500);
    check(ctr(F, 1, SBOX_CTR_ERR_BAR) == e0 + 1 && fab_rd(F, 1, SBOX_REG_BAR(0)) == v5,
          "tree barrier 0x1F: node 4's request after the request went up is rejected (err_bar), nothing changes");
    mlc_host_barrier(F->host[0], 0, 0, 0x001F, 3);
    mlc_host_barrier(F->host[1], 0, 1, 0x001F, 3);
    fab_run(F, 3000);
    ok = 1;
    other = 0;
    for (unsigned i = 0; i < 5; i++)
        ok &= releases(F, i, 0, 0x001F, &other) == 1;
    check(ok && other == 0, "tree barrier 0x1F: all five nodes released once");
    check(no_over_under(F), "tree: no wr_over / rd_under");
    FREE_MSGS(&a, &b, &m, &m_up);
    fab_free(F);
}

/* the next message node i got: channel ch, equal to m; 1 if so */
static int next_is(fab_t *F, unsigned i, unsigned ch, const mlc_msg_t *m) { return got_eq(F, i, ch, m, NULL); }

/* Multicasts in a tree (docs/switchbox.md, Messages and destinations: up alone, never back to a node,
 * turn), on tree(): A's nodes 0, 1; B's nodes 2, 3; A's port 2 a box port (nodes 2, 3 and 4 behind it). */
static void test_tree_mcast(void)
{
    fab_t *F = tree(4);
    /* from A (the root) to all four: down to node 1 and across to B, MASK unchanged; B sends it down only */
    mlc_msg_t a = mk_msg(0, 0, 255, 0x000F, 0, 0, 11);
    send(F, 0, 1, &a);
    fab_run(F, 3000);
    check(next_is(F, 1, 1, &a) && next_is(F, 2, 1, &a) && next_is(F, 3, 1, &a) && F->got[0].n == 0,
          "tree mcast: from A's node 0 to nodes 1, 2, 3 once each, unchanged, not to its sender");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 1 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 1, SBOX_CTR_MSGS) == 1 &&
              ctr(F, 1, SBOX_CTR_MCAST) == 1,
          "tree mcast: A's multicast counted once in each box, a multicast in both");
    /* from B's node 3 to nodes 2, 3 of its own box: no member above, it stays in B, MASK unchanged */
    mlc_msg_t b = mk_msg(1, 0, 255, 0x000C, 3, 40, 12);
    send(F, 3, 0, &b);
    fab_run(F, 3000);
    check(next_is(F, 2, 0, &b) && F->got[3].n == 0 && F->got[0].n + F->got[1].n == 0 && ctr(F, 0, SBOX_CTR_MSGS) == 1,
          "tree mcast: within B, to node 2 only (not its sender), A not entered");
    /* from B's node 3 to node 0 and itself: up alone with its bit cleared (MASK 0x0001); A's set is {0}
     * (the sender's bit is gone, nothing behind port 2): nothing comes back down */
    mlc_msg_t c = mk_msg(0, 0, 255, 0x0009, 3, 0, 13), c_got = mk_msg(0, 0, 255, 0x0001, 3, 0, 13);
    send(F, 3, 1, &c);
    fab_run(F, 3000);
    check(next_is(F, 0, 1, &c_got) && F->got[1].n + F->got[2].n + F->got[3].n == 0,
          "tree mcast: B's node 3 to {0, 3}: node 0 gets it with MASK 0x0001, nobody else");
    check(ctr(F, 1, SBOX_CTR_MSGS) == 3 && ctr(F, 1, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 2 &&
              ctr(F, 0, SBOX_CTR_MCAST) == 1,
          "tree mcast: msgs A 2 B 3, no new multicast in either box");
    /* route order: node 2's multicast to 0, 1, 3 goes up, turns and comes back to node 3; its next
     * message, a unicast to node 3, takes the short route and arrives first (docs: Messages; a long
     * multicast would still hold node 3's FIFO when the unicast wants it) */
    mlc_msg_t d = mk_msg(0, 0, 255, 0x000B, 2, 0, 14), e = mk_msg(0, 0, 3, 0, 2, 0, 15);
    send(F, 2, 0, &d);
    send(F, 2, 0, &e);
    fab_run(F, 4000);
    check(next_is(F, 3, 0, &e) && next_is(F, 3, 0, &d) && next_is(F, 0, 0, &d) && next_is(F, 1, 0, &d),
          "tree mcast: node 2's multicast reaches 0, 1, 3; its later unicast to node 3 (short route) arrives first");
    check(ctr(F, 0, SBOX_CTR_ERR_BAR) == 0 && ctr(F, 1, SBOX_CTR_ERR_BAR) == 0, "tree mcast: nothing rejected");
    /* a barrier request that needs the up port keeps its MASK (the members): node 2's own bit stays set */
    for (unsigned i = 0; i < 4; i++)
        mlc_host_barrier(F->host[i], 1, i, 0x000F, 5);
    fab_run(F, 4000);
    unsigned other = 0;
    int ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, 1, 0x000F, &other) == 1;
    check(ok && other == 0 && ctr(F, 1, SBOX_CTR_ERR_BAR) == 0,
          "tree mcast: a barrier over both boxes completes (requests keep their MASK)");
    check(no_over_under(F), "tree mcast: no wr_over / rd_under");
    FREE_MSGS(&a, &b, &c, &c_got, &d, &e);
    fab_free(F);
}

/* A box alone whose port 3 leads to a box (nodes 3 and 4 behind it: two, the fewest a box port has):
 * a multicast from port 3 turns, port 3 included; from a node port it never goes back; a unicast from
 * port 3 to a node behind it is dropped. */
static void test_box_port(void)
{
    sbox_params_t bp = bparams(4, 8);
    fab_t *F = star(bp);
    fab_route(F, 0, 4, 3);
    mlc_msg_t a = mk_msg(0, 0, 255, 0x0011, 3, 0, 21), b = mk_msg(0, 0, 255, 0x0011, 0, 0, 22),
              c = mk_msg(0, 0, 4, 0, 3, 0, 23), g = mk_msg(0, 0, 1, 0, 3, 0, 24);
    send(F, 3, 0, &a);
    fab_run(F, 2000);
    check(next_is(F, 0, 0, &a) && next_is(F, 3, 0, &a) && F->got[1].n + F->got[2].n == 0,
          "box port: a multicast from box port 3 to {0, 4} goes to port 0 and back down port 3");
    send(F, 0, 0, &b);
    fab_run(F, 2000);
    check(next_is(F, 3, 0, &b) && F->got[0].n + F->got[1].n + F->got[2].n == 0,
          "box port: the same set from node port 0 goes to port 3 only");
    send(F, 3, 1, &c);
    send(F, 3, 1, &g);
    fab_run(F, 2000);
    check(next_is(F, 1, 1, &g) && F->got[0].n + F->got[2].n + F->got[3].n == 0 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 1 &&
              ctr(F, 0, SBOX_CTR_MCAST) == 1,
          "box port: a unicast from port 3 to node 4 (behind port 3) is dropped; mcast 1 (the turn)");
    FREE_MSGS(&a, &b, &c, &g);
    fab_free(F);
}

/* ================================================================ counters wrap, reset */

static void test_wrap_reset(void)
{
    sbox_params_t bp = bparams(3, 3);
    bp.CTR_W = 8;
    bp.LINK_W = 8;
    fab_t *F = star(bp);
    /* one Type1 of 40 units (320 words) and 260 Type0 messages (2080 words): words 2400 mod 256 = 96,
     * msgs 261 mod 256 = 5 */
    mlc_msg_t L = mk_msg(1, 0, 1, 0, 0, 23 + 38 * 16, 1);
    check(mlc_msg_units(&L) == 40, "wrap: 40 units");
    send(F, 0, 0, &L);
    mlc_msg_t s = mk_msg(0, 0, 2, 0, 0, 0, 2);
    for (unsigned i = 0; i < 260; i++)
        send(F, 0, 1, &s);
    int ok = run_until_got(F, 1, 1, 20000) && run_until_got(F, 2, 260, 200000) && got_eq(F, 1, 0, &L, NULL);
    for (unsigned i = 0; i < 260; i++)
        ok &= got_eq(F, 2, 1, &s, NULL);
    check(ok, "wrap: all delivered");
    check(ctr(F, 0, SBOX_CTR_WORDS) == 96 && ctr(F, 0, SBOX_CTR_MSGS) == 5, "wrap: CTR_W 8: words 96, msgs 5 (%" PRIu64 ", %" PRIu64 ")",
          ctr(F, 0, SBOX_CTR_WORDS), ctr(F, 0, SBOX_CTR_MSGS));
    check(fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_WORDS)) == 96 && fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_MSGS)) == 5,
          "wrap: the register port reads the wrapped counters");
    check(fab_rd(F, 0, SBOX_REG_MLC(2, MLC_CTR_TX_PKTS)) == 260 % 256 + 0, "wrap: MLC counters wrap at CTR_W too");
    /* reset: everything back to 0, and the box works again */
    fab_wr(F, 0, SBOX_REG_UP, 0x12);
    fab_wr(F, 0, SBOX_REG_MLC(1, MLC_REG_CFG), 2);
    sbox_reset(F->box[0]);
    ok = 1;
    for (unsigned i = 0; i < SBOX_NCTR; i++)
        ok &= sbox_counter(F->box[0], i) == 0;
    for (unsigned q = 0; q < 3; q++)
        ok &= mlc_counter(sbox_mlc(F->box[0], q), MLC_CTR_RX_PKTS) == 0 && mlc_steps(sbox_mlc(F->box[0], q)) == 0;
    check(ok, "reset: counters 0, MLCs at step 0");
    /* the nodes are reset too (the links start over) */
    for (unsigned i = 0; i < F->nnode; i++) {
        mlc_reset(F->node[i]);
        memset(&F->nin[i], 0, sizeof F->nin[i]);
        memset(&F->nout[i], 0, sizeof F->nout[i]);
        for (unsigned c = 0; c < 2; c++)
            F->nout[i].st_tx_space[c] = (uint16_t)F->np[i].FIFO_BYTES;
        mlc_link_reset(F->w[i].l);
    }
    memset(&F->bin[0], 0, sizeof F->bin[0]);
    check(fab_rd(F, 0, SBOX_REG_UP) == 0 && fab_rd(F, 0, SBOX_REG_TABLE(1)) == 0 && fab_rd(F, 0, SBOX_REG_BAR(0)) == 0 &&
              fab_rd(F, 0, SBOX_REG_MLC(1, MLC_REG_CFG)) == 0 && fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_WORDS)) == 0,
          "reset: up port none, table invalid, barrier 0, MLC configuration 0, counters 0");
    mlc_msg_t x = mk_msg(0, 0, 1, 0, 0, 0, 3);
    send(F, 0, 0, &x);
    fab_run(F, 400);
    check(F->got[1].n == 0 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 1, "reset: with the table invalid the message is dropped (%u %" PRIu64 " %u)",
          (unsigned)F->got[1].n, ctr(F, 0, SBOX_CTR_DROP_ROUTE), (unsigned)mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS));
    for (unsigned d = 0; d < 3; d++)
        fab_route(F, 0, d, d);
    send(F, 0, 0, &x);
    check(run_until_got(F, 1, 1, 2000) && got_eq(F, 1, 0, &x, NULL), "reset: after the table is written, delivered");
    check(no_over_under(F), "wrap/reset: no wr_over / rd_under");
    mlc_msg_free(&L);
    mlc_msg_free(&s);
    mlc_msg_free(&x);
    fab_free(F);
}

/* ================================================================ random soak with a scoreboard */

/* ports nodes, one per port, table entries 0..ports-1 -> port d (the rest of NODES = 16 invalid).
 * Random Type0/Type1 messages (1 byte .. FIFO_BYTES + 300), unicast (some to invalid entries,
 * DST >= NODES or the sender itself: dropped) and multicast (random MASK), both channels. */
static void soak(uint64_t seed, unsigned ports, unsigned lw, unsigned fifo, uint64_t steps, unsigned load)
{
    rng_t r;
    rng_seed(&r, seed);
    sbox_params_t bp = bparams(ports, 16);
    bp.LINK_W = lw;
    bp.FIFO_BYTES = fifo;
    bp.CTR_W = 32;
    bp.TURN = rng_below(&r, 3);
    fab_t *F = star(bp);
    F->stall = rng_below(&r, 60);
    rng_seed(&F->r, seed ^ 0xABCDu);
    unsigned spmode = rng_below(&r, 4); /* single-packet modes on the box's MLCs (pipelined) */
    for (unsigned q = 0; q < ports; q++)
        fab_wr(F, 0, SBOX_REG_MLC(q, MLC_REG_CFG), MLC_CFG_SP(q % 2 ? spmode : 0));
    printf("soak: seed %" PRIu64 ": PORTS %u LINK_W %u FIFO %u TURN %u stall %u%% box SP %u load %u%%, %" PRIu64 " steps\n", seed,
           ports, lw, fifo, bp.TURN, F->stall, spmode, load, steps);
    ring_t exp[8][2][8]; /* [src][ch][dst] mlc_msg_t */
    for (unsigned s = 0; s < 8; s++)
        for (unsigned c = 0; c < 2; c++)
            for (unsigned d = 0; d < 8; d++)
                exp[s][c][d] = ring_make(sizeof(mlc_msg_t));
    uint64_t sent = 0, copies = 0, got = 0, bad = 0, drops = 0, msgs = 0, mcast = 0, words = 0;
    uint32_t seq = 0;
    uint64_t end = steps + 400000, k;
    for (k = 0; k < end; k++) {
        if (k < steps && rng_below(&r, 1000) < load) {
            unsigned src = rng_below(&r, ports), ch = rng_below(&r, 2);
            if (mlc_host_tx_pending(F->host[src], ch) < 4000) {
                mlc_msg_t m;
                memset(&m, 0, sizeof m);
                m.type = rng_pct(&r, 30) ? 0 : 1;
                m.kind = rng_below(&r, 2);
                m.src = src;
                unsigned kind = rng_below(&r, 100);
                if (kind < 55)
                    m.dst = rng_below(&r, ports);
                else if (kind < 60)
                    m.dst = src;
                else if (kind < 65)
                    m.dst = rng_below(&r, 255);
                else {
                    m.dst = 255;
                    m.mask = rng_below(&r, 65536);
                    if (rng_pct(&r, 50))
                        m.mask &= (1u << ports) - 1u;
                }
                m.len = m.type ? 1 + (rng_pct(&r, 50) ? rng_below(&r, 100) : rng_below(&r, fifo + 300)) : MLC_T0_DATA;
                m.data = xcalloc(m.len + 4, 1);
                for (unsigned i = 0; i < m.len; i++)
                    m.data[i] = (uint8_t)rng_next(&r);
                if (m.len >= 4)
                    memcpy(m.data, &seq, 4);
                seq++;
                unsigned set = 0;
                if (m.dst < ports)
                    set = 1u << m.dst;
                else if (m.dst == 255)
                    set = m.mask & ((1u << ports) - 1u);
                set &= ~(1u << src);
                send(F, src, ch, &m);
                sent++;
                if (!set)
                    drops++;
                else {
                    msgs++;
                    mcast += (set & (set - 1)) != 0;
                    words += 8 * mlc_msg_units(&m);
                }
                for (unsigned d = 0; d < ports; d++)
                    if ((set >> d) & 1u) {
                        mlc_msg_t c = m;
                        c.data = xcalloc(m.len + 1, 1);
                        memcpy(c.data, m.data, m.len);
                        xpush(&exp[src][ch][d], &c);
                        copies++;
                    }
                free(m.data);
            }
        }
        fab_step(F);
        for (unsigned d = 0; d < ports; d++) {
            rec_t g;
            while (ring_pop(&F->got[d], &g)) {
                got++;
                unsigned s = g.m.src;
                if (s >= ports || s == d) {
                    if (bad++ < 5)
                        check(0, "soak seed %" PRIu64 ": step %" PRIu64 ": node %u got a message from %u (its own or none)", seed, F->k,
                              d, s);
                } else {
                    ring_t *e = &exp[s][g.ch][d];
                    mlc_msg_t *w = ring_front(e);
                    if (!w || !mlc_msg_eq(&g.m, w)) {
                        if (bad++ < 5)
                            check(0, "soak seed %" PRIu64 ": step %" PRIu64 ": node %u ch %u: message from %u %s", seed, F->k, d,
                                  g.ch, s, w ? "differs from the next expected" : "not expected");
                    }
                    if (w) {
                        free(w->data);
                        ring_pop(e, NULL);
                    }
                }
                mlc_msg_free(&g.m);
            }
        }
        if (k >= steps && got == copies) {
            int idle = 1;
            for (unsigned i = 0; i < ports; i++)
                idle &= mlc_host_tx_pending(F->host[i], 0) == 0 && mlc_host_tx_pending(F->host[i], 1) == 0;
            if (idle)
                break;
        }
    }
    fab_run(F, 2000); /* nothing more may come */
    printf("soak: seed %" PRIu64 ": %" PRIu64 " steps, %" PRIu64 " messages (%" PRIu64 " dropped, %" PRIu64 " multicast), %" PRIu64
           " copies sent, %" PRIu64 " received, %" PRIu64 " words on the bus\n",
           seed, F->k, sent, drops, mcast, copies, got, ctr(F, 0, SBOX_CTR_WORDS));
    for (unsigned d = 0; d < ports; d++)
        bad += F->got[d].n;
    check(bad == 0 && got == copies, "soak seed %" PRIu64 ": every message whole, in order per (src, ch, dst), once, never to its sender "
          "(%" PRIu64 " messages, %" PRIu64 " copies, %" PRIu64 " received, %" PRIu64 " steps)", seed, sent, copies, got, F->k);
    check(ctr(F, 0, SBOX_CTR_DROP_ROUTE) == drops && ctr(F, 0, SBOX_CTR_MSGS) == msgs && ctr(F, 0, SBOX_CTR_MCAST) == mcast &&
              ctr(F, 0, SBOX_CTR_WORDS) == words,
          "soak seed %" PRIu64 ": counters: drop_route %" PRIu64 "/%" PRIu64 " msgs %" PRIu64 "/%" PRIu64 " mcast %" PRIu64 "/%" PRIu64
          " words %" PRIu64 "/%" PRIu64, seed, ctr(F, 0, SBOX_CTR_DROP_ROUTE), drops, ctr(F, 0, SBOX_CTR_MSGS), msgs,
          ctr(F, 0, SBOX_CTR_MCAST), mcast, ctr(F, 0, SBOX_CTR_WORDS), words);
    check(ctr(F, 0, SBOX_CTR_ERR_MSG) == 0 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 0, "soak seed %" PRIu64 ": no err_msg, err_bar", seed);
    check(no_over_under(F), "soak seed %" PRIu64 ": the box MLCs' wr_over and rd_under stay 0 (and the nodes')", seed);
    for (unsigned s = 0; s < 8; s++)
        for (unsigned c = 0; c < 2; c++)
            for (unsigned d = 0; d < 8; d++) {
                mlc_msg_t m;
                while (ring_pop(&exp[s][c][d], &m))
                    free(m.data);
                ring_free(&exp[s][c][d]);
            }
    fab_free(F);
}

static uint64_t opt_seed = 1, opt_cycles = 200000;

static void start(void) { printf("sbox_unit: seed %" PRIu64 ", %" PRIu64 " soak steps\n", opt_seed, opt_cycles); }

/* the random soaks: 3 and 8 ports (an eighth of the steps each), then 8 ports on a narrow link */
static void test_soak(void)
{
    soak(opt_seed + 1000, 3, 8, 512, opt_cycles / 8, 30);
    soak(opt_seed + 2000, 8, 8, 256, opt_cycles / 8, 40);
    soak(opt_seed, 8, 4, 512, opt_cycles, 25);
}

static const unit_opt_t opts[] = {
    {"--seed", &opt_seed, "seed of the soak (default 1)"},
    {"--cycles", &opt_cycles, "soak steps of the 8-port run before draining (default 200000)"},
};

static const unit_test_t tests[] = {
    {"params", test_params},
    {"regs", test_regs},
    {"transit", test_transit},
    {"routes", test_routes},
    {"pc", test_pc},
    {"lock_rr", test_lock_rr},
    {"manager_skip", test_manager_skip},
    {"manager_rr", test_manager_rr},
    {"reservation", test_reservation},
    {"backpressure", test_backpressure},
    {"barrier_one", test_barrier_one},
    {"exact_bar_drop", test_exact_bar_drop},
    {"tree", test_tree},
    {"tree_mcast", test_tree_mcast},
    {"box_port", test_box_port},
    {"wrap_reset", test_wrap_reset},
    {"soak", test_soak},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {"sbox_unit", "Unit tests of the switch box C model (cmodel/sbox.c) against docs/switchbox.md.",
                                       tests, sizeof tests / sizeof tests[0], opts, sizeof opts / sizeof opts[0], start};
    return unit_main(&suite, argc, argv);
}
