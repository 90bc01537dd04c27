#!/usr/bin/env python3
"""The sweep engine: independent points run through Dask distributed (docs/network.md "Sweeps on a cluster").

A point is a dict with a unique, file-name safe `key` and either
  - `cmd`: the argv list of a command that prints one JSON document on standard output (exit status 0), or
  - `fn` (Python API only): a picklable callable, with `args` (a JSON list, default []) passed to it, that returns
    a JSON-serialisable value.
Any other fields of a point must be JSON; they are kept with it and belong to its identity.

Each finished point is a file OUT/<key>.json, written atomically (temporary file, then rename):
  {"point": {...the point, `fn` as "module:name"...}, "result": <its JSON>, "cpu_s": <user + system seconds of the
   command and its children (os.wait4), or of the callable's thread>, "wall_s": <its wall-clock seconds>}
A resumed sweep (the same points, the same OUT) does not run a point whose file exists and holds the same point;
a file holding a different point under that key is an error naming the file (remove it, or use another OUT, to
run the new point): results of two different sweeps are never mixed.

The results come back in the points' order, without timings, so a sweep gives the same JSON on one worker or
many. Engines: a LocalCluster of `workers` (default os.cpu_count(), at most one per point to run) single-threaded
worker processes; a running Dask scheduler at an address (`scheduler="tcp://host:port"`, connected within
`connect_timeout` seconds or an error); or, with dask-jobqueue, a SLURMCluster of `workers` jobs of one
single-threaded worker each (`slurm=True`; options from Dask's jobqueue configuration or `slurm_opts`); or an
open distributed.Client (`client`).

At most as many points are in flight as the engine has worker threads, so when a point fails (non-zero exit,
no JSON on stdout, an exception) no new point starts, the running ones finish and are saved, and the sweep fails
naming the point, its exit status and the tail of its standard error; a rerun resumes.

Command line:
  sweep.py run POINTS.json --out DIR [--workers N | --scheduler ADDR | --slurm --workers N [--slurm-opt K=V]...]
               [--connect-timeout S] [-o FILE] [--report FILE] [--quiet]
  sweep.py status POINTS.json --out DIR
POINTS.json is a list of {"key": ..., "cmd": [...]}; `run` prints the list of results (in the points' order) on
standard output or -o FILE, progress and the overhead report on standard error. Exit status 0 done, 1 failed
(the message says why), 2 bad usage.

Python:
  import sweep
  results, report = sweep.run_sweep(points, out_dir, scheduler=None, workers=None, progress=True)
report: points, run, resumed, engine, workers, wall_s, start_s, point_cpu_s, point_wall_s, overhead,
overhead_after_start (see overhead()), engine_cpu_s and cpu_overhead (the CPU seconds the engine's own processes,
client, scheduler, workers and nannies, used while the points ran, less what the points used, and that over the
points' CPU; on a local cluster, None on a remote one).
"""
import contextlib
import json
import os
import re
import shlex
import shutil
import socket
import sys
import tempfile
import time
import uuid
from collections import deque
from concurrent.futures import CancelledError
from typing import NamedTuple

import sweep_task
from sanfab_cli import ArgumentParser, float_range, int_range

KEY_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+=-]{0,199}\Z")
CONNECT_TIMEOUT_S = 10.0      # a scheduler address must answer within this
PROGRESS_EVERY_S = 5.0        # at most one progress line this often (and the last one)
POLL_S = 1.0                  # how often the driver looks at the engine's workers while points run
SLURM_DEFAULTS = {"cores": 1, "processes": 1, "memory": "2GB"}   # one single-threaded worker per job


class SweepError(Exception):
    """A sweep that cannot run or did not finish; the message starts with "sweep: " and says why."""


class Sweep(NamedTuple):
    results: list   # the points' results in the points' order
    report: dict    # counts, timings and the overhead (see overhead())


# ------------------------------------------------------------------ points and their files

