/* sanfab — the VC switch as a fabric switch (vcsw_net.h): the glue between net_switch_ops and vcsw.h. */
#include "vcsw_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    vcsw_t *m;
    unsigned n, nvc;
    vcsw_in_t in;
    vcsw_out_t out;
} vsw_t;

static void *vsw_create(const void *params, unsigned sw, unsigned nports, char *err, size_t errlen)
{
    const vcsw_net_params_t *np = params;
    vcsw_params_t p = np ? np->p : vcsw_default_params();
    p.NPORTS = nports < 2 ? 2 : nports;
    const char *why = vcsw_params_check(&p);
    if (why) {
        snprintf(err, errlen, "VC switch with %u ports: %s", nports, why);
        return NULL;
    }
    const vcsw_tables_t *tab = NULL;
    if (np && np->tables) {
        if (sw >= np->tables->switches) {
            snprintf(err, errlen, "the tables have %u switches, no switch %u", np->tables->switches, sw);
            return NULL;
        }
        tab = &np->tables->sw[sw];
    }
    vsw_t *s = calloc(1, sizeof *s);
    if (!s || !(s->m = vcsw_new(&p))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->n = nports;
    s->nvc = p.NVC;
    /* the tables through the configuration port, one write a step, then the reset that keeps them */
    if (tab && tab->nwrites) {
        vcsw_in_t in;
        memset(&in, 0, sizeof in);
        in.cfg_we = 1;
        for (size_t i = 0; i < tab->nwrites; i++) {
            in.cfg_addr = tab->writes[i].addr;
            in.cfg_wdata = tab->writes[i].wdata;
            vcsw_step(s->m, &in, &s->out);
        }
        vcsw_reset(s->m);
    }
    memset(&s->in, 0, sizeof s->in);
    return s;
}

static void vsw_step(void *sw, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd, uint64_t *out_back)
{
    vsw_t *s = sw;
    const unsigned n = s->n;
    for (unsigned i = 0; i < n; i++) {
        s->in.rx[i] = vcsw_net_flit(in_fwd[i]);
        s->in.tx_stop[i] = (uint16_t)in_back[i];
    }
    vcsw_step(s->m, &s->in, &s->out);
    for (unsigned i = 0; i < n; i++) {
        out_fwd[i] = vcsw_net_word(&s->out.tx[i]);
        out_back[i] = s->out.rx_stop[i];
    }
}

static void vsw_destroy(void *sw)
{
    vsw_t *s = sw;
    if (s)
        vcsw_free(s->m);
    free(s);
}

/* a port's counter: the sum over its VCs */
static uint64_t vsw_counter(const void *sw, unsigned port, unsigned ctr)
{
    const vsw_t *s = sw;
    uint64_t t = 0;
    if (port < s->n)
        for (unsigned v = 0; v < s->nvc; v++)
            t += vcsw_counter(s->m, port, v, ctr);
    return t;
}

static int vsw_quiet(const void *sw) { return vcsw_quiet(((const vsw_t *)sw)->m); }

static void vsw_skip(void *sw, uint64_t n) { vcsw_skip(((vsw_t *)sw)->m, n); }

const net_switch_ops net_vcsw_ops = {
    .name = "vcsw",
    .idle_word = 0,
    .nctr = VCSW_NCTR,
    .create = vsw_create,
    .step = vsw_step,
    .destroy = vsw_destroy,
    .counter = vsw_counter,
    .counter_name = vcsw_counter_name,
    .ctr_timeout = -1,
    .quiet = vsw_quiet,
    .skip = vsw_skip,
};
