/* sanfab — table loader of the VC switch (vcsw_load.h). The whole file is parsed and checked for
 * form (every line, every switch); the chosen switch's entries are then checked against the switch
 * parameters and turned into configuration writes. */
#define _POSIX_C_SOURCE 200809L
#include "vcsw_load.h"
#include "table_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>


typedef struct {
    unsigned sw, line;
    unsigned kind; /* 0: tag A port B; 1: vc A B C D (in, out, in VC, out VC) */
    unsigned a, b, c, d;
} raw_t;

typedef struct {
    tfile_t tf; /* the file and where its error message goes */
    raw_t *raw;
    size_t nraw, capraw;
    vcsw_nic_t *nic;
    size_t nnic, capnic;
    unsigned hdr_line;           /* line of `switches ...` */
    unsigned *sw_line;           /* first `switch S` line of each switch (0: none) */
} ld_t;

static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 256;
    void *q = realloc(*p, nc * sz);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int parse(ld_t *l, FILE *fp, vcsw_tables_t *t)
{
    tfile_reader_t r;
    tfile_reader_init(&r, &l->tf, fp, "sanfab-rhinet", t->algorithm, sizeof t->algorithm);
    int cur_sw = -1, rc = 0, got, have_hdr = 0; /* have_hdr: the 'switches ...' line was read */
    static const char *const kw_hdr[] = {"switches", "", "hosts", "", "vcs", "", "tags", "", NULL};
    static const char *const kw_nic[] = {"nic", "", "dst", "", "alt", "", "tag", "", "vc", "", NULL};
    static const char *const kw_tag[] = {"tag", "", "port", "", NULL};
    static const char *const kw_vc[] = {"vc", "", "", "", "", NULL};
    while (rc == 0 && (got = tfile_next(&r)) != 0) {
        if (got < 0) {
            rc = -1;
            break;
        }
        unsigned line = r.line;
        char **f = r.f;
        int nf = r.nf;
        unsigned v[5];
        if (!have_hdr) {
            static const int idx[] = {1, 3, 5, 7};
            if (!tfile_shape(f, nf, 8, kw_hdr)) {
                rc = tfile_fail(&l->tf, line, "malformed line: expected 'switches S hosts H vcs V tags T'");
                break;
            }
            if ((rc = tfile_nums(&l->tf, line, f, idx, 4, v)))
                break;
            if (v[0] < 1 || v[0] > 1000000 || v[1] > 10000000 || v[2] < 1 || v[2] > 16 || v[3] > 10000000) {
                rc = tfile_fail(&l->tf, line, "number out of range: switches 1..1000000, hosts 0..10000000, vcs 1..16, tags "
                                   "0..10000000");
                break;
            }
            t->switches = v[0];
            t->hosts = v[1];
            t->vcs = v[2];
            t->tags = v[3];
            l->hdr_line = line;
            l->sw_line = calloc(t->switches, sizeof *l->sw_line);
            if (!l->sw_line) {
                rc = tfile_fail(&l->tf, line, "out of memory");
                break;
            }
            have_hdr = 1;
            continue;
        }
        if (strcmp(f[0], "nic") == 0) {
            static const int idx[] = {1, 3, 5, 7, 9};
            if (!tfile_shape(f, nf, 10, kw_nic)) {
                rc = tfile_fail(&l->tf, line, "malformed line: expected 'nic SRC dst DST alt ALT tag TAG vc VC'");
                break;
            }
            if ((rc = tfile_nums(&l->tf, line, f, idx, 5, v)))
                break;
            if (v[0] >= t->hosts || v[1] >= t->hosts) {
                rc = tfile_fail(&l->tf, line, "number out of range: host %u (the file has %u hosts)", v[0] >= t->hosts ? v[0] : v[1],
                          t->hosts);
                break;
            }
            if (v[3] >= t->tags || v[4] >= t->vcs) {
                rc = tfile_fail(&l->tf, line, "number out of range: %s %u (the file has %u)", v[3] >= t->tags ? "tag" : "vc",
                          v[3] >= t->tags ? v[3] : v[4], v[3] >= t->tags ? t->tags : t->vcs);
                break;
            }
            if (grow((void **)&l->nic, &l->capnic, l->nnic, sizeof *l->nic)) {
                rc = tfile_fail(&l->tf, line, "out of memory");
                break;
            }
            l->nic[l->nnic++] = (vcsw_nic_t){.src = v[0], .dst = v[1], .alt = v[2], .tag = v[3], .vc = v[4]};
            continue;
        }
        if (strcmp(f[0], "switch") == 0) {
            if ((rc = tfile_switch_line(&l->tf, line, f, nf, t->switches, &v[0])))
                break;
            cur_sw = (int)v[0];
            if (!l->sw_line[v[0]])
                l->sw_line[v[0]] = line;
            continue;
        }
        int is_tag = strcmp(f[0], "tag") == 0, is_vc = strcmp(f[0], "vc") == 0;
        if (is_tag || is_vc) {
            static const int idx_tag[] = {1, 3}, idx_vc[] = {1, 2, 3, 4};
            if (is_tag ? !tfile_shape(f, nf, 4, kw_tag) : !tfile_shape(f, nf, 5, kw_vc)) {
                rc = tfile_fail(&l->tf, line, "malformed line: expected '%s'", is_tag ? "tag TAG port P" : "vc IN OUT INVC OUTVC");
                break;
            }
            if (cur_sw < 0) {
                rc = tfile_fail(&l->tf, line, "malformed line: '%s' entry before any 'switch S' line", f[0]);
                break;
            }
            if ((rc = tfile_nums(&l->tf, line, f, is_tag ? idx_tag : idx_vc, is_tag ? 2 : 4, v)))
                break;
            if (is_tag && v[0] >= t->tags) {
                rc = tfile_fail(&l->tf, line, "number out of range: tag %u (the file has %u tags)", v[0], t->tags);
                break;
            }
            if (is_vc && (v[2] >= t->vcs || v[3] >= t->vcs)) {
                rc = tfile_fail(&l->tf, line, "number out of range: VC %u (the file has %u VCs)", v[2] >= t->vcs ? v[2] : v[3],
                          t->vcs);
                break;
            }
            if (grow((void **)&l->raw, &l->capraw, l->nraw, sizeof *l->raw)) {
                rc = tfile_fail(&l->tf, line, "out of memory");
                break;
            }
            l->raw[l->nraw++] = (raw_t){.sw = (unsigned)cur_sw, .line = line, .kind = is_vc ? 1u : 0u, .a = v[0],
                                        .b = v[1], .c = is_vc ? v[2] : 0, .d = is_vc ? v[3] : 0};
            continue;
        }
        rc = tfile_fail(&l->tf, line, "malformed line: unknown keyword '%s'", f[0]);
    }
    if (rc == 0 && !have_hdr)
        rc = tfile_fail(&l->tf, r.line, r.state == 0 ? "missing header: the file is empty" : "truncated: no 'switches S hosts H vcs V "
                                                                              "tags T' line");
    tfile_reader_free(&r);
    return rc;
}