def describe(point, where):
    """The JSON description of one point (what its file stores and a resume compares); raises SweepError."""
    if not isinstance(point, dict):
        raise SweepError("sweep: %s: a point must be an object {key, cmd}, got %s" % (where, type(point).__name__))
    key = point.get("key")
    if not isinstance(key, str) or not KEY_RE.match(key):
        raise SweepError("sweep: %s: key %s is not file-name safe (1-200 of letters, digits, . _ + = -, not "
                         "starting with . _ + = -)" % (where, json.dumps(key)))
    where = "%s (key %s)" % (where, key)
    has_cmd, has_fn = "cmd" in point, "fn" in point
    if has_cmd == has_fn:
        raise SweepError("sweep: %s: a point needs exactly one of cmd (an argv list) and fn (a callable)" % where)
    desc = dict(point)
    if has_cmd:
        cmd = point["cmd"]
        if not isinstance(cmd, list) or not cmd or not all(isinstance(c, str) for c in cmd):
            raise SweepError("sweep: %s: cmd must be a non-empty list of strings, got %s" % (where, json.dumps(cmd)))
    else:
        if not callable(point["fn"]):
            raise SweepError("sweep: %s: fn must be callable" % where)
        fn = point["fn"]
        desc["fn"] = "%s:%s" % (getattr(fn, "__module__", "?"), getattr(fn, "__qualname__", repr(fn)))
        desc.setdefault("args", [])
        if not isinstance(desc["args"], list):
            raise SweepError("sweep: %s: args must be a list" % where)
    try:
        return json.loads(json.dumps(desc))
    except (TypeError, ValueError) as e:
        raise SweepError("sweep: %s: not JSON: %s" % (where, e)) from None


def check_points(points, where="points"):
    """The descriptions of `points` (a list of point dicts, keys unique); raises SweepError naming the problem."""
    if not isinstance(points, list):
        raise SweepError("sweep: %s: want a list of points {key, cmd}, got %s" % (where, type(points).__name__))
    descs, first = [], {}
    for i, p in enumerate(points):
        d = describe(p, "%s[%d]" % (where, i))
        if d["key"] in first:
            raise SweepError("sweep: %s[%d]: duplicate key %s (also %s[%d])" % (where, i, json.dumps(d["key"]), where,
                                                                               first[d["key"]]))
        first[d["key"]] = i
        descs.append(d)
    return descs


