"""sanfab benchmarks (scripts/bench.py), docs/bench.md from the records of reports/bench.json: one function a
section (the crossbar, the VC switch, the MLC, the network simulator, the Clos, the RTL networks, routing)."""
import os

from bench_runs import ROOT, rtlnet_run
from bench_mlc_page import mlc_series, mlc_step_md


def clos_md(records):
    cl = [r for r in records if r.get("block") == "clos"]
    if not cl:
        return []
    L = ["## Network simulator, [Geoffray and Hoefler 2008](references.md#geoffray-hoefler-2008)'s 512-node Clos (`sanfab-sim`, crossbar network)", "",
         "`sanfab-sim --time`, one process, fastest of %d runs (shared machine): 48 crossbars of 32 ports (cmodel/xbar.c), "
         "16 routes a pair, the Myri-10G timing set, 4 KB uniform messages far past saturation." % cl[0].get("runs", 1), "",
         "| policy | offered (flits/ns/switch) | accepted (flits/host/cycle) | cycles | cycles/s | flit-hops/s |",
         "|---|---|---|---|---|---|"]
    for r in cl:
        L.append("| %s | %g | %.4f%s | %d | %.0f | %.2f M |" % (r["params"]["policy"], r["params"]["load"],
                 r["accepted_flits_cycle_host"], " (saturated)" if r["saturated"] else "", r["cycles"], r["cycles_per_s"],
                 r["flit_hops_per_s"] / 1e6))
    best = max(r["flit_hops_per_s"] for r in cl if r["saturated"]) if any(r["saturated"] for r in cl) else 0
    L += ["", "Target (issue 24): at least 10 M flit-hops/s on the 512-node Clos at saturation, one core — measured "
          "%.2f M at best (%s)." % (best / 1e6, "met" if best >= 10e6 else "**missed**"), ""]
    return L


def rtlnet_md(records):
    allr = [r for r in records if r.get("block") == "rtlnet"]
    if not allr:
        return []
    L = ["## RTL networks (`tb/net/net_bench`)", ""]
    for run in dict.fromkeys(rtlnet_run(r) for r in allr):
        rn = [r for r in allr if rtlnet_run(r) == run]
        p = rn[0]["params"]
        vc = p.get("kind") == "vcsw"
        L.append("The network bench on mk/net.mk's `%s` (%d random switches of 8 ports, %d hosts, %s routes, uniform %s at "
                 "%g %s, %d traffic cycles and the drain, seed %d), whole runs, fastest of %d (shared 2-core machine; "
                 "docs/network.md \"RTL networks\")." % (
                     run, p["switches"], p["hosts"], p["routes"], "128-flit packets" if vc else "512-byte messages",
                     p["load"], "flits/host/cycle" if vc else "flits/ns/switch", p["traffic_cycles"], p["seed"],
                     rn[0].get("runs", 1)))
        L.append("")
        L.append("| mode | cycles | seconds | cycles/s |")
        L.append("|---|---|---|---|")
        for r in rn:
            L.append("| %s | %d | %.2f | %.0f |" % (r["mode"], r["cycles"], r["seconds"], r["cycles_per_s"]))
        L.append("")
        m_all = next((r for r in rn if r["mode"].startswith("C network, every")), None)
        m_skip = next((r for r in rn if "skipped" in r["mode"]), None)
        r1 = next((r for r in rn if r["mode"] == "Verilated network (1 thread)"), None)
        r2 = next((r for r in rn if "--threads 2" in r["mode"]), None)
        if m_all and r1:
            ra = m_all["cycles_per_s"] / r1["cycles_per_s"]
            rs = m_skip["cycles_per_s"] / r1["cycles_per_s"] if m_skip else 0
            want = 10 if vc else 20
            L.append("Target (issue %s): the C network at least %d times faster than the Verilated network on the same "
                     "run -- measured %.1fx stepping every switch, %.1fx skipping quiet switches (%s)."
                     % ("23" if vc else "11", want, ra, rs, "met" if max(ra, rs) >= want else "**missed**"))
            L.append("")
        if r1 and r2:
            L.append("Verilator `--threads 2` on the 16-switch network: %.0f against %.0f cycles/s with one thread (%s)."
                     % (r2["cycles_per_s"], r1["cycles_per_s"],
                        "pays, %.2fx" % (r2["cycles_per_s"] / r1["cycles_per_s"]) if r2["cycles_per_s"] > r1["cycles_per_s"]
                        else "does not pay on this machine, %.2fx" % (r2["cycles_per_s"] / r1["cycles_per_s"])))
            L.append("")
    return L


