#!/usr/bin/env python3
"""The papers' network experiments on the simulator (make experiments; docs/network.md "Plots and experiments").

  --paper 000   Flich et al. 2002 on the crossbar network: In-Transit Buffers against up*/down*: Tables 1-4,
                Fig. 11, the regular topologies (scripts/exp_seed000.py; docs/experiments.md)
  --paper 001   Koibuchi et al. 2003 on the VC-switch network: Descending Layers against up*/down*: Tables 5
                and 6, Figs. 6 and 7, LASH and FM with layers, the model's choices (scripts/exp_seed001.py;
                docs/experiments-seed001.md)
  --paper 002   Etsion et al. 2000 on the crossbar network: one FM route against two and random host maps on
                the 16-node test cluster (Figs. 7, 9), collective patterns against bisection on dual 8-way Myrinet
                networks (Figs. 12-14); every run a point of a Dask sweep (scripts/exp_seed002.py;
                docs/experiments-seed002.md)
  --paper 003   Geoffray and Hoefler 2008 on the crossbar network: dispersive routing (static, oblivious,
                adaptive, probing) on Clos networks of 32-port crossbars, random bisection and bridge patterns,
                the threshold x probability study; every run a point of a Dask sweep (scripts/exp_seed003.py;
                docs/experiments-seed003.md)
  --paper 004   Yamagiwa et al. 2000 on the Maestro network: Fig. 8 and Table 2 through one switch box, Fig. 9's
                ping-pong and ping-ping through the box beside face to face, multicast against unicasts, barriers,
                uniform and hotspot throughput of 1- to 3-level trees of boxes; every run a point of a Dask sweep
                (scripts/exp_seed004.py; docs/experiments-seed004.md)
  (default: all, in order)

Every independent run, load sweep and load search of an experiment is a point of one Dask sweep (scripts/sweep.py;
scripts/exp_point.py runs a sweep or a search): --jobs local worker processes (default 2), or the workers of a
running scheduler (--scheduler tcp://HOST:PORT), started once and shared by all the experiments of the run.

Default (reduced): short windows and few networks, a few minutes on 2 cores; the `experiments` step of make test
runs it with its output under build/experiments/; its points live in the run's work directory, so every run starts
fresh. --full: the papers' sizes and windows (hours; Koibuchi et al. 2003's full Table 6 is 600 load searches), written to
reports/experiments/full/ and docs/*-full.md so a reduced run never overwrites full results; its finished points are
files (reports/experiments/full/seed00N-points-full/), and the same command run again resumes a stopped run. --only
picks experiments (names of either paper); --page rebuilds the pages from the JSON already written. Every run of the
simulator is seeded (--seed, printed); required checks fail the run (exit status 1), the others are reported on the
page beside the paper's numbers.

  scripts/experiments.py [--paper 000|001|002|003|004] [--full] [--only NAME,...] [--page] [--jobs N] [--scheduler ADDR]
                         [--seed N] [--warmup N] [--cycles N] [--topologies N] [--locations N] [--max-nodes N]
                         [--out-dir DIR] [--md-dir DIR]

--warmup, --cycles, --topologies and --max-nodes replace the mode's windows, network count and Geoffray and Hoefler 2008's largest
network (a long run on a small machine); the JSON and the page record what was used.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import exp_driver as D  # noqa: E402
from sanfab_cli import ArgumentParser, int_range, suggest  # noqa: E402
import exp_seed000  # noqa: E402
import exp_seed001  # noqa: E402
import exp_seed002  # noqa: E402
import exp_seed003  # noqa: E402
import exp_seed004  # noqa: E402

PAPERS = {"000": exp_seed000, "001": exp_seed001, "002": exp_seed002, "003": exp_seed003, "004": exp_seed004}


def venv_for_dask():
    """Every paper runs its sweeps through Dask, which lives in the project's .venv: re-run this script there."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        # the venv's python is often a link to this very interpreter: tell them apart by their prefix
        venv = os.path.dirname(os.path.dirname(D.VENV_PY))
        if os.access(D.VENV_PY, os.X_OK) and os.path.realpath(sys.prefix) != os.path.realpath(venv):
            os.execv(D.VENV_PY, [D.VENV_PY] + sys.argv)
        sys.exit("experiments: the sweeps run on Dask distributed, from the project's .venv (make deps)")


