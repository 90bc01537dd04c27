/* test_sw_updown.c - updown: pch, and VCs chosen at the source */
#include "test_sw.h"

/* ------------------------------------------------------------------ updown: pch, and VCs chosen at the source */
/* 1 when both sets have the same route for every host pair: same ports, and same VCs when vcs_too */
static int same_routes(const sf_routes *a, const sf_routes *b, int vcs_too)
{
    for (sf_route_it r = {0}; sf_routes_next(a, &r);) {
        int n, vc0;
        const sf_hop *h = sf_routes_get(b, r.src, r.dst, r.alt, &n, &vc0);
        if (!h || n != r.n || (vcs_too && vc0 != r.vc0)) return 0;
        for (int i = 0; i < n; i++)
            if (h[i].sw != r.h[i].sw || h[i].port != r.h[i].port || (vcs_too && h[i].vc != r.h[i].vc)) return 0;
    }
    return 1;
}

void test_updown_vcs(T *t)
{
    sf_err e = {""};
    char d[600], name[200], path[512];
    /* pch: the same set twice (deterministic) on random networks and a torus; shortest legal paths are checked by the
     * property tests */
    sf_topo *nets[] = {sf_gen_random(16, 8, 4, 1, &e), sf_gen_random(40, 8, 2, 9, &e), sf_gen_mesh(6, 6, 1, 8, 2, &e)};
    const char *nn[] = {"random 16", "random 40", "torus 6x6"};
    for (int k = 0; k < 3; k++) {
        sf_route_opts o;
        sf_route_opts_default(&o);
        o.sel = SF_SEL_PCH;
        for (int v = 1; v <= 3; v += 2) {
            o.ud_vcs = v;
            sf_routes *a = sf_route_updown(nets[k], &o, &e), *b = sf_route_updown(nets[k], &o, &e);
            snprintf(name, sizeof name, "updown pch %d VC%s on %s: deterministic, checks pass", v, v > 1 ? "s" : "", nn[k]);
            report(t, a && b && same_routes(a, b, 1) && sf_verify(a, 0, NULL, NULL) == 0, name, e.msg);
            sf_routes_free(a); sf_routes_free(b);
        }
    }
    /* --vcs 3 with every selection on the 16-switch network, against the same selection with 1 VC */
    const sf_topo *tp = nets[0];
    static const struct { sf_select sel; const char *name; } sels[] = {
        {SF_SEL_LOW, "low"}, {SF_SEL_RANDOM, "random"}, {SF_SEL_SANCHO, "sancho"}, {SF_SEL_PCH, "pch"}, {SF_SEL_BALANCED, "balanced"}};
    for (size_t k = 0; k < sizeof sels / sizeof sels[0]; k++) {
        sf_route_opts o;
        sf_route_opts_default(&o);
        o.sel = sels[k].sel;
        sf_routes *r1 = sf_route_updown(tp, &o, &e);
        o.ud_vcs = 3;
        sf_routes *r3 = sf_route_updown(tp, &o, &e);
        d[0] = 0;
        int used[16] = {0}, nused = 0, ok = r1 && r3;
        if (ok && (strstr(r1->algo, "vcs=") || !strstr(r3->algo, "updown vcs=3 "))) snprintf(d, sizeof d, "headers %s / %s", r1->algo, r3->algo);
        if (ok && !d[0] && sf_verify(r3, 0, NULL, NULL)) snprintf(d, sizeof d, "check fails");
        char msg[600];
        if (ok && !d[0] && sf_check_onevc(r3, msg, sizeof msg)) snprintf(d, sizeof d, "%.500s", msg);
        for (sf_route_it r = {0}; ok && !d[0] && sf_routes_next(r3, &r);) {
            if (r.vc0 < 0 || r.vc0 > 2) snprintf(d, sizeof d, "route %d->%d on VC %d", r.src, r.dst, r.vc0);
            else nused += !used[r.vc0]++;
            int n1;
            const sf_hop *h1 = sf_routes_get(r1, r.src, r.dst, 0, &n1, NULL);
            if (!h1 || n1 != r.n) snprintf(d, sizeof d, "route %d->%d has %d hops with 3 VCs, %d with 1", r.src, r.dst, r.n, n1);
        }
        /* low, sancho, balanced: the VC does not move the physical path */
        int samepath = sels[k].sel == SF_SEL_RANDOM || sels[k].sel == SF_SEL_PCH || (ok && same_routes(r1, r3, 0));
        if (ok && !d[0] && !samepath) snprintf(d, sizeof d, "physical paths differ from the 1-VC set");
        if (ok && !d[0] && sels[k].sel == SF_SEL_LOW && !(nused == 1 && used[0])) snprintf(d, sizeof d, "low uses %d VCs", nused);
        if (ok && !d[0] && sels[k].sel != SF_SEL_LOW && nused < 2) snprintf(d, sizeof d, "%s uses only %d VC", sels[k].name, nused);
        /* RHiNET tables: every (in, out, VC) entry keeps the VC; each NIC injects on its route's VC */
        snprintf(path, sizeof path, "%s/ud3.rhinet", t->tmp);
        FILE *f = fopen(path, "w");
        if (ok && !d[0] && sf_write_rhinet(r3, f, &e)) snprintf(d, sizeof d, "rhinet: %.500s", e.msg);
        fclose(f);
        f = fopen(path, "r");
        char line[256];
        long vcl = 0;
        while (ok && !d[0] && fgets(line, sizeof line, f)) {
            int i, o2, v, m, src, dst, alt, tag, vc, n;
            if (sscanf(line, "  vc %d %d %d %d", &i, &o2, &v, &m) == 4) {
                vcl++;
                if (v != m) snprintf(d, sizeof d, "rhinet entry changes the VC: %s", line);
            } else if (sscanf(line, "nic %d dst %d alt %d tag %d vc %d", &src, &dst, &alt, &tag, &vc) == 5) {
                int vc0;
                if (!sf_routes_get(r3, src, dst, alt, &n, &vc0) || vc0 != vc) snprintf(d, sizeof d, "rhinet nic line %s", line);
            }
        }
        fclose(f);
        if (ok && !d[0] && !vcl) snprintf(d, sizeof d, "rhinet: no vc entries");
        snprintf(name, sizeof name, "updown %s --vcs 3: one VC per route (%d used), same hops as 1 VC, checks pass, RHiNET "
                 "tables keep the VC (%ld entries)", sels[k].name, nused, vcl);
        report(t, ok && !d[0], name, ok ? d : e.msg);
        sf_routes_free(r1); sf_routes_free(r3);
    }
    /* the header's vcs= is checked: vcs=1 (or none) with routes on VC 2 is refused; a route changing VC is caught */
    {
        sf_route_opts o;
        sf_route_opts_default(&o);
        o.sel = SF_SEL_PCH; o.ud_vcs = 3;
        sf_routes *rs = sf_route_updown(tp, &o, &e);
        snprintf(path, sizeof path, "%s/ud3.routes", t->tmp);
        FILE *f = fopen(path, "w");
        sf_write_routes(rs, f);
        fclose(f);
        sf_routes *back = sf_read_routes(tp, path, &e);
        report(t, back && same_routes(rs, back, 1) && back->promise_onevc && sf_verify(back, 0, NULL, NULL) == 0,
               "updown --vcs 3 route file: survives write/read, check passes", e.msg);
        sf_routes_free(back);
        /* the text of the file, with the header and one route edited */
        f = fopen(path, "r");
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *txt = calloc((size_t)len + 64, 1);
        if (fread(txt, 1, (size_t)len, f) != (size_t)len) txt[0] = 0;
        fclose(f);
        char *hv = strstr(txt, "vcs=3");
        static const struct { const char *to, *want; } hdr[] = {
            {"vcs=1", ":2: algorithm updown: vcs=1 but the routes use 3 VCs"},
            {"vcs=x", ":2: algorithm updown: bad vcs="},
            {"", ":2: algorithm updown: no vcs= (1 VC) but the routes use 3 VCs"},
        };
        for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
            char *mod = calloc((size_t)len + 64, 1);
            if (hv) {
                memcpy(mod, txt, (size_t)(hv - txt));
                strcat(mod, hdr[i].to);
                strcat(mod, hv + 5 + (hdr[i].to[0] ? 0 : 1)); /* drop the space too when the key goes */
            }
            write_text(path, mod);
            sf_err e2 = {""};
            sf_routes *r = sf_read_routes(tp, path, &e2);
            snprintf(name, sizeof name, "updown route file: header %s refused", hdr[i].to[0] ? hdr[i].to : "without vcs=");
            snprintf(d, sizeof d, "got \"%.300s\" want \"%s\"", r ? "(accepted)" : e2.msg, hdr[i].want);
            report(t, hv && !r && strstr(e2.msg, hdr[i].want), name, d);
            sf_routes_free(r);
            free(mod);
        }
        /* a route that changes VC: the first route with 2+ hops starts on another VC (first entry of its VC list) */
        char *mod = calloc((size_t)len + 64, 1), *line = txt, *edit = NULL;
        while ((line = strstr(line, "\nroute ")) != NULL) {
            line++;
            char *bar = strstr(line, "| vc "), *nl = strchr(line, '\n');
            if (bar && bar < nl && nl - bar >= 10) { edit = bar + 5; break; } /* "| vc V V V": 2 hops and the host */
        }
        if (edit) {
            memcpy(mod, txt, (size_t)(len + 1));
            mod[edit - txt] = *edit == '0' ? '1' : '0';
        }
        write_text(path, mod);
        sf_routes *r = sf_read_routes(tp, path, &e);
        char msg[600] = "";
        int bad = r ? sf_verify(r, 0, NULL, NULL) : -1;
        if (r) sf_check_onevc(r, msg, sizeof msg);
        report(t, edit && bad == 1 && strstr(msg, "changes from VC"), "updown route file: a route that changes VC is refused by check", msg);
        printf("  (reported: %s)\n", msg);
        sf_routes_free(r);
        free(mod); free(txt);
        sf_routes_free(rs);
    }
    for (int k = 0; k < 3; k++) sf_topo_free(nets[k]);
}
