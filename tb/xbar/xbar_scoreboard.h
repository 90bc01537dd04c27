/* sanfab — end-to-end packet scoreboard for source-routed (crossbar) traffic.
 *
 * Packets are made here (sb_make) from a source, a destination and its faults; the body carries the
 * source and a sequence number and deterministic payload bytes, so nothing but a small record is
 * stored per packet. Each packet received by a host (sb_receive) is checked: known, delivered
 * once, at the right destination, bytes unaltered, CRC-8 correct or marked bad exactly when it
 * should be. sb_finish() accounts for every packet made: delivered, or dropped for a named
 * reason that the switch counters must confirm.
 */
#ifndef SANFAB_XBAR_SCOREBOARD_H
#define SANFAB_XBAR_SCOREBOARD_H

#include <stdint.h>
#include <stdio.h>
#include "xbar_host.h"

#define SB_MAX_PORTS 64
#define SB_ID_LEN 4 /* body bytes 0..3: source, sequence number (24 bits) */

/* Faults of a packet, any combination of them (0: a good packet, delivered with a good CRC). What each
 * one does alone and what the counters show for a packet with several: docs/xbar.md, "Malformed
 * input, contained" and "Several faults in one packet". */
enum {
    SB_F_CRC = 1u << 0,      /* sent with a wrong CRC (a one-bit error): counted crc_err, delivered marked bad */
    SB_F_MARKED = 1u << 1,   /* sent already marked bad: delivered marked bad, not counted again */
    SB_F_ILLEGAL = 1u << 2,  /* an illegal control character inside: counted malformed, delivered marked bad
                              * (which code and where: see SB_ILLEGAL_AUX) */
    SB_F_ABORT = 1u << 3,    /* sender ends it with ABORT: delivered as an aborted prefix (aux % 8 == 0: the ABORT
                              * follows the route bytes at once, a lone ABORT at the destination, not counted) */
    SB_F_RUNT = 1u << 4,     /* route byte then GAP: a lone ABORT at the destination, counted malformed */
    SB_F_BADROUTE = 1u << 5, /* route byte names no port: dropped and counted (drop_route) at the input */
    SB_NFAULTS = 6
};
/* The packet kinds of one fault each (the tests' mix), and SB_NORMAL for none. */
typedef enum { SB_NORMAL, SB_CRC_BAD, SB_MARKED, SB_ILLEGAL, SB_ABORT, SB_RUNT, SB_BADROUTE, SB_NKINDS } sb_kind_t;
static inline unsigned sb_kind_fault(sb_kind_t k) { return k == SB_NORMAL ? 0u : 1u << ((unsigned)k - 1u); }

typedef struct {
    uint16_t len;   /* body length */
    uint8_t dst;    /* destination host/port */
    uint8_t faults; /* SB_F_* */
    uint8_t state;  /* 0 made, 1 delivered with GAP, 2 delivered aborted */
    uint8_t lone;   /* leaves as a lone ABORT: a runt, or an ABORT right after the route bytes */
} sb_rec_t;

typedef struct {
    unsigned nports;
    sb_rec_t *rec[SB_MAX_PORTS];
    uint32_t nrec[SB_MAX_PORTS], cap[SB_MAX_PORTS];
    /* per source, from the packets made: what the input's counters must show (docs/xbar.md), and the packets
     * made with each fault and each pair of faults (pair[a][b], a < b: a test's coverage) */
    uint64_t want_crc_err[SB_MAX_PORTS], want_drop_route[SB_MAX_PORTS], want_malformed[SB_MAX_PORTS];
    uint64_t pair[SB_NFAULTS][SB_NFAULTS];
    /* per destination, receptions */
    uint64_t got_gap[SB_MAX_PORTS], got_abort[SB_MAX_PORTS], lone_abort[SB_MAX_PORTS];
    uint8_t damage_ok[SB_MAX_PORTS];    /* this source ignores STOP: its packets may arrive damaged */
    uint64_t damaged[SB_MAX_PORTS];     /* packets from such a source that arrived damaged */
    uint64_t extra_malformed[SB_MAX_PORTS]; /* illegal characters a source sent between packets */
    uint64_t missing[SB_MAX_PORTS];     /* per source, set by sb_finish_single: not delivered as sent */
    uint64_t errors;
    char first_error[512];
    FILE *log;      /* where errors are printed (at most max_print of them) */
    unsigned max_print;
} sb_t;

/* aux of an SB_ILLEGAL packet: the illegal control character `code` (0x105..0x1FF) at position
 * `pos` taken modulo body_len + 2: 0 right after the route bytes, k before body byte k, body_len
 * before the CRC, body_len + 1 between the CRC and the GAP. */
#define SB_ILLEGAL_AUX(code, pos) ((((uint32_t)(code) - 0x105u) % 251u) << 16 | ((uint32_t)(pos) & 0xFFFFu))

/* Counters a switch reports per input port (for the final accounting). */
typedef struct {
    uint64_t rx_pkts, rx_bytes, crc_err, drop_route, drop_timeout, malformed, overflow;
    uint64_t tx_pkts, tx_bytes;
} sb_port_counters_t;

/* Prepares an empty scoreboard for nports hosts; errors go to log. */
void sb_init(sb_t *sb, unsigned nports, FILE *log);

/* Releases the scoreboard's memory. */
void sb_free(sb_t *sb);

/* Builds a packet from src to dst: route bytes, body of body_len bytes (>= SB_ID_LEN + 1), CRC,
 * end symbol, all shaped by faults (SB_F_*, any combination); writes at most max characters to ch. Returns
 * the number of characters, 0 if it does not fit. `aux` picks where an ILLEGAL character or an ABORT goes. */
unsigned sb_make(sb_t *sb, unsigned src, unsigned dst, unsigned faults, const uint8_t *route,
                 unsigned nroute, unsigned body_len, uint32_t aux, uint16_t *ch, unsigned max);

/* Host receive callback (ctx is the sb_t). */
void sb_receive(void *ctx, unsigned port, const uint8_t *bytes, unsigned len, host_end_t end);

/* Final accounting of a single crossbar whose port i is host i. host[] gives what each host sent
 * and received. With ctr (the switch counters, each compared modulo 2^ctr_width): every counter
 * against what the hosts sent and received, and per source, the packets not delivered as sent
 * never exceed the timeouts counted at its input (except from a source that ignores STOP). Without
 * ctr (a switch without counters) every packet must be delivered as sent unless timeouts_possible.
 * Host checks either way: no illegal character or stray GAP received, STOP obeyed, no receive
 * buffer overflow. Returns the number of errors found (also added to sb->errors). */
uint64_t sb_finish_single(sb_t *sb, const host_t *host, const sb_port_counters_t *ctr, unsigned ctr_width,
                          int timeouts_possible);

/* Records an error found by the bench itself (printf-style). */
void sb_error(sb_t *sb, const char *fmt, ...);

/* Packets made in total, and delivered with GAP in total. */
uint64_t sb_made_total(const sb_t *sb);
uint64_t sb_delivered_total(const sb_t *sb);

#endif
