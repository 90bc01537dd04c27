"""Shared pieces of the sw/ test drivers (run_tests.py, run_netsim_tests.py): the PASS/FAIL tally,
running a command, writing a file, and running a C test binary whose output is PASS/FAIL lines and a
last line "N passed, M failed"."""
import os
import re
import subprocess
import sys
import time


class Tally:
    """Counts results and prints one PASS/FAIL line per result."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def result(self, ok, name, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}")
        sys.stdout.flush()

    def finish(self):
        """Prints the summary line and exits with 1 if anything failed."""
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


def run(args, timeout=120):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def c_suite(tally, build, binary, args=(), timeout=200, echo=None):
    """Runs build/binary with args; each of its PASS/FAIL lines becomes a result (lines starting with
    `echo` are printed as they are), then one result: exit 0 with a summary line and no failure."""
    t0 = time.time()
    rc, out, err = run([os.path.join(build, binary)] + list(args), timeout=timeout)
    for line in out.splitlines():
        if line.startswith(("PASS ", "FAIL ")):
            tally.result(line.startswith("PASS "), f"[{binary}] {line[5:]}")
        elif echo and line.startswith(echo):
            print(line)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    m = re.match(r"(\d+) passed, (\d+) failed", last)
    tally.result(rc == 0 and m is not None and m.group(2) == "0",
                 f"[{binary}] exits 0 with a summary ({time.time() - t0:.1f} s)",
                 f"rc={rc} last={last!r} stderr={err[-2000:]}")
