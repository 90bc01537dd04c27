#!/usr/bin/env python3
"""One sweep or load search of the experiments as a command: what a point of their Dask sweeps runs
(scripts/exp_driver.py, scripts/sweep.py; docs/network.md "Plots and experiments").

  exp_point.py sweep  --topology T --routes R --loads X,... [--extend X,...] [--links] COMMON -- SIM_ARGS...
  exp_point.py search --topology T --routes R --start X COMMON -- SIM_ARGS...
  COMMON: --warmup N --cycles N --seed N [--unit U] [--lat L]

`sweep` runs exp_driver.sweep (the loads, then the extension loads one at a time until the sweep is saturated and
past its peak), `search` exp_driver.search (the load doubled until saturated, then refined); sanfab-sim runs one
load point at a time (no --jobs: the sweep's points are the parallel units). SIM_ARGS are more sanfab-sim keys
(switch kind, message size, traffic, tables). It prints one JSON document on standard output:
{"summary": <the summary>, "points": <sanfab-sim's points>, "cpu_seconds": <the simulators' user + system>}.
Exit status 0 done, 1 a simulator run failed (its message on standard error), 2 bad usage.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import exp_driver as D  # noqa: E402
from sanfab_cli import ArgumentParser, float_range, int_range  # noqa: E402


def loads(text):
    """A comma list of positive loads."""
    try:
        xs = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("want a comma list of numbers > 0, got %r" % text) from None
    if any(not x > 0 for x in xs):
        raise argparse.ArgumentTypeError("loads must be > 0, got %r" % text)
    return xs


def parser():
    ap = ArgumentParser(prog="exp_point.py", description=__doc__)
    sub = ap.add_subparsers(dest="what", required=True)
    sw = sub.add_parser("sweep", help="a load sweep extended until saturated and past its peak")
    se = sub.add_parser("search", help="a load search: doubled until saturated, then refined")
    for p in (sw, se):
        p.add_argument("--topology", required=True)
        p.add_argument("--routes", required=True)
        p.add_argument("--warmup", type=int_range(0), required=True)
        p.add_argument("--cycles", type=int_range(1), required=True)
        p.add_argument("--seed", type=int_range(0), required=True)
    sw.add_argument("--loads", type=loads, required=True, help="the first loads, run at the start")
    sw.add_argument("--extend", type=loads, default=[], help="loads added one at a time until past the peak")
    sw.add_argument("--links", action="store_true", help="per-channel link utilisation (sanfab-sim --links yes)")
    sw.add_argument("--unit", default="flits_ns_sw")
    sw.add_argument("--lat", default="latency_ns")
    se.add_argument("--start", type=float_range(0, lo_open=True), required=True, help="the first load")
    se.add_argument("--unit", default="flits_cycle_host")
    se.add_argument("--lat", default="latency_cycles")
    return ap


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    own, extra = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    a = parser().parse_args(own)
    c0 = D.cpu_children()
    if a.what == "sweep":
        summary, pts = D.sweep(a, a.topology, a.routes, a.loads, a.extend, extra, a.links, a.unit, a.lat)
    else:
        summary, pts = D.search(a, a.topology, a.routes, a.start, extra, a.unit, a.lat)
    json.dump({"summary": summary, "points": pts, "cpu_seconds": round(D.cpu_children() - c0, 3)}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
