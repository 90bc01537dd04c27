// sanfab — Verilator wrapper exposing the VC switch RTL through the C interface of vcsw_rtl.h.
// The parameters come at build time as VC_* macros (the values given to Verilator as -G).
#include "vcsw_rtl.h"

#include "vrtl.h"
#include "Vvcsw.h"
#include "Vvcsw___024root.h"

#include <cstdint>
#include <cstring>

#ifndef VC_VARIANT
#define VC_VARIANT ""
#endif

static constexpr unsigned vcw_of(unsigned n) { return n <= 1 ? 0 : 1 + vcw_of(n / 2); }
static constexpr unsigned VCW = vcw_of(VC_NVC);
static constexpr unsigned WORDS = 16; // 512 bits: the widest port (NPORTS * FLIT_W <= 16 * 32)

struct vcsw_rtl : vrtl<Vvcsw> {};

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
    vrtl_open(*r, "vcsw_bench", argc, argv);
    vcsw_in_t idle;
    std::memset(&idle, 0, sizeof idle);
    drive(r, &idle);
    vrtl_reset(*r); // the last of its edges is step 0
    return r;
}

void vcsw_rtl_free(vcsw_rtl_t *r)
{
    if (!r)
        return;
    vrtl_close(*r);
    delete r;
}

void vcsw_rtl_ctr_add(vcsw_rtl_t *r, unsigned slot, uint32_t add)
{
#if VC_COUNTERS
    // ctr_bank's counter RAM (rtl/common/ctr_bank.v, `mem` is public_flat_rw for this backdoor)
    auto &mem = r->top->rootp->vcsw__DOT__u_cfg__DOT__g_ctr__DOT__u_bank__DOT__mem;
    const uint64_t mask = VC_CTR_WIDTH >= 32 ? 0xFFFFFFFFull : (1ull << VC_CTR_WIDTH) - 1u;
    if (slot < VC_NPORTS * VC_NVC * 8u)
        mem[slot] = (uint32_t)((mem[slot] + (uint64_t)add) & mask);
#else
    (void)r;
    (void)slot;
    (void)add;
#endif
}

int vcsw_rtl_stopped(const vcsw_rtl_t *r) { return vrtl_stopped(*r); }

int vcsw_rtl_trace_open(vcsw_rtl_t *r, const char *path, uint64_t cycle) { return vrtl_trace_open(*r, path, cycle); }

int vcsw_rtl_trace_close(vcsw_rtl_t *r, uint64_t range[2]) { return vrtl_trace_close(*r, range); }

static void sample(vcsw_rtl_t *r, vcsw_out_t *out)
{
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

void vcsw_rtl_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out)
{
    drive(r, in);
    vrtl_tick(*r);
    sample(r, out);
}

void vcsw_rtl_reset_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out)
{
    drive(r, in);
    vrtl_reset_step(*r);
    sample(r, out);
}

} // extern "C"
