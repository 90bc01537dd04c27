/* sanfab — cycle-exact C model of the Maestro Link Controller, written from its contract
 * docs/mlc.md (rule numbers below are the doc's "Steps"), not from the RTL.
 *
 * One mlc_step() is one step k. Every decision of step k is taken on the state after step k-1 and
 * the inputs of step k, in this order:
 *
 *   register read   answered from the state after k-1 (before anything of step k changes it)
 *   host checks     write space and read availability from the status after k-1
 *   link            rule 1 by state: TURN (wait, or build the frame, rule 4, on the state after
 *                   k-1: no other part of this step has changed anything it reads yet), SEND
 *                   (next symbol); a symbol in TURN or SEND is a conflict (the slave holds);
 *                   LISTEN (rule 2: the slave's guard first - a symbol of an early frame is a
 *                   conflict -, else receive a symbol, or judge the frame that ended, rule 6, and
 *                   turn round unless a holding slave judged it bad, or time out)
 *   host actions    the write and the read decided above (rule 7)
 *   config write    effective from step k+1
 *   outputs         link symbol, read data, status after step k
 *
 * Building a frame and judging one never happen in the same step (TURN vs LISTEN), and the host
 * actions only change counts the frame builder has already read, so the order above is the doc's
 * "everything on the state after k-1".
 */
#include "mlc.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ state */

/* message parser (docs/mlc.md, Messages) */
typedef struct {
    int32_t need;    /* 0: next unit is a header; -1: waiting for PC; >0 units still to come */
    uint32_t msgend; /* units up to the last unit that ended a message */
} parser_t;

typedef struct {
    uint16_t *w;      /* ring of FIFO_BYTES/2 words */
    uint32_t wr;      /* words written since reset */
    uint32_t ack;     /* units acknowledged */
    parser_t ps;
} txfifo_t;

typedef struct {
    uint16_t *w;
    uint32_t acc;     /* units accepted */
    uint32_t rd;      /* words read */
    parser_t ps;
} rxfifo_t;

struct mlc {
    mlc_params_t p;
    uint64_t step;
    uint32_t ctr_mask;
    unsigned capw, capu; /* capacity in words and units */
    uint32_t wmask;      /* capw - 1: capw is a power of two, so word index % capw = index & wmask */
    txfifo_t tx[MLC_NCH];
    rxfifo_t rx[MLC_NCH];
    /* link */
    unsigned st;           /* MLC_ST_* */
    unsigned w;            /* TURN wait */
    uint8_t fr[MLC_MAX_NIBBLES]; /* frame being sent, nibbles */
    unsigned fsym, fi;     /* its symbols, next symbol to send */
    unsigned inframe;      /* LISTEN: inside a frame */
    unsigned rn;           /* nibbles received */
    uint16_t rs;           /* check state */
    uint8_t rf[MLC_MAX_NIBBLES]; /* nibbles received (the first MLC_MAX_NIBBLES) */
    unsigned silence;      /* master: consecutive silent steps in LISTEN */
    unsigned since;        /* slave: steps since its last symbol, saturating at GUARD (rule 2's guard) */
    unsigned early;        /* slave: LISTEN inside an early frame (ignored) */
    /* protocol (rules 4, 6) */
    unsigned good, oval, och, onp, oT, tack, emine, rr, hold;
    unsigned crx[MLC_NCH], cadv[MLC_NCH];
    unsigned cfg;
    uint32_t ctr[MLC_NCTR];
    /* status after the last step (rule 7), as on the status outputs */
    uint16_t st_tx_space[MLC_NCH], st_rx_avail[MLC_NCH];
    mlc_out_t out; /* the outputs when mlc_step() is given none */
};

/* ------------------------------------------------------------------ parameters */

/* the header's limit is the table's range (cmodel/sanfab_params.h) */
enum {
#define MLC_LINK_PARAM(NAME, DEFAULT, LO, HI) MLC_HI_##NAME = HI,
#include "sanfab_params.h"
};
_Static_assert(MLC_HI_LINK_DELAY == MLC_MAX_LINK_DELAY, "MLC_MAX_LINK_DELAY is not LINK_DELAY's HI in cmodel/sanfab_params.h");

