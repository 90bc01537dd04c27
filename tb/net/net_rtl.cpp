// sanfab — Verilator glue of a generated network (sanfab-netgen), verilated with --prefix Vnet. The kind
// (NET_KIND_VCSW for a VC network, NET_KIND_SBOX for a Maestro network, else the crossbar's), the parameters and
// the port counts come as NET_* macros (the same values passed to Verilator as -G).
#include "net_rtl.h"

#include "vrtl.h"
#include "Vnet.h"

#include <cstdint>
#include <cstring>
#include <vector>

#ifndef NET_VARIANT
#define NET_VARIANT ""
#endif

// a flat bus of n fields of w bits each, as 32-bit words (two more than it needs: put_bits/get_bits of an
// integer port touch two words)
struct bus {
    unsigned n = 0, w = 0;
    std::vector<uint32_t> x;
    void init(unsigned nn, unsigned ww)
    {
        n = nn;
        w = ww;
        x.assign((n * w + 31) / 32 + 2, 0);
    }
    void set(unsigned i, uint64_t v)
    {
        for (unsigned b = 0; b < w; b++) {
            const unsigned bit = i * w + b;
            if ((v >> b) & 1u)
                x[bit / 32] |= 1u << (bit % 32);
            else
                x[bit / 32] &= ~(1u << (bit % 32));
        }
    }
    uint64_t get(unsigned i) const
    {
        uint64_t v = 0;
        for (unsigned b = 0; b < w; b++) {
            const unsigned bit = i * w + b;
            v |= (uint64_t)((x[bit / 32] >> (bit % 32)) & 1u) << b;
        }
        return v;
    }
    uint32_t *data() { return x.data(); }
};

#ifdef NET_KIND_VCSW
// a flit's fields on the buses of one direction, packed as the fabric's word (cmodel/vcsw_net.h), every field
// kept as it is (an idle flit whose other fields are not 0 differs from the C model's idle word 0)
struct flitbus {
    bus valid, vc, tail, data, stop;
    void init(unsigned n)
    {
        unsigned vcw = 0;
        while ((1u << vcw) < NET_NVC)
            vcw++;
        valid.init(n, 1);
        vc.init(n, vcw);
        tail.init(n, 1);
        data.init(n, NET_FLIT_W);
        stop.init(n, NET_NVC);
    }
    void put(unsigned i, uint64_t f, uint64_t b)
    {
        valid.set(i, (f >> 40) & 1u);
        vc.set(i, (f >> 32) & 15u);
        tail.set(i, (f >> 39) & 1u);
        data.set(i, (uint32_t)f);
        stop.set(i, b);
    }
    void take(unsigned i, uint64_t *f, uint64_t *b) const
    {
        *f = valid.get(i) << 40 | tail.get(i) << 39 | vc.get(i) << 32 | data.get(i);
        *b = stop.get(i);
    }
};
#endif

#ifdef NET_KIND_SBOX
// a Maestro link's symbols on the en and d buses of one direction, as the fabric's word en << 8 | d (cmodel/sbox_net.h;
// d kept as it is when en is 0: an idle port driving a symbol differs from the C model's idle word 0)
struct linkbus {
    bus en, d;
    void init(unsigned n)
    {
        en.init(n, 1);
        d.init(n, NET_LINK_W);
    }
    void put(unsigned i, uint64_t w)
    {
        en.set(i, (w >> 8) & 1u);
        d.set(i, w);
    }
    uint64_t take(unsigned i) const { return en.get(i) << 8 | d.get(i); }
};
#endif

struct net_rtl : vrtl<Vnet> {
#ifdef NET_KIND_VCSW
    flitbus from, to, sw;
    bus we, addr, wdata;
#elif defined(NET_KIND_SBOX)
    linkbus from, to, sw;
    bus rd, wr, addr, wdata, rvalid, rdata;
#else
    bus from, to, sw;
#endif
};

static void put_hosts(net_rtl *r)
{
#ifdef NET_KIND_VCSW
    put_bits(r->top->from_host_valid, r->from.valid.data());
    put_bits(r->top->from_host_vc, r->from.vc.data());
    put_bits(r->top->from_host_tail, r->from.tail.data());
    put_bits(r->top->from_host_data, r->from.data.data());
    put_bits(r->top->from_host_stop, r->from.stop.data());
#elif defined(NET_KIND_SBOX)
    put_bits(r->top->from_host_en, r->from.en.data());
    put_bits(r->top->from_host_d, r->from.d.data());
#else
    put_bits(r->top->from_host, r->from.data());
#endif
}

