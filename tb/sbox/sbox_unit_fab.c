/* sanfab — sbox_unit's fabric (sbox_unit.h): boxes, node MLCs and the links between them, messages
 * sent and received, the register port, counters. */
#include "sbox_unit.h"

void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "sbox_unit: out of memory\n");
        exit(2);
    }
    return p;
}

void xpush(ring_t *q, const void *e)
{
    if (ring_push(q, e)) {
        fprintf(stderr, "sbox_unit: out of memory\n");
        exit(2);
    }
}

sbox_params_t bparams(unsigned ports, unsigned nodes)
{
    sbox_params_t p = {ports, nodes, 4, 2048, 1, 1024, 16, 0, 0};
    return p;
}

mlc_params_t nparams(const sbox_params_t *bp)
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

fab_t *fab_new(unsigned nbox, const sbox_params_t *bp)
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

void fab_shadow(fab_t *F)
{
    for (unsigned j = 0; j < F->nbox; j++) {
        F->shadow[j] = sbox_new(&F->bp[j]);
        if (!F->shadow[j]) {
            fprintf(stderr, "sbox_unit: out of memory\n");
            exit(2);
        }
        sbox_set_fast(F->shadow[j], 0);
    }
}

/* a node (MASTER = 1) on box j's port q; node parameters from the box's unless np is given */
unsigned fab_node(fab_t *F, unsigned j, unsigned q, const mlc_params_t *np)
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
void fab_join(fab_t *F, unsigned ja, unsigned qa, unsigned jb, unsigned qb)
{
    wire_t *w = &F->w[F->nwire++];
    w->l = mlc_link_new(0);
    w->a = (end_t){1, ja, qa};
    w->b = (end_t){1, jb, qb};
}

void fab_free(fab_t *F)
{
    for (unsigned j = 0; j < F->nbox; j++) {
        sbox_free(F->box[j]);
        sbox_free(F->shadow[j]);
    }
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

mlc_out_t end_out(const fab_t *F, end_t e)
{
    if (!e.box)
        return F->nout[e.idx];
    mlc_out_t o;
    memset(&o, 0, sizeof o);
    o.tx_en = F->bout[e.idx].tx_en[e.port];
    o.tx_d = F->bout[e.idx].tx_d[e.port];
    return o;
}

void end_in(fab_t *F, end_t e, const mlc_in_t *x)
{
    if (!e.box) {
        F->nin[e.idx].rx_en = x->rx_en;
        F->nin[e.idx].rx_d = x->rx_d;
    } else {
        F->bin[e.idx].rx_en[e.port] = x->rx_en;
        F->bin[e.idx].rx_d[e.port] = x->rx_d;
    }
}

void fab_step(fab_t *F)
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
        if (F->shadow[j]) {
            sbox_out_t so;
            sbox_step(F->shadow[j], &in, &so);
            int diff = memcmp(&so, &F->bout[j], sizeof so) != 0;
            for (unsigned i = 0; i < SBOX_NCTR; i++)
                diff |= sbox_counter(F->shadow[j], i) != sbox_counter(F->box[j], i);
            F->shadow_diff += diff;
        }
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

void fab_run(fab_t *F, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fab_step(F);
}

/* a register write to box j in one step */
void fab_wr(fab_t *F, unsigned j, unsigned addr, unsigned data)
{
    F->breg[j].reg_wr = 1;
    F->breg[j].reg_addr = (uint16_t)addr;
    F->breg[j].reg_wdata = (uint16_t)data;
    fab_step(F);
}

/* a register read of box j: requested in the next step r, answered after r+1 */
uint32_t fab_rd(fab_t *F, unsigned j, unsigned addr)
{
    F->breg[j].reg_rd = 1;
    F->breg[j].reg_addr = (uint16_t)addr;
    fab_step(F);
    fab_step(F);
    check(F->bout[j].reg_rvalid == 1, "reg read 0x%03X of box %u answered after r+1", addr, j);
    return F->bout[j].reg_rdata;
}

/* node i's table entry in box j: valid, port q */
void fab_route(fab_t *F, unsigned j, unsigned d, unsigned q) { fab_wr(F, j, SBOX_REG_TABLE(d), 0x10u | q); }

/* a message with recognisable data (len bytes for Type1) */
mlc_msg_t mk_msg(unsigned type, unsigned kind, unsigned dst, unsigned mask, unsigned src, unsigned len,
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

void send(fab_t *F, unsigned node, unsigned ch, const mlc_msg_t *m)
{
    if (mlc_host_send(F->host[node], ch, m) != 0)
        check(0, "host refused a message");
}

/* a message written by hand (raw words) with its Pkt-Counter forced to pc (Type1) when pc >= 0 */
void send_raw(fab_t *F, unsigned node, unsigned ch, const mlc_msg_t *m, int pc)
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
int run_until_got(fab_t *F, unsigned i, size_t n, uint64_t max)
{
    for (uint64_t s = 0; s < max && F->got[i].n < n; s++)
        fab_step(F);
    return F->got[i].n >= n;
}

/* pops node i's oldest message: 1 if it equals m on channel ch */
int got_eq(fab_t *F, unsigned i, unsigned ch, const mlc_msg_t *m, uint64_t *step)
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

uint64_t ctr(const fab_t *F, unsigned j, unsigned i) { return sbox_counter(F->box[j], i); }

int no_over_under(const fab_t *F)
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
fab_t *star(sbox_params_t bp) { return star_of(bp, 0); }

fab_t *star_of(sbox_params_t bp, int shadow)
{
    fab_t *F = fab_new(1, &bp);
    if (shadow)
        fab_shadow(F);
    for (unsigned q = 0; q < bp.PORTS; q++)
        fab_node(F, 0, q, NULL);
    for (unsigned d = 0; d < bp.PORTS && d < bp.NODES; d++)
        fab_route(F, 0, d, d);
    return F;
}

/* ================================================================ barriers */

int is_release(const rec_t *g, unsigned mask)
{
    static const uint8_t zero[MLC_T0_DATA] = {0};
    return g->m.type == 0 && g->m.kind == MLC_KIND_RELEASE && g->m.dst == 255 && g->m.mask == mask && g->m.src == 255 &&
           g->m.len == MLC_T0_DATA && memcmp(g->m.data, zero, MLC_T0_DATA) == 0;
}

/* pops node i's messages: how many are releases of mask on channel ch (others count in *other) */
unsigned releases(fab_t *F, unsigned i, unsigned ch, unsigned mask, unsigned *other)
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
