// sanfab — Verilator wrapper exposing the VC switch RTL through the C interface of vcsw_rtl.h.
// The parameters come at build time as VC_* macros (the values given to Verilator as -G).
#include "vcsw_rtl.h"

#include "Vvcsw.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include <cstdint>
#include <cstring>

#ifndef VC_VARIANT
#define VC_VARIANT ""
#endif

static constexpr unsigned vcw_of(unsigned n) { return n <= 1 ? 0 : 1 + vcw_of(n / 2); }
static constexpr unsigned VCW = vcw_of(VC_NVC);
static constexpr unsigned WORDS = 16; // 512 bits: the widest port (NPORTS * FLIT_W <= 16 * 32)

struct vcsw_rtl {
    VerilatedContext *ctx;
    Vvcsw *top;
    VerilatedVcdC *vcd;
    uint64_t time;
};

// Verilator keeps ports of up to 64 bits in integers and wider ones in VlWide arrays.
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

static void set_field(uint32_t *w, unsigned pos, unsigned width, uint32_t v)
{
    for (unsigned b = 0; b < width; b++)
        if ((v >> b) & 1u)
            w[(pos + b) / 32] |= 1u << ((pos + b) % 32);
}
static uint32_t get_field(const uint32_t *w, unsigned pos, unsigned width)
{
    uint32_t v = 0;
    for (unsigned b = 0; b < width; b++)
        v |= ((w[(pos + b) / 32] >> ((pos + b) % 32)) & 1u) << b;
    return v;
}

extern "C" {

int vcsw_rtl_available(void) { return 1; }

vcsw_params_t vcsw_rtl_params(void)
{
    vcsw_params_t p;
    p.NPORTS = VC_NPORTS;
    p.NVC = VC_NVC;
    p.CTRL = VC_CTRL;
    p.FLIT_W = VC_FLIT_W;
    p.TAG_W = VC_TAG_W;
    p.DEPTH = VC_DEPTH;
    p.MAXLEN = VC_MAXLEN;
    p.LINK_DELAY = VC_LINK_DELAY;
    p.COUNTERS = VC_COUNTERS;
    p.CTR_WIDTH = VC_CTR_WIDTH;
    return p;
}

const char *vcsw_rtl_variant(void) { return VC_VARIANT; }

static void tick(vcsw_rtl_t *r)
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

static void drive(vcsw_rtl_t *r, const vcsw_in_t *in)
{
    uint32_t valid[WORDS] = {0}, vc[WORDS] = {0}, tail[WORDS] = {0}, data[WORDS] = {0}, stop[WORDS] = {0};
    for (unsigned p = 0; p < VC_NPORTS; p++) {
        const vcsw_flit_t &f = in->rx[p];
        set_field(valid, p, 1, f.valid & 1u);
        set_field(vc, p * VCW, VCW, f.vc);
        set_field(tail, p, 1, f.tail & 1u);
        set_field(data, p * VC_FLIT_W, VC_FLIT_W, f.data);
        set_field(stop, p * VC_NVC, VC_NVC, in->tx_stop[p]);
    }
    put_bits(r->top->rx_valid, valid);
    put_bits(r->top->rx_vc, vc);
    put_bits(r->top->rx_tail, tail);
    put_bits(r->top->rx_data, data);
    put_bits(r->top->tx_stop, stop);
    r->top->cfg_we = in->cfg_we & 1u;
    r->top->cfg_re = in->cfg_re & 1u;
    r->top->cfg_addr = in->cfg_addr;
    r->top->cfg_wdata = in->cfg_wdata;
}

vcsw_rtl_t *vcsw_rtl_new(int argc, const char *const *argv)
{
    vcsw_rtl_t *r = new vcsw_rtl;
    r->ctx = new VerilatedContext;
    // Verilator's run-time options for this context, seen before the model draws its initial values
    const char *args[66];
    int na = 0;
    args[na++] = "vcsw_bench";
    for (int i = 0; i < argc && na < 65; i++)
        args[na++] = argv[i];
    args[na] = nullptr;
    r->ctx->commandArgs(na, args);
    r->ctx->traceEverOn(true);
    // an assertion's $stop ends the run through vcsw_rtl_stopped() (with the replay line), not abort()
    r->ctx->fatalOnError(false);
    r->top = new Vvcsw{r->ctx};
    r->vcd = nullptr;
    r->time = 0;
    vcsw_in_t idle;
    std::memset(&idle, 0, sizeof idle);
    drive(r, &idle);
    r->top->rst = 1;
    for (int k = 0; k < 3; k++)
        tick(r); // the last of these edges is step 0
    r->top->rst = 0;
    return r;
}

void vcsw_rtl_free(vcsw_rtl_t *r)
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

int vcsw_rtl_stopped(const vcsw_rtl_t *r) { return r->ctx->gotError() || r->ctx->gotFinish(); }

int vcsw_rtl_trace_open(vcsw_rtl_t *r, const char *path)
{
    if (r->vcd)
        return 0;
    r->vcd = new VerilatedVcdC;
    r->top->trace(r->vcd, 99);
    r->vcd->open(path);
    return r->vcd->isOpen() ? 0 : -1;
}

void vcsw_rtl_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out)
{
    drive(r, in);
    tick(r);
    uint32_t valid[WORDS] = {0}, vc[WORDS] = {0}, tail[WORDS] = {0}, data[WORDS] = {0}, stop[WORDS] = {0};
    get_bits(r->top->tx_valid, valid);
    get_bits(r->top->tx_vc, vc);
    get_bits(r->top->tx_tail, tail);
    get_bits(r->top->tx_data, data);
    get_bits(r->top->rx_stop, stop);
    std::memset(out, 0, sizeof *out);
    for (unsigned p = 0; p < VC_NPORTS; p++) {
        vcsw_flit_t &f = out->tx[p];
        f.valid = (uint8_t)get_field(valid, p, 1);
        f.vc = (uint8_t)get_field(vc, p * VCW, VCW);
        f.tail = (uint8_t)get_field(tail, p, 1);
        f.data = get_field(data, p * VC_FLIT_W, VC_FLIT_W);
        out->rx_stop[p] = (uint16_t)get_field(stop, p * VC_NVC, VC_NVC);
    }
    out->cfg_rvalid = r->top->cfg_rvalid;
    out->cfg_rdata = r->top->cfg_rdata;
}

} // extern "C"