static void idle_hosts(net_rtl *r)
{
    for (unsigned h = 0; h < NET_NHOSTS; h++)
#ifdef NET_KIND_VCSW
        r->from.put(h, 0, 0);
#elif defined(NET_KIND_SBOX)
        r->from.put(h, 0);
#else
        r->from.set(h, 0x100);
#endif
    put_hosts(r);
}

#ifdef NET_KIND_SBOX
static void put_regs(net_rtl *r)
{
    put_bits(r->top->reg_rd, r->rd.data());
    put_bits(r->top->reg_wr, r->wr.data());
    put_bits(r->top->reg_addr, r->addr.data());
    put_bits(r->top->reg_wdata, r->wdata.data());
}
#endif

extern "C" {

int net_rtl_available(void) { return 1; }

net_rtl_info net_rtl_get_info(void)
{
    net_rtl_info i;
    std::memset(&i, 0, sizeof i);
    i.nhosts = NET_NHOSTS;
    i.nports = NET_NPORTS;
    i.nsw = NET_NSW;
#ifdef NET_KIND_VCSW
    i.kind = "vcsw";
    i.nvc = NET_NVC;
    i.ctrl = NET_CTRL;
    i.flit_w = NET_FLIT_W;
    i.tag_w = NET_TAG_W;
    i.depth = NET_DEPTH;
    i.maxlen = NET_MAXLEN;
    i.link_delay = NET_LINK_DELAY;
    i.counters = NET_COUNTERS;
    i.ctr_width = NET_CTR_WIDTH;
#elif defined(NET_KIND_SBOX)
    i.kind = "sbox";
    i.link_w = NET_LINK_W;
    i.fifo_bytes = NET_FIFO_BYTES;
    i.turn = NET_TURN;
    i.timeout = NET_TIMEOUT;
    i.ctr_w = NET_CTR_W;
    i.link_delay = NET_LINK_DELAY;
#else
    i.kind = "xbar";
    i.slack = NET_SLACK_DEPTH;
    i.stop = NET_STOP_THRESH;
    i.go = NET_GO_THRESH;
    i.route_delay = NET_ROUTE_DELAY;
    i.timeout = NET_TIMEOUT;
    i.cable_delay = NET_CABLE_DELAY;
    i.host_delay = NET_HOST_DELAY;
#endif
    i.variant = NET_VARIANT;
    return i;
}

net_rtl_t *net_rtl_new(int argc, const char *const *argv)
{
    net_rtl *r = new net_rtl;
    vrtl_open(*r, "net_bench", argc, argv);
#ifdef NET_KIND_VCSW
    r->from.init(NET_NHOSTS);
    r->to.init(NET_NHOSTS);
    r->sw.init(NET_NPORTS);
    r->we.init(NET_NSW, 1);
    r->addr.init(NET_NSW, 16);
    r->wdata.init(NET_NSW, 16);
    put_bits(r->top->cfg_we, r->we.data());
    put_bits(r->top->cfg_addr, r->addr.data());
    put_bits(r->top->cfg_wdata, r->wdata.data());
#elif defined(NET_KIND_SBOX)
    r->from.init(NET_NHOSTS);
    r->to.init(NET_NHOSTS);
    r->sw.init(NET_NPORTS);
    r->rd.init(NET_NSW, 1);
    r->wr.init(NET_NSW, 1);
    r->addr.init(NET_NSW, 9);
    r->wdata.init(NET_NSW, 16);
    r->rvalid.init(NET_NSW, 1);
    r->rdata.init(NET_NSW, 32);
    put_regs(r);
#else
    r->from.init(NET_NHOSTS, 9);
    r->to.init(NET_NHOSTS, 9);
    r->sw.init(NET_NPORTS, 9);
#endif
    idle_hosts(r);
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

void net_rtl_step(net_rtl_t *r, const uint64_t *from_fwd, const uint64_t *from_back, uint64_t *sw_fwd, uint64_t *sw_back,
                  uint64_t *to_fwd, uint64_t *to_back)
{
    for (unsigned h = 0; h < NET_NHOSTS; h++)
#ifdef NET_KIND_VCSW
        r->from.put(h, from_fwd[h], from_back[h]);
#elif defined(NET_KIND_SBOX)
        r->from.put(h, from_fwd[h]);
    (void)from_back;
#else
        r->from.set(h, from_fwd[h]);
    (void)from_back;
#endif
    put_hosts(r);
    vrtl_tick(*r);
#ifdef NET_KIND_VCSW
    get_bits(r->top->sw_tx_valid, r->sw.valid.data());
    get_bits(r->top->sw_tx_vc, r->sw.vc.data());
    get_bits(r->top->sw_tx_tail, r->sw.tail.data());
    get_bits(r->top->sw_tx_data, r->sw.data.data());
    get_bits(r->top->sw_rx_stop, r->sw.stop.data());
    get_bits(r->top->to_host_valid, r->to.valid.data());
    get_bits(r->top->to_host_vc, r->to.vc.data());
    get_bits(r->top->to_host_tail, r->to.tail.data());
    get_bits(r->top->to_host_data, r->to.data.data());
    get_bits(r->top->to_host_stop, r->to.stop.data());
    for (unsigned i = 0; i < NET_NPORTS; i++)
        r->sw.take(i, &sw_fwd[i], &sw_back[i]);
    for (unsigned h = 0; h < NET_NHOSTS; h++)
        r->to.take(h, &to_fwd[h], &to_back[h]);
#elif defined(NET_KIND_SBOX)
    get_bits(r->top->sw_tx_en, r->sw.en.data());
    get_bits(r->top->sw_tx_d, r->sw.d.data());
    get_bits(r->top->to_host_en, r->to.en.data());
    get_bits(r->top->to_host_d, r->to.d.data());
    get_bits(r->top->reg_rvalid, r->rvalid.data());
    get_bits(r->top->reg_rdata, r->rdata.data());
    for (unsigned i = 0; i < NET_NPORTS; i++) {
        sw_fwd[i] = r->sw.take(i);
        sw_back[i] = 0;
    }
    for (unsigned h = 0; h < NET_NHOSTS; h++) {
        to_fwd[h] = r->to.take(h);
        to_back[h] = 0;
    }
#else
    get_bits(r->top->sw_tx, r->sw.data());
    get_bits(r->top->to_host, r->to.data());
    for (unsigned i = 0; i < NET_NPORTS; i++) {
        sw_fwd[i] = r->sw.get(i);
        sw_back[i] = 0;
    }
    for (unsigned h = 0; h < NET_NHOSTS; h++) {
        to_fwd[h] = r->to.get(h);
        to_back[h] = 0;
    }
#endif
}

int net_rtl_cfg_step(net_rtl_t *r, const uint8_t *we, const uint16_t *addr, const uint16_t *wdata)
{
#ifdef NET_KIND_VCSW
    for (unsigned s = 0; s < NET_NSW; s++) {
        r->we.set(s, we[s] ? 1 : 0);
        r->addr.set(s, addr[s]);
        r->wdata.set(s, wdata[s]);
    }
    put_bits(r->top->cfg_we, r->we.data());
    put_bits(r->top->cfg_addr, r->addr.data());
    put_bits(r->top->cfg_wdata, r->wdata.data());
    idle_hosts(r);
    vrtl_tick(*r);
    for (unsigned s = 0; s < NET_NSW; s++)
        r->we.set(s, 0);
    put_bits(r->top->cfg_we, r->we.data());
    return 0;
#else
    (void)r;
    (void)we;
    (void)addr;
    (void)wdata;
    return -1;
#endif
}

int net_rtl_reg_in(net_rtl_t *r, const uint8_t *rd, const uint8_t *wr, const uint16_t *addr, const uint16_t *wdata)
{
#ifdef NET_KIND_SBOX
    for (unsigned s = 0; s < NET_NSW; s++) {
        r->rd.set(s, rd[s] ? 1 : 0);
        r->wr.set(s, wr[s] ? 1 : 0);
        r->addr.set(s, addr[s]);
        r->wdata.set(s, wdata[s]);
    }
    put_regs(r);
    return 0;
#else
    (void)r;
    (void)rd;
    (void)wr;
    (void)addr;
    (void)wdata;
    return -1;
#endif
}

int net_rtl_reg_out(const net_rtl_t *r, uint8_t *rvalid, uint32_t *rdata)
{
#ifdef NET_KIND_SBOX
    for (unsigned s = 0; s < NET_NSW; s++) {
        rvalid[s] = (uint8_t)r->rvalid.get(s);
        rdata[s] = (uint32_t)r->rdata.get(s);
    }
    return 0;
#else
    (void)r;
    (void)rvalid;
    (void)rdata;
    return -1;
#endif
}

void net_rtl_reset(net_rtl_t *r)
{
    idle_hosts(r);
    vrtl_reset(*r);
}

int net_rtl_stopped(const net_rtl_t *r) { return vrtl_stopped(*r); }

int net_rtl_trace_open(net_rtl_t *r, const char *path, uint64_t cycle) { return vrtl_trace_open(*r, path, cycle); }

int net_rtl_trace_close(net_rtl_t *r, uint64_t range[2]) { return vrtl_trace_close(*r, range); }

} // extern "C"
