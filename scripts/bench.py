#!/usr/bin/env python3
"""sanfab benchmarks (make bench): speed of the crossbar's C model, Verilated RTL and lockstep run on
the same saturating random traffic, the crossbar's latency and permutation throughput, the VC
switch's model/RTL/lockstep speed, the Maestro Link Controller's measurements (tb/mlc/mlc_perf: ping-pong,
ping-ping, Network Burst vs single-packet, pipelined vs message-based, one-way efficiency; docs/mlc-perf.md
with docs/mlc-*.png) and its model/RTL/lockstep speed, the network simulator's speed (sanfab-sim on 16/64-switch random networks
and the 512-host 2D torus, records of block "net"), the RTL network against the C network on the same run (records of block
"rtlnet", tb/net/net_bench; --threads 2 tried), and the routing library's figures. Writes reports/bench.json (DESIGN.md's record format) and docs/bench.md.

  scripts/bench.py [--cycles N] [--seed N] [--skip-routing] [--skip-net] [--net-repeat N]
                   [--only net|vcnet|clos|vcsw|mlc|rtlnet [--runs RUN,...]]
  scripts/bench.py --page

--page measures nothing: it rewrites docs/bench.md, and docs/mlc-perf.md with its plots (docs/mlc-*.png),
from the records of reports/bench.json alone (e.g. after a change to the pages' text).

--only BLOCK runs that block's points alone and replaces only its records of reports/bench.json (the other
blocks' records are kept as they are), e.g. while another block's bench does not build; with --only rtlnet,
--runs RUN,... measures only those network runs again (e.g. v16-dl-uniform) and keeps the others' records.
"""
import json
import os
import platform
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sanfab_cli import ArgumentParser, int_range  # noqa: E402
# the measurements, docs/bench.md and docs/mlc-perf.md, one module each
from bench_runs import (  # noqa: E402
    BENCH, MLC_BENCH, RTLNET_BUILDS, RTLNET_NAMES, ROOT, VCSW_BENCH, clos_speed, mlc_records, net_speed,
    read_jsonl, rtlnet_records, rtlnet_run, run_bench, vcsw_speed)
from bench_mlc_page import mlc_perf_md, mlc_plots  # noqa: E402
from bench_page import write_docs  # noqa: E402


