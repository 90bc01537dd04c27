#!/usr/bin/env python3
"""Network simulator tests: the C tests (normal and sanitizer builds) and tool-level tests of sanfab-sim
(--help, strict options, config errors naming FILE:LINE, determinism with and without --jobs, cyclic routes).

usage: run_netsim_tests.py BUILD_DIR   (called by `make -C sw netsim-test`); the last line is "N passed, M failed".
"""
import json
import os
import re
import sys
import time

from testlib import Tally, c_suite, run, write
import netsim_oneconf

if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
    sys.exit(__doc__.strip() if sys.argv[1] in ("-h", "--help") else "run_netsim_tests.py: usage: run_netsim_tests.py [BUILD_DIR]")
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
TMP = os.path.join(BUILD, "tmp", "netsim")
os.makedirs(TMP, exist_ok=True)
T = Tally()
result = T.result






def tool_tests(sim, tag):
    topo_tool = os.path.join(BUILD, "sanfab-topo")
    route_tool = os.path.join(BUILD, "sanfab-route")
    topo = os.path.join(TMP, "r8.topo")
    run([topo_tool, "random", "--switches", "8", "--seed", "2", "-o", topo])
    ud = os.path.join(TMP, "ud.routes")
    itb = os.path.join(TMP, "itb.routes")
    run([route_tool, "updown", topo, "-o", ud])
    run([route_tool, "itb", topo, "--seed", "2", "-o", itb])
    rc, out, _ = run([sim, "--help"])
    result(rc == 0 and "usage" in out and "--jobs" in out and "itb-pool" in out, f"{tag} --help lists the options and every key")

    cfg = write(os.path.join(TMP, "run.cfg"), "sanfab-sim 1\n# a small run\ntopology r8.topo\nroutes itb.routes\n"
                "message-size 64\nload 0.02 0.2\nwarmup 2000\ncycles 8000\nseed 9\nlinks no\n")
    rc1, out1, err1 = run([sim, cfg, "--quiet"])
    rc2, out2, _ = run([sim, cfg, "--quiet"])
    ok = rc1 == 0 and out1 == out2 and "seed 9" in err1
    try:
        d = json.loads(out1)
        p = d["points"]
        ok = ok and len(p) == 2 and d["seed"] == 9 and p[0]["itbs_per_msg"] > 0 and not p[0]["saturated"]
        ok = ok and p[0]["switches"]["drop_timeout"] == 0 and p[1]["accepted_flits_ns_sw"] > p[0]["accepted_flits_ns_sw"]
    except (ValueError, KeyError) as ex:
        ok = False
        err1 += repr(ex)
    result(ok, f"{tag} a config file run: JSON with two points, ITBs counted, seed printed, same bytes twice", err1[-800:])
    outj = os.path.join(TMP, f"{tag[1:4]}jobs.json")
    rc3, _, err3 = run([sim, cfg, "--quiet", "--jobs", "2", "-o", outj])
    same = rc3 == 0 and os.path.exists(outj) and open(outj).read() == out1
    result(same, f"{tag} --jobs 2 -o FILE writes the same bytes as one process on stdout", err3[-500:])
    rc4, out4, _ = run([sim, cfg, "--quiet", "--seed", "10"])
    result(rc4 == 0 and out4 != out1 and '"seed": 10' in out4, f"{tag} --seed overrides the config file's seed")
    rc5, out5, _ = run([sim, cfg, "--quiet", "--time"])
    result(rc5 == 0 and "flit_hops_per_s" in out5, f"{tag} --time adds wall-clock figures")

    # the saturation rule's hotspot part: 25 % of the messages to one host of 32 fill its link (1 flit per 6.25 ns)
    # at 0.16 / (0.25 x 8) = 0.08 flits/ns/switch; at 0.15 the host is saturated, at 0.02 not
    rc6, out6, err6 = run([sim, cfg, "--quiet", "--traffic", "hotspot", "--hotspot", "25", "--load", "0.02,0.15"])
    ok = rc6 == 0
    try:
        d = json.loads(out6)
        p = d["points"]
        h0, h1 = p[0]["hotspot_host"], p[1]["hotspot_host"]
        ok = ok and not h0["saturated"] and not p[0]["saturated"] and h1["saturated"] and p[1]["saturated"]
        ok = ok and h1["accepted_flits_ns"] < 0.95 * h1["offered_flits_ns"] and h1["accepted_flits_ns"] <= 0.16
        ok = ok and h0["host"] == h1["host"] and d["saturation"]["saturation_load"] == 0.15
        ok = ok and d["saturation"]["throughput_flits_ns_sw"] == p[0]["accepted_flits_ns_sw"]
        ok = ok and "hotspot_host" not in json.loads(out1)["points"][0]
    except (ValueError, KeyError, IndexError) as ex:
        ok = False
        err6 += repr(ex)
    result(ok, f"{tag} hotspot traffic: the hotspot host saturated alone flags the point, and the throughput "
               "counts only the points where it is not", (err6 + out6)[-800:])

    # skipping quiet switches is exact: --no-skip (every switch stepped every cycle) gives the same bytes,
    # for up*/down* and ITB routes, from idle to saturated loads, with a drain (switches skipped: checked)
    for routes, name in ((ud, "up*/down*"), (itb, "ITB")):
        args = [sim, "--topology", topo, "--routes", routes, "--load", "0.002,0.02,0.3", "--message-size", "128",
                "--warmup", "1000", "--cycles", "6000", "--drain", "20000", "--quiet"]
        rca, outa, _ = run(args)
        rcb, outb, _ = run(args + ["--no-skip"])
        rct, outt, _ = run(args + ["--time", "--links", "no"])
        try:
            skipped = [pt["perf"]["switch_cycles_skipped"] for pt in json.loads(outt)["points"]]
        except (ValueError, KeyError):
            skipped = []
        ok = rca == 0 and rcb == 0 and outa == outb and len(skipped) == 3 and skipped[0] > 0.5
        result(ok, f"{tag} {name}: skipping quiet switches gives the same JSON bytes as --no-skip "
               f"(switch-cycles skipped {', '.join(f'{x:.2f}' for x in skipped)})", f"rc={rca},{rcb} equal={outa == outb}")

    # ITB pool occupancy per NIC (Flich et al. 2002 Fig. 11): one [time-average, maximum] pair per host, consistent with the
    # network-wide figures; held packets with ITB routes near saturation, none with up*/down* routes
    for routes, name, load in ((itb, "ITB", "0.3"), (ud, "up*/down*", "0.3")):
        rc, out, err = run([sim, "--topology", topo, "--routes", routes, "--load", load, "--message-size", "128",
                            "--warmup", "1000", "--cycles", "6000", "--links", "no", "--quiet"])
        try:
            d = json.loads(out)
            it = d["points"][0]["itb"]
            per = it["per_nic_avg_max_pkts"]
            avgs, maxs = [v for v, _ in per], [m for _, m in per]
            ok = rc == 0 and len(per) == d["network"]["hosts"] and all(0 <= v <= m for v, m in per)
            ok = ok and max(maxs) == it["pool_max_pkts"] and abs(max(avgs) - it["pool_avg_pkts_max"]) < 1e-6
            ok = ok and abs(sum(avgs) / len(avgs) - it["pool_avg_pkts_mean"]) < 1e-6
            ok = ok and ((it["pool_max_pkts"] >= 2 and it["packets"] > 0 and it["pool_max_bytes"] > 128)
                         if name == "ITB" else (max(maxs) == 0 and it["pool_max_bytes"] == 0 and it["packets"] == 0))
            detail = f"max {it['pool_max_pkts']}, largest average {it['pool_avg_pkts_max']:.2f}"
        except (ValueError, KeyError, IndexError) as ex:
            ok, detail = False, repr(ex) + err[-300:]
        result(ok, f"{tag} {name} at {load}: ITB pool per NIC (average <= maximum, one pair per host, the largest "
               f"and the mean match the network-wide figures; {'packets held' if name == 'ITB' else 'none held'}: "
               f"{detail})", detail)

    # with a drain, every link figure still covers the measurement window only: per-channel utilisations agree with
    # max_util and mean_util (and stay <= 1) although the drain carries a backlog after the window; the ITB object
    # says which of its figures cover the window and which the whole run, and the window's counts are within the run's
    for routes, name in ((ud, "up*/down*"), (itb, "ITB")):
        rc, out, err = run([sim, "--topology", topo, "--routes", routes, "--load", "0.3", "--message-size", "128",
                            "--warmup", "1000", "--cycles", "6000", "--drain", "400000", "--quiet"])
        try:
            p = json.loads(out)["points"][0]
            lk = p["links"]
            u = [c[4] for c in lk["per_channel"]]
            ok = rc == 0 and p["messages"]["drain_cycles"] > 0 and p["saturated"]
            ok = ok and abs(max(u) - lk["max_util"]) < 1e-6 and abs(sum(u) / len(u) - lk["mean_util"]) < 1e-5
            ok = ok and max(u) <= 1.0
            detail = (f"per-channel max {max(u):.3f} mean {sum(u) / len(u):.4f} against max_util {lk['max_util']:.3f} "
                      f"mean_util {lk['mean_util']:.4f}")
        except (ValueError, KeyError, IndexError, TypeError) as ex:
            ok, detail = False, repr(ex) + err[-300:]
        result(ok, f"{tag} {name} past saturation with a drain: per-channel utilisations are the window's (agree with "
               f"max_util and mean_util, <= 1: {detail})", detail)
        try:
            it = p["itb"]
            sp = it["span"]
            ok = rc == 0 and sp["packets"] == sp["reinjected"] == "run"
            ok = ok and all(sp[f] == "window" for f in ("packets_window", "reinjected_window", "pool_avg_pkts_mean",
                                                          "pool_avg_pkts_max", "pool_max_pkts", "pool_max_bytes",
                                                          "per_nic_avg_max_pkts"))
            ok = ok and it["packets_window"] <= it["packets"] and it["reinjected_window"] <= it["reinjected"]
            ok = ok and (0 < it["packets_window"] < it["packets"] if name == "ITB" else it["packets"] == 0)
            detail = f"ITB packets {it['packets']}, in the window {it['packets_window']}"
        except (NameError, KeyError, TypeError) as ex:
            ok, detail = False, repr(ex)
        result(ok, f"{tag} {name} with a drain: the ITB figures name their span (run or window; {detail})", detail)

    # strict command line: every option used or an error (exit 2)
    bad_cmds = [
        ([cfg, "--bogus", "1"], "unknown option --bogus"),
        ([cfg, "--load"], "--load needs a value"),
        ([cfg, "--load", "0.1", "--load", "0.2"], "--load given twice"),
        ([cfg, "--load", "-1"], "expected loads"),
        ([cfg, "--seed", "-1"], "expected a whole number"),
        ([cfg, "--jobs", "0"], "--jobs"),
        ([cfg, "--traffic", "tornado"], "unknown pattern"),
        ([cfg, "--timeout", "1"], "timeout"),
        ([cfg, "--quiet", "--quiet"], "given twice"),
        ([cfg, cfg], "more than one config file"),
        (["--topology", topo, "--routes", itb], "no load given"),
        ([cfg, "--slack", "40"], "STOP_THRESH"),
        ([cfg, "--nic-go", "60"], "nic-go < nic-stop"),
        ([cfg, "-x"], "unknown option -x"),
    ]
    for args, want in bad_cmds:
        rc, _, err = run([sim] + args)
        result(rc == 2 and want in err, f"{tag} refuses {' '.join(a if a != cfg else 'CFG' for a in args)} ({want})",
               f"rc={rc} err={err.strip()[-300:]}")

    # config file errors name FILE:LINE and the problem (exit 1)
    bad_cfgs = [
        ("topology r8.topo\n", ":1: first line must be \"sanfab-sim 1\""),
        ("sanfab-sim 1\ntopology r8.topo\nfrobnicate 3\n", ":3: unknown key \"frobnicate\""),
        ("sanfab-sim 1\nload 0.1\nload 0.2\n", ":3: load given twice (first at line 2)"),
        ("sanfab-sim 1\nmessage-size 4\n", ":2: message-size: expected bytes 8..65536"),
        ("sanfab-sim 1\nseed\n", ":2: seed needs a value"),
        ("sanfab-sim 1\ncycles 10 20\n", ":2: cycles takes one value"),
        ("sanfab-sim 1\nallow-deadlock maybe\n", ":2: allow-deadlock: expected yes or no"),
        ("sanfab-sim 1\nhotspot 150\n", ":2: hotspot: expected a percentage"),
        ("sanfab-sim 1\nnic-duplex quarter\n", ":2: nic-duplex: expected full or half"),
    ]
    for i, (text, want) in enumerate(bad_cfgs):
        path = write(os.path.join(TMP, f"bad{i}.cfg"), text)
        rc, _, err = run([sim, path])
        result(rc == 1 and (path + want) in err, f"{tag} config error: {want.lstrip(':0123456789 ')}",
               f"rc={rc} err={err.strip()[-300:]}")
    missing = write(os.path.join(TMP, "missing.cfg"), "sanfab-sim 1\ntopology nothere.topo\nroutes itb.routes\nload 0.1\n")
    rc, _, err = run([sim, missing])
    result(rc == 1 and "nothere.topo" in err, f"{tag} a missing topology file is named", err[-300:])
    badroutes = write(os.path.join(TMP, "bad.routes"), open(itb).read().replace("route 0 1 0 :", "route 0 1 0 : 8f", 1))
    rc, _, err = run([sim, "--topology", topo, "--routes", badroutes, "--load", "0.1"])
    result(rc == 1 and re.search(r"bad\.routes:\d+:", err) is not None, f"{tag} a bad route file gets FILE:LINE: problem",
           err[-300:])

    # 32-port crossbars (Geoffray and Hoefler 2008's Clos is built of them): two leaves of 32 ports (30 hosts, 2 spines), all-path
    # routes; every message arrives, nothing is cut, skipping gives the same bytes; a 33-port switch is refused
    c32 = os.path.join(TMP, "clos32.topo")
    run([topo_tool, "clos", "--leaves", "2", "--hosts", "30", "--spines", "2", "-o", c32])
    c32r = os.path.join(TMP, "clos32.routes")
    run([route_tool, "clos-all", c32, "-o", c32r])
    args = [sim, "--topology", c32, "--routes", c32r, "--load", "0.05,0.5", "--message-size", "64", "--warmup", "1000",
            "--cycles", "6000", "--drain", "40000", "--links", "no", "--quiet"]
    rca, outa, erra = run(args)
    rcb, outb, _ = run(args + ["--no-skip"])
    try:
        d = json.loads(outa)
        ok = rca == 0 and rcb == 0 and outa == outb and len(d["points"]) == 2
        for p in d["points"]:
            m = p["messages"]
            ok = ok and m["delivered"] == m["generated"] > 100 and m["in_flight"] == 0 and m["misrouted"] == 0
            ok = ok and m["lost_aborted"] == 0 and m["lost_crc"] == 0 and p["switches"]["drop_timeout"] == 0
        detail = ", ".join(str(p["messages"]["delivered"]) for p in d["points"]) + " messages"
    except (ValueError, KeyError, IndexError) as ex:
        ok, detail = False, repr(ex) + erra[-300:]
    result(ok, f"{tag} 32-port crossbars (a Clos of two 32-port leaves): every message delivered whole, the same bytes "
           f"with --no-skip ({detail})", detail)
    c33 = os.path.join(TMP, "clos33.topo")
    run([topo_tool, "clos", "--leaves", "2", "--hosts", "31", "--spines", "2", "-o", c33])
    c33r = os.path.join(TMP, "clos33.routes")
    run([route_tool, "clos-all", c33, "-o", c33r])
    rc, _, err = run([sim, "--topology", c33, "--routes", c33r, "--load", "0.05"])
    result(rc == 1 and "has 33 ports; the crossbar model has at most 32" in err, f"{tag} a 33-port crossbar is refused",
           f"rc={rc} err={err.strip()[-300:]}")

    # a cyclic route set: refused unless allow-deadlock yes; then forward resets are counted
    ring = write(os.path.join(TMP, "ring.topo"), "sanfab-topology 1\n" + "".join(f"switch {s} ports 4\n" for s in range(4)) +
                 "".join(f"host {s} {s}:0\n" for s in range(4)) + "".join(f"link {s}:1 {(s + 1) % 4}:2\n" for s in range(4)))
    lines = ["sanfab-routes 1", "algorithm clockwise", "hosts 4 switches 4 vcs 1 alternatives 1"]
    for a in range(4):
        for b in range(4):
            if a != b:
                lines.append(f"route {a} {b} 0 : " + " ".join(["81"] * ((b - a) % 4)) + " 80")
    cyc = write(os.path.join(TMP, "ring.routes"), "\n".join(lines) + "\n")
    base = [sim, "--topology", ring, "--routes", cyc, "--load", "0.3", "--cycles", "40000", "--warmup", "1000"]
    rc, _, err = run(base)
    result(rc == 1 and "can deadlock" in err and "cycle of 4 channels" in err,
           f"{tag} a cyclic route set is refused, naming the cycle", err[-300:])
    rc, out, err = run(base + ["--allow-deadlock", "yes", "--timeout", "3000", "--links", "no", "--quiet"])
    try:
        p = json.loads(out)["points"][0]
        ok = rc == 0 and p["switches"]["drop_timeout"] > 0 and p["switches"]["forward_resets_window"] > 0
        ok = ok and p["messages"]["delivered"] > 0 and json.loads(out)["network"]["deadlock_free"] is False
    except (ValueError, KeyError, IndexError):
        ok = False
    result(ok, f"{tag} allow-deadlock yes: the ring deadlocks, forward resets clear it and are counted", err[-300:])
    rc2, out2, _ = run(base + ["--allow-deadlock", "yes", "--timeout", "3000", "--links", "no", "--quiet", "--no-skip"])
    result(rc == 0 and rc2 == 0 and out == out2, f"{tag} the deadlocked ring: same JSON bytes with --no-skip")


