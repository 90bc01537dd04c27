/* test_net.c - tests of the network simulator: the fabric (cmodel/net.c) against direct crossbar stepping,
 * conservation of messages with up*-down* and ITB routes, ITB pool overflow, NIC flow control, determinism,
 * a cyclic route set cleared by forward resets. Last line: "N passed, M failed".
 * usage: test_net [--test NAME]... [--list]. This file is the table of tests; they are in test_net_*.c (test_net.h). */
#define TCHECK_MAIN
#include "test_net.h"
#include "tsel.h"

/* the tests in the order they run; --test takes these names */
static const struct {
    const char *name;
    void (*fn)(void);
} TESTS[] = {
    {"one_switch", test_one_switch},
    {"conservation", test_conservation},
    {"deadlock", test_deadlock},
    {"determinism", test_determinism},
    {"patterns", test_patterns},
    {"percentiles", test_percentiles},
    {"vc_one_switch", test_vc_one_switch},
    {"vc_conservation", test_vc_conservation},
    {"vc_deadlock", test_vc_deadlock},
    {"vc_determinism", test_vc_determinism},
    {"mb_one_box", test_mb_one_box},
    {"mb_conservation", test_mb_conservation},
    {"mb_determinism", test_mb_determinism},
    {"mb_refusals", test_mb_refusals},
    {"mb_multicast_barrier", test_mb_multicast_barrier},
};
#define NTESTS (sizeof TESTS / sizeof TESTS[0])

int main(int argc, char **argv)
{
    tsel s = {0};
    for (int i = 1; i < argc; i++)
        if (!tsel_arg(&s, argc, argv, &i)) {
            fprintf(stderr, "usage: test_net [--test NAME]... [--list]\n");
            return 2;
        }
    int run[NTESTS];
    for (size_t k = 0; k < NTESTS; k++)
        run[k] = tsel_runs(&s, TESTS[k].name);
    if (tsel_unknown(&s, "test_net"))
        return 2;
    if (s.list) {
        for (size_t k = 0; k < NTESTS; k++)
            printf("%s\n", TESTS[k].name);
        return 0;
    }
    for (size_t k = 0; k < NTESTS; k++)
        if (run[k])
            TESTS[k].fn();
    return tcheck_summary();
}
