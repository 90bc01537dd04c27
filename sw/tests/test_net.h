/* test_net.h - what the files of test_net share: the includes, the helpers of test_net_util.c, the tests of the
 * topic files (test_net_switch.c, test_net_fabric.c, test_net_traffic.c, test_net_vc.c, test_net_maestro.c), run by
 * test_net.c's table */
#ifndef TEST_NET_H
#define TEST_NET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "link.h"
#include "net.h"
#include "sf_traffic.h"
#include "vcsw_net.h"
#include "sf_nic.h"
#include "sf_rng.h"
#include "sf_sim.h"
#include "xbar.h"
#include "xbar_net.h"

#define TCHECK_SPLIT
#include "tcheck.h"

/* hosts of the one-switch tests (a switch of NP ports, one host on each) */
#define NP 5

/* ---- helpers (test_net_util.c) */
typedef struct {
    sf_traffic_counts all;
    sf_nic_counts nic;     /* crossbar network */
    sf_vcnic_counts vnic;  /* VC network */
    sf_mnic_counts mnic;   /* Maestro network */
    uint64_t in_flight, queued, timeouts, cycles;
    sf_lat lat;
} runres;

sf_sim_net mknet(sf_topo *t, sf_routes *rs);
int run_net(const sf_sim_cfg *c, const sf_sim_net *sn, double load, uint64_t gen, uint64_t drain, runres *r,
            char *msg, size_t ml);
sf_topo *ring4_clockwise(sf_routes **rs, sf_err *e);
char *run_json(const sf_sim_cfg *c, const sf_sim_net *sn, size_t *len);
int load_vc(sf_sim_cfg *c, const sf_topo *t, const sf_routes *rs, sf_sim_net *sn, char *msg, size_t ml);
void vc_cfg(sf_sim_cfg *c);
void vc_summary(char *msg, size_t ml, const runres *r);
int vc_clean(const runres *r);

/* ---- the tests */
void test_one_switch(void);      /* test_net_switch.c */
void test_conservation(void);    /* test_net_fabric.c */
void test_deadlock(void);
void test_determinism(void);
void test_patterns(void);        /* test_net_traffic.c */
void test_percentiles(void);
void test_vc_one_switch(void);   /* test_net_vc.c */
void test_vc_conservation(void);
void test_vc_deadlock(void);
void test_vc_determinism(void);
void test_mb_one_box(void);      /* test_net_maestro.c */
void test_mb_conservation(void);
void test_mb_determinism(void);
void test_mb_refusals(void);
void test_mb_multicast_barrier(void);

#endif
