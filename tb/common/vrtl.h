// sanfab — what every block's Verilator glue (tb/<block>/<block>_rtl.cpp) shares, header-only: a
// Verilated top in its own context (Verilator's run-time +arguments, assertions that stop the run
// instead of aborting), the clock, the reset, an on-request VCD, and the copy of port bits to and
// from Verilator's integers and VlWide arrays. Top is the Verilated class (Vxbar, Vvcsw): it has
// clk and rst inputs. All state is in the vrtl<Top> the caller owns.
//
// The VCD (docs/verification.md, "Waves"): opened at a bench cycle C by vrtl_trace_open(), it holds
// every following edge until vrtl_trace_close() (or vrtl_close()); timescale 1 ns, one cycle 10 ns:
// bench cycle c has clk low at time 10c and its rising edge at 10c + 5, so a time in GTKWave divided
// by 10 is the bench's cycle. With no VCD open a tick costs one pointer test.
#ifndef SANFAB_VRTL_H
#define SANFAB_VRTL_H

#include "verilated.h"
#include "verilated_vcd_c.h"

#include <cstddef>
#include <cstdint>

template <typename Top> struct vrtl {
    VerilatedContext *ctx;
    Top *top;
    VerilatedVcdC *vcd;
    uint64_t time;    // half clock periods since the model was built
    uint64_t vcycle;  // the bench cycle of the next edge while a VCD is open
    uint64_t vfirst;  // the first bench cycle written to the VCD
    uint64_t vn;      // cycles written to it
    int vdone;        // the VCD was opened once: it is never opened (overwritten) again
};

// Makes the context and the model: argv[0..argc) are Verilator's run-time arguments (+verilator+...)
// after the program name prog, seen before the model is built (which draws the initial values).
template <typename Top> static void vrtl_open(vrtl<Top> &r, const char *prog, int argc, const char *const *argv)
{
    r.ctx = new VerilatedContext;
    const char *args[66];
    int na = 0;
    args[na++] = prog;
    for (int i = 0; i < argc && na < 65; i++)
        args[na++] = argv[i];
    args[na] = nullptr;
    r.ctx->commandArgs(na, args);
    r.ctx->traceEverOn(true);
    // an assertion's $stop ends the run through <block>_rtl_stopped() (with the replay line), not abort()
    r.ctx->fatalOnError(false);
    r.top = new Top{r.ctx};
    r.vcd = nullptr;
    r.time = 0;
    r.vcycle = 0;
    r.vfirst = 0;
    r.vn = 0;
    r.vdone = 0;
}

// One rising clock edge (clk low, then high), each half dumped to the VCD if one is open (at
// 10 c and 10 c + 5 ns for bench cycle c).
template <typename Top> static void vrtl_tick(vrtl<Top> &r)
{
    r.top->clk = 0;
    r.top->eval();
    if (r.vcd)
        r.vcd->dump(r.vcycle * 10);
    r.time++;
    r.top->clk = 1;
    r.top->eval();
    if (r.vcd) {
        r.vcd->dump(r.vcycle * 10 + 5);
        r.vcycle++;
        r.vn++;
    }
    r.time++;
}

// Reset: rst high for three edges (the last of them is step 0), then low; the inputs as they are.
template <typename Top> static void vrtl_reset(vrtl<Top> &r)
{
    r.top->rst = 1;
    for (int k = 0; k < 3; k++)
        vrtl_tick(r);
    r.top->rst = 0;
}

// One bench step with rst high (a reset in the middle of a run: one edge), then rst low; the inputs as they are.
template <typename Top> static void vrtl_reset_step(vrtl<Top> &r)
{
    r.top->rst = 1;
    vrtl_tick(r);
    r.top->rst = 0;
}

// Closes the VCD if one is open; range[0..1] (may be NULL) get the first and last bench cycle it
// holds. Returns 1 when it holds at least one cycle, else 0 (also when none was opened).
template <typename Top> static int vrtl_trace_close(vrtl<Top> &r, uint64_t *range)
{
    if (r.vcd) {
        r.vcd->close();
        delete r.vcd;
        r.vcd = nullptr;
    }
    if (range) {
        range[0] = r.vfirst;
        range[1] = r.vn ? r.vfirst + r.vn - 1 : r.vfirst;
    }
    return r.vn > 0;
}

// Closes the VCD and frees the model and its context.
template <typename Top> static void vrtl_close(vrtl<Top> &r)
{
    vrtl_trace_close(r, nullptr);
    r.top->final();
    delete r.top;
    delete r.ctx;
}

// 1 once the RTL has stopped itself ($stop/$error of an assertion, or $finish).
template <typename Top> static int vrtl_stopped(const vrtl<Top> &r)
{
    return r.ctx->gotError() || r.ctx->gotFinish();
}

// Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (once;
// later calls do nothing); 0 on success, -1 when the file cannot be written.
template <typename Top> static int vrtl_trace_open(vrtl<Top> &r, const char *path, uint64_t cycle)
{
    if (r.vcd || r.vdone)
        return 0;
    r.vdone = 1;
    r.vcd = new VerilatedVcdC;
    r.vcd->set_time_unit("1ns");
    r.vcd->set_time_resolution("1ns");
    r.top->trace(r.vcd, 99);
    r.vcd->open(path);
    if (!r.vcd->isOpen()) {
        delete r.vcd;
        r.vcd = nullptr;
        return -1;
    }
    r.vcycle = r.vfirst = cycle;
    r.vn = 0;
    return 0;
}

// Verilator keeps ports of up to 64 bits in integers and wider ones in VlWide arrays: put_bits and
// get_bits copy a port from / to 32-bit words (two words for an integer port).
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

#endif
