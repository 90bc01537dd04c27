/* sanfab — end-to-end packet scoreboard; see xbar_scoreboard.h. */
#include "xbar_scoreboard.h"
#include "link.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static uint8_t payload_byte(unsigned src, uint32_t seq, unsigned i)
{
    uint64_t z = ((uint64_t)src << 48) ^ ((uint64_t)seq << 16) ^ i;
    z = (z ^ (z >> 31)) * 0x7FB5D329728EA185ull;
    z = (z ^ (z >> 27)) * 0x81DADEF4BC2DD44Dull;
    return (uint8_t)(z >> 33);
}

/* Body byte i of packet (src, seq): the id first, then payload. */
static uint8_t body_byte(unsigned src, uint32_t seq, unsigned i)
{
    switch (i) {
    case 0: return (uint8_t)src;
    case 1: return (uint8_t)(seq >> 16);
    case 2: return (uint8_t)(seq >> 8);
    case 3: return (uint8_t)seq;
    default: return payload_byte(src, seq, i);
    }
}

static uint8_t body_crc(unsigned src, uint32_t seq, unsigned len)
{
    uint8_t s = 0;
    for (unsigned i = 0; i < len; i++)
        s = crc8_step(s, body_byte(src, seq, i));
    return s;
}

void sb_init(sb_t *sb, unsigned nports, FILE *log)
{
    memset(sb, 0, sizeof *sb);
    sb->nports = nports;
    sb->log = log;
    sb->max_print = 10;
}

void sb_free(sb_t *sb)
{
    for (unsigned i = 0; i < SB_MAX_PORTS; i++)
        free(sb->rec[i]);
    memset(sb->rec, 0, sizeof sb->rec);
}

void sb_error(sb_t *sb, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (sb->errors == 0)
        snprintf(sb->first_error, sizeof sb->first_error, "%s", buf);
    if (sb->errors < sb->max_print && sb->log)
        fprintf(sb->log, "SCOREBOARD ERROR: %s\n", buf);
    sb->errors++;
}

unsigned sb_make(sb_t *sb, unsigned src, unsigned dst, unsigned faults, const uint8_t *route,
                 unsigned nroute, unsigned body_len, uint32_t aux, uint16_t *ch, unsigned max)
{
    if (src >= sb->nports || src >= SB_MAX_PORTS || body_len < SB_ID_LEN + 1 || body_len > 0xFFFF)
        return 0;
    if (nroute + body_len + 4 > max)
        return 0;
    if (sb->nrec[src] == sb->cap[src]) {
        uint32_t ncap = sb->cap[src] ? sb->cap[src] * 2 : 1024;
        sb_rec_t *r = realloc(sb->rec[src], ncap * sizeof *r);
        if (!r)
            return 0;
        sb->rec[src] = r;
        sb->cap[src] = ncap;
    }
    uint32_t seq = sb->nrec[src];
    if (seq >= (1u << 24))
        return 0;
    faults &= (1u << SB_NFAULTS) - 1u;
    const int abort = (faults & SB_F_ABORT) != 0, runt = (faults & SB_F_RUNT) != 0;
    const int ends_crc = !abort && !runt; /* the packet ends with a CRC byte and GAP */
    sb_rec_t *r = &sb->rec[src][sb->nrec[src]++];
    r->len = (uint16_t)body_len;
    r->dst = (uint8_t)dst;
    r->faults = (uint8_t)faults;
    r->state = 0;
    /* no body at all: a runt (route, GAP), or a runt ended by ABORT, or an ABORT right after the route */
    const int empty = runt || (abort && aux % 8 == 0);
    r->lone = (uint8_t)(empty && !(faults & SB_F_BADROUTE));
    for (unsigned a = 0; a < SB_NFAULTS; a++)
        for (unsigned b = a; b < SB_NFAULTS; b++)
            if ((faults >> a & 1u) && (faults >> b & 1u))
                sb->pair[a][b]++;
    /* the input's counters (docs/xbar.md, "Several faults in one packet"): each fault is counted by its own
     * rule, independently of the others; a CRC fault needs a CRC (no ABORT, no runt) */
    sb->want_crc_err[src] += (faults & SB_F_CRC) && ends_crc;
    sb->want_drop_route[src] += (faults & SB_F_BADROUTE) != 0;
    sb->want_malformed[src] += ((faults & SB_F_ILLEGAL) != 0) + (runt && !abort);

    unsigned n = 0;
    uint8_t crc = 0;
    for (unsigned k = 0; k < nroute; k++) {
        ch[n++] = route[k];
        crc = crc8_step(crc, route[k]);
    }
    const unsigned cut = empty ? 0 : !abort ? body_len : SB_ID_LEN + 2 + aux % (body_len - SB_ID_LEN);
    const unsigned nbody = cut < body_len ? cut : body_len; /* body bytes sent */
    /* the illegal code goes before body byte ill_pos, or at nbody (before the CRC or the end), or at
     * nbody + 1 (between the CRC and the GAP); in a packet without a CRC it is always sent */
    unsigned ill_pos = (aux & 0xFFFFu) % (body_len + 2);
    if (!ends_crc)
        ill_pos %= nbody + 1;
    const uint16_t ill_code = (uint16_t)(0x105u + ((aux >> 16) % 251u));
    const int ill = (faults & SB_F_ILLEGAL) != 0;
    for (unsigned i = 0; i < nbody; i++) {
        uint8_t b = body_byte(src, seq, i);
        if (ill && i == ill_pos)
            ch[n++] = ill_code;
        ch[n++] = b;
        crc = crc8_step(crc, b);
    }
    if (ill && ill_pos == nbody)
        ch[n++] = ill_code;
    if (abort) {
        ch[n++] = CH_ABORT;
        return n;
    }
    if (runt) {
        ch[n++] = CH_GAP;
        return n;
    }
    if (faults & SB_F_MARKED)
        crc ^= 0xFFu;
    if (faults & SB_F_CRC)
        crc ^= (uint8_t)(1u << (aux % 8)); /* a single-bit error (of a marked CRC too: then neither 0 nor 0xF3) */
    ch[n++] = crc;
    if (ill && ill_pos == body_len + 1)
        ch[n++] = ill_code;
    ch[n++] = CH_GAP;
    return n;
}