static int cmp_write(const void *a, const void *b)
{
    const vcsw_cfg_write_t *x = a, *y = b;
    return (int)x->addr - (int)y->addr;
}

/* The chosen switch's entries: range checks against p, duplicates, writes. */
static int build(ld_t *l, unsigned sw, const vcsw_params_t *p, vcsw_tables_t *t)
{
    const unsigned ndvc = vcsw_ndvc(p), ntags = 1u << p->TAG_W;
    if (t->vcs > ndvc)
        return tfile_fail(&l->tf, l->hdr_line, "the file uses %u VCs, the switch has %u data VCs (NVC=%u CTRL=%u)", t->vcs, ndvc,
                    p->NVC, p->CTRL);
    /* per index: the line that set it (0: none) and its value */
    unsigned *rline = calloc(ntags, sizeof *rline), *vline = calloc(16 * 16 * 16, sizeof *vline);
    uint8_t *rval = calloc(ntags, 1), *vval = calloc(16 * 16 * 16, 1);
    t->writes = calloc(ntags + 16 * 16 * 16, sizeof *t->writes);
    int rc = 0;
    if (!rline || !vline || !rval || !vval || !t->writes)
        rc = tfile_fail(&l->tf, 0, "out of memory");
    for (size_t i = 0; i < l->nraw && !rc; i++) {
        const raw_t *r = &l->raw[i];
        if (r->sw != sw)
            continue;
        if (r->kind == 0) {
            if (r->a >= ntags)
                rc = tfile_fail(&l->tf, r->line, "tag %u does not fit the routing table (TAG_W=%u: tags 0..%u)", r->a, p->TAG_W,
                          ntags - 1);
            else if (r->b >= p->NPORTS)
                rc = tfile_fail(&l->tf, r->line, "port %u: the switch has %u ports (NPORTS)", r->b, p->NPORTS);
            else if (rline[r->a] && rval[r->a] != r->b)
                rc = tfile_fail(&l->tf, r->line, "tag %u port %u disagrees with line %u (port %u)", r->a, r->b, rline[r->a],
                          rval[r->a]);
            else if (!rline[r->a]) {
                rline[r->a] = r->line;
                rval[r->a] = (uint8_t)r->b;
            }
        } else {
            if (r->a >= p->NPORTS || r->b >= p->NPORTS) {
                rc = tfile_fail(&l->tf, r->line, "port %u: the switch has %u ports (NPORTS)", r->a >= p->NPORTS ? r->a : r->b,
                          p->NPORTS);
                break;
            }
            unsigned ix = VCSW_VC_INDEX(r->a, r->b, r->c);
            if (vline[ix] && vval[ix] != r->d)
                rc = tfile_fail(&l->tf, r->line, "vc %u %u %u %u disagrees with line %u (output VC %u)", r->a, r->b, r->c, r->d,
                          vline[ix], vval[ix]);
            else if (!vline[ix]) {
                vline[ix] = r->line;
                vval[ix] = (uint8_t)r->d;
            }
        }
    }
    if (!rc) {
        size_t n = 0;
        for (unsigned g = 0; g < ntags; g++)
            if (rline[g])
                t->writes[n++] = (vcsw_cfg_write_t){VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, g), VCSW_ENTRY(1, rval[g])};
        t->n_route = (unsigned)n;
        for (unsigned ix = 0; ix < 16 * 16 * 16; ix++)
            if (vline[ix])
                t->writes[n++] = (vcsw_cfg_write_t){VCSW_CFG_ADDR(VCSW_SPACE_VC, ix), VCSW_ENTRY(1, vval[ix])};
        t->n_vc = (unsigned)(n - t->n_route);
        t->nwrites = n;
        qsort(t->writes, t->n_route, sizeof *t->writes, cmp_write);
    }
    free(rline);
    free(vline);
    free(rval);
    free(vval);
    return rc;
}

