/* sanfab command-line conventions: version, "did you mean". sf_cli.h. */
#include "sf_cli.h"

#include <ctype.h>
#include <string.h>

/* the build gives the version as a bare token (-DSANFAB_VERSION=0.1.0, from the VERSION file): no quotes to lose in
 * a makefile, a shell or a compile-command stamp */
#define SF_STR_(x) #x
#define SF_STR(x) SF_STR_(x)
#ifdef SANFAB_VERSION
#define SF_VERSION SF_STR(SANFAB_VERSION)
#else
#define SF_VERSION "unknown"
#endif

const char *sf_cli_version(void) { return SF_VERSION; }

void sf_cli_print_version(FILE *f, const char *tool) { fprintf(f, "%s (sanfab) %s\n", tool, SF_VERSION); }

static const char *strip_dashes(const char *s)
{
    while (*s == '-')
        s++;
    return s;
}

/* Damerau-Levenshtein (optimal string alignment) distance, case-insensitive, capped at 64 characters a side */
static size_t distance(const char *a, const char *b)
{
    enum { M = 65 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= M || lb >= M)
        return (size_t)-1;
    size_t d[M][M];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == cb &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *sf_cli_suggest(const char *given, const char *const *known, size_t n)
{
    const char *g = strip_dashes(given), *best = NULL;
    size_t bestd = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        const char *k = strip_dashes(known[i]);
        size_t d = distance(g, k), lk = strlen(k);
        if (d < bestd && d <= 2 && 2 * d < lk) {
            bestd = d;
            best = known[i];
        }
    }
    return best;
}

const char *sf_cli_did_you_mean(char *buf, size_t len, const char *given, const char *const *known, size_t n)
{
    const char *s = sf_cli_suggest(given, known, n);
    if (len)
        buf[0] = '\0';
    if (s && len)
        snprintf(buf, len, " (did you mean %s?)", s);
    return buf;
}

int sf_cli_split(char *line, char **argv, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            return n;
        if (n == max)
            return -1;
        argv[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
}
