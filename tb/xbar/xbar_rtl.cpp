// sanfab — Verilator wrapper exposing the crossbar RTL through the C interface of xbar_rtl.h.
// The parameters are given at build time as XB_* macros (the same values passed to Verilator).
#include "xbar_rtl.h"

#include "vrtl.h"
#include "Vxbar.h"
#include "Vxbar___024root.h"

#include <cstdint>

#ifndef XB_VARIANT
#define XB_VARIANT ""
#endif

struct xbar_rtl : vrtl<Vxbar> {};

// 32-bit words of the packed ports: rx and tx (9 bits per port), stat_occ (8 bits per port)
static const unsigned LINK_WORDS = (XB_NPORTS * 9 + 31) / 32;
static const unsigned OCC_WORDS = (XB_NPORTS * 8 + 31) / 32;
static_assert(XB_NPORTS >= 2 && XB_NPORTS <= XBAR_MAX_PORTS, "NPORTS out of the model's range");

extern "C" {

int xbar_rtl_available(void) { return 1; }

xbar_params_t xbar_rtl_params(void)
{
    xbar_params_t p;
    p.NPORTS = XB_NPORTS;
    p.SLACK_DEPTH = XB_SLACK_DEPTH;
    p.STOP_THRESH = XB_STOP_THRESH;
    p.GO_THRESH = XB_GO_THRESH;
    p.ROUTE_DELAY = XB_ROUTE_DELAY;
    p.LINK_DELAY = XB_LINK_DELAY;
    p.TIMEOUT = XB_TIMEOUT;
    p.COUNTERS = XB_COUNTERS;
    p.CTR_WIDTH = XB_CTR_WIDTH;
    return p;
}

const char *xbar_rtl_variant(void) { return XB_VARIANT; }

xbar_rtl_t *xbar_rtl_new(int argc, const char *const *argv)
{
    xbar_rtl_t *r = new xbar_rtl;
    vrtl_open(*r, "xbar_bench", argc, argv);
    r->top->reg_rd = 0;
    r->top->reg_addr = 0;
    uint32_t w[LINK_WORDS + 1] = {0}; // (+1: put_bits of an integer port reads two words)
    for (unsigned p = 0; p < XB_NPORTS; p++) {
        unsigned bit = p * 9;
        for (unsigned b = 0; b < 9; b++)
            if ((0x100u >> b) & 1u) /* IDLE = 0x100 */
                w[(bit + b) / 32] |= 1u << ((bit + b) % 32);
    }
    put_bits(r->top->rx, w);
    vrtl_reset(*r);
    return r;
}

void xbar_rtl_reset(xbar_rtl_t *r)
{
    r->top->reg_rd = 0;
    vrtl_reset(*r);
}

void xbar_rtl_free(xbar_rtl_t *r)
{
    if (!r)
        return;
    vrtl_close(*r);
    delete r;
}

int xbar_rtl_stopped(const xbar_rtl_t *r) { return vrtl_stopped(*r); }

int xbar_rtl_trace_open(xbar_rtl_t *r, const char *path, uint64_t cycle) { return vrtl_trace_open(*r, path, cycle); }

int xbar_rtl_trace_close(xbar_rtl_t *r, uint64_t range[2]) { return vrtl_trace_close(*r, range); }

void xbar_rtl_step(xbar_rtl_t *r, const xbar_in_t *in, xbar_out_t *out)
{
    uint32_t w[LINK_WORDS + 1] = {0}; // (+1: put_bits of an integer port reads two words)
    for (unsigned p = 0; p < XB_NPORTS; p++) {
        unsigned bit = p * 9;
        for (unsigned b = 0; b < 9; b++)
            if ((in->rx[p] >> b) & 1u)
                w[(bit + b) / 32] |= 1u << ((bit + b) % 32);
    }
    put_bits(r->top->rx, w);
    r->top->reg_rd = in->reg_rd;
    r->top->reg_addr = in->reg_addr & ((1u << XBAR_ADDR_BITS(XB_NPORTS)) - 1u); // the port's width
    vrtl_tick(*r);
    uint32_t o[LINK_WORDS + 1] = {0};
    get_bits(r->top->tx, o);
    for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
        out->tx[p] = 0x100;
    for (unsigned p = 0; p < XB_NPORTS; p++) {
        unsigned bit = p * 9, v = 0;
        for (unsigned b = 0; b < 9; b++)
            v |= ((o[(bit + b) / 32] >> ((bit + b) % 32)) & 1u) << b;
        out->tx[p] = (uint16_t)v;
    }
    out->reg_rvalid = r->top->reg_rvalid;
    out->reg_rdata = r->top->reg_rdata;
    uint32_t so[OCC_WORDS + 1] = {0};
    get_bits(r->top->stat_occ, so);
    for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
        out->stat_occ[p] = p < XB_NPORTS ? (uint8_t)(so[p / 4] >> (8 * (p % 4))) : 0;
}

void xbar_rtl_ctr_preset(xbar_rtl_t *r, unsigned slot, uint32_t value)
{
#if XB_COUNTERS
    // the counter RAM of rtl/common/ctr_bank.v (`mem`, /* verilator public_flat_rw */), hierarchical name
    // xbar.g_ctr.u_ctr.u_bank.mem; its words are BANK_W bits (rtl/xbar/xbar_counters.v)
    const unsigned ns = XB_NPORTS * XBAR_NCTR;
    unsigned lw = 0;
    while ((1u << lw) < ns + 2)
        lw++;
    const unsigned bank_w = XB_CTR_WIDTH > lw ? XB_CTR_WIDTH : lw + 1;
    const uint32_t mask = bank_w >= 32 ? 0xFFFFFFFFu : (1u << bank_w) - 1u;
    auto &mem = r->top->rootp->xbar__DOT__g_ctr__DOT__u_ctr__DOT__u_bank__DOT__mem;
    if (slot < ns)
        mem[slot] = (uint32_t)((mem[slot] + value) & mask);
#else
    (void)r, (void)slot, (void)value;
#endif
}

} // extern "C"
