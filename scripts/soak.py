#!/usr/bin/env python3
"""sanfab soak: every lockstep parameter set of every block, run again and again with fresh seeds,
JOBS runs at a time, until a number of minutes or of cycles is reached (make soak).

Each run is one set's Verilated bench (the -O2 build of make sim) with --cycles N (the run length),
--seed S (S = the base seed + the run's number: a fresh seed per run, the base printed so that the
whole soak can be repeated) and --vcd-on-fail; its output goes to DIR/<block>-<set>-<seed>.log. The
sets take turns (a queue over every set of every block, the second tops included), so every set
gets runs in every soak, however short. The cycles a run simulated are read from the bench's own
summary: the sum of its per-test lines ("ok NAME N cycles|steps", crossbar and VC switch) or its
PASS line ("PASS ...: N cycles (+D drain)", Maestro blocks: N + D).

No run starts once the minutes are spent or the cycle target is met; running ones finish. At the end
a table of runs and cycles per block and per set is printed and written, with every run's command
line and verdict, to DIR/summary.json. Exit status 1 if any run failed (each failure prints its log's
last lines with the replay line and the waves file), 2 on bad arguments.

The run list (one line per set: UNIT SET BINARY [ARGS...]) comes from --runs FILE, which the
Makefile writes from the mk/<block>.mk sets.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

OK_LINE = re.compile(r"^ok\s+\S+\s+(\d+)\s+(?:cycles|steps)\b")
PASS_LINE = re.compile(r"^PASS\b.*?:\s+(\d+) cycles(?: \(\+(\d+) drain\))?")
# options make soak sets itself: a set's own arguments must not repeat them
OWN_OPTS = ("--cycles", "--seed", "--vcd-on-fail")


def fail(msg):
    print(f"soak: {msg}", file=sys.stderr)
    sys.exit(2)


def read_runs(path):
    """The set lines: (unit, set, binary, args), refusing a malformed line with its number."""
    runs = []
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    for no, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if len(words) < 3:
            fail(f"{path}:{no}: want UNIT SET BINARY [ARGS...], got '{line}'")
        # a random-initial-state set's +verilator+seed+N is dropped: the bench derives one from --seed
        args = [a for a in words[3:] if not a.startswith("+verilator+seed+")]
        for a in args:
            if a.split("=")[0] in OWN_OPTS:
                fail(f"{path}:{no}: the set's arguments give {a}, which soak sets itself")
        runs.append({"unit": words[0], "set": words[1], "binary": words[2], "args": args})
    if not runs:
        fail(f"{path}: no set lines")
    return runs


def cycles_of(text):
    """Cycles one bench run simulated, from its summary lines (0 when none is found)."""
    total = 0
    for line in text.splitlines():
        m = PASS_LINE.match(line)
        if m:
            return int(m.group(1)) + int(m.group(2) or 0)
        m = OK_LINE.match(line)
        if m:
            total += int(m.group(1))
    return total


class Soak:
    """The shared state of the workers: the queue position, the totals, the records (under a lock)."""

    def __init__(self, runs, opt):
        self.runs, self.opt = runs, opt
        self.lock = threading.Lock()
        self.next_run = 0
        self.cycles = 0
        self.records = []
        self.t0 = time.monotonic()
        self.deadline = self.t0 + opt.minutes * 60.0 if opt.minutes > 0 else None

    def take(self):
        """The next (number, run) to start, or None once the minutes or the cycles are reached."""
        with self.lock:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                return None
            if self.opt.cycles > 0 and self.cycles >= self.opt.cycles:
                return None
            if self.opt.max_runs > 0 and self.next_run >= self.opt.max_runs:
                return None
            n = self.next_run
            self.next_run += 1
            return n, self.runs[n % len(self.runs)]

    def run_one(self, n, run):
        seed = self.opt.seed + n
        stem = f"{run['unit']}-{run['set']}-{seed}"
        log = os.path.join(self.opt.dir, stem + ".log")
        vcd = os.path.join(self.opt.dir, stem + "-fail.vcd")
        cmd = [run["binary"], "--cycles", str(self.opt.run_cycles), "--seed", str(seed),
               "--vcd-on-fail", vcd] + run["args"]
        t = time.monotonic()
        with open(log, "w", encoding="utf-8") as fh:
            rc = subprocess.call(cmd, stdout=fh, stderr=subprocess.STDOUT)
        secs = time.monotonic() - t
        with open(log, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        cyc = cycles_of(text)
        ok = rc == 0 and cyc > 0
        rec = {"unit": run["unit"], "set": run["set"], "seed": seed, "cycles": cyc, "seconds": round(secs, 1),
               "passed": ok, "status": rc, "log": log, "command": " ".join(cmd)}
        with self.lock:
            self.cycles += cyc
            self.records.append(rec)
            state = "ok  " if ok else "FAIL"
            print(f"{state} {run['unit']:<10} {run['set']:<6} seed {seed:<10} {cyc:>10} cycles {secs:7.1f} s"
                  f"   total {self.cycles:,} cycles, {(time.monotonic() - self.t0) / 60.0:.1f} min", flush=True)
            if not ok:
                why = f"exit status {rc}" if rc != 0 else "no cycle count in its output"
                print(f"     {why}: {' '.join(cmd)}\n     log: {log}", flush=True)
                for line in text.splitlines()[-8:]:
                    print(f"     | {line}", flush=True)

    def worker(self):
        while True:
            job = self.take()
            if job is None:
                return
            self.run_one(*job)


def summary(soak):
    """The per-unit and per-set table (printed) and the JSON record (written)."""
    per_unit, per_set = {}, {}
    for r in soak.records:
        for key, table in ((r["unit"], per_unit), ((r["unit"], r["set"]), per_set)):
            e = table.setdefault(key, {"runs": 0, "failed": 0, "cycles": 0, "seconds": 0.0})
            e["runs"] += 1
            e["failed"] += 0 if r["passed"] else 1
            e["cycles"] += r["cycles"]
            e["seconds"] += r["seconds"]
    wall = time.monotonic() - soak.t0
    print(f"\nsoak: base seed {soak.opt.seed}, {len(soak.records)} runs, {soak.cycles:,} lockstep cycles "
          f"in {wall / 60.0:.1f} min on {soak.opt.jobs} jobs")
    print(f"{'unit':<10} {'runs':>5} {'failed':>6} {'cycles':>14} {'cycles/s (one job)':>19}   sets")
    for unit, e in per_unit.items():
        sets = ", ".join(f"{s} {v['cycles']:,}" for (u, s), v in per_set.items() if u == unit)
        rate = e["cycles"] / e["seconds"] if e["seconds"] > 0 else 0.0
        print(f"{unit:<10} {e['runs']:>5} {e['failed']:>6} {e['cycles']:>14,} {rate:>19,.0f}   {sets}")
    failed = [r for r in soak.records if not r["passed"]]
    out = {"base_seed": soak.opt.seed, "jobs": soak.opt.jobs, "run_cycles": soak.opt.run_cycles,
           "minutes_asked": soak.opt.minutes, "cycles_asked": soak.opt.cycles,
           "wall_seconds": round(wall, 1), "cycles": soak.cycles, "runs": len(soak.records),
           "failed": len(failed),
           "units": {u: e for u, e in per_unit.items()},
           "sets": {f"{u}/{s}": e for (u, s), e in per_set.items()},
           "records": soak.records}
    path = os.path.join(soak.opt.dir, "summary.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(f"soak: summary in {path}")
    if failed:
        print(f"soak: {len(failed)} run(s) FAILED: " + ", ".join(f"{r['unit']}/{r['set']} seed {r['seed']}"
                                                             for r in failed))
        return 1
    if not soak.records:
        print("soak: no run started (zero minutes and cycles?)")
        return 1
    print("soak: every run passed")
    return 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="make soak SOAK_MINUTES=60 (or SOAK_CYCLES=100000000) JOBS=N: the same with every set built first.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", required=True, help="the set lines, UNIT SET BINARY [ARGS...] (the Makefile's)")
    ap.add_argument("--minutes", type=float, default=0.0, help="start no run after this many minutes (0: no limit)")
    ap.add_argument("--cycles", type=int, default=0, help="start no run once this many cycles ran (0: no limit)")
    ap.add_argument("--run-cycles", type=int, default=1000000, help="--cycles of each run (default 1000000)")
    ap.add_argument("--max-runs", type=int, default=0, help="start at most this many runs (0: no limit)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at a time (default: the cores)")
    ap.add_argument("--seed", type=int, default=None,
                    help="base seed (default: a fresh one, printed); run k uses base + k")
    ap.add_argument("--units", default="",
                    help="only these units (a comma list: xbar,sbox-tree; default every one in --runs)")
    ap.add_argument("--dir", default="build/soak", help="logs, waves of failures and summary.json (default build/soak)")
    opt = ap.parse_args()
    if opt.minutes <= 0 and opt.cycles <= 0 and opt.max_runs <= 0:
        fail("give --minutes, --cycles or --max-runs (a soak needs an end)")
    if opt.jobs < 1 or opt.run_cycles < 1:
        fail("--jobs and --run-cycles must be at least 1")
    if opt.seed is None:
        opt.seed = int.from_bytes(os.urandom(3), "little") * 100 + 1
    runs = read_runs(opt.runs)
    if opt.units:
        want = [u for u in opt.units.split(",") if u]
        known = sorted({r["unit"] for r in runs})
        bad = [u for u in want if u not in known]
        if bad:
            fail(f"--units: unknown {', '.join(bad)} (known: {', '.join(known)})")
        runs = [r for r in runs if r["unit"] in want]
    missing = sorted({r["binary"] for r in runs if not os.access(r["binary"], os.X_OK)})
    if missing:
        fail("not built: " + " ".join(missing) + " (make soak builds them)")
    os.makedirs(opt.dir, exist_ok=True)
    end = [f"{opt.minutes:g} min" if opt.minutes > 0 else "", f"{opt.cycles:,} cycles" if opt.cycles > 0 else "",
           f"{opt.max_runs} runs" if opt.max_runs > 0 else ""]
    print(f"soak: {len(runs)} sets, runs of --cycles {opt.run_cycles}, {opt.jobs} at a time, until "
          f"{' or '.join(e for e in end if e)}; base seed {opt.seed} (run k: seed {opt.seed} + k); logs in {opt.dir}/",
          flush=True)
    soak = Soak(runs, opt)
    threads = [threading.Thread(target=soak.worker) for _ in range(opt.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sys.exit(summary(soak))


if __name__ == "__main__":
    main()
