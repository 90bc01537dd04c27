/* sanfab — the VC switch (cmodel/vcsw.h) as a switch of the network fabric (cmodel/net.h).
 *
 * Forward word: a packed flit, VCSW_NET_VALID | tail << 39 | vc << 32 | data (0 = no flit, the idle word).
 * Backward sideband word of a port: the 16 per-VC stop bits (bit v = VC v) the switch sends towards the
 * sender on that port (its rx_stop); what arrives on a port's sideband is the receiver's stop bits for the
 * switch's output on that port (its tx_stop). A link is busy in a cycle that carries a flit
 * (net_set_busy_mask(n, VCSW_NET_VALID, VCSW_NET_VALID)).
 *
 * The cable of a link is inside the switches: every switch runs with LINK_DELAY = the link delay (its
 * Go & Stop threshold STOP_AT counts it, docs/vcsw.md), and the fabric's links of a VC network have delay 0.
 * Each switch's routing and VC tables come from one `sanfab-rhinet` file (vcsw_load_network): create()
 * writes switch sw's entries through the configuration port, one per step, then resets the model (the
 * tables are RAM and survive the reset), so every switch starts at step 0 with its tables, as an RTL
 * switch loaded before its reset does. */
#ifndef SANFAB_VCSW_NET_H
#define SANFAB_VCSW_NET_H

#include "net.h"
#include "vcsw.h"
#include "vcsw_load.h"

#define VCSW_NET_VALID (1ull << 40)
#define VCSW_NET_TAIL (1ull << 39)
#define VCSW_NET_VC_SHIFT 32

/* The forward word of a flit (0 when it is not valid). */
static inline uint64_t vcsw_net_word(const vcsw_flit_t *f)
{
    return f->valid ? VCSW_NET_VALID | (f->tail ? VCSW_NET_TAIL : 0) | (uint64_t)(f->vc & 15u) << VCSW_NET_VC_SHIFT |
                          (uint64_t)f->data
                    : 0;
}

/* The flit of a forward word. */
static inline vcsw_flit_t vcsw_net_flit(uint64_t w)
{
    vcsw_flit_t f = {0, 0, 0, 0};
    if (w & VCSW_NET_VALID) {
        f.valid = 1;
        f.tail = (w & VCSW_NET_TAIL) ? 1 : 0;
        f.vc = (uint8_t)((w >> VCSW_NET_VC_SHIFT) & 15u);
        f.data = (uint32_t)w;
    }
    return f;
}

/* Parameters of a VC network: every switch's (NPORTS replaced by its own port count, at least 2) and the
 * tables of every switch (NULL: every table invalid, nothing is forwarded). */
typedef struct {
    vcsw_params_t p;
    const vcsw_net_tables_t *tables;
} vcsw_net_params_t;

/* The VC switch kind: params is a vcsw_net_params_t. */
extern const net_switch_ops net_vcsw_ops;

#endif
