"""Seed 000's page (scripts/exp_seed000.py, scripts/experiments.py --paper 000): docs/experiments.md and
docs/experiments-full.md from the experiments' JSON, one function a section (Tables 1-4, Fig. 11, the regular
topologies), beside the paper's numbers."""
import os

import exp_driver as D
from exp_driver import ROOT
from exp_seed000_paper import HOTSPOT, PAPER_REG, PAPER_T1, PAPER_T2, PAPER_T3, PAPER_T4_EXPRESS_DROP


# ------------------------------------------------------------------ Table 1

def md_table1(data, md_dir):
    table = {(r["switches"], r["message_size"]): (r["min"], r["max"], r["avg"], r["networks"],
                                                  r["avg_itb_only_where_ud_not_minimal"]) for r in data["table"]}
    L = ["## Table 1: factor of throughput increase, ITB over up*/down*, uniform traffic", "",
         "Random irregular networks of 8-port switches with 4 hosts each (`sanfab-topo random`, seeds 1..%d), "
         "up\\*/down\\* routes with balanced selection and ITB minimal routes (`sanfab-route`), Myrinet timing "
         "(docs/network.md); ITB = `sanfab-route itb`: one random minimal path per pair, ITBs at its down->up "
         "turns (sec. 4: \"only one minimal path for each source-destination pair, randomly selected among all the "
         "feasible paths\"). The last columns use the other reading of sec. 4 (see the notes below): a random "
         "minimal up\\*/down\\* path where one exists (`sanfab-route updown --select random`), the ITB path only "
         "for the other pairs. "
         "One load sweep per route set: loads %s flits/ns/switch (extended to %s until a point "
         "is saturated and past the peak of accepted traffic), warm-up %d and window %d cycles, seed %d. Throughput "
         "= the highest accepted traffic of the sweep (a point is saturated when accepted < 0.95 x offered); "
         "factor = ITB throughput / UD throughput."
         % (data["topologies"], ", ".join("%g" % x for x in data["loads"]), ", ".join("%g" % x for x in data["extend"]),
            data["warmup"], data["cycles"], data["seed"]), ""]
    if not data.get("complete", True):
        L += ["**Incomplete:** %d of the %d planned runs (switches x topologies x message sizes) had finished when "
              "this JSON was written (the run stopped early or was still going); the table holds those (see the "
              "networks column)." % (data["runs_done"],
                                                                                   data["runs_planned"]), ""]
    L += [
         "| switches | message | ours min | max | avg | networks | paper min | max | avg | avg ours/paper | "
         "avg, ITB only where UD is not minimal |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (nsw, msg), (mn, mx, avg, n, avg_all) in table.items():
        p = PAPER_T1.get((nsw, msg))
        ps = ["%.2f" % x for x in p] + ["%.2f" % (avg / p[2])] if p else ["-"] * 4
        L.append("| %d | %d B | %.2f | %.2f | %.2f | %d | %s | %s | %s | %s | %.2f |"
                 % (nsw, msg, mn, mx, avg, n, *ps, avg_all))
    L += ["", "Per network (flits/ns/switch):", "", "| switches | topology seed | message | UD | ITB | factor | "
          "UD saturation load | ITB saturation load | forward resets | ITB only where UD is not minimal | factor |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        L.append("| %d | %d | %d B | %.4f | %.4f | %.2f | %s | %s | %d | %.4f | %.2f |" % (
            r["switches"], r["topology_seed"], r["message_size"], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], r["ud"]["saturation_load"], r["itb"]["saturation_load"],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"], r["itb_alt"]["throughput_flits_ns_sw"],
            r["factor_itb_alt"]))
    return L + [""]


# ------------------------------------------------------------------ Table 2

