/* test_sw_tree.c - trees of switch boxes (the Maestro network): the `tree` generator's shapes and refusals, the tree
 * check (sf_topo_tree: up ports, root, cycles, parallel links, two roots), Maestro tables of up/down on trees */
#include "sf_topo_cli.h"
#include "test_sw.h"

/* boxes of a tree of `levels` levels and fanout f; off[l] = id of level l's first box (off[levels] = the count) */
static int tree_offsets(int levels, int f, int *off)
{
    int w = 1;
    off[0] = 0;
    for (int l = 0; l < levels; l++, w *= f) off[l + 1] = off[l] + w;
    return off[levels];
}

/* every fact of sf_gen_tree's shape (docs/topology.md, "Trees of switch boxes"): counts, levels, breadth-first ids,
 * children on ports 0..f-1 of the parent and its port p-1 of the child, hosts leaf by leaf on ports 0..h-1, nothing
 * else on any port; then sf_topo_tree's up ports (p-1, the root -1) and root (0) */
static int tree_shape_ok(const sf_topo *tp, int levels, int p, int f, int h, char *d, size_t dl)
{
    int off[SF_TREE_MAX_LEVELS + 1];
    int nsw = tree_offsets(levels, f, off), leaves = off[levels] - off[levels - 1];
    if (tp->nsw != nsw || tp->nhost != leaves * h || tp->nch / 2 != nsw - 1) {
        snprintf(d, dl, "got %d boxes %d hosts %d links, want %d %d %d", tp->nsw, tp->nhost, tp->nch / 2, nsw, leaves * h, nsw - 1);
        return 0;
    }
    for (int l = 0; l < levels; l++)
        for (int s = off[l]; s < off[l + 1]; s++) {
            const sf_switch *w = &tp->sw[s];
            if (w->nports != p || w->level != l) { snprintf(d, dl, "box %d: %d ports level %d", s, w->nports, w->level); return 0; }
            for (int q = 0; q < p; q++) {
                const sf_peer *pe = &w->peer[q];
                int want_kind = SF_PEER_NONE, want_id = -1, want_port = -1;
                if (l + 1 < levels && q < f) want_kind = SF_PEER_SWITCH, want_id = off[l + 1] + (s - off[l]) * f + q, want_port = p - 1;
                else if (l + 1 == levels && q < h) want_kind = SF_PEER_HOST, want_id = (s - off[l]) * h + q;
                if (l > 0 && q == p - 1) /* up: the parent's port */
                    want_kind = SF_PEER_SWITCH, want_id = off[l - 1] + (s - off[l]) / f, want_port = (s - off[l]) % f;
                if (pe->kind != want_kind || (want_kind != SF_PEER_NONE && pe->id != want_id) ||
                    (want_kind == SF_PEER_SWITCH && pe->port != want_port)) {
                    snprintf(d, dl, "box %d port %d: kind %d id %d port %d, want %d %d %d", s, q, pe->kind, pe->id, pe->port, want_kind,
                             want_id, want_port);
                    return 0;
                }
            }
        }
    sf_err e = {""};
    int *up = malloc(sizeof(int) * (size_t)nsw), root = -7;
    int rc = sf_topo_tree(tp, "generator", up, &root, &e), ok = rc == 0 && root == 0 && up[0] == -1;
    for (int s = 1; ok && s < nsw; s++) ok = up[s] == p - 1;
    if (!ok) snprintf(d, dl, "sf_topo_tree: rc %d root %d up[0] %d up[last] %d %.300s", rc, root, up[0], up[nsw - 1], e.msg);
    free(up);
    return ok;
}