def main():
    ap = ArgumentParser(prog="bench.py", description=__doc__)
    ap.add_argument("--cycles", type=int_range(1000), default=2000000, help="saturating traffic cycles for the speed run")
    ap.add_argument("--seed", type=int_range(0), default=1)
    ap.add_argument("--skip-routing", action="store_true", help="do not run make -C sw bench")
    ap.add_argument("--skip-net", action="store_true", help="no network simulator speed points")
    ap.add_argument("--net-cycles", type=int_range(1000), default=40000, help="measurement window of each sanfab-sim point")
    ap.add_argument("--net-repeat", type=int_range(1, 100), default=3, help="runs of each sanfab-sim point (the fastest is recorded)")
    ap.add_argument("--mlc-cycles", type=int_range(1000), default=2000000, help="cycles of each mlc_bench speed run")
    ap.add_argument("--mlc-repeat", type=int_range(1, 100), default=3, help="runs of each mlc_bench mode (the fastest is recorded)")
    ap.add_argument("--mlc-reps", type=int_range(1, 10000), default=32, help="round trips per mlc_perf point up to 1 KB")
    ap.add_argument("--rtlnet-cycles", type=int_range(1000), default=200000, help="traffic cycles of the RTL network speed run")
    ap.add_argument("--only", choices=["net", "vcnet", "clos", "vcsw", "mlc", "rtlnet"],
                    help="run only this block and keep the other records of reports/bench.json")
    ap.add_argument("--runs", default=None, help="with --only rtlnet: a comma list of its runs (%s) to measure "
                    "again, keeping the other runs' records" % ", ".join(RTLNET_NAMES))
    ap.add_argument("--page", action="store_true", help="measure nothing: rewrite docs/bench.md and docs/mlc-perf.md "
                    "(with its plots) from reports/bench.json")
    a = ap.parse_args()
    if a.page:
        if a.only or a.runs is not None:
            ap.error("--page measures nothing: it takes no --only or --runs")
        return page_only()
    if a.runs is not None:
        a.runs = a.runs.split(",")
        bad = [r for r in a.runs if r not in RTLNET_NAMES]
        if a.only != "rtlnet" or bad:
            ap.error("--runs needs --only rtlnet and runs among %s%s" % (", ".join(RTLNET_NAMES),
                                                                        " (not: %s)" % ", ".join(bad) if bad else ""))
    if a.only:
        return only_block(a)
    if not os.path.exists(BENCH):
        sys.exit("bench: %s is missing; run `make bench` (it builds it)" % BENCH)

    records = []
    with tempfile.TemporaryDirectory() as td:
        j = os.path.join(td, "xbar.jsonl")
        run_bench(["--speed", "--cycles", str(a.cycles), "--seed", str(a.seed)], j)
        run_bench(["--test", "permutation", "--cycles", "200000", "--seed", str(a.seed)], j)
        run_bench(["--test", "latency", "--cycles", "20000", "--seed", str(a.seed)], j)
        records += read_jsonl(j)
    if os.path.exists(VCSW_BENCH):
        records += vcsw_speed("permutation", a.cycles // 2, a.seed)
        records += vcsw_speed("random", a.cycles // 4, a.seed)
    else:
        print("bench: %s missing, VC switch figures skipped" % os.path.relpath(VCSW_BENCH, ROOT))
    mlc = []
    if os.path.exists(MLC_BENCH):
        mlc = mlc_records(a)
        records += mlc
    else:
        print("bench: %s missing, MLC figures skipped" % os.path.relpath(MLC_BENCH, ROOT))
    if not a.skip_net:
        subprocess.run(["make", "-s", "-C", "sw", "build/sanfab-sim", "build/sanfab-topo", "build/sanfab-route"],
                       cwd=ROOT, check=True)
        with tempfile.TemporaryDirectory() as td:
            records += net_speed(td, a.seed, a.net_cycles, a.net_repeat)
        with tempfile.TemporaryDirectory() as td:
            records += net_speed(td, a.seed, a.net_cycles, a.net_repeat, vc=True)
        with tempfile.TemporaryDirectory() as td:
            records += clos_speed(td, a.seed, a.net_cycles, a.net_repeat)
    if all(os.path.exists(os.path.join(ROOT, b)) for b in RTLNET_BUILDS):
        records += rtlnet_records(a.seed, a.rtlnet_cycles, a.net_repeat)
    else:
        print("bench: %s missing (make net-build build/net/r16-t2/net_bench), RTL network figures skipped"
              % " or ".join(RTLNET_BUILDS))
    host = {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    for r in records:
        r["host"] = host

    if not a.skip_routing:
        subprocess.run(["make", "-s", "-C", "sw", "bench"], cwd=ROOT, check=True)
    rpath = os.path.join(ROOT, "reports", "bench-routing.json")
    if os.path.exists(rpath):
        with open(rpath) as f:
            records += json.load(f)

    os.makedirs(os.path.join(ROOT, "reports"), exist_ok=True)
    with open(os.path.join(ROOT, "reports", "bench.json"), "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    write_docs(records)
    if mlc:
        mlc_perf_md(records, mlc_plots(records))
    print("bench: wrote reports/bench.json (%d records) and docs/bench.md" % len(records))


def page_only():
    """--page: docs/bench.md, and docs/mlc-perf.md with its plots, from reports/bench.json as it is."""
    jpath = os.path.join(ROOT, "reports", "bench.json")
    if not os.path.exists(jpath):
        sys.exit("bench: %s is missing; run `make bench`" % os.path.relpath(jpath, ROOT))
    with open(jpath) as f:
        records = json.load(f)
    write_docs(records)
    mlc = any(r.get("block") == "mlc" for r in records)
    if mlc:
        mlc_perf_md(records, mlc_plots(records))
    print("bench: wrote docs/bench.md%s from reports/bench.json (%d records)"
          % (", docs/mlc-perf.md and its plots" if mlc else "", len(records)))


def only_block(a):
    """--only BLOCK: that block's points alone (net, vcnet: the network simulator's crossbar and VC networks; rtlnet:
    the RTL networks against the C networks; vcsw: the VC switch's
    model/RTL/lockstep speed; mlc: the MLC's measurements and speed, docs/mlc-perf.md and its plots); the other
    records of reports/bench.json are kept."""
    jpath = os.path.join(ROOT, "reports", "bench.json")
    old = []
    if os.path.exists(jpath):
        with open(jpath) as f:
            old = json.load(f)
    if a.only == "rtlnet":
        new = rtlnet_records(a.seed, a.rtlnet_cycles, a.net_repeat, a.runs)
    elif a.only in ("net", "vcnet", "clos"):
        subprocess.run(["make", "-s", "-C", "sw", "build/sanfab-sim", "build/sanfab-topo", "build/sanfab-route"],
                       cwd=ROOT, check=True)
        with tempfile.TemporaryDirectory() as td:
            new = clos_speed(td, a.seed, a.net_cycles, a.net_repeat) if a.only == "clos" else \
                net_speed(td, a.seed, a.net_cycles, a.net_repeat, vc=a.only == "vcnet")
    elif a.only == "mlc":
        new = mlc_records(a)
    else:
        if not os.path.exists(VCSW_BENCH):
            sys.exit("bench: %s is missing; run `make bench` (it builds it)" % os.path.relpath(VCSW_BENCH, ROOT))
        new = vcsw_speed("permutation", a.cycles // 2, a.seed) + vcsw_speed("random", a.cycles // 4, a.seed)
    host = {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    for r in new:
        r["host"] = host
    # the new records take the place of the block's old ones (where the first of them was; else
    # before the routing records)
    def replaced(r):  # --runs: only the records of the runs measured again
        return r.get("block") == a.only and (a.runs is None or rtlnet_run(r) in a.runs)
    at = next((i for i, r in enumerate(old) if replaced(r)), None)
    keep = [r for r in old if not replaced(r)]
    if at is None:
        at = next((i for i, r in enumerate(keep) if r.get("block") == "routing"), len(keep))
    else:
        at = sum(1 for r in old[:at] if not replaced(r))
    records = keep[:at] + new + keep[at:]
    with open(jpath, "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    write_docs(records)
    if a.only == "mlc":
        mlc_perf_md(records, mlc_plots(records))
    print("bench: wrote reports/bench.json (%d records, %d of block %s) and docs/bench.md%s"
          % (len(records), len(new), a.only, ", docs/mlc-perf.md and its plots" if a.only == "mlc" else ""))


if __name__ == "__main__":
    main()
