/* sanfab — table loader of the Maestro switch box (sbox_load.h). The whole file is parsed and
 * checked for form (every line, every switch); the chosen box's entries are then checked against
 * the box (ports, nodes) and duplicates that disagree are refused. The style and the messages follow
 * the VC switch's loader (cmodel/vcsw_load.c). */
#define _POSIX_C_SOURCE 200809L
#include "sbox_load.h"
#include "table_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>


typedef struct {
    tfile_t tf; /* the file and where its error message goes */
} ld_t;

static int parse(ld_t *l, FILE *fp, unsigned want_sw, unsigned ports, unsigned nodes, sbox_table_t *t,
                 unsigned *hdr_line, unsigned *sw_line)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned line = 0, state = 0; /* 0: expect header, 1: algorithm, 2: switches line, 3: body */
    int cur_sw = -1, rc = 0;
    static const char *const kw_hdr[] = {"switches", "", "hosts", "", NULL};
    static const char *const kw_dst[] = {"dst", "", "port", "", NULL};
    static const char *const kw_sw[] = {"switch", "", NULL};
    while (rc == 0 && (len = getline(&buf, &cap, fp)) >= 0) {
        line++;
        char *f[TFILE_MAX_FIELDS];
        int over;
        int nf = tfile_split(&l->tf, line, buf, len, f, &over);
        if (nf < 0) {
            rc = -1;
            break;
        }
        if (nf == 0)
            continue;
        if (state < 2) {
            rc = tfile_preamble(&l->tf, line, f, nf, "sanfab-maestro", &state, t->algorithm, sizeof t->algorithm);
            continue;
        }
        if (over) {
            rc = tfile_fail(&l->tf, line, "malformed line: too many fields");
            break;
        }
        unsigned v[2];
        if (state == 2) {
            static const int idx[] = {1, 3};
            if (!tfile_shape(f, nf, 4, kw_hdr)) {
                rc = tfile_fail(&l->tf, line, "malformed line: expected 'switches S hosts H'");
                break;
            }
            if ((rc = tfile_nums(&l->tf, line, f, idx, 2, v)))
                break;
            if (v[0] < 1 || v[0] > 1000000 || v[1] > 10000000) {
                rc = tfile_fail(&l->tf, line, "number out of range: switches 1..1000000, hosts 0..10000000");
                break;
            }
            t->switches = v[0];
            t->hosts = v[1];
            *hdr_line = line;
            state = 3;
            continue;
        }
        if (strcmp(f[0], "switch") == 0) {
            static const int idx[] = {1};
            if (!tfile_shape(f, nf, 2, kw_sw)) {
                rc = tfile_fail(&l->tf, line, "malformed line: expected 'switch S'");
                break;
            }
            if ((rc = tfile_nums(&l->tf, line, f, idx, 1, v)))
                break;
            if (v[0] >= t->switches) {
                rc = tfile_fail(&l->tf, line, "number out of range: switch %u (the file has %u switches)", v[0], t->switches);
                break;
            }
            cur_sw = (int)v[0];
            if (v[0] == want_sw && !*sw_line)
                *sw_line = line;
            continue;
        }
        if (strcmp(f[0], "dst") == 0) {
            static const int idx[] = {1, 3};
            if (!tfile_shape(f, nf, 4, kw_dst)) {
                rc = tfile_fail(&l->tf, line, "malformed line: expected 'dst D port P'");
                break;
            }
            if (cur_sw < 0) {
                rc = tfile_fail(&l->tf, line, "malformed line: 'dst' entry before any 'switch S' line");
                break;
            }
            if ((rc = tfile_nums(&l->tf, line, f, idx, 2, v)))
                break;
            if (v[0] >= t->hosts) {
                rc = tfile_fail(&l->tf, line, "number out of range: dst %u (the file has %u hosts)", v[0], t->hosts);
                break;
            }
            if ((unsigned)cur_sw != want_sw)
                continue;
            /* the chosen box: against the box's size, and against earlier lines */
            if (v[0] >= nodes) {
                rc = tfile_fail(&l->tf, line, "dst %u does not fit the box's table (NODES=%u: nodes 0..%u)", v[0], nodes,
                          nodes - 1);
                break;
            }
            if (v[1] >= ports) {
                rc = tfile_fail(&l->tf, line, "port %u: the box has %u ports (PORTS)", v[1], ports);
                break;
            }
            if (t->line[v[0]] && t->port[v[0]] != (int)v[1]) {
                rc = tfile_fail(&l->tf, line, "dst %u port %u disagrees with line %u (port %d)", v[0], v[1], t->line[v[0]],
                          t->port[v[0]]);
                break;
            }
            if (!t->line[v[0]]) {
                t->line[v[0]] = line;
                t->port[v[0]] = (int)v[1];
                t->entries++;
            }
            continue;
        }
        rc = tfile_fail(&l->tf, line, "malformed line: unknown keyword '%s'", f[0]);
    }
    if (rc == 0 && ferror(fp))
        rc = tfile_fail(&l->tf, 0, "read error: %s", strerror(errno));
    if (rc == 0 && state < 3)
        rc = tfile_fail(&l->tf, line, state == 0 ? "missing header: the file is empty" : "truncated: no 'switches S hosts H' line");
    free(buf);
    return rc;
}

int sbox_load_file(const char *path, unsigned switch_id, unsigned ports, unsigned nodes, sbox_table_t *t, char *err,
                   size_t errlen)
{
    ld_t l = {{path, err, errlen}};
    memset(t, 0, sizeof *t);
    for (unsigned d = 0; d < SBOX_LOAD_MAX_NODES; d++)
        t->port[d] = -1;
    if (err && errlen)
        err[0] = 0;
    if (!ports)
        ports = SBOX_LOAD_MAX_PORTS;
    if (!nodes)
        nodes = SBOX_LOAD_MAX_NODES;
    if (ports > SBOX_LOAD_MAX_PORTS || nodes > SBOX_LOAD_MAX_NODES)
        return tfile_fail(&l.tf, 0, "bad box: PORTS %u (1..%u), NODES %u (1..%u)", ports, SBOX_LOAD_MAX_PORTS, nodes,
                    SBOX_LOAD_MAX_NODES);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return tfile_fail(&l.tf, 0, "cannot open: %s", strerror(errno));
    unsigned hdr_line = 0, sw_line = 0;
    int rc = parse(&l, fp, switch_id, ports, nodes, t, &hdr_line, &sw_line);
    fclose(fp);
    if (!rc && switch_id >= t->switches)
        rc = tfile_fail(&l.tf, hdr_line, "switch %u is not in the file (%u switches)", switch_id, t->switches);
    else if (!rc && !sw_line)
        rc = tfile_fail(&l.tf, hdr_line, "switch %u has no 'switch %u' block in the file", switch_id, switch_id);
    else if (!rc && t->hosts > nodes)
        rc = tfile_fail(&l.tf, hdr_line, "the file has %u hosts, the box's table holds %u nodes (NODES)", t->hosts, nodes);
    if (rc) {
        memset(t, 0, sizeof *t);
        for (unsigned d = 0; d < SBOX_LOAD_MAX_NODES; d++)
            t->port[d] = -1;
        return -1;
    }
    t->switch_id = switch_id;
    t->nodes = t->hosts;
    return 0;
}
