/* sanfab — the counter flush schedule shared by the block models (docs/xbar.md "Counters and the
 * register port", docs/vcsw.md "Counters").
 *
 * NS counters are numbered slot 0..NS-1. A flusher writes slot s back to the counter RAM in every
 * step W >= 3 with W = s + 3 (mod NS), counting steps from reset (step 0); the value it writes is the
 * number of the slot's events in steps <= W - 4, modulo 2^CTR_WIDTH. A block records its events
 * step by step here and asks for the step that flushes a slot and for the value flushed.
 *
 * Memory is bounded: a running total per slot and the events of the last CTR_SCHED_LAG steps.
 */
#ifndef SANFAB_CTR_SCHED_H
#define SANFAB_CTR_SCHED_H

#include <stdint.h>

#define CTR_SCHED_FIRST 3u /* the first step that flushes */
#define CTR_SCHED_LAG 4u   /* a flush at step W counts the events of steps <= W - CTR_SCHED_LAG */

typedef struct {
    unsigned ns;        /* slots */
    uint32_t mask;      /* 2^CTR_WIDTH - 1 */
    uint64_t step;      /* the step events are recorded for */
    uint32_t *tot;      /* per slot: events of every step so far (mod 2^32) */
    uint8_t *recent;    /* [CTR_SCHED_LAG][ns]: events of steps step-3..step, by step % LAG */
    uint32_t *touched;  /* [CTR_SCHED_LAG][ns]: the slots whose `recent` count is not 0 */
    unsigned ntouched[CTR_SCHED_LAG];
} ctr_sched_t;

/* Sets up a schedule of ns >= 1 slots of ctr_width (1..32) bits at step 0; 0 on success, -1 if memory is short. */
int ctr_sched_init(ctr_sched_t *cs, unsigned ns, unsigned ctr_width);

/* Releases the memory of ctr_sched_init (the struct itself is the caller's). */
void ctr_sched_free(ctr_sched_t *cs);

/* Back to step 0 with every count 0. */
void ctr_sched_reset(ctr_sched_t *cs);

/* Starts step k (k = the previous step + 1): events recorded from now on belong to step k. */
void ctr_sched_begin_step(ctr_sched_t *cs, uint64_t k);

/* Records one event of slot s (< ns) in the current step. */
static inline void ctr_sched_event(ctr_sched_t *cs, unsigned s)
{
    const unsigned row = (unsigned)(cs->step % CTR_SCHED_LAG);
    uint8_t *r = &cs->recent[row * cs->ns + s];
    if (*r == 0)
        cs->touched[row * cs->ns + cs->ntouched[row]++] = s;
    /* more than 255 events of one slot in one step never happen in the blocks (at most 1) */
    (*r)++;
    cs->tot[s]++;
}

/* The first step W > r (and >= 3) that flushes slot s. */
uint64_t ctr_sched_flush_step(const ctr_sched_t *cs, unsigned s, uint64_t r);

/* The value a flush of slot s writes in the current step W: events in steps <= W - 4, mod 2^CTR_WIDTH. */
uint32_t ctr_sched_flush_value(const ctr_sched_t *cs, unsigned s);

/* Events of slot s in every step so far (the current one included), mod 2^CTR_WIDTH. */
static inline uint32_t ctr_sched_total(const ctr_sched_t *cs, unsigned s) { return cs->tot[s] & cs->mask; }

#endif