/* A packet from a source that ignores STOP may have lost characters in a full slack buffer; the
 * switch must then deliver it marked bad (complemented CRC) or aborted, never as a good packet.
 * Returns 1 if the packet is such a damaged one (counted), 0 if it must be checked exactly. */
static int damage_tolerated(sb_t *sb, unsigned port, const uint8_t *bytes, unsigned len, host_end_t end)
{
    int any = 0;
    for (unsigned i = 0; i < sb->nports; i++)
        any |= sb->damage_ok[i];
    if (!any)
        return 0;
    unsigned src = len >= SB_ID_LEN ? bytes[0] : 0;
    uint32_t seq = len >= SB_ID_LEN ? ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3] : 0;
    int known = len >= SB_ID_LEN && src < sb->nports && sb->damage_ok[src];
    /* a packet of a source that obeys STOP is never damaged by overflow: checked normally (its id cannot
     * come from a damaged packet of a STOP-ignoring source but by a chance of about 1 in 10^7) */
    if (len >= SB_ID_LEN && src < sb->nports && !sb->damage_ok[src] && seq < sb->nrec[src])
        return 0;
    if (known && seq < sb->nrec[src]) {
        const sb_rec_t *r = &sb->rec[src][seq];
        /* exactly as sent: check it normally */
        if (end == HOST_END_GAP && len == (unsigned)r->len + 1 && r->dst == port && r->state == 0) {
            int same = 1;
            for (unsigned i = 0; i < r->len && same; i++)
                same = bytes[i] == body_byte(src, seq, i);
            if (same)
                return 0;
        }
    }
    /* otherwise it may only be a damaged packet of a STOP-ignoring source: marked bad or aborted */
    uint8_t s = 0;
    for (unsigned i = 0; i < len; i++)
        s = crc8_step(s, bytes[i]);
    int marked = end == HOST_END_GAP && len > 0 && s == CRC8_MARKED_RESIDUE;
    if (end == HOST_END_ABORT || marked) {
        if (known)
            sb->damaged[src]++;
        else
            sb->damaged[0]++; /* its id itself was lost: counted against source 0 */
        return 1;
    }
    return 0;
}