mlc_params_t mlc_default_params(void)
{
    /* the defaults of cmodel/sanfab_params.h, the one table of them (GUARD 5: mlc_guard(0, 1), the defaults' LINK_DELAY 0
     * and TURN 1; the master end) */
    mlc_params_t p = {
#define MLC_PARAM(NAME, DEFAULT, LO, HI) .NAME = DEFAULT,
#define MLC_END_PARAM(NAME, DEFAULT, LO, HI) .NAME = DEFAULT,
#include "sanfab_params.h"
    };
    return p;
}

unsigned mlc_guard(unsigned link_delay, unsigned master_turn) { return 2u * link_delay + 4u + master_turn; }

const char *mlc_params_check(const mlc_params_t *p)
{
    if (!p)
        return "no parameters";
    if (p->LINK_W != 4 && p->LINK_W != 8)
        return "LINK_W must be 4 or 8";
    if (p->FIFO_BYTES != 256 && p->FIFO_BYTES != 512 && p->FIFO_BYTES != 1024 && p->FIFO_BYTES != 2048 &&
        p->FIFO_BYTES != 4096)
        return "FIFO_BYTES must be 256, 512, 1024, 2048 or 4096";
    if (p->TURN > 15)
        return "TURN must be 0..15";
    if (p->MASTER > 1)
        return "MASTER must be 0 or 1";
    if (p->TIMEOUT != 0 && (p->TIMEOUT < 16 || p->TIMEOUT > 65535))
        return "TIMEOUT must be 0 or 16..65535";
    if (p->CTR_W < 8 || p->CTR_W > 32)
        return "CTR_W must be 8..32";
    if (p->GUARD > 147)
        return "GUARD must be 0..147";
    return NULL;
}

unsigned mlc_frame_symbols(const mlc_params_t *p, unsigned np)
{
    return (8u + 32u * np) * 4u / p->LINK_W;
}

/* ------------------------------------------------------------------ helpers */

static void count(mlc_t *m, unsigned c, uint32_t n) { m->ctr[c] = (m->ctr[c] + n) & m->ctr_mask; }

/* one nibble into the CRC-16 (0x1021, MSB first) check state (docs/mlc.md, Frames). Shifting the
 * nibble in bit by bit is the same as XORing it into the state's top nibble and shifting four zero
 * bits in; those four shifts depend on the top nibble alone, so they are a 16-entry table:
 * crc_tab[j] = the state j << 12 after four zero bits. */
static const uint16_t crc_tab[16] = {0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
                                     0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF};

static uint16_t crc_nib(uint16_t s, unsigned x)
{
    return (uint16_t)((uint16_t)(s << 4) ^ crc_tab[((s >> 12) ^ x) & 15u]);
}

/* runs a parser over unit number u (0-based since reset), whose first word (bytes 0..1) is w0:
 * the only word the parser reads (TYPE of a header, PC of a Type1's second unit) */
static void parse_at(mlc_t *m, parser_t *ps, uint32_t u, uint16_t w0)
{
    int ends = 0;
    if (ps->need == 0) {
        if ((w0 & 1u) == 0)
            ends = 1;
        else
            ps->need = -1;
    } else if (ps->need == -1) {
        unsigned pc = w0;
        if (pc < 2) {
            count(m, MLC_CTR_ERR_MSG, 1);
            pc = 2;
        }
        ps->need = (int32_t)pc - 2;
        ends = ps->need == 0;
    } else {
        ps->need--;
        ends = ps->need == 0;
    }
    if (ends)
        ps->msgend = u + 1u;
}

static unsigned cap_units(unsigned cfg)
{
    static const unsigned caps[4] = {15, 1, 2, 4};
    return caps[(cfg >> 1) & 3u];
}

static uint32_t tx_space(const mlc_t *m, unsigned c)
{
    return 2u * (m->capw - (m->tx[c].wr - 8u * m->tx[c].ack));
}

static uint32_t rx_avail(const mlc_t *m, unsigned c)
{
    const rxfifo_t *f = &m->rx[c];
    if (m->cfg & MLC_CFG_MSG) {
        uint32_t e = 8u * f->ps.msgend;
        return e > f->rd ? 2u * (e - f->rd) : 0u;
    }
    return 2u * (8u * f->acc - f->rd);
}

static unsigned rx_free_units(const mlc_t *m, unsigned c)
{
    return m->capu - (m->rx[c].acc - m->rx[c].rd / 8u);
}

static uint32_t sendable(const mlc_t *m, unsigned c)
{
    const txfifo_t *f = &m->tx[c];
    if (m->cfg & MLC_CFG_MSG) /* negative (units acknowledged past the last message end) is 0 */
        return f->ps.msgend > f->ack ? f->ps.msgend - f->ack : 0u;
    return f->wr / 8u - f->ack;
}