def md_table2(data, md_dir):
    table = {(r["switches"], r["message_size"]): (r["min"], r["max"], r["avg"], r["networks"]) for r in data["table"]}
    L = ["## Table 2: latency increase of ITB over up*/down* at low load (percent)", "",
         "The same random networks and route sets as Table 1; uniform traffic at %g flits/ns/switch (the paper says "
         "\"low traffic\" without a number), one point per route set with warm-up %d and window %d cycles, seed %d "
         "(UD and ITB get the same messages: same generation times and destinations). Latency = average from "
         "generation to delivery (ns); increase = ITB / UD - 1." % (data["load"], data["warmup"], data["cycles"],
                                                                data["seed"]), "",
         "| switches | message | ours min | max | avg | networks | paper min | max | avg |",
         "|---|---|---|---|---|---|---|---|---|"]
    for (nsw, msg), (mn, mx, avg, n) in table.items():
        p = PAPER_T2.get((nsw, msg))
        ps = ["%.2f" % x for x in p] if p else ["-"] * 3
        L.append("| %d | %d B | %.2f | %.2f | %.2f | %d | %s | %s | %s |" % (nsw, msg, mn, mx, avg, n, *ps))
    L += ["", "| switches | topology seed | message | UD latency (ns) | ITB latency (ns) | ITBs per message | increase |",
          "|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        L.append("| %d | %d | %d B | %.0f | %.0f | %.3f | %+.2f %% |" % (
            r["switches"], r["topology_seed"], r["message_size"], r["ud"]["latency_ns_avg"],
            r["itb"]["latency_ns_avg"], r["itb"]["itbs_per_msg"], r["increase_pct"]))
    return L + [""]


# ------------------------------------------------------------------ Table 3

T3_NAMES = {"bit-reversal": "bit-reversal", "local3": "local (l = 3)", "local5": "local (l = 5)", "hotspot": "hotspot"}


def md_table3(data, md_dir):
    table = {(r["switches"], r["pattern"]): (r["min"], r["max"], r["avg"], r["networks"]) for r in data["table"]}
    L = ["## Table 3: factor of throughput increase for bit-reversal, local and hotspot traffic", "",
         "The same random networks and route sets as Table 1, %d-byte messages (the paper does not say which size "
         "Table 3 uses), sweeps as in Table 1. Bit-reversal: the source id's bits reversed (hosts that map to "
         "themselves send nothing); local *l*: uniform over the hosts whose switch is at most *l* switches away, the "
         "source's and the destination's switch counted as in the paper (\"one hop away (two switches away)\"), "
         "i.e. sanfab-sim `local` *l* - 1 hops; hotspot: %s of the "
         "messages to one host chosen from the seed (the paper's shares for 8/16/32/64 switches), the rest uniform."
         % (data["message_size"], "/".join("%d %%" % HOTSPOT[s] for s in sorted(HOTSPOT))), "",
         "| switches | traffic | ours min | max | avg | networks | paper min | max | avg |",
         "|---|---|---|---|---|---|---|---|---|"]
    for (nsw, pat), (mn, mx, avg, n) in table.items():
        p = PAPER_T3.get((nsw, pat))
        ps = ["%.2f" % x for x in p] if p else ["-"] * 3
        L.append("| %d | %s | %.2f | %.2f | %.2f | %d | %s | %s | %s |" % (nsw, T3_NAMES[pat], mn, mx, avg, n, *ps))
    L += ["", "Per network (flits/ns/switch; ITBs per message at the highest load):", "",
          "| switches | topology seed | traffic | UD | ITB | factor | ITBs/msg | forward resets |",
          "|---|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        L.append("| %d | %d | %s | %.4f | %.4f | %.2f | %.3f | %d |" % (
            r["switches"], r["topology_seed"], T3_NAMES[r["pattern"]], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], r["itb"]["itbs_per_msg"][-1],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"]))
    return L + [""]


# ------------------------------------------------------------------ regular topologies

