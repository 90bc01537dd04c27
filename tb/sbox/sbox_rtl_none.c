/* sanfab — the model-only build of the switch-box bench (mk/sbox.mk's sbox_SAN_C, under ASan/UBSan): no
 * RTL inside, linked instead of the Verilated glue sbox_rtl.cpp; the bench runs the model alone
 * (--mode model) with the parameters of its command line (--PORTS N ...; defaults docs/sbox.md's). */
#include "sbox_rtl.h"

#include <string.h>

int sbox_rtl_available(void) { return 0; }
sbox_params_t sbox_rtl_params(void)
{
    const sbox_params_t p = {8, 16, 4, 2048, 1, 1024, 16, 0, 0};
    return p;
}
const char *sbox_rtl_variant(void) { return "model-only"; }
sbox_rtl_t *sbox_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void sbox_rtl_free(sbox_rtl_t *r) { (void)r; }
void sbox_rtl_step(sbox_rtl_t *r, const sbox_in_t *in, sbox_out_t *out)
{
    (void)r;
    (void)in;
    memset(out, 0, sizeof *out);
}
void sbox_rtl_reset(sbox_rtl_t *r, sbox_out_t *out)
{
    (void)r;
    memset(out, 0, sizeof *out);
}
void sbox_rtl_ctr_preset(sbox_rtl_t *r, unsigned i, uint64_t v)
{
    (void)r;
    (void)i;
    (void)v;
}
int sbox_rtl_stopped(const sbox_rtl_t *r) { return r != NULL; }
int sbox_rtl_trace_open(sbox_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int sbox_rtl_trace_close(sbox_rtl_t *r, uint64_t range[2])
{
    (void)r;
    range[0] = range[1] = 0;
    return 0;
}