/* A loader for file `path` whose messages go to err; 0, or -1 with the message if the parameters are bad. */
static int ld_start(ld_t *l, const char *path, const vcsw_params_t *p, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    l->tf.path = path;
    l->tf.err = err;
    l->tf.errlen = errlen;
    if (err && errlen)
        err[0] = 0;
    const char *perr = vcsw_params_check(p);
    return perr ? tfile_fail(&l->tf, 0, "bad switch parameters: %s", perr) : 0;
}

int vcsw_load_file(const char *path, int switch_id, const vcsw_params_t *p, vcsw_tables_t *t, char *err,
                   size_t errlen)
{
    ld_t l;
    memset(t, 0, sizeof *t);
    if (ld_start(&l, path, p, err, errlen))
        return -1;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return tfile_fail(&l.tf, 0, "cannot open: %s", strerror(errno));
    int rc = parse(&l, fp, t);
    fclose(fp);
    unsigned sw = 0;
    if (!rc) {
        if (switch_id == VCSW_LOAD_MOST) {
            /* the switch with the most distinct-line entries (lowest id on a tie) */
            size_t *cnt = calloc(t->switches, sizeof *cnt);
            if (!cnt)
                rc = tfile_fail(&l.tf, 0, "out of memory");
            for (size_t i = 0; i < l.nraw && !rc; i++)
                cnt[l.raw[i].sw]++;
            for (unsigned s = 0; s < t->switches && !rc; s++)
                if (cnt[s] > cnt[sw])
                    sw = s;
            if (!rc && !l.sw_line[sw])
                rc = tfile_fail(&l.tf, l.hdr_line, "the file has no 'switch S' block");
            free(cnt);
        } else if (switch_id < 0 || (unsigned)switch_id >= t->switches || !l.sw_line[switch_id]) {
            rc = tfile_fail(&l.tf, l.hdr_line, "switch %d is not in the file (%u switches%s)", switch_id, t->switches,
                      switch_id >= 0 && (unsigned)switch_id < t->switches ? ", no 'switch' block for it" : "");
        } else
            sw = (unsigned)switch_id;
    }
    if (!rc) {
        t->switch_id = sw;
        rc = build(&l, sw, p, t);
    }
    if (!rc) {
        t->nics = l.nic;
        t->nnics = l.nnic;
        l.nic = NULL;
    } else
        vcsw_tables_free(t);
    free(l.raw);
    free(l.nic);
    free(l.sw_line);
    return rc;
}

