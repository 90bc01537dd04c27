#!/usr/bin/env bash
# sanfab — proves tb/xbar/xbar_unit.c can fail: builds it against deliberately broken copies of
# cmodel/xbar.c (one textual change each, below: a rule of docs/xbar.md broken) and requires every
# build to end with a failed check ("xbar_unit: N checks, M failed" with M > 0 and exit status 1; a
# crash or a build error is a failure of this script, not a catch). The real model must pass. Run
# from the repository root:
#   bash tb/xbar/mutants.sh [NAME...]   (all mutants; or only the named ones)
set -u
cd "$(dirname "$0")/../.."
TAG="xbar mutants"
MODEL=cmodel/xbar.c
SRCS="tb/common/unit_main.c sw/src/sf_cli.c $(echo tb/xbar/xbar_unit*.c)"
UNIT=xbar_unit
UNIT_ARGS="--stop-on-fail"  # a mutant is caught at its first failed test

# name | exact text in cmodel/xbar.c | replacement (first occurrence; \n is a newline; no '|' in the
# text, the runner splits on it; \| a '|' in the replacement)
MUTANTS=$(cat <<'EOF2'
STOP_EARLY|if (occ >= q->STOP_THRESH)|if (occ + 1u >= q->STOP_THRESH)
GO_EARLY|else if (occ <= q->GO_THRESH)|else if (occ <= q->GO_THRESH + 1u)
STOP_IGNORED|        o->stop = 1;|        o->stop = 0;
RR_NOROTATE|o->rr = (uint8_t)((g + 1u) % m->p.NPORTS);|o->rr = (uint8_t)(o->rr + 0u * g);
CRC_NOMARK|(s->crc_chk != 0 |(0 
CRC_ROUTE|            s->crc_fwd = 0;|            s->crc_fwd = m->crc_tab[b];
ROUTE_PORT|s->hdr = (uint8_t)ROUTE_PORT(b);|s->hdr = (uint8_t)((ROUTE_PORT(b) + 1u) % m->p.NPORTS);
TIMEOUT_LATE|            if (T != 0 && s->tmo == T - 1u) {\n                s->state = RS_DRAIN;\n                event|            if (T != 0 && s->tmo == T) {\n                s->state = RS_DRAIN;\n                event
DROP_ROUTE_UNCOUNTED|        event(ev, i, XBAR_CTR_DROP_ROUTE);|        (void)i;\n        (void)ev;
DROPPING_LATE|s->dropping = occ0 >= m->p.SLACK_DEPTH - 1u;|s->dropping = occ0 >= m->p.SLACK_DEPTH;
TX_BYTES_LAST|            event(ev, p, XBAR_CTR_TX_BYTES);\n            o->gap = 1;|            o->gap = 1;
EOF2
)

# shellcheck source=tb/common/model_mutants.sh
. tb/common/model_mutants.sh
