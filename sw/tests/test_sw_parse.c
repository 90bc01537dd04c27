/* test_sw_parse.c - the PRNG, the topology parser, mutated topology files */
#include "test_sw.h"

/* ------------------------------------------------------------------ unit: PRNG */
void test_rng(T *t)
{
    sf_rng a, b;
    sf_rng_seed(&a, 42); sf_rng_seed(&b, 42);
    int same = 1;
    for (int i = 0; i < 1000; i++) same &= sf_rng_next(&a) == sf_rng_next(&b);
    int inrange = 1;
    for (int i = 0; i < 10000; i++) inrange &= sf_rng_below(&a, 7) < 7;
    sf_rng_seed(&b, 43);
    report(t, same && inrange && sf_rng_next(&a) != sf_rng_next(&b), "rng: deterministic, bounded, seed-dependent", NULL);
}

/* ------------------------------------------------------------------ unit: parser */
static const char *GOOD =
    "sanfab-topology 1\n"
    "name example   # comment\n"
    "switch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4 level 0\n"
    "host 0 0:0\nhost 1 1:0\nhost 2 2:0\n"
    "link 0:1 1:1\nlink 1:2 2:2\nlink 2:3 0:3\n";

void test_parse_good(T *t)
{
    sf_err e = {""};
    sf_topo *tp = sf_topo_parse(GOOD, "good.topo", &e);
    int ok = tp && tp->nsw == 3 && tp->nhost == 3 && tp->nch == 6 && !strcmp(tp->name, "example") && tp->sw[2].level == 0;
    report(t, ok, "parse: valid file", e.msg);
    if (!tp) return;
    /* write and parse again: identical */
    char path[512];
    snprintf(path, sizeof path, "%s/roundtrip.topo", t->tmp);
    FILE *f = fopen(path, "w");
    sf_topo_write(tp, f);
    fclose(f);
    sf_topo *t2 = sf_topo_read(path, &e);
    ok = t2 && t2->nsw == 3 && t2->nch == 6 && t2->host[2].sw == 2 && t2->sw[0].peer[1].id == 1;
    report(t, ok, "parse: write/read round trip", e.msg);
    sf_topo_free(t2);
    sf_topo_free(tp);
}