int vcsw_load_network(const char *path, const vcsw_params_t *p, const unsigned *nports, unsigned nsw,
                      vcsw_net_tables_t *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        tfile_t tf = {path, err, errlen};
        return tfile_fail(&tf, 0, "cannot open: %s", strerror(errno));
    }
    int rc = vcsw_load_network_stream(fp, path, p, nports, nsw, t, err, errlen);
    fclose(fp);
    return rc;
}

int vcsw_load_network_stream(FILE *fp, const char *name, const vcsw_params_t *p, const unsigned *nports, unsigned nsw,
                             vcsw_net_tables_t *t, char *err, size_t errlen)
{
    ld_t l;
    memset(t, 0, sizeof *t);
    if (ld_start(&l, name, p, err, errlen))
        return -1;
    const char *perr;
    vcsw_tables_t hdr;
    memset(&hdr, 0, sizeof hdr);
    int rc = parse(&l, fp, &hdr);
    if (!rc && hdr.switches != nsw)
        rc = tfile_fail(&l.tf, l.hdr_line, "the tables are for %u switches, the network has %u", hdr.switches, nsw);
    if (!rc && !(t->sw = calloc(nsw, sizeof *t->sw)))
        rc = tfile_fail(&l.tf, 0, "out of memory");
    for (unsigned s = 0; s < nsw && !rc; s++) {
        vcsw_params_t ps = *p;
        ps.NPORTS = nports[s];
        if ((perr = vcsw_params_check(&ps))) {
            rc = tfile_fail(&l.tf, 0, "switch %u: bad switch parameters: %s", s, perr);
            break;
        }
        vcsw_tables_t *ts = &t->sw[s];
        *ts = hdr;
        ts->switch_id = s;
        rc = build(&l, s, &ps, ts);
    }
    if (!rc) {
        t->switches = hdr.switches;
        t->hosts = hdr.hosts;
        t->vcs = hdr.vcs;
        t->tags = hdr.tags;
        memcpy(t->algorithm, hdr.algorithm, sizeof t->algorithm);
        t->nics = l.nic;
        t->nnics = l.nnic;
        l.nic = NULL;
    } else {
        t->switches = nsw;
        vcsw_net_tables_free(t);
    }
    free(l.raw);
    free(l.nic);
    free(l.sw_line);
    return rc;
}

void vcsw_net_tables_free(vcsw_net_tables_t *t)
{
    if (!t)
        return;
    if (t->sw)
        for (unsigned s = 0; s < t->switches; s++)
            vcsw_tables_free(&t->sw[s]);
    free(t->sw);
    free(t->nics);
    memset(t, 0, sizeof *t);
}

void vcsw_tables_free(vcsw_tables_t *t)
{
    if (!t)
        return;
    free(t->writes);
    free(t->nics);
    memset(t, 0, sizeof *t);
}

const vcsw_nic_t *vcsw_tables_nics(const vcsw_tables_t *t, size_t *n)
{
    *n = t->nnics;
    return t->nnics ? t->nics : NULL;
}

int vcsw_tables_emit(const vcsw_tables_t *t, int (*emit)(void *ctx, uint16_t addr, uint16_t wdata), void *ctx)
{
    for (size_t i = 0; i < t->nwrites; i++) {
        int r = emit(ctx, t->writes[i].addr, t->writes[i].wdata);
        if (r)
            return r;
    }
    return 0;
}
