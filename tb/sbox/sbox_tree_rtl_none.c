/* sanfab — the model-only build of the switch-box tree bench (mk/sbox.mk's sbox_tree_SAN_C, under
 * ASan/UBSan): no RTL inside, linked instead of the Verilated glue sbox_tree_rtl.cpp; the bench runs the
 * two model boxes alone (--mode model) with the parameters and B's up port of its command line
 * (--PORTS N ..., --UP N; defaults docs/sbox.md's and 0). */
#include "sbox_tree_rtl.h"

#include <string.h>

int sbox_tree_rtl_available(void) { return 0; }
sbox_params_t sbox_tree_rtl_params(void)
{
    const sbox_params_t p = {8, 16, 4, 2048, 1, 1024, 16, 0, 0};
    return p;
}
unsigned sbox_tree_rtl_up(void) { return 0; }
const char *sbox_tree_rtl_variant(void) { return "model-only"; }
sbox_tree_rtl_t *sbox_tree_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void sbox_tree_rtl_free(sbox_tree_rtl_t *r) { (void)r; }
void sbox_tree_rtl_step(sbox_tree_rtl_t *r, const sbox_in_t in[2], sbox_out_t out[2])
{
    (void)r;
    (void)in;
    memset(out, 0, 2 * sizeof *out);
}
void sbox_tree_rtl_reset(sbox_tree_rtl_t *r, sbox_out_t out[2])
{
    (void)r;
    memset(out, 0, 2 * sizeof *out);
}
void sbox_tree_rtl_ctr_preset(sbox_tree_rtl_t *r, unsigned j, unsigned i, uint64_t v)
{
    (void)r;
    (void)j;
    (void)i;
    (void)v;
}
int sbox_tree_rtl_stopped(const sbox_tree_rtl_t *r) { return r != NULL; }
int sbox_tree_rtl_trace_open(sbox_tree_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int sbox_tree_rtl_trace_close(sbox_tree_rtl_t *r, uint64_t range[2])
{
    (void)r;
    range[0] = range[1] = 0;
    return 0;
}