def md_regular(data, md_dir):
    runs = data["runs"]
    L = ["## Regular topologies: 2D torus, express channels, CPLANT (sec. 5.5.1, uniform traffic)", "",
         "`sanfab-topo torus --k 8 --ports 16 --hosts 8` (512 hosts), `express` (the same torus plus links to the "
         "second neighbours in each dimension) and `cplant` (50 switches, 400 hosts); UD rooted at switch 0 (the "
         "torus's top-left switch, as in the paper) with balanced selection, ITB as in Table 1 "
         "(the paper: 80 %% of UD's torus routes and 94 %% with express channels are minimal; our column: pairs with "
         "a minimal up\\*/down\\* path; the last two columns: ITB paths only for the other pairs); %d-byte messages "
         "(the paper does not say), sweeps as in Table 1 with each network's own loads. The paper gives UD's and "
         "ITB's throughput in the text (Fig. 12)." % runs[0]["message_size"], "",
         "| network | pairs with a minimal UD path | UD ours | ITB ours | factor ours | UD paper | ITB paper | factor paper | "
         "UD saturation load | ITB saturation load | ITB only where UD is not minimal | factor |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        p = PAPER_REG[r["network"]]
        L.append("| %s | %.0f %% | %.4f | %.4f | %.2f | %.3f | %.3f | %.2f | %s | %s | %.4f | %.2f |" % (
            r["description"], 100 * r["ud_minimal_share"], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], p[0], p[1], p[2], r["ud"]["saturation_load"],
            r["itb"]["saturation_load"], r["itb_alt"]["throughput_flits_ns_sw"], r["factor_itb_alt"]))
    tor = next((r for r in runs if r["network"] == "torus"), None)
    if tor:
        lu = tor["link_utilisation"]
        L += ["", "Torus link utilisation (switch-to-switch channels; paper Figs. 13 and 14: UD at 0.015 up to 50 % "
              "near the root with 65 % of the links below 10 %; ITB at 0.015 all below 12 %; ITB at 0.03 14-29 %):", "",
              "| routes | offered load | accepted | mean | min | max | channels below 10 % |", "|---|---|---|---|---|---|---|"]
        for key, v in lu.items():
            L.append("| %s | %g | %.4f | %.3f | %.3f | %.3f | %.0f %% |" % (
                key.split("@")[0].upper(), v["load"], v["accepted_flits_ns_sw"], v["mean"], v["min"], v["max"],
                100 * v["below_10_pct"]))
        if data["plots"]:
            L += [""] + ["![%s](%s)" % (os.path.basename(p), os.path.relpath(os.path.join(ROOT, p), md_dir))
                         for p in data["plots"]]
    return L + [""]


# ------------------------------------------------------------------ Table 4: hotspot on the regular topologies

