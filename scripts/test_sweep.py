#!/usr/bin/env python3
"""Tests of the sweep engine scripts/sweep.py (docs/network.md "Sweeps on a cluster"): the same JSON on one worker
and two, resuming, a changed point, a failing point, callables, an unreachable scheduler, bad POINTS.json, the
SLURM job's options. Tiny commands on local clusters of 1-2 workers; about 15 s on 2 cores.

  .venv/bin/python scripts/test_sweep.py [-v]
"""
import contextlib
import io
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import sweep  # noqa: E402

PY = sys.executable


def json_point(key, value, log=None, spin=0):
    """A point whose command prints {"key", "value", "square"} after `spin` loop turns, and appends its key to
    `log` (one line per run)."""
    code = ("import json, sys\n"
            "k, v, log, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])\n"
            "s = 0\n"
            "for i in range(n): s += i\n"
            "if log: open(log, 'a').write(k + '\\n')\n"
            "print(json.dumps({'key': k, 'value': v, 'square': v * v, 'sum': s}))\n")
    return {"key": key, "cmd": [PY, "-c", code, key, str(value), log or "", str(spin)], "value": value}


def json_point_result(key, value, spin=0):
    return {"key": key, "value": value, "square": value * value, "sum": sum(range(spin))}


def failing_point(key, code=3):
    return {"key": key, "cmd": ["sh", "-c", "echo starting >&2; echo 'boom: no such thing' >&2; exit %d" % code]}


def cube(x, y=0):
    return {"cube": x ** 3 + y}


def raises(x):
    raise RuntimeError("bad x %d" % x)


