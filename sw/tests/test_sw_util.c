/* test_sw_util.c - the helpers the test_sw topic files share: a test's result line, a text file */
#include "test_sw.h"

void report(T *t, int ok, const char *name, const char *detail)
{
    if (ok) { t->pass++; printf("PASS %s\n", name); }
    else { t->fail++; printf("FAIL %s: %s\n", name, detail ? detail : ""); }
    fflush(stdout);
}

int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    return 0;
}
