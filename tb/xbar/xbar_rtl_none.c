/* sanfab — model-only builds: no RTL inside (used for the sanitizer builds of the bench). */
#include "xbar_rtl.h"

#include <stddef.h>

int xbar_rtl_available(void) { return 0; }
xbar_params_t xbar_rtl_params(void) { return xbar_default_params(); }
const char *xbar_rtl_variant(void) { return "none"; }
xbar_rtl_t *xbar_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void xbar_rtl_free(xbar_rtl_t *r) { (void)r; }
void xbar_rtl_reset(xbar_rtl_t *r) { (void)r; }
void xbar_rtl_ctr_preset(xbar_rtl_t *r, unsigned slot, uint32_t value)
{
    (void)r;
    (void)slot;
    (void)value;
}
void xbar_rtl_step(xbar_rtl_t *r, const xbar_in_t *in, xbar_out_t *out)
{
    (void)r;
    (void)in;
    (void)out;
}
int xbar_rtl_stopped(const xbar_rtl_t *r)
{
    (void)r;
    return 0;
}
int xbar_rtl_trace_open(xbar_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int xbar_rtl_trace_close(xbar_rtl_t *r, uint64_t range[2])
{
    (void)r;
    range[0] = range[1] = 0;
    return 0;
}