static void tree_generator(T *t)
{
    char d[400], name[160];
    /* shapes: every level count and fanout small enough, ports 4 and 8, the default and other host counts */
    int cases = 0, bad = 0;
    for (int levels = 1; levels <= 4; levels++)
        for (int p = 4; p <= 8; p += 4)
            for (int f = 1; f <= (levels == 1 ? 1 : 3); f++)
                for (int h = 0; h <= p; h++) {
                    if (levels > 1 && h > p - 1) continue;
                    sf_err e = {""};
                    sf_topo *tp = sf_gen_tree(levels, p, f, h, &e);
                    char dd[400];
                    int ok = tp && tree_shape_ok(tp, levels, p, f, h, dd, sizeof dd);
                    if (!tp) snprintf(dd, sizeof dd, "%.300s", e.msg);
                    if (!ok && !bad++) snprintf(d, sizeof d, "levels %d ports %d fanout %d hosts %d: %.300s", levels, p, f, h, dd);
                    cases++;
                    sf_topo_free(tp);
                }
    snprintf(name, sizeof name, "tree: %d generated shapes (levels 1..4, ports 4 and 8, fanout 1..3, hosts 0..P): counts, "
             "levels, breadth-first ids, ports, up ports P-1", cases);
    report(t, !bad, name, d);
    /* the deepest trees (six levels: fanout 3 keeps it small enough for the sanitizer build, whose time grows with the
     * square of the boxes), and a fanout that fills the root */
    sf_err e = {""};
    sf_topo *tp = sf_gen_tree(6, 8, 3, 7, &e);
    report(t, tp && tree_shape_ok(tp, 6, 8, 3, 7, d, sizeof d), "tree: 6 levels of fanout 3 (364 boxes, 1701 hosts)",
           tp ? d : e.msg);
    sf_topo_free(tp);
    tp = sf_gen_tree(2, 8, 8, 7, &e);
    report(t, tp && tree_shape_ok(tp, 2, 8, 8, 7, d, sizeof d), "tree: 2 levels, the root's every port a child", tp ? d : e.msg);
    sf_topo_free(tp);
    /* refusals */
    static const struct { int levels, p, f, h; const char *want; } no[] = {
        {0, 8, 2, 7, "generator: tree: levels must be 1..6, got 0"},
        {7, 8, 2, 7, "generator: tree: levels must be 1..6, got 7"},
        {2, 0, 2, 7, "generator: tree: ports must be 1..64, got 0"},
        {2, 65, 2, 7, "generator: tree: ports must be 1..64, got 65"},
        {1, 8, 2, 9, "generator: tree: 9 hosts do not fit on one box of 8 ports"},
        {2, 8, 0, 7, "generator: tree: fanout must be 1 or more, got 0"},
        {2, 8, 9, 7, "generator: tree: fanout 9 does not fit on the root box of 8 ports (at most 8 children)"},
        {3, 8, 8, 7, "generator: tree: fanout 8 does not fit on an inner box of 8 ports: its last port (7) goes up to its parent, "
                     "so at most 7 children"},
        {2, 8, 2, 8, "generator: tree: 8 hosts do not fit on a leaf box of 8 ports: its last port (7) goes up to its parent, "
                     "so at most 7 hosts"},
        {2, 8, 2, -1, "generator: tree: hosts must be 0 or more, got -1"},
        {6, 16, 15, 15, "generator: tree: too large: 813616 boxes and 11390625 hosts (at most 65536 boxes and 262144 hosts)"},
        {5, 64, 63, 1, "generator: tree: too large: 16007041 boxes and 15752961 hosts"},
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        sf_err e2 = {""};
        sf_topo *x = sf_gen_tree(no[i].levels, no[i].p, no[i].f, no[i].h, &e2);
        snprintf(name, sizeof name, "tree: refused: levels %d ports %d fanout %d hosts %d", no[i].levels, no[i].p, no[i].f, no[i].h);
        snprintf(d, sizeof d, "got \"%.300s\"%s", e2.msg, x ? " (accepted)" : "");
        report(t, !x && strstr(e2.msg, no[i].want) == e2.msg, name, d);
        sf_topo_free(x);
    }
    /* the command line (sanfab-topo and sanfab-sim's topology-gen): defaults and the kind's own refusals */
    static const struct { const char *line; int rc, nsw, nhost; const char *want; } cl[] = {
        {"tree --levels 1", SF_CLI_OK, 1, 8, NULL},
        {"tree --levels 2", SF_CLI_OK, 3, 14, NULL},
        {"tree --levels 3 --fanout 3 --ports 6", SF_CLI_OK, 13, 45, NULL},
        {"tree --levels 1 --hosts 3 --ports 4", SF_CLI_OK, 1, 3, NULL},
        {"tree --hosts 2 --levels 3 --ports 4 --fanout 3", SF_CLI_OK, 13, 18, NULL},
        {"tree", SF_CLI_USAGE, 0, 0, "tree needs --levels K (1..6)"},
        {"tree --fanout 2", SF_CLI_USAGE, 0, 0, "tree needs --levels K (1..6)"},
        {"tree --levels 2 --seed 3", SF_CLI_USAGE, 0, 0, "--seed is not an option of tree (its options: --levels --ports --fanout --hosts)"},
        {"tree --levles 2", SF_CLI_USAGE, 0, 0, "unknown option --levles (did you mean --levels?)"},
        {"tre --levels 2", SF_CLI_USAGE, 0, 0, "unknown kind \"tre\" (did you mean tree?)"},
        {"tree --levels 1 --fanout 2", SF_CLI_FAIL, 0, 0, "generator: tree: --fanout has no use with --levels 1 (one box, no children)"},
        {"tree --levels 7", SF_CLI_FAIL, 0, 0, "generator: tree: levels must be 1..6, got 7"},
    };
    for (size_t i = 0; i < sizeof cl / sizeof cl[0]; i++) {
        char buf[200], *argv[16];
        snprintf(buf, sizeof buf, "%s", cl[i].line);
        int argc = sf_cli_split(buf, argv, 16);
        sf_topo_cli a;
        sf_err e2 = {""};
        int rc = sf_topo_cli_parse(&a, argc, argv, 0, &e2);
        sf_topo *x = NULL;
        if (rc == SF_CLI_OK) {
            x = sf_topo_cli_generate(&a, &e2);
            if (!x) rc = SF_CLI_FAIL;
        }
        int ok = rc == cl[i].rc && (x ? x->nsw == cl[i].nsw && x->nhost == cl[i].nhost : !strcmp(e2.msg, cl[i].want));
        snprintf(name, sizeof name, "tree: command line \"%s\"", cl[i].line);
        snprintf(d, sizeof d, "rc %d, %d boxes %d hosts, \"%.300s\"", rc, x ? x->nsw : 0, x ? x->nhost : 0, e2.msg);
        report(t, ok, name, d);
        sf_topo_free(x);
    }
}