def vc_tests(sim, tag):
    """The VC-switch network (switch vcsw): tables from sanfab-route --rhinet, what runs where, bad tables files."""
    topo_tool = os.path.join(BUILD, "sanfab-topo")
    route_tool = os.path.join(BUILD, "sanfab-route")
    topo = os.path.join(TMP, "v8.topo")
    topo16 = os.path.join(TMP, "v16.topo")
    run([topo_tool, "random", "--switches", "8", "--seed", "4", "-o", topo])
    run([topo_tool, "random", "--switches", "16", "--seed", "4", "-o", topo16])
    dl, dlt = os.path.join(TMP, "dl.routes"), os.path.join(TMP, "dl.rhinet")
    ud, udt = os.path.join(TMP, "vud.routes"), os.path.join(TMP, "vud.rhinet")
    itb = os.path.join(TMP, "vitb.routes")
    dl16t = os.path.join(TMP, "dl16.rhinet")
    run([route_tool, "dl", topo, "--vcs", "3", "--select", "sancho", "-o", dl, "--rhinet", dlt])
    run([route_tool, "updown", topo, "-o", ud, "--rhinet", udt])
    run([route_tool, "itb", topo, "--seed", "1", "-o", itb])
    run([route_tool, "dl", topo16, "--vcs", "3", "-o", os.path.join(TMP, "dl16.routes"), "--rhinet", dl16t])
    rc, out, _ = run([sim, "--help"])
    result(rc == 0 and "vcsw" in out and "--rhinet" in out and "packet-flits" in out and "flits/host/cycle" in out,
           f"{tag} --help says which route sets each switch kind runs and lists the VC network's keys")
    base = [sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--packet-flits", "32", "--load", "0.05,0.3",
            "--warmup", "2000", "--cycles", "10000", "--drain", "30000", "--quiet"]
    rc1, out1, err1 = run(base + ["--tables", dlt])
    rc2, out2, _ = run(base)
    rc3, out3, _ = run(base + ["--tables", dlt, "--no-skip"])
    outj = os.path.join(TMP, "vjobs.json")
    rc4, _, _ = run(base + ["--tables", dlt, "--jobs", "2", "-o", outj])
    ok = rc1 == 0 and rc2 == 0 and rc3 == 0 and rc4 == 0
    try:
        d = json.loads(out1)
        p = d["points"]
        ok = ok and d["config"]["switch"] == "vcsw" and d["config"]["load_unit"] == "flits/host/cycle"
        ok = ok and d["network"]["vcs_used"] >= 2 and len(p) == 2 and not p[0]["saturated"]
        ok = ok and abs(p[0]["accepted_flits_cycle_host"] - 0.05) < 0.01 and p[1]["accepted_flits_cycle_host"] > 0.1
        m = p[0]["messages"]
        ok = ok and m["delivered"] == m["generated"] and m["lost_corrupt"] == 0 and m["lost_length"] == 0
        ok = ok and p[0]["deadlock"] is None and "throughput_flits_cycle_host" in d["saturation"]
        ok = ok and json.loads(out2)["points"] == p and out3 == out1 and open(outj).read() == out1
    except (ValueError, KeyError, IndexError) as ex:
        ok = False
        err1 += repr(ex)
    result(ok, f"{tag} --switch vcsw: DL routes with their --rhinet tables; flits/host/cycle; everything delivered after the "
               "drain; the same results with the tables written from the routes, with --no-skip and with --jobs 2", err1[-500:])
    rc, out, err = run([sim, "--switch", "vcsw", "--topology", topo, "--routes", ud, "--tables", udt, "--load", "0.05",
                        "--warmup", "1000", "--cycles", "5000", "--quiet", "--packet-flits", "16", "--traffic", "butterfly"])
    result(rc == 0 and json.loads(out)["network"]["vcs_used"] == 1, f"{tag} --switch vcsw runs a one-VC up*/down* set "
           "(butterfly traffic)", err[-300:])

    # what runs where: each refusal names the kind to use
    refusals = [
        ([sim, "--topology", topo, "--routes", dl, "--load", "0.1"], 1, "the crossbar network has none", "switch vcsw"),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", itb, "--load", "0.1"], 1, "In-Transit Buffers", "switch xbar"),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--load", "0.1", "--slack", "40"], 2,
         "slack is a key of the crossbar network (switch xbar)", ""),
        ([sim, "--topology", topo, "--routes", ud, "--load", "0.1", "--packet-flits", "64"], 2,
         "packet-flits is a key of the VC-switch network (switch vcsw)", ""),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--load", "1.5"], 2, "at most 1 flit a cycle", ""),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--load", "0.1", "--packet-flits", "200", "--maxlen",
          "128"], 2, "longer than the switches' maxlen", ""),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--load", "0.1", "--vcs", "2", "--ctrl", "1"], 1,
         "the file uses 2 VCs, the switch has 1 data VCs", ""),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--load", "0.1", "--vcs", "3"], 2,
         "expected 2, 4, 8 or 16 VCs", ""),
        ([sim, "--switch", "maestro", "--topology", topo, "--routes", dl, "--load", "0.1"], 2, "unknown switch kind", ""),
        # tables of another network, tables of another route set
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--tables", dl16t, "--load", "0.1"], 1,
         "the tables are for 16 switches, the network has 8", ""),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--tables", udt, "--load", "0.1"], 1,
         "in the tables, by port", "vud.rhinet"),
        # a route set computed for another topology
        ([sim, "--switch", "vcsw", "--topology", topo16, "--routes", dl, "--load", "0.1"], 1, "dl.routes:3: route file is for", "topology has"),
    ]
    for args, code, want, also in refusals:
        rc, _, err = run(args)
        result(rc == code and want in err and also in err, f"{tag} refuses {' '.join(os.path.basename(a) for a in args[1:])} "
               f"({want})", f"rc={rc} err={err.strip()[-400:]}")

    # malformed tables files: FILE:LINE: problem (exit 1)
    text = open(dlt).read().splitlines()
    sw_line = next(i for i, l in enumerate(text) if l.startswith("switch "))
    tag_line = next(i for i, l in enumerate(text) if l.strip().startswith("tag "))
    vc_line = next(i for i, l in enumerate(text) if l.strip().startswith("vc "))
    nic_line = next(i for i, l in enumerate(text) if l.startswith("nic "))

    def edit(i, new):
        t = list(text)
        t[i] = new
        return "\n".join(t) + "\n"
    bad = [
        ("sanfab-rhinet 2\n" + "\n".join(text[1:]) + "\n", 1, ""),
        (edit(2, "switches 8 hosts 32 vcs 3"), 3, "malformed line"),
        (edit(tag_line, "  tag 1 port"), tag_line + 1, "malformed line"),
        (edit(tag_line, "  tag 99999 port 1"), tag_line + 1, "number out of range"),
        (edit(vc_line, "  vc 0 1 7 0"), vc_line + 1, "VC 7"),
        (edit(nic_line, "nic 0 dst 1 alt 0 tag 1 vc 9"), nic_line + 1, "number out of range"),
        (edit(sw_line, "switch 99"), sw_line + 1, ""),
        (edit(tag_line, "  tag 0 port 15"), tag_line + 1, "port 15"),
        (edit(tag_line, "  frob 1 2"), tag_line + 1, "unknown keyword"),
    ]
    for i, (t, line, want) in enumerate(bad):
        path = write(os.path.join(TMP, f"bad{i}.rhinet"), t)
        rc, _, err = run([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--tables", path, "--load", "0.1"])
        result(rc == 1 and f"{path}:{line}:" in err and want in err,
               f"{tag} a malformed tables file is refused with FILE:LINE: problem ({want or 'line ' + str(line)})",
               f"rc={rc} err={err.strip()[-300:]}")
    # a tables file that routes one pair elsewhere than its route file says is refused, naming the pair
    lines = list(text)
    i = next(k for k, l in enumerate(lines) if l.startswith("nic ") and " alt 0 " in l)
    f = lines[i].split()
    f[-1] = str((int(f[-1]) + 1) % 3)
    lines[i] = " ".join(f)
    path = write(os.path.join(TMP, "other.rhinet"), "\n".join(lines) + "\n")
    rc, _, err = run([sim, "--switch", "vcsw", "--topology", topo, "--routes", dl, "--tables", path, "--load", "0.1"])
    result(rc == 1 and f"host {f[1]} to {f[3]}" in err and "starts on VC" in err,
           f"{tag} tables that disagree with the route set are refused, naming the pair", err[-300:])


def workload_tests(sim, tag):
    """Workloads and route policies through the tool: a run's JSON, the policy a route set without alternatives
    cannot have, a bad workload file named by FILE:LINE, the keys that exclude each other, the timing sets."""
    topo_tool, route_tool = os.path.join(BUILD, "sanfab-topo"), os.path.join(BUILD, "sanfab-route")
    topo, routes = os.path.join(TMP, "clos8.topo"), os.path.join(TMP, "clos8.routes")
    run([topo_tool, "clos", "--leaves", "4", "--hosts", "2", "--spines", "2", "-o", topo])
    run([route_tool, "clos-all", topo, "-o", routes])
    ud = os.path.join(TMP, "clos8-ud.routes")
    run([route_tool, "updown", topo, "-o", ud])
    base = [sim, "--topology", topo, "--routes", routes, "--links", "no", "--quiet"]
    rc, out, err = run(base + ["--workload", "exchange", "--message-bytes", "20000", "--messages", "2", "--policy", "adaptive",
                               "--threshold", "0", "--probability", "50", "--seed", "4"])
    try:
        d = json.loads(out)
        w = d["workload"]
        ok = (rc == 0 and w["finished"] and w["messages"] == 16 and w["bytes"] == 320000 and w["senders"] == 8 and
              w["bandwidth_bytes_cycle"]["min"] <= w["bandwidth_bytes_cycle"]["avg"] <= w["bandwidth_bytes_cycle"]["max"] <= 1 and
              d["config"]["policy"] == "adaptive" and d["config"]["threshold"] == 0 and d["config"]["probability"] == 50 and
              "points" not in d and w["packets_delivered"] == w["packets"] and w["policy"]["name"] == "adaptive")
        detail = f"{w['cycles']} cycles, {w['bandwidth_bytes_cycle']['avg']:.3f} bytes/cycle"
    except (ValueError, KeyError) as ex:
        ok, detail = False, repr(ex) + err[-300:]
    result(ok, f"{tag} an exchange workload under the adaptive policy: finished, 16 messages of 20000 bytes, per-host "
           f"bandwidth min <= avg <= max <= link rate ({detail})", detail)
    wl = write(os.path.join(TMP, "bad.wl"), "sanfab-workload 1\n0 send 1 100\n1 recv 0\n1 send 0 x\n")
    bad = [
        (base + ["--workload-file", wl], 1, "bad.wl:4: expected \"HOSTS send DST BYTES\""),
        (base + ["--workload", "exchange", "--policy", "zigzag"], 2, "unknown policy"),
        ([sim, "--topology", topo, "--routes", ud, "--workload", "exchange", "--policy", "probing"], 1,
         "has one route a pair"),
        (base + ["--workload", "exchange", "--load", "0.1"], 2, "load and a workload both given"),
        (base + ["--workload", "alltoal"], 2, "unknown workload"),
        (base + ["--load", "0.1", "--messages", "3"], 2, "messages is a workload key"),
        (base + ["--workload", "exchange", "--alternatives", "first", "--policy", "static"], 2, "alternatives and policy both"),
        (base + ["--workload", "exchange", "--timing", "myri20g"], 2, "no timing set \"myri20g\""),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", ud, "--workload", "exchange"], 2,
         "workload is a key of the crossbar network"),
        ([sim, "--switch", "vcsw", "--topology", topo, "--routes", ud, "--load", "0.1", "--policy", "probing"], 2,
         "policy probing needs the crossbar network's NICs"),
    ]
    for args, code, want in bad:
        rc, _, err = run(args)
        result(rc == code and want in err, f"{tag} refuses {' '.join(os.path.basename(a) for a in args[1:])} ({want})",
               f"rc={rc} err={err.strip()[-300:]}")
    # the VC network's NICs take the static and adaptive policies too (an FM set with layers has two routes a pair)
    fm = os.path.join(TMP, "clos8-fm.routes")
    run([route_tool, "fm", topo, "--deadlock", "layers", "-o", fm])
    for pol in ("static", "adaptive"):
        rc, out, err = run([sim, "--switch", "vcsw", "--topology", topo, "--routes", fm, "--load", "0.3", "--warmup", "2000",
                            "--cycles", "8000", "--policy", pol, "--threshold", "0", "--links", "no", "--quiet"])
        try:
            d = json.loads(out)
            p = d["points"][0]
            ok = (rc == 0 and d["config"]["policy"] == pol and p["messages"]["delivered"] > 0 and
                  p["messages"]["lost_corrupt"] == 0 and p["messages"]["misrouted"] == 0)
            detail = f"{p['accepted_flits_cycle_host']:.3f} flits/host/cycle"
        except (ValueError, KeyError, IndexError) as ex:
            ok, detail = False, repr(ex) + err[-300:]
        result(ok, f"{tag} the VC network runs FM's two routes a pair under the {pol} policy ({detail})", detail)
    # a timing set gives the keys the command line and the config file did not
    rc, out, err = run(base + ["--workload", "exchange", "--message-bytes", "5000", "--timing", "myri10g", "--mtu", "1024"])
    try:
        c = json.loads(out)["config"]
        ok = rc == 0 and c["ns_per_cycle"] == 0.8 and c["mtu"] == 1024 and c["timing"] == "myri10g"
        detail = f"ns_per_cycle {c['ns_per_cycle']}, mtu {c['mtu']}"
    except (ValueError, KeyError) as ex:
        ok, detail = False, repr(ex) + err[-300:]
    result(ok, f"{tag} --timing myri10g gives its keys (0.8 ns a cycle), the command line's mtu stays ({detail})", detail)


def maestro_tests(sim, mt, tag):
    """The Maestro network through the tools: sanfab-sim --switch sbox on trees (JSON, its units, nothing lost),
    with a tables file, the refusals, and sanfab-maestro's tests with their checks, options and errors."""
    tree = "tree --levels 2 --ports 4 --fanout 2 --hosts 3"
    base = [sim, "--switch", "sbox", "--topology-gen", tree, "--routing", "updown", "--warmup", "1000", "--cycles", "10000",
            "--drain", "100000", "--links", "no", "--quiet"]
    rc, out, err = run(base + ["--load", "0.01,0.03", "--message-size", "40"])
    try:
        d = json.loads(out)
        ok = rc == 0 and d["config"]["switch"] == "sbox" and d["config"]["load_unit"] == "bytes/host/cycle" and len(d["points"]) == 2
        for p in d["points"]:
            m = p["messages"]
            ok = ok and m["delivered"] == m["generated"] > 0 and m["lost_corrupt"] == m["misdelivered"] == m["misrouted"] == 0
            ok = ok and abs(p["accepted_mbit_s_host"] - p["accepted_bytes_cycle_host"] * 400) < 1e-4 * (1 + p["accepted_mbit_s_host"])
        ok = ok and d["tree"]["up_ports"] == [-1, 3, 3] and d["saturation"]["throughput_mbit_s_host"] > 0
        detail = f"{d['saturation']['throughput_bytes_cycle_host']:.4f} bytes/host/cycle"
    except (ValueError, KeyError, IndexError) as ex:
        ok, detail = False, repr(ex) + err[-300:]
    result(ok, f"{tag} a two-level tree of boxes, Type1 messages: every message delivered, units in bytes/host/cycle and "
           f"Mbit/s at 50 MHz, the up ports ({detail})", detail)
    # a tables file: the one sanfab-route --maestro writes gives the same bytes as the tables written from the routes
    topo, routes, tabs = (os.path.join(TMP, n) for n in ("mb.topo", "mb.routes", "mb.maestro"))
    run([os.path.join(BUILD, "sanfab-topo")] + tree.split() + ["-o", topo])
    run([os.path.join(BUILD, "sanfab-route"), "updown", topo, "-o", routes, "--maestro", tabs])
    files = [sim, "--switch", "sbox", "--topology", topo, "--routes", routes, "--load", "0.02", "--cycles", "6000", "--quiet"]
    rc1, out1, _ = run(files + ["--tables", tabs])
    rc2, out2, _ = run(files)
    strip = lambda s: re.sub(r'"tables": [^,]*, ', "", s)
    result(rc1 == rc2 == 0 and strip(out1) == strip(out2) and '"tables": "' in out1,
           f"{tag} the tables sanfab-route --maestro wrote give the same results as tables written from the routes")
    ring = write(os.path.join(TMP, "ring3.topo"), "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\n"
                 "host 0 0:0\nhost 1 1:0\nhost 2 2:0\nlink 0:1 1:1\nlink 1:2 2:1\nlink 2:2 0:2\n")
    bad = [
        ([sim, "--switch", "sbox", "--topology", ring, "--routing", "updown", "--load", "0.1"], 1, "ring3.topo:10: link 0:2 2:2 closes a cycle of boxes"),
        (base + ["--load", "0.6"], 2, "carries at most 0.5 bytes a cycle"),
        (base + ["--load", "0.1", "--vcs", "2"], 2, "vcs is a key of the VC-switch network"),
        (base + ["--load", "0.1", "--link-width", "5"], 2, "LINK_W"),
        (base + ["--load", "0.1", "--fifo-bytes", "300"], 2, "FIFO_BYTES"),
        (base + ["--workload", "exchange", "--mtu", "65536"], 2, "mtu 65536: a Maestro message carries at most 65535"),
        ([sim, "--switch", "sbx"], 2, "did you mean sbox"),
        ([sim, "--topology-gen", tree, "--routing", "updown", "--traffic", "multicast", "--load", "0.01"], 2,
         "multicast traffic runs on the Maestro network"),
        (base + ["--load", "0.01", "--traffic", "multicast", "--multicast-size", "9"], 1, "multicast traffic of 9 members on 6 hosts"),
        (base + ["--load", "0.1", "--turn", "16"], 2, "expected cycles 0..15"),
    ]
    for args, code, want in bad:
        rc, _, err = run(args)
        result(rc == code and want in err, f"{tag} refuses {' '.join(os.path.basename(a) for a in args[1:])} ({want})",
               f"rc={rc} err={err.strip()[-300:]}")
    # a workload on the Maestro network: its barriers are the boxes' (every host released once a barrier, none before
    # the last host arrives: host 0 computes 3000 cycles first), its messages checked
    wl = write(os.path.join(TMP, "mb-bar.wl"), "sanfab-workload 1\n0 compute 3000\nrepeat 5\n* barrier\nend\n0 send 5 3000\n"
               "5 recv 0 1\n* barrier\n")
    rc, out, err = run([sim, "--switch", "sbox", "--topology-gen", tree, "--routing", "updown", "--workload-file", wl, "--mtu", "1000",
                        "--links", "no", "--quiet"])
    try:
        w = json.loads(out)["workload"]
        ok = (rc == 0 and w["finished"] and w["barriers_released"] == 6 * 6 and w["bad_barrier"] == 0 and w["packets_delivered"] == 3
              and w["lost_corrupt"] == w["misrouted"] == w["duplicate"] == 0 and w["cycles"] > 3000 + 5 * 100)
        detail = f"{w['cycles']} cycles, {w['barriers_released']} releases"
    except (ValueError, KeyError) as ex:
        ok, detail = False, repr(ex) + err[-300:]
    result(ok, f"{tag} a workload's barriers on the Maestro network are the boxes': each host released once a barrier, "
           f"after the last arrives; its packets checked ({detail})", detail)
    rc, out, err = run([sim, "--switch", "sbox", "--topology-gen", tree, "--routing", "updown", "--workload", "exchange",
                        "--message-bytes", "5000", "--mtu", "2000", "--quiet", "--links", "no"])
    try:
        w = json.loads(out)["workload"]
        ok = rc == 0 and w["finished"] and w["packets_delivered"] == w["packets"] > 0 and w["lost_corrupt"] == 0
        detail = f"{w['cycles']} cycles, {w['packets']} packets"
    except (ValueError, KeyError) as ex:
        ok, detail = False, repr(ex) + err[-300:]
    result(ok, f"{tag} the exchange workload on the Maestro network finishes, every packet checked ({detail})", detail)
    # sanfab-maestro: every test on one box, short
    box = ["--topology-gen", "tree --levels 1 --ports 8", "--routing", "updown"]
    rc, out, _ = run([mt, "--help"])
    result(rc == 0 and "usage: sanfab-maestro" in out and "multicast" in out, f"{tag} sanfab-maestro --help")
    rc, out, _ = run([mt, "--version"])
    result(rc == 0 and out.startswith("sanfab-maestro (sanfab) "), f"{tag} sanfab-maestro --version")
    for test, extra, check in (
            ("fig8", ["--reps", "8"], lambda d: d["fig8"]["t1"]["min"] > 0 and d["fig8"]["t3"]["min"] == 8 and
             abs(d["fig8"]["table2_us"]["total"] - d["fig8"]["total"]["avg_us"]) < 1e-6),
            ("pingpong", ["--reps", "2", "--sizes", "16,256"], lambda d: [p["size"] for p in d["pingpong"]["points"]] == [16, 256] and
             d["pingpong"]["points"][1]["throughput_link"] > d["pingpong"]["points"][0]["throughput_link"]),
            ("pingping", ["--reps", "2", "--sizes", "64"], lambda d: d["pingping"]["points"][0]["round_trip"]["min"] > 0),
            ("multicast", ["--reps", "4"], lambda d: d["multicast"]["multicast"]["bus_words"] == 8 and
             d["multicast"]["unicasts"]["bus_words"] == 56),
            ("barrier", ["--reps", "3"], lambda d: d["barrier"]["members"] == 8 and d["barrier"]["latency"]["min"] > 0)):
        rc, out, err = run([mt, test] + box + extra)
        try:
            ok = rc == 0 and check(json.loads(out))
        except (ValueError, KeyError, IndexError) as ex:
            ok = False
            err += repr(ex)
        result(ok, f"{tag} sanfab-maestro {test} on one box of 8 hosts: its figures, every message checked", err[-300:])
    bad = [
        ([mt], 2, "no test given"),
        ([mt, "fig9"] + box, 2, "did you mean fig8"),
        ([mt, "fig8", "--reps", "0"] + box, 2, "--reps: expected a whole number in 1..100000"),
        ([mt, "pingpong", "--sizes", "20"] + box, 2, "--sizes: expected"),
        ([mt, "fig8", "--rep", "3"] + box, 2, "did you mean --reps"),
        ([mt, "fig8", "--switch", "xbar"] + box, 2, "sanfab-maestro measures the Maestro network (switch sbox)"),
        ([mt, "multicast", "--members", "9"] + box, 1, "--members must be 1..hosts-1"),
        ([mt, "fig8", "--topology-gen", "tree --levels 2 --ports 4 --fanout 2 --hosts 1", "--routing", "updown"], 1,
         "hosts 0 and 1 must hang on one box"),
    ]
    for args, code, want in bad:
        rc, _, err = run(args)
        result(rc == code and want in err, f"{tag} sanfab-maestro refuses {' '.join(os.path.basename(a) for a in args[1:])} ({want})",
               f"rc={rc} err={err.strip()[-300:]}")


def main():
    t0 = time.time()
    for name in ("test_net", "test_net-san", "test_wl", "test_wl-san"):
        c_suite(T, BUILD, name, timeout=300)
    tool_tests(os.path.join(BUILD, "sanfab-sim"), "[sanfab-sim]")
    tool_tests(os.path.join(BUILD, "san-sanfab-sim"), "[san-sanfab-sim]")
    vc_tests(os.path.join(BUILD, "sanfab-sim"), "[sanfab-sim vcsw]")
    vc_tests(os.path.join(BUILD, "san-sanfab-sim"), "[san-sanfab-sim vcsw]")
    workload_tests(os.path.join(BUILD, "sanfab-sim"), "[sanfab-sim workload]")
    maestro_tests(os.path.join(BUILD, "sanfab-sim"), os.path.join(BUILD, "sanfab-maestro"), "[sanfab-sim sbox]")
    maestro_tests(os.path.join(BUILD, "san-sanfab-sim"), os.path.join(BUILD, "san-sanfab-maestro"), "[san-sanfab-sim sbox]")
    # one file per run, the examples, the tools' conventions (sw/tests/netsim_oneconf.py)
    for sim, tag in ((os.path.join(BUILD, "sanfab-sim"), "[sanfab-sim oneconf]"), (os.path.join(BUILD, "san-sanfab-sim"), "[san-sanfab-sim oneconf]")):
        netsim_oneconf.oneconf_tests(T, BUILD, TMP, sim, tag)
        netsim_oneconf.conventions_tests(T, BUILD, TMP, sim, tag)
    netsim_oneconf.examples_tests(T, BUILD, TMP, os.path.join(BUILD, "sanfab-sim"))
    print(f"(netsim tests took {time.time() - t0:.1f} s)")
    T.finish()


if __name__ == "__main__":
    main()
