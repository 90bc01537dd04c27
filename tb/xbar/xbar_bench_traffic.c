/* sanfab — crossbar bench: the hosts' traffic of a test (xbar_bench_traffic.h). */
#include "xbar_bench_traffic.h"

static sb_kind_t pick_kind(traffic_t *t)
{
    const mix_t *m = &t->d->mix;
    unsigned r = rng_below(&t->rng, 1000), a = 0;
    if (r < (a += m->crc_bad)) return SB_CRC_BAD;
    if (r < (a += m->marked)) return SB_MARKED;
    if (r < (a += m->illegal)) return SB_ILLEGAL;
    if (r < (a += m->abort)) return SB_ABORT;
    if (r < (a += m->runt)) return SB_RUNT;
    if (r < (a += m->badroute)) return SB_BADROUTE;
    return SB_NORMAL;
}

static unsigned pick_len(traffic_t *t)
{
    switch (t->d->len) {
    case LEN_SHORT_LONG: return rng_pct(&t->rng, 50) ? SB_ID_LEN + 1 : 1000;
    case LEN_32: return t->d->dst == DST_PERM && t->o->perm_body ? (unsigned)t->o->perm_body : 32;
    case LEN_16: return 16;
    case LEN_SAT: return 8 + rng_below(&t->rng, 120);
    case LEN_SHORT: return SB_ID_LEN + 1 + rng_below(&t->rng, 16);
    case LEN_LONG: return 500 + rng_below(&t->rng, 500);
    case LEN_MIXED:
    default: {
        unsigned r = rng_below(&t->rng, 100);
        return r < 30 ? SB_ID_LEN + 1 + rng_below(&t->rng, 8) : r < 90 ? 16 + rng_below(&t->rng, 100)
                                                                         : 200 + rng_below(&t->rng, 800);
    }
    }
}

static unsigned pick_dst(traffic_t *t, unsigned src)
{
    const unsigned n = t->n;
    switch (t->d->dst) {
    case DST_PERM: return t->dst_perm[src];
    case DST_HOT0: return 0;
    case DST_HALF_HOT0: return rng_pct(&t->rng, 50) ? rng_below(&t->rng, n) : 0;
    case DST_OVERFLOW: return src == 0 ? 1 : rng_below(&t->rng, n);
    case DST_UNIFORM:
    default: return rng_below(&t->rng, n);
    }
}

/* Stray characters between packets: GAP, ABORT or an illegal code (counted malformed). */
static void queue_between(traffic_t *t, sb_t *sb, host_t *h, unsigned src)
{
    uint16_t ch[3];
    unsigned k = 1 + rng_below(&t->rng, 3);
    for (unsigned j = 0; j < k; j++) {
        unsigned r = rng_below(&t->rng, 4);
        if (r == 0)
            ch[j] = CH_GAP;
        else if (r == 1)
            ch[j] = CH_ABORT;
        else {
            unsigned code = t->d->sweep_illegal ? t->next_code_between++ % 251 : rng_below(&t->rng, 251);
            ch[j] = (uint16_t)(0x105 + code);
        }
    }
    if (host_queue_between(h, ch, k))
        for (unsigned j = 0; j < k; j++)
            if (is_illegal_char(ch[j])) {
                sb->extra_malformed[src]++;
                t->code_between[ch[j] - 0x105] = 1;
            }
}

