/* sf_rules.c - the rules every routing algorithm and check shares: the up/down orientation of the channels, the
 * turn rules of the layers and the channel classes they are written in (sf_route.h). */
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"
#include "sf_route_int.h"
#include "sf_util.h"

/* ------------------------------------------------------------------ orientation */

int8_t *sf_updown_dir(const sf_topo *t, int root, int *level_out, int *preorder_out)
{
    int n = t->nsw;
    int *lvl = sf_xcalloc((size_t)n, sizeof(int)), *par = sf_xcalloc((size_t)n, sizeof(int)), *q = sf_xcalloc((size_t)n, sizeof(int));
    for (int i = 0; i < n; i++) { lvl[i] = -1; par[i] = -1; }
    int qh = 0, qt = 0;
    if (root >= 0 && root < n) { lvl[root] = 0; q[qt++] = root; }
    else {
        int minl = -1;
        for (int i = 0; i < n; i++)
            if (t->sw[i].level >= 0 && (minl < 0 || t->sw[i].level < minl)) minl = t->sw[i].level;
        for (int i = 0; i < n; i++)
            if (minl >= 0 && t->sw[i].level == minl) { lvl[i] = 0; q[qt++] = i; }
        if (!qt) { lvl[0] = 0; q[qt++] = 0; }
    }
    int nroots = qt;
    while (qh < qt) {
        int x = q[qh++];
        for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
            int y = t->ch_to[t->adjch[i]];
            if (lvl[y] < 0) { lvl[y] = lvl[x] + 1; par[y] = x; q[qt++] = y; }
        }
    }
    int8_t *dir = sf_xcalloc((size_t)t->nch, 1);
    for (int c = 0; c < t->nch; c++) {
        int a = t->ch_from[c], b = t->ch_to[c];
        dir[c] = (int8_t)(lvl[b] < lvl[a] || (lvl[b] == lvl[a] && b < a));
    }
    if (preorder_out) {
        /* preorder numbering of the BFS forest, children in id order */
        int *stk = sf_xcalloc((size_t)n, sizeof(int)), cnt = 0;
        for (int r = 0; r < nroots; r++) {
            int sp = 0;
            stk[sp++] = q[r];
            while (sp) {
                int x = stk[--sp];
                preorder_out[x] = cnt++;
                for (int y = n - 1; y >= 0; y--)
                    if (par[y] == x) stk[sp++] = y;
            }
        }
        free(stk);
    }
    if (level_out) memcpy(level_out, lvl, sizeof(int) * (size_t)n);
    free(lvl); free(par); free(q);
    return dir;
}

/* ------------------------------------------------------------------ turn rules and channel classes */

int sf_rule_allows(sf_rule rule, int v, int a, int b)
{
    switch (rule) {
    case SF_RULE_NONE: return 1;
    case SF_RULE_UD: return !(a == 1 && b == 0);
    case SF_RULE_UDDU: return (v % 2 == 0) ? !(a == 1 && b == 0) : !(a == 0 && b == 1);
    case SF_RULE_UD_DU: return (v == 0) ? !(a == 1 && b == 0) : !(a == 0 && b == 1);
    case SF_RULE_LTURN: return a <= b;
    }
    return 0;
}

int8_t *sf_rule_classes(const sf_topo *t, sf_rule rule, int root, int8_t **dir_out)
{
    int *pre = sf_xcalloc((size_t)t->nsw, sizeof(int));
    int8_t *dir = sf_updown_dir(t, root, NULL, pre);
    int8_t *cls = sf_xcalloc((size_t)t->nch, 1);
    for (int c = 0; c < t->nch; c++) {
        int up = dir[c];
        if (rule == SF_RULE_NONE) cls[c] = 0;
        else if (rule == SF_RULE_LTURN) {
            int left = pre[t->ch_to[c]] < pre[t->ch_from[c]];
            cls[c] = (int8_t)(left ? (up ? 1 : 0) : (up ? 2 : 3));
        } else cls[c] = (int8_t)(up ? 0 : 1);
    }
    free(pre);
    if (dir_out) *dir_out = dir;
    else free(dir);
    return cls;
}

int8_t *sf_channel_classes(const sf_topo *t, sf_rule rule, int root) { return sf_rule_classes(t, rule, root, NULL); }