void sb_receive(void *ctx, unsigned port, const uint8_t *bytes, unsigned len, host_end_t end)
{
    sb_t *sb = ctx;
    if (port >= SB_MAX_PORTS)
        return;
    if (end == HOST_END_ABORT && len < SB_ID_LEN) {
        sb->lone_abort[port]++;
        return;
    }
    if (damage_tolerated(sb, port, bytes, len, end))
        return;
    if (len < SB_ID_LEN) {
        sb_error(sb, "port %u: packet of %u bytes ended by GAP is too short to carry an id", port, len);
        return;
    }
    unsigned src = bytes[0];
    uint32_t seq = ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
    if (src >= sb->nports || seq >= sb->nrec[src]) {
        sb_error(sb, "port %u: unknown packet id src=%u seq=%u (len %u)", port, src, seq, len);
        return;
    }
    sb_rec_t *r = &sb->rec[src][seq];
    if (r->state != 0) {
        sb_error(sb, "port %u: packet src=%u seq=%u delivered twice", port, src, seq);
        return;
    }
    if (r->dst != port) {
        sb_error(sb, "packet src=%u seq=%u arrived at port %u, expected %u", src, seq, port, r->dst);
        return;
    }
    if (r->faults & (SB_F_BADROUTE | SB_F_RUNT)) {
        sb_error(sb, "packet src=%u seq=%u of a dropping kind was delivered", src, seq);
        return;
    }
    if (end == HOST_END_ABORT) {
        /* an aborted packet must be a prefix of what was sent */
        for (unsigned i = 0; i < len && i < r->len; i++) {
            if (bytes[i] != body_byte(src, seq, i)) {
                sb_error(sb, "aborted packet src=%u seq=%u byte %u is 0x%02x, sent 0x%02x", src, seq, i,
                         bytes[i], body_byte(src, seq, i));
                return;
            }
        }
        if (len > r->len) {
            sb_error(sb, "aborted packet src=%u seq=%u is longer (%u) than sent (%u)", src, seq, len, r->len);
            return;
        }
        r->state = 2;
        sb->got_abort[port]++;
        return;
    }
    if (r->faults & SB_F_ABORT) {
        sb_error(sb, "packet src=%u seq=%u was aborted by its sender but arrived ended by GAP", src, seq);
        return;
    }
    if (len != (unsigned)r->len + 1) {
        sb_error(sb, "packet src=%u seq=%u: %u bytes arrived, expected %u + CRC", src, seq, len, r->len);
        return;
    }
    for (unsigned i = 0; i < r->len; i++) {
        if (bytes[i] != body_byte(src, seq, i)) {
            sb_error(sb, "packet src=%u seq=%u byte %u is 0x%02x, sent 0x%02x", src, seq, i, bytes[i],
                     body_byte(src, seq, i));
            return;
        }
    }
    uint8_t good = body_crc(src, seq, r->len);
    const int bad = (r->faults & (SB_F_CRC | SB_F_MARKED | SB_F_ILLEGAL)) != 0;
    uint8_t want = bad ? (uint8_t)(good ^ 0xFFu) : good;
    if (bytes[r->len] != want) {
        sb_error(sb, "packet src=%u seq=%u (faults 0x%02x): CRC 0x%02x, expected 0x%02x (%s)", src, seq, r->faults,
                 bytes[r->len], want, bad ? "marked bad" : "good");
        return;
    }
    r->state = 1;
    sb->got_gap[port]++;
}

uint64_t sb_made_total(const sb_t *sb)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < sb->nports; i++)
        t += sb->nrec[i];
    return t;
}

uint64_t sb_delivered_total(const sb_t *sb)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < sb->nports; i++)
        t += sb->got_gap[i];
    return t;
}

static void expect_eq(sb_t *sb, uint64_t *errs, unsigned port, const char *what, uint64_t got, uint64_t want,
                      uint64_t mask)
{
    if (got != (want & mask)) {
        sb_error(sb, "port %u: counter %s is %llu, expected %llu (%llu events mod 2^width)", port, what,
                 (unsigned long long)got, (unsigned long long)(want & mask), (unsigned long long)want);
        (*errs)++;
    }
}

