/* sanfab — vcsw_unit's simulation harness (vcsw_unit.h): a run of the VC switch model with its
 * stimulus and outputs, configuration and flit stimulus, output analysis, the parameter sets. */
#include "vcsw_unit.h"

void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "vcsw_unit: out of memory\n");
        exit(2);
    }
    return p;
}

sim_t *sim_new(const vcsw_params_t *p, unsigned maxs)
{
    sim_t *s = xcalloc(1, sizeof *s);
    s->p = *p;
    s->m = vcsw_new(p);
    if (!s->m) {
        fprintf(stderr, "vcsw_unit: vcsw_new failed: %s\n", vcsw_params_check(p));
        exit(2);
    }
    s->n = p->NPORTS;
    s->nvc = p->NVC;
    s->ndvc = vcsw_ndvc(p);
    s->L = p->LINK_DELAY;
    s->maxs = maxs;
    s->cfg_next = 1;
    s->fmask = p->FLIT_W >= 32 ? 0xFFFFFFFFu : ((1u << p->FLIT_W) - 1u);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        s->rx[i] = xcalloc(maxs, sizeof(vcsw_flit_t));
        s->ts[i] = xcalloc(maxs, sizeof(uint16_t));
        s->tx[i] = xcalloc(maxs, sizeof(vcsw_flit_t));
        s->rs[i] = xcalloc(maxs, sizeof(uint16_t));
    }
    s->we = xcalloc(maxs, 1);
    s->re = xcalloc(maxs, 1);
    s->addr = xcalloc(maxs, sizeof(uint16_t));
    s->wd = xcalloc(maxs, sizeof(uint16_t));
    s->rv = xcalloc(maxs, 1);
    s->rd = xcalloc(maxs, sizeof(uint32_t));
    s->occ = xcalloc((size_t)maxs * s->n * s->nvc, sizeof(uint16_t));
    return s;
}

void sim_free(sim_t *s)
{
    vcsw_free(s->m);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        free(s->rx[i]);
        free(s->ts[i]);
        free(s->tx[i]);
        free(s->rs[i]);
    }
    free(s->we);
    free(s->re);
    free(s->addr);
    free(s->wd);
    free(s->rv);
    free(s->rd);
    free(s->occ);
    free(s);
}

unsigned occ_at(const sim_t *s, unsigned k, unsigned p, unsigned v)
{
    return s->occ[((size_t)k * s->n + p) * s->nvc + v];
}

/* one step: k = s->k + 1 */
void sim_step(sim_t *s)
{
    unsigned k = ++s->k;
    vcsw_in_t in;
    vcsw_out_t out;
    memset(&in, 0, sizeof in);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        in.rx[i] = s->rx[i][k];
        in.tx_stop[i] = s->ts[i][k];
    }
    in.cfg_we = s->we[k];
    in.cfg_re = s->re[k];
    in.cfg_addr = s->addr[k];
    in.cfg_wdata = s->wd[k];
    vcsw_step(s->m, &in, &out);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        s->tx[i][k] = out.tx[i];
        s->rs[i][k] = out.rx_stop[i];
    }
    s->rv[k] = out.cfg_rvalid;
    s->rd[k] = out.cfg_rdata;
    for (unsigned p = 0; p < s->n; p++)
        for (unsigned v = 0; v < s->nvc; v++)
            s->occ[((size_t)k * s->n + p) * s->nvc + v] = (uint16_t)vcsw_occupancy(s->m, p, v);
}

void sim_run(sim_t *s, unsigned upto)
{
    if (upto >= s->maxs)
        upto = s->maxs - 1;
    while (s->k < upto)
        sim_step(s);
}

void sim_all(sim_t *s) { sim_run(s, s->maxs - 1); }

/* ---------------------------------------------------------------- configuration stimulus */

void cfg_write_at(sim_t *s, unsigned k, unsigned space, unsigned idx, unsigned wdata)
{
    s->we[k] = 1;
    s->addr[k] = VCSW_CFG_ADDR(space, idx);
    s->wd[k] = (uint16_t)wdata;
}

void cfg_read_at(sim_t *s, unsigned k, unsigned space, unsigned idx)
{
    s->re[k] = 1;
    s->addr[k] = VCSW_CFG_ADDR(space, idx);
}

/* table writes one per step from step 1 (cfg_next) */
void set_route(sim_t *s, unsigned tag, unsigned port)
{
    cfg_write_at(s, s->cfg_next++, VCSW_SPACE_ROUTE, tag, VCSW_ENTRY(1, port));
}

