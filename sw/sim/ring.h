/* sanfab — a growable FIFO of fixed-size elements (header-only): the host driver's send words and
 * received messages, and the MLC benches' queues of messages sent and not yet received. */
#ifndef SANFAB_RING_H
#define SANFAB_RING_H

#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *b;
    size_t esz, head, n, cap; /* element size in bytes; first element, elements, room */
} ring_t;

/* An empty ring of elements of esz bytes (nothing allocated until the first push). */
static inline ring_t ring_make(size_t esz)
{
    ring_t q = {NULL, esz, 0, 0, 0};
    return q;
}

/* Appends the element at e (esz bytes); -1 when out of memory (the ring is unchanged). */
static inline int ring_push(ring_t *q, const void *e)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 64;
        unsigned char *nb = malloc(nc * q->esz);
        if (!nb)
            return -1;
        for (size_t i = 0; i < q->n; i++)
            memcpy(nb + i * q->esz, q->b + ((q->head + i) % q->cap) * q->esz, q->esz);
        free(q->b);
        q->b = nb;
        q->head = 0;
        q->cap = nc;
    }
    memcpy(q->b + ((q->head + q->n) % q->cap) * q->esz, e, q->esz);
    q->n++;
    return 0;
}

/* The first element, or NULL when empty. */
static inline void *ring_front(const ring_t *q) { return q->n ? q->b + q->head * q->esz : NULL; }

/* Removes the first element, into e unless e is NULL; 0 when empty. */
static inline int ring_pop(ring_t *q, void *e)
{
    if (q->n == 0)
        return 0;
    if (e)
        memcpy(e, q->b + q->head * q->esz, q->esz);
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return 1;
}

/* Frees the ring's storage (not what its elements point to); it is empty again. */
static inline void ring_free(ring_t *q)
{
    free(q->b);
    *q = ring_make(q->esz);
}

#endif