def mlc_bench_md(records):
    """The MLC section of docs/bench.md (lines)."""
    m = [r for r in records if r.get("block") == "mlc"]
    if not m:
        return []
    L = ["## Maestro Link Controller: C model, Verilated RTL and lockstep", ""]
    sp = {r["what"]: r for r in m if r.get("test") == "random"}
    if sp:
        p = next(iter(sp.values()))["params"]
        L.append("`mlc_bench --mode model|rtl|lockstep` on the %s set (%s), the same random traffic in each mode"
                 % (p.get("variant", "?"), ", ".join("%s=%s" % kv for kv in p.items() if kv[0] != "variant")))
        L.append("(two ends through the link model, host drivers, corrupted nibbles and CTL faults, scoreboard and link")
        L.append("checks in every mode); the whole run timed, fastest of %d:" % next(iter(sp.values())).get("runs", 1))
        L.append("")
        L.append("| what | cycles | seconds | cycles/s | vs RTL |")
        L.append("|---|---|---|---|---|")
        rtl = sp.get("rtl")
        for w in ("model", "rtl", "lockstep"):
            if w in sp:
                r = sp[w]
                L.append("| %s | %d | %.3f | %.0f | %.2fx |" % (w, r["cycles"], r["seconds"], r["cycles_per_s"],
                                                            r["cycles_per_s"] / rtl["cycles_per_s"] if rtl else 0))
        L.append("")
    L += mlc_step_md(m)
    sw = next((r for r in m if r["what"] == "model" and r.get("test") == "perf-sweep"), None)
    if sw:
        L.append("`mlc_perf` (the measurements of mlc-perf.md, C model only): %d pair steps in %.2f s, %.0f steps/s."
                 % (sw["cycles"], sw["seconds"], sw["cycles_per_s"]))
        L.append("")
    eff = next((r for r in m if r["what"] == "efficiency" and r["params"]["LINK_W"] == 4 and r["params"]["TURN"] == 1
                and r["params"]["LINK_DELAY"] == 0), None)
    pp = mlc_series(records, "pingpong", "burst")
    if eff:
        L.append("Long messages, Network Burst, one direction (the other end sending null frames), defaults: "
                 "%.2f %% of the raw link rate measured (%d units in %d steps), docs/mlc.md's formula %.2f %% — target "
                 "≥ 95 %% %s." % (100 * eff["efficiency"], eff["units"], eff["window_steps"], 100 * eff["formula"],
                                  "met" if eff["efficiency"] >= 0.95 else "**missed**"))
    if pp:
        big = pp[-1]
        L.append("Ping-pong of %d-byte messages: %.2f %% of the link (%.2f MB/s at the paper's 50 MHz)."
                 % (big["size"], 100 * big["throughput_frac"], big["paper_mbytes_s"]))
    L.append("Ping-pong, ping-ping, Network Burst against single-packet transfer, pipelined against message-based")
    L.append("transfer, beside the paper's Figs. 9-11: [mlc-perf.md](mlc-perf.md).")
    L.append("")
    return L

def bench_head_md(records):
    """The head of docs/bench.md (lines)."""
    x = [r for r in records if r.get("block") == "xbar"]
    L = []
    L.append("# Benchmarks")
    L.append("")
    L.append("Generated by `make bench` (`scripts/bench.py`) from `reports/bench.json`; do not edit by hand.")
    L.append("Times are wall-clock seconds of one run on the machine that ran it (%s, %s CPUs), so they"
             % (x[0]["host"]["machine"] if x else "?", x[0]["host"]["cpus"] if x else "?"))
    L.append("vary from machine to machine and run to run; the ratios are the meaningful part.")
    L.append("")
    return L


def xbar_md(records):
    """The crossbar's sections: its model/RTL/lockstep speed, its throughput and latency (lines)."""
    x = [r for r in records if r.get("block") == "xbar"]
    speed = {r["what"]: r for r in x if r.get("test") == "saturate"}
    perm = [r for r in x if r.get("test") == "permutation"]
    lat = [r for r in x if r.get("test") == "latency"]
    L = []
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
    return L


def vcsw_md(records):
    """The VC switch's model/RTL/lockstep speed (lines)."""
    L = []
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
    return L


