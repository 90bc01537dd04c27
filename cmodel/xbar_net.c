/* sanfab — the crossbar as a fabric switch (xbar_net.h): the glue between net_switch_ops and xbar.h. */
#include "xbar_net.h"

#include "link.h"
#include "xbar.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    xbar_t *m;
    unsigned n;
    xbar_in_t in;
    xbar_out_t out;
} xsw_t;

static void *xsw_create(const void *params, unsigned sw, unsigned nports, char *err, size_t errlen)
{
    (void)sw; /* every crossbar of a network has the same parameters: routes travel in the packets */
    xbar_params_t p = params ? *(const xbar_params_t *)params : xbar_default_params();
    p.NPORTS = nports < 2 ? 2 : nports;
    const char *why = xbar_params_check(&p);
    if (why) {
        snprintf(err, errlen, "crossbar with %u ports: %s", nports, why);
        return NULL;
    }
    xsw_t *s = calloc(1, sizeof *s);
    if (!s || !(s->m = xbar_new(&p))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->n = nports;
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++)
        s->in.rx[i] = CH_IDLE;
    return s;
}

static void xsw_step(void *sw, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd, uint64_t *out_back)
{
    (void)in_back;
    xsw_t *s = sw;
    const unsigned n = s->n;
    for (unsigned i = 0; i < n; i++)
        s->in.rx[i] = (uint16_t)in_fwd[i];
    xbar_step(s->m, &s->in, &s->out);
    for (unsigned i = 0; i < n; i++) {
        out_fwd[i] = s->out.tx[i];
        out_back[i] = 0;
    }
}

static void xsw_destroy(void *sw)
{
    xsw_t *s = sw;
    if (s)
        xbar_free(s->m);
    free(s);
}

static uint64_t xsw_counter(const void *sw, unsigned port, unsigned ctr)
{
    const xsw_t *s = sw;
    return port < s->n ? xbar_counter(s->m, port, ctr) : 0;
}

static int xsw_quiet(const void *sw) { return xbar_quiet(((const xsw_t *)sw)->m); }

static void xsw_skip(void *sw, uint64_t n) { xbar_skip(((xsw_t *)sw)->m, n); }

const net_switch_ops net_xbar_ops = {
    .name = "xbar",
    .idle_word = CH_IDLE,
    .nctr = XBAR_NCTR,
    .create = xsw_create,
    .step = xsw_step,
    .destroy = xsw_destroy,
    .counter = xsw_counter,
    .counter_name = xbar_counter_name,
    .ctr_timeout = XBAR_CTR_DROP_TIMEOUT,
    .quiet = xsw_quiet,
    .skip = xsw_skip,
};
