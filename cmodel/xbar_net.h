/* sanfab — the crossbar (cmodel/xbar.h) as a switch of the network fabric (cmodel/net.h).
 *
 * Forward words are the crossbar's 9-bit link characters (cmodel/link.h); the sideband is unused (0):
 * STOP/GO travel as characters in the other direction. The idle word is CH_IDLE; a link is busy in a
 * cycle that carries a data character (net_set_busy_mask(n, XBAR_NET_BUSY_MASK, 0)). */
#ifndef SANFAB_XBAR_NET_H
#define SANFAB_XBAR_NET_H

#include "net.h"

/* The busy predicate of a crossbar link: (word & mask) == 0 is a data character. */
#define XBAR_NET_BUSY_MASK 0x100u

/* The crossbar kind: params is an xbar_params_t (NULL: the defaults) whose NPORTS is replaced by each
 * switch's own port count (at least 2); every switch of the network gets the same parameters. */
extern const net_switch_ops net_xbar_ops;

#endif
