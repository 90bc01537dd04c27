/* sanfab — the counter flush schedule shared by the block models (see ctr_sched.h). */
#include "ctr_sched.h"

#include <stdlib.h>
#include <string.h>

int ctr_sched_init(ctr_sched_t *cs, unsigned ns, unsigned ctr_width)
{
    memset(cs, 0, sizeof *cs);
    if (ns == 0)
        ns = 1;
    cs->ns = ns;
    cs->mask = ctr_width >= 32 ? 0xFFFFFFFFu : ((1u << ctr_width) - 1u);
    cs->tot = calloc(ns, sizeof *cs->tot);
    cs->recent = calloc((size_t)CTR_SCHED_LAG * ns, sizeof *cs->recent);
    cs->touched = calloc((size_t)CTR_SCHED_LAG * ns, sizeof *cs->touched);
    if (!cs->tot || !cs->recent || !cs->touched) {
        ctr_sched_free(cs);
        return -1;
    }
    return 0;
}

void ctr_sched_free(ctr_sched_t *cs)
{
    free(cs->tot);
    free(cs->recent);
    free(cs->touched);
    cs->tot = NULL;
    cs->recent = NULL;
    cs->touched = NULL;
}

void ctr_sched_reset(ctr_sched_t *cs)
{
    cs->step = 0;
    memset(cs->tot, 0, cs->ns * sizeof *cs->tot);
    memset(cs->recent, 0, (size_t)CTR_SCHED_LAG * cs->ns * sizeof *cs->recent);
    memset(cs->ntouched, 0, sizeof cs->ntouched);
}

void ctr_sched_begin_step(ctr_sched_t *cs, uint64_t k)
{
    const unsigned row = (unsigned)(k % CTR_SCHED_LAG);
    uint8_t *r = &cs->recent[row * cs->ns];
    const uint32_t *t = &cs->touched[row * cs->ns];
    for (unsigned i = 0; i < cs->ntouched[row]; i++) /* forget step k - LAG */
        r[t[i]] = 0;
    cs->ntouched[row] = 0;
    cs->step = k;
}

uint64_t ctr_sched_flush_step(const ctr_sched_t *cs, unsigned s, uint64_t r)
{
    const uint64_t ns = cs->ns;
    const uint64_t t = (s + (uint64_t)CTR_SCHED_FIRST) % ns;
    uint64_t w = r + 1 + (t + ns - (r + 1) % ns) % ns;
    while (w < CTR_SCHED_FIRST)
        w += ns;
    return w;
}

uint32_t ctr_sched_flush_value(const ctr_sched_t *cs, unsigned s)
{
    uint32_t v = cs->tot[s];
    for (unsigned row = 0; row < CTR_SCHED_LAG; row++) /* steps W, W-1, W-2, W-3 */
        v -= cs->recent[row * cs->ns + s];
    return v & cs->mask;
}
