// sanfab — Verilator wrapper exposing the MLC pair RTL (rtl/mlc/mlc_pair.v) through mlc_rtl.h.
// The parameters come at build time as ML_* macros (the values given to Verilator as -G).
#include "mlc_rtl.h"

#include "vrtl.h"
#include "Vmlc_pair.h"
#include "Vmlc_pair___024root.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

#ifndef ML_LINK_W
#define ML_LINK_W 4
#endif
#ifndef ML_FIFO_BYTES
#define ML_FIFO_BYTES 2048
#endif
#ifndef ML_TURN
#define ML_TURN 1
#endif
#ifndef ML_TIMEOUT
#define ML_TIMEOUT 1024
#endif
#ifndef ML_CTR_W
#define ML_CTR_W 16
#endif
#ifndef ML_LINK_DELAY
#define ML_LINK_DELAY 0
#endif
#ifndef ML_VARIANT
#define ML_VARIANT ""
#endif

struct mlc_rtl : vrtl<Vmlc_pair> {};

// one counter of one end's ctr_q (public_flat_rw in rtl/mlc/mlc_regs.v): CData, SData or IData by CTR_W
template <typename A> static void ctr_put(A &a, unsigned ctr, uint32_t v)
{
    typedef typename std::remove_reference<decltype(a[0])>::type elem_t;
    a[ctr] = static_cast<elem_t>(v & (ML_CTR_W >= 32 ? 0xFFFFFFFFu : (1u << (ML_CTR_W % 32)) - 1u));
}

extern "C" {

mlc_params_t mlc_rtl_params(unsigned node)
{
    mlc_params_t p;
    p.LINK_W = ML_LINK_W;
    p.FIFO_BYTES = ML_FIFO_BYTES;
    p.TURN = ML_TURN;
    p.MASTER = node == 0 ? 1u : 0u;
    p.TIMEOUT = ML_TIMEOUT;
    p.CTR_W = ML_CTR_W;
    p.GUARD = 2u * ML_LINK_DELAY + 4u + ML_TURN; /* rtl/mlc/mlc_pair.v's slave guard, mlc_guard() */
    return p;
}

unsigned mlc_rtl_link_delay(void) { return ML_LINK_DELAY; }

const char *mlc_rtl_variant(void) { return ML_VARIANT; }

static void drive(mlc_rtl_t *r, const mlc_in_t in[2])
{
    Vmlc_pair *t = r->top;
    t->a_h_wr = in[0].h_wr & 1u;
    t->a_h_wch = in[0].h_wch & 1u;
    t->a_h_wdata = in[0].h_wdata;
    t->a_h_rd = in[0].h_rd & 1u;
    t->a_h_rch = in[0].h_rch & 1u;
    t->a_rx_en = in[0].rx_en & 1u;
    t->a_rx_d = in[0].rx_d;
    t->a_reg_rd = in[0].reg_rd & 1u;
    t->a_reg_wr = in[0].reg_wr & 1u;
    t->a_reg_addr = in[0].reg_addr & 31u;
    t->a_reg_wdata = in[0].reg_wdata;
    t->b_h_wr = in[1].h_wr & 1u;
    t->b_h_wch = in[1].h_wch & 1u;
    t->b_h_wdata = in[1].h_wdata;
    t->b_h_rd = in[1].h_rd & 1u;
    t->b_h_rch = in[1].h_rch & 1u;
    t->b_rx_en = in[1].rx_en & 1u;
    t->b_rx_d = in[1].rx_d;
    t->b_reg_rd = in[1].reg_rd & 1u;
    t->b_reg_wr = in[1].reg_wr & 1u;
    t->b_reg_addr = in[1].reg_addr & 31u;
    t->b_reg_wdata = in[1].reg_wdata;
}

static void sample(mlc_rtl_t *r, mlc_out_t out[2])
{
    Vmlc_pair *t = r->top;
    std::memset(out, 0, 2 * sizeof *out);
    out[0].tx_en = t->a_tx_en;
    out[0].tx_d = t->a_tx_d;
    out[0].h_rvalid = t->a_h_rvalid;
    out[0].h_rdata = t->a_h_rdata;
    out[0].st_tx_space[0] = t->a_st_tx_space0;
    out[0].st_tx_space[1] = t->a_st_tx_space1;
    out[0].st_rx_avail[0] = t->a_st_rx_avail0;
    out[0].st_rx_avail[1] = t->a_st_rx_avail1;
    out[0].reg_rvalid = t->a_reg_rvalid;
    out[0].reg_rdata = t->a_reg_rdata;
    out[1].tx_en = t->b_tx_en;
    out[1].tx_d = t->b_tx_d;
    out[1].h_rvalid = t->b_h_rvalid;
    out[1].h_rdata = t->b_h_rdata;
    out[1].st_tx_space[0] = t->b_st_tx_space0;
    out[1].st_tx_space[1] = t->b_st_tx_space1;
    out[1].st_rx_avail[0] = t->b_st_rx_avail0;
    out[1].st_rx_avail[1] = t->b_st_rx_avail1;
    out[1].reg_rvalid = t->b_reg_rvalid;
    out[1].reg_rdata = t->b_reg_rdata;
}

mlc_rtl_t *mlc_rtl_new(int argc, const char *const *argv)
{
    mlc_rtl_t *r = new mlc_rtl;
    vrtl_open(*r, "mlc_bench", argc, argv);
    mlc_in_t idle[2];
    std::memset(idle, 0, sizeof idle);
    drive(r, idle);
    vrtl_reset(*r); // the last of its edges is step 0
    return r;
}

void mlc_rtl_free(mlc_rtl_t *r)
{
    if (!r)
        return;
    vrtl_close(*r);
    delete r;
}

void mlc_rtl_ctr_preset(mlc_rtl_t *r, unsigned node, unsigned ctr, uint32_t v)
{
    if (ctr >= 15)
        return;
    if (node == 0)
        ctr_put(r->top->rootp->mlc_pair__DOT__u_a__DOT__u_regs__DOT__ctr_q, ctr, v);
    else
        ctr_put(r->top->rootp->mlc_pair__DOT__u_b__DOT__u_regs__DOT__ctr_q, ctr, v);
}

int mlc_rtl_stopped(const mlc_rtl_t *r) { return vrtl_stopped(*r); }

int mlc_rtl_trace_open(mlc_rtl_t *r, const char *path, uint64_t cycle) { return vrtl_trace_open(*r, path, cycle); }

int mlc_rtl_trace_close(mlc_rtl_t *r, uint64_t range[2]) { return vrtl_trace_close(*r, range); }

void mlc_rtl_reset_step(mlc_rtl_t *r, mlc_out_t out[2])
{
    mlc_in_t idle[2];
    std::memset(idle, 0, sizeof idle);
    drive(r, idle);
    vrtl_reset_step(*r);
    sample(r, out);
}

void mlc_rtl_step(mlc_rtl_t *r, const mlc_in_t in[2], mlc_out_t out[2])
{
    drive(r, in);
    vrtl_tick(*r);
    sample(r, out);
}

} // extern "C"
