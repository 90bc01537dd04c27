/* sanfab — the line reader shared by the table loaders (cmodel/vcsw_load.c for `sanfab-rhinet`,
 * cmodel/sbox_load.c for `sanfab-maestro`): whitespace-separated fields, '#' comments, whole decimal
 * numbers, the two preamble lines, and errors worded "FILE:LINE: problem". */
#ifndef SANFAB_TABLE_FILE_H
#define SANFAB_TABLE_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define TFILE_MAX_NUM 0x7FFFFFFFul /* largest number a field may hold */
#define TFILE_MAX_FIELDS 16        /* fields kept per line */

/* The file being read and where its error message goes (err may be NULL). */
typedef struct {
    const char *path;
    char *err;
    size_t errlen;
} tfile_t;

/* Writes "PATH:LINE: message" (line 0: "PATH: message") into t->err; always returns -1. */
int tfile_fail(const tfile_t *t, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Splits a line read by getline (len bytes) into fields f[0..TFILE_MAX_FIELDS), dropping a '#'
 * comment; *over = 1 if it had more fields. Returns the field count, or -1 (a NUL character). */
int tfile_split(const tfile_t *t, unsigned line, char *buf, ssize_t len, char **f, int *over);

/* Fields f[idx[0..n)] as whole decimal numbers 0..TFILE_MAX_NUM into v[0..n): 0, or -1 naming the field. */
int tfile_nums(const tfile_t *t, unsigned line, char **f, const int *idx, int n, unsigned *v);

/* 1 if f[0..nf) has exactly `want` fields and the keywords kw (NULL-terminated; "" = any field). */
int tfile_shape(char **f, int nf, int want, const char *const *kw);

/* The preamble: in state 0 the line must be "MAGIC 1", in state 1 "algorithm ..." (its words copied
 * into alg); *state moves on to 1, then 2. 0, or -1 with the message. */
int tfile_preamble(const tfile_t *t, unsigned line, char **f, int nf, const char *magic, unsigned *state, char *alg,
                   size_t alglen);

/* A "switch S" line (f[0] is "switch") of a file of `nswitches` switches: S into *sw; 0, or -1 with the message. */
int tfile_switch_line(const tfile_t *t, unsigned line, char **f, int nf, unsigned nswitches, unsigned *sw);

/* A table file read line by line: the preamble ("MAGIC 1", "algorithm ...") checked, blank and
 * comment-only lines skipped; tfile_next hands out the other lines as fields. */
typedef struct {
    const tfile_t *t;
    FILE *fp;
    const char *magic;
    char *alg;                   /* the algorithm line's words go here */
    size_t alglen;
    char *buf;                   /* getline's buffer */
    size_t cap;
    unsigned line;               /* line number of the line in f */
    unsigned state;              /* 0: expect "MAGIC 1", 1: expect "algorithm ...", 2: the body */
    char *f[TFILE_MAX_FIELDS];   /* the fields of the last line handed out */
    int nf;
} tfile_reader_t;

/* Starts reading fp as a MAGIC file; nothing is read yet. */
void tfile_reader_init(tfile_reader_t *r, const tfile_t *t, FILE *fp, const char *magic, char *alg, size_t alglen);

/* The next body line (after the preamble) with fields in r->f[0..r->nf), at r->line: 1. End of file:
 * 0 (r->state < 2 if it ended inside the preamble). A malformed line or a read error: -1 with the message. */
int tfile_next(tfile_reader_t *r);

/* Frees the reader's line buffer (not the file). */
void tfile_reader_free(tfile_reader_t *r);

#endif
