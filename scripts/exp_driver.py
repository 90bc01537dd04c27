"""The experiment driver every paper's experiments share (scripts/experiments.py; docs/network.md "Plots and
experiments"): sanfab-sim runs of one load point or a sweep of them, the throughput rule, statistics, the points of
the sweep engine (scripts/sweep.py: every independent run, sweep or load search of an experiment is a point of one
Dask sweep; scripts/exp_point.py runs a sweep or a search as a point's command), the command line, writing one JSON
per table or figure with its wall-clock and CPU seconds and the engine's report, resuming, the page and its checks.
A paper's experiments live in their own module (exp_seed000.py ... exp_seed004.py), which gives:

  NAME, TITLE            "000", "Flich et al. 2002 (ITB on Myrinet)"
  EXPERIMENTS            experiment names in run and page order
  configure(a)           the reduced or full (a.full) parameters on the argparse namespace
  json_path(a, name)     where experiment `name`'s JSON goes (a.out_dir: the directory of this mode)
  md_path(a)             the page
  run(a, name, work, md_dir, prior)   -> (data, checks): checks are (ok, required, text); its sweeps go through
                         run_points(a, points) (a.points_dir: where the finished points' files are)
  write_md(path, a, found, missing)   the page from [(name, data)] of this mode
  prior(a, name, path, common)        (optional) the runs of a partial JSON that a full run saved before its
                                      searches were sweep points (kept, not run again), or None
"""
import contextlib
import functools
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SW = os.path.join(ROOT, "sw", "build")
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")
EXP_POINT = os.path.join(ROOT, "scripts", "exp_point.py")