def main():
    ap = ArgumentParser(prog="experiments.py", description=__doc__)
    ap.add_argument("--paper", choices=sorted(PAPERS), default=None, help="one paper's experiments (default: all)")
    ap.add_argument("--full", action="store_true", help="the papers' full sizes and windows (hours)")
    names = [e for m in PAPERS.values() for e in m.EXPERIMENTS]
    ap.add_argument("--only", default=None, help="comma list of experiments: " + ", ".join(names))
    ap.add_argument("--jobs", type=int_range(1, 64), default=2, help="worker processes of the local Dask cluster that runs the "
                    "sweep points (1..64; default 2)")
    ap.add_argument("--scheduler", default=None, help="a running Dask scheduler (tcp://HOST:PORT) to run the sweep "
                    "points on instead of a local cluster (its workers must see this checkout's files)")
    ap.add_argument("--seed", type=int_range(0), default=1, help="traffic seed of every run (Flich et al. 2002 Table 4: the hotspot "
                    "locations are seeds 1..N)")
    ap.add_argument("--locations", type=int_range(1, 100), default=None, help="Flich et al. 2002 Table 4: hotspot locations per case "
                    "(default 1, with --full 10)")
    ap.add_argument("--warmup", type=int_range(0, 10**9), default=None, help="warm-up cycles of every point instead of the mode's")
    ap.add_argument("--cycles", type=int_range(1, 10**9), default=None, help="measurement window of every point instead of the mode's")
    ap.add_argument("--topologies", type=int_range(1, 100), default=None, help="random networks per size instead of the mode's "
                    "(Geoffray and Hoefler 2008: random bisection patterns per size; Etsion et al. 2000: random host maps)")
    ap.add_argument("--max-nodes", type=int, choices=(16, 32, 64, 128, 256, 512), default=None,
                    help="Geoffray and Hoefler 2008: node counts up to this one only (Clos networks of 16-host leaves: 16..512; the "
                    "threshold x probability study at the largest)")
    ap.add_argument("--page", action="store_true", help="run nothing: rebuild the pages from the JSON already written")
    ap.add_argument("--out-dir", dest="out_dir_arg", default=None, help="directory of the JSON (default "
                    "reports/experiments, with --full reports/experiments/full)")
    ap.add_argument("--md-dir", dest="md_dir_arg", default=None, help="directory of the pages and PNGs (default docs)")
    a = ap.parse_args()
    papers = [a.paper] if a.paper else sorted(PAPERS)
    if a.only is not None:
        a.only = [x.strip() for x in a.only.split(",") if x.strip()]
        bad = [x for x in a.only if x not in names]
        if bad or not a.only:
            hints = "".join(" (did you mean %s?)" % suggest(x, names) for x in bad[:1] if suggest(x, names))
            sys.exit("experiments: --only: unknown experiment %s%s (known: %s)" % (", ".join(bad) or "(none)", hints,
                                                                                 ", ".join(names)))
        papers = [p for p in papers if any(x in PAPERS[p].EXPERIMENTS for x in a.only)]
        if not papers:
            sys.exit("experiments: --only names no experiment of seed %s" % a.paper)
    # the numbers' ranges are their types' (int_range: the error names the range)
    for t in ("sanfab-sim", "sanfab-topo", "sanfab-route", "sanfab-maestro"):
        if not os.access(D.tool(t), os.X_OK):
            sys.exit("experiments: %s missing; run `make -C sw`" % D.tool(t))
    if not a.page:
        venv_for_dask()
    checks = []
    a.engine = D.Engine(a.scheduler, a.jobs)  # started by the first sweep, shared by every paper's
    try:
        for p in papers:
            checks += D.run_paper(PAPERS[p], argparse.Namespace(**vars(a)))
    except KeyboardInterrupt:
        sys.exit("experiments: interrupted%s" % ("; the finished points are kept beside the JSON "
                                                 "(seedNNN-points-full/), the same command resumes" if a.full else ""))
    finally:
        a.engine.close()
    sys.exit(0 if all(ok for ok, hard, _ in checks if hard) else 1)


if __name__ == "__main__":
    main()
