/* sanfab-topo: topology generators and checker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include "sf_topo.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-topo KIND [options] [-o FILE]     write a topology (docs/topology.md)\n"
            "       sanfab-topo check FILE                   parse and validate a topology file\n"
            "kinds and their options (defaults in brackets):\n"
            "  random    --switches N [16] --ports P [8] --hosts H [4] --seed S [1]\n"
            "            irregular, at most one link per switch pair, connected (seed 000 sec 5.1)\n"
            "  mesh      --k K [4] [--ky K2] --ports P [8] --hosts H [4]\n"
            "  torus     --k K [8] [--ky K2] --ports P [16] --hosts H [8]\n"
            "  express   --k K [8] --ports P [16] --hosts H [8]   torus with express channels\n"
            "  cplant    (50 switches of 16 ports, 8 hosts each, seed 000 sec 5.1)\n"
            "  clos      --leaves L [32] --hosts H [16] --spines S [16]   (defaults: 512-node Clos of seed 003)\n"
            "  fattree   --k K [4] --n N [3]                  k-ary n-tree\n"
            "  hypercube --dim D [4] --ports P [8] --hosts H [4]\n"
            "  dual8     --bisection B [4]   seed 002 Fig. 10: 16 hosts on dual 8-way Myrinet boxes (two 8-port\n"
            "            crossbars each, switches 2k and 2k+1 of box k) with a bisection of B links: 1, 2, 4 (two\n"
            "            boxes, 4 hosts a crossbar: chain, ring, K4) or 5, 6, 9 (three boxes: K6 less 4, 3 or 0 links)\n"
            "  parpar    --boxes N [2]       seed 002 Fig. 2: the test cluster, 2 boxes (16 hosts, K4 with each box's\n"
            "            two crossbars linked twice: every port used) or 3 (18 hosts, K6)\n"
            "  -o FILE   output file (default standard output)\n"
            "Options may come in any order after KIND; an option KIND does not use is an error.\n"
            "random prints its seed on standard error (the other kinds make no random choice).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(argc < 2 ? stderr : stdout); return argc < 2 ? 2 : 0; }
    const char *kind = argv[1], *out = NULL;
    int n = -1, p = -1, h = -1, k = -1, ky = -1, leaves = 32, spines = 16, nlev = 3, dim = 4, bis = 4, boxes = 2;
    unsigned long long seed = 1;
    sf_err e = {""};
    if (!strcmp(kind, "check")) {
        if (argc != 3) { usage(stderr); return 2; }
        sf_topo *t = sf_topo_read(argv[2], &e);
        if (!t) { fprintf(stderr, "sanfab-topo: %s\n", e.msg); return 1; }
        int *d = sf_topo_distances(t);
        int diam = 0;
        double sum = 0;
        long np = 0;
        for (int a = 0; a < t->nsw; a++)
            for (int b = 0; b < t->nsw; b++)
                if (a != b) { sum += d[(size_t)a * t->nsw + b]; np++; if (d[(size_t)a * t->nsw + b] > diam) diam = d[(size_t)a * t->nsw + b]; }
        printf("%s: ok: %d switches, %d hosts, %d links, diameter %d, mean switch distance %.4f\n", argv[2], t->nsw,
               t->nhost, sf_topo_nlinks(t), diam, np ? sum / np : 0.0);
        free(d);
        sf_topo_free(t);
        return 0;
    }
    /* options each kind uses; any other option is an error, never ignored */
    static const struct { const char *kind, *opts; } K[] = {
        {"random", " --switches --ports --hosts --seed "}, {"mesh", " --k --ky --ports --hosts "},
        {"torus", " --k --ky --ports --hosts "}, {"express", " --k --ports --hosts "}, {"cplant", " "},
        {"clos", " --leaves --hosts --spines "}, {"fattree", " --k --n "}, {"hypercube", " --dim --ports --hosts "},
        {"dual8", " --bisection "}, {"parpar", " --boxes "},
    };
    const char *kopts = NULL;
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++)
        if (!strcmp(kind, K[i].kind)) kopts = K[i].opts;
    if (!kopts) { fprintf(stderr, "sanfab-topo: unknown kind \"%s\" (see --help)\n", kind); return 2; }
    char seen[400] = " ";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (a[0] != '-') { fprintf(stderr, "sanfab-topo: unexpected argument \"%s\" (see --help)\n", a); return 2; }
        char key[64];
        snprintf(key, sizeof key, " %.60s ", a);
        if (strcmp(a, "-o") && !strstr(kopts, key)) {
            int any = 0;
            for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) any |= strstr(K[k].opts, key) != NULL;
            if (any) fprintf(stderr, "sanfab-topo: %s is not an option of %s (its options:%s-o)\n", a, kind, kopts);
            else fprintf(stderr, "sanfab-topo: unknown option %s (see --help)\n", a);
            return 2;
        }
        if (strstr(seen, key)) { fprintf(stderr, "sanfab-topo: %s given twice\n", a); return 2; }
        if (strlen(seen) + strlen(key) < sizeof seen) strcat(seen, key + 1);
        if (i + 1 >= argc) { fprintf(stderr, "sanfab-topo: option %s needs a value\n", a); return 2; }
        const char *v = argv[++i];
        if (!strcmp(a, "-o")) { out = v; continue; }
        if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            unsigned long long sv = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end || errno) {
                fprintf(stderr, "sanfab-topo: --seed needs a whole number in 0..18446744073709551615, got \"%s\"\n", v);
                return 2;
            }
            seed = sv;
            continue;
        }
        char *end;
        long x = strtol(v, &end, 10);
        long lo = strcmp(a, "--hosts") ? 1 : 0;
        if (!isdigit((unsigned char)v[0]) || *end || x < lo || x > 100000) {
            fprintf(stderr, "sanfab-topo: option %s needs a whole number in %ld..100000, got \"%s\"\n", a, lo, v);
            return 2;
        }
        if (!strcmp(a, "--switches")) n = (int)x;
        else if (!strcmp(a, "--ports")) p = (int)x;
        else if (!strcmp(a, "--hosts")) h = (int)x;
        else if (!strcmp(a, "--k")) k = (int)x;
        else if (!strcmp(a, "--ky")) ky = (int)x;
        else if (!strcmp(a, "--leaves")) leaves = (int)x;
        else if (!strcmp(a, "--spines")) spines = (int)x;
        else if (!strcmp(a, "--n")) nlev = (int)x;
        else if (!strcmp(a, "--dim")) dim = (int)x;
        else if (!strcmp(a, "--bisection")) bis = (int)x;
        else if (!strcmp(a, "--boxes")) boxes = (int)x;
    }
    sf_topo *t = NULL;
    if (!strcmp(kind, "random")) fprintf(stderr, "sanfab-topo: seed %llu\n", seed); /* the only kind with random choices */
    if (!strcmp(kind, "random")) t = sf_gen_random(n < 0 ? 16 : n, p < 0 ? 8 : p, h < 0 ? 4 : h, seed, &e);
    else if (!strcmp(kind, "mesh")) t = sf_gen_mesh(k < 0 ? 4 : k, ky < 0 ? (k < 0 ? 4 : k) : ky, 0, p < 0 ? 8 : p, h < 0 ? 4 : h, &e);
    else if (!strcmp(kind, "torus")) t = sf_gen_mesh(k < 0 ? 8 : k, ky < 0 ? (k < 0 ? 8 : k) : ky, 1, p < 0 ? 16 : p, h < 0 ? 8 : h, &e);
    else if (!strcmp(kind, "express")) t = sf_gen_express(k < 0 ? 8 : k, p < 0 ? 16 : p, h < 0 ? 8 : h, &e);
    else if (!strcmp(kind, "cplant")) t = sf_gen_cplant(&e);
    else if (!strcmp(kind, "clos")) t = sf_gen_clos(leaves, h < 0 ? 16 : h, spines, &e);
    else if (!strcmp(kind, "fattree")) t = sf_gen_fattree(k < 0 ? 4 : k, nlev, &e);
    else if (!strcmp(kind, "dual8")) t = sf_gen_dual8(bis, &e);
    else if (!strcmp(kind, "parpar")) t = sf_gen_parpar(boxes, &e);
    else t = sf_gen_hypercube(dim, p < 0 ? 8 : p, h < 0 ? 4 : h, &e);
    if (!t) { fprintf(stderr, "sanfab-topo: %s\n", e.msg); return 1; }
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) { perror(out); sf_topo_free(t); return 1; }
    sf_topo_write(t, f);
    if (out) fclose(f);
    sf_topo_free(t);
    return 0;
}
