#!/usr/bin/env python3
"""Tests of scripts/soak.py (make soak) on fake benches, shell scripts that print the summary lines of the real
ones: the cycles of both summary forms are counted, the sets take turns with seeds base + k, a failing run (an
exit status, or no cycle count) fails the soak with its replay line, the summary JSON holds every run, and a
malformed run list or a set argument soak gives itself is refused with FILE:LINE. Under a few seconds.

  python3 scripts/test_soak.py [-v]
"""
import contextlib
import io
import json
import os
import stat
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402

# a crossbar-like bench: per-test lines; fails (status 1) when its seed ends in 7
BENCH_OK_LINES = """#!/bin/sh
seed=0
while [ $# -gt 0 ]; do [ "$1" = --seed ] && seed=$2; shift; done
echo "xbar_bench: seed $seed"
echo "ok   random      1000 cycles    0.01 s  x"
echo "ok   latency      250 cycles    0.01 s  x"
case $seed in *7) echo "LOCKSTEP MISMATCH cycle 12 port 0"; echo "FAIL random seed $seed"; exit 1;; esac
echo "xbar: 2 passed, 0 failed"
"""
# a Maestro-like bench: one PASS line with a drain
BENCH_PASS_LINE = """#!/bin/sh
echo "PASS mlc_bench variant d: 3000 cycles (+500 drain), 4 frames"
"""
# a bench that exits 0 but prints no cycle count: a failure of the soak, not a pass
BENCH_SILENT = """#!/bin/sh
echo "nothing to count"
"""


class SoakTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def script(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def runs_file(self, lines):
        path = os.path.join(self.dir, "runs")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        return path

    def soak(self, *args):
        """Run soak.main() with these arguments: (exit status, printed text)."""
        out, err = io.StringIO(), io.StringIO()
        argv = sys.argv
        sys.argv = ["soak.py"] + list(args)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    soak.main()
                    code = 0
                except SystemExit as e:
                    code = e.code
        finally:
            sys.argv = argv
        return code, out.getvalue() + err.getvalue()

    def test_cycles_of(self):
        self.assertEqual(soak.cycles_of("ok   a  10 cycles 1 s\nok   b  5 steps\nxbar: 2 passed"), 15)
        self.assertEqual(soak.cycles_of("PASS sbox_bench variant d: 20000 cycles (+11714 drain), 4 msgs"), 31714)
        self.assertEqual(soak.cycles_of("PASS sbox_tree_bench variant t3: 20000 cycles, x"), 20000)
        self.assertEqual(soak.cycles_of("FAIL random seed 1 cycle 30"), 0)

    def test_turns_seeds_and_summary(self):
        a = self.script("a.sh", BENCH_OK_LINES)
        b = self.script("b.sh", BENCH_PASS_LINE)
        runs = self.runs_file([f"xbar p8 {a}", f"mlc d {b} +verilator+rand+reset+2 +verilator+seed+1"])
        out_dir = os.path.join(self.dir, "out")
        code, text = self.soak("--runs", runs, "--dir", out_dir, "--max-runs", "6", "--seed", "100",
                               "--jobs", "2", "--run-cycles", "10")
        self.assertEqual(code, 0, text)
        self.assertIn("every run passed", text)
        with open(os.path.join(out_dir, "summary.json"), encoding="utf-8") as fh:
            summ = json.load(fh)
        self.assertEqual(summ["runs"], 6)
        self.assertEqual(summ["failed"], 0)
        self.assertEqual(sorted(r["seed"] for r in summ["records"]), list(range(100, 106)))
        self.assertEqual(summ["units"]["xbar"]["runs"], 3)
        self.assertEqual(summ["units"]["xbar"]["cycles"], 3 * 1250)
        self.assertEqual(summ["units"]["mlc"]["cycles"], 3 * 3500)
        self.assertEqual(summ["cycles"], 3 * 1250 + 3 * 3500)
        mlc = [r for r in summ["records"] if r["unit"] == "mlc"]
        # the set's own Verilator seed is dropped (the bench derives one from --seed); the rest is kept
        self.assertTrue(all("+verilator+seed+" not in r["command"] for r in mlc))
        self.assertTrue(all("+verilator+rand+reset+2" in r["command"] for r in mlc))
        self.assertTrue(all("--cycles 10 --seed" in r["command"] for r in mlc))

    def test_cycle_target_ends_the_soak(self):
        b = self.script("b.sh", BENCH_PASS_LINE)
        runs = self.runs_file([f"mlc d {b}"])
        code, text = self.soak("--runs", runs, "--dir", os.path.join(self.dir, "o"), "--cycles", "7000",
                               "--jobs", "1", "--seed", "1")
        self.assertEqual(code, 0, text)
        self.assertIn("2 runs, 7,000 lockstep cycles", text)

    def test_a_failing_run_fails_the_soak(self):
        a = self.script("a.sh", BENCH_OK_LINES)
        runs = self.runs_file([f"xbar p8 {a}"])
        code, text = self.soak("--runs", runs, "--dir", os.path.join(self.dir, "o"), "--max-runs", "3",
                               "--seed", "5", "--jobs", "1")
        self.assertEqual(code, 1, text)
        self.assertIn("FAIL xbar", text)
        self.assertIn("exit status 1", text)
        self.assertIn("--seed 7", text)
        self.assertIn("| LOCKSTEP MISMATCH cycle 12 port 0", text)
        self.assertIn("1 run(s) FAILED: xbar/p8 seed 7", text)

    def test_no_cycle_count_is_a_failure(self):
        s = self.script("s.sh", BENCH_SILENT)
        runs = self.runs_file([f"vcsw p8 {s}"])
        code, text = self.soak("--runs", runs, "--dir", os.path.join(self.dir, "o"), "--max-runs", "1", "--seed", "1")
        self.assertEqual(code, 1, text)
        self.assertIn("no cycle count in its output", text)

    def test_units(self):
        a = self.script("a.sh", BENCH_OK_LINES)
        b = self.script("b.sh", BENCH_PASS_LINE)
        runs = self.runs_file([f"xbar p8 {a}", f"mlc d {b}"])
        code, text = self.soak("--runs", runs, "--dir", os.path.join(self.dir, "o"), "--max-runs", "2",
                               "--seed", "10", "--units", "mlc")
        self.assertEqual(code, 0, text)
        self.assertNotIn("xbar", text.split("soak: 1 sets")[1])
        code, text = self.soak("--runs", runs, "--max-runs", "1", "--units", "mlc,sbox")
        self.assertEqual(code, 2)
        self.assertIn("--units: unknown sbox (known: mlc, xbar)", text)

    def test_bad_input(self):
        a = self.script("a.sh", BENCH_OK_LINES)
        bad = self.runs_file([f"xbar p8 {a}", "xbar p4"])
        code, text = self.soak("--runs", bad, "--max-runs", "1")
        self.assertEqual(code, 2)
        self.assertIn(f"{bad}:2: want UNIT SET BINARY", text)
        own = self.runs_file([f"xbar p8 {a} --cycles 5"])
        code, text = self.soak("--runs", own, "--max-runs", "1")
        self.assertEqual(code, 2)
        self.assertIn(f"{own}:1: the set's arguments give --cycles", text)
        missing = self.runs_file([f"xbar p8 {self.dir}/nope"])
        code, text = self.soak("--runs", missing, "--max-runs", "1")
        self.assertEqual(code, 2)
        self.assertIn("not built:", text)
        code, text = self.soak("--runs", missing)
        self.assertEqual(code, 2)
        self.assertIn("a soak needs an end", text)
        code, text = self.soak("--runs", os.path.join(self.dir, "absent"), "--max-runs", "1")
        self.assertEqual(code, 2)
        self.assertIn("absent: No such file", text)


if __name__ == "__main__":
    unittest.main()
