/* sanfab — MLC lockstep bench, lowest layer: failure lines, the comparison, the frame check (mlc_bench_base.h). */
#include "mlc_bench_base.h"
#include "rerun.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* drops the oldest expected message (and its data) */
void exp_drop(ring_t *q)
{
    mlc_msg_t m;
    if (ring_pop(q, &m))
        free(m.data);
}

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
void waves_done(const bench_t *b, const char *indent)
{
    if (!b->waves.vcd || !b->rtl)
        return;
    uint64_t range[2];
    int any = mlc_rtl_trace_close(b->rtl, range);
    bench_waves_print(stdout, indent, b->waves.vcd, any, range, b->waves.start);
}

/* after a failure line: the waves of this run (--vcd), or with --vcd-on-fail a run again with the
 * same arguments and a trace of the steps up to the failure; then exit 1 */
static void fail_exit(const bench_t *b)
{
    fflush(stdout);
    waves_done(b, "     ");
    if (b->waves.on_fail && b->mode != MODE_MODEL)
        bench_rerun_vcd("mlc_bench", "     ", b->argc, b->argv, &b->waves, b->cycle, 1);
    if (b->rtl)
        mlc_rtl_free(b->rtl);
    fflush(stdout);
    exit(1);
}

static void mismatch(const bench_t *b, unsigned node, const char *sig, uint64_t exp, uint64_t act)
{
    printf("LOCKSTEP MISMATCH cycle=%" PRIu64 " node=%u signal=%s expected=0x%" PRIx64 " actual=0x%" PRIx64
           " seed=%" PRIu64 "\n",
           b->cycle, node, sig, exp, act, b->seed);
    fail_exit(b);
}

void check_fail(const bench_t *b, const char *what)
{
    printf("CHECK cycle=%" PRIu64 " %s seed=%" PRIu64 "\n", b->cycle, what, b->seed);
    fail_exit(b);
}

void sb_fail(const bench_t *b, unsigned node, unsigned ch, const char *what)
{
    printf("SCOREBOARD cycle=%" PRIu64 " node=%u ch=%u %s seed=%" PRIu64 "\n", b->cycle, node, ch, what, b->seed);
    fail_exit(b);
}

void compare(const bench_t *b, unsigned n, const mlc_out_t *e, const mlc_out_t *a)
{
    if (e->tx_en != a->tx_en)
        mismatch(b, n, "tx_en", e->tx_en, a->tx_en);
    if (e->tx_d != a->tx_d)
        mismatch(b, n, "tx_d", e->tx_d, a->tx_d);
    if (e->h_rvalid != a->h_rvalid)
        mismatch(b, n, "h_rvalid", e->h_rvalid, a->h_rvalid);
    if (e->h_rdata != a->h_rdata)
        mismatch(b, n, "h_rdata", e->h_rdata, a->h_rdata);
    for (unsigned c = 0; c < MLC_NCH; c++) {
        if (e->st_tx_space[c] != a->st_tx_space[c])
            mismatch(b, n, c ? "st_tx_space1" : "st_tx_space0", e->st_tx_space[c], a->st_tx_space[c]);
        if (e->st_rx_avail[c] != a->st_rx_avail[c])
            mismatch(b, n, c ? "st_rx_avail1" : "st_rx_avail0", e->st_rx_avail[c], a->st_rx_avail[c]);
    }
    if (e->reg_rvalid != a->reg_rvalid)
        mismatch(b, n, "reg_rvalid", e->reg_rvalid, a->reg_rvalid);
    if (e->reg_rdata != a->reg_rdata)
        mismatch(b, n, "reg_rdata", e->reg_rdata, a->reg_rdata);
}

/* CRC-16 0x1021 over one nibble, MSB first (docs/mlc.md, Frames), written here for the bench */
uint16_t fcrc(uint16_t s, unsigned x)
{
    for (int i = 3; i >= 0; i--) {
        unsigned top = (s >> 15) ^ ((x >> i) & 1u);
        s = (uint16_t)((s << 1) ^ (top ? 0x1021u : 0u));
    }
    return s;
}

unsigned fcrc_append(uint8_t *nib, unsigned k)
{
    uint16_t c = 0xFFFF;
    for (unsigned i = 0; i < k; i++)
        c = fcrc(c, nib[i]);
    for (int sh = 12; sh >= 0; sh -= 4)
        nib[k++] = (uint8_t)((c >> sh) & 15u);
    return k;
}

/* ------------------------------------------------------------------ counter preset mode */

uint32_t ctr_mask(const bench_t *b)
{
    return b->p[0].CTR_W >= 32 ? 0xFFFFFFFFu : (uint32_t)((1ull << b->p[0].CTR_W) - 1u);
}

void preset_draw(bench_t *b)
{
    rng_t r;
    rng_seed(&r, b->seed * 0xD6E8FEB86659FD93ull + 11);
    uint64_t top = (uint64_t)ctr_mask(b) + 1u;
    for (unsigned n = 0; n < 2; n++)
        for (unsigned k = 0; k < MLC_NCTR; k++) {
            uint32_t v = 0;
            if (b->preset_k && k < 15) {
                uint64_t j = 1u + rng_below(&r, b->preset_k);
                v = (uint32_t)((rng_pct(&r, 25) ? top / 2 : top) - j);
            }
            b->preset[n][k] = v;
            b->cnt[n][k] = v;
        }
}

void preset_apply(const bench_t *b, mlc_t *m0, mlc_t *m1, mlc_rtl_t *r)
{
    for (unsigned k = 0; k < 15; k++)
        for (unsigned n = 0; n < 2; n++) {
            mlc_t *m = n ? m1 : m0;
            if (m)
                mlc_ctr_preset(m, k, b->preset[n][k]);
            if (r)
                mlc_rtl_ctr_preset(r, n, k, b->preset[n][k]);
        }
}

void cov_see(bench_t *b, unsigned n, unsigned w, uint32_t v)
{
    b->seen1[n][w] |= v;
    b->seen0[n][w] |= ~v;
}
