/* sanfab — VC switch bench: packets and the end-to-end scoreboard (vcsw_bench_sb.c), over vcsw_bench_base.h. */
#ifndef SANFAB_VCSW_BENCH_SB_H
#define SANFAB_VCSW_BENCH_SB_H

#include "vcsw_bench_base.h"

/* The data of flit i of source src's packet k (head, identifying flit 1, hashed body, checksum last). */
uint32_t sb_flit_data(const bench_t *b, unsigned src, const pkt_t *k, unsigned i);
/* A new packet of source src (tag, len flits) in its ring, or NULL when the ring is full. */
pkt_t *sb_new_packet(bench_t *b, unsigned src, unsigned tag, unsigned len);
/* The fate of a head with tag on input p, VC v from the shadow tables: delivered on (o, u) or dropped. */
void sb_route(const bench_t *b, unsigned p, unsigned v, unsigned tag, uint8_t *fate, uint8_t *o, uint8_t *u);
/* Flit i of packet k of source src, sent on input p in this step: predicts the head's fate, counts events. */
void sb_flit_in(bench_t *b, unsigned p, const vcsw_flit_t *f, unsigned src, pkt_t *k, unsigned i);
/* A flit that left on output o in this step: matched to its packet at once (a mismatch fails the run). */
void sb_flit_out(bench_t *b, unsigned o, const vcsw_flit_t *f);
/* Is nothing expected any more (every packet sent delivered, dropped or accounted)? */
int sb_idle(const bench_t *b);
/* A test reset: the packets inside the switch are gone with it. */
void sb_reset(bench_t *b);
/* The final accounting per source, against the counters read out at the end. */
void sb_final(bench_t *b);

#endif
