// sanfab — Verilator wrapper exposing the Maestro switch box RTL (rtl/sbox/sbox.v) through sbox_rtl.h.
// The parameters come at build time as SB_* macros (the values given to Verilator as -G).
#include "sbox_rtl.h"

#include "vrtl.h"
#include "sbox_rtl_io.h"
#include "Vsbox.h"
#include "Vsbox___024root.h"

#include <cstdint>
#include <cstring>

#ifndef SB_PORTS
#define SB_PORTS 8
#endif
#ifndef SB_NODES
#define SB_NODES 16
#endif
#ifndef SB_LINK_W
#define SB_LINK_W 4
#endif
#ifndef SB_FIFO_BYTES
#define SB_FIFO_BYTES 2048
#endif
#ifndef SB_TURN
#define SB_TURN 1
#endif
#ifndef SB_TIMEOUT
#define SB_TIMEOUT 1024
#endif
#ifndef SB_CTR_W
#define SB_CTR_W 16
#endif
#ifndef SB_LINK_DELAY
#define SB_LINK_DELAY 0
#endif
#ifndef SB_MASTER_MASK
#define SB_MASTER_MASK 0
#endif
#ifndef SB_VARIANT
#define SB_VARIANT ""
#endif

struct sbox_rtl : vrtl<Vsbox> {};

extern "C" {

sbox_params_t sbox_rtl_params(void)
{
    sbox_params_t p;
    std::memset(&p, 0, sizeof p);
    p.PORTS = SB_PORTS;
    p.NODES = SB_NODES;
    p.LINK_W = SB_LINK_W;
    p.FIFO_BYTES = SB_FIFO_BYTES;
    p.TURN = SB_TURN;
    p.TIMEOUT = SB_TIMEOUT;
    p.CTR_W = SB_CTR_W;
    p.MASTER_MASK = SB_MASTER_MASK;
    p.LINK_DELAY = SB_LINK_DELAY;
    return p;
}

const char *sbox_rtl_variant(void) { return SB_VARIANT; }
int sbox_rtl_available(void) { return 1; }

static void drive(sbox_rtl_t *r, const sbox_in_t *in)
{
    Vsbox *t = r->top;
    sbox_io_drive(SB_PORTS, SB_LINK_W, in, t->rx_en, t->rx_d, t->reg_rd, t->reg_wr, t->reg_addr, t->reg_wdata);
}

static void sample(sbox_rtl_t *r, sbox_out_t *out)
{
    Vsbox *t = r->top;
    sbox_io_sample(SB_PORTS, SB_LINK_W, out, t->tx_en, t->tx_d, t->reg_rvalid, t->reg_rdata);
}

sbox_rtl_t *sbox_rtl_new(int argc, const char *const *argv)
{
    sbox_rtl_t *r = new sbox_rtl;
    vrtl_open(*r, "sbox_bench", argc, argv);
    sbox_in_t idle;
    std::memset(&idle, 0, sizeof idle);
    drive(r, &idle);
    vrtl_reset(*r); // the last of its edges is step 0
    return r;
}

void sbox_rtl_free(sbox_rtl_t *r)
{
    if (!r)
        return;
    vrtl_close(*r);
    delete r;
}

int sbox_rtl_stopped(const sbox_rtl_t *r) { return vrtl_stopped(*r); }

int sbox_rtl_trace_open(sbox_rtl_t *r, const char *path, uint64_t cycle) { return vrtl_trace_open(*r, path, cycle); }

int sbox_rtl_trace_close(sbox_rtl_t *r, uint64_t range[2]) { return vrtl_trace_close(*r, range); }

void sbox_rtl_reset(sbox_rtl_t *r, sbox_out_t *out)
{
    sbox_in_t idle;
    std::memset(&idle, 0, sizeof idle);
    drive(r, &idle);
    vrtl_reset_step(*r);
    sample(r, out);
}

void sbox_rtl_ctr_preset(sbox_rtl_t *r, unsigned i, uint64_t v)
{
    // the backdoor: rtl/sbox/sbox_regs.v's ctr_q is public_flat_rw (a metacomment synthesis does not see)
    if (i < 8)
        r->top->rootp->sbox__DOT__u_regs__DOT__ctr_q[i] = v & ((SB_CTR_W >= 64) ? ~0ull : (1ull << SB_CTR_W) - 1u);
}

void sbox_rtl_step(sbox_rtl_t *r, const sbox_in_t *in, sbox_out_t *out)
{
    drive(r, in);
    vrtl_tick(*r);
    sample(r, out);
}

} // extern "C"
