#!/usr/bin/env python3
"""sanfab FPGA synthesis flow: Yosys + nextpnr (YoWASP builds, pinned in scripts/requirements.txt).

  scripts/synth.py                 synthesize + place & route every config in
                                   constraints/synth_configs.json, write reports/synth.json and
                                   docs/synthesis.md (make synth)
  scripts/synth.py --check         only the configs with "gate": true; fail if a core does not fit,
                                   misses target_mhz or exceeds max_luts -- or, where the config
                                   sets them, its gate_mhz / gate_luts regression floors (make synth-check).
                                   Writes no tracked file; prints one line per config and then
                                   "N passed, M failed".
  scripts/synth.py --check --name NAME   the same for the named config(s) only (make test runs
                                   one placed-and-routed gate per block this way)
  scripts/synth.py --check --median-seed   a config of several seeds whose committed record is current
                                   places only the record's median seed and must reproduce it (cells and
                                   Fmax exactly: nextpnr is deterministic for a seed); the gate then judges
                                   the record's median, the other seeds' runs taken from the record. A
                                   config without a current record places every seed. make test's gates
                                   run this way; make synth-check places every seed.
  scripts/synth.py --check-records no tools: fail, naming it, on any record of reports/synth.json
                                   not made from the current inputs (its "inputs_sha": the Verilog Yosys
                                   compiles, i.e. RTL, headers and wrapper preprocessed with the
                                   synthesis's macros, less comments; constraints, config entry), and on any
                                   config without a record (make test, make synth-fresh)
  scripts/synth.py --docs          regenerate docs/synthesis.md from reports/synth.json only

Each config (block, params, device) is synthesized inside its wrapper rtl/fpga/<block>_fpga_top.v,
which loads every core input from a scan chain and captures every core output into flops, with
the core kept as its own hierarchy level. The counts reported ("luts", "ffs", "brams") are the
core's own cells after technology mapping (Yosys stat of the core module, including any kept
submodules); the wrapper's are reported apart. Fmax is nextpnr's post-route figure for the one
clock. Results are cached under build/synth/<name>/ keyed by a hash of the RTL, wrapper,
constraint files, config entry and tool versions. A config's gate, max_luts and floors
(gate_mhz, gate_luts) only judge a result: changing them re-runs nothing.

Environment: YOSYS, NEXTPNR_ICE40, NEXTPNR_ECP5 override the tool commands (default: the
yowasp-* console scripts).
"""

import argparse
import concurrent.futures
import json  # noqa: F401 (synth.json: scripts/test_synth.py)
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sanfab_cli import ArgumentParser, int_range  # noqa: E402
# the flow's parts, one module per concern; their names stay reachable as synth.NAME (scripts/gen_cores.py,
# scripts/test_synth.py)
from synth_records import (  # noqa: E402,F401
    BUILD_DIR, CONFIG_FILE, DEVICES, DOC_FILE, FLOW_VERSION, JUDGE_KEYS, REPORT_FILE, ROOT, TOOL_ENV,
    TOOL_TIMEOUT_S, FlowError, check_records, constraint_file, current_record, inputs_sha, judge_fields,
    load_configs, log, median_run, missing_seeds, module_params, public, read_bytes, read_filelist, read_json,
    read_text, rel, reproduce, summary, synth_source, target_misses, verdict, verilog_tokens, vlit, wrapper_files,
    write_report)
from synth_flow import (  # noqa: E402,F401
    breakdown, classify, core_cells, finish, log_errors, log_utilization, placement_estimate, prepare,
    run_breakdown, run_job, run_main, run_tool, tool_cmd, tool_versions)
from synth_page import fmt_params, write_docs  # noqa: E402,F401


# ----------------------------------------------------------------------------- main

