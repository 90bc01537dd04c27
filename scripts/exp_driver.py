"""The experiment driver every paper's experiments share (scripts/experiments.py; docs/network.md "Plots and
experiments"): running sanfab-sim on one load point or a sweep of them, the throughput rule, statistics, the
command line, writing one JSON per table or figure with its wall-clock and CPU seconds, resuming, the page and its
checks. A paper's experiments live in their own module (exp_seed000.py, exp_seed001.py), which gives:

  NAME, TITLE            "000", "seed 000 (Flich et al., ITB on Myrinet)"
  EXPERIMENTS            experiment names in run and page order
  configure(a)           the reduced or full (a.full) parameters on the argparse namespace
  json_path(a, name)     where experiment `name`'s JSON goes (a.out_dir: the directory of this mode)
  md_path(a)             the page
  run(a, name, work, md_dir, save, prior)   -> (data, checks): checks are (ok, required, text)
  write_md(path, a, found, missing)         the page from [(name, data)] of this mode
  prior(a, name, path, common)              (optional) an incomplete earlier JSON to resume, or None
"""
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


# ------------------------------------------------------------------ sanfab-sim runs

def sim(a, topo, routes, loads, extra=(), warmup=None, cycles=None, links=False):
    """One sanfab-sim run of `loads` (its points at once, --jobs a.jobs); returns its JSON. `extra`: more keys
    (the switch kind, message size, traffic, ...)."""
    cmd = [tool("sanfab-sim"), "--topology", topo, "--routes", routes,
           "--load", ",".join("%g" % x for x in loads), "--warmup", str(warmup if warmup is not None else a.warmup),
           "--cycles", str(cycles or a.cycles), "--seed", str(a.seed), "--links", "yes" if links else "no",
           "--jobs", str(a.jobs), "--quiet"] + list(extra)
    return json.loads(sh(cmd))


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


# ------------------------------------------------------------------ sweeps through the engine (scripts/sweep.py)

def run_points(a, points, paper):
    """Runs `points` ({key, cmd}) through the Dask sweep engine (a local cluster of a.jobs workers, or a.scheduler),
    their files in a.points_dir (a rerun of the same points resumes); returns their results by key and appends the
    engine's report to a.engine_reports (with the CPU seconds every point's file records, resumed ones too)."""
    try:
        import sweep
    except ImportError as e:  # dask lives in the project's .venv (make deps)
        sys.exit("experiments: seed %s runs its points through Dask (scripts/sweep.py): %s; run `make deps` and use "
                 ".venv/bin/python" % (paper, e))
    os.makedirs(a.points_dir, exist_ok=True)
    try:
        res, rep = sweep.run_sweep(points, a.points_dir, scheduler=a.scheduler, workers=a.jobs, progress=True)
    except sweep.SweepError as e:
        sys.exit("experiments: %s" % e)
    eng = {k: rep.get(k) for k in ("points", "run", "resumed", "engine", "workers", "wall_s", "point_cpu_s",
                                   "point_wall_s", "overhead", "overhead_after_start")}
    cpu = 0.0
    for p in points:
        with open(sweep.point_path(a.points_dir, p["key"])) as f:
            cpu += json.load(f)["cpu_s"]
    eng["all_points_cpu_s"] = round(cpu, 1)
    a.engine_reports.append(eng)
    return {p["key"]: r for p, r in zip(points, res)}


# ------------------------------------------------------------------ the command line and the run of a paper

def run_paper(mod, a):
    """Runs the paper module's experiments of a.only (all by default), writes their JSON and the page; returns the
    checks [(ok, required, text)]."""
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
    # one work directory per process: runs at the same time (make test, a full run) never share files
    work = os.path.join(ROOT, "sw", "build", "tmp", "experiments-%s-%s-%d" % (mod.NAME, "full" if a.full else "reduced",
                                                                              os.getpid()))
    os.makedirs(work, exist_ok=True)
    common = dict(mod.common(a), mode="full" if a.full else "reduced", seed=a.seed)
    checks = []
    for e in ([] if a.page else only):
        path = mod.json_path(a, e)
        t1, c1 = time.time(), cpu_children()
        prior = mod.prior(a, e, path, common) if hasattr(mod, "prior") else None

        def save(d, t1=t1, c1=c1, prior=prior, path=path):
            d = dict(d)
            for k, v in common.items():
                d.setdefault(k, v)
            d["seconds"], d["cpu_seconds"] = round(time.time() - t1, 1), round(cpu_children() - c1, 1)
            if prior:  # the stopped run's time and CPU (up to its last save, which covers its runs) count too
                d["seconds"] = round(d["seconds"] + prior["seconds"], 1)
                d["cpu_seconds"] = round(d["cpu_seconds"] + prior["cpu_seconds"], 1)
                d["resumed_runs"] = prior["runs_done"]
            with open(path, "w") as f:
                json.dump(d, f, indent=1)
                f.write("\n")
            return d
        data, ch = mod.run(a, e, work, md_dir, save, prior)
        data["checks"] = checks_json(ch)
        data = save(data)
        log("%s: %.0f s, %.0f CPU s, wrote %s" % (e, data["seconds"], data["cpu_seconds"], os.path.relpath(path, ROOT)))
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
    subprocess.run(["rm", "-rf", work])
    for ok, hard, text in checks:
        log("%s %s" % ("ok  " if ok else ("FAIL" if hard else "diff"), text))
    log("wrote %s (%.0f s)" % (os.path.relpath(md, ROOT), time.time() - t0))
    return checks


def resumable(path, common, keys, planned):
    """The JSON at `path` if an earlier full run left it incomplete with the same `keys` of `common` and the same
    number of planned runs (a rerun then resumes it), else None."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    same = all(d.get(k) == common[k] for k in keys)
    if same and d.get("complete") is False and d.get("runs_planned") == planned:
        log("resuming %s: %d of %d runs done" % (os.path.relpath(path, ROOT), d["runs_done"], planned))
        return d
    return None


def checks_json(ch):
    """The JSON form of checks [(ok, required, text)]."""
    return [{"ok": ok, "required": hard, "check": t} for ok, hard, t in ch]


def checks_md(found):
    """The page's list of checks: required ones fail the run, the others compare with the paper's statements."""
    L = ["| experiment | wall-clock s | CPU s (simulators) |", "|---|---|---|"]
    for name, data in found:
        L.append("| %s | %s | %s |" % (name, data.get("seconds", "-"), data.get("cpu_seconds", "-")))
    L += ["", "Checks (required ones fail the run; the others compare with the paper's statements):", ""]
    for name, data in found:
        for c in data.get("checks", []):
            L.append("- %s %s%s" % ("ok:" if c["ok"] else ("**FAILED:**" if c["required"] else "**differs:**"),
                                    c["check"], " (required)" if c["required"] else ""))
    return L + [""]