static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }

/* ------------------------------------------------------------------ lifecycle */

mlc_t *mlc_new(const mlc_params_t *p)
{
    if (mlc_params_check(p))
        return NULL;
    mlc_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->p = *p;
    m->capw = p->FIFO_BYTES / 2u;
    m->capu = p->FIFO_BYTES / 16u;
    m->wmask = m->capw - 1u;
    m->ctr_mask = p->CTR_W >= 32 ? 0xFFFFFFFFu : ((1u << p->CTR_W) - 1u);
    for (unsigned c = 0; c < MLC_NCH; c++) {
        m->tx[c].w = calloc(m->capw, sizeof(uint16_t));
        m->rx[c].w = calloc(m->capw, sizeof(uint16_t));
        if (!m->tx[c].w || !m->rx[c].w) {
            mlc_free(m);
            return NULL;
        }
    }
    mlc_reset(m);
    return m;
}

void mlc_free(mlc_t *m)
{
    if (!m)
        return;
    for (unsigned c = 0; c < MLC_NCH; c++) {
        free(m->tx[c].w);
        free(m->rx[c].w);
    }
    free(m);
}

void mlc_reset(mlc_t *m)
{
    for (unsigned c = 0; c < MLC_NCH; c++) {
        memset(m->tx[c].w, 0, m->capw * sizeof(uint16_t));
        memset(m->rx[c].w, 0, m->capw * sizeof(uint16_t));
        m->tx[c].wr = m->tx[c].ack = 0;
        m->rx[c].acc = m->rx[c].rd = 0;
        memset(&m->tx[c].ps, 0, sizeof(parser_t));
        memset(&m->rx[c].ps, 0, sizeof(parser_t));
        m->crx[c] = m->cadv[c] = 0;
    }
    m->step = 0;
    m->st = m->p.MASTER ? MLC_ST_TURN : MLC_ST_LISTEN;
    m->w = m->p.TURN;
    m->fsym = m->fi = 0;
    m->inframe = 0;
    m->rn = 0;
    m->rs = 0xFFFF;
    m->silence = 0;
    m->since = m->p.GUARD; /* nothing sent yet: no guard */
    m->early = 0;
    m->good = m->oval = m->och = m->onp = m->oT = m->tack = m->emine = m->rr = m->hold = 0;
    m->cfg = 0;
    memset(m->ctr, 0, sizeof m->ctr);
    memset(&m->out, 0, sizeof m->out);
    for (unsigned c = 0; c < MLC_NCH; c++) {
        m->st_tx_space[c] = (uint16_t)tx_space(m, c);
        m->st_rx_avail[c] = (uint16_t)rx_avail(m, c);
    }
}

/* ------------------------------------------------------------------ rule 4: building a frame */

static void build_frame(mlc_t *m)
{
    unsigned np = 0, ch = 0, T = 0;
    if (m->good) {
        unsigned cap = cap_units(m->cfg);
        for (unsigned i = 0; i < MLC_NCH; i++) {
            unsigned c = (m->rr + i) % MLC_NCH;
            uint32_t s = sendable(m, c);
            unsigned n = umin(cap, umin(s > 15u ? 15u : (unsigned)s, m->crx[c]));
            if (n > 0) {
                np = n;
                ch = c;
                break;
            }
        }
    }
    uint8_t *f = m->fr;
    unsigned k = 0;
    if (np > 0) {
        T = 1u - m->tack;
        m->oval = 1;
        m->och = ch;
        m->onp = np;
        m->oT = T;
        m->rr = 1u - ch;
    }
    f[k++] = (uint8_t)np;
    f[k++] = (uint8_t)(ch | (T << 1) | (m->emine << 2));
    for (unsigned c = 0; c < MLC_NCH; c++) {
        unsigned cr = umin(15, rx_free_units(m, c));
        m->cadv[c] = cr;
        f[k++] = (uint8_t)cr;
    }
    const txfifo_t *tf = &m->tx[ch];
    for (unsigned u = 0; u < np; u++) {
        uint32_t unit = tf->ack + u;
        for (unsigned wi = 0; wi < 8; wi++) {
            uint16_t wd = tf->w[(unit * 8u + wi) & m->wmask];
            f[k++] = (uint8_t)(wd & 15u);
            f[k++] = (uint8_t)((wd >> 4) & 15u);
            f[k++] = (uint8_t)((wd >> 8) & 15u);
            f[k++] = (uint8_t)((wd >> 12) & 15u);
        }
    }
    uint16_t s = 0xFFFF;
    for (unsigned i = 0; i < k; i++)
        s = crc_nib(s, f[i]);
    f[k++] = (uint8_t)((s >> 12) & 15u);
    f[k++] = (uint8_t)((s >> 8) & 15u);
    f[k++] = (uint8_t)((s >> 4) & 15u);
    f[k++] = (uint8_t)(s & 15u);
    m->fsym = k * 4u / m->p.LINK_W;
    m->fi = 0;
    count(m, MLC_CTR_TX_FRAMES, 1);
    if (np == 0)
        count(m, MLC_CTR_TX_NULL, 1);
    count(m, MLC_CTR_TX_PKTS, np);
}

