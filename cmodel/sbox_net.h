/* sanfab — the Maestro switch box (cmodel/sbox.h) as a switch of the network fabric (cmodel/net.h).
 *
 * Forward word of a port: one link symbol as the MLC drives it, SBOX_NET_EN | tx_d (0 = the port does not
 * drive its link: the idle word). A Maestro link is half duplex: each end puts its own word into the fabric
 * and the far end sees it as its rx_en/rx_d, LINK_DELAY cycles later (docs/mlc.md, The link: a fabric link
 * of delay D is exactly the MLC link model with D cable registers). The sideband is unused (0). A link is
 * busy in a cycle whose word drives it (net_set_busy_mask(n, SBOX_NET_EN, SBOX_NET_EN)).
 *
 * Each box's destination table and up port come from sbox_net_box (made from a `sanfab-maestro 1` file
 * and the tree, sanfab-sim's Maestro network). The box resets with its table invalid (docs/sbox.md), so
 * the adapter writes it through the register port in the network's first cycles, one write a cycle:
 * sbox_net_reg_in() gives the register inputs of every cycle, the same for the C network and the RTL
 * network's bench. Nothing can reach a box's analyzer that early: a message's first unit alone is 40
 * symbols on the link. Master ports: each box's up port (so a tree link has its master at the child box),
 * the nodes' MLCs (the NICs) are masters of their links, every other box port is a slave. */
#ifndef SANFAB_SBOX_NET_H
#define SANFAB_SBOX_NET_H

#include "net.h"
#include "sbox.h"

#define SBOX_NET_EN 0x100u /* forward word: the port drives its link; bits 7..0 the symbol */

/* One box of a Maestro network: its destination table (port of node d, -1 invalid) and its up port (-1: none,
 * the root). */
typedef struct {
    int port[SBOX_MAX_NODES];
    int up;
} sbox_net_box;

/* Parameters of a Maestro network: every box's (PORTS replaced by its own port count, at least 2; MASTER_MASK by
 * its up port's bit; LINK_DELAY the links' delay, the same on every link), the number of boxes and each one's
 * table (NULL: every table invalid and no up port, nothing is forwarded). */
typedef struct {
    sbox_params_t p;
    unsigned nboxes;
    const sbox_net_box *boxes;
} sbox_net_params_t;

/* Cycles of table loading at the start of a run: one write per node entry, then the up port. */
#define SBOX_NET_LOAD_CYCLES (SBOX_MAX_NODES + 1u)

/* The register port inputs of box `b` (NULL: no table) in network cycle `cycle` (1 = the first net_step): entry
 * cycle-1 in cycles 1..16, the up port in cycle 17, nothing after. Writes reg_* of *in, clears the rest. */
void sbox_net_reg_in(const sbox_net_box *b, uint64_t cycle, sbox_in_t *in);

/* The forward word of a port's link output (en, symbol). */
static inline uint64_t sbox_net_word(unsigned en, unsigned d) { return en ? SBOX_NET_EN | (d & 0xFFu) : 0u; }

/* The Maestro switch-box kind: params is an sbox_net_params_t (required). Counters: the port's MLC's (MLC_CTR_*, 0..15),
 * then the box's own (16 + SBOX_CTR_*, reported on port 0; 0 on the other ports). */
extern const net_switch_ops net_sbox_ops;

#endif
