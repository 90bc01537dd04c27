/* sanfab — Myrinet-style link characters and CRC-8, shared by the models and the benches.
 *
 * A link carries one 9-bit character per cycle: bit 8 is the control flag, bits 7..0 the byte.
 * Data characters have bit 8 clear. Control characters (bit 8 set) are listed below; any other
 * control value is illegal and is counted by the receiver. See docs/xbar.md.
 */
#ifndef SANFAB_LINK_H
#define SANFAB_LINK_H

#include <stdint.h>

#define CH_IDLE  0x100u /* nothing on the link this cycle */
#define CH_GAP   0x101u /* packet end */
#define CH_STOP  0x102u /* flow control: stop sending to me */
#define CH_GO    0x103u /* flow control: you may send again */
#define CH_ABORT 0x104u /* packet end, packet is bad (forward reset, runt, lost tail) */

#define CH_IS_DATA(c) (((c) & 0x100u) == 0u)

#define ROUTE_BYTE(port) ((uint8_t)(0x80u | ((unsigned)(port) & 0x3Fu))) /* route byte naming a port */
#define ROUTE_IS_ROUTE(b) ((((unsigned)(b)) & 0xC0u) == 0x80u)                /* 10pppppp */
#define ROUTE_PORT(b) (((unsigned)(b)) & 0x3Fu)                                 /* its port */
#define ITB_MARK 0xC0u /* In-Transit-Buffer mark: consumed by a host, never by a switch */

#define CRC8_POLY 0x07u /* x^8 + x^2 + x + 1, MSB first, init 0, no final xor */

/* One CRC-8 step: the state after feeding byte d to state s. */
static inline uint8_t crc8_step(uint8_t s, uint8_t d)
{
    uint8_t x = (uint8_t)(s ^ d);
    for (int i = 0; i < 8; i++)
        x = (uint8_t)((x & 0x80u) ? (((unsigned)x << 1) ^ CRC8_POLY) : ((unsigned)x << 1));
    return x;
}

/* CRC-8 of n bytes (the value a sender appends as the packet's last byte). */
static inline uint8_t crc8_buf(const uint8_t *p, unsigned n)
{
    uint8_t s = 0;
    for (unsigned i = 0; i < n; i++)
        s = crc8_step(s, p[i]);
    return s;
}

/* Receiver state after a packet whose CRC byte was complemented ("marked bad") upstream. */
#define CRC8_MARKED_RESIDUE 0xF3u /* == crc8_step(0, 0xFF) */

#endif