static uint8_t symbol(const mlc_t *m, unsigned i)
{
    if (m->p.LINK_W == 4)
        return m->fr[i];
    return (uint8_t)(m->fr[2 * i] | (m->fr[2 * i + 1] << 4));
}

/* ------------------------------------------------------------------ rule 2: receiving */

/* one symbol d received in LISTEN: its nibbles (first the low one) into the frame's nibbles (the
 * first MLC_MAX_NIBBLES kept, up to 4096 counted) and into its check state */
static void receive_symbol(mlc_t *m, unsigned d)
{
    unsigned rn = m->rn;
    uint16_t rs = m->rs;
    for (unsigned i = 0; i < m->p.LINK_W / 4u; i++) {
        unsigned x = (d >> (4 * i)) & 15u;
        rs = crc_nib(rs, x);
        if (rn < MLC_MAX_NIBBLES)
            m->rf[rn] = (uint8_t)x;
        if (rn < 4096)
            rn++;
    }
    m->rn = rn;
    m->rs = rs;
}

/* ------------------------------------------------------------------ rule 6: judging a frame */

static void judge_frame(mlc_t *m)
{
    unsigned np = m->rn > 0 ? m->rf[0] : 0;
    unsigned flags = m->rn > 1 ? m->rf[1] : 0;
    unsigned ch = flags & 1u, T = (flags >> 1) & 1u, E = (flags >> 2) & 1u;
    unsigned bad = 0;
    if (m->rn != 8u + 32u * np)
        bad = MLC_CTR_ERR_LEN;
    else if (m->rs != 0)
        bad = MLC_CTR_ERR_CHECK;
    else if (np > m->cadv[ch])
        bad = MLC_CTR_ERR_CREDIT;
    else if (np > 0 && T == m->emine)
        bad = MLC_CTR_DUP;
    if (bad) {
        count(m, bad, 1);
        m->good = 0;
        return;
    }
    count(m, MLC_CTR_RX_FRAMES, 1);
    if (np == 0)
        count(m, MLC_CTR_RX_NULL, 1);
    m->crx[0] = m->rf[2];
    m->crx[1] = m->rf[3];
    if (m->oval) {
        if (E == m->oT) {
            m->tx[m->och].ack += m->onp;
            m->tack = m->oT;
        } else {
            count(m, MLC_CTR_RETX, m->onp);
        }
        m->oval = 0;
    }
    if (np > 0) {
        rxfifo_t *rf = &m->rx[ch];
        for (unsigned u = 0; u < np; u++) {
            uint32_t unit = rf->acc + u;
            for (unsigned wi = 0; wi < 8; wi++) {
                const uint8_t *q = &m->rf[4 + 32 * u + 4 * wi];
                uint16_t wd = (uint16_t)(q[0] | (q[1] << 4) | (q[2] << 8) | (q[3] << 12));
                rf->w[(unit * 8u + wi) & m->wmask] = wd;
            }
            parse_at(m, &rf->ps, unit, rf->w[(unit * 8u) & m->wmask]);
        }
        rf->acc += np;
        count(m, MLC_CTR_RX_PKTS, np);
        m->emine = T;
    }
    m->good = 1;
    m->hold = 0;
}

/* ------------------------------------------------------------------ the step */

