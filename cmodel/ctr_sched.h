/* sanfab — the counter flush schedule shared by the block models (docs/xbar.md "Counters and the
 * register port", docs/vcsw.md "Counters").
 *
 * NS counters are numbered slot 0..NS-1. A flusher writes slot s back to the counter RAM in every
 * step W >= 3 with W = s + 3 (mod NS), counting steps from reset (step 0); the value it writes is the
 * number of the slot's events in steps <= W - 4, modulo 2^CTR_WIDTH. A block records its events
 * step by step here and asks for the step that flushes a slot and for the value flushed.
 *
 * Memory is bounded: a running total per slot and the events of the last CTR_SCHED_LAG steps.
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
    unsigned ns;       /* slots */
    uint32_t mask;     /* 2^CTR_WIDTH - 1 */
    uint64_t step;     /* the step events are recorded for */
    uint32_t *tot;     /* per slot: events of every step so far (mod 2^32) */
    uint8_t *recent;   /* [CTR_SCHED_LAG][ns]: events of steps step-3..step, row = step % LAG */
    uint32_t *touched; /* [CTR_SCHED_LAG][ns]: per row, the slots whose `recent` count is not 0 */
    unsigned ntouched[CTR_SCHED_LAG];
} ctr_sched_t;

/* Releases the memory of ctr_sched_init (the struct itself is the caller's; a zeroed struct is fine). */
static inline void ctr_sched_free(ctr_sched_t *cs)
{
    free(cs->tot);
    free(cs->recent);
    free(cs->touched);
    cs->tot = NULL;
    cs->recent = NULL;
    cs->touched = NULL;
}

/* Back to step 0 with every count 0. */
static inline void ctr_sched_reset(ctr_sched_t *cs)
{
    cs->step = 0;
    memset(cs->tot, 0, cs->ns * sizeof *cs->tot);
    memset(cs->recent, 0, (size_t)CTR_SCHED_LAG * cs->ns * sizeof *cs->recent);
    memset(cs->ntouched, 0, sizeof cs->ntouched);
}

/* Sets up a schedule of ns >= 1 slots of ctr_width (1..32) bits at step 0; 0 on success, -1 if memory is short. */
static inline int ctr_sched_init(ctr_sched_t *cs, unsigned ns, unsigned ctr_width)
{
    memset(cs, 0, sizeof *cs);
    cs->ns = ns ? ns : 1u;
    cs->mask = ctr_width >= 32 ? 0xFFFFFFFFu : ((1u << ctr_width) - 1u);
    cs->tot = (uint32_t *)calloc(cs->ns, sizeof *cs->tot);
    cs->recent = (uint8_t *)calloc((size_t)CTR_SCHED_LAG * cs->ns, sizeof *cs->recent);
    cs->touched = (uint32_t *)calloc((size_t)CTR_SCHED_LAG * cs->ns, sizeof *cs->touched);
    if (!cs->tot || !cs->recent || !cs->touched) {
        ctr_sched_free(cs);
        return -1;
    }
    return 0;
}

/* Starts step k (the previous step + 1; call it every step): events recorded from now on belong to step k. */
static inline void ctr_sched_begin_step(ctr_sched_t *cs, uint64_t k)
{
    const unsigned row = (unsigned)(k % CTR_SCHED_LAG);
    uint8_t *r = &cs->recent[row * cs->ns];
    const uint32_t *t = &cs->touched[row * cs->ns];
    for (unsigned i = 0; i < cs->ntouched[row]; i++) /* forget step k - LAG */
        r[t[i]] = 0;
    cs->ntouched[row] = 0;
    cs->step = k;
}

/* Records one event of slot s (< ns) in the current step (at most 255 per slot and step). */
static inline void ctr_sched_event(ctr_sched_t *cs, unsigned s)
{
    const unsigned row = (unsigned)(cs->step % CTR_SCHED_LAG);
    uint8_t *r = &cs->recent[row * cs->ns + s];
    if (*r == 0)
        cs->touched[row * cs->ns + cs->ntouched[row]++] = s;
    (*r)++;
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
    for (unsigned row = 0; row < CTR_SCHED_LAG; row++) /* steps W, W-1, W-2, W-3 */
        v -= cs->recent[row * cs->ns + s];
    return v & cs->mask;
}

/* Events of slot s in every step so far (the current one included), mod 2^CTR_WIDTH. */
static inline uint32_t ctr_sched_total(const ctr_sched_t *cs, unsigned s) { return cs->tot[s] & cs->mask; }

#endif