def netsim_md(records):
    """The network simulator's speed on the crossbar and the VC networks (lines)."""
    L = []
    nt = [r for r in records if r.get("block") == "net"]
    vn = [r for r in records if r.get("block") == "vcnet"]
    best64 = {}
    for recs, vc in ((nt, False), (vn, True)):
        if not recs:
            continue
        unit = "flits/host/cycle" if vc else "flits/ns/switch"
        if vc:
            L.append("## Network simulator, VC network (`sanfab-sim --switch vcsw`)")
            L.append("")
            L.append("`sanfab-sim --switch vcsw --time`, one process, fastest of %d runs (shared machine), 128-flit "
                     "uniform packets, [Koibuchi et al. 2003](references.md#koibuchi-et-al-2003)'s switches (4 VCs, DEPTH 256), quiet switches skipped. Flit-hops = flits "
                     "carried over any link (injection, switch-to-switch, ejection)." % recs[0].get("runs", 1))
        else:
            L.append("## Network simulator (`sanfab-sim`)")
            L.append("")
            L.append("`sanfab-sim --time`, one process, fastest of %d runs (shared machine), 512-byte uniform messages, "
                     "warm-up + window cycles as listed, quiet switches skipped (docs/network.md). Flit-hops = data "
                     "characters carried over any link (injection, switch-to-switch, ejection)." % recs[0].get("runs", 1))
        L.append("")
        L.append("| network | routes | offered | accepted (%s) | cycles | cycles/s | flit-hops/s | switch-cycles skipped |"
                 % unit)
        L.append("|---|---|---|---|---|---|---|---|")
        for r in recs:
            p = r["params"]
            L.append("| %s (%d switches, %d hosts) | %s | %g | %.4f%s | %d | %.0f | %.2f M | %.0f %% |"
                     % (p["topology"], p["switches"], p["hosts"], p["routes"], p["load"],
                        r["accepted_flits_cycle_host" if vc else "accepted_flits_ns_sw"],
                        " (saturated)" if r["saturated"] else "", r["cycles"], r["cycles_per_s"],
                        r["flit_hops_per_s"] / 1e6, 100 * (r.get("switch_cycles_skipped") or 0)))
        L.append("")
        best64[vc] = max((r["flit_hops_per_s"] for r in recs if r["params"]["switches"] == 64 and
                          r["params"]["topology"].startswith("random") and r["saturated"]), default=0)
        if vc:
            sat = [r for r in recs if r["params"]["switches"] == 64 and r["saturated"]]
            L.append("Target (issue 23): at least 5 M flit-hops/s on the 64-switch VC network at saturation, one core — "
                     "measured %s on the saturated 64-switch points (best %.2f M: %s; a route set that loads few "
                     "channels, as up\\*/down\\* near its root, carries fewer flit-hops per cycle); the crossbar "
                     "network %.2f M on its saturated 64-switch points; BookSim 2 is quoted at 0.5-0.8 M flit-hops/s."
                     % (", ".join("%.2f M (%s)" % (r["flit_hops_per_s"] / 1e6, r["params"]["routes"].split()[0])
                                  for r in sat), best64[vc] / 1e6, "met" if best64[vc] >= 5e6 else "**missed**",
                        best64.get(False, 0) / 1e6))
        else:
            L.append("Target (issue 8): at least 10 M flit-hops/s on a 64-switch irregular network at saturation, one "
                     "core — measured %.2f M at best over the saturated 64-switch points (%s)." % (
                         best64[vc] / 1e6, "met" if best64[vc] >= 10e6 else "**missed**"))
        L.append("")
    return L


def routing_md(records):
    """The routing library's line (lines)."""
    L = []
    rt = [r for r in records if r.get("block") == "routing"]
    if rt:
        L.append("## Routing library")
        L.append("")
        L.append("%d records from `make -C sw bench`; the tables and targets are in [routing.md](routing.md)." % len(rt))
        L.append("")
    return L


def write_docs(records):
    """docs/bench.md from the records, section by section."""
    L = bench_head_md(records) + xbar_md(records) + vcsw_md(records) + mlc_bench_md(records) + netsim_md(records)
    L += clos_md(records)
    L += rtlnet_md(records)
    L += routing_md(records)
    with open(os.path.join(ROOT, "docs", "bench.md"), "w") as f:
        f.write("\n".join(L) + "\n")