static uint32_t reg_value(const mlc_t *m, unsigned a)
{
    if (a < 15)
        return m->ctr[a];
    if (a == MLC_REG_LINK)
        return (uint32_t)(m->good | (m->oval << 1) | (m->tack << 2) | (m->emine << 3) | (m->crx[0] << 4) |
                          (m->crx[1] << 8) | (m->st << 12) | (m->hold << 14));
    if (a == MLC_REG_CFG)
        return m->cfg;
    if (a == 17 || a == 18)
        return tx_space(m, a - 17);
    if (a == 19 || a == 20)
        return rx_avail(m, a - 19);
    return MLC_RDATA_ERROR;
}

void mlc_step(mlc_t *m, const mlc_in_t *in, mlc_out_t *out)
{
    /* the outputs after step k, gathered here and written at the end (outputs that are 0 in a step
     * stay 0) */
    unsigned tx_en = 0, tx_d = 0, h_rvalid = 0, h_rdata = 0, reg_rvalid = 0;
    uint32_t reg_rdata = 0;
    m->step++;

    /* rule 8: register read on the state after k-1 */
    if (in->reg_rd) {
        reg_rvalid = 1;
        reg_rdata = reg_value(m, in->reg_addr & 31u);
    }

    /* rule 7: host checks on the status after k-1 */
    unsigned wch = in->h_wch & 1u, rch = in->h_rch & 1u;
    int do_wr = in->h_wr && m->st_tx_space[wch] >= 2;
    int do_rd = in->h_rd && m->st_rx_avail[rch] >= 2;
    int judged = 0, cfg_wr = in->reg_wr && (in->reg_addr & 31u) == MLC_REG_CFG;

    /* rule 1: the link */
    unsigned st = m->st;
    if (st == MLC_ST_TURN || st == MLC_ST_SEND) {
        if (in->rx_en) {
            count(m, MLC_CTR_CONFLICT, 1);
            if (!m->p.MASTER)
                m->hold = 1;
        }
        if (st == MLC_ST_TURN && m->w > 0) {
            m->w--;
        } else {
            if (st == MLC_ST_TURN) {
                build_frame(m);
                m->st = MLC_ST_SEND;
            }
            tx_en = 1;
            tx_d = symbol(m, m->fi);
            m->fi++;
            if (m->fi == m->fsym) {
                m->st = MLC_ST_LISTEN;
                m->inframe = 0;
                m->silence = 0;
                m->since = 0;
            }
        }
    } else { /* LISTEN, rule 2 */
        /* the slave's guard: steps since its last symbol (k - e), saturating at GUARD */
        if (m->since < m->p.GUARD)
            m->since++;
        if (!m->p.MASTER && in->rx_en && (m->early || (!m->inframe && m->since < m->p.GUARD))) {
            /* an early frame: every symbol a conflict, the frame ignored, not answered */
            m->early = 1;
            count(m, MLC_CTR_CONFLICT, 1);
            m->hold = 1;
        } else if (in->rx_en) {
            if (!m->inframe) {
                m->inframe = 1;
                m->rn = 0;
                m->rs = 0xFFFF;
            }
            receive_symbol(m, in->rx_d);
        } else if (m->early) {
            m->early = 0; /* the early frame ended: silence */
        } else if (m->inframe) {
            judge_frame(m);
            judged = 1;
            m->inframe = 0;
            if (m->good || !m->hold) { /* a holding slave does not answer a bad frame */
                m->st = MLC_ST_TURN;
                m->w = m->p.TURN;
            }
        } else if (m->p.MASTER && m->p.TIMEOUT > 0) {
            m->silence++;
            if (m->silence >= m->p.TIMEOUT) {
                count(m, MLC_CTR_TIMEOUT, 1);
                m->good = 0;
                m->st = MLC_ST_TURN;
                m->w = m->p.TURN;
            }
        }
    }

    /* rule 7: host actions */
    if (do_wr) {
        txfifo_t *f = &m->tx[wch];
        f->w[f->wr & m->wmask] = in->h_wdata;
        f->wr++;
        if (f->wr % 8u == 0) {
            uint32_t unit = f->wr / 8u - 1u;
            parse_at(m, &f->ps, unit, f->w[(unit * 8u) & m->wmask]);
        }
    } else if (in->h_wr) {
        count(m, MLC_CTR_WR_OVER, 1);
    }
    if (do_rd) {
        rxfifo_t *f = &m->rx[rch];
        h_rvalid = 1;
        h_rdata = f->w[f->rd & m->wmask];
        f->rd++;
    } else if (in->h_rd) {
        count(m, MLC_CTR_RD_UNDER, 1);
    }

    /* rule 8: configuration write */
    if (cfg_wr)
        m->cfg = in->reg_wdata & 7u;

    /* status after step k: only a host write or read, a judged frame (acknowledged and accepted
     * units) or the configuration (message-based availability) change it */
    if (do_wr || do_rd || judged || cfg_wr)
        for (unsigned c = 0; c < MLC_NCH; c++) {
            m->st_tx_space[c] = (uint16_t)tx_space(m, c);
            m->st_rx_avail[c] = (uint16_t)rx_avail(m, c);
        }

    /* outputs (into m->out when the caller takes none) */
    mlc_out_t *o = out ? out : &m->out;
    memset(o, 0, sizeof *o);
    o->tx_en = (uint8_t)tx_en;
    o->tx_d = (uint8_t)tx_d;
    o->h_rvalid = (uint8_t)h_rvalid;
    o->h_rdata = (uint16_t)h_rdata;
    for (unsigned c = 0; c < MLC_NCH; c++) {
        o->st_tx_space[c] = m->st_tx_space[c];
        o->st_rx_avail[c] = m->st_rx_avail[c];
    }
    o->reg_rvalid = (uint8_t)reg_rvalid;
    o->reg_rdata = reg_rdata;
}