def quietly(fn, *args, **kw):
    """fn's return value and what it wrote on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        r = fn(*args, **kw)
    return r, err.getvalue()


def load(path):
    with open(path) as f:
        return json.load(f)


def runs(log):
    """The keys of the points run so far, in the order their commands wrote them."""
    with open(log) as f:
        return f.read().split()


def unused_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sweeps(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_sweep-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, *p):
        return os.path.join(self.dir, *p)

    def test_same_json_on_one_and_two_workers_and_resume(self):
        log = self.path("runs.log")
        points = [json_point("p%d" % i, i, log, spin=20000 * (i % 3)) for i in range(6)]
        r1, rep1 = sweep.run_sweep(points, self.path("w1"), workers=1, progress=False)
        r2, rep2 = sweep.run_sweep(points, self.path("w2"), workers=2, progress=False)
        self.assertEqual(json.dumps(r1), json.dumps(r2))
        self.assertEqual([r["value"] for r in r1], list(range(6)))
        self.assertEqual((rep1["workers"], rep2["workers"], rep2["run"], rep2["resumed"]), (1, 2, 6, 0))
        for k in ("wall_s", "start_s", "point_cpu_s", "point_wall_s", "overhead", "overhead_after_start",
                  "engine_cpu_s", "cpu_overhead"):
            self.assertGreaterEqual(rep2[k], 0, k)  # a local cluster: the engine's own CPU is seen
        for i in range(6):
            f1, f2 = (load(self.path(d, "p%d.json" % i)) for d in ("w1", "w2"))
            self.assertEqual((f1["point"], f1["result"]), (f2["point"], f2["result"]))
            self.assertEqual(sorted(f1), ["cpu_s", "point", "result", "wall_s"])
            self.assertGreater(f1["wall_s"], 0)
        self.assertEqual(sorted(os.listdir(self.path("w2"))), ["p%d.json" % i for i in range(6)])  # no temp files
        self.assertEqual(sorted(runs(log)), sorted(["p%d" % i for i in range(6)] * 2))

        # resume: only the point whose file went runs again; the others' files are not rewritten
        mtimes = {f: os.stat(self.path("w2", f)).st_mtime_ns for f in os.listdir(self.path("w2"))}
        os.unlink(self.path("w2", "p4.json"))
        r3, rep3 = sweep.run_sweep(points, self.path("w2"), workers=2, progress=False)
        self.assertEqual(json.dumps(r3), json.dumps(r1))
        self.assertEqual((rep3["run"], rep3["resumed"], rep3["workers"]), (1, 5, 1))
        self.assertEqual(runs(log).count("p4"), 3)
        self.assertEqual(len(runs(log)), 13)
        for f, t in mtimes.items():
            if f != "p4.json":
                self.assertEqual(os.stat(self.path("w2", f)).st_mtime_ns, t, f)

        # everything done: the command line starts no cluster and prints the same JSON
        with open(self.path("points.json"), "w") as f:
            json.dump(points, f)
        t0 = time.monotonic()
        rc, err = quietly(sweep.main, ["run", self.path("points.json"), "--out", self.path("w2"),
                                       "-o", self.path("all.json"), "--report", self.path("report.json")])
        self.assertEqual(rc, 0, err)
        self.assertLess(time.monotonic() - t0, 2)
        self.assertIn("all 6 points done before", err)
        self.assertEqual(load(self.path("all.json")), r1)
        self.assertEqual(load(self.path("report.json"))["run"], 0)
        self.assertEqual(len(runs(log)), 13)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(sweep.main(["status", self.path("points.json"), "--out", self.path("w1")]), 0)
        self.assertIn("6/6 points done", out.getvalue())

        # a point changed under the same key is an error naming its file
        points[2] = json_point("p2", 20, log)
        with self.assertRaises(sweep.SweepError) as cm:
            sweep.run_sweep(points, self.path("w2"), workers=2, progress=False)
        self.assertIn(self.path("w2", "p2.json"), str(cm.exception))
        self.assertIn("differs in: cmd, value", str(cm.exception))

    def test_failing_point(self):
        points = [json_point("ok0", 0), failing_point("bad", 3), json_point("ok2", 2),
                  {"key": "gone", "cmd": [self.path("no-such-program")]}]
        with self.assertRaises(sweep.SweepError) as cm:
            quietly(sweep.run_sweep, points, self.path("out"), workers=1)
        msg = str(cm.exception)
        self.assertIn("point bad failed: exit status 3", msg)
        self.assertIn("boom: no such thing", msg)
        self.assertIn("1 of 4 points are done", msg)
        self.assertEqual(os.listdir(self.path("out")), ["ok0.json"])  # one worker: no point starts after a failure
        # the failed point fixed: a rerun resumes, and a missing program is named
        points[1] = json_point("bad", 1)
        with self.assertRaises(sweep.SweepError) as cm:
            sweep.run_sweep(points, self.path("out"), workers=2, progress=False)
        self.assertIn("point gone failed: cannot start %s" % self.path("no-such-program"), str(cm.exception))
        self.assertEqual(sorted(os.listdir(self.path("out"))), ["bad.json", "ok0.json", "ok2.json"])

    def test_scheduler_address_client_and_callables(self):
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            points = [{"key": "c%d" % i, "fn": cube, "args": [i], "n": i} for i in range(4)]
            points.append(json_point("cmd", 5))
            results, report = sweep.run_sweep(points, self.path("out"), scheduler=cluster.scheduler_address,
                                              progress=False)
            self.assertEqual(results, [{"cube": i ** 3} for i in range(4)] + [json_point_result("cmd", 5)])
            self.assertEqual((report["workers"], report["engine"]), (2, "the Dask scheduler at %s"
                                                                     % cluster.scheduler_address))
            rec = load(self.path("out", "c3.json"))
            self.assertEqual(rec["point"], {"key": "c3", "fn": "__main__:cube" if __name__ == "__main__" else
                                            __name__ + ":cube", "args": [3], "n": 3})
            with Client(cluster) as client, self.assertRaises(sweep.SweepError) as cm:
                sweep.run_sweep([{"key": "r", "fn": raises, "args": [7]}], self.path("out"), client=client,
                                progress=False)
            self.assertIn("point r failed: raised RuntimeError: bad x 7", str(cm.exception))

    def test_unreachable_scheduler(self):
        port = unused_port()
        t0 = time.monotonic()
        with self.assertRaises(sweep.SweepError) as cm:
            sweep.run_sweep([json_point("a", 1)], self.path("out"), scheduler="tcp://127.0.0.1:%d" % port,
                            connect_timeout=1.5, progress=False)
        self.assertLess(time.monotonic() - t0, 6)
        self.assertIn("sweep: cannot reach the Dask scheduler at tcp://127.0.0.1:%d within 1.5 s" % port,
                      str(cm.exception))
        with open(self.path("p.json"), "w") as f:
            json.dump([json_point("a", 1)], f)
        rc, err = quietly(sweep.main, ["run", self.path("p.json"), "--out", self.path("out"), "--scheduler",
                                       "tcp://127.0.0.1:%d" % port, "--connect-timeout", "1"])
        self.assertEqual(rc, 1)
        self.assertIn("cannot reach the Dask scheduler at tcp://127.0.0.1:%d within 1 s" % port, err)

    def test_bad_points(self):
        p = self.path("points.json")
        cases = [("[{\"key\": \"a\", \"cmd\": [\"x\"]},", "not JSON"),
                 ("{\"key\": \"a\"}", "want a list of points"),
                 ("[{\"key\": \"a/b\", \"cmd\": [\"x\"]}]", "[0]: key \"a/b\" is not file-name safe"),
                 ("[{\"key\": \".a\", \"cmd\": [\"x\"]}]", "[0]: key \".a\" is not file-name safe"),
                 ("[{\"key\": \"a\", \"cmd\": []}]", "[0] (key a): cmd must be a non-empty list of strings"),
                 ("[{\"key\": \"a\"}]", "[0] (key a): a point needs exactly one of cmd"),
                 ("[{\"key\": \"a\", \"cmd\": [\"x\"]}, {\"key\": \"a\", \"cmd\": [\"y\"]}]",
                  "[1]: duplicate key \"a\" (also %s[0])" % p),
                 ("[3]", "[0]: a point must be an object")]
        for text, want in cases:
            with open(p, "w") as f:
                f.write(text)
            rc, err = quietly(sweep.main, ["run", p, "--out", self.path("out")])
            self.assertEqual(rc, 1, text)
            self.assertIn("sweep: " + p, err, text)
            self.assertIn(want, err, text)
        rc, err = quietly(sweep.main, ["run", self.path("none.json"), "--out", self.path("out")])
        self.assertEqual((rc, err.strip()), (1, "sweep: %s: cannot read: No such file or directory"
                                             % self.path("none.json")))
        os.makedirs(self.path("out"), exist_ok=True)
        with open(self.path("out", "a.json"), "w") as f:
            f.write("{")
        with self.assertRaises(sweep.SweepError) as cm:
            sweep.run_sweep([json_point("a", 1)], self.path("out"), progress=False)
        self.assertIn(self.path("out", "a.json") + ": not a finished point's file", str(cm.exception))

    def test_slurm_and_report(self):
        self.assertEqual(sweep.overhead(10.0, 2, 16.0), 0.25)
        self.assertIsNone(sweep.overhead(1.0, 2, 0.0))
        self.assertEqual([sweep.fmt_duration(s) for s in (5, 190, 3725)], ["5s", "3m10s", "1h02m"])
        with self.assertRaises(sweep.SweepError):
            with sweep.engine(slurm=True):
                pass
        if not shutil.which("sbatch"):
            with self.assertRaises(sweep.SweepError) as cm:
                sweep.run_sweep([json_point("a", 1)], self.path("out"), workers=2, slurm=True, progress=False)
            self.assertIn("no sbatch", str(cm.exception))
        try:
            from dask_jobqueue import SLURMCluster
        except ImportError:
            self.skipTest("dask-jobqueue not installed")
        with SLURMCluster(**sweep.slurm_options({"queue": "batch", "walltime": "01:00:00"})) as c:
            script = c.job_script()
        for want in ("#SBATCH -p batch", "#SBATCH --cpus-per-task=1", "#SBATCH -t 01:00:00", "--nthreads 1"):
            self.assertIn(want, script)


if __name__ == "__main__":
    unittest.main()
