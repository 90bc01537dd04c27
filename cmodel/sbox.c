/* sanfab — Maestro switch box model; see sbox.h and docs/sbox.md (the contract this is written
 * from). Each rule of the doc is one function: rule_write and rule_bus (1, the bus), rule_analyse
 * (2), rule_manager (3) with barrier_request / barrier_end (5), rule_regport (6).
 *
 * Every decision of step k is taken on `o`, a copy of the box's state after step k-1, and on the MLC
 * outputs after step k-1 (b->mo); the new state is written into b->st. */
#include "sbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_MAX (2 * SBOX_MAX_PORTS + 2)

enum { S_IDLE, S_HEAD1, S_HEAD2, S_WAIT, S_ACT, S_DROP };  /* source states */
enum { CL_DATA, CL_REQUEST, CL_RELEASE };                  /* message classes */

typedef struct {
    uint8_t st, cls;
    uint16_t w0, w1;  /* header words (barrier source: its made unit's words 0 and 1) */
    uint8_t P;        /* port set (bit q: port q) */
    uint32_t wi;      /* index of the next word to go on the bus */
    uint32_t tot;     /* message length in words; 0 = not known yet */
} src_t;

typedef struct {
    uint8_t busy, up_sent, A;
    uint16_t M;
} bar_t;

typedef struct {
    src_t s[NS_MAX];
    unsigned bp, mp;        /* bus and manager round-robin pointers */
    uint8_t rsv_v[SBOX_NCH], rsv[SBOX_NCH]; /* the manager's reservation of each channel: valid, source */
    bar_t bar[SBOX_NCH];
    uint8_t table[SBOX_MAX_NODES]; /* bits 4..0 as written: bit 4 valid, bits 2..0 port */
    uint8_t up;                    /* bits 4..0 as written: bit 4 set, bits 2..0 the port */
    uint64_t ctr[SBOX_NCTR];
    struct { uint8_t v, s; uint32_t idx; } rd;          /* read granted in this step (READ or MOVE) */
    struct { uint8_t v, ch, P, move, port; uint16_t data; } wr; /* write granted in this step */
    struct { uint8_t v, mlc, port; uint32_t val; } ans; /* register read of this step, answered after the next */
} state_t;

struct sbox {
    sbox_params_t p;
    unsigned NS;
    uint64_t ctr_mask;
    mlc_t *m[SBOX_MAX_PORTS];
    mlc_out_t mo[SBOX_MAX_PORTS]; /* MLC outputs after the last step */
    state_t st;
    int fast;                     /* skip the rules in a step in which they would change nothing (rules_idle) */
    uint64_t rsv_holds;           /* coverage, not behaviour: see sbox_rsv_holds */
};

/* ------------------------------------------------------------------ parameters */

static mlc_params_t mlc_params_of(const sbox_params_t *p, unsigned port)
{
    mlc_params_t q;
    q.LINK_W = p->LINK_W;
    q.FIFO_BYTES = p->FIFO_BYTES;
    q.TURN = p->TURN;
    q.MASTER = (p->MASTER_MASK >> port) & 1u;
    q.TIMEOUT = p->TIMEOUT;
    q.CTR_W = p->CTR_W;
    q.GUARD = mlc_guard(p->LINK_DELAY, 0); /* a slave port's guard: the node's TURN is not the box's to know */
    return q;
}