static void tree_check(T *t)
{
    char d[700], name[160];
    /* files the tree check refuses, with the message naming the file and the line */
    static const struct { const char *name, *text, *want; } no[] = {
        {"a ring of 3 boxes",
         "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\nhost 0 0:0\nhost 1 1:0\nhost 2 2:0\n"
         "link 0:1 1:2\nlink 1:1 2:2\nlink 2:1 0:2\n",
         "ring3.topo:10: link 0:2 2:1 closes a cycle of boxes 0-1-2-0; a Maestro network is a tree of switch boxes"},
        {"a cycle 0-2-3 closed by the last link",
         "sanfab-topology 1\n# a star of 3 boxes around box 0, then a chord\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\n"
         "switch 3 ports 4\nlink 0:0 1:0\nlink 0:1 2:0\nlink 0:2 3:0\nlink 2:3 3:1\n",
         "ring3.topo:10: link 2:3 3:1 closes a cycle of boxes 0-2-3-0; a Maestro network is a tree of switch boxes"},
        {"the closing link is the one on the latest line",
         "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\nswitch 3 ports 4\n"
         "link 3:1 0:3\nlink 2:1 3:2\nlink 1:1 2:2\nlink 0:1 1:2\nlink 1:3 3:3\n",
         "ring3.topo:9: link 0:1 1:2 closes a cycle of boxes 0-1-2-3-0; a Maestro network is a tree of switch boxes"},
        {"two links between one pair",
         "sanfab-topology 1\nparallel-links yes\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nlink 0:2 1:2\n",
         "ring3.topo:6: link 0:2 1:2 is a second link between boxes 0 and 1 (first at line 5); a Maestro network is a tree of "
         "switch boxes"},
        {"two level-0 boxes",
         "sanfab-topology 1\nswitch 0 ports 4 level 0\nswitch 1 ports 4 level 1\nswitch 2 ports 4 level 0\nlink 0:1 1:1\nlink 1:2 2:2\n",
         "ring3.topo:4: switch 2 is a second level-0 box (the first is switch 0); a Maestro network is a tree of switch boxes "
         "with one root"},
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        sf_err e = {""};
        sf_topo *tp = sf_topo_parse(no[i].text, "ring3.topo", &e);
        int up[8], root = -7, rc = tp ? sf_topo_tree(tp, "ring3.topo", up, &root, &e) : 1;
        snprintf(name, sizeof name, "tree check: refuses %s, naming the line", no[i].name);
        snprintf(d, sizeof d, "got \"%.300s\", want \"%.300s\"", tp ? e.msg : "(not parsed)", no[i].want);
        report(t, tp && rc == -1 && root == -7 && !strcmp(e.msg, no[i].want), name, d);
        sf_topo_free(tp);
    }
    /* what the parser refuses before: a host on two boxes (naming the second line and the first), a disconnected net */
    static const struct { const char *name, *text, *want; } np[] = {
        {"a host on two boxes",
         "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:3 1:3\nhost 0 0:0\nhost 1 0:1\nhost 1 1:0\n",
         "two.topo:7: host 1 declared twice (first at line 6)"},
        {"a host on two ports of a box",
         "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:0\nhost 0 0:1\n", "two.topo:4: host 0 declared twice (first at line 3)"},
        {"a disconnected net",
         "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\nlink 0:3 1:3\n",
         "two.topo:4: disconnected network: switch 2 cannot be reached from switch 0"},
    };
    for (size_t i = 0; i < sizeof np / sizeof np[0]; i++) {
        sf_err e = {""};
        sf_topo *tp = sf_topo_parse(np[i].text, "two.topo", &e);
        snprintf(name, sizeof name, "tree check: the parser refuses %s, naming the line", np[i].name);
        snprintf(d, sizeof d, "got \"%.300s\", want \"%.300s\"", tp ? "(accepted)" : e.msg, np[i].want);
        report(t, !tp && !strcmp(e.msg, np[i].want), name, d);
        sf_topo_free(tp);
    }
    /* a generated topology with cycles: "topology: ..." */
    sf_err e = {""};
    sf_topo *tor = sf_gen_mesh(3, 3, 1, 8, 1, &e);
    int up[16], root = -7;
    int rc = sf_topo_tree(tor, "generator", up, &root, &e);
    report(t, rc == -1 && !strcmp(e.msg, "topology: link 1:1 2:2 closes a cycle of boxes 0-1-2-0; a Maestro network is a tree of "
                                          "switch boxes"), "tree check: a generated torus refused (\"topology: ...\")", e.msg);
    sf_topo_free(tor);
    /* a hand-made tree: its root by the level hint (box 2), up ports wherever the file puts them; no hints: box 0 */
    static const char *TREE = "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4 level 0\nswitch 3 ports 4\n"
                              "switch 4 ports 4\nhost 0 0:0\nhost 1 3:1\nhost 2 4:3\nhost 3 2:3\n"
                              "link 2:0 0:2\nlink 1:1 2:1\nlink 3:0 0:1\nlink 4:2 0:3\n";
    sf_topo *tp = sf_topo_parse(TREE, "tree.topo", &e);
    rc = tp ? sf_topo_tree(tp, "tree.topo", up, &root, &e) : -1;
    snprintf(d, sizeof d, "rc %d root %d up %d %d %d %d %d %.300s", rc, root, up[0], up[1], up[2], up[3], up[4], e.msg);
    report(t, rc == 0 && root == 2 && up[0] == 2 && up[1] == 1 && up[2] == -1 && up[3] == 0 && up[4] == 2,
           "tree check: a hand-made tree, root by its level hint, up ports where the links are", d);
    sf_topo_free(tp);
    char *plain = malloc(strlen(TREE) + 1);
    strcpy(plain, TREE);
    char *lv = strstr(plain, " level 0");
    memmove(lv, lv + 8, strlen(lv + 8) + 1);
    tp = sf_topo_parse(plain, "tree.topo", &e);
    rc = tp ? sf_topo_tree(tp, "tree.topo", up, &root, &e) : -1;
    snprintf(d, sizeof d, "rc %d root %d up %d %d %d %d %d %.300s", rc, root, up[0], up[1], up[2], up[3], up[4], e.msg);
    report(t, rc == 0 && root == 0 && up[0] == -1 && up[1] == 1 && up[2] == 0 && up[3] == 0 && up[4] == 2,
           "tree check: the same tree without level hints: root box 0", d);
    sf_topo_free(tp);
    free(plain);
    /* one box alone */
    tp = sf_gen_tree(1, 8, 1, 8, &e);
    rc = sf_topo_tree(tp, NULL, up, &root, &e);
    report(t, rc == 0 && root == 0 && up[0] == -1, "tree check: one box: the root, no up port", e.msg);
    sf_topo_free(tp);
}

