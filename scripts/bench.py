#!/usr/bin/env python3
"""sanfab benchmarks (make bench): speed of the crossbar's C model, Verilated RTL and lockstep run on
the same saturating random traffic, the crossbar's latency and permutation throughput, the VC
switch's model/RTL/lockstep speed, and the routing library's figures. Writes reports/bench.json (DESIGN.md's record format) and docs/bench.md.

  scripts/bench.py [--cycles N] [--seed N] [--skip-routing]
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "build", "xbar", "p8", "xbar_bench")
VCSW_BENCH = os.path.join(ROOT, "build", "vcsw", "p8", "vcsw_bench")
VCSW_LINE = re.compile(r"^ok\s+(\S+)\s+(\d+) steps\s+([0-9.]+) s\s+([0-9.]+) steps/s.*step calls only: "
                       r"model ([0-9.]+) steps/s, RTL ([0-9.]+) steps/s")


def vcsw_speed(test, cycles, seed):
    """One lockstep vcsw_bench --speed run; records for the model, the RTL (step calls only) and the
    whole lockstep run (hosts, scoreboard and checks included)."""
    cmd = [VCSW_BENCH, "--test", test, "--cycles", str(cycles), "--seed", str(seed), "--speed"]
    print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))
    m = next((VCSW_LINE.match(l) for l in r.stdout.splitlines() if VCSW_LINE.match(l)), None)
    if not m:
        sys.exit("bench: no result line in the output of %s" % " ".join(cmd))
    steps, secs = int(m.group(2)), float(m.group(3))
    params = {}
    pr = subprocess.run([VCSW_BENCH, "--params"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    for kv in pr.stdout.split():
        if "=" in kv:
            k, v = kv.split("=", 1)
            params[k] = int(v) if v.isdigit() else v
    out = []
    for what, cps in (("model", float(m.group(5))), ("rtl", float(m.group(6))), ("lockstep", steps / secs)):
        out.append({"block": "vcsw", "params": params, "what": what, "test": test, "cycles": steps,
                    "seconds": steps / cps if cps else 0.0, "cycles_per_s": cps,
                    "timing": "step calls only" if what != "lockstep" else "whole run"})
    return out


def run_bench(args, jpath):
    cmd = [BENCH] + args + ["--json", jpath]
    print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))


def read_jsonl(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cycles", type=int, default=2000000, help="saturating traffic cycles for the speed run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-routing", action="store_true", help="do not run make -C sw bench")
    a = ap.parse_args()
    if not os.path.exists(BENCH):
        sys.exit("bench: %s is missing; run `make bench` (it builds it)" % BENCH)

    records = []
    with tempfile.TemporaryDirectory() as td:
        j = os.path.join(td, "xbar.jsonl")
        run_bench(["--speed", "--cycles", str(a.cycles), "--seed", str(a.seed)], j)
        run_bench(["--test", "permutation", "--cycles", "200000", "--seed", str(a.seed)], j)
        run_bench(["--test", "latency", "--cycles", "20000", "--seed", str(a.seed)], j)
        records += read_jsonl(j)
    if os.path.exists(VCSW_BENCH):
        records += vcsw_speed("permutation", a.cycles // 2, a.seed)
        records += vcsw_speed("random", a.cycles // 4, a.seed)
    else:
        print("bench: %s missing, VC switch figures skipped" % os.path.relpath(VCSW_BENCH, ROOT))
    host = {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    for r in records:
        r["host"] = host

    if not a.skip_routing:
        subprocess.run(["make", "-s", "-C", "sw", "bench"], cwd=ROOT, check=True)
    rpath = os.path.join(ROOT, "reports", "bench-routing.json")
    if os.path.exists(rpath):
        with open(rpath) as f:
            records += json.load(f)

    os.makedirs(os.path.join(ROOT, "reports"), exist_ok=True)
    with open(os.path.join(ROOT, "reports", "bench.json"), "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    write_docs(records)
    print("bench: wrote reports/bench.json (%d records) and docs/bench.md" % len(records))


def write_docs(records):
    x = [r for r in records if r.get("block") == "xbar"]
    speed = {r["what"]: r for r in x if r.get("test") == "saturate"}
    perm = [r for r in x if r.get("test") == "permutation"]
    lat = [r for r in x if r.get("test") == "latency"]
    L = []
    L.append("# Benchmarks")
    L.append("")
    L.append("Generated by `make bench` (`scripts/bench.py`) from `reports/bench.json`; do not edit by hand.")
    L.append("Times are wall-clock seconds of one run on the machine that ran it (%s, %s CPUs), so they"
             % (x[0]["host"]["machine"] if x else "?", x[0]["host"]["cpus"] if x else "?"))
    L.append("vary from machine to machine and run to run; the ratios are the meaningful part.")
    L.append("")
    L.append("## Crossbar: C model, Verilated RTL and lockstep")
    L.append("")
    if speed:
        p = next(iter(speed.values()))["params"]
        L.append("8-port crossbar (%s), every input saturated with good packets of 8–127 body bytes to"
                 % ", ".join("%s=%s" % kv for kv in p.items()))
        L.append("uniform random outputs. The lockstep run (hosts, scoreboard, model and RTL together) records its")
        L.append("inputs; the same recorded stimulus is then replayed through the model alone and the RTL alone,")
        L.append("timing only the step calls. All three in one `xbar_bench --speed` run.")
        L.append("")
        L.append("| what | cycles | seconds | cycles/s | vs RTL |")
        L.append("|---|---|---|---|---|")
        rtl = speed.get("rtl")
        for w in ("model", "rtl", "lockstep"):
            if w in speed:
                r = speed[w]
                ratio = (r["cycles_per_s"] / rtl["cycles_per_s"]) if rtl else 0
                L.append("| %s | %d | %.3f | %.0f | %.2fx |" % (w, r["cycles"], r["seconds"], r["cycles_per_s"], ratio))
        L.append("")
        if "model" in speed and rtl:
            ratio = speed["model"]["cycles_per_s"] / rtl["cycles_per_s"]
            L.append("Target: the model at least 5x faster than the Verilated RTL — measured %.2fx (%s)."
                     % (ratio, "met" if ratio >= 5 else "**missed**"))
            L.append("")
    if perm or lat:
        L.append("## Crossbar: throughput and latency (lockstep runs)")
        L.append("")
        L.append("| test | figure | value |")
        L.append("|---|---|---|")
        for r in perm:
            L.append("| permutation (%d cycles) | input characters per cycle per port | %.4f |" % (r["cycles"], r.get("input_chars_per_cycle", 0)))
            L.append("| permutation | output data characters per cycle per port | %.4f |" % r.get("output_data_per_cycle", 0))
            L.append("| permutation | STOP symbols sent by the switch | %d |" % r.get("stops", 0))
        for r in lat:
            L.append("| latency | header in to first byte out, cycles | %d |" % r.get("header_to_first_byte_cycles", 0))
        L.append("")
        L.append("An input sustains one character per cycle; the output carries one character less per packet")
        L.append("(the route byte is stripped), hence its lower data rate. See [xbar.md](xbar.md#throughput).")
        L.append("")
    v = [r for r in records if r.get("block") == "vcsw"]
    if v:
        L.append("## VC switch: C model, Verilated RTL and lockstep")
        L.append("")
        L.append("`vcsw_bench --speed` on the p8 set (8 ports, 2 VCs: %s): one lockstep run per test; the"
                 % ", ".join("%s=%s" % kv for kv in v[0]["params"].items()))
        L.append("model and RTL figures time only their step calls inside it, the lockstep figure the whole run")
        L.append("(hosts, scoreboard and checks included). `permutation`: every VC of input p to output pi(p),")
        L.append("every link busy every step; `random`: random tables, lengths, stop pressure and reads.")
        L.append("")
        L.append("| test | what | cycles | cycles/s | vs RTL |")
        L.append("|---|---|---|---|---|")
        for t in ("permutation", "random"):
            tr = {r["what"]: r for r in v if r["test"] == t}
            if not tr:
                continue
            for w in ("model", "rtl", "lockstep"):
                r = tr[w]
                L.append("| %s | %s | %d | %.0f | %.2fx |" % (t, w, r["cycles"], r["cycles_per_s"],
                                                         r["cycles_per_s"] / tr["rtl"]["cycles_per_s"]))
        L.append("")
        worst = min(r["cycles_per_s"] / next(x for x in v if x["test"] == r["test"] and x["what"] == "rtl")["cycles_per_s"]
                    for r in v if r["what"] == "model")
        L.append("Target: the model at least 5x faster than the Verilated RTL on the same traffic — measured %.2fx "
                 "at the least (%s)." % (worst, "met" if worst >= 5 else "**missed**"))
        L.append("")
    rt = [r for r in records if r.get("block") == "routing"]
    if rt:
        L.append("## Routing library")
        L.append("")
        L.append("%d records from `make -C sw bench`; the tables and targets are in [routing.md](routing.md)." % len(rt))
        L.append("")
    with open(os.path.join(ROOT, "docs", "bench.md"), "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
