/* sanfab — the line reader shared by the table loaders (table_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "table_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tfile_fail(const tfile_t *t, unsigned line, const char *fmt, ...)
{
    if (!t->err || !t->errlen)
        return -1;
    int n = line ? snprintf(t->err, t->errlen, "%s:%u: ", t->path, line) : snprintf(t->err, t->errlen, "%s: ", t->path);
    if (n < 0 || (size_t)n >= t->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err + n, t->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int tfile_split(const tfile_t *t, unsigned line, char *buf, ssize_t len, char **f, int *over)
{
    if ((size_t)len != strlen(buf))
        return tfile_fail(t, line, "malformed line: NUL character");
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = 0;
    int nf = 0;
    *over = 0;
    for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (nf == TFILE_MAX_FIELDS)
            *over = 1;
        else
            f[nf++] = tok;
    }
    return nf;
}

/* a whole decimal number 0..TFILE_MAX_NUM */
static int num(const char *s, unsigned *v)
{
    unsigned long x = 0;
    if (!*s)
        return -1;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        x = x * 10 + (unsigned long)(*c - '0');
        if (x > TFILE_MAX_NUM)
            return -1;
    }
    *v = (unsigned)x;
    return 0;
}

int tfile_nums(const tfile_t *t, unsigned line, char **f, const int *idx, int n, unsigned *v)
{
    for (int i = 0; i < n; i++)
        if (num(f[idx[i]], &v[i]))
            return tfile_fail(t, line, "malformed line: '%s' is not a whole number 0..%lu", f[idx[i]], TFILE_MAX_NUM);
    return 0;
}

int tfile_shape(char **f, int nf, int want, const char *const *kw)
{
    if (nf != want)
        return 0;
    for (int i = 0; kw[i]; i++)
        if (kw[i][0] && strcmp(f[i], kw[i]) != 0)
            return 0;
    return 1;
}

int tfile_preamble(const tfile_t *t, unsigned line, char **f, int nf, const char *magic, unsigned *state, char *alg,
                   size_t alglen)
{
    if (*state == 0) {
        *state = 1;
        if (strcmp(f[0], magic) != 0)
            return tfile_fail(t, line, "missing header: a %s file starts with '%s 1'", magic, magic);
        if (nf != 2 || strcmp(f[1], "1") != 0)
            return tfile_fail(t, line, "bad header '%s%s%s': this loader reads '%s 1'", f[0], nf > 1 ? " " : "",
                              nf > 1 ? f[1] : "", magic);
        return 0;
    }
    if (strcmp(f[0], "algorithm") != 0)
        return tfile_fail(t, line, "malformed line: expected 'algorithm ...' after the header");
    alg[0] = 0;
    for (int i = 1; i < nf; i++) {
        size_t u = strlen(alg);
        snprintf(alg + u, alglen - u, "%s%s", i > 1 ? " " : "", f[i]);
    }
    *state = 2;
    return 0;
}

int tfile_switch_line(const tfile_t *t, unsigned line, char **f, int nf, unsigned nswitches, unsigned *sw)
{
    static const char *const kw[] = {"switch", "", NULL};
    static const int idx[] = {1};
    if (!tfile_shape(f, nf, 2, kw))
        return tfile_fail(t, line, "malformed line: expected 'switch S'");
    if (tfile_nums(t, line, f, idx, 1, sw))
        return -1;
    if (*sw >= nswitches)
        return tfile_fail(t, line, "number out of range: switch %u (the file has %u switches)", *sw, nswitches);
    return 0;
}

void tfile_reader_init(tfile_reader_t *r, const tfile_t *t, FILE *fp, const char *magic, char *alg, size_t alglen)
{
    memset(r, 0, sizeof *r);
    r->t = t;
    r->fp = fp;
    r->magic = magic;
    r->alg = alg;
    r->alglen = alglen;
}

int tfile_next(tfile_reader_t *r)
{
    ssize_t len;
    while ((len = getline(&r->buf, &r->cap, r->fp)) >= 0) {
        r->line++;
        int over = 0;
        r->nf = tfile_split(r->t, r->line, r->buf, len, r->f, &over);
        if (r->nf < 0)
            return -1;
        if (r->nf == 0)
            continue;
        if (r->state < 2) {
            if (tfile_preamble(r->t, r->line, r->f, r->nf, r->magic, &r->state, r->alg, r->alglen))
                return -1;
            continue;
        }
        if (over)
            return tfile_fail(r->t, r->line, "malformed line: too many fields");
        return 1;
    }
    if (ferror(r->fp))
        return tfile_fail(r->t, 0, "read error: %s", strerror(errno));
    return 0;
}

void tfile_reader_free(tfile_reader_t *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
}
