#!/usr/bin/env bash
# sanfab — proves tb/sbox/sbox_unit.c can fail: builds it against deliberately broken copies of
# cmodel/sbox.c (one textual change each, below: a rule of docs/sbox.md broken) and requires
# every build to end with a failed check ("sbox_unit: N checks, M failed" with M > 0 and exit
# status 1; a crash or a build error is a failure of this script, not a catch). The real model must
# pass. Run from the repository root:
#   bash tb/sbox/mutants.sh [NAME...]   (all mutants, about a minute; or only the named ones)
set -u
cd "$(dirname "$0")/../.."
TAG="sbox mutants"
MODEL=cmodel/sbox.c
SRCS="cmodel/mlc.c sw/sim/mlc_host.c tb/common/unit_main.c sw/src/sf_cli.c $(echo tb/sbox/sbox_unit*.c)"
UNIT=sbox_unit
UNIT_ARGS="--stop-on-fail"  # a mutant is caught at its first failed test

# name | exact text in cmodel/sbox.c | replacement (first occurrence; \n is a newline; no '|' in texts)
MUTANTS=$(cat <<'EOF'
ROOM_NO_INFLIGHT|unsigned need = 2u + ((o->wr.v && o->wr.ch == c && ((o->wr.P >> q) & 1u)) ? 2u : 0u);|unsigned need = 2u + (o->wr.v & 0u);
MOVE_NO_ROOM|return (avail2(b, p, c) && room(b, o, x->P, c)) ? G_MOVE : G_NONE;|return avail2(b, p, c) ? G_MOVE : G_NONE;
MOVE_NO_AVAIL|return (avail2(b, p, c) && room(b, o, x->P, c)) ? G_MOVE : G_NONE;|return room(b, o, x->P, c) ? G_MOVE : G_NONE;
AVAIL_CH1|return b->mo[p].st_rx_avail[c] >= 2; }|return b->mo[p].st_rx_avail[c] >= 2 \|\| c == 1; }
BP_SAME|n->bp = s + 1u < b->NS ? s + 1u : 0u;|n->bp = s;
MP_STUCK|n->mp = s + 1u < b->NS ? s + 1u : 0u;|n->mp = o->mp;
LOCK_EARLY|found = o->s[s].st == S_WAIT && need_met(b, o, s);|found = o->s[s].st == S_WAIT && need_met(b, n, s);
NO_LOCKS|found = o->s[s].st == S_WAIT && need_met(b, o, s);|found = o->s[s].st == S_WAIT && (need_met(b, o, s) \|\| 1);
ARRIVAL_BACK|        return E & ~(1u << a);|        return E;
UP_MIX|if (dst == 255 && !from_up && (E & up)) {|if (0) {
NO_CLEAR|*w1 = (uint16_t)(*w1 & ~behind);|*w1 = *w1;
REQ_CLEARED|if (node_port && w0 != SBOX_W0_REQUEST)|if (node_port)
NO_TURN|int back = dst != 255|int back = 1
UP_TURNS|int from_up = (up >> a) & 1u;|int from_up = 0;
BOX_PORT_3|int node_port = popc(behind) <= 1;|int node_port = popc(behind) <= 2;
BAR_EARLY|    if (nb->A != Ep)\n        return;|    if (0)\n        return;
BAR_NOT_MEMBER|!((Ep >> p) & 1u)|0
UP_SENT_IGNORED|ob->up_sent) {|0) {
UP_NEVER|if (up_set(o) & E) {|if (0) {
RELEASE_NO_END|    if (x->cls == CL_RELEASE)\n        barrier_end(n, c);|    if (0)\n        barrier_end(n, c);
MADE_NO_SRC|return wi == 2 ? 0x00FFu : 0u;|return 0u;
REG_NEW_VALUE|n->ans.val = mlc ? SBOX_RDATA_ERROR : box_read(b, o, addr);|n->ans.val = mlc ? SBOX_RDATA_ERROR : box_read(b, n, addr);
REG_EARLY|out->reg_rvalid = o->ans.v;|out->reg_rvalid = in->reg_rd;
PC_LT1|if (pc < 2) {|if (pc < 1) {
PC_WORD9|} else if (o->rd.idx == 8 && (o->s[s].w0 & 1u)) {|} else if (o->rd.idx == 9 && (o->s[s].w0 & 1u)) {
TYPE0_TOT16|y->tot = (o->s[s].w0 & 1u) ? 0u : 8u;|y->tot = (o->s[s].w0 & 1u) ? 0u : 16u;
WORDS_PER_DEST|        count(b, n, SBOX_CTR_WORDS);|        for (unsigned q = popc(x->P); q > 0; q--) count(b, n, SBOX_CTR_WORDS);
RSV_NONE|    if (!o->rsv_v[c])\n        return 0;|    if (1)\n        return 0;
RSV_KEEP|            if (o->rsv[c] == act)\n                n->rsv_v[c] = 0;|            if (o->rsv[c] == act)\n                n->rsv_v[c] = 1;
RSV_FROM0|unsigned s = o->mp + ((o->mp & 1u) != c);|unsigned s = c;
MCAST_ONE|if (popc(x->P) >= 2)|if (popc(x->P) >= 1)
FAST_CH0|b->mo[q].st_rx_avail[1] >= 2)|0)
EOF
)

# shellcheck source=tb/common/model_mutants.sh
. tb/common/model_mutants.sh
