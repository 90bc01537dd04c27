/* sanfab — table loader of the VC switch: reads one switch's routing and VC tables from a
 * `sanfab-rhinet 1` file (docs/routing.md, "RHiNET-style switch tables") and turns them into the
 * configuration writes of docs/vcsw.md (Configuration port). Errors read "FILE:LINE: problem".
 */
#ifndef SANFAB_VCSW_LOAD_H
#define SANFAB_VCSW_LOAD_H

#include "vcsw.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* switch_id value for vcsw_load_file(): the switch with the most table entries (lowest id on a tie). */
#define VCSW_LOAD_MOST (-1)

/* One configuration write: cfg_addr (space << 14 | index) and cfg_wdata (bit 15 valid, 3..0 value). */
typedef struct {
    uint16_t addr, wdata;
} vcsw_cfg_write_t;

/* One `nic SRC dst DST alt ALT tag TAG vc VC` line: what source host SRC puts in its head (TAG) and
 * the VC it injects on to reach DST. */
typedef struct {
    unsigned src, dst, alt, tag, vc;
} vcsw_nic_t;

/* A loaded file: its header, the chosen switch's tables as writes, and every nic line. */
typedef struct {
    unsigned switches, hosts, vcs, tags; /* the `switches S hosts H vcs V tags T` header line */
    char algorithm[160];                  /* the rest of the `algorithm` line */
    unsigned switch_id;                   /* the switch loaded */
    unsigned n_route, n_vc;               /* its `tag` and `vc` entries (distinct) */
    vcsw_cfg_write_t *writes;             /* n_route routing writes, then n_vc VC writes, each by index */
    size_t nwrites;
    vcsw_nic_t *nics;                     /* every nic line in file order */
    size_t nnics;
} vcsw_tables_t;

/* Reads `path` and fills `t` with the tables of switch `switch_id` (or VCSW_LOAD_MOST) checked
 * against the parameters `p`; 0 on success, -1 with "FILE:LINE: problem" in err (t then empty). */
int vcsw_load_file(const char *path, int switch_id, const vcsw_params_t *p, vcsw_tables_t *t, char *err,
                   size_t errlen);

/* Frees what vcsw_load_file() allocated in `t` (and empties it); NULL is allowed. */
void vcsw_tables_free(vcsw_tables_t *t);

/* The nic lines of a loaded file (src, dst, tag, vc ...): *n gets their number, NULL when none. */
const vcsw_nic_t *vcsw_tables_nics(const vcsw_tables_t *t, size_t *n);

/* Calls emit(ctx, addr, wdata) for every write of `t` in order; stops at and returns the first
 * non-zero value emit returns, else 0. */
int vcsw_tables_emit(const vcsw_tables_t *t, int (*emit)(void *ctx, uint16_t addr, uint16_t wdata), void *ctx);

/* Every switch's tables of one `sanfab-rhinet` file, for a network of VC switches (cmodel/vcsw_net.h). */
typedef struct {
    unsigned switches, hosts, vcs, tags; /* the header line */
    char algorithm[160];
    vcsw_tables_t *sw;                   /* per switch s (switches of them): its writes, switch_id s, no nic lines */
    vcsw_nic_t *nics;                    /* every nic line in file order */
    size_t nnics;
} vcsw_net_tables_t;

/* Reads `path` once and fills `t` with the tables of every switch, switch s checked against `p` with NPORTS
 * = nports[s]; the file must have exactly `nsw` switches (a switch without a block gets empty tables).
 * 0, or -1 with "FILE:LINE: problem" in err (t then empty). */
int vcsw_load_network(const char *path, const vcsw_params_t *p, const unsigned *nports, unsigned nsw,
                      vcsw_net_tables_t *t, char *err, size_t errlen);

/* vcsw_load_network() of an open file (read from its current position; not closed); `name` names it in the
 * error messages. */
int vcsw_load_network_stream(FILE *fp, const char *name, const vcsw_params_t *p, const unsigned *nports, unsigned nsw,
                             vcsw_net_tables_t *t, char *err, size_t errlen);

/* Frees what vcsw_load_network() allocated in `t` (and empties it); NULL is allowed. */
void vcsw_net_tables_free(vcsw_net_tables_t *t);

#endif
