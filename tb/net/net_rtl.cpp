// sanfab — Verilator glue of a generated network (sanfab-netgen), verilated with --prefix Vnet. The
// parameters and port counts come as NET_* macros (the same values passed to Verilator as -G).
#include "net_rtl.h"

#include "../common/vrtl.h"
#include "Vnet.h"

#include <cstdint>
#include <vector>

#ifndef NET_VARIANT
#define NET_VARIANT ""
#endif

struct net_rtl : vrtl<Vnet> {
    std::vector<uint32_t> in_w, out_w, host_w;
};

static void pack(std::vector<uint32_t> &w, const uint16_t *c, unsigned n)
{
    for (auto &x : w)
        x = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned b = 0; b < 9; b++)
            if ((c[i] >> b) & 1u) {
                unsigned bit = i * 9 + b;
                w[bit / 32] |= 1u << (bit % 32);
            }
}

static void unpack(const std::vector<uint32_t> &w, uint16_t *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned v = 0;
        for (unsigned b = 0; b < 9; b++) {
            unsigned bit = i * 9 + b;
            v |= ((w[bit / 32] >> (bit % 32)) & 1u) << b;
        }
        c[i] = (uint16_t)v;
    }
}

extern "C" {

int net_rtl_available(void) { return 1; }

net_rtl_info net_rtl_get_info(void)
{
    net_rtl_info i;
    i.nhosts = NET_NHOSTS;
    i.nports = NET_NPORTS;
    i.slack = NET_SLACK_DEPTH;
    i.stop = NET_STOP_THRESH;
    i.go = NET_GO_THRESH;
    i.route_delay = NET_ROUTE_DELAY;
    i.timeout = NET_TIMEOUT;
    i.cable_delay = NET_CABLE_DELAY;
    i.host_delay = NET_HOST_DELAY;
    i.variant = NET_VARIANT;
    return i;
}

net_rtl_t *net_rtl_new(int argc, const char *const *argv)
{
    net_rtl *r = new net_rtl;
    vrtl_open(*r, "net_bench", argc, argv);
    // room for two more words than the bus needs: put_bits/get_bits of an integer port touch two words
    r->in_w.assign((NET_NHOSTS * 9 + 31) / 32 + 2, 0);
    r->host_w.assign((NET_NHOSTS * 9 + 31) / 32 + 2, 0);
    r->out_w.assign((NET_NPORTS * 9 + 31) / 32 + 2, 0);
    std::vector<uint16_t> idle(NET_NHOSTS, 0x100);
    pack(r->in_w, idle.data(), NET_NHOSTS);
    put_bits(r->top->from_host, r->in_w.data());
    vrtl_reset(*r);
    return r;
}

void net_rtl_free(net_rtl_t *r)
{
    if (!r)
        return;
    vrtl_close(*r);
    delete r;
}

void net_rtl_step(net_rtl_t *r, const uint16_t *from_host, uint16_t *sw_tx, uint16_t *to_host)
{
    pack(r->in_w, from_host, NET_NHOSTS);
    put_bits(r->top->from_host, r->in_w.data());
    vrtl_tick(*r);
    get_bits(r->top->sw_tx, r->out_w.data());
    unpack(r->out_w, sw_tx, NET_NPORTS);
    get_bits(r->top->to_host, r->host_w.data());
    unpack(r->host_w, to_host, NET_NHOSTS);
}

int net_rtl_stopped(const net_rtl_t *r) { return vrtl_stopped(*r); }

int net_rtl_trace_open(net_rtl_t *r, const char *path) { return vrtl_trace_open(*r, path); }

} // extern "C"
