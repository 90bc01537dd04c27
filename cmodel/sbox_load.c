/* sanfab — table loader of the Maestro switch box (sbox_load.h). The whole file is parsed and
 * checked for form (every line, every switch); the chosen box's entries are then checked against
 * the box (ports, nodes) and duplicates that disagree are refused. The style and the messages follow
 * the VC switch's loader (cmodel/vcsw_load.c). */
#define _POSIX_C_SOURCE 200809L
#include "sbox_load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define MAX_NUM 0x7FFFFFFFul
#define MAX_FIELDS 16

typedef struct {
    const char *path;
    char *err;
    size_t errlen;
} ld_t;

static int fail(ld_t *l, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(ld_t *l, unsigned line, const char *fmt, ...)
{
    if (!l->err || !l->errlen)
        return -1;
    int n = line ? snprintf(l->err, l->errlen, "%s:%u: ", l->path, line) : snprintf(l->err, l->errlen, "%s: ", l->path);
    if (n < 0 || (size_t)n >= l->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->err + n, l->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* a whole decimal number 0..MAX_NUM */
static int num(const char *s, unsigned *v)
{
    unsigned long x = 0;
    if (!*s)
        return -1;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        x = x * 10 + (unsigned long)(*c - '0');
        if (x > MAX_NUM)
            return -1;
    }
    *v = (unsigned)x;
    return 0;
}

/* fields f[idx[i]] as numbers into v[i] */
static int nums(ld_t *l, unsigned line, char **f, const int *idx, int n, unsigned *v)
{
    for (int i = 0; i < n; i++)
        if (num(f[idx[i]], &v[i]))
            return fail(l, line, "malformed line: '%s' is not a whole number 0..%lu", f[idx[i]], MAX_NUM);
    return 0;
}

/* 1 if f[0..nf) has want fields and the keywords of kw ("" = any) */
static int shape(char **f, int nf, int want, const char *const *kw)
{
    if (nf != want)
        return 0;
    for (int i = 0; kw[i]; i++)
        if (kw[i][0] && strcmp(f[i], kw[i]) != 0)
            return 0;
    return 1;
}

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
        if ((size_t)len != strlen(buf)) {
            rc = fail(l, line, "malformed line: NUL character");
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *f[MAX_FIELDS];
        int nf = 0, over = 0;
        for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
            if (nf == MAX_FIELDS)
                over = 1;
            else
                f[nf++] = tok;
        }
        if (nf == 0)
            continue;
        if (state == 0) {
            if (strcmp(f[0], "sanfab-maestro") != 0)
                rc = fail(l, line, "missing header: a sanfab-maestro file starts with 'sanfab-maestro 1'");
            else if (nf != 2 || strcmp(f[1], "1") != 0)
                rc = fail(l, line, "bad header '%s%s%s': this loader reads 'sanfab-maestro 1'", f[0], nf > 1 ? " " : "",
                          nf > 1 ? f[1] : "");
            state = 1;
            continue;
        }
        if (state == 1) {
            if (strcmp(f[0], "algorithm") != 0) {
                rc = fail(l, line, "malformed line: expected 'algorithm ...' after the header");
                break;
            }
            t->algorithm[0] = 0;
            for (int i = 1; i < nf; i++) {
                size_t u = strlen(t->algorithm);
                snprintf(t->algorithm + u, sizeof t->algorithm - u, "%s%s", i > 1 ? " " : "", f[i]);
            }
            state = 2;
            continue;
        }
        if (over) {
            rc = fail(l, line, "malformed line: too many fields");
            break;
        }
        unsigned v[2];
        if (state == 2) {
            static const int idx[] = {1, 3};
            if (!shape(f, nf, 4, kw_hdr)) {
                rc = fail(l, line, "malformed line: expected 'switches S hosts H'");
                break;
            }
            if ((rc = nums(l, line, f, idx, 2, v)))
                break;
            if (v[0] < 1 || v[0] > 1000000 || v[1] > 10000000) {
                rc = fail(l, line, "number out of range: switches 1..1000000, hosts 0..10000000");
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
            if (!shape(f, nf, 2, kw_sw)) {
                rc = fail(l, line, "malformed line: expected 'switch S'");
                break;
            }
            if ((rc = nums(l, line, f, idx, 1, v)))
                break;
            if (v[0] >= t->switches) {
                rc = fail(l, line, "number out of range: switch %u (the file has %u switches)", v[0], t->switches);
                break;
            }
            cur_sw = (int)v[0];
            if (v[0] == want_sw && !*sw_line)
                *sw_line = line;
            continue;
        }
        if (strcmp(f[0], "dst") == 0) {
            static const int idx[] = {1, 3};
            if (!shape(f, nf, 4, kw_dst)) {
                rc = fail(l, line, "malformed line: expected 'dst D port P'");
                break;
            }
            if (cur_sw < 0) {
                rc = fail(l, line, "malformed line: 'dst' entry before any 'switch S' line");
                break;
            }
            if ((rc = nums(l, line, f, idx, 2, v)))
                break;
            if (v[0] >= t->hosts) {
                rc = fail(l, line, "number out of range: dst %u (the file has %u hosts)", v[0], t->hosts);
                break;
            }
            if ((unsigned)cur_sw != want_sw)
                continue;
            /* the chosen box: against the box's size, and against earlier lines */
            if (v[0] >= nodes) {
                rc = fail(l, line, "dst %u does not fit the box's table (NODES=%u: nodes 0..%u)", v[0], nodes,
                          nodes - 1);
                break;
            }
            if (v[1] >= ports) {
                rc = fail(l, line, "port %u: the box has %u ports (PORTS)", v[1], ports);
                break;
            }
            if (t->line[v[0]] && t->port[v[0]] != (int)v[1]) {
                rc = fail(l, line, "dst %u port %u disagrees with line %u (port %d)", v[0], v[1], t->line[v[0]],
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
        rc = fail(l, line, "malformed line: unknown keyword '%s'", f[0]);
    }
    if (rc == 0 && ferror(fp))
        rc = fail(l, 0, "read error: %s", strerror(errno));
    if (rc == 0 && state < 3)
        rc = fail(l, line, state == 0 ? "missing header: the file is empty" : "truncated: no 'switches S hosts H' line");
    free(buf);
    return rc;
}

int sbox_load_file(const char *path, unsigned switch_id, unsigned ports, unsigned nodes, sbox_table_t *t, char *err,
                   size_t errlen)
{
    ld_t l = {path, err, errlen};
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
        return fail(&l, 0, "bad box: PORTS %u (1..%u), NODES %u (1..%u)", ports, SBOX_LOAD_MAX_PORTS, nodes,
                    SBOX_LOAD_MAX_NODES);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return fail(&l, 0, "cannot open: %s", strerror(errno));
    unsigned hdr_line = 0, sw_line = 0;
    int rc = parse(&l, fp, switch_id, ports, nodes, t, &hdr_line, &sw_line);
    fclose(fp);
    if (!rc && switch_id >= t->switches)
        rc = fail(&l, hdr_line, "switch %u is not in the file (%u switches)", switch_id, t->switches);
    else if (!rc && !sw_line)
        rc = fail(&l, hdr_line, "switch %u has no 'switch %u' block in the file", switch_id, switch_id);
    else if (!rc && t->hosts > nodes)
        rc = fail(&l, hdr_line, "the file has %u hosts, the box's table holds %u nodes (NODES)", t->hosts, nodes);
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
