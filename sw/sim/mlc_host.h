/* sanfab — host driver of one Maestro Link Controller (docs/mlc.md), on top of the model's host
 * interface: it packs messages into units (docs/mlc.md, Messages), writes them into the send FIFOs
 * and reads the receive FIFOs under the paper's FIFO flow control — read a status register once,
 * then move at most that many bytes before looking again — and reassembles received messages.
 *
 * Per step:  mlc_host_drive(h, &out_prev, &in);  mlc_step(m, &in, &out);  mlc_host_collect(h, &out);
 * where out_prev is the MLC's output after the previous step (its status) and out the new one.
 */
#ifndef SANFAB_MLC_HOST_H
#define SANFAB_MLC_HOST_H

#include "mlc.h"

#include <stdint.h>

/* Message kinds (header byte 0 bits 7..1). */
enum { MLC_KIND_DATA = 0, MLC_KIND_ACK = 1, MLC_KIND_BARRIER = 2, MLC_KIND_RELEASE = 3 };

#define MLC_DST_MULTI 255u     /* DST naming the MASK set */
#define MLC_T0_DATA 11u        /* data bytes of a Type0 message */
#define MLC_T1_MAX_LEN 65535u  /* user bytes of the longest Type1 message (LEN is 16 bits) */

/* A message as the host sees it. type 0: exactly MLC_T0_DATA bytes of data; type 1: len bytes. */
typedef struct {
    unsigned type;        /* 0 Type0, 1 Type1 */
    unsigned kind;        /* MLC_KIND_*, 0..127 */
    unsigned dst;         /* 0..254, or MLC_DST_MULTI */
    unsigned mask;        /* destination set when dst = MLC_DST_MULTI */
    unsigned src;         /* source node 0..255 */
    unsigned len;         /* user bytes (Type0: MLC_T0_DATA) */
    uint8_t *data;        /* len bytes; owned by the message after mlc_host_recv (free with mlc_msg_free) */
} mlc_msg_t;

typedef struct mlc_host mlc_host_t;

/* A driver for an MLC of `fifo_bytes` FIFOs; msg_mode 1: the MLC runs message-based (MLC_CFG_MSG),
 * so a message larger than the FIFO is refused. NULL if memory is short. */
mlc_host_t *mlc_host_new(unsigned fifo_bytes, unsigned msg_mode);

/* Frees a driver and everything it still holds (NULL is allowed). */
void mlc_host_free(mlc_host_t *h);

/* 1 if two messages have the same fields and the same len bytes of data. */
int mlc_msg_eq(const mlc_msg_t *a, const mlc_msg_t *b);

/* Units of a message (1 for Type0, 2 + ceil(max(0, len - 23) / 16) for Type1). */
unsigned mlc_msg_units(const mlc_msg_t *msg);

/* Encodes a message into its units (16 * mlc_msg_units bytes into buf, which must be that large). */
void mlc_msg_encode(const mlc_msg_t *msg, uint8_t *buf);

/* Queues a message for channel ch: 0 on success, -1 if refused (bad field, too long, too large for
 * the FIFO in message mode). The message is copied. */
int mlc_host_send(mlc_host_t *h, unsigned ch, const mlc_msg_t *msg);

/* Queues a barrier request (Type0, kind MLC_KIND_BARRIER, DST 255 with the node set `mask`,
 * data byte 0..3 = epoch little-endian) on channel ch: 0 on success. */
int mlc_host_barrier(mlc_host_t *h, unsigned ch, unsigned src, unsigned mask, uint32_t epoch);

/* Fills the host fields of this step's MLC inputs (h_wr, h_wch, h_wdata, h_rd, h_rch) from the
 * MLC's output after the previous step: at most one write and one read, never beyond the status. */
void mlc_host_drive(mlc_host_t *h, const mlc_out_t *prev, mlc_in_t *in);

/* Takes the MLC's output after the step just run: a word read (h_rvalid) joins its channel's stream;
 * a completed message is queued for mlc_host_recv. */
void mlc_host_collect(mlc_host_t *h, const mlc_out_t *out);

/* A busy host: the next mlc_host_drive() call writes nothing (hold_wr) and/or reads nothing (hold_rd). */
void mlc_host_hold(mlc_host_t *h, int hold_wr, int hold_rd);

/* Pops the oldest received message of channel ch into *msg (1), or 0 if none. */
int mlc_host_recv(mlc_host_t *h, unsigned ch, mlc_msg_t *msg);

/* Words queued for channel ch and not yet written into the MLC. */
uint64_t mlc_host_tx_pending(const mlc_host_t *h, unsigned ch);

/* Status reads that opened a burst so far (a write or read budget of at least one word loaded from a
 * status register; polling a status of 0 is not counted). */
uint64_t mlc_host_status_reads(const mlc_host_t *h);

/* Frees a received message's data. */
void mlc_msg_free(mlc_msg_t *msg);

#endif
