/* sanfab — xbar_unit's simulation harness (xbar_unit.h): a run of the crossbar model with its
 * stimulus and outputs, packets made and parsed, the tests' parameters. */
#include "xbar_unit.h"

sim_t *sim_new(const xbar_params_t *p, unsigned maxs)
{
    sim_t *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->p = *p;
    s->m = xbar_new(p);
    if (!s->m) {
        fprintf(stderr, "xbar_unit: xbar_new failed: %s\n", xbar_params_check(p));
        abort();
    }
    s->n = p->NPORTS;
    s->maxs = maxs;
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        s->rx[i] = malloc(maxs * sizeof(uint16_t));
        s->tx[i] = calloc(maxs, sizeof(uint16_t));
        s->occ[i] = calloc(maxs, sizeof *s->occ[i]);
        if (!s->rx[i] || !s->tx[i] || !s->occ[i])
            abort();
        for (unsigned k = 0; k < maxs; k++)
            s->rx[i][k] = CH_IDLE;
        s->tx[i][0] = CH_IDLE;
    }
    s->rd = calloc(maxs, 1);
    s->addr = calloc(maxs, sizeof(uint16_t));
    s->rv = calloc(maxs, 1);
    s->rdata = calloc(maxs, sizeof(uint32_t));
    s->ctr = calloc((size_t)maxs * s->n * XBAR_NCTR, sizeof(uint32_t));
    if (!s->rd || !s->addr || !s->rv || !s->rdata || !s->ctr)
        abort();
    return s;
}

void sim_free(sim_t *s)
{
    if (!s)
        return;
    xbar_free(s->m);
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        free(s->rx[i]);
        free(s->tx[i]);
        free(s->occ[i]);
    }
    free(s->rd);
    free(s->addr);
    free(s->rv);
    free(s->rdata);
    free(s->ctr);
    free(s);
}

uint32_t ctr_at(const sim_t *s, unsigned step, unsigned port, unsigned c)
{
    return s->ctr[((size_t)step * s->n + port) * XBAR_NCTR + c];
}

/* run the model up to and including step `upto` */
void sim_run(sim_t *s, unsigned upto)
{
    if (upto >= s->maxs)
        upto = s->maxs - 1;
    xbar_in_t in;
    xbar_out_t out;
    while (s->k < upto) {
        unsigned k = ++s->k;
        memset(&in, 0, sizeof in);
        for (unsigned i = 0; i < XBAR_MAX_PORTS; i++)
            in.rx[i] = s->rx[i][k];
        in.reg_rd = s->rd[k];
        in.reg_addr = s->addr[k];
        xbar_step(s->m, &in, &out);
        for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
            s->tx[i][k] = out.tx[i];
            s->occ[i][k] = out.stat_occ[i];
        }
        s->rv[k] = out.reg_rvalid;
        s->rdata[k] = out.reg_rdata;
        for (unsigned p = 0; p < s->n; p++)
            for (unsigned c = 0; c < XBAR_NCTR; c++)
                s->ctr[((size_t)k * s->n + p) * XBAR_NCTR + c] = xbar_counter(s->m, p, c);
    }
}

void sim_all(sim_t *s) { sim_run(s, s->maxs - 1); }

/* Put a packet on rx[port] from `step`: the bytes (route bytes first), a CRC byte over them
 * (good, wrong, marked = complemented, or none), then `end` (GAP or ABORT; 0: nothing).
 * Returns the first step after it. */
unsigned put_pkt(sim_t *s, unsigned port, unsigned step, const uint8_t *b, unsigned len, int crc,
                 uint16_t end)
{
    for (unsigned i = 0; i < len; i++)
        s->rx[port][step++] = b[i];
    uint8_t c = crc8_buf(b, len);
    if (crc == CRC_WRONG)
        s->rx[port][step++] = (uint8_t)(c ^ 0x5Au);
    else if (crc == CRC_MARKED)
        s->rx[port][step++] = (uint8_t)(c ^ 0xFFu);
    else if (crc == CRC_GOOD)
        s->rx[port][step++] = c;
    if (end)
        s->rx[port][step++] = end;
    return step;
}

/* a packet: route byte for `dst`, then `body` bytes seeded by `tag` */
unsigned make_pkt(uint8_t *b, unsigned dst, unsigned body, unsigned tag)
{
    b[0] = ROUTE_BYTE(dst);
    for (unsigned i = 0; i < body; i++)
        b[1 + i] = (uint8_t)(tag * 31u + i * 7u + 1u);
    return body + 1;
}

/* Parse tx[port] over steps [from, to] into packets (IDLE, STOP, GO skipped). Returns the count. */
unsigned parse_tx(const sim_t *s, unsigned port, unsigned from, unsigned to, rxpkt_t *pk, unsigned max)
{
    unsigned n = 0, len = 0, first = 0;
    uint8_t crc = 0;
    for (unsigned k = from; k <= to && k < s->maxs; k++) {
        uint16_t c = s->tx[port][k];
        if (CH_IS_DATA(c)) {
            if (len == 0)
                first = k;
            if (n < max && len < sizeof pk[n].b)
                pk[n].b[len] = (uint8_t)c;
            len++;
            crc = crc8_step(crc, (uint8_t)c);
        } else if (c == CH_GAP || c == CH_ABORT) {
            if (n < max) {
                pk[n].first = len ? first : k;
                pk[n].end_step = k;
                pk[n].len = len;
                pk[n].end = c;
                pk[n].residue = crc;
            }
            n++;
            len = 0;
            crc = 0;
        }
    }
    return n;
}

/* first step in [from, to] at which tx[port] shows a data character; 0 if none */
unsigned first_data(const sim_t *s, unsigned port, unsigned from, unsigned to)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        if (CH_IS_DATA(s->tx[port][k]))
            return k;
    return 0;
}

unsigned count_char(const sim_t *s, unsigned port, unsigned from, unsigned to, uint16_t c)
{
    unsigned n = 0;
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        n += s->tx[port][k] == c;
    return n;
}

xbar_params_t params(unsigned n)
{
    xbar_params_t p = xbar_default_params();
    p.NPORTS = n;
    return p;
}

unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
