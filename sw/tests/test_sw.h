/* test_sw.h - what the files of test_sw share: the includes, the run's settings, the helpers of test_sw_util.c, the
 * tests of the topic files (test_sw_parse.c, test_sw_gen.c, test_sw_deadlock.c, test_sw_specific.c,
 * test_sw_updown.c, test_sw_props.c, test_sw_tree.c), run by test_sw.c's table */
#ifndef TEST_SW_H
#define TEST_SW_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"

typedef struct { int pass, fail; const char *tmp; int quick; uint64_t seed; } T;

/* ---- helpers (test_sw_util.c) */
void report(T *t, int ok, const char *name, const char *detail);
int write_text(const char *path, const char *text);

/* ---- the tests */
void test_rng(T *t);             /* test_sw_parse.c */
void test_parse_good(T *t);
void test_parse_bad(T *t);
void test_fuzz(T *t);
void test_generators(T *t);      /* test_sw_gen.c */
void test_orientation(T *t);
void test_deadlock_detect(T *t); /* test_sw_deadlock.c */
void test_route_files(T *t);
void test_specifics(T *t);       /* test_sw_specific.c */
void test_updown_vcs(T *t);      /* test_sw_updown.c */
void test_properties(T *t);      /* test_sw_props.c */
void test_mutations(T *t);
void test_tree(T *t);         /* test_sw_tree.c */

#endif
