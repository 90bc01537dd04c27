/* sanfab-topo: topology generators and checker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sf_topo_cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-topo KIND [options] [-o FILE]     write a topology (docs/topology.md)\n"
            "       sanfab-topo check FILE                   parse and validate a topology file\n"
            "kinds and their options (defaults in brackets):\n"
            "  random    --switches N [16] --ports P [8] --hosts H [4] --seed S [1]\n"
            "            irregular, at most one link per switch pair, connected (Flich et al. 2002, sec. 5.1)\n"
            "  mesh      --k K [4] [--ky K2] --ports P [8] --hosts H [4]\n"
            "  torus     --k K [8] [--ky K2] --ports P [16] --hosts H [8]\n"
            "  express   --k K [8] --ports P [16] --hosts H [8]   torus with express channels\n"
            "  cplant    (50 switches of 16 ports, 8 hosts each, Flich et al. 2002, sec. 5.1)\n"
            "  clos      --leaves L [32] --hosts H [16] --spines S [16]   (defaults: 512-node Clos of Geoffray and Hoefler 2008)\n"
            "  fattree   --k K [4] --n N [3]                  k-ary n-tree\n"
            "  hypercube --dim D [4] --ports P [8] --hosts H [4]\n"
            "  dual8     --bisection B [4]   Etsion et al. 2000 Fig. 10: 16 hosts on dual 8-way Myrinet boxes (two 8-port\n"
            "            crossbars each, switches 2k and 2k+1 of box k) with a bisection of B links: 1, 2, 4 (two\n"
            "            boxes, 4 hosts a crossbar: chain, ring, K4) or 5, 6, 9 (three boxes: K6 less 4, 3 or 0 links)\n"
            "  parpar    --boxes N [2]       Etsion et al. 2000 Fig. 2: the test cluster, 2 boxes (16 hosts, K4 with each box's\n"
            "            two crossbars linked twice: every port used) or 3 (18 hosts, K6)\n"
            "  tree      --levels K --ports P [8] --fanout F [2] --hosts H [P; P-1 if K >= 2]   Yamagiwa et al. 2000 sec. 4:\n"
            "            K levels (1..6) of switch boxes, the root and inner boxes with F children on ports 0..F-1, every\n"
            "            other box up by port P-1, H hosts on each leaf (one level: one box); ids breadth-first\n"
            "  -o FILE   output file (default standard output)\n"
            "  --version print the version\n"
            "Options may come in any order after KIND; an option KIND does not use is an error.\n"
            "random prints its seed on standard error (the other kinds make no random choice).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(argc < 2 ? stderr : stdout); return argc < 2 ? 2 : 0; }
    if (!strcmp(argv[1], "--version")) { sf_cli_print_version(stdout, "sanfab-topo"); return 0; }
    const char *kind = argv[1];
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
    /* the kind and its options: the same parser as sanfab-sim's topology-gen key (sw/src/sf_topo_cli.c) */
    sf_topo_cli a;
    switch (sf_topo_cli_parse(&a, argc - 1, argv + 1, 1, &e)) {
    case SF_CLI_OK: break;
    case SF_CLI_HELP: usage(stdout); return 0;
    case SF_CLI_VERSION: sf_cli_print_version(stdout, "sanfab-topo"); return 0;
    default: fprintf(stderr, "sanfab-topo: %s\n", e.msg); return 2;
    }
    if (sf_topo_cli_uses_seed(&a)) fprintf(stderr, "sanfab-topo: seed %llu\n", a.seed); /* the only kind with random choices */
    sf_topo *t = sf_topo_cli_generate(&a, &e);
    if (!t) { fprintf(stderr, "sanfab-topo: %s\n", e.msg); return 1; }
    FILE *f = a.out ? fopen(a.out, "w") : stdout;
    if (!f) { perror(a.out); sf_topo_free(t); return 1; }
    sf_topo_write(t, f);
    if (a.out) fclose(f);
    sf_topo_free(t);
    return 0;
}
