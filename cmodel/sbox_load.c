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
    tfile_reader_t r;
    tfile_reader_init(&r, &l->tf, fp, "sanfab-maestro", t->algorithm, sizeof t->algorithm);
    int cur_sw = -1, rc = 0, got, have_hdr = 0; /* have_hdr: the 'switches ...' line was read */
    static const char *const kw_hdr[] = {"switches", "", "hosts", "", NULL};
    static const char *const kw_dst[] = {"dst", "", "port", "", NULL};
    while (rc == 0 && (got = tfile_next(&r)) != 0) {
        if (got < 0) {
            rc = -1;
            break;
        }
        unsigned line = r.line;
        char **f = r.f;
        int nf = r.nf;
        unsigned v[2];
        if (!have_hdr) {
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
            have_hdr = 1;
            continue;
        }
        if (strcmp(f[0], "switch") == 0) {
            if ((rc = tfile_switch_line(&l->tf, line, f, nf, t->switches, &v[0])))
                break;
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
    if (rc == 0 && !have_hdr)
        rc = tfile_fail(&l->tf, r.line, r.state == 0 ? "missing header: the file is empty" : "truncated: no 'switches S hosts H' line");
    tfile_reader_free(&r);
    return rc;
}

int sbox_load_file(const char *path, unsigned switch_id, unsigned ports, unsigned nodes, sbox_table_t *t, char *err,
                   size_t errlen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        ld_t l = {{path, err, errlen}};
        memset(t, 0, sizeof *t);
        for (unsigned d = 0; d < SBOX_LOAD_MAX_NODES; d++)
            t->port[d] = -1;
        return tfile_fail(&l.tf, 0, "cannot open: %s", strerror(errno));
    }
    int rc = sbox_load_stream(fp, path, switch_id, ports, nodes, t, err, errlen);
    fclose(fp);
    return rc;
}

int sbox_load_stream(FILE *fp, const char *path, unsigned switch_id, unsigned ports, unsigned nodes, sbox_table_t *t,
                     char *err, size_t errlen)
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
    unsigned hdr_line = 0, sw_line = 0;
    int rc = parse(&l, fp, switch_id, ports, nodes, t, &hdr_line, &sw_line);
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