def md_table4(data, md_dir, uniform=None):
    """Table 4's section; `uniform`: regular.json's data of the same mode (for the throughput lost to the hotspot)."""
    L = ["## Table 4: factor of throughput increase for hotspot traffic on the regular topologies (sec. 5.5.2)", "",
         "The regular networks and route sets of the uniform runs below (UD rooted at switch 0 with balanced "
         "selection, ITB = `sanfab-route itb`), %d-byte messages, hotspot traffic: the given share of the messages to "
         "one host, the rest uniform. %d hotspot location%s per case (the paper: ten): the hotspot host is chosen by "
         "sanfab-sim from the run's seed, so location *i* is seed *i* (which also changes the other random choices: "
         "phases and uniform destinations); both route sets get the same seed. Sweeps as in Table 1 (each case's own "
         "loads below, extended past the last until saturated and peaked), warm-up %d and window %d cycles. "
         "Factor = ITB throughput / UD throughput at the same location. Bound: the offered load at which the "
         "hotspot's share alone fills the hotspot host's link (1 flit per 6.25 ns / (share x switches)); above it "
         "the hotspot's messages cannot all be delivered. With a share of 5 %% or less the total's 0.95 rule cannot "
         "see that (the total loses at most the share), so sanfab-sim also checks the hotspot host itself: a point is "
         "saturated when it accepts < 0.95 of the traffic offered to it, and the throughput is the best accepted "
         "traffic of the points where it is not. A throughput above the bound (marked \\*; a run made before that "
         "rule, or a hotspot host that still keeps up there) counts the uniform part beside a saturated hotspot." % (
             data["message_size"], data["locations"], "" if data["locations"] == 1 else "s", data["warmup"],
             data["cycles"]), "",
         "| network | hotspot | ours min | max | avg | locations | paper min | max | avg | UD avg (flits/ns/switch) | "
         "ITB avg | bound |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    desc = {"torus": "2D torus", "express": "torus with express channels", "cplant": "CPLANT"}
    for r in data["table"]:
        p = r["paper"]
        ps = ["%.2f" % x for x in p] if p else ["-"] * 3
        bd = r["hotspot_link_bound"]
        L.append("| %s | %d %% | %.2f | %.2f | %.2f | %d | %s | %s | %s | %.4f%s | %.4f%s | %.4f |" % (
            desc[r["network"]], r["hotspot_percent"], r["min"], r["max"], r["avg"], r["locations"], *ps,
            r["ud_avg_throughput"], "\\*" if r["ud_avg_throughput"] > bd else "", r["itb_avg_throughput"],
            "\\*" if r["itb_avg_throughput"] > bd else "", bd))
    if uniform:
        uni = {r["network"]: r for r in uniform["runs"]}
        rows = []
        for r in data["table"]:
            u = uni.get(r["network"])
            if not u:
                continue
            du = 100 * (1 - r["ud_avg_throughput"] / u["ud"]["throughput_flits_ns_sw"])
            di = 100 * (1 - r["itb_avg_throughput"] / u["itb"]["throughput_flits_ns_sw"])
            pe = PAPER_T4_EXPRESS_DROP.get(r["hotspot_percent"]) if r["network"] == "express" else None
            rows.append("| %s | %d %% | %.0f %% | %.0f %% | %s | %s |" % (
                desc[r["network"]], r["hotspot_percent"], du, di, "%d %%" % pe[0] if pe else "-",
                "%d %%" % pe[1] if pe else "-"))
        if rows:
            L += ["", "Throughput lost to the hotspot against uniform traffic (the uniform runs below; the paper gives "
                  "it for the torus with express channels):", "",
                  "| network | hotspot | UD ours | ITB ours | UD paper | ITB paper |", "|---|---|---|---|---|---|"] + rows
    L += ["", "Per location (flits/ns/switch):", "",
          "| network | hotspot | seed | hotspot host | UD | ITB | factor | UD saturation load | ITB saturation load | "
          "forward resets |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        bd = r["hotspot_link_bound"]
        ut, it = r["ud"]["throughput_flits_ns_sw"], r["itb"]["throughput_flits_ns_sw"]
        L.append("| %s | %d %% | %d | %d | %.4f%s | %.4f%s | %.2f | %s | %s | %d |" % (
            desc[r["network"]], r["hotspot_percent"], r["location_seed"], r["hotspot_host"],
            ut, "\\*" if ut > bd else "", it, "\\*" if it > bd else "", r["factor"],
            r["ud"]["saturation_load"], r["itb"]["saturation_load"],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"]))
    return L + [""]


# ------------------------------------------------------------------ Fig. 11: ITB pool occupancy

def md_fig11(data, md_dir):
    L = ["## Fig. 11: ITB pool occupancy (sec. 5.4.3)", "",
         "The 32-switch random network of Table 1 (topology seed 1), uniform traffic, %d-byte messages. 11a: UD and "
         "ITB latency sweeps (loads %s, extended as in Table 1; warm-up %d, window %d cycles). 11b/c: ITB alone at "
         "the paper's two loads (0.034, \"network is reaching saturation\", and 0.039, \"beyond saturation\") "
         "and, since our network saturates elsewhere, at our sweep's last unsaturated and first saturated loads; "
         "%s. Per NIC: the most in-transit packets held at once and their time-average over the window "
         "(`sanfab-sim` `itb.per_nic_avg_max_pkts`). The paper: \"No more than 15 packets (480 bytes without "
         "considering headers) are hold at the same time at a particular NIC\" near saturation, and fewer than "
         "3,000 beyond it over a two-million-packet run." % (
             data["message_size"], ", ".join("%g" % x for x in data["sweep_loads"]), data["warmup"], data["cycles"],
             ("warm-up %d and window %d cycles each" % (data["long_warmup"], data["long_cycles"])) if data["long_cycles"]
             else ("warm-up %d cycles and a window long enough for %d messages at the offered load (the paper's two "
                   "million packets)" % (data["long_warmup"], data["long_packets"]))), "",
         "| routes | throughput (flits/ns/switch) | saturation load | latency at 0.01 (ns) |", "|---|---|---|---|"]
    for rname in ("ud", "itb"):
        sw = data[rname]
        lat01 = next((q[3] for q in sw["points"] if abs(q[0] - 0.01) < 1e-9), None)
        L.append("| %s | %.4f | %s | %s |" % (rname.upper(), sw["throughput_flits_ns_sw"], sw["saturation_load"],
                                             "%.0f" % lat01 if lat01 is not None else "-"))
    L += ["", "| ITB run | offered | accepted | saturated | window (cycles) | messages delivered | latency (ns) | "
          "max packets at a NIC | bytes | largest time-average | mean time-average | dropped (pool full) |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in data["long_points"]:
        L.append("| %s | %g | %.4f | %s | %d | %d | %.0f | %d | %d | %.2f | %.3f | %d |" % (
            p["what"], p["load"], p["accepted_flits_ns_sw"], "yes" if p["saturated"] else "no",
            p["cycles"], p["delivered"], p["latency_ns_avg"], p["pool_max_pkts"],
            p["pool_max_bytes"], p["pool_avg_pkts_max"], p["pool_avg_pkts_mean"], p["lost_itb_pool"]))
    if data["plots"]:
        L += [""] + ["![%s](%s)" % (os.path.basename(p), os.path.relpath(os.path.join(ROOT, p), md_dir))
                     for p in data["plots"]]
    return L + [""]


# ------------------------------------------------------------------ the page

NOTES_FILE = os.path.join(ROOT, "docs", "experiments-notes.md")


def write_md(path, a, found, missing):
    """The page from the experiments' JSON of this mode (`found`: [(name, data)], in page order)."""
    notes = []
    if os.path.exists(NOTES_FILE):
        with open(NOTES_FILE) as f:
            notes = f.read().splitlines() + [""]
    L = ["# Experiments: [Flich et al. 2002](references.md#flich-et-al-2002) on the network simulator%s" % (": full run" if a.full else ""), "",
         "Generated by `scripts/experiments.py --paper 000%s` from `%s/*.json`; do not edit by hand. Seed 001 (the VC "
         "network) has its own page: [experiments-seed001%s.md](experiments-seed001%s.md)." % (
             " --full" if a.full else "", os.path.relpath(a.out_dir, ROOT), "-full" if a.full else "",
             "-full" if a.full else ""), "",
         "Seed 004 (the Maestro network of switch boxes) has its own page: [experiments-seed004%s.md](experiments-seed004%s.md)%s." % (
             "-full" if a.full else "", "-full" if a.full else "",
             "" if a.full else " (full: [experiments-seed004-full.md](experiments-seed004-full.md))"), ""]
    if a.full:
        L += ["**Full run** (`scripts/experiments.py --full`, not part of `make test`): 8/16/32/64 switches, %d random "
              "topologies per size, %s-byte messages, warm-up %d and window %d cycles per point (Table 2: %d + %d); "
              "Table 4 with %d hotspot locations per case, Fig. 11 with windows of the paper's two million messages. Results "
              "go to `reports/experiments/full/`, this page and `docs/exp-full-*.png`; the reduced run "
              "(`make experiments`, [experiments.md](experiments.md)) never writes them. Each experiment's JSON "
              "records its wall-clock and CPU seconds (`seconds`, `cpu_seconds`: user + system of the simulator "
              "processes). `--full --only NAME` reruns one experiment and rebuilds this page from all the JSON "
              "present; `--page` only rebuilds it." % (
                  a.topologies, "/".join(str(m) for m in a.msgs), a.warmup, a.cycles, a.t2_warmup, a.t2_cycles,
                  dict(found).get("table4", {}).get("locations", a.t4_locations)), ""]
    else:
        L += ["**Reduced run** (the `make experiments` default and the `experiments` step of `make test`, which writes "
              "under `build/experiments/`): %s switches, %d random topologies per size, %s-byte messages (Table 2 also "
              "%s B), short windows; Table 4 with %d hotspot location%s per case; Fig. 11 with %d-cycle windows. "
              "The full set (8/16/32/64 switches, 10 topologies, 32/512/1024 B, longer windows, ten hotspot "
              "locations) is `scripts/experiments.py --full`, which writes its own files "
              "([experiments-full.md](experiments-full.md), `reports/experiments/full/`)." % (
                  "/".join(str(s) for s in a.sizes), a.topologies, "/".join(str(m) for m in a.msgs),
                  "/".join(str(m) for m in a.t2_msgs), dict(found).get("table4", {}).get("locations", a.t4_locations),
                  "" if dict(found).get("table4", {}).get("locations", a.t4_locations) == 1 else "s",
                  a.f11_cycles), ""]
    if missing:
        L += ["Not in this page yet (no JSON of this mode): %s." % ", ".join(missing), ""]
    L += D.checks_md(found)
    by_name = dict(found)
    md_dir = os.path.dirname(os.path.abspath(path))
    for name, data in found:
        if name == "table4":
            L += md_table4(data, md_dir, by_name.get("regular"))
        else:
            L += MD[name](data, md_dir)
    L += notes
    L += ["Not yet run here (issue 8): bit-reversal and local traffic on the regular topologies (sec. 5.5.2 gives "
          "them in the text), the link maps of the express torus and of hotspot traffic (Figs. 15-17).", ""]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(L))


MD = {"table1": md_table1, "table2": md_table2, "table3": md_table3, "fig11": md_fig11, "regular": md_regular}
