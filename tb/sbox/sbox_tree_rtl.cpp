// sanfab — Verilator wrapper exposing the two-box tree top (tb/sbox/sbox_tree.v) through sbox_tree_rtl.h.
// The parameters come at build time as ST_* macros (the values given to Verilator as -G); the copy of
// each box's ports is the one-box glue's (sbox_rtl_io.h).
#include "sbox_tree_rtl.h"

#include "vrtl.h"
#include "Vsbox_tree.h"
#include "Vsbox_tree___024root.h"
#include "sbox_rtl_io.h"

#include <cstdint>
#include <cstring>

#ifndef ST_PORTS
#define ST_PORTS 8
#endif
#ifndef ST_NODES
#define ST_NODES 16
#endif
#ifndef ST_LINK_W
#define ST_LINK_W 4
#endif
#ifndef ST_FIFO_BYTES
#define ST_FIFO_BYTES 2048
#endif
#ifndef ST_TURN
#define ST_TURN 1
#endif
#ifndef ST_TIMEOUT
#define ST_TIMEOUT 1024
#endif
#ifndef ST_CTR_W
#define ST_CTR_W 16
#endif
#ifndef ST_LINK_DELAY
#define ST_LINK_DELAY 0
#endif
#ifndef ST_UP_B
#define ST_UP_B 0
#endif
#ifndef ST_VARIANT
#define ST_VARIANT ""
#endif

struct sbox_tree_rtl : vrtl<Vsbox_tree> {};

extern "C" {

sbox_params_t sbox_tree_rtl_params(void)
{
    sbox_params_t p;
    std::memset(&p, 0, sizeof p);
    p.PORTS = ST_PORTS;
    p.NODES = ST_NODES;
    p.LINK_W = ST_LINK_W;
    p.FIFO_BYTES = ST_FIFO_BYTES;
    p.TURN = ST_TURN;
    p.TIMEOUT = ST_TIMEOUT;
    p.CTR_W = ST_CTR_W;
    p.MASTER_MASK = 0;
    p.LINK_DELAY = ST_LINK_DELAY;
    return p;
}

unsigned sbox_tree_rtl_up(void) { return ST_UP_B; }

const char *sbox_tree_rtl_variant(void) { return ST_VARIANT; }
int sbox_tree_rtl_available(void) { return 1; }

static void drive(sbox_tree_rtl_t *r, const sbox_in_t in[2])
{
    Vsbox_tree *t = r->top;
    sbox_io_drive(ST_PORTS, ST_LINK_W, &in[0], t->a_rx_en, t->a_rx_d, t->a_reg_rd, t->a_reg_wr, t->a_reg_addr,
                  t->a_reg_wdata);
    sbox_io_drive(ST_PORTS, ST_LINK_W, &in[1], t->b_rx_en, t->b_rx_d, t->b_reg_rd, t->b_reg_wr, t->b_reg_addr,
                  t->b_reg_wdata);
}

static void sample(sbox_tree_rtl_t *r, sbox_out_t out[2])
{
    Vsbox_tree *t = r->top;
    sbox_io_sample(ST_PORTS, ST_LINK_W, &out[0], t->a_tx_en, t->a_tx_d, t->a_reg_rvalid, t->a_reg_rdata);
    sbox_io_sample(ST_PORTS, ST_LINK_W, &out[1], t->b_tx_en, t->b_tx_d, t->b_reg_rvalid, t->b_reg_rdata);
}

sbox_tree_rtl_t *sbox_tree_rtl_new(int argc, const char *const *argv)
{
    sbox_tree_rtl_t *r = new sbox_tree_rtl;
    vrtl_open(*r, "sbox_tree_bench", argc, argv);
    sbox_in_t idle[2];
    std::memset(idle, 0, sizeof idle);
    drive(r, idle);
    vrtl_reset(*r); // the last of its edges is step 0
    return r;
}

void sbox_tree_rtl_free(sbox_tree_rtl_t *r)
{
    if (!r)
        return;
    vrtl_close(*r);
    delete r;
}

int sbox_tree_rtl_stopped(const sbox_tree_rtl_t *r) { return vrtl_stopped(*r); }

int sbox_tree_rtl_trace_open(sbox_tree_rtl_t *r, const char *path, uint64_t cycle) { return vrtl_trace_open(*r, path, cycle); }

int sbox_tree_rtl_trace_close(sbox_tree_rtl_t *r, uint64_t range[2]) { return vrtl_trace_close(*r, range); }

void sbox_tree_rtl_reset(sbox_tree_rtl_t *r, sbox_out_t out[2])
{
    sbox_in_t idle[2];
    std::memset(idle, 0, sizeof idle);
    drive(r, idle);
    vrtl_reset_step(*r);
    sample(r, out);
}

void sbox_tree_rtl_ctr_preset(sbox_tree_rtl_t *r, unsigned j, unsigned i, uint64_t v)
{
    // the backdoor: rtl/sbox/sbox_regs.v's ctr_q is public_flat_rw (a metacomment synthesis does not see)
    const uint64_t m = (ST_CTR_W >= 64) ? ~0ull : (1ull << ST_CTR_W) - 1u;
    if (i >= 8)
        return;
    if (j == 0)
        r->top->rootp->sbox_tree__DOT__u_a__DOT__u_regs__DOT__ctr_q[i] = v & m;
    else
        r->top->rootp->sbox_tree__DOT__u_b__DOT__u_regs__DOT__ctr_q[i] = v & m;
}

void sbox_tree_rtl_step(sbox_tree_rtl_t *r, const sbox_in_t in[2], sbox_out_t out[2])
{
    drive(r, in);
    vrtl_tick(*r);
    sample(r, out);
}

} // extern "C"
