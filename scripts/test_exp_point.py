#!/usr/bin/env python3
"""Tests of the experiments' sweep points (scripts/exp_point.py, exp_driver.run_points; docs/network.md "Plots and
experiments"): a point's sweep and search print what exp_driver's sweep and search return in the experiment's own
process, bad usage and a failing simulator, and points of all three kinds through a local Dask cluster of 2 workers,
then resumed from their files. Tiny networks (4 switches) and windows; about 10 s on 2 cores. Needs `make -C sw`.

  .venv/bin/python scripts/test_exp_point.py [-v]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import exp_driver as D  # noqa: E402

WINDOWS = {"warmup": 500, "cycles": 2000, "seed": 3}
XBAR = ["--message-size", "512"]


def vc_keys(tables):
    return ["--switch", "vcsw", "--vcs", "4", "--packet-flits", "128", "--depth", "256", "--link-delay", "0",
            "--tables", tables, "--traffic", "uniform"]


def point(args):
    """exp_point.py's (exit status, JSON or None, stderr)."""
    r = subprocess.run([D.EXP_POINT] + args, capture_output=True, text=True)
    return r.returncode, (json.loads(r.stdout) if r.returncode == 0 else None), r.stderr


def untimed(summary):
    return {k: v for k, v in summary.items() if k != "seconds"}


class ExpPoint(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for t in ("sanfab-sim", "sanfab-topo", "sanfab-route"):
            if not os.access(D.tool(t), os.X_OK):
                raise unittest.SkipTest("%s missing: run `make -C sw`" % D.tool(t))
        cls.dir = tempfile.mkdtemp(prefix="test-exp-point-")
        cls.topo, cls.routes = cls.path("x.topo"), cls.path("x.routes")
        cls.vtopo, cls.vroutes, cls.tables = cls.path("v.topo"), cls.path("v.routes"), cls.path("v.rhinet")
        D.sh([D.tool("sanfab-topo"), "random", "--switches", "4", "--seed", "1", "-o", cls.topo])
        D.sh([D.tool("sanfab-route"), "updown", cls.topo, "--select", "balanced", "-o", cls.routes])
        D.sh([D.tool("sanfab-topo"), "random", "--switches", "4", "--ports", "8", "--hosts", "4", "--seed", "1",
              "-o", cls.vtopo])
        D.sh([D.tool("sanfab-route"), "updown", "--vcs", "3", "--select", "sancho", cls.vtopo, "-o", cls.vroutes,
              "--rhinet", cls.tables])
        cls.a = argparse.Namespace(**WINDOWS)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir, name)

    def test_sweep_is_the_drivers(self):
        want, pts = D.sweep(self.a, self.topo, self.routes, [0.05, 0.1], [0.2, 0.4], XBAR)
        cmd = D.sweep_point(self.a, "k", self.topo, self.routes, [0.05, 0.1], [0.2, 0.4], XBAR)["cmd"]
        code, got, err = point(cmd[1:])
        self.assertEqual(code, 0, err)
        self.assertEqual(untimed(got["summary"]), untimed(want))
        self.assertEqual(got["points"], pts)
        self.assertGreater(got["cpu_seconds"], 0)
        self.assertEqual(len(want["points"]), len(pts))

    def test_search_is_the_drivers(self):
        want, pts = D.search(self.a, self.vtopo, self.vroutes, 0.05, vc_keys(self.tables))
        cmd = D.search_point(self.a, "k", self.vtopo, self.vroutes, 0.05, vc_keys(self.tables))["cmd"]
        code, got, err = point(cmd[1:])
        self.assertEqual(code, 0, err)
        self.assertEqual(untimed(got["summary"]), untimed(want))
        self.assertEqual(got["points"], pts)
        self.assertTrue(want["reached_saturation"])

    def test_bad_usage(self):
        code, _, err = point(["sweep", "--topology", self.topo, "--routes", self.routes])
        self.assertEqual(code, 2)
        self.assertIn("required", err)
        code, _, err = point(["search", "--topology", self.topo, "--routes", self.routes, "--warmup", "1",
                              "--cycles", "1", "--seed", "1", "--start", "x"])
        self.assertEqual(code, 2)
        code, _, err = point(["sweep", "--topology", self.topo, "--routes", self.routes, "--warmup", "1",
                              "--cycles", "1", "--seed", "1", "--loads", "0.1,-1"])
        self.assertEqual(code, 2)
        self.assertIn("loads must be > 0", err)

    def test_failing_simulator(self):
        code, _, err = point(["sweep", "--topology", self.topo, "--routes", self.path("none.routes"), "--warmup",
                              "100", "--cycles", "100", "--seed", "1", "--loads", "0.1", "--", *XBAR])
        self.assertEqual(code, 1)
        self.assertIn("sanfab-sim", err)
        self.assertIn("none.routes", err)

    def test_points_on_the_engine(self):
        try:
            import distributed  # noqa: F401
        except ImportError:
            self.skipTest("Dask distributed missing (run with .venv/bin/python)")
        a = argparse.Namespace(**WINDOWS, points_dir=self.path("points"), engine=D.Engine(None, 2),
                               engine_reports=[])
        pts = [D.sweep_point(a, "sw", self.topo, self.routes, [0.05, 0.1], [0.2], XBAR),
               D.search_point(a, "se", self.vtopo, self.vroutes, 0.05, vc_keys(self.tables)),
               D.sim_point(a, "one", self.topo, self.routes, [0.05], XBAR, warmup=200, cycles=1000)]
        try:
            got = D.run_points(a, pts)
            again = D.run_points(a, pts)
        finally:
            a.engine.close()
        self.assertEqual(got, again)
        self.assertEqual(untimed(got[0]["summary"]),
                         untimed(D.sweep(a, self.topo, self.routes, [0.05, 0.1], [0.2], XBAR)[0]))
        self.assertEqual(got[2], D.sim(a, self.topo, self.routes, [0.05], XBAR, warmup=200, cycles=1000))
        first, second = a.engine_reports
        self.assertEqual((first["points"], first["run"], first["resumed"], first["workers"]), (3, 3, 0, 2))
        self.assertEqual(first["engine"], "a local cluster of 2 workers")
        self.assertGreater(first["point_cpu_s"], 0)
        self.assertGreater(first["start_s"], 0)
        self.assertEqual((second["run"], second["resumed"], second["start_s"]), (0, 3, 0.0))
        self.assertEqual(sorted(os.listdir(a.points_dir)), ["one.json", "se.json", "sw.json"])


if __name__ == "__main__":
    unittest.main()
