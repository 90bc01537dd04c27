/* sanfab — C interface to a Verilated generated network (net_rtl.cpp, built with Verilator's --prefix Vnet), or to
 * nothing (net_rtl_none.c) in model-only builds. One net_rtl_step() is one rising clock edge, with the cycle
 * contract of cmodel/net.h (docs/network.md "RTL network"). Words are the fabric's: a crossbar link's 9-bit
 * character (sideband 0), a VC link's packed flit (cmodel/vcsw_net.h) with its per-VC stop bits as the sideband, or a
 * Maestro link's symbol (cmodel/sbox_net.h: en << 8 | d, sideband 0). */
#ifndef SANFAB_NET_RTL_H
#define SANFAB_NET_RTL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct net_rtl net_rtl_t;

/* The build's figures: the switch kind, the parameters the network was verilated with (-G) and its port counts. */
typedef struct {
    const char *kind;          /* "xbar", "vcsw" or "sbox" ("" in a model-only build) */
    unsigned nhosts, nports, nsw; /* host ports, switch ports in all, switches */
    /* xbar */
    unsigned slack, stop, go, route_delay, timeout, cable_delay, host_delay; /* sbox: timeout (TIMEOUT) too */
    /* sbox (and link_delay, LINK_DELAY, below) */
    unsigned link_w, fifo_bytes, turn, ctr_w;
    /* vcsw */
    unsigned nvc, ctrl, flit_w, tag_w, depth, maxlen, link_delay, counters, ctr_width;
    const char *variant;       /* build name: the run set, or MUTANT_<NAME> */
} net_rtl_info;

/* 1 if this build contains the RTL. */
int net_rtl_available(void);
/* The build's kind, parameters and port counts (zeros in a model-only build). */
net_rtl_info net_rtl_get_info(void);
/* New instance held in reset for three edges, host inputs idle; argv[0..argc) are Verilator run-time arguments.
 * NULL if unavailable. */
net_rtl_t *net_rtl_new(int argc, const char *const *argv);
/* Frees an instance (closing its trace). */
void net_rtl_free(net_rtl_t *r);
/* One rising edge with host h sending from_fwd[h] (and, VC network, its stop bits from_back[h]); writes every switch
 * output (switch port i = first port of switch s + p) sw_fwd[i] and sw_back[i] (its stop bits towards its sender;
 * 0 for the crossbar) and what reaches every host, to_fwd[h] and to_back[h], as they are after the edge. */
void net_rtl_step(net_rtl_t *r, const uint64_t *from_fwd, const uint64_t *from_back, uint64_t *sw_fwd, uint64_t *sw_back,
                  uint64_t *to_fwd, uint64_t *to_back);
/* VC network: one rising edge with the host inputs idle and switch s's configuration port writing wdata[s] at
 * addr[s] when we[s]; -1 for a network without configuration ports. */
int net_rtl_cfg_step(net_rtl_t *r, const uint8_t *we, const uint16_t *addr, const uint16_t *wdata);
/* Maestro network: box s's register port inputs of the following edges (rd[s], wr[s], addr[s], wdata[s]; they stay
 * until set again); -1 for a network without register ports. */
int net_rtl_reg_in(net_rtl_t *r, const uint8_t *rd, const uint8_t *wr, const uint16_t *addr, const uint16_t *wdata);
/* Maestro network: box s's register port outputs after the last edge (rvalid[s], rdata[s]); -1 without them. */
int net_rtl_reg_out(const net_rtl_t *r, uint8_t *rvalid, uint32_t *rdata);
/* Reset: rst high for three edges, host inputs idle (the VC switches keep their tables). */
void net_rtl_reset(net_rtl_t *r);
/* 1 once the RTL stopped itself (an assertion of a SANFAB_ASSERT build). */
int net_rtl_stopped(const net_rtl_t *r);
/* Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (time
 * 10 cycle + 5 ns: tb/common/vrtl.h); once per instance. 0 on success, -1 if it cannot be written. */
int net_rtl_trace_open(net_rtl_t *r, const char *path, uint64_t cycle);

/* Closes the VCD (if open); range gets the first and last cycle it holds. 1 if it holds any. */
int net_rtl_trace_close(net_rtl_t *r, uint64_t range[2]);

#ifdef __cplusplus
}
#endif

#endif