int sbox_params_check(const sbox_params_t *p, char *err, size_t n)
{
    char buf[160];
    buf[0] = 0;
    if (!p)
        snprintf(buf, sizeof buf, "no parameters");
    else if (p->PORTS < 2 || p->PORTS > SBOX_MAX_PORTS)
        snprintf(buf, sizeof buf, "PORTS = %u: must be 2..8", p->PORTS);
    else if (p->NODES < 1 || p->NODES > SBOX_MAX_NODES)
        snprintf(buf, sizeof buf, "NODES = %u: must be 1..16", p->NODES);
    else if (p->MASTER_MASK > (1u << p->PORTS) - 1u)
        snprintf(buf, sizeof buf, "MASTER_MASK = 0x%X: must be 0..2^PORTS-1 = 0x%X", p->MASTER_MASK,
                 (1u << p->PORTS) - 1u);
    else if (p->LINK_DELAY > MLC_MAX_LINK_DELAY)
        snprintf(buf, sizeof buf, "LINK_DELAY = %u: must be 0..%u", p->LINK_DELAY, MLC_MAX_LINK_DELAY);
    else {
        mlc_params_t q = mlc_params_of(p, 0);
        const char *e = mlc_params_check(&q);
        if (e)
            snprintf(buf, sizeof buf, "%s", e);
    }
    if (!buf[0])
        return 0;
    if (err && n)
        snprintf(err, n, "%s", buf);
    return -1;
}

/* ------------------------------------------------------------------ helpers */

static void count(sbox_t *b, state_t *n, unsigned i) { n->ctr[i] = (n->ctr[i] + 1u) & b->ctr_mask; }

static unsigned popc(unsigned x)
{
    unsigned c = 0;
    for (; x; x &= x - 1u)
        c++;
    return c;
}

static unsigned src_ch(unsigned s) { return s & 1u; }   /* 2p + c and 2 PORTS + c: the channel is bit 0 */
static int is_bar_src(const sbox_t *b, unsigned s) { return s >= 2u * b->p.PORTS; }

/* E(m): the member ports of mask m (entries valid, i < NODES), on the table of state t */
static unsigned member_ports(const sbox_t *b, const state_t *t, unsigned m)
{
    unsigned set = 0;
    for (unsigned i = 0; i < b->p.NODES; i++)
        if (((m >> i) & 1u) && (t->table[i] & SBOX_REG_VALID))
            set |= 1u << (t->table[i] & 7u);
    return set;
}

/* the up port as a set: {UP}, or empty */
static unsigned up_set(const state_t *t) { return (t->up & SBOX_REG_VALID) ? 1u << (t->up & 7u) : 0u; }

/* N(a): the nodes behind port a (entries valid, i < NODES), on the table of state t */
static unsigned nodes_behind(const sbox_t *b, const state_t *t, unsigned a)
{
    unsigned n = 0;
    for (unsigned i = 0; i < b->p.NODES; i++)
        if ((t->table[i] & SBOX_REG_VALID) && (t->table[i] & 7u) == a)
            n |= 1u << i;
    return n;
}

/* the port set of a header arriving on port a (docs/sbox.md, Messages and destinations, its
 * three rules: up alone, never back to a node, turn); *w1 is the word 1 the message leaves with */
static unsigned port_set(const sbox_t *b, const state_t *t, uint16_t w0, uint16_t *w1, unsigned a)
{
    unsigned dst = w0 >> 8, E = 0, up = up_set(t), behind = nodes_behind(b, t, a);
    int node_port = popc(behind) <= 1;
    int from_up = (up >> a) & 1u;
    if (dst < b->p.NODES) {
        if (t->table[dst] & SBOX_REG_VALID)
            E = 1u << (t->table[dst] & 7u);
    } else if (dst == 255)
        E = member_ports(b, t, *w1);
    if (dst == 255 && !from_up && (E & up)) {  /* 1. up alone */
        if (node_port && w0 != SBOX_W0_REQUEST)
            *w1 = (uint16_t)(*w1 & ~behind);    /* its sender's bit */
        return up;
    }
    int back = dst != 255 || from_up || node_port;
    if (back)                                   /* 2. never back to a node, nor up again */
        return E & ~(1u << a);
    return E;                                   /* 3. turn: a box port below */
}

/* (q, c) locked: a source of channel c in ACT has q in its port set (state t) */
static int locked(const sbox_t *b, const state_t *t, unsigned q, unsigned c)
{
    for (unsigned s = 0; s < b->NS; s++)
        if (t->s[s].st == S_ACT && src_ch(s) == c && ((t->s[s].P >> q) & 1u))
            return 1;
    return 0;
}