void set_vc(sim_t *s, unsigned in, unsigned out, unsigned d, unsigned u)
{
    cfg_write_at(s, s->cfg_next++, VCSW_SPACE_VC, VCSW_VC_INDEX(in, out, d), VCSW_ENTRY(1, u));
}

/* ---------------------------------------------------------------- flit stimulus */

void put_flit(sim_t *s, unsigned port, unsigned k, unsigned vc, uint32_t data, unsigned tail)
{
    vcsw_flit_t *f = &s->rx[port][k];
    f->valid = 1;
    f->vc = (uint8_t)vc;
    f->tail = (uint8_t)tail;
    f->data = data & s->fmask;
}

/* data of flit i of packet `id` (head: the tag in the low TAG_W bits) */
uint32_t pkt_data(const sim_t *s, unsigned id, unsigned i, unsigned tag)
{
    if (i == 0)
        return ((id << s->p.TAG_W) | tag) & s->fmask;
    return (id * 977u + i * 131u + 7u) & s->fmask;
}

/* a packet of len flits on consecutive steps from k; returns the step after it */
unsigned put_pkt(sim_t *s, unsigned port, unsigned k, unsigned vc, unsigned tag, unsigned len, unsigned id)
{
    for (unsigned i = 0; i < len; i++)
        put_flit(s, port, k + i, vc, pkt_data(s, id, i, tag), i + 1 == len);
    return k + len;
}

/* tx_stop bit (o, u) high in steps [from, to] */
void stop_range(sim_t *s, unsigned o, unsigned u, unsigned from, unsigned to)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        s->ts[o][k] |= (uint16_t)(1u << u);
}

/* ---------------------------------------------------------------- output analysis */

int flit_is(const vcsw_flit_t *f, unsigned vc, uint32_t data, unsigned tail)
{
    return f->valid == 1 && f->vc == vc && f->data == data && f->tail == tail;
}

int flit_idle(const vcsw_flit_t *f) { return !f->valid && !f->vc && !f->tail && !f->data; }

/* the packet id/len expected on tx[o] from step k (consecutive steps, output VC u) */
int pkt_at(const sim_t *s, unsigned o, unsigned k, unsigned u, unsigned tag, unsigned len, unsigned id)
{
    for (unsigned i = 0; i < len; i++)
        if (k + i >= s->maxs || !flit_is(&s->tx[o][k + i], u, pkt_data(s, id, i, tag), i + 1 == len))
            return 0;
    return 1;
}

unsigned count_valid(const sim_t *s, unsigned o, unsigned from, unsigned to)
{
    unsigned n = 0;
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        n += s->tx[o][k].valid;
    return n;
}

/* first step in [from, to] with a valid flit on tx[o] whose data is `data`; 0 if none */
unsigned find_data(const sim_t *s, unsigned o, unsigned from, unsigned to, uint32_t data)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        if (s->tx[o][k].valid && s->tx[o][k].data == data)
            return k;
    return 0;
}

/* every output idle in [from, to] except `except` (-1: none) */
int others_idle(const sim_t *s, int except, unsigned from, unsigned to)
{
    for (unsigned o = 0; o < VCSW_MAX_PORTS; o++) {
        if ((int)o == except)
            continue;
        for (unsigned k = from; k <= to && k < s->maxs; k++)
            if (!flit_idle(&s->tx[o][k]))
                return 0;
    }
    return 1;
}

int never_rvalid(const sim_t *s, unsigned from, unsigned to)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        if (s->rv[k] || s->rd[k])
            return 0;
    return 1;
}

vcsw_params_t params(unsigned n, unsigned nvc, unsigned ctrl, unsigned L)
{
    vcsw_params_t p = vcsw_default_params();
    p.NPORTS = n;
    p.NVC = nvc;
    p.CTRL = ctrl;
    p.LINK_DELAY = L;
    return p;
}

const char *pstr(const vcsw_params_t *p)
{
    static char b[160];
    snprintf(b, sizeof b, "[N=%u NVC=%u CTRL=%u FLIT_W=%u TAG_W=%u DEPTH=%u MAXLEN=%u L=%u CTR=%u/%u]", p->NPORTS,
             p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN, p->LINK_DELAY, p->COUNTERS, p->CTR_WIDTH);
    return b;
}
