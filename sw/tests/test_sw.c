/* test_sw.c - unit and property tests for the topology and routing library.
 * usage: test_sw [--quick] [--seed S] [--tmp DIR] [--test NAME]... [--list]; prints one line per test and
 * "N passed, M failed". This file is the table of tests; they are in test_sw_*.c (test_sw.h). */
#include "test_sw.h"
#include "tsel.h"

/* the tests in the order they run; --test takes these names */
static const struct {
    const char *name;
    void (*fn)(T *t);
} TESTS[] = {
    {"rng", test_rng},
    {"parse_good", test_parse_good},
    {"parse_bad", test_parse_bad},
    {"fuzz", test_fuzz},
    {"generators", test_generators},
    {"orientation", test_orientation},
    {"deadlock_detect", test_deadlock_detect},
    {"route_files", test_route_files},
    {"specifics", test_specifics},
    {"updown_vcs", test_updown_vcs},
    {"properties", test_properties},
    {"mutations", test_mutations},
    {"tree", test_tree},
};
#define NTESTS (sizeof TESTS / sizeof TESTS[0])

int main(int argc, char **argv)
{
    T t = {0, 0, "/tmp", 0, 20240601};
    tsel s = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) t.quick = 1;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) t.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--tmp") && i + 1 < argc) t.tmp = argv[++i];
        else if (!tsel_arg(&s, argc, argv, &i)) {
            fprintf(stderr, "usage: test_sw [--quick] [--seed S] [--tmp DIR] [--test NAME]... [--list]\n");
            return 2;
        }
    }
    int run[NTESTS];
    for (size_t k = 0; k < NTESTS; k++) run[k] = tsel_runs(&s, TESTS[k].name);
    if (tsel_unknown(&s, "test_sw")) return 2;
    if (s.list) {
        for (size_t k = 0; k < NTESTS; k++) printf("%s\n", TESTS[k].name);
        return 0;
    }
    printf("test_sw: seed %llu%s\n", (unsigned long long)t.seed, t.quick ? " (quick)" : "");
    for (size_t k = 0; k < NTESTS; k++)
        if (run[k]) TESTS[k].fn(&t);
    printf("%d passed, %d failed\n", t.pass, t.fail);
    return t.fail ? 1 : 0;
}