def load_points(path):
    """The points of a POINTS.json file (a list of {key, cmd}); raises SweepError naming the file and the problem."""
    try:
        with open(path) as f:
            points = json.load(f)
    except OSError as e:
        raise SweepError("sweep: %s: cannot read: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise SweepError("sweep: %s: not JSON: %s" % (path, e)) from None
    check_points(points, path)
    return points


def point_path(out_dir, key):
    return os.path.join(out_dir, key + ".json")


def finished(out_dir, desc):
    """The stored record {point, result, cpu_s, wall_s} of a finished point, or None if it has no file; a file
    that is not a point's record, or holds a different point, is a SweepError naming it."""
    path = point_path(out_dir, desc["key"])
    try:
        with open(path) as f:
            rec = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise SweepError("sweep: %s: not a finished point's file (%s); remove it to run the point again" % (path, e))
    if not isinstance(rec, dict) or not {"point", "result"} <= rec.keys():
        raise SweepError("sweep: %s: not a finished point's file (no point and result); remove it to run the "
                         "point again" % path)
    if rec["point"] != desc:
        old = rec["point"] if isinstance(rec["point"], dict) else {}
        diff = sorted(k for k in set(old) | set(desc) if old.get(k) != desc.get(k))
        raise SweepError("sweep: %s holds a different point than key %s has now (differs in: %s); remove the file, "
                         "or use another output directory, to run the new point"
                         % (path, json.dumps(desc["key"]), ", ".join(diff)))
    return rec


def write_atomic(path, data):
    """Writes `data` as JSON to `path` through a temporary file in the same directory and a rename."""
    d, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(dir=d, prefix="." + name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ------------------------------------------------------------------ engines

def need_distributed():
    try:
        import distributed
    except ImportError:
        raise SweepError("sweep: Dask distributed is not installed for %s; run scripts/deps.sh (make deps) and use "
                         ".venv/bin/python" % sys.executable) from None
    return distributed


def slurm_options(options=None):
    """SLURMCluster keyword arguments: one single-threaded worker per job (cores=1, processes=1, memory=2GB)
    where Dask's jobqueue configuration (~/.config/dask/jobqueue.yaml, DASK_JOBQUEUE__SLURM__*) sets nothing,
    then `options` (e.g. {"queue": "batch", "account": "me", "walltime": "04:00:00"})."""
    import dask
    opts = {k: v for k, v in SLURM_DEFAULTS.items() if dask.config.get("jobqueue.slurm." + k, None) is None}
    opts.update(options or {})
    return opts


@contextlib.contextmanager
def engine(scheduler=None, workers=None, slurm=False, options=None, connect_timeout=CONNECT_TIMEOUT_S, client=None):
    """A Dask client for a sweep: (client, workers or None when the cluster decides, what it is); closes what it
    opened. `client`: an open Client to use as it is (left open)."""
    distributed = need_distributed()
    if client is not None:
        ship(client)
        yield client, None, "the given client (%s)" % client.scheduler.address
        return
    with contextlib.ExitStack() as stack:
        if scheduler:
            if slurm:
                raise SweepError("sweep: give a scheduler address or slurm, not both")
            try:
                c = distributed.Client(scheduler, timeout=connect_timeout)
            except ValueError as e:
                raise SweepError("sweep: bad Dask scheduler address %s: %s" % (scheduler, e)) from None
            except (OSError, TimeoutError) as e:
                raise SweepError("sweep: cannot reach the Dask scheduler at %s within %g s (%s)"
                                 % (scheduler, connect_timeout, e)) from None
            stack.enter_context(c)
            ship(c)
            yield c, None, "the Dask scheduler at %s" % scheduler
            return
        if slurm:
            if not workers:
                raise SweepError("sweep: slurm needs workers (the number of SLURM jobs, one worker each)")
            try:
                from dask_jobqueue import SLURMCluster
            except ImportError:
                raise SweepError("sweep: slurm needs dask-jobqueue (scripts/deps.sh installs it into .venv)") from None
            if not shutil.which("sbatch"):
                raise SweepError("sweep: slurm: no sbatch on this machine's PATH (run the sweep on a SLURM login node)")
            cluster = stack.enter_context(SLURMCluster(**slurm_options(options)))
            cluster.scale(n=workers)
            c = stack.enter_context(distributed.Client(cluster))
            ship(c)
            yield c, None, "a SLURM cluster of %s" % plural(workers, "job")
            return
        cluster = stack.enter_context(distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))
        yield stack.enter_context(distributed.Client(cluster)), workers, "a local cluster of %s" % plural(workers,
                                                                                                         "worker")


def ship(client):
    """Sends sweep_task.py to the scheduler and the workers (present and future) of an engine this process did not
    start: they may not have it on their path, and the tasks name its run_point."""
    client.upload_file(os.path.abspath(sweep_task.__file__))


def threads_of(client):
    return sum(client.nthreads().values())


# ------------------------------------------------------------------ the sweep

def fmt_duration(s):
    s = int(round(s))
    if s < 60:
        return "%ds" % s
    if s < 3600:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%dh%02dm" % (s // 3600, s % 3600 // 60)


def overhead(wall_s, workers, point_wall_s):
    """The engine's overhead: the worker time the sweep held (wall x workers, at most one worker per point run)
    that went to no point's own run, as a fraction of the points' run time; None when nothing ran."""
    if not point_wall_s or not workers:
        return None
    return round((wall_s * workers - point_wall_s) / point_wall_s, 4)


def engine_processes(client):
    """The processes of the engine on this machine, as psutil Processes: this one (the client, and a local cluster's
    scheduler) and every worker with its nanny; None when a worker runs on another machine or psutil is missing (a
    remote engine's CPU is not ours to see)."""
    try:
        import psutil
    except ImportError:
        return None
    try:
        info = client.run(sweep_task.where)
    except Exception:  # noqa: BLE001 (a worker that cannot answer: no figure rather than a failed sweep)
        return None
    host, me = socket.gethostname(), os.getpid()
    pids = {me}
    for h, pid, ppid in info.values():
        if h != host:
            return None
        pids |= {pid, ppid}  # the worker and its nanny (a local cluster's nannies are this process's children)
    procs = []
    for pid in sorted(pids):
        try:
            procs.append(psutil.Process(pid))
        except psutil.Error:
            pass
    return procs


def own_cpu(procs):
    """The CPU seconds the processes `procs` used themselves, not their children (the points): the engine's work."""
    import psutil
    total = 0.0
    for p in procs or ():
        try:
            t = p.cpu_times()
        except psutil.Error:  # a worker gone: what it used since is not seen
            continue
        total += t.user + t.system
    return total


def drive(client, todo, out_dir, say, total, ndone):
    """Runs the points `todo` [(index, desc, fn)] on `client`, at most as many at a time as it has worker
    threads, saving each point's file as it finishes. Returns ({index: record}, most threads seen); on a failure
    starts no new point, waits for the running ones, then raises SweepError."""
    from distributed import wait
    queue, inflight, records, failures = deque(todo), {}, {}, []
    most, last_say, walls = 0, 0.0, []
    while inflight or queue and not failures:
        threads = threads_of(client)
        most = max(most, threads)
        while queue and not failures and len(inflight) < max(1, threads):
            i, desc, fn = queue.popleft()
            key = "sweep-%s-%s" % (desc["key"], uuid.uuid4().hex[:8])
            fut = client.submit(sweep_task.run_point, desc, fn, key=key, pure=False)
            inflight[fut] = (i, desc)
        try:
            done = wait(list(inflight), timeout=POLL_S, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            done = ()
        for fut in done:
            i, desc = inflight.pop(fut)
            try:
                out = fut.result()
            except Exception as e:  # the engine lost the task (a worker died, the scheduler went away)
                out = sweep_task.failure("the Dask engine lost it: %s: %s" % (type(e).__name__, e))
            if not out["ok"]:
                failures.append((desc, out))
                continue
            rec = {"point": desc, "result": out["result"], "cpu_s": round(out["cpu_s"], 3),
                   "wall_s": round(out["wall_s"], 3)}
            write_atomic(point_path(out_dir, desc["key"]), rec)
            records[i] = rec
            walls.append(out["wall_s"])
            ndone += 1
            now = time.monotonic()
            if ndone == total:
                say("sweep: %d/%d points done" % (ndone, total))
            elif now - last_say >= PROGRESS_EVERY_S:
                left = sum(walls) / len(walls) * (len(queue) + len(inflight)) / max(1, threads)
                say("sweep: %d/%d points done, ~%s left" % (ndone, total, fmt_duration(left)))
                last_say = now
        if not threads and time.monotonic() - last_say >= PROGRESS_EVERY_S:
            say("sweep: waiting for workers to join the Dask scheduler")
            last_say = time.monotonic()
    if failures:
        raise SweepError("\n".join(failure_text(d, o) for d, o in failures) +
                         "\nsweep: %d of %d points are done (files in %s); a rerun resumes" % (ndone, total, out_dir))
    return records, most


def failure_text(desc, out):
    what = shlex.join(desc["cmd"]) if "cmd" in desc else desc["fn"]
    text = "sweep: point %s failed: %s (%s)" % (desc["key"], out["error"], what)
    tail = out["stderr"].rstrip()
    if tail:
        text += "\n  its stderr ends:\n" + "\n".join("    " + ln for ln in tail.splitlines())
    return text


def run_sweep(points, out_dir, scheduler=None, workers=None, progress=True, *, slurm=False, slurm_opts=None,
              connect_timeout=CONNECT_TIMEOUT_S, client=None):
    """Runs `points` (dicts {key, cmd} or {key, fn, args}) through Dask distributed, each finished point saved as
    out_dir/<key>.json; points already saved there are not run again. Returns Sweep(results, report): the results
    in the points' order, and the report (counts, timings, overhead). Engine: a LocalCluster of `workers` (default
    os.cpu_count()) processes, the scheduler at address `scheduler`, a SLURMCluster of `workers` jobs (`slurm`,
    `slurm_opts`), or an open `client`. Raises SweepError (message "sweep: ...") when it cannot run or a point
    failed."""
    def say(msg):
        if progress:
            print(msg, file=sys.stderr, flush=True)

    descs = check_points(points)
    if workers is not None and workers < 1:
        raise SweepError("sweep: workers must be at least 1")
    if workers is not None and (scheduler or client is not None):
        raise SweepError("sweep: workers is for a local or SLURM cluster; a scheduler has its own")
    os.makedirs(out_dir, exist_ok=True)
    recs = {i: finished(out_dir, d) for i, d in enumerate(descs)}
    recs = {i: r for i, r in recs.items() if r is not None}
    todo = [(i, d, points[i].get("fn")) for i, d in enumerate(descs) if i not in recs]
    report = {"points": len(points), "run": len(todo), "resumed": len(recs), "engine": None, "workers": 0,
              "wall_s": 0.0, "start_s": 0.0, "point_cpu_s": 0.0, "point_wall_s": 0.0, "overhead": None,
              "overhead_after_start": None, "engine_cpu_s": None, "cpu_overhead": None}
    if todo:
        if not scheduler and not slurm and client is None:
            workers = min(workers or os.cpu_count() or 1, len(todo))
        t0 = time.monotonic()
        with engine(scheduler, workers, slurm, slurm_opts, connect_timeout, client) as (c, nworkers, what):
            t1 = time.monotonic()
            say("sweep: %s, %d done before, %d to run on %s" % (plural(len(points), "point"), len(recs), len(todo),
                                                                 what))
            procs = engine_processes(c)
            e0 = own_cpu(procs)
            try:
                ran, most = drive(c, todo, out_dir, say, len(points), len(recs))
            except (OSError, CancelledError) as e:  # the scheduler went away (CommClosedError, FuturesCancelledError)
                raise SweepError("sweep: lost %s (%s: %s); the finished points are kept in %s, a rerun resumes"
                                 % (what, type(e).__name__, first_line(e), out_dir)) from None
            ecpu = round(own_cpu(procs) - e0, 3) if procs is not None else None
        wall = time.monotonic() - t0
        recs.update(ran)
        w = min(nworkers or most, len(todo))
        cpu = sum(r["cpu_s"] for r in ran.values())
        pwall = sum(r["wall_s"] for r in ran.values())
        report.update(engine=what, workers=w, wall_s=round(wall, 3), start_s=round(t1 - t0, 3),
                      point_cpu_s=round(cpu, 3), point_wall_s=round(pwall, 3), overhead=overhead(wall, w, pwall),
                      overhead_after_start=overhead(wall - (t1 - t0), w, pwall), engine_cpu_s=ecpu,
                      cpu_overhead=round(ecpu / cpu, 4) if ecpu is not None and cpu > 0 else None)
        say("sweep: %s run in %.1f s on %s (start %.1f s): points' own %.1f CPU s, %.1f wall s; overhead %s "
            "(after the start %s); the engine's own CPU %s" % (plural(len(todo), "point"), wall, plural(w, "worker"), t1 - t0,
                                                            cpu, pwall, pct(report["overhead"]),
                                                            pct(report["overhead_after_start"]),
                                                            "-" if ecpu is None else "%.2f s (%s of the points')"
                                                            % (ecpu, pct1(report["cpu_overhead"]))))
    else:
        say("sweep: all %d points done before (in %s); nothing to run" % (len(points), out_dir))
    return Sweep([recs[i]["result"] for i in range(len(points))], report)


def first_line(e):
    return (str(e).strip().splitlines() or [""])[0]


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def pct(x):
    return "-" if x is None else "%.0f %%" % (100 * x)


def pct1(x):
    return "-" if x is None else "%.1f %%" % (100 * x)


# ------------------------------------------------------------------ command line

def parse_opts(pairs):
    opts = {}
    for p in pairs or ():
        k, sep, v = p.partition("=")
        if not sep or not k:
            raise SweepError("sweep: --slurm-opt wants KEY=VALUE, got %r" % p)
        try:
            opts[k] = json.loads(v)   # numbers, true/false, lists
        except ValueError:
            opts[k] = v
    return opts


def main(argv=None):
    ap = ArgumentParser(prog="sweep.py", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the points not done yet, print the results")
    st = sub.add_parser("status", help="how many points are done (runs nothing)")
    for p in (run, st):
        p.add_argument("points", metavar="POINTS.json", help="a JSON list of points {key, cmd}")
        p.add_argument("--out", required=True, metavar="DIR", help="directory of the points' files <key>.json")
    eng = run.add_mutually_exclusive_group()
    eng.add_argument("--scheduler", metavar="ADDR", help="a running Dask scheduler, e.g. tcp://host:8786")
    eng.add_argument("--slurm", action="store_true", help="a SLURMCluster (dask-jobqueue) of --workers jobs")
    run.add_argument("--workers", type=int_range(1, 4096), metavar="N", help="local worker processes (default: CPUs, at most one "
                     "per point to run), or SLURM jobs with --slurm")
    run.add_argument("--slurm-opt", action="append", metavar="KEY=VALUE", help="a SLURMCluster option, e.g. "
                     "queue=batch, walltime=04:00:00, memory=4GB (repeat)")
    run.add_argument("--connect-timeout", type=float_range(0, lo_open=True), default=CONNECT_TIMEOUT_S, metavar="S",
                     help="seconds to reach --scheduler (default %(default)g)")
    run.add_argument("-o", dest="output", metavar="FILE", help="write the results here instead of stdout")
    run.add_argument("--report", metavar="FILE", help="write the report (timings, overhead) as JSON here")
    run.add_argument("--quiet", action="store_true", help="no progress or report lines on stderr")
    a = ap.parse_args(argv)
    try:
        points = load_points(a.points)
        if a.command == "status":
            done = sum(finished(a.out, d) is not None for d in check_points(points, a.points))
            print("sweep: %d/%d points done in %s" % (done, len(points), a.out))
            return 0
        if a.slurm_opt and not a.slurm:
            raise SweepError("sweep: --slurm-opt needs --slurm")
        results, report = run_sweep(points, a.out, a.scheduler, a.workers, not a.quiet, slurm=a.slurm,
                                    slurm_opts=parse_opts(a.slurm_opt), connect_timeout=a.connect_timeout)
    except SweepError as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sweep: interrupted; the finished points are kept in %s, a rerun resumes" % a.out, file=sys.stderr)
        return 130
    text = json.dumps(results, indent=1) + "\n"
    if a.output:
        write_text(a.output, text)
    else:
        sys.stdout.write(text)
    if a.report:
        write_text(a.report, json.dumps(report, indent=1) + "\n")
    return 0


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    sys.exit(main())