/* Makes one packet from src (dst < 0, len 0: by the test's policy) and queues it; 1 if queued. */
int make_packet(traffic_t *t, sb_t *sb, host_t *h, unsigned src, int dst_force, unsigned len_force)
{
    const unsigned n = t->n;
    if (t->d->between_pm && rng_below(&t->rng, 1000) < t->d->between_pm && h->q_count + 2 <= HOST_QUEUE)
        queue_between(t, sb, h, src);
    if (!host_can_queue(h))
        return 0;
    unsigned dst = dst_force >= 0 ? (unsigned)dst_force : pick_dst(t, src);
    unsigned len = len_force ? len_force : pick_len(t);
    unsigned faults = sb_kind_fault(pick_kind(t));
    if (t->d->pairs) {
        /* directed: every fault alone, then every pair of them, in turn */
        unsigned k = t->next_pair++ % (SB_NFAULTS + SB_NFAULTS * (SB_NFAULTS - 1) / 2);
        if (k < SB_NFAULTS)
            faults = 1u << k;
        else
            for (unsigned a = 0, j = SB_NFAULTS; a < SB_NFAULTS; a++)
                for (unsigned b = a + 1; b < SB_NFAULTS; b++, j++)
                    if (j == k)
                        faults = 1u << a | 1u << b;
    } else if (t->d->multi_pct)
        /* zero, one or several faults: more drawn from the same mix while the dice say so */
        for (unsigned j = 0; j < SB_NFAULTS && rng_pct(&t->rng, t->d->multi_pct); j++)
            faults |= sb_kind_fault(pick_kind(t));
    uint8_t route[1];
    uint32_t aux = (uint32_t)rng_next(&t->rng);
    if (t->d->sweep_routes) {
        unsigned b = t->next_route++ % 256;
        route[0] = (uint8_t)b;
        if (route_valid(b, n))
            dst = ROUTE_PORT(b);
        else
            faults = SB_F_BADROUTE;
    } else if (faults & SB_F_BADROUTE) {
        unsigned r = rng_below(&t->rng, 3);
        route[0] = r == 0 ? (uint8_t)(0x80u | (n + rng_below(&t->rng, 64 - n)))  /* port at or past NPORTS */
                 : r == 1 ? (uint8_t)rng_below(&t->rng, 0x80)                   /* not a route byte */
                          : (uint8_t)(0xC0u | rng_below(&t->rng, 0x40));        /* 11xxxxxx, ITB mark among them */
    } else
        route[0] = ROUTE_BYTE(dst);
    if (faults & SB_F_ILLEGAL) {
        unsigned code = t->d->sweep_illegal ? t->next_code_in++ % 251 : rng_below(&t->rng, 251);
        aux = SB_ILLEGAL_AUX(0x105 + code, t->next_pos++);
        t->code_in[code] = 1;
    }
    uint16_t ch[HOST_MAX_PKT];
    unsigned nch = sb_make(sb, src, dst, faults, route, 1, len, aux, ch, HOST_MAX_PKT);
    if (!nch || !host_queue(h, ch, nch))
        return 0;
    t->route_sent[route[0]] = 1;
    return 1;
}

/* Configures the hosts for the test. */
void traffic_setup(traffic_t *t, host_t *host, sb_t *sb)
{
    const test_desc_t *d = t->d;
    const unsigned n = t->n;
    for (unsigned i = 0; i < n; i++) {
        host_cfg_t c = host_default_cfg();
        c.react = 1 + t->o->p.LINK_DELAY;
        c.stop_grace = DOC_STOP_EFFECT + t->o->p.LINK_DELAY; /* docs/xbar.md: flow control from downstream */
        c.slack = c.stop_th + 8 + 2 * t->o->p.LINK_DELAY;    /* room for what the cable holds after our STOP */
        c.drain_pct = d->drain_lo + (d->drain_hi > d->drain_lo ? rng_below(&t->rng, d->drain_hi - d->drain_lo + 1) : 0);
        c.bubble_pct = d->bubble_max ? rng_below(&t->rng, d->bubble_max) : 0;
        t->load_pct[i] = d->load == LOAD_FULL ? 100 : d->load == LOAD_NONE ? 0 : 5 + rng_below(&t->rng, 96);
        if (d->ignore_stop0) {
            c.ignore_stop = i == 0;         /* host 0 floods its input ...                   */
            c.drain_pct = i == 1 ? 25 : 100; /* ... towards output 1, whose receiver is slow */
        }
        host_init(&host[i], &c, i, rng_next(&t->rng), sb_receive, sb);
        sb->damage_ok[i] = (uint8_t)(c.ignore_stop != 0);
    }
    /* permutation: a fixed shift keeps it simple and saturating */
    unsigned shift = 1 + rng_below(&t->rng, n - 1);
    for (unsigned i = 0; i < n; i++)
        t->dst_perm[i] = (i + shift) % n;
}

void traffic_cycle(traffic_t *t, host_t *host, sb_t *sb, uint64_t cyc, int generate)
{
    const test_desc_t *d = t->d;
    for (unsigned i = 0; i < t->n; i++) {
        if (generate && host[i].q_count < 2 && t->load_pct[i] && rng_pct(&t->rng, t->load_pct[i]))
            make_packet(t, sb, &host[i], i, -1, 0);
        if (d->storm_pm && generate) {
            if (cyc >= t->storm_until[i]) {
                host_force_stop(&host[i], 0);
                if (rng_below(&t->rng, 1000) < d->storm_pm) {
                    host_force_stop(&host[i], 1);
                    t->storm_until[i] = cyc + 20 + rng_below(&t->rng, 400);
                }
            }
        } else if (d->scen != SCEN_BLOCKED)
            host_force_stop(&host[i], 0);
    }
    if (d->dst == DST_HALF_HOT0) {
        /* receiver 0 holds STOP well past the timeout in the first part of the run */
        uint64_t hold = (uint64_t)(t->o->p.TIMEOUT ? t->o->p.TIMEOUT : 1000) * 3;
        host_force_stop(&host[0], generate && cyc < hold);
    }
}
