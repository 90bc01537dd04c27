#!/usr/bin/env bash
# sanfab — proves tb/mlc/mlc_unit.c can fail: builds it against deliberately broken copies of
# cmodel/mlc.c (one textual change each, below) and requires every build to end with a failed check
# ("mlc_unit: N checks, M failed" with M > 0 and exit status 1; a crash or a build error is a
# failure of this script, not a catch). The real model must pass. Run from the repository root:
#   bash tb/mlc/mutants.sh [NAME...]   (all mutants, about 90 s; or only the named ones)
set -u
cd "$(dirname "$0")/../.."
TAG="mutants"
MODEL=cmodel/mlc.c
SRCS="sw/sim/mlc_host.c tb/common/unit_main.c sw/src/sf_cli.c $(echo tb/mlc/mlc_unit*.c)"
UNIT=mlc_unit
UNIT_ARGS="--cycles 200000 --stop-on-fail"  # a mutant is caught at its first failed test

# name | exact text in cmodel/mlc.c | replacement (first occurrence; \n is a newline, \| a "|")
MUTANTS=$(cat <<'EOF'
CREDIT_PLUS1|unsigned cr = umin(15, rx_free_units(m, c));|unsigned cr = umin(15, rx_free_units(m, c) + 1);
NO_CHECK|else if (m->rs != 0)|else if (0)
TURN_EARLY|                m->w = m->p.TURN;\n            }\n        } else if|                m->w = m->p.TURN ? m->p.TURN - 1 : 0;\n            }\n        } else if
NO_TOGGLE|T = 1u - m->tack;|T = 1u;
ACK_ALWAYS|if (E == m->oT) {|if ((E & 0u) == 0u) {
NO_DUP_CHECK|else if (np > 0 && T == m->emine)|else if (0)
NO_CREDIT_CHECK|else if (np > m->cadv[ch])|else if (0)
SEND_AFTER_BAD|    if (m->good) {\n        unsigned cap|    if (1) {\n        unsigned cap
LONG_FRAME_OK|if (m->rn != 8u + 32u * np)|if (m->rn < 8u + 32u * np)
SINGLE_CAP|static const unsigned caps[4] = {15, 1, 2, 4};|static const unsigned caps[4] = {15, 1, 2, 3};
TIMEOUT_LATE|if (m->silence >= m->p.TIMEOUT)|if (m->silence > m->p.TIMEOUT)
NIBBLE_ORDER|(m->fr[2 * i + 1] << 4)|(m->fr[2 * i] << 4)
MSG_STATUS|    if (m->cfg & MLC_CFG_MSG) {\n        uint32_t e|    if (0) {\n        uint32_t e
PC_OFF1|ps->need = (int32_t)pc - 2;|ps->need = (int32_t)pc - 1;
SENDABLE_WRAP|return f->ps.msgend > f->ack ? f->ps.msgend - f->ack : 0u;|return f->ps.msgend - f->ack;
WRITE_WHEN_FULL|int do_wr = in->h_wr && m->st_tx_space[wch] >= 2;|int do_wr = in->h_wr;
NO_HOLD|                m->hold = 1;|                m->hold = 0;
CRC_INIT0|m->rs = 0xFFFF;\n            }|m->rs = 0;\n            }
GUARD_OFF|if (!m->p.MASTER && in->rx_en && (m->early|if (0 && in->rx_en && (m->early
GUARD_AT|(!m->inframe && m->since < m->p.GUARD)|(!m->inframe && m->since <= m->p.GUARD)
GUARD_SHORT|(!m->inframe && m->since < m->p.GUARD)|(!m->inframe && m->since + 1 < m->p.GUARD)
GUARD_NO_EARLY|            m->early = 1;|            m->early = 0;
EOF
)

# shellcheck source=tb/common/model_mutants.sh
. tb/common/model_mutants.sh