uint64_t sb_finish_single(sb_t *sb, const host_t *host, const sb_port_counters_t *ctr, unsigned ctr_width,
                          int timeouts_possible)
{
    const uint64_t mask = ctr_width >= 64 ? ~0ull : (1ull << ctr_width) - 1;
    uint64_t errs = 0, timeouts = 0, runts_to[SB_MAX_PORTS] = {0}, runts_lost_ok[SB_MAX_PORTS] = {0};
    for (unsigned i = 0; i < sb->nports; i++) {
        if (ctr) {
            expect_eq(sb, &errs, i, "rx_pkts", ctr[i].rx_pkts, host[i].sent_pkts, mask);
            expect_eq(sb, &errs, i, "rx_bytes", ctr[i].rx_bytes, host[i].sent_data, mask);
            expect_eq(sb, &errs, i, "crc_err", ctr[i].crc_err, sb->want_crc_err[i], mask);
            if (!host[i].cfg.ignore_stop)
                expect_eq(sb, &errs, i, "drop_route", ctr[i].drop_route, sb->want_drop_route[i], mask);
            else if (sb->want_drop_route[i] <= mask && ctr[i].drop_route > sb->want_drop_route[i]) {
                /* a bad route whose header found no room is lost to overflow, never seen by the read side
                 * (docs/xbar.md, "Several faults in one packet"): at most the bad routes sent */
                sb_error(sb, "port %u: counter drop_route is %llu, more than the %llu bad routes sent", i,
                         (unsigned long long)ctr[i].drop_route, (unsigned long long)sb->want_drop_route[i]);
                errs++;
            }
            expect_eq(sb, &errs, i, "malformed", ctr[i].malformed, sb->want_malformed[i] + sb->extra_malformed[i],
                      mask);
            if (!host[i].cfg.ignore_stop)
                expect_eq(sb, &errs, i, "overflow", ctr[i].overflow, 0, mask);
            else if (ctr[i].overflow == 0) {
                sb_error(sb, "port %u: its sender ignored STOP but no overflow was counted", i);
                errs++;
            }
            expect_eq(sb, &errs, i, "tx_pkts", ctr[i].tx_pkts, host[i].rcvd_gap + host[i].rcvd_abort, mask);
            expect_eq(sb, &errs, i, "tx_bytes", ctr[i].tx_bytes, host[i].rcvd_data, mask);
            timeouts += ctr[i].drop_timeout;
        }
        if (host[i].stop_violations) {
            sb_error(sb, "host %u: %llu packet characters arrived more than %u cycles after it sent STOP", i,
                     (unsigned long long)host[i].stop_violations, host[i].cfg.stop_grace);
            errs++;
        }
        if (host[i].slack_overflows) {
            sb_error(sb, "host %u: its receive buffer overflowed %llu times (switch ignored STOP)", i,
                     (unsigned long long)host[i].slack_overflows);
            errs++;
        }
        if (host[i].illegal_rcvd) {
            sb_error(sb, "host %u: received %llu illegal characters (first 0x%03x)", i,
                     (unsigned long long)host[i].illegal_rcvd, host[i].first_illegal);
            errs++;
        }
        if (host[i].stray_gap_rcvd) {
            sb_error(sb, "host %u: received %llu GAPs outside a packet", i, (unsigned long long)host[i].stray_gap_rcvd);
            errs++;
        }
        sb->missing[i] = 0;
        for (uint32_t s = 0; s < sb->nrec[i]; s++) {
            const sb_rec_t *r = &sb->rec[i][s];
            if (r->lone)
                runts_to[r->dst]++, runts_lost_ok[r->dst] += sb->damage_ok[i];
            else if (!(r->faults & SB_F_BADROUTE) && r->state != ((r->faults & SB_F_ABORT) ? 2 : 1))
                sb->missing[i]++;
        }
        /* per source: every packet not delivered as sent is explained by a timeout drain counted at
         * its input (a source that ignores STOP may lose packets to overflow instead) */
        if (sb->damage_ok[i])
            continue;
        if (ctr && sb->missing[i] > ctr[i].drop_timeout) {
            sb_error(sb, "source %u: %llu packets were not delivered as sent, but only %llu timeouts were counted at "
                         "its input", i, (unsigned long long)sb->missing[i], (unsigned long long)ctr[i].drop_timeout);
            errs++;
        } else if (!ctr && !timeouts_possible && sb->missing[i]) {
            sb_error(sb, "source %u: %llu packets were not delivered as sent (no timeout can have drained them)", i,
                     (unsigned long long)sb->missing[i]);
            errs++;
        }
    }
    /* lone ABORTs: one per runt or route-then-ABORT packet, give or take one per timeout (a timeout
     * can drain a waiting one, or cut a packet before its id was sent) */
    if (!ctr && timeouts_possible)
        return errs;
    for (unsigned p = 0; p < sb->nports; p++) {
        /* (a STOP-ignoring source's runt may be lost whole to overflow) */
        uint64_t lo = runts_to[p] > timeouts + runts_lost_ok[p] ? runts_to[p] - timeouts - runts_lost_ok[p] : 0;
        if (sb->lone_abort[p] < lo || sb->lone_abort[p] > runts_to[p] + timeouts) {
            sb_error(sb, "port %u: %llu lone ABORTs, expected %llu runts (+ up to %llu timeouts)", p,
                     (unsigned long long)sb->lone_abort[p], (unsigned long long)runts_to[p],
                     (unsigned long long)timeouts);
            errs++;
        }
    }
    return errs;
}
