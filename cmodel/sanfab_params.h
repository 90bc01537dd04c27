/* sanfab_params.h -- every block's parameters, written once: name, default, legal range (X-macros; no include guard).
 *
 * The C code includes this file for what it needs (the C models' default-params functions, sanfab-sim's defaults;
 * the models' header limits XBAR_MAX_PORTS, VCSW_MAX_PORTS, ..._MAX_LINK_DELAY are checked against HI at compile time);
 * scripts/check_params.py (make lint) reads it and checks every copy the compiler cannot reach: the RTL's
 * `parameter NAME = V` defaults (tops, submodules, Icarus benches), mk/<block>.mk's <block>_PARAMS, mk/net.mk's
 * NET_PARAMS_* and NET_KEY_*, the docs' parameter tables and sanfab-sim's key table. tb/common/param_range_test.sh
 * reads the ranges: a value just outside one must stop the elaboration of the block's top.
 *
 * A line is one macro call with literal arguments only (the checker parses them):
 *   XBAR_PARAM(NAME, DEFAULT, LO, HI)       the crossbar (rtl/xbar/xbar.v, cmodel/xbar.c xbar_params_t, docs/xbar.md)
 *   VCSW_PARAM(NAME, DEFAULT, LO, HI)       the VC switch (rtl/vcsw/vcsw.v, cmodel/vcsw.c vcsw_params_t, docs/vcsw.md)
 *   MLC_PARAM(NAME, DEFAULT, LO, HI)        the MLC, both ends (rtl/mlc/mlc.v and mlc_pair.v, mlc_params_t, docs/mlc.md)
 *   MLC_END_PARAM(NAME, DEFAULT, LO, HI)    the MLC, per end (rtl/mlc/mlc.v, mlc_params_t; mlc_pair.v sets them)
 *   MLC_LINK_PARAM(NAME, DEFAULT, LO, HI)   the MLC bench's link model (rtl/mlc/mlc_pair.v, mk/mlc.mk; not mlc_params_t)
 *   NET_XBAR_PARAM(NAME, KEY, DEFAULT, FIELD)  a crossbar network (sanfab-sim --switch xbar, rtl/net/net4.v,
 *                                              mk/net.mk NET_PARAMS_xbar): the top's parameter NAME, the sanfab-sim
 *                                              key that sets it, the network's default, its sf_sim_cfg field
 *   NET_VCSW_PARAM(NAME, KEY, DEFAULT, FIELD)  the same for a VC switch network (rtl/net/vnet4.v, NET_PARAMS_vcsw)
 *   NET_SBOX_PARAM(NAME, KEY, DEFAULT, FIELD)  the same for a network of Maestro switch boxes (NET_PARAMS_sbox)
 * LO..HI is the legal range's envelope; the docs' range column gives the finer rules (DEPTH a power of two, TIMEOUT
 * 0 or 2.., STOP_THRESH at most SLACK_DEPTH) and each model's params_check and each top's elaboration check enforce
 * them. The crossbar's SLACK_DEPTH range is the RTL's (the C model takes up to 8191, docs/xbar.md).
 * A network's defaults are the papers' timing sets (Myrinet: Flich et al. 2002; RHiNET: Koibuchi et al. 2003), not
 * the block's. The sanfab-sim default of maxlen is the packet length (packet-flits, 128).
 *
 * Adding a block (e.g. the switch box): a macro of its own in the three lists below (the empty default, its lines,
 * the #undef), and its line in scripts/check_params.py's BLOCKS. */

#ifndef XBAR_PARAM
#define XBAR_PARAM(NAME, DEFAULT, LO, HI)
#endif
#ifndef VCSW_PARAM
#define VCSW_PARAM(NAME, DEFAULT, LO, HI)
#endif
#ifndef MLC_PARAM
#define MLC_PARAM(NAME, DEFAULT, LO, HI)
#endif
#ifndef MLC_END_PARAM
#define MLC_END_PARAM(NAME, DEFAULT, LO, HI)
#endif
#ifndef MLC_LINK_PARAM
#define MLC_LINK_PARAM(NAME, DEFAULT, LO, HI)
#endif
#ifndef NET_XBAR_PARAM
#define NET_XBAR_PARAM(NAME, KEY, DEFAULT, FIELD)
#endif
#ifndef NET_VCSW_PARAM
#define NET_VCSW_PARAM(NAME, KEY, DEFAULT, FIELD)
#endif
#ifndef NET_SBOX_PARAM
#define NET_SBOX_PARAM(NAME, KEY, DEFAULT, FIELD)
#endif

