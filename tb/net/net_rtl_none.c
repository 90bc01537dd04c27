/* sanfab — model-only build of the network bench: no RTL (net_rtl.h). */
#include "net_rtl.h"

#include <stddef.h>
#include <string.h>

int net_rtl_available(void) { return 0; }
net_rtl_info net_rtl_get_info(void)
{
    net_rtl_info i;
    memset(&i, 0, sizeof i);
    i.kind = "";
    i.variant = "model-only";
    return i;
}
net_rtl_t *net_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void net_rtl_free(net_rtl_t *r) { (void)r; }
void net_rtl_step(net_rtl_t *r, const uint64_t *from_fwd, const uint64_t *from_back, uint64_t *sw_fwd, uint64_t *sw_back,
                  uint64_t *to_fwd, uint64_t *to_back)
{
    (void)r;
    (void)from_fwd;
    (void)from_back;
    (void)sw_fwd;
    (void)sw_back;
    (void)to_fwd;
    (void)to_back;
}
int net_rtl_cfg_step(net_rtl_t *r, const uint8_t *we, const uint16_t *addr, const uint16_t *wdata)
{
    (void)r;
    (void)we;
    (void)addr;
    (void)wdata;
    return -1;
}
int net_rtl_reg_in(net_rtl_t *r, const uint8_t *rd, const uint8_t *wr, const uint16_t *addr, const uint16_t *wdata)
{
    (void)r;
    (void)rd;
    (void)wr;
    (void)addr;
    (void)wdata;
    return -1;
}
int net_rtl_reg_out(const net_rtl_t *r, uint8_t *rvalid, uint32_t *rdata)
{
    (void)r;
    (void)rvalid;
    (void)rdata;
    return -1;
}
void net_rtl_reset(net_rtl_t *r) { (void)r; }
int net_rtl_stopped(const net_rtl_t *r)
{
    (void)r;
    return 0;
}
int net_rtl_trace_open(net_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int net_rtl_trace_close(net_rtl_t *r, uint64_t range[2])
{
    (void)r;
    range[0] = range[1] = 0;
    return 0;
}
