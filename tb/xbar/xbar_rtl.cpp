// sanfab — Verilator wrapper exposing the crossbar RTL through the C interface of xbar_rtl.h.
// The parameters are given at build time as XB_* macros (the same values passed to Verilator).
#include "xbar_rtl.h"

#include "Vxbar.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include <cstdint>

#ifndef XB_VARIANT
#define XB_VARIANT ""
#endif

struct xbar_rtl {
    VerilatedContext *ctx;
    Vxbar *top;
    VerilatedVcdC *vcd;
    uint64_t time;
};

// Verilator stores ports of up to 8/16/32/64 bits in integers and wider ones in VlWide arrays.
template <typename T> static void put_bits(T &dst, const uint32_t *w) { dst = (T)(w[0] | ((uint64_t)w[1] << 32)); }
template <std::size_t N> static void put_bits(VlWide<N> &dst, const uint32_t *w)
{
    for (std::size_t k = 0; k < N; k++)
        dst[k] = w[k];
}
template <typename T> static void get_bits(const T &src, uint32_t *w)
{
    uint64_t v = (uint64_t)src;
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
}
template <std::size_t N> static void get_bits(const VlWide<N> &src, uint32_t *w)
{
    for (std::size_t k = 0; k < N; k++)
        w[k] = src[k];
}

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

static void tick(xbar_rtl_t *r)
{
    r->top->clk = 0;
    r->top->eval();
    if (r->vcd)
        r->vcd->dump(r->time);
    r->time++;
    r->top->clk = 1;
    r->top->eval();
    if (r->vcd)
        r->vcd->dump(r->time);
    r->time++;
}

xbar_rtl_t *xbar_rtl_new(int argc, const char *const *argv)
{
    xbar_rtl_t *r = new xbar_rtl;
    r->ctx = new VerilatedContext;
    // Verilator's own run-time options (+verilator+rand+reset+2 +verilator+seed+N ...) for this
    // context: they must be seen before the model is constructed, which draws the initial values
    const char *args[66];
    int na = 0;
    args[na++] = "xbar_bench";
    for (int i = 0; i < argc && na < 65; i++)
        args[na++] = argv[i];
    args[na] = nullptr;
    r->ctx->commandArgs(na, args);
    r->ctx->traceEverOn(true);
    // an assertion's $stop ends the run through xbar_rtl_stopped() (with the replay line), not abort()
    r->ctx->fatalOnError(false);
    r->top = new Vxbar{r->ctx};
    r->vcd = nullptr;
    r->time = 0;
    r->top->rst = 1;
    r->top->reg_rd = 0;
    r->top->reg_addr = 0;
    uint32_t w[8] = {0};
    for (unsigned p = 0; p < XB_NPORTS; p++) {
        unsigned bit = p * 9;
        for (unsigned b = 0; b < 9; b++)
            if ((0x100u >> b) & 1u) /* IDLE = 0x100 */
                w[(bit + b) / 32] |= 1u << ((bit + b) % 32);
    }
    put_bits(r->top->rx, w);
    for (int k = 0; k < 3; k++)
        tick(r);
    r->top->rst = 0;
    return r;
}

void xbar_rtl_free(xbar_rtl_t *r)
{
    if (!r)
        return;
    if (r->vcd) {
        r->vcd->close();
        delete r->vcd;
    }
    r->top->final();
    delete r->top;
    delete r->ctx;
    delete r;
}

int xbar_rtl_stopped(const xbar_rtl_t *r) { return r->ctx->gotError() || r->ctx->gotFinish(); }

int xbar_rtl_trace_open(xbar_rtl_t *r, const char *path)
{
    if (r->vcd)
        return 0;
    r->vcd = new VerilatedVcdC;
    r->top->trace(r->vcd, 99);
    r->vcd->open(path);
    return r->vcd->isOpen() ? 0 : -1;
}

void xbar_rtl_step(xbar_rtl_t *r, const xbar_in_t *in, xbar_out_t *out)
{
    uint32_t w[8] = {0};
    for (unsigned p = 0; p < XB_NPORTS; p++) {
        unsigned bit = p * 9;
        for (unsigned b = 0; b < 9; b++)
            if ((in->rx[p] >> b) & 1u)
                w[(bit + b) / 32] |= 1u << ((bit + b) % 32);
    }
    put_bits(r->top->rx, w);
    r->top->reg_rd = in->reg_rd;
    r->top->reg_addr = in->reg_addr;
    tick(r);
    uint32_t o[8] = {0};
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
    uint32_t so[4] = {0};
    get_bits(r->top->stat_occ, so);
    for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
        out->stat_occ[p] = p < XB_NPORTS ? (uint8_t)(so[p / 4] >> (8 * (p % 4))) : 0;
}

} // extern "C"