def main(argv=None):
    ap = ArgumentParser(
        prog="synth.py",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--check", action="store_true", help="run the gate configs and pass/fail them")
    ap.add_argument("--docs", action="store_true", help="only regenerate docs from reports/synth.json")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTR",
                    help="run only configs whose name contains SUBSTR (repeatable)")
    ap.add_argument("--name", action="append", default=[], metavar="NAME",
                    help="run only the config named NAME (repeatable; with --check, gate or not)")
    ap.add_argument("--median-seed", action="store_true",
                    help="with --check: place only the committed record's median seed and require it to "
                         "reproduce the record (the other seeds' runs from the record); a config without a "
                         "current record places every seed")
    ap.add_argument("--check-records", action="store_true",
                    help="no tools: every record in reports/synth.json matches the current inputs")
    ap.add_argument("--jobs", type=int_range(1, 1024), default=1, metavar="N",
                    help="run N tools at once: configs, and the seeds of one config, side by side "
                         "(default 1)")
    ap.add_argument("--force", action="store_true",
                    help="ignore cached results under build/synth/ and re-run")
    ap.add_argument("--filelist", action="append", default=[], metavar="BLOCK=PATH",
                    help="use PATH as the RTL file list of block BLOCK (default: the config's)")
    ap.add_argument("--list", action="store_true", help="print the config names and exit")
    ap.add_argument("--breakdown", action="store_true",
                    help="also count the core's cells per submodule (an extra yosys run with "
                         "-noflatten; on for configs with \"breakdown\": true)")
    ap.add_argument("--config", default=CONFIG_FILE, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    try:
        if args.docs:
            write_docs(read_json(os.path.join(ROOT, REPORT_FILE)))
            print("wrote %s" % DOC_FILE)
            return 0
        configs = load_configs(args.config)
        if args.list:
            for c in configs:
                print("%-32s %s%s" % (c["name"], "gate" if c["gate"] else "",
                                      " max_luts=%d" % c["max_luts"] if "max_luts" in c else ""))
            return 0
        filelists = {}
        for fl in args.filelist:
            if "=" not in fl:
                raise FlowError("--filelist wants BLOCK=PATH, got '%s'" % fl)
            b, p = fl.split("=", 1)
            filelists[b] = p
        if args.check_records:
            bad = check_records(configs, filelists)
            for b in bad:
                print("synth-fresh: " + b)
            nrec = len(read_json(os.path.join(ROOT, REPORT_FILE))) if os.path.isfile(
                os.path.join(ROOT, REPORT_FILE)) else 0
            print("synth-fresh: %d records, %d configs: %s" % (
                nrec, len(configs), "every record matches the current inputs" if not bad else
                "%d problem(s)" % len(bad)))
            return 1 if bad else 0
        unknown = [n for n in args.name if n not in [c["name"] for c in configs]]
        if unknown:
            raise FlowError("no config named %s (see --list)" % ", ".join(unknown))
        sel = [c for c in configs
               if (not args.only or any(s in c["name"] for s in args.only))
               and (not args.name or c["name"] in args.name)
               and (c["gate"] or not args.check or args.name)]
        if not sel:
            raise FlowError("no config selected (see --list)")
        if args.median_seed and not args.check:
            raise FlowError("--median-seed goes with --check")
    except FlowError as e:
        print("synth: error: %s" % e, file=sys.stderr)
        if args.check:
            print("0 passed, 1 failed")
        return 2

    os.makedirs(os.path.join(ROOT, BUILD_DIR), exist_ok=True)
    t0 = time.time()
    results = {}
    # every tool run (Yosys, and each seed's nextpnr) holds one of --jobs slots, so a config's seeds are
    # placed side by side and the configs share the slots
    slots = threading.BoundedSemaphore(max(1, args.jobs))

    def one(cfg):
        try:
            committed = current_record(cfg, filelists) if args.median_seed else None
            if committed is not None:
                log("[%s] the record is current: placing its median seed %d only" % (
                    cfg["name"], committed["median_seed"]))
                cfg = dict(cfg, _seeds=[committed["median_seed"]])
            job = prepare(cfg, filelists)
            job["slots"] = slots
            rec = run_job(job, args.force,
                          (args.breakdown or cfg.get("breakdown", False)) and not args.check)
            return rec if committed is None else reproduce(rec, committed)
        except FlowError as e:
            return {"block": cfg["block"], "name": cfg["name"], "params": cfg["params"],
                    "device": cfg["device"], "target_mhz": cfg["target_mhz"], "seed": cfg["seed"],
                    "gate": bool(cfg["gate"]), "error": str(e), "_flow_error": True,
                    "luts": None, "ffs": None, "brams": None, "fmax_mhz": None}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(sel))) as ex:
        futs = {ex.submit(one, c): c for c in sel}
        for fut in concurrent.futures.as_completed(futs):
            c = futs[fut]
            rec = fut.result()
            results[c["name"]] = rec
            why = verdict(rec)
            if args.check:
                log("%s %s: %s%s" % ("PASS" if not why else "FAIL", c["name"], summary(rec),
                                     "" if not why else " -- " + "; ".join(why)))
            else:
                log("%s %s: %s%s" % ("done" if not rec.get("error") else "ERROR", c["name"],
                                     summary(rec), "" if not rec.get("error") else " -- " + rec["error"]))

    recs = [results[c["name"]] for c in sel]
    if args.check:
        npass = sum(1 for r in recs if not verdict(r))
        nfail = len(recs) - npass
        for r in recs:
            why = verdict(r)
            if why:
                print("synth-check: %s FAILED: %s" % (r["name"], "; ".join(why)), flush=True)
        print("synth-check wall time %.0f s" % (time.time() - t0))
        print("%d passed, %d failed" % (npass, nfail))
        return 0 if nfail == 0 else 1

    # flow errors (missing files, bad config) are not written into the report
    good = [r for r in recs if not r.get("_flow_error")]
    for r in good:
        r.pop("stale", None)
    # records of configs not run now are kept; mark those whose inputs changed since
    stale = set()
    for c in configs:
        if c in sel:
            continue
        try:
            stale.add((c["name"], inputs_sha(c, filelists)))
        except FlowError:
            stale.add((c["name"], None))
    allrecs = write_report(good, configs, stale)
    write_docs(allrecs)
    print("wrote %s (%d records) and %s in %.0f s" % (REPORT_FILE, len(allrecs), DOC_FILE,
                                                      time.time() - t0))
    bad = [r for r in recs if r.get("error")]
    for r in bad:
        print("synth: %s: %s" % (r["name"], r["error"]), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
