/* sanfab — the counter flush schedule shared by the block models (docs/xbar.md "Counters and the
 * register port", docs/vcsw.md "Counters").
 *
 * NS counters are numbered slot 0..NS-1. A flusher writes slot s back to the counter RAM in every
 * step W >= 3 with W = s + 3 (mod NS), counting steps from reset (step 0); the value it writes is the
 * number of the slot's events in steps <= W - 4, modulo 2^CTR_WIDTH. A block records its events
 * step by step here and asks for the step that flushes a slot and for the value flushed.
 *
 * Memory is bounded: a running total per slot and the events of the last CTR_SCHED_LAG steps, kept as
 * one list of slot numbers per step (a ring of CTR_SCHED_LAG rows, row = step % LAG). Recording an
 * event appends to the current step's list and counts the total; starting a step empties one list;
 * only a flush (a counter read) looks through the lists. A step holds at most ns events (both users
 * record at most one event per slot and step).
 * Header only (static inline), so every build of a model that uses it needs no extra source file.
 */
#ifndef SANFAB_CTR_SCHED_H
#define SANFAB_CTR_SCHED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CTR_SCHED_FIRST 3u /* the first step that flushes */
#define CTR_SCHED_LAG 4u   /* a flush at step W counts the events of steps <= W - CTR_SCHED_LAG */

typedef struct {
    unsigned ns;      /* slots */
    uint32_t mask;    /* 2^CTR_WIDTH - 1 */
    uint64_t step;    /* the step events are recorded for */
    uint32_t *tot;    /* per slot: events of every step so far (mod 2^32) */
    uint32_t *ev;     /* [CTR_SCHED_LAG][ns]: per row, the slots of the events of one of the steps step-3..step */
    unsigned nev[CTR_SCHED_LAG]; /* per row: its events (the current row's: n) */
    unsigned row;     /* the current step's row, step % LAG */
    size_t base;      /* row * ns: the current row's first entry in ev */
    unsigned n;       /* events of the current step so far */
} ctr_sched_t;

/* Releases the memory of ctr_sched_init (the struct itself is the caller's; a zeroed struct is fine). */
static inline void ctr_sched_free(ctr_sched_t *cs)
{
    free(cs->tot);
    free(cs->ev);
    cs->tot = NULL;
    cs->ev = NULL;
}

/* Back to step 0 with every count 0. */
static inline void ctr_sched_reset(ctr_sched_t *cs)
{
    cs->step = 0;
    memset(cs->tot, 0, cs->ns * sizeof *cs->tot);
    memset(cs->nev, 0, sizeof cs->nev);
    cs->row = 0;
    cs->base = 0;
    cs->n = 0;
}

/* Sets up a schedule of ns >= 1 slots of ctr_width (1..32) bits at step 0; 0 on success, -1 if memory is short. */
static inline int ctr_sched_init(ctr_sched_t *cs, unsigned ns, unsigned ctr_width)
{
    memset(cs, 0, sizeof *cs);
    cs->ns = ns ? ns : 1u;
    cs->mask = ctr_width >= 32 ? 0xFFFFFFFFu : ((1u << ctr_width) - 1u);
    cs->tot = (uint32_t *)calloc(cs->ns, sizeof *cs->tot);
    cs->ev = (uint32_t *)calloc((size_t)CTR_SCHED_LAG * cs->ns, sizeof *cs->ev);
    if (!cs->tot || !cs->ev) {
        ctr_sched_free(cs);
        return -1;
    }
    return 0;
}

/* Events of row `row` so far (the current row's list is still growing). */
static inline unsigned ctr_sched_row_events(const ctr_sched_t *cs, unsigned row)
{
    return row == cs->row ? cs->n : cs->nev[row];
}

/* Starts step k (the previous step + 1; call it every step): events recorded from now on belong to step k. */
static inline void ctr_sched_begin_step(ctr_sched_t *cs, uint64_t k)
{
    cs->nev[cs->row] = cs->n;                           /* close the previous step's row */
    const unsigned row = (unsigned)(k % CTR_SCHED_LAG); /* forget step k - LAG */
    cs->row = row;
    cs->nev[row] = 0;
    cs->base = (size_t)row * cs->ns;
    cs->n = 0;
    cs->step = k;
}

/* Records one event of slot s (< ns) in the current step (at most ns events per step). */
static inline void ctr_sched_event(ctr_sched_t *cs, unsigned s)
{
#ifdef SANFAB_ASSERT
    if (cs->n >= cs->ns || s >= cs->ns)
        abort(); /* more events in one step than slots, or no such slot */
#endif
    cs->ev[cs->base + cs->n++] = s;
    cs->tot[s]++;
}

/* The first step W > r (and >= 3) that flushes slot s. */
static inline uint64_t ctr_sched_flush_step(const ctr_sched_t *cs, unsigned s, uint64_t r)
{
    const uint64_t ns = cs->ns;
    const uint64_t t = (s + (uint64_t)CTR_SCHED_FIRST) % ns;
    uint64_t w = r + 1 + (t + ns - (r + 1) % ns) % ns;
    while (w < CTR_SCHED_FIRST)
        w += ns;
    return w;
}

/* The value a flush of slot s writes in the current step W: events in steps <= W - 4, mod 2^CTR_WIDTH. */
static inline uint32_t ctr_sched_flush_value(const ctr_sched_t *cs, unsigned s)
{
    uint32_t v = cs->tot[s];
    for (unsigned row = 0; row < CTR_SCHED_LAG; row++) { /* steps W, W-1, W-2, W-3 */
        const uint32_t *e = &cs->ev[(size_t)row * cs->ns];
        for (unsigned i = 0, n = ctr_sched_row_events(cs, row); i < n; i++)
            v -= e[i] == s;
    }
    return v & cs->mask;
}

/* Adds `add` to slot s's total, as if that many events had come before every step in the window: every
 * later flush and ctr_sched_total include it (the benches' counter preset, a test mode; mod 2^32). */
static inline void ctr_sched_add(ctr_sched_t *cs, unsigned s, uint32_t add) { cs->tot[s] += add; }

/* Events of slot s in every step so far (the current one included), mod 2^CTR_WIDTH. */
static inline uint32_t ctr_sched_total(const ctr_sched_t *cs, unsigned s) { return cs->tot[s] & cs->mask; }

/* 1 if two schedules of the same size are in the same state (step, totals, the events of the window). */
static inline int ctr_sched_equal(const ctr_sched_t *a, const ctr_sched_t *b)
{
    if (a->ns != b->ns || a->mask != b->mask || a->step != b->step || a->row != b->row ||
        memcmp(a->tot, b->tot, a->ns * sizeof *a->tot) != 0)
        return 0;
    for (unsigned row = 0; row < CTR_SCHED_LAG; row++) {
        const unsigned n = ctr_sched_row_events(a, row);
        if (n != ctr_sched_row_events(b, row) ||
            memcmp(&a->ev[(size_t)row * a->ns], &b->ev[(size_t)row * b->ns], n * sizeof *a->ev) != 0)
            return 0;
    }
    return 1;
}

#endif