static int all_unlocked(const sbox_t *b, const state_t *t, unsigned P, unsigned c)
{
    for (unsigned q = 0; q < b->p.PORTS; q++)
        if (((P >> q) & 1u) && locked(b, t, q, c))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------ rule 1: the bus */

/* the write granted in step k-1, done in step k on every MLC of its set */
static void rule_write(const sbox_t *b, const state_t *o, mlc_in_t *mi)
{
    if (!o->wr.v)
        return;
    uint16_t word = o->wr.move ? b->mo[o->wr.port].h_rdata : o->wr.data;
    for (unsigned q = 0; q < b->p.PORTS; q++)
        if ((o->wr.P >> q) & 1u) {
            mi[q].h_wr = 1;
            mi[q].h_wch = o->wr.ch;
            mi[q].h_wdata = word;
        }
}

/* room: every destination FIFO takes a word after this step's write */
static int room(const sbox_t *b, const state_t *o, unsigned P, unsigned c)
{
    for (unsigned q = 0; q < b->p.PORTS; q++) {
        if (!((P >> q) & 1u))
            continue;
        unsigned need = 2u + ((o->wr.v && o->wr.ch == c && ((o->wr.P >> q) & 1u)) ? 2u : 0u);
        if (b->mo[q].st_tx_space[c] < need)
            return 0;
    }
    return 1;
}

static int avail2(const sbox_t *b, unsigned p, unsigned c) { return b->mo[p].st_rx_avail[c] >= 2; }

enum { G_NONE, G_READ, G_MOVE, G_PUT };

/* the grant source s would get in this step (G_NONE: not eligible) */
static int eligible(const sbox_t *b, const state_t *o, unsigned s)
{
    const src_t *x = &o->s[s];
    unsigned c = src_ch(s), p = s / 2u;
    if (is_bar_src(b, s))
        return (x->st == S_ACT && room(b, o, x->P, c)) ? G_PUT : G_NONE;
    switch (x->st) {
    case S_IDLE:
    case S_HEAD1:
    case S_DROP:
        return avail2(b, p, c) ? G_READ : G_NONE;
    case S_ACT:
        if (x->wi <= 1)
            return room(b, o, x->P, c) ? G_PUT : G_NONE;
        return (avail2(b, p, c) && room(b, o, x->P, c)) ? G_MOVE : G_NONE;
    default:
        return G_NONE;
    }
}

/* word wi of source s's unit when it is PUT: w0, w1, or a made word (barrier source, rule 5) */
static uint16_t put_word(const src_t *x, uint32_t wi)
{
    if (wi == 0)
        return x->w0;
    if (wi == 1)
        return x->w1;
    return wi == 2 ? 0x00FFu : 0u; /* made unit: SRC 255, then zeros */
}

static void rule_bus(sbox_t *b, const state_t *o, state_t *n, mlc_in_t *mi)
{
    unsigned s = 0;
    int g = G_NONE;
    for (unsigned i = 0; i < b->NS && g == G_NONE; i++) {
        s = o->bp + i; /* round robin from bp (< NS), without a division a step */
        if (s >= b->NS)
            s -= b->NS;
        g = eligible(b, o, s);
    }
    if (g == G_NONE)
        return;
    n->bp = s + 1u < b->NS ? s + 1u : 0u;
    const src_t *x = &o->s[s];
    src_t *y = &n->s[s];
    unsigned c = src_ch(s), p = s / 2u;
    if (g == G_READ || g == G_MOVE) {
        mi[p].h_rd = 1;
        mi[p].h_rch = (uint8_t)c;
        n->rd.v = 1;
        n->rd.s = (uint8_t)s;
        n->rd.idx = x->st == S_IDLE ? 0u : x->st == S_HEAD1 ? 1u : x->wi;
    }
    if (g == G_MOVE || g == G_PUT) {
        n->wr.v = 1;
        n->wr.ch = (uint8_t)c;
        n->wr.P = x->P;
        n->wr.move = g == G_MOVE;
        n->wr.port = (uint8_t)p;
        n->wr.data = g == G_PUT ? put_word(x, x->wi) : 0u;
        /* Doc question: `words` counts in the grant's step k (rule 1: an effect of the grant), not in
         * the step k+1 of the write itself. */
        count(b, n, SBOX_CTR_WORDS);
    }
    if (x->st == S_IDLE)
        y->st = S_HEAD1;
    else if (x->st == S_HEAD1)
        y->st = S_HEAD2;
    else {
        y->wi = x->wi + 1u;
        if (x->tot && y->wi == x->tot)
            y->st = S_IDLE; /* done: its FIFOs are unlocked after this step */
    }
}

/* ------------------------------------------------------------------ rule 2: the analyzer */

static void rule_analyse(sbox_t *b, const state_t *o, state_t *n)
{
    if (!o->rd.v)
        return;
    unsigned s = o->rd.s, p = s / 2u;
    uint16_t x = b->mo[p].h_rdata;
    src_t *y = &n->s[s];
    if (o->rd.idx == 0) {
        y->w0 = x;
    } else if (o->rd.idx == 1) {
        y->cls = CL_DATA;
        if (o->s[s].w0 == SBOX_W0_REQUEST)
            y->cls = CL_REQUEST;
        else if (o->s[s].w0 == SBOX_W0_RELEASE)
            y->cls = CL_RELEASE;
        y->w1 = x;
        y->P = (uint8_t)port_set(b, o, o->s[s].w0, &y->w1, p);
        y->tot = (o->s[s].w0 & 1u) ? 0u : 8u;
        y->st = S_WAIT;
    } else if (o->rd.idx == 8 && (o->s[s].w0 & 1u)) {
        unsigned pc = x;
        if (pc < 2) {
            count(b, n, SBOX_CTR_ERR_MSG);
            pc = 2;
        }
        y->tot = 8u * pc;
    }
    /* any other word: thrown away (DROP) or already on its way to the write (MOVE) */
}

/* ------------------------------------------------------------------ rule 5: barriers */

/* Doc question: ending a barrier clears busy, A and up_sent only (rule 5); M keeps its value, so the
 * barrier register still shows the last M in bits 31..16. */
static void barrier_end(state_t *n, unsigned c)
{
    n->bar[c].busy = 0;
    n->bar[c].A = 0;
    n->bar[c].up_sent = 0;
}

/* a barrier request from port p with mask m activated in this step (rule 3 calls it) */
static void barrier_request(sbox_t *b, const state_t *o, state_t *n, unsigned c, unsigned p, unsigned m)
{
    const bar_t *ob = &o->bar[c];
    unsigned E = member_ports(b, o, m), Ep = E & ~up_set(o);
    if ((ob->busy && m != ob->M) || !((Ep >> p) & 1u) || ((ob->A >> p) & 1u) || ob->up_sent) {
        count(b, n, SBOX_CTR_ERR_BAR);
        return;
    }
    count(b, n, SBOX_CTR_BAR_REQ);
    bar_t *nb = &n->bar[c];
    nb->busy = 1;
    nb->M = (uint16_t)m;
    nb->A = (uint8_t)(ob->A | (1u << p));
    if (nb->A != Ep)
        return;
    count(b, n, SBOX_CTR_BAR_DONE);
    src_t *z = &n->s[2u * b->p.PORTS + c];
    z->st = S_WAIT;
    z->cls = CL_DATA;
    z->w1 = (uint16_t)m;
    z->wi = 0;
    z->tot = 8;
    if (up_set(o) & E) {
        z->w0 = SBOX_W0_REQUEST;
        z->P = (uint8_t)up_set(o);
        nb->up_sent = 1;
    } else {
        z->w0 = SBOX_W0_RELEASE;
        z->P = (uint8_t)Ep;
        barrier_end(n, c);
    }
}

/* ------------------------------------------------------------------ rule 3: the manager */

/* the ports reserved on channel c for a source other than s (rule 3, Reservation): P(rsv(c)) */
static unsigned reserved_for_others(const state_t *o, unsigned c, unsigned s)
{
    if (!o->rsv_v[c])
        return 0;
    if (o->rsv[c] == s)
        return 0;
    return o->s[o->rsv[c]].P;
}

static int need_met(const sbox_t *b, const state_t *o, unsigned s)
{
    const src_t *x = &o->s[s];
    unsigned c = src_ch(s);
    int bar_idle = o->s[2u * b->p.PORTS + c].st == S_IDLE;
    int fifos = all_unlocked(b, o, x->P, c) && !(x->P & reserved_for_others(o, c, s));
    if (is_bar_src(b, s))
        return fifos;
    if (x->cls == CL_REQUEST)
        return bar_idle;
    if (x->cls == CL_RELEASE && !bar_idle)
        return 0;
    return fifos;
}

/* rule 3, Reservation: the reservation of each channel ends when its source is activated in this step
 * (act: the activated source, or NS for none); a free one goes to the first source from mp in WAIT,
 * of that channel, not a barrier request, whose need is not met and whose P holds a port other than UP
 * (a message going up never reserves) */
static void reservation(const sbox_t *b, const state_t *o, state_t *n, unsigned act)
{
    for (unsigned c = 0; c < SBOX_NCH; c++) {
        if (o->rsv_v[c]) {
            if (o->rsv[c] == act)
                n->rsv_v[c] = 0;
            continue;
        }
        /* the sources of channel c (src_ch: bit 0; NS is even) in round-robin order from mp (< NS) */
        unsigned s = o->mp + ((o->mp & 1u) != c);
        if (s >= b->NS)
            s -= b->NS;
        for (unsigned i = 0; i < b->NS / 2u; i++, s = s + 2u < b->NS ? s + 2u : s + 2u - b->NS) {
            const src_t *x = &o->s[s];
            if (x->st != S_WAIT || (!is_bar_src(b, s) && x->cls == CL_REQUEST))
                continue;
            if (!need_met(b, o, s) && (x->P & ~up_set(o))) {
                n->rsv_v[c] = 1;
                n->rsv[c] = (uint8_t)s;
                break;
            }
        }
    }
}

static void rule_manager(sbox_t *b, const state_t *o, state_t *n)
{
    unsigned s = 0;
    int found = 0;
    /* coverage: a waiting data or release source whose FIFOs are all unlocked but reserved for another */
    for (unsigned i = 0; i < b->NS; i++) {
        const src_t *x = &o->s[i];
        if (x->st == S_WAIT && !is_bar_src(b, i) && x->cls != CL_REQUEST &&
            all_unlocked(b, o, x->P, src_ch(i)) && (x->P & reserved_for_others(o, src_ch(i), i))) {
            b->rsv_holds++;
            break;
        }
    }
    for (unsigned i = 0; i < b->NS && !found; i++) {
        s = o->mp + i; /* round robin from mp (< NS) */
        if (s >= b->NS)
            s -= b->NS;
        found = o->s[s].st == S_WAIT && need_met(b, o, s);
    }
    reservation(b, o, n, found ? s : b->NS);
    if (!found)
        return;
    n->mp = s + 1u < b->NS ? s + 1u : 0u;
    const src_t *x = &o->s[s];
    src_t *y = &n->s[s];
    unsigned c = src_ch(s);
    if (is_bar_src(b, s)) {
        /* Doc question: a made unit is not counted in msgs/mcast (rule 3 counts only port sources'
         * data and releases); bar_done counted it when it was made. */
        y->st = S_ACT;
        y->wi = 0;
        return;
    }
    if (x->cls == CL_REQUEST) {
        barrier_request(b, o, n, c, s / 2u, x->w1);
        y->st = S_DROP;
        y->wi = 2;
        return;
    }
    if (x->P) {
        y->st = S_ACT;
        y->wi = 0;
        count(b, n, SBOX_CTR_MSGS);
        if (popc(x->P) >= 2)
            count(b, n, SBOX_CTR_MCAST);
    } else {
        y->st = S_DROP;
        y->wi = 2;
        count(b, n, SBOX_CTR_DROP_ROUTE);
    }
    if (x->cls == CL_RELEASE)
        barrier_end(n, c);
}

/* ------------------------------------------------------------------ rule 6: the register port */

static uint32_t box_read(const sbox_t *b, const state_t *o, unsigned addr)
{
    if (addr >= 0x100 && addr < 0x100 + SBOX_NCTR)
        return (uint32_t)o->ctr[addr - 0x100];
    if (addr == SBOX_REG_UP)
        return o->up;
    if (addr == 0x111 || addr == 0x112) {
        const bar_t *x = &o->bar[addr - 0x111];
        return (uint32_t)x->busy | ((uint32_t)x->up_sent << 1) | ((uint32_t)x->A << 8) | ((uint32_t)x->M << 16);
    }
    if (addr >= 0x120 && addr < 0x130)
        return (addr - 0x120u) < b->p.NODES ? o->table[addr - 0x120] : SBOX_RDATA_ERROR;
    return SBOX_RDATA_ERROR;
}

/* The up port and table entries store reg_wdata bit 4 (valid) and bits 2..0 (the port); bit 3 is
 * not stored and reads 0 (docs/sbox.md, Register port). */
static void box_write(const sbox_t *b, state_t *n, unsigned addr, uint16_t wdata)
{
    uint8_t v = (uint8_t)(wdata & 0x17u);
    int bad_port = (v & SBOX_REG_VALID) && (v & 7u) >= b->p.PORTS;
    if (addr == SBOX_REG_UP && !bad_port)
        n->up = v;
    else if (addr >= 0x120 && addr < 0x130 && (addr - 0x120u) < b->p.NODES && !bad_port)
        n->table[addr - 0x120] = v;
}

static void rule_regport(sbox_t *b, const state_t *o, state_t *n, const sbox_in_t *in, mlc_in_t *mi, sbox_out_t *out)
{
    /* the answer of the read of step k-1 (an MLC's answer after step k-1 for a pass-through) */
    out->reg_rvalid = o->ans.v;
    out->reg_rdata = !o->ans.v ? 0u : o->ans.mlc ? b->mo[o->ans.port].reg_rdata : o->ans.val;
    unsigned addr = in->reg_addr & 0x1FFu; /* the port is 9 bits wide: 0x200.. alias 0x000.. (doc question) */
    unsigned p = addr >> 5;
    int mlc = addr < 0x100;
    if (in->reg_rd) {
        n->ans.v = 1;
        n->ans.mlc = (uint8_t)(mlc && p < b->p.PORTS);
        n->ans.port = (uint8_t)(n->ans.mlc ? p : 0);
        n->ans.val = mlc ? SBOX_RDATA_ERROR : box_read(b, o, addr);
    }
    if (mlc && p < b->p.PORTS && (in->reg_rd || in->reg_wr)) {
        mi[p].reg_rd = in->reg_rd;
        mi[p].reg_wr = in->reg_wr;
        mi[p].reg_addr = (uint8_t)(addr & 31u);
        mi[p].reg_wdata = in->reg_wdata;
    }
    if (in->reg_wr && !mlc)
        box_write(b, n, addr, in->reg_wdata);
}

/* ------------------------------------------------------------------ the box */

/* the MLC outputs after step 0 (reset): no link output, empty FIFOs (space FIFO_BYTES, nothing available) */
static void mlc_out_reset(const sbox_t *b, mlc_out_t *o)
{
    memset(o, 0, sizeof *o);
    for (unsigned c = 0; c < MLC_NCH; c++)
        o->st_tx_space[c] = (uint16_t)b->p.FIFO_BYTES;
}

sbox_t *sbox_new(const sbox_params_t *p)
{
    if (sbox_params_check(p, NULL, 0))
        return NULL;
    sbox_t *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->p = *p;
    b->fast = 1;
    b->NS = 2u * p->PORTS + 2u;
    b->ctr_mask = (1ull << p->CTR_W) - 1u;
    for (unsigned q = 0; q < p->PORTS; q++) {
        mlc_params_t mp = mlc_params_of(p, q);
        b->m[q] = mlc_new(&mp);
        if (!b->m[q]) {
            sbox_free(b);
            return NULL;
        }
    }
    sbox_reset(b);
    return b;
}

void sbox_free(sbox_t *b)
{
    if (!b)
        return;
    for (unsigned q = 0; q < SBOX_MAX_PORTS; q++)
        mlc_free(b->m[q]);
    free(b);
}

void sbox_reset(sbox_t *b)
{
    for (unsigned q = 0; q < b->p.PORTS; q++) {
        mlc_reset(b->m[q]);
        mlc_out_reset(b, &b->mo[q]);
    }
    memset(&b->st, 0, sizeof b->st);
}

/* 1 if the rules 1-6 would change nothing in this step: every source IDLE, nothing read, written or answered
 * in flight, no register request, and no receive FIFO with a word pair to read (so the bus grants nothing, the
 * manager has no header, the reservations and a begun barrier stay as they are: a barrier moves only when a
 * request is taken); only the MLCs step then. A speed-up only: sbox_step's outputs and state are what the rules
 * would give (the unit test's random soaks run a box without it beside every box: sbox_set_fast). */
static int rules_idle(const sbox_t *b, const sbox_in_t *in)
{
    const state_t *o = &b->st;
    if (o->rd.v || o->wr.v || o->ans.v || in->reg_rd || in->reg_wr)
        return 0;
    for (unsigned s = 0; s < b->NS; s++)
        if (o->s[s].st != S_IDLE)
            return 0;
    for (unsigned q = 0; q < b->p.PORTS; q++)
        if (b->mo[q].st_rx_avail[0] >= 2 || b->mo[q].st_rx_avail[1] >= 2)
            return 0;
    return 1;
}

void sbox_step(sbox_t *b, const sbox_in_t *in, sbox_out_t *out)
{
    if (b->fast && rules_idle(b, in)) {
        memset(out, 0, sizeof *out);
        for (unsigned q = 0; q < b->p.PORTS; q++) {
            mlc_in_t mi;
            memset(&mi, 0, sizeof mi);
            mi.rx_en = in->rx_en[q];
            mi.rx_d = in->rx_d[q];
            mlc_step(b->m[q], &mi, &b->mo[q]);
            out->tx_en[q] = b->mo[q].tx_en;
            out->tx_d[q] = b->mo[q].tx_d;
        }
        return;
    }
    const state_t o = b->st; /* the state after step k-1: every decision reads it */
    state_t *n = &b->st;
    n->rd.v = 0;
    n->wr.v = 0;
    n->ans.v = 0;
    mlc_in_t mi[SBOX_MAX_PORTS];
    memset(mi, 0, sizeof mi);
    memset(out, 0, sizeof *out);
    for (unsigned q = 0; q < b->p.PORTS; q++) {
        mi[q].rx_en = in->rx_en[q];
        mi[q].rx_d = in->rx_d[q];
    }
    rule_write(b, &o, mi);
    rule_analyse(b, &o, n);
    rule_bus(b, &o, n, mi);
    rule_manager(b, &o, n);
    rule_regport(b, &o, n, in, mi, out);
    for (unsigned q = 0; q < b->p.PORTS; q++) {
        mlc_step(b->m[q], &mi[q], &b->mo[q]);
        out->tx_en[q] = b->mo[q].tx_en;
        out->tx_d[q] = b->mo[q].tx_d;
    }
}

uint64_t sbox_counter(const sbox_t *b, unsigned i) { return i < SBOX_NCTR ? b->st.ctr[i] : 0u; }

void sbox_ctr_preset(sbox_t *b, unsigned i, uint64_t v)
{
    if (i < SBOX_NCTR)
        b->st.ctr[i] = v & b->ctr_mask;
}

void sbox_set_fast(sbox_t *b, int on) { b->fast = on ? 1 : 0; }

const mlc_t *sbox_mlc(const sbox_t *b, unsigned p) { return p < b->p.PORTS ? b->m[p] : NULL; }
uint64_t sbox_rsv_holds(const sbox_t *b) { return b->rsv_holds; }
