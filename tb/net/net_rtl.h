/* sanfab — C interface to a Verilated generated network (net_rtl.cpp, built with Verilator's --prefix Vnet),
 * or to nothing (net_rtl_none.c) in model-only builds. One net_rtl_step() is one rising clock edge, with the
 * cycle contract of cmodel/net.h (docs/network.md "RTL network"). */
#ifndef SANFAB_NET_RTL_H
#define SANFAB_NET_RTL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct net_rtl net_rtl_t;

/* The build's figures: parameters the network was verilated with (-G) and its port counts. */
typedef struct {
    unsigned nhosts, nports;   /* host ports, switch ports in all (width of sw_tx / 9) */
    unsigned slack, stop, go, route_delay, timeout, cable_delay, host_delay;
    const char *variant;       /* build name: the run set, or MUTANT_<NAME> */
} net_rtl_info;

/* 1 if this build contains the RTL. */
int net_rtl_available(void);
/* The build's parameters and port counts (zeros in a model-only build). */
net_rtl_info net_rtl_get_info(void);
/* New instance held in reset for three edges; argv[0..argc) are Verilator run-time arguments. NULL if unavailable. */
net_rtl_t *net_rtl_new(int argc, const char *const *argv);
/* Frees an instance (closing its trace). */
void net_rtl_free(net_rtl_t *r);
/* One rising edge with from_host[h] (9-bit characters) on the host inputs; writes every switch output
 * sw_tx[port] (first port of switch s + p) and every host output to_host[h] as they are after the edge. */
void net_rtl_step(net_rtl_t *r, const uint16_t *from_host, uint16_t *sw_tx, uint16_t *to_host);
/* 1 once the RTL stopped itself (an assertion of a SANFAB_ASSERT build). */
int net_rtl_stopped(const net_rtl_t *r);
/* Starts a VCD of every following edge; 0 on success. */
int net_rtl_trace_open(net_rtl_t *r, const char *path);

#ifdef __cplusplus
}
#endif

#endif