/* the crossbar (docs/xbar.md, Parameters) */
XBAR_PARAM(NPORTS,      8,    2, 32)
XBAR_PARAM(SLACK_DEPTH, 80,   4, 255)
XBAR_PARAM(STOP_THRESH, 56,   1, 255)
XBAR_PARAM(GO_THRESH,   40,   0, 254)
XBAR_PARAM(ROUTE_DELAY, 0,    0, 255)
XBAR_PARAM(LINK_DELAY,  0,    0, 64)
XBAR_PARAM(TIMEOUT,     4096, 0, 16777215)
XBAR_PARAM(COUNTERS,    1,    0, 1)
XBAR_PARAM(CTR_WIDTH,   32,   8, 32)

/* the table-lookup VC switch (docs/vcsw.md, Parameters) */
VCSW_PARAM(NPORTS,     8,  2, 16)
VCSW_PARAM(NVC,        2,  2, 16)
VCSW_PARAM(CTRL,       1,  0, 1)
VCSW_PARAM(FLIT_W,     16, 1, 32)
VCSW_PARAM(TAG_W,      8,  1, 12)
VCSW_PARAM(DEPTH,      64, 8, 256)
VCSW_PARAM(MAXLEN,     32, 1, 256)
VCSW_PARAM(LINK_DELAY, 0,  0, 64)
VCSW_PARAM(COUNTERS,   1,  0, 1)
VCSW_PARAM(CTR_WIDTH,  32, 8, 32)

/* the Maestro Link Controller (docs/mlc.md, Parameters); MASTER has no default in the docs (the two ends differ):
 * the model's default end is the master. GUARD's default is mlc_guard(LINK_DELAY 0, TURN 1). */
MLC_PARAM(LINK_W,          4,    4, 8)
MLC_PARAM(FIFO_BYTES,      2048, 256, 4096)
MLC_PARAM(TURN,            1,    0, 15)
MLC_END_PARAM(MASTER,      1,    0, 1)
MLC_PARAM(TIMEOUT,         1024, 0, 65535)
MLC_PARAM(CTR_W,           16,   8, 32)
MLC_END_PARAM(GUARD,       5,    0, 147)
MLC_LINK_PARAM(LINK_DELAY, 0,    0, 64)

/* sanfab-sim's crossbar network (Myrinet timing) */
NET_XBAR_PARAM(SLACK_DEPTH, slack,       80,      slack)
NET_XBAR_PARAM(STOP_THRESH, stop,        56,      stop)
NET_XBAR_PARAM(GO_THRESH,   go,          40,      go)
NET_XBAR_PARAM(ROUTE_DELAY, route-delay, 21,      route_delay)
NET_XBAR_PARAM(TIMEOUT,     timeout,     1048576, timeout)
NET_XBAR_PARAM(CABLE_DELAY, link-delay,  8,       link_delay)
NET_XBAR_PARAM(HOST_DELAY,  host-delay,  8,       host_delay)

/* sanfab-sim's VC switch network (Koibuchi et al. 2003) */
NET_VCSW_PARAM(NVC,        vcs,        4,   vcsw.NVC)
NET_VCSW_PARAM(CTRL,       ctrl,       0,   vcsw.CTRL)
NET_VCSW_PARAM(FLIT_W,     flit-width, 16,  vcsw.FLIT_W)
NET_VCSW_PARAM(TAG_W,      tag-width,  12,  vcsw.TAG_W)
NET_VCSW_PARAM(DEPTH,      depth,      256, vcsw.DEPTH)
NET_VCSW_PARAM(MAXLEN,     maxlen,     128, vcsw.MAXLEN)
NET_VCSW_PARAM(LINK_DELAY, link-delay, 0,   vcsw.LINK_DELAY)
NET_VCSW_PARAM(COUNTERS,   counters,   0,   vcsw.COUNTERS)
NET_VCSW_PARAM(CTR_WIDTH,  ctr-width,  32,  vcsw.CTR_WIDTH)

/* the Maestro network (sanfab-sim --switch sbox): its boxes' and NIs' MLCs, the links (Yamagiwa et al. 2000: 4-bit links) */
NET_SBOX_PARAM(LINK_W,     link-width,  4,    mnic.link_w)
NET_SBOX_PARAM(FIFO_BYTES, fifo-bytes,  2048, mnic.fifo_bytes)
NET_SBOX_PARAM(TURN,       turn,        1,    mnic.turn)
NET_SBOX_PARAM(TIMEOUT,    mlc-timeout, 1024, mnic.timeout)
NET_SBOX_PARAM(CTR_W,      ctr-width,   16,   mnic.ctr_w)
NET_SBOX_PARAM(LINK_DELAY, link-delay,  0,    mnic.link_delay)

#undef XBAR_PARAM
#undef VCSW_PARAM
#undef MLC_PARAM
#undef MLC_END_PARAM
#undef MLC_LINK_PARAM
#undef NET_XBAR_PARAM
#undef NET_VCSW_PARAM
#undef NET_SBOX_PARAM