/* Maestro tables of up/down on generated trees: every box's entry for every host is the port of the unique tree path
 * (its own port for a host on the box, the child's port towards a host below, port p-1 up otherwise), worked out from
 * the breadth-first numbering, not from the routes */
static void tree_maestro(T *t)
{
    static const int shapes[][3] = {{1, 1, 8}, {1, 1, 5}, {2, 2, 7}, {2, 3, 7}, {3, 2, 7}, {3, 3, 7}, {3, 3, 2}, {2, 2, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int levels = shapes[i][0], f = shapes[i][1], h = shapes[i][2], p = 8;
        char name[160], d[400] = "", path[512];
        sf_err e = {""};
        sf_topo *tp = sf_gen_tree(levels, p, f, h, &e);
        sf_route_opts o;
        sf_route_opts_default(&o);
        sf_routes *rs = tp ? sf_route_updown(tp, &o, &e) : NULL;
        snprintf(path, sizeof path, "%s/tree.maestro", t->tmp);
        FILE *fp = fopen(path, "w");
        int rc = rs && fp ? sf_write_maestro(rs, fp, &e) : -1;
        if (fp) fclose(fp);
        int off[SF_TREE_MAX_LEVELS + 1], nsw = tree_offsets(levels, f, off), H = tp ? tp->nhost : 0, entries = 0, wrong = 0;
        int *seen = calloc((size_t)nsw * (size_t)(H ? H : 1), sizeof(int));
        fp = rc == 0 ? fopen(path, "r") : NULL;
        char line[200], head[3][100] = {"", "", ""};
        int x = -1, nl = 0;
        while (fp && fgets(line, sizeof line, fp)) {
            int a, b;
            if (nl < 3) snprintf(head[nl], sizeof head[nl], "%.99s", line);
            nl++;
            if (sscanf(line, "switch %d", &a) == 1) { x = a; continue; }
            if (sscanf(line, "  dst %d port %d", &a, &b) != 2) continue;
            if (x < 0 || x >= nsw || a < 0 || a >= H || seen[(size_t)x * H + a]++) { wrong++; continue; }
            entries++;
            /* the box x: level lx, index ix in its level; the host a: on leaf ja */
            int lx = 0;
            while (x >= off[lx + 1]) lx++;
            int ix = x - off[lx], ja = a / h, below = 1;
            for (int l = lx; l < levels - 1; l++) below *= f; /* leaves under one box of level lx */
            int want = p - 1;
            if (ja / below == ix) want = lx == levels - 1 ? a % h : (ja / (below / f)) % f;
            if (b != want && !wrong++) snprintf(d, sizeof d, "box %d host %d: port %d, want %d", x, a, b, want);
        }
        if (fp) fclose(fp);
        char hw[100];
        snprintf(hw, sizeof hw, "switches %d hosts %d\n", nsw, H);
        snprintf(name, sizeof name, "maestro: up/down on tree levels %d fanout %d hosts %d: %d entries, each the port of the tree "
                 "path", levels, f, h, nsw * H);
        if (!d[0]) snprintf(d, sizeof d, "rc %d, %d entries of %d, %d wrong, header \"%s\" %.200s", rc, entries, nsw * H, wrong,
                            head[2], e.msg);
        report(t, rc == 0 && !wrong && entries == nsw * H && !strcmp(head[0], "sanfab-maestro 1\n") && !strcmp(head[2], hw), name, d);
        free(seen);
        sf_routes_free(rs);
        sf_topo_free(tp);
    }
}

void test_tree(T *t)
{
    tree_generator(t);
    tree_check(t);
    tree_maestro(t);
}