def log(msg):
    print("experiments: " + msg, flush=True)


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("experiments: %s failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()[-600:]))
    return r.stdout


def tool(name):
    return os.path.join(SW, name)


def cpu_children():
    """CPU seconds (user + system) of the finished child processes so far (the sanfab-* runs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def stats(vals):
    return (min(vals), max(vals), sum(vals) / len(vals), len(vals))


def grouped(runs, key, value):
    """{key(run): [run[value], ...]} in run order."""
    rows = {}
    for r in runs:
        rows.setdefault(key(r), []).append(r[value])
    return rows


@functools.lru_cache(maxsize=None)
def have_matplotlib():
    return os.access(VENV_PY, os.X_OK) and subprocess.run([VENV_PY, "-c", "import matplotlib"],
                                                          capture_output=True).returncode == 0


def plot(args):
    """scripts/plot_net.py with the .venv's matplotlib."""
    sh([VENV_PY, os.path.join(ROOT, "scripts", "plot_net.py")] + list(args))


def plot_lines(a, md_dir, name, spec):
    """A line plot of spec (plot_net.py lines' JSON) as md_dir/<a.png_prefix><name>.png (the spec's file removed)."""
    path = os.path.join(md_dir, a.png_prefix + name + ".json")
    with open(path, "w") as f:
        json.dump(spec, f)
    plot(["lines", path, "-o", os.path.join(md_dir, a.png_prefix + name + ".png"), "--dpi", "90"])
    os.remove(path)


# ------------------------------------------------------------------ sanfab-sim runs

def sim_cmd(a, topo, routes, loads, extra=(), warmup=None, cycles=None, links=False):
    """The argv of one sanfab-sim run of `loads` (one after the other in one process). `extra`: more keys (the
    switch kind, message size, traffic, ...)."""
    return [tool("sanfab-sim"), "--topology", topo, "--routes", routes,
            "--load", ",".join("%g" % x for x in loads), "--warmup", str(warmup if warmup is not None else a.warmup),
            "--cycles", str(cycles or a.cycles), "--seed", str(a.seed), "--links", "yes" if links else "no",
            "--quiet"] + list(extra)


def sim(a, topo, routes, loads, extra=(), warmup=None, cycles=None, links=False):
    """One sanfab-sim run of `loads`; returns its JSON."""
    return json.loads(sh(sim_cmd(a, topo, routes, loads, extra, warmup, cycles, links)))


def hot_saturated(p):
    """A point whose hotspot host accepts < 0.95 of what is offered to it (sanfab-sim; hotspot traffic only)."""
    return bool(p.get("hotspot_host", {}).get("saturated"))


def throughput(points, unit):
    """sanfab-sim's rule: the highest accepted traffic (accepted_<unit>) of the points whose hotspot host is not
    saturated (every point for the other patterns); the lowest load's if there is none."""
    ok = [p["accepted_" + unit] for p in points if not hot_saturated(p)]
    return max(ok) if ok else min(points, key=lambda p: p["load"])["accepted_" + unit]


def peaked(points, unit):
    """The sweep has gone past its throughput: its last point is saturated and accepts less than the throughput,
    or its hotspot host is saturated (more load only adds uniform traffic beside a saturated hotspot)."""
    last = points[-1]
    return last["saturated"] and (hot_saturated(last) or last["accepted_" + unit] < throughput(points, unit))


def summary(js, pts, unit, lat, t0):
    """A sweep's summary: throughput (the highest accepted), saturation, forward resets, deadlocks, the points."""
    return {"switches": js["network"]["switches"], "hosts": js["network"]["hosts"],
            "throughput_" + unit: throughput(pts, unit), "reached_saturation": pts[-1]["saturated"],
            "peaked": peaked(pts, unit), "saturation_load": next((p["load"] for p in pts if p["saturated"]), None),
            "forward_resets": sum(p["switches"].get("drop_timeout", 0) for p in pts),
            "deadlocks": sum(1 for p in pts if p.get("deadlock")),
            "itbs_per_msg": [p.get("itbs_per_msg", 0) for p in pts],
            "points": [[p["load"], p["offered_" + unit], p["accepted_" + unit], p[lat]["avg"], p["saturated"]] for p in pts],
            "seconds": round(time.time() - t0, 1)}


def sweep(a, topo, routes, loads, extend, extra=(), links=False, unit="flits_ns_sw", lat="latency_ns"):
    """A load sweep extended with the loads of `extend`, one at a time, until its last point is saturated and past
    the peak; (summary, raw points)."""
    t0 = time.time()
    js = sim(a, topo, routes, loads, extra, links=links)
    pts = js["points"]
    for x in extend:  # the sweep must reach saturation and the peak of accepted traffic
        if peaked(pts, unit):
            break
        pts += sim(a, topo, routes, [x], extra, links=links)["points"]
    return summary(js, pts, unit, lat, t0), pts


def search(a, topo, routes, start, extra=(), unit="flits_cycle_host", lat="latency_cycles", factor=2.0, limit=1.0,
           refine=3):
    """A sweep that finds its own loads: `start`, then `factor` times the last until a point is saturated (or the
    load reaches `limit`); then `refine` loads evenly between the last unsaturated point and the first saturated
    one; then one load halfway between the best point so far and each of its neighbours. (summary, raw points sorted
    by load); the throughput is the highest accepted traffic of them all (within about a sixteenth of the doubling
    step of the peak)."""
    t0 = time.time()
    load, pts, js = start, [], None
    while True:
        js = sim(a, topo, routes, [load], extra)
        pts += js["points"]
        if pts[-1]["saturated"] or load >= limit:
            break
        load = min(limit, load * factor)
    ok = [p for p in pts if not p["saturated"]]
    if ok and pts[-1]["saturated"] and refine:
        lo, hi = ok[-1]["load"], pts[-1]["load"]
        more = [round(lo + (hi - lo) * (i + 1) / (refine + 1), 6) for i in range(refine)]
        pts += sim(a, topo, routes, more, extra)["points"]
        pts.sort(key=lambda p: p["load"])
        i = max(range(len(pts)), key=lambda k: pts[k]["accepted_" + unit])
        near = [round((pts[i]["load"] + pts[j]["load"]) / 2, 6) for j in (i - 1, i + 1) if 0 <= j < len(pts)]
        if near:
            pts += sim(a, topo, routes, near, extra)["points"]
    pts.sort(key=lambda p: p["load"])
    return summary(js, pts, unit, lat, t0), pts


# ------------------------------------------------------------------ sweep points (scripts/sweep.py)

def floats(xs):
    """Loads as a command-line list that reads back as the same floats."""
    return ",".join(repr(float(x)) for x in xs)


def point_args(a, topo, routes, extra):
    return ["--topology", topo, "--routes", routes, "--warmup", str(a.warmup), "--cycles", str(a.cycles),
            "--seed", str(a.seed)], ["--"] + list(extra)


def sweep_point(a, key, topo, routes, loads, extend, extra=(), links=False, unit="flits_ns_sw", lat="latency_ns"):
    """A point that runs sweep() (exp_point.py sweep); its result: {"summary", "points", "cpu_seconds"}."""
    own, more = point_args(a, topo, routes, extra)
    return {"key": key, "cmd": [EXP_POINT, "sweep"] + own + ["--loads", floats(loads), "--extend", floats(extend),
                                                            "--unit", unit, "--lat", lat] +
            (["--links"] if links else []) + more}


def search_point(a, key, topo, routes, start, extra=(), unit="flits_cycle_host", lat="latency_cycles"):
    """A point that runs search() (exp_point.py search); its result: {"summary", "points", "cpu_seconds"}."""
    own, more = point_args(a, topo, routes, extra)
    return {"key": key, "cmd": [EXP_POINT, "search"] + own + ["--start", repr(float(start)), "--unit", unit,
                                                             "--lat", lat] + more}


def sim_point(a, key, topo, routes, loads, extra=(), warmup=None, cycles=None, links=False):
    """A point that is one sanfab-sim run (sim()); its result: sanfab-sim's JSON."""
    return {"key": key, "cmd": sim_cmd(a, topo, routes, loads, extra, warmup, cycles, links)}


def sweep_module():
    try:
        import sweep
    except ImportError as e:
        sys.exit("experiments: the sweep engine (scripts/sweep.py) does not load: %s" % e)
    return sweep


# Dask's diagnostics for its dashboard (a 10 ms profiler and a 1 ms GIL monitor in every worker, a 20 ms event-loop
# tick, the 100-500 ms monitors and work stealing) cost an idle local cluster of one worker 0.07 CPU s per second
# (measured on this machine; 0.014 without them): an experiments run keeps its cluster for its whole length, beside
# other jobs on few cores. They change no result; the workers take them with the rest of Dask's configuration.
QUIET_DASK = {"distributed.worker.profile.enabled": False, "distributed.admin.system-monitor.gil.enabled": False,
              "distributed.admin.tick.interval": "1s", "distributed.admin.system-monitor.interval": "2s",
              "distributed.worker.memory.monitor-interval": "2s", "distributed.scheduler.work-stealing": False}


class Engine:
    """The Dask engine of one experiments.py run (scripts/sweep.py): a local cluster of `workers` single-threaded
    processes, or the scheduler at `scheduler`; started by the first sweep that has points to run (with QUIET_DASK),
    shared by the sweeps of every experiment and paper after it, closed by close()."""

    def __init__(self, scheduler=None, workers=None):
        self.scheduler, self.workers = scheduler, workers
        self.stack = self.client = self.what = None

    def open(self):
        """(client, seconds it took to start the engine now: 0 if it was running)."""
        if self.client is not None:
            return self.client, 0.0
        sweep = sweep_module()
        sweep.need_distributed()  # a SweepError naming the missing Dask
        import dask
        t0 = time.monotonic()
        with contextlib.ExitStack() as stack, dask.config.set(QUIET_DASK):
            self.client, _, self.what = stack.enter_context(
                sweep.engine(self.scheduler, None if self.scheduler else self.workers))
            self.stack = stack.pop_all()
        return self.client, time.monotonic() - t0

    def close(self):
        if self.stack is not None:
            self.stack.close()
        self.stack = self.client = None


REPORT_KEYS = ("points", "run", "resumed", "engine", "workers", "wall_s", "start_s", "point_cpu_s", "point_wall_s",
               "overhead", "overhead_after_start", "engine_cpu_s", "cpu_overhead")


def run_points(a, points):
    """Runs `points` ({key, cmd}: sweep_point, search_point, sim_point) as one Dask sweep on a.engine, all at once
    (as many at a time as the engine has workers); returns their results in the points' order. Each finished point
    is a file in a.points_dir, which a rerun of the same points does not run again. The engine's report (points
    run and resumed, workers, wall, the points' CPU and wall seconds, overhead) goes to a.engine_reports."""
    sweep = sweep_module()
    try:
        descs = sweep.check_points(points)
        os.makedirs(a.points_dir, exist_ok=True)
        todo = any(sweep.finished(a.points_dir, d) is None for d in descs)
        client, start = a.engine.open() if todo else (None, 0.0)
        res, rep = sweep.run_sweep(points, a.points_dir, client=client, progress=True)
    except sweep.SweepError as e:
        sys.exit("experiments: %s" % e)
    if rep["run"]:  # the engine it ran on, and the start of the engine if this sweep started it
        rep["engine"] = a.engine.what
        rep["start_s"] = round(start, 3)
        rep["wall_s"] = round(rep["wall_s"] + start, 3)
        rep["overhead"] = sweep.overhead(rep["wall_s"], rep["workers"], rep["point_wall_s"])
        rep["overhead_after_start"] = sweep.overhead(rep["wall_s"] - start, rep["workers"], rep["point_wall_s"])
    eng = {k: rep.get(k) for k in REPORT_KEYS}
    # the CPU seconds every point's file records, resumed ones too: the whole study's CPU time
    eng["all_points_cpu_s"] = round(sum(sweep.finished(a.points_dir, d)["cpu_s"] for d in descs), 1)
    a.engine_reports.append(eng)
    return res


def run_points_by_key(a, points):
    """run_points, its results by the points' keys."""
    return {p["key"]: r for p, r in zip(points, run_points(a, points))}


# ------------------------------------------------------------------ the command line and the run of a paper

def seed_json_path(a, paper, name):
    """Where seed `paper`'s experiment `name` writes its JSON: a.out_dir/seedNNN-NAME.json."""
    return os.path.join(a.out_dir, "seed%s-%s.json" % (paper, name))


def seed_md_path(a, paper):
    """Seed `paper`'s page: docs/experiments-seedNNN.md (-full with --full), or under --md-dir."""
    return os.path.join(a.md_dir_arg or os.path.join(ROOT, "docs"),
                        "experiments-seed%s%s.md" % (paper, "-full" if a.full else ""))


def work_dir(mod, a):
    """The run's work directory (networks, route sets, point files of a reduced run), empty. A reduced run's is its
    own (the process id in its name: runs at the same time, make test's and yours, never share files); a full run's
    is the same every time, so that the points of a resumed run name the same files (one full run of a paper at a
    time). The networks in it are made again by every run, the same from the same seeds."""
    name = "experiments-%s-full" % mod.NAME if a.full else "experiments-%s-reduced-%d" % (mod.NAME, os.getpid())
    work = os.path.join(ROOT, "sw", "build", "tmp", name)
    subprocess.run(["rm", "-rf", work])
    os.makedirs(work)
    return work


def run_paper(mod, a):
    """Runs the paper module's experiments of a.only (all by default) on the engine a.engine, writes their JSON and
    the page; returns the checks [(ok, required, text)]."""
    over = {k: getattr(a, k) for k in ("warmup", "cycles", "topologies")}
    mod.configure(a)
    for k, v in over.items():  # --warmup, --cycles, --topologies replace the mode's
        if v is not None:
            setattr(a, k, v)
    a.out_dir = os.path.abspath(a.out_dir_arg or os.path.join(ROOT, "reports", "experiments", *(["full"] if a.full else [])))
    md = os.path.abspath(mod.md_path(a))
    md_dir = os.path.dirname(md)
    os.makedirs(a.out_dir, exist_ok=True)
    os.makedirs(md_dir, exist_ok=True)
    only = [x for x in a.only if x in mod.EXPERIMENTS] if a.only else list(mod.EXPERIMENTS)
    log("seed %s, %s, traffic seed %d: %s" % (mod.NAME, "full" if a.full else "reduced", a.seed,
                                            ", ".join(only) if not a.page else "(page only)"))
    t0 = time.time()
    work = None if a.page else work_dir(mod, a)  # --page leaves a full run's work directory alone
    # the finished points: --full beside the JSON, so a stopped run resumes (delete the directory after changing the
    # simulator); reduced in the work directory, so every run starts fresh
    if a.full:
        a.points_dir = os.path.join(a.out_dir, "seed%s-points-full" % mod.NAME)
    else:
        a.points_dir = work and os.path.join(work, "points")
    common = dict(mod.common(a), mode="full" if a.full else "reduced", seed=a.seed)
    checks = []
    for e in ([] if a.page else only):
        path = mod.json_path(a, e)
        t1, c1 = time.time(), cpu_children()
        prior = mod.prior(a, e, path, common) if hasattr(mod, "prior") else None
        a.engine_reports = []
        data, ch = mod.run(a, e, work, md_dir, prior)
        data["checks"] = checks_json(ch)
        for k, v in common.items():
            data.setdefault(k, v)
        # CPU: this process's own children (networks, routes, plots) and the points run now (on the engine's workers)
        data["seconds"] = round(time.time() - t1, 1)
        data["cpu_seconds"] = round(cpu_children() - c1 + sum(r["point_cpu_s"] for r in a.engine_reports), 1)
        if prior:  # the stopped run's time and CPU (up to its last save, which covers its runs) count too
            data["seconds"] = round(data["seconds"] + prior["seconds"], 1)
            data["cpu_seconds"] = round(data["cpu_seconds"] + prior["cpu_seconds"], 1)
            data["resumed_runs"] = prior["runs_done"]
        data["engine"] = a.engine_reports
        write_json(path, data)
        log("%s: %.0f s, %.0f CPU s, %s, wrote %s" % (e, data["seconds"], data["cpu_seconds"],
                                                      engine_text(a.engine_reports), os.path.relpath(path, ROOT)))
        checks += ch
    found, missing = [], []
    for e in mod.EXPERIMENTS:
        d, path = None, mod.json_path(a, e)
        if os.path.exists(path):
            with open(path) as f:
                d = json.load(f)
        if d is not None and d.get("mode") == common["mode"]:
            found.append((e, d))
        else:
            missing.append(e)
    mod.write_md(md, a, found, missing)
    if work:
        subprocess.run(["rm", "-rf", work])
    for ok, hard, text in checks:
        log("%s %s" % ("ok  " if ok else ("FAIL" if hard else "diff"), text))
    log("wrote %s (%.0f s)" % (os.path.relpath(md, ROOT), time.time() - t0))
    return checks


def write_json(path, d):
    with open(path, "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


def engine_text(reports):
    """One line on the sweep engine's reports of an experiment: its points, run and resumed, workers, overhead."""
    if not reports:
        return "no sweep points"
    n, run, res = (sum(r[k] for r in reports) for k in ("points", "run", "resumed"))
    cpu = sum(r["point_cpu_s"] or 0 for r in reports)
    workers = max(r["workers"] or 0 for r in reports)
    over = [r["overhead"] for r in reports if r.get("overhead") is not None]
    ecpu = [r["engine_cpu_s"] for r in reports if r.get("engine_cpu_s") is not None]
    return "%d sweep point%s (%d run%s, %d resumed from their files) on %d worker%s, %.0f CPU s of the points%s%s" % (
        n, "" if n == 1 else "s", run, "" if run == 1 else "s", res, workers, "" if workers == 1 else "s", cpu,
        ", engine overhead %s" % ", ".join("%.0f %%" % (100 * x) for x in over) if over else "",
        ", the engine's own CPU %.1f s (%.1f %% of the points')" % (sum(ecpu), 100 * sum(ecpu) / cpu)
        if ecpu and cpu > 0 else "")


def engine_md(found, shared=""):
    """The page's paragraph on the sweep engine from the experiments' JSON `found` [(name, data)]: points run and
    resumed, the points' CPU in this run and as their files record it (the whole study's), the engine's overhead in
    wall time and its own CPU. `shared`: which points count once per experiment that uses them."""
    eng = [e for _, d in found for e in d.get("engine", [])]
    if not eng:
        return []
    cpu = sum(e["point_cpu_s"] or 0 for e in eng)
    every = sum(e.get("all_points_cpu_s") or 0 for e in eng)
    ecpu = [e["engine_cpu_s"] for e in eng if e.get("engine_cpu_s") is not None]
    own = ("%.1f CPU s, %.1f %% of the points' CPU in this run" % (sum(ecpu), 100 * sum(ecpu) / cpu)
           if ecpu and cpu > 0 else "not measured (a remote engine, or nothing run now)")
    return ["## The sweep engine", "", "Every run is a point of a Dask sweep (scripts/sweep.py). This page's points: "
            "%d (%d run now, %d resumed from their files), %.0f CPU s of the points' own in this run, %.0f CPU s for "
            "every point as its file records it%s: on N workers the whole study's wall time is about that / N. The "
            "engine's own processes (client, scheduler, workers, nannies) used %s; its wall-time overhead (wall x "
            "workers over the points' wall, start and idle tails included): %s."
            % (sum(e["points"] for e in eng), sum(e["run"] for e in eng), sum(e["resumed"] for e in eng), cpu, every,
               " (%s)" % shared if shared else "", own,
               ", ".join("%.1f %%" % (100 * e["overhead"]) for e in eng if e.get("overhead") is not None) or "-"), ""]


def resumable(path, common, keys, planned):
    """The JSON at `path` if an earlier full run left it incomplete with the same `keys` of `common` and the same
    number of planned runs, else None: a partial JSON that a full run saved after every search before its searches
    were sweep points (Koibuchi et al. 2003's full Table 6 of 490 of 600 searches). A rerun keeps its runs and runs the others
    as points (whose files a stopped rerun keeps in turn)."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    same = all(d.get(k) == common[k] for k in keys)
    if same and d.get("complete") is False and d.get("runs_planned") == planned:
        log("resuming %s: %d of %d runs done (kept; the others are sweep points)"
            % (os.path.relpath(path, ROOT), d["runs_done"], planned))
        return d
    return None


def checks_json(ch):
    """The JSON form of checks [(ok, required, text)]."""
    return [{"ok": ok, "required": hard, "check": t} for ok, hard, t in ch]


def checks_md(found):
    """The page's list of checks: required ones fail the run, the others compare with the paper's statements."""
    L = ["| experiment | wall-clock s | CPU s (simulators) | sweep engine (scripts/sweep.py) |", "|---|---|---|---|"]
    for name, data in found:
        L.append("| %s | %s | %s | %s |" % (name, data.get("seconds", "-"), data.get("cpu_seconds", "-"),
                                           engine_text(data["engine"]) if "engine" in data else "-"))
    L += ["", "Checks (required ones fail the run; the others compare with the paper's statements):", ""]
    for name, data in found:
        for c in data.get("checks", []):
            L.append("- %s %s%s" % ("ok:" if c["ok"] else ("**FAILED:**" if c["required"] else "**differs:**"),
                                    c["check"], " (required)" if c["required"] else ""))
    return L + [""]
