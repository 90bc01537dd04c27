#!/usr/bin/env python3
"""Tests of the Python tools' command-line conventions (scripts/sanfab_cli.py, as sw/src/sf_cli for the C tools):
every user-facing script prints "NAME (sanfab) VERSION" for --version, with VERSION from the repository's VERSION
file; a misspelt option, subcommand or choice gets "did you mean"; a number out of range is refused naming the range.
Runs the scripts' argument parsing only (nothing is built or simulated); a few seconds.

  .venv/bin/python scripts/test_sanfab_cli.py [-v]
"""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sanfab_cli  # noqa: E402

ROOT = os.path.dirname(HERE)
# every user-facing script with a command line
SCRIPTS = ["experiments.py", "plot_net.py", "synth.py", "bench.py", "sweep.py", "exp_point.py", "gen_cores.py",
           "gen_link_defs.py", "sanfab_cli.py"]


def run(script, *args):
    r = subprocess.run([sys.executable, os.path.join(HERE, script)] + list(args), capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    return r.returncode, r.stdout, r.stderr


class Version(unittest.TestCase):
    def test_version_file(self):
        with open(os.path.join(ROOT, "VERSION")) as f:
            v = f.read().strip()
        self.assertRegex(v, r"^\d+\.\d+\.\d+$")
        self.assertEqual(sanfab_cli.version(), v)
        self.assertEqual(sanfab_cli.version_text("x.py"), "x.py (sanfab) " + v)

    def test_every_script(self):
        v = sanfab_cli.version()
        for s in SCRIPTS:
            with self.subTest(script=s):
                rc, out, err = run(s, "--version")
                self.assertEqual(rc, 0, err)
                self.assertEqual(out, "%s (sanfab) %s\n" % (s, v))
        self.assertEqual(run("sanfab_cli.py")[1], v + "\n")  # the bare version, for shell scripts


class DidYouMean(unittest.TestCase):
    def test_suggest(self):
        self.assertEqual(sanfab_cli.suggest("--jbos", ["--jobs", "--seed"]), "--jobs")
        self.assertEqual(sanfab_cli.suggest("--cycels=5", ["--cycles"]), "--cycles")
        self.assertIsNone(sanfab_cli.suggest("--zzzzz", ["--jobs", "--seed"]))
        self.assertIsNone(sanfab_cli.suggest("--a", ["--b"]))  # too short to guess

    def test_scripts(self):
        cases = [("experiments.py", ["--jbos", "2"], "did you mean --jobs?"),
                 ("experiments.py", ["--paper", "01"], "did you mean 001?"),
                 ("experiments.py", ["--only", "tabel1", "--page"], "did you mean table1?"),
                 ("plot_net.py", ["lnks", "x.json", "-o", "x.png"], "did you mean links?"),
                 ("plot_net.py", ["links", "x.json", "-o", "x.png", "--laod", "0.1"], "did you mean --load?"),
                 ("plot_net.py", ["links", "x.json", "-o", "x.png", "--layout", "sprng"], "did you mean spring?"),
                 ("synth.py", ["--chek"], "did you mean --check?"),
                 ("bench.py", ["--only", "mcl"], "did you mean mlc?"),
                 ("sweep.py", ["run", "p.json", "--out", "d", "--wrokers", "2"], "did you mean --workers?"),
                 ("exp_point.py", ["serach"], "did you mean search?"),
                 ("gen_link_defs.py", ["--chek"], "did you mean --check?")]
        for script, args, want in cases:
            with self.subTest(script=script, args=args):
                rc, _, err = run(script, *args)
                self.assertNotEqual(rc, 0)
                self.assertIn(want, err)


class Ranges(unittest.TestCase):
    def test_types(self):
        conv = sanfab_cli.int_range(1, 64)
        self.assertEqual(conv("7"), 7)
        for bad in ("0", "65", "x", "1.5"):
            with self.assertRaisesRegex(Exception, r"in 1\.\.64, got"):
                conv(bad)
        pos = sanfab_cli.float_range(0, lo_open=True)
        self.assertEqual(pos("0.5"), 0.5)
        for bad in ("0", "-1", "nan", "x"):
            with self.assertRaisesRegex(Exception, r"> 0, got"):
                pos(bad)

    def test_scripts(self):
        cases = [("experiments.py", ["--jobs", "0"], "--jobs: expected a whole number in 1..64, got '0'"),
                 ("experiments.py", ["--cycles", "0"], "expected a whole number in 1..1000000000"),
                 ("plot_net.py", ["links", "x.json", "-o", "x.png", "--vmax", "0"], "expected a number > 0"),
                 ("plot_net.py", ["pool", "x.json", "-o", "x.png", "--cols", "0"], "in 1..16"),
                 ("plot_net.py", ["lines", "x.json", "-o", "x.png", "--dpi", "5"], "in 20..1200"),
                 ("synth.py", ["--jobs", "0"], "in 1..1024"),
                 ("bench.py", ["--net-repeat", "0"], "in 1..100"),
                 ("sweep.py", ["run", "p.json", "--out", "d", "--workers", "0"], "in 1..4096"),
                 ("exp_point.py", ["search", "--topology", "t", "--routes", "r", "--warmup", "-1", "--cycles", "1",
                                   "--seed", "1", "--start", "0.1"], "--warmup: expected a whole number >= 0")]
        for script, args, want in cases:
            with self.subTest(script=script, args=args):
                rc, _, err = run(script, *args)
                self.assertEqual(rc, 2, err)
                self.assertIn(want, err)


if __name__ == "__main__":
    unittest.main()
