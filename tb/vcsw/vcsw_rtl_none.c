/* sanfab — model-only builds of the VC switch bench: no RTL inside (the sanitizer builds). */
#include "vcsw_rtl.h"

#include <stddef.h>

int vcsw_rtl_available(void) { return 0; }
vcsw_params_t vcsw_rtl_params(void) { return vcsw_default_params(); }
const char *vcsw_rtl_variant(void) { return "none"; }
vcsw_rtl_t *vcsw_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void vcsw_rtl_free(vcsw_rtl_t *r) { (void)r; }
void vcsw_rtl_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out)
{
    (void)r;
    (void)in;
    (void)out;
}
void vcsw_rtl_reset_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out)
{
    (void)r;
    (void)in;
    (void)out;
}
void vcsw_rtl_ctr_add(vcsw_rtl_t *r, unsigned slot, uint32_t add)
{
    (void)r;
    (void)slot;
    (void)add;
}
int vcsw_rtl_stopped(const vcsw_rtl_t *r)
{
    (void)r;
    return 0;
}
int vcsw_rtl_trace_open(vcsw_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int vcsw_rtl_trace_close(vcsw_rtl_t *r, uint64_t range[2])
{
    (void)r;
    range[0] = range[1] = 0;
    return 0;
}
