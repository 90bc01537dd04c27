/* sanfab — model-only build of the network bench: no RTL (net_rtl.h). */
#include "net_rtl.h"

#include <stddef.h>

int net_rtl_available(void) { return 0; }
net_rtl_info net_rtl_get_info(void)
{
    net_rtl_info i = {0, 0, 0, 0, 0, 0, 0, 0, 0, "model-only"};
    return i;
}
net_rtl_t *net_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void net_rtl_free(net_rtl_t *r) { (void)r; }
void net_rtl_step(net_rtl_t *r, const uint16_t *from_host, uint16_t *sw_tx, uint16_t *to_host)
{
    (void)r;
    (void)from_host;
    (void)sw_tx;
    (void)to_host;
}
int net_rtl_stopped(const net_rtl_t *r)
{
    (void)r;
    return 0;
}
int net_rtl_trace_open(net_rtl_t *r, const char *path)
{
    (void)r;
    (void)path;
    return -1;
}
