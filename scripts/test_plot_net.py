#!/usr/bin/env python3
"""Tests of plot_net.py links (docs/network.md "Plots and experiments"): a 4 x 4 torus and mesh and a 5 x 5 express
torus are drawn as their grid, a random 16-switch network and a small Clos as a force layout of their switches,
--layout grid refuses a network that is not a grid (naming why), and the grid test itself on hand-made channel
lists. Small sanfab-sim runs (a second or two each). Needs `make -C sw` and matplotlib (.venv).

  .venv/bin/python scripts/test_plot_net.py [-v]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import plot_net  # noqa: E402

ROOT = os.path.dirname(HERE)
BUILD = os.path.join(ROOT, "sw", "build")
PLOT = os.path.join(HERE, "plot_net.py")


def tool(name, *args):
    subprocess.run([os.path.join(BUILD, name)] + list(args), check=True, capture_output=True, text=True)


def chans_of(links):
    """per_channel entries (both directions, utilisation 0) of undirected links [(a, b), ...]."""
    return [c for a, b in links for c in ([a, 1, b, 2, 0.0], [b, 2, a, 1, 0.0])]


class GridShape(unittest.TestCase):
    def test_torus_mesh_and_not(self):
        k = 4
        mesh = [(s, s + 1) for s in range(16) if s % k < k - 1] + [(s, s + k) for s in range(16 - k)]
        torus = mesh + [(s, s - k + 1) for s in range(16) if s % k == k - 1] + [(s, s + 12) for s in range(k)]
        self.assertEqual(plot_net.grid_shape(16, chans_of(mesh)), (4, 4))
        self.assertEqual(plot_net.grid_shape(16, chans_of(torus)), (4, 4))
        self.assertEqual(plot_net.grid_shape(16, chans_of(mesh), k=8), None)  # 8 x 2: neighbours missing
        self.assertEqual(plot_net.grid_shape(16, chans_of(mesh + [(0, 5)])), None)  # a diagonal link
        self.assertEqual(plot_net.grid_shape(16, chans_of(mesh[1:])), None)  # a neighbour pair unlinked
        self.assertEqual(plot_net.grid_shape(12, chans_of([(0, 1)])), None)  # 12 is no square
        wide = [(s, s + 1) for s in range(8) if s % 4 < 3] + [(s, s + 4) for s in range(4)]
        self.assertEqual(plot_net.grid_shape(8, chans_of(wide), k=4), (4, 2))


class LinksMaps(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test_plot_net.")
        cls.runs = {}
        nets = {"torus": ["torus", "--k", "4", "--ports", "8", "--hosts", "4"],
                "mesh": ["mesh", "--k", "4", "--ports", "8", "--hosts", "4"],
                "express": ["express", "--k", "5", "--ports", "12", "--hosts", "2"],
                "random": ["random", "--switches", "16", "--seed", "1"],
                "clos": ["clos", "--leaves", "4", "--hosts", "4", "--spines", "2"]}
        for name, args in nets.items():
            topo, routes, out = (os.path.join(cls.tmp, name + ext) for ext in (".topo", ".routes", ".json"))
            tool("sanfab-topo", *args, "-o", topo)
            tool("sanfab-route", "clos-all" if name == "clos" else "updown", topo, "-o", routes)
            tool("sanfab-sim", "--topology", topo, "--routes", routes, "--load", "0.02,0.05", "--warmup", "500",
                 "--cycles", "3000", "--quiet", "-o", out)
            cls.runs[name] = out

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def plot(self, name, *extra):
        png = os.path.join(self.tmp, name + "-%d.png" % len(extra))
        r = subprocess.run([sys.executable, PLOT, "links", self.runs[name], "-o", png, "--dpi", "40"] + list(extra),
                           capture_output=True, text=True)
        return r, png

    def check_drawn(self, name, want, *extra):
        r, png = self.plot(name, *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(%s)" % want, r.stdout)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_torus_and_mesh_grid(self):
        self.check_drawn("torus", "grid 4 x 4")
        self.check_drawn("mesh", "grid 4 x 4", "--point", "0")
        self.check_drawn("express", "grid 5 x 5")  # express links as arcs
        self.check_drawn("torus", "spring layout of 16 switches", "--layout", "spring")

    def test_irregular_spring(self):
        self.check_drawn("random", "spring layout of 16 switches")
        self.check_drawn("clos", "spring layout of 6 switches", "--load", "0.02")

    def test_grid_refused(self):
        for name, extra in (("random", ["--layout", "grid"]), ("torus", ["--k", "8"])):
            r, png = self.plot(name, *extra)
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("not a 2D mesh or torus", r.stderr)
            self.assertFalse(os.path.exists(png))

    def test_no_per_channel(self):
        with open(self.runs["torus"]) as f:
            d = json.load(f)
        for p in d["points"]:
            del p["links"]["per_channel"]
        path = os.path.join(self.tmp, "nolinks.json")
        with open(path, "w") as f:
            json.dump(d, f)
        r = subprocess.run([sys.executable, PLOT, "links", path, "-o", os.path.join(self.tmp, "x.png")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("links yes", r.stderr)


if __name__ == "__main__":
    unittest.main()
