/* sanfab — host link endpoint model; see xbar_host.h. */
#include "xbar_host.h"
#include "link.h"

#include <string.h>

host_cfg_t host_default_cfg(void)
{
    host_cfg_t c = {.slack = 80, .stop_th = 56, .go_th = 40, .drain_pct = 100, .react = 2,
                    .bubble_pct = 0, .ignore_stop = 0, .stop_grace = 1};
    return c;
}

void host_init(host_t *h, const host_cfg_t *cfg, unsigned port, uint64_t seed, host_rx_fn fn, void *ctx)
{
    memset(h, 0, sizeof *h);
    h->cfg = *cfg;
    if (h->cfg.react > HOST_MAX_REACT)
        h->cfg.react = HOST_MAX_REACT;
    h->port = port;
    rng_seed(&h->rng, seed);
    h->rx_fn = fn;
    h->rx_ctx = ctx;
}

int host_can_queue(const host_t *h) { return h->q_count < HOST_QUEUE; }

static int queue(host_t *h, const uint16_t *ch, unsigned len, int is_pkt)
{
    if (!host_can_queue(h) || len == 0 || len > HOST_MAX_PKT)
        return 0;
    host_pkt_t *p = &h->q[(h->q_head + h->q_count) % HOST_QUEUE];
    memcpy(p->ch, ch, len * sizeof ch[0]);
    p->len = len;
    p->is_pkt = is_pkt;
    h->q_count++;
    return 1;
}

int host_queue(host_t *h, const uint16_t *ch, unsigned len) { return queue(h, ch, len, 1); }

int host_queue_between(host_t *h, const uint16_t *ch, unsigned len) { return queue(h, ch, len, 0); }

int host_busy(const host_t *h) { return h->q_count > 0; }

void host_force_stop(host_t *h, int on) { h->force_stop = on; }

void host_pause_at(host_t *h, unsigned pos) { h->pause_at = pos; }

static void rx_char(host_t *h, uint16_t c)
{
    if (c == CH_STOP || c == CH_GO) {
        if (c == CH_STOP)
            h->stops_rcvd++;
        h->react_line[h->cfg.react] = (uint8_t)(c == CH_STOP ? 1 : 2);
        return;
    }
    if (c == CH_IDLE)
        return;
    if (h->announced_stop && h->now > h->stop_sent_at + h->cfg.stop_grace)
        h->stop_violations++;
    if (CH_IS_DATA(c)) {
        h->rcvd_data++;
        if (h->occ >= h->cfg.slack)
            h->slack_overflows++;
        else
            h->occ++;
        if (h->rx_len < HOST_MAX_PKT)
            h->rx_buf[h->rx_len++] = (uint8_t)c;
        else
            h->rx_overflowed = 1;
        return;
    }
    if (c == CH_GAP || c == CH_ABORT) {
        if (c == CH_GAP && h->rx_len == 0) {
            h->stray_gap_rcvd++; /* a lone GAP between packets: never sent by a switch */
            return;
        }
        if (c == CH_GAP)
            h->rcvd_gap++;
        else
            h->rcvd_abort++;
        if (h->rx_fn)
            h->rx_fn(h->rx_ctx, h->port, h->rx_buf, h->rx_len, c == CH_GAP ? HOST_END_GAP : HOST_END_ABORT);
        h->rx_len = 0;
        return;
    }
    if (h->illegal_rcvd++ == 0)
        h->first_illegal = c;
}

uint16_t host_step(host_t *h, uint16_t from_link)
{
    /* flow-control symbols received take effect `react` cycles later */
    uint8_t act = h->react_line[0];
    memmove(h->react_line, h->react_line + 1, h->cfg.react);
    h->react_line[h->cfg.react] = 0;
    if (act == 1)
        h->stopped = 1;
    else if (act == 2)
        h->stopped = 0;

    h->now++;
    rx_char(h, from_link);
    if (h->occ > 0 && rng_pct(&h->rng, h->cfg.drain_pct))
        h->occ--;

    /* receive buffer flow control */
    if (h->occ >= h->cfg.stop_th)
        h->want_stop = 1;
    else if (h->occ <= h->cfg.go_th)
        h->want_stop = 0;
    int want = h->want_stop || h->force_stop;
    if (want != h->announced_stop) {
        h->announced_stop = want;
        if (want) {
            h->stops_sent++;
            h->stop_sent_at = h->now;
        }
        return want ? CH_STOP : CH_GO;
    }

    /* sender */
    if (h->q_count == 0 || (h->stopped && !h->cfg.ignore_stop))
        return CH_IDLE;
    host_pkt_t *p = &h->q[h->q_head];
    if (h->pause_at && h->pos == h->pause_at)
        return CH_IDLE;
    if (h->pos > 0 && h->cfg.bubble_pct && rng_pct(&h->rng, h->cfg.bubble_pct))
        return CH_IDLE;
    uint16_t c = p->ch[h->pos++];
    if (CH_IS_DATA(c))
        h->sent_data++;
    if (h->pos == p->len) {
        h->pos = 0;
        h->q_head = (h->q_head + 1) % HOST_QUEUE;
        h->q_count--;
        h->sent_pkts += p->is_pkt != 0;
    }
    return c;
}