uint32_t mlc_counter(const mlc_t *m, unsigned ctr) { return ctr < MLC_NCTR ? m->ctr[ctr] : 0; }

void mlc_ctr_preset(mlc_t *m, unsigned ctr, uint32_t v)
{
    if (ctr < MLC_NCTR)
        m->ctr[ctr] = v & m->ctr_mask;
}

const char *mlc_counter_name(unsigned ctr)
{
    static const char *const names[MLC_NCTR] = {
        "tx_frames", "tx_null", "tx_pkts", "rx_frames", "rx_null", "rx_pkts", "err_check", "err_len",
        "err_credit", "dup", "retx", "timeout", "conflict", "wr_over", "rd_under", "err_msg"};
    return ctr < MLC_NCTR ? names[ctr] : "?";
}

uint64_t mlc_steps(const mlc_t *m) { return m->step; }

/* ------------------------------------------------------------------ link model */

struct mlc_link {
    unsigned delay;
    /* cable registers per direction: ring of `delay` entries, bit 8 = en, bits 7..0 = d */
    uint16_t ab[MLC_MAX_LINK_DELAY + 1], ba[MLC_MAX_LINK_DELAY + 1];
    unsigned pos;
    /* each end's drive history, to detect overlaps at the pins */
    uint8_t a_en_prev, b_en_prev;
    uint64_t overlaps;
};

mlc_link_t *mlc_link_new(unsigned delay)
{
    if (delay > MLC_MAX_LINK_DELAY)
        return NULL;
    mlc_link_t *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->delay = delay;
    return l;
}

void mlc_link_free(mlc_link_t *l) { free(l); }

void mlc_link_reset(mlc_link_t *l)
{
    unsigned d = l->delay;
    memset(l, 0, sizeof *l);
    l->delay = d;
}

void mlc_link_step(mlc_link_t *l, const mlc_out_t *oa, const mlc_out_t *ob, mlc_in_t *ia, mlc_in_t *ib)
{
    uint16_t va = (uint16_t)(oa->tx_en ? (0x100u | oa->tx_d) : 0u);
    uint16_t vb = (uint16_t)(ob->tx_en ? (0x100u | ob->tx_d) : 0u);
    uint16_t ra = va, rb = vb; /* what arrives at the far end next step */
    if (l->delay > 0) {
        ra = l->ab[l->pos];
        rb = l->ba[l->pos];
        l->ab[l->pos] = va;
        l->ba[l->pos] = vb;
        l->pos = (l->pos + 1) % l->delay;
    }
    /* at B's pins in the next cycle: B drives (ob) and A's delayed signal arrives (ra) */
    if ((ob->tx_en && (ra & 0x100u)) || (oa->tx_en && (rb & 0x100u)))
        l->overlaps++;
    ib->rx_en = (uint8_t)((ra >> 8) & 1u);
    ib->rx_d = (uint8_t)(ra & 0xFFu);
    ia->rx_en = (uint8_t)((rb >> 8) & 1u);
    ia->rx_d = (uint8_t)(rb & 0xFFu);
}

uint64_t mlc_link_overlaps(const mlc_link_t *l) { return l->overlaps; }