void test_parse_bad(T *t)
{
    static const struct { const char *name, *text, *expect; } cases[] = {
        {"missing header", "switch 0 ports 4\n", "bad.topo:1: first line must be"},
        {"empty file", "", "empty file"},
        {"unknown keyword", "sanfab-topology 1\nrouter 0\n", "bad.topo:2: unknown keyword \"router\""},
        {"bad number", "sanfab-topology 1\nswitch x ports 4\n", "bad.topo:2: bad switch id"},
        {"port count out of range", "sanfab-topology 1\nswitch 0 ports 65\n", "bad.topo:2: switch 0: port count 65 out of range"},
        {"switch twice", "sanfab-topology 1\nswitch 0 ports 4\nswitch 0 ports 4\n", "bad.topo:3: switch 0 declared twice (first at line 2)"},
        {"unknown switch (host)", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 5:0\n", "bad.topo:3: unknown switch 5"},
        {"unknown switch (link)", "sanfab-topology 1\nswitch 0 ports 4\nlink 0:1 7:1\n", "bad.topo:3: unknown switch 7"},
        {"port out of range", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:4\n", "bad.topo:3: port 4 out of range on switch 0"},
        {"port used twice (hosts)", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:1\nhost 1 0:1\n",
         "bad.topo:4: port 1 of switch 0 used twice (host 0 at line 3)"},
        {"port used twice (link)", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nhost 0 0:1\nlink 0:1 1:1\n",
         "bad.topo:5: port 1 of switch 0 used twice"},
        {"self-link", "sanfab-topology 1\nswitch 0 ports 4\nlink 0:1 0:2\n", "bad.topo:3: self-link on switch 0"},
        {"duplicate link", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nlink 0:2 1:2\n",
         "bad.topo:5: duplicate link between switches 0 and 1 (first at line 4"},
        {"disconnected", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\nlink 0:1 1:1\n",
         "bad.topo:4: disconnected network: switch 2 cannot be reached"},
        {"missing switch id", "sanfab-topology 1\nswitch 0 ports 4\nswitch 2 ports 4\nlink 0:1 2:1\n", "switch 1 is missing"},
        {"missing host id", "sanfab-topology 1\nswitch 0 ports 4\nhost 1 0:0\n", "host 0 is missing"},
        {"host twice", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:0\nhost 0 0:1\n", "bad.topo:4: host 0 declared twice"},
        {"bad SWITCH:PORT", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0-1\n", "bad.topo:3: expected SWITCH:PORT"},
        {"missing fields", "sanfab-topology 1\nswitch 0\n", "bad.topo:2: usage: switch ID ports N"},
        {"no switches", "sanfab-topology 1\n", "no switches declared"},
        {"parallel after link", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nparallel-links yes\n",
         "bad.topo:5: parallel-links must come before"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sf_err e = {""};
        sf_topo *tp = sf_topo_parse(cases[i].text, "bad.topo", &e);
        char name[128];
        snprintf(name, sizeof name, "malformed topology: %s", cases[i].name);
        char detail[800];
        snprintf(detail, sizeof detail, "got \"%s\", want \"%s\"", tp ? "(accepted)" : e.msg, cases[i].expect);
        report(t, !tp && strstr(e.msg, cases[i].expect), name, detail);
        sf_topo_free(tp);
    }
    /* parallel links allowed when declared */
    sf_err e = {""};
    sf_topo *tp = sf_topo_parse("sanfab-topology 1\nparallel-links yes\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nlink 0:2 1:2\n",
                                "par.topo", &e);
    report(t, tp && tp->nch == 4, "parse: parallel links when allowed", e.msg);
    sf_topo_free(tp);
    /* the name is free text: any number of words, commas and all */
    tp = sf_topo_parse("sanfab-topology 1\nname  a ring, with commas: one two three four five six seven eight nine ten "
                       "eleven twelve thirteen fourteen fifteen\t sixteen   # a comment\nswitch 0 ports 2\n", "name.topo", &e);
    report(t, tp && !strcmp(tp->name, "a ring, with commas: one two three four five six seven eight nine ten eleven "
                                      "twelve thirteen fourteen fifteen sixteen"), "parse: a name of 20 words", e.msg);
    sf_topo_free(tp);
}

/* ------------------------------------------------------------------ fuzz: mutated files never crash */
void test_fuzz(T *t)
{
    sf_rng r;
    sf_rng_seed(&r, t->seed ^ 0xF022);
    size_t len = strlen(GOOD);
    char *buf = malloc(len + 64);
    int n = t->quick ? 300 : 2000, accepted = 0, rejected_with_msg = 0;
    static const char alphabet[] = "0123456789: \n#-xsl";
    for (int i = 0; i < n; i++) {
        memcpy(buf, GOOD, len + 1);
        int muts = 1 + (int)sf_rng_below(&r, 4);
        for (int m = 0; m < muts; m++) {
            size_t pos = sf_rng_below(&r, (uint32_t)len);
            switch (sf_rng_below(&r, 3)) {
            case 0: buf[pos] = alphabet[sf_rng_below(&r, sizeof alphabet - 1)]; break;
            case 1: buf[pos] = (char)(1 + sf_rng_below(&r, 255)); break;
            default: buf[pos] = 0; break; /* truncate */
            }
        }
        sf_err e = {""};
        sf_topo *tp = sf_topo_parse(buf, "fuzz.topo", &e);
        if (tp) accepted++;
        else if (strncmp(e.msg, "fuzz.topo", 9) == 0) rejected_with_msg++;
        sf_topo_free(tp);
    }
    free(buf);
    char d[100];
    snprintf(d, sizeof d, "%d accepted, %d rejected with a message, of %d", accepted, rejected_with_msg, n);
    report(t, accepted + rejected_with_msg == n, "fuzz: mutated topology files are accepted or rejected with a message", d);
}
