"""sanfab benchmarks (scripts/bench.py), the MLC's page: docs/mlc-perf.md and its plots (docs/mlc-*.png) from the
records of block "mlc" in reports/bench.json, beside the paper's numbers (Yamagiwa et al. 2000, Figs. 8-11); and
the MLC's step-speed lines docs/bench.md shares."""
import os
import types

from bench_runs import ROOT

MLC_STEP_NS = 20.0      # the paper's MLC runs at 50 MHz (Yamagiwa et al. 2000, sec. 3.2)
MLC_MBYTES = 25.0       # its 4-bit link: 200 Mbit/s = 25 MB/s
# The paper's numbers for Figs. 8-11. The figures themselves are not in the seed text
# (../shared/seeds/004_a2591f7fa177cbdb.txt): only what the text says about them, quoted here with
# where it is; docs/mlc-perf.md lists them and plots them beside ours.
MLC_PAPER = {
    "pingpong_max_mbytes": (20.0, "sec. 4.1.1: 'The maximal throughput is 20 Mbytes/sec, (i.e. 160 Mbps) ... up to "
                                  "80% of 200-Mbps IEEE1394PHY's peak performance' (Fig. 9)"),
    "pingping_mbytes": (10.0, "sec. 4.1.1: 'PingPing communication achieved 10-Mbyte/sec throughput, equal to 50% "
                              "of the Ping-Pong performance' (the worse of the two NIs)"),
    "rdma_1500_frac": (0.68, "sec. 5.3: a 1500-byte remote-DMA transfer: 'Maestro's throughput is ... 68% of its "
                             "peak performance'"),
    "nisw_16_us": (1.78, "Table 2: Maestro (16 bytes), NI-SW latency 1.78 usec (sender NI to switch box, one link)"),
    "arb_spread_us": (1.12, "sec. 4.1.1 (Fig. 8): t1 - t4, the maximal minus the minimal link-arbitration time, "
                            "1.12 usec"),
    "sp64_sp16_thr": (1.6, "sec. 4.2: 'a 64-byte packet is transferred at 1.6 times higher throughput than a "
                           "16-byte packet' (Fig. 10)"),
    "sp64_sp16_minlat": (3.0, "sec. 4.2: '... while its minimal latency is three times larger' (Fig. 10)"),
    "fig11_max_diff_mbytes": (8.0, "sec. 4.3: 'the pipelined transfer performs at maximum 8 Mbytes/sec faster than "
                                   "the conventional transfer' (Fig. 11, 16 B .. 2 KB)"),
}




def mlc_series(records, what, mode):
    """The points of one MLC (what, mode) series, by size; [] if absent."""
    r = next((r for r in records if r.get("block") == "mlc" and r["what"] == what and r.get("test") == mode), None)
    return r["points"] if r else []


def mlc_step_md(m):
    """The MLC's step-call speed (mlc_bench --speed) and which figure the 5x target is judged on (lines, for
    docs/bench.md and docs/mlc-perf.md)."""
    st = {r["what"]: r for r in m if r.get("test") == "random-replay"}
    wr = {r["what"]: r for r in m if r.get("test") == "random"}
    if "model" not in st or "rtl" not in st:
        return []
    ratio = st["model"]["cycles_per_s"] / st["rtl"]["cycles_per_s"]
    L = ["`mlc_bench --mode lockstep --speed`: the same run's stimulus (every step's inputs of the two model ends and",
         "of the RTL pair) replayed into fresh models and a fresh RTL pair, only the step calls timed (two model ends per",
         "step count as one step, as the RTL pair's one edge), every 64th step's outputs checked against the run's;",
         "fastest of %d each:" % st["model"].get("runs", 1), "",
         "| what | steps | seconds | steps/s | vs RTL |", "|---|---|---|---|---|"]
    for w in ("model", "rtl"):
        r = st[w]
        L.append("| %s (step calls only) | %d | %.3f | %.0f | %.2fx |" % (w, r["cycles"], r["seconds"], r["cycles_per_s"],
                                                                      r["cycles_per_s"] / st["rtl"]["cycles_per_s"]))
    L.append("")
    L.append("Target: the model at least 5x faster than the Verilated RTL, judged on the step calls (as for the crossbar")
    L.append("and the VC switch) — measured **%.2fx** (%s)." % (ratio, "met" if ratio >= 5 else "not met"))
    if "model" in wr and "rtl" in wr:
        wratio = wr["model"]["cycles_per_s"] / wr["rtl"]["cycles_per_s"]
        L.append("The whole runs above (the bench's host drivers, stimulus, link models and checks included, which dominate")
        L.append("the model mode) give %.2fx: %.0f against %.0f cycles/s." % (wratio, wr["model"]["cycles_per_s"],
                                                                              wr["rtl"]["cycles_per_s"]))
    L.append("")
    return L


def mlc_sizes_axis(ax):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes, headers included)")
    ax.grid(True, which="both", alpha=0.3)


def mlc_save(plt, fig, name):
    """Write a finished figure to docs/NAME (no Software metadata, so the bytes do not change with the
    matplotlib version's name) and close it; returns the path."""
    fn = os.path.join(ROOT, "docs", name)
    fig.savefig(fn, dpi=80, metadata={"Software": None})
    plt.close(fig)
    return fn


def mlc_fig9_png(plt, records):
    """docs/mlc-fig9.png: ping-pong and ping-ping throughput beside the paper's points (None: no series)."""
    pp, pi = mlc_series(records, "pingpong", "burst"), mlc_series(records, "pingping", "burst")
    if pp:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        ax.plot([p["size"] for p in pp], [100 * p["throughput_frac"] for p in pp], "o-", label="ours: ping-pong")
        ax.plot([p["size"] for p in pi], [100 * p["throughput_frac"] for p in pi], "s-", label="ours: ping-ping (worse node)")
        ax.axhline(100 * MLC_PAPER["pingpong_max_mbytes"][0] / MLC_MBYTES, color="C0", ls="--",
                   label="paper: ping-pong maximum, 20 MB/s")
        ax.axhline(100 * MLC_PAPER["pingping_mbytes"][0] / MLC_MBYTES, color="C1", ls="--",
                   label="paper: ping-ping, 10 MB/s")
        ax.plot([1500], [100 * MLC_PAPER["rdma_1500_frac"][0]], "k*", ms=12, label="paper: 1500-byte remote DMA, 68 %")
        mlc_sizes_axis(ax)
        ax.set_ylabel("throughput, % of the raw link rate")
        sec = ax.secondary_yaxis("right", functions=(lambda y: y * MLC_MBYTES / 100, lambda y: y * 100 / MLC_MBYTES))
        sec.set_ylabel("MB/s at 50 MHz, 4-bit link")
        ax.set_ylim(0, 100)
        ax.set_title("MLC ping-pong and ping-ping (Fig. 9): message + 16-byte acknowledgement")
        ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        return mlc_save(plt, fig, "mlc-fig9.png")


def mlc_fig10_png(plt, records):
    """docs/mlc-fig10.png: Network Burst against single-packet transfer, and the 64 B / 16 B ratios."""
    modes = [("burst", "Network Burst", "C0"), ("sp64", "single 64 B", "C1"), ("sp32", "single 32 B", "C2"),
             ("sp16", "single 16 B", "C3")]
    if mlc_series(records, "pingpong", "sp16"):
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4.2), gridspec_kw={"width_ratios": [3, 2]})
        for mode, label, col in modes:
            s = [p for p in mlc_series(records, "pingpong", mode) if p["size"] <= 8192]
            ax.plot([p["size"] for p in s], [100 * p["throughput_frac"] for p in s], "o-", color=col, label=label)
            if mode != "burst":
                s = mlc_series(records, "pingpong", mode + "-padded")
                ax.plot([p["size"] for p in s], [100 * p["throughput_frac"] for p in s], "x:", color=col,
                        label=label + ", padded")
        mlc_sizes_axis(ax)
        ax.set_ylabel("ping-pong throughput, % of the link")
        ax.set_ylim(0, 100)
        ax.legend(fontsize=7, loc="upper left")
        ax.set_title("Network Burst vs single-packet (Fig. 10)")
        r = mlc_fig10_ratios(records)
        labels = ["throughput\n64 B / 16 B", "min. latency\n64 B / 16 B"]
        x = range(len(labels))
        bx.bar([i - 0.27 for i in x], [r["thr"], r["lat"]], 0.27, label="ours (MLC: short remainder)")
        bx.bar([i for i in x], [r["thr_pad"], r["lat_pad"]], 0.27, label="ours, padded packets")
        bx.bar([i + 0.27 for i in x], [MLC_PAPER["sp64_sp16_thr"][0], MLC_PAPER["sp64_sp16_minlat"][0]], 0.27,
               label="paper (text)")
        bx.set_xticks(list(x))
        bx.set_xticklabels(labels)
        bx.set_ylabel("ratio")
        bx.legend(fontsize=7)
        bx.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        return mlc_save(plt, fig, "mlc-fig10.png")


def mlc_fig11_png(plt, records):
    """docs/mlc-fig11.png: pipelined against message-based transfer, latency and throughput."""
    pp = mlc_series(records, "pingpong", "burst")
    mb = mlc_series(records, "pingpong", "burst-msg")
    if mb:
        pl = [p for p in pp if p["size"] <= mb[-1]["size"]]
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4.2))
        ax.plot([p["size"] for p in pl], [p["paper_rt_us"] for p in pl], "o-", label="pipelined")
        ax.plot([p["size"] for p in mb], [p["paper_rt_us"] for p in mb], "s-", label="message-based")
        mlc_sizes_axis(ax)
        ax.set_yscale("log")
        ax.set_ylabel("remote-DMA latency (us at 50 MHz)")
        ax.set_title("Pipelined vs message-based (Fig. 11): latency")
        ax.legend(fontsize=8)
        bx.plot([p["size"] for p in pl], [p["paper_mbytes_s"] for p in pl], "o-", label="pipelined")
        bx.plot([p["size"] for p in mb], [p["paper_mbytes_s"] for p in mb], "s-", label="message-based")
        bx.plot([p["size"] for p in mb], [a["paper_mbytes_s"] - b["paper_mbytes_s"] for a, b in zip(pl, mb)], "^-",
                label="difference")
        bx.axhline(MLC_PAPER["fig11_max_diff_mbytes"][0], color="k", ls="--", label="paper: largest difference, 8 MB/s")
        mlc_sizes_axis(bx)
        bx.set_ylabel("throughput (MB/s at 50 MHz, 4-bit link)")
        bx.set_title("throughput")
        bx.legend(fontsize=8)
        fig.tight_layout()
        return mlc_save(plt, fig, "mlc-fig11.png")


def mlc_efficiency_png(plt, records):
    """docs/mlc-efficiency.png: the measured one-way efficiency against the formula."""
    ef = [r for r in records if r.get("block") == "mlc" and r["what"] == "efficiency"]
    if ef:
        fig, ax = plt.subplots(figsize=(8, 3.8))
        lab = ["W%d T%d D%d" % (r["params"]["LINK_W"], r["params"]["TURN"], r["params"]["LINK_DELAY"]) for r in ef]
        x = range(len(ef))
        ax.bar([i - 0.2 for i in x], [100 * r["efficiency"] for r in ef], 0.4, label="measured (units accepted)")
        ax.bar([i + 0.2 for i in x], [100 * r["formula"] for r in ef], 0.4, label="docs/mlc.md formula")
        ax.axhline(95, color="k", ls="--", label="target 95 %")
        ax.set_xticks(list(x))
        ax.set_xticklabels(lab, fontsize=8)
        ax.set_ylim(90, 97)
        ax.set_ylabel("% of the raw link rate")
        ax.set_title("One-way long-message efficiency (W LINK_W, T TURN, D LINK_DELAY)")
        ax.legend(fontsize=8, loc="lower left")
        fig.tight_layout()
        return mlc_save(plt, fig, "mlc-efficiency.png")


def mlc_plots(records):
    """docs/mlc-fig9.png, mlc-fig10.png, mlc-fig11.png, mlc-efficiency.png from the MLC records (matplotlib);
    the file names written, [] if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench: matplotlib missing (make deps): no MLC plots")
        return []
    out = []
    for plot in (mlc_fig9_png, mlc_fig10_png, mlc_fig11_png, mlc_efficiency_png):
        fn = plot(plt, records)
        if fn:
            out.append(fn)
    return out


def mlc_fig10_ratios(records):
    """Fig. 10's two ratios, ours: 64-byte over 16-byte single-packet throughput (largest common size) and
    minimal round-trip latency (16-byte message), as the MLC sends them and with padded packets."""
    def at(mode, size):
        return next(p for p in mlc_series(records, "pingpong", mode) if p["size"] == size)
    big = max(p["size"] for p in mlc_series(records, "pingpong", "sp16"))
    return {"size": big,
            "thr": at("sp64", big)["throughput_frac"] / at("sp16", big)["throughput_frac"],
            "thr_pad": at("sp64-padded", big)["throughput_frac"] / at("sp16-padded", big)["throughput_frac"],
            "lat": at("sp64", 16)["rt_steps_mean"] / at("sp16", 16)["rt_steps_mean"],
            "lat_pad": at("sp64-padded", 16)["rt_steps_mean"] / at("sp16-padded", 16)["rt_steps_mean"],
            "lat_ow": at("sp64", 16)["oneway_steps_mean"] / at("sp16", 16)["oneway_steps_mean"],
            "lat_ow_pad": at("sp64-padded", 16)["oneway_steps_mean"] / at("sp16-padded", 16)["oneway_steps_mean"]}


def pct(x):
    return "%.2f %%" % (100 * x)


def mlc_intro_md(c):
    """The page's head and how the MLC is measured."""
    A, ser, P = c.A, c.ser, c.P
    A("# Maestro Link Controller: performance beside the paper ([Yamagiwa et al. 2000](references.md#yamagiwa-et-al-2000), Figs. 8-11)")
    A("")
    A("Generated by `make bench` (`scripts/bench.py`, or `scripts/bench.py --only mlc`) from the records of block `mlc` in")
    A("`reports/bench.json`; do not edit by hand. The measurements are made by `tb/mlc/mlc_perf.c` (`--help`) on the C")
    A("model, which the RTL matches cycle by cycle (`tb/mlc/mlc_bench.c`, docs/verification.md); the contract is")
    A("[mlc.md](mlc.md).")
    A("")
    A("## How it is measured")
    A("")
    A("Two model MLCs, the master and the slave, joined by the link model, each with the host driver `sw/sim/mlc_host.c`")
    A("(FIFO flow control: read a status register, then move at most that many bytes), parameters %s, both ends"
      % ", ".join("%s %s" % kv for kv in P.items() if kv[0] not in ("cfg", "pad_units")))
    A("configured alike (register 16). Seed %d, %d round trips per point up to 1 KB and fewer above (at least 3;"
      % (ser["seed"], ser["reps"]))
    A("each point's count is in `reports/bench.json`); before each one the sender waits a random 0..63 steps, so the")
    A("message meets the null-frame exchange at a random phase. Every message is checked on arrival.")
    A("")
    A("- **Message size** *S*: the whole message as it sits in the FIFO, headers included (docs/mlc.md, Messages):")
    A("  16 B is a Type0 message, *S* ≥ 32 B a Type1 message of *S*/16 units. All traffic on channel 0.")
    A("- **Round trip** (the paper's *remote-DMA latency*, sec. 4): from the step of the sender host's first write to")
    A("  the step of its last read of the receiver's 16-byte Type0 acknowledgement, both counted; the receiver's host")
    A("  writes the acknowledgement as soon as it has read the whole message. **One-way**: from the first write to the")
    A("  receiver host's last read of the message.")
    A("- **Throughput** = *S* / round trip, as a fraction of the raw link rate (`LINK_W` bits per step). **Ping-ping**:")
    A("  both nodes send *S* at once and acknowledge each other; the worse node's round trip counts (as in the paper).")
    A("- **The paper's units**: its MLC runs at 50 MHz on a 4-bit link (sec. 3.2, Table 1), so 1 step = 20 ns and")
    A("  the raw rate is 200 Mbit/s = 25 MB/s (MB = 10^6 bytes, as the paper's 20 MB/s = 160 Mbit/s).")
    A("- **What differs from the paper's set-up.** The paper measures host to host through PCI DMA, the NI's")
    A("  PowerPC, and the switch box (two links and the SB's DMA in every path, sec. 4); here two MLCs face each")
    A("  other and each host moves one 16-bit word per step in each direction (800 Mbit/s at 50 MHz, four times the")
    A("  link) and reacts in the next step. So our absolute throughputs are higher and our latencies shorter; what")
    A("  carries over is the link protocol's share, hence the comparison of orderings and ratios below.")
    A("")


def mlc_paper_md(c):
    """The paper's numbers for Figs. 8-11, as its text gives them."""
    A = c.A
    A("## The paper's numbers")
    A("")
    A("Figs. 9, 10 and 11 are not in the seed text (`../shared/seeds/004_a2591f7fa177cbdb.txt`): only their captions")
    A("and what the text says about them. No curve could be read off; these are the points the text gives, as")
    A("stated (MB/s converted to a fraction of 25 MB/s where we plot them):")
    A("")
    A("| quantity | paper | where in the seed text |")
    A("|---|---|---|")
    rows = [("ping-pong, maximum throughput (Fig. 9)", "20 MB/s = 80 %", "pingpong_max_mbytes"),
            ("ping-ping throughput, worse NI (Fig. 9 text)", "10 MB/s = 40 % (50 % of ping-pong)", "pingping_mbytes"),
            ("1500-byte remote-DMA throughput", "68 % of the peak", "rdma_1500_frac"),
            ("one link, 16 bytes, NI to switch", "1.78 us", "nisw_16_us"),
            ("link-arbitration spread t1 - t4 (Fig. 8)", "1.12 us", "arb_spread_us"),
            ("single packet 64 B / 16 B, throughput (Fig. 10)", "1.6x", "sp64_sp16_thr"),
            ("single packet 64 B / 16 B, minimal latency (Fig. 10)", "3x", "sp64_sp16_minlat"),
            ("pipelined minus message-based, largest (Fig. 11)", "8 MB/s", "fig11_max_diff_mbytes")]
    for q, v, k in rows:
        A("| %s | %s | %s |" % (q, v, MLC_PAPER[k][1].replace("|", "/")))
    A("")
    A("Besides these, the text gives orderings: Network Burst beats single-packet transfer \"in any cases\", larger")
    A("single packets give higher throughput (sec. 4.2); pipelined and message-based transfer differ little at 16 B,")
    A("and pipelined has the lower latency and higher throughput as the message grows (sec. 4.3).")
    A("")


def mlc_fig9_md(c):
    """Fig. 9: ping-pong and ping-ping."""
    pp, A, names, pi, G, F = c.pp, c.A, c.names, c.pi, c.G, c.F
    A("## Ping-pong and ping-ping (Fig. 9)")
    A("")
    A("Network Burst, pipelined (configuration 0).")
    A("")
    A("| size (B) | one-way (steps) | round trip (steps) | ping-pong, % link | MB/s at 50 MHz | ping-ping round trip | ping-ping, % link | ping-ping / ping-pong |")
    A("|---|---|---|---|---|---|---|---|")
    pim = {p["size"]: p for p in pi}
    for p in pp:
        q = pim.get(p["size"])
        A("| %d | %.1f | %.1f | %.2f | %.2f | %s | %s | %s |" % (
            p["size"], p["oneway_steps_mean"], p["rt_steps_mean"], 100 * p["throughput_frac"], p["paper_mbytes_s"],
            "%.1f" % q["rt_steps_mean"] if q else "", "%.2f" % (100 * q["throughput_frac"]) if q else "",
            "%.3f" % (q["throughput_frac"] / p["throughput_frac"]) if q else ""))
    A("")
    if "mlc-fig9.png" in names:
        A("![ping-pong and ping-ping throughput against message size, with the paper's points](mlc-fig9.png)")
        A("")
    big, big_i = pp[-1], pi[-1] if pi else None
    mono = all(b["throughput_frac"] >= a["throughput_frac"] - 0.005 for a, b in zip(pp, pp[1:]))
    above = all(pim[p["size"]]["throughput_frac"] < p["throughput_frac"] for p in pp if p["size"] in pim)
    ratio = big_i["throughput_frac"] / big["throughput_frac"] if big_i else 0
    ratio_same = [pim[p["size"]]["throughput_frac"] / p["throughput_frac"] for p in pp if p["size"] in pim]
    near1500 = [p for p in pp if p["size"] in (1024, 2048)]
    fig9_ok = mono and above and 0.4 <= ratio <= 0.6
    A("**Ordering.** The paper: ping-pong throughput rises with the message size to 20 MB/s (80 %); ping-ping reaches")
    A("half of it. Ours: ping-pong rises %s with the size, to %s (%.2f MB/s) at %d B; ping-ping is below ping-pong at"
      % ("monotonically" if mono else "**not monotonically**", pct(big["throughput_frac"]), big["paper_mbytes_s"],
         big["size"]))
    A("%s size, and their ratio goes from %.3f at %d B to %.3f at %d B — the paper's one half. **%s.**"
      % ("every" if above else "**not every**", ratio_same[0], pp[0]["size"], ratio, big["size"],
         "Reproduced" if fig9_ok else "Not reproduced"))
    A("")
    A("Why half: the link is half duplex and turns round after every frame, so with both ends sending, each gets every")
    A("other frame (fair link arbitration, docs/mlc.md rule 3): per period one full frame each way, `F(15)` + `F(15)` +")
    A("2`G` = %d steps for 480 nibbles each way, against `F(15)` + `F(0)` + 2`G` = %d steps one way: %.3f of the"
      % (2 * F(15) + 2 * G, F(15) + F(0) + 2 * G, (F(15) + F(0) + 2 * G) / (2 * F(15) + 2 * G)))
    A("one-way rate, which the measured ratio approaches as the acknowledgements' share shrinks.")
    A("")
    A("Where the values differ: ours reaches %s against the paper's 80 %%, and %s at %d B and %s at %d B against the"
      % (pct(big["throughput_frac"]), pct(near1500[0]["throughput_frac"]) if near1500 else "?",
         near1500[0]["size"] if near1500 else 0, pct(near1500[-1]["throughput_frac"]) if near1500 else "?",
         near1500[-1]["size"] if near1500 else 0))
    A("paper's 68 % at 1500 B. The paper's path has two links and the switch box's store-and-forward DMA between them")
    A("and its hosts go through PCI DMA (sec. 4), none of which is here; our limit is the link protocol alone")
    A("(section *Long messages* below).")
    A("")
    A("Latency of one 16-byte message, one link: %.1f steps on average (%d at the least) from the first host write to"
      % (pp[0]["oneway_steps_mean"], pp[0]["oneway_steps_min"]))
    A("the last host read (8 + 8 of them the hosts' writing and reading), %.2f us at 50 MHz, against the paper's"
      % pp[0]["paper_oneway_us"])
    A("1.78 us from the sender NI to the switch box (Table 2, link layer). The spread from waiting for the link (a")
    A("message that just misses a frame start waits one null-frame period, `F(0)` + `F(0)` + 2`G` = %d steps = %.2f us)"
      % (2 * F(0) + 2 * G, (2 * F(0) + 2 * G) * MLC_STEP_NS / 1000))
    A("is smaller than the paper's 1.12 us (t1 - t4, %.0f cycles at 50 MHz), although the paper's null frame is even"
      % (1120 / MLC_STEP_NS))
    A("shorter (3 nibbles against our 8): most of its spread must be the IEEE 1394 PHY's bus arbitration at every")
    A("turn-round, which our link does not have (a turn-round is `G` = %d steps here)." % G)
    A("")
    c.big, c.fig9_ok, c.ratio = big, fig9_ok, ratio


def mlc_fig10_md(c):
    """Fig. 10: Network Burst against single-packet transfer."""
    A, names, records, lw, G, F = c.A, c.names, c.records, c.lw, c.G, c.F
    A("## Network Burst against single-packet transfer (Fig. 10)")
    A("")
    A("Ping-pong throughput, % of the link, pipelined. *single n B*: configuration `SP` = 1/2/3, at most 1/2/4 units")
    A("per frame, a shorter remainder sent as it is (the MLC, docs/mlc.md rule 5). *padded*: the same, but the")
    A("hosts fill every message (and acknowledgement) up to whole packets with pad units (Type0, dropped by the")
    A("receiving host) — the paper's conventional transfer, which pads.")
    A("")
    sp_modes = ["burst", "sp64", "sp32", "sp16", "sp64-padded", "sp32-padded", "sp16-padded"]
    S = {k: {p["size"]: p for p in mlc_series(records, "pingpong", k)} for k in sp_modes}
    sizes = sorted(S["sp16"])
    A("| size (B) | Network Burst | single 64 B | single 32 B | single 16 B | 64 B padded | 32 B padded | 16 B padded |")
    A("|---|---|---|---|---|---|---|---|")
    for s in sizes:
        A("| %d | %s |" % (s, " | ".join("%.2f" % (100 * S[k][s]["throughput_frac"]) if s in S[k] else "" for k in sp_modes)))
    A("")
    A("Round trip of a 16-byte message (steps): %s."
      % ", ".join("%s %.1f" % (k, S[k][16]["rt_steps_mean"]) for k in sp_modes if 16 in S[k]))
    A("")
    if "mlc-fig10.png" in names:
        A("![Network Burst against single-packet transfer; 64 B / 16 B ratios beside the paper's](mlc-fig10.png)")
        A("")
    r = mlc_fig10_ratios(records)
    tol = 0.01
    order_sp = [s for s in sizes if S["sp64"][s]["throughput_frac"] > S["sp32"][s]["throughput_frac"] + tol and
                S["sp32"][s]["throughput_frac"] > S["sp16"][s]["throughput_frac"] + tol]
    burst_best = [s for s in sizes if all(S["burst"][s]["throughput_frac"] >= S[k][s]["throughput_frac"] - tol
                                          for k in sp_modes[1:] if s in S[k])]
    burst_strict = [s for s in sizes if all(S["burst"][s]["throughput_frac"] > S[k][s]["throughput_frac"] + tol
                                            for k in sp_modes[1:] if s in S[k])]
    A("**Ordering.** The paper: the larger the packet the higher the throughput, and Network Burst above every")
    A("single-packet size in any case. Ours: single 64 B > 32 B > 16 B, each by more than %g percentage point, at %s;"
      % (100 * tol, ("every size from %d B" % order_sp[0]) if order_sp and order_sp == [s for s in sizes if s >= order_sp[0]]
                    else ("sizes %s" % ", ".join(map(str, order_sp)) if order_sp else "no size")))
    A("Network Burst is the best or within %g"
      % (100 * tol))
    A("percentage point of it at %s, and above all of them by more than %g from %s. Below that the"
      % ("every size" if burst_best == sizes else "sizes " + ", ".join(map(str, burst_best)), 100 * tol,
         ("%d B" % burst_strict[0]) if burst_strict else "no size"))
    A("curves meet: a message of *u* units goes in one frame in every mode whose `cap` is at least *u*, so at 16 B")
    A("(one unit) every mode sends the same frame and at 32 B all but single 16 B do; the differences there are the")
    A("random phase against the null frames.")
    caps = {"sp16": 1, "sp32": 2, "sp64": 4}
    # sizes where a single-packet mode that sends other frames than Network Burst (more units than its cap)
    # comes out above it
    beaten = [s_ for s_ in sizes if any(s_ // 16 > caps[k.split("-")[0]] and s_ in S[k] and
                                        S[k][s_]["throughput_frac"] > S["burst"][s_]["throughput_frac"]
                                        for k in sp_modes[1:])]
    if beaten:
        A("A single-packet mode sending other frames than Network Burst comes out (slightly) above it at %s B: the"
          % ", ".join(map(str, beaten)))
        A("MLC delivers frame by frame")
        A("(a unit is readable once its frame's check has passed, docs/mlc.md rule 5), so the receiving host reads")
        A("Network Burst's one long frame only after it ends, while smaller frames let it read the first units")
        A("while the rest are on the link; from a few frames' worth of message on, the smaller frames' overhead wins.")
    A("**%s** (the paper's curves presumably separate already at 16 B because it pads, see below)."
      % ("Reproduced" if burst_best == sizes and order_sp else "Not reproduced"))
    A("")
    A("Ratios, 64 B over 16 B single packets (paper: 1.6x throughput, 3x minimal latency):")
    A("")
    A("| ratio | ours (MLC) | ours, padded | paper |")
    A("|---|---|---|---|")
    A("| throughput at %d B | %.2f | %.2f | 1.6 |" % (r["size"], r["thr"], r["thr_pad"]))
    A("| minimal latency: round trip of a 16-byte message | %.2f | %.2f | 3 |" % (r["lat"], r["lat_pad"]))
    A("| minimal latency: one way | %.2f | %.2f | |" % (r["lat_ow"], r["lat_ow_pad"]))
    A("")
    eff = {n: 128 * n / (lw * (F(n) + F(0) + 2 * G)) for n in (1, 2, 4, 15)}
    d1 = 128 / lw                                   # steps of one unit's nibbles
    R = MLC_PAPER["sp64_sp16_thr"][0]
    O = 4 * d1 * (R - 1) / (4 - R)                  # overhead per period that gives the paper's ratio
    A("Throughput: with one end sending, a period carries *n* units in `F(n)` + `F(0)` + 2`G` steps, so the MLC's")
    A("ceiling is %s for 1 unit, %s for 2, %s for 4 and %s for 15 (Network Burst): 64 B over 16 B is %.2f at most,"
      % (pct(eff[1]), pct(eff[2]), pct(eff[4]), pct(eff[15]), eff[4] / eff[1]))
    A("which the measured %.2f approaches. The paper's 1.6 needs a larger fixed cost per period: with *O* steps of"
      % r["thr"])
    A("overhead per period, (4*%d/(4*%d + O)) / (%d/(%d + O)) = %.1f gives *O* = %.0f steps (%.2f us at 50 MHz),"
      % (d1, d1, d1, d1, R, O, O * MLC_STEP_NS / 1000))
    A("where ours is %d (the data frame's preamble and check, the null frame, two turn-rounds of %d): comparable to"
      % (F(1) - d1 + F(0) + 2 * G, G))
    A("the paper's own 1.12 us arbitration spread, so the IEEE 1394 PHY's bus arbitration at every turn-round is the")
    A("likely difference. Minimal latency: the MLC sends a short remainder instead of padding (docs/mlc.md, Open")
    A("questions), so a 16-byte message is one unit in every mode and the ratio is about 1; padded, the 64-byte packet")
    A("is a frame of `F(4)` = %d steps against `F(1)` = %d, and the round trip (which pads the acknowledgement too)"
      % (F(4), F(1)))
    A("grows by %.2fx against the paper's 3x; the host's 8 + 8 steps of writing and reading and the wait for the link"
      % r["lat_pad"])
    A("are the same in both and dilute the frame's ratio of %.2f." % (F(4) / F(1)))
    A("")
    c.burst_best, c.eff, c.order_sp, c.r, c.sizes, c.tol = burst_best, eff, order_sp, r, sizes, tol


def mlc_fig11_md(c):
    """Fig. 11: pipelined against message-based transfer."""
    mb, A, names, pp, G, F, eff, lw = c.mb, c.A, c.names, c.pp, c.G, c.F, c.eff, c.lw
    A("## Pipelined against message-based transfer (Fig. 11)")
    A("")
    A("Network Burst; message-based = configuration `MSG` = 1 at both ends (a unit is sent only when its message is")
    A("wholly in the send FIFO, and readable only when wholly in the receive FIFO), 16 B up to the FIFO size.")
    A("")
    A("| size (B) | pipelined one-way (us) | pipelined round trip (us) | pipelined MB/s | message-based one-way (us) | message-based round trip (us) | message-based MB/s | difference MB/s |")
    A("|---|---|---|---|---|---|---|---|")
    ppm = {p["size"]: p for p in pp}
    diffs = []
    for q in mb:
        p = ppm[q["size"]]
        d = p["paper_mbytes_s"] - q["paper_mbytes_s"]
        diffs.append((d, q["size"]))
        A("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            q["size"], p["paper_oneway_us"], p["paper_rt_us"], p["paper_mbytes_s"], q["paper_oneway_us"],
            q["paper_rt_us"], q["paper_mbytes_s"], d))
    A("")
    if "mlc-fig11.png" in names:
        A("![pipelined against message-based transfer: latency and throughput](mlc-fig11.png)")
        A("")
    d16 = (ppm[16]["rt_steps_mean"] - mb[0]["rt_steps_mean"]) / mb[0]["rt_steps_mean"]
    wins = [q["size"] for q in mb if ppm[q["size"]]["rt_steps_mean"] < q["rt_steps_mean"]]
    grows = all(b[0] >= a[0] - 0.05 for a, b in zip(diffs, diffs[1:]))
    dmax = max(diffs)
    above16 = [q["size"] for q in mb if q["size"] > 16]
    big_wins = bool(above16) and all(s_ in wins for s_ in above16)
    fig11_ok = abs(d16) < 0.1 and big_wins and grows
    A("**Ordering.** The paper: little difference at 16 B; pipelined lower in latency and higher in throughput as the")
    A("message grows; the largest difference 8 MB/s. Ours: at 16 B the round trips differ by %+.1f %% (one unit:"
      % (100 * d16))
    A("the same frames, only the phase differs); pipelined has the shorter round trip at %s; the throughput"
      % ("every size from %d B" % above16[0] if big_wins else "sizes " + ", ".join(map(str, wins))))
    A("difference grows %s with the size to %.2f MB/s at %d B against the paper's 8 MB/s. **%s.**"
      % ("steadily" if grows else "**not steadily**", dmax[0], dmax[1], "Reproduced" if fig11_ok else "Not reproduced"))
    A("")
    per_unit = (F(15) + F(0) + 2 * G) / 15
    A("Why: message-based, the sender's host writes the whole message (8 steps a unit) before the first frame, and")
    A("the receiver's host reads it (8 steps a unit) only after the last; pipelined, both overlap the link. A long")
    A("message costs the link about (`F(15)` + `F(0)` + 2`G`)/15 = %.2f steps a unit, so message-based tends to"
      % per_unit)
    A("%.2f / (%.2f + 16) of the link = %s (%.2f MB/s), pipelined to %s (%.2f MB/s): a limit of %.2f MB/s apart."
      % (per_unit, per_unit, pct(128 / (lw * (per_unit + 16))),
         128 / (lw * (per_unit + 16)) * MLC_MBYTES, pct(eff[15]), eff[15] * MLC_MBYTES,
         (eff[15] - 128 / (lw * (per_unit + 16))) * MLC_MBYTES))
    A("Our host moves a word a step (four times the link); the paper's hosts copy through PCI DMA and the NI,")
    A("relatively slower, which widens the gap that pipelining hides — consistent with its larger 8 MB/s.")
    A("")
    c.d16, c.dmax, c.fig11_ok = d16, dmax, fig11_ok


def mlc_efficiency_md(c):
    """Long messages in one direction: the measured efficiency and where the rest goes."""
    A, names, m, lw, G, turn, ld, big = c.A, c.names, c.m, c.lw, c.G, c.turn, c.ld, c.big
    ef = [r for r in m if r["what"] == "efficiency"]
    A("## Long messages, one direction (docs/mlc.md, Efficiency)")
    A("")
    A("Network Burst, node 0's host keeps its send FIFO full (64 KB messages), node 1 sends only null frames. After")
    A("a warm-up, a window of whole periods between two of node 0's full-frame starts; **measured** = units node 1")
    A("accepted in it (its `rx_pkts` counter) × 128 bits / (window steps × `LINK_W`); *host* = bytes node 1's host read")
    A("in the same window. Formula: 480·4 / (`LINK_W`·(`F(15)` + `F(0)` + 2`G`)).")
    A("")
    A("| LINK_W | TURN | LINK_DELAY | G | periods | window (steps) | period (steps) | units | measured | host | formula | ≥ 95 % |")
    A("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for e in ef:
        p = e["params"]
        A("| %d | %d | %d | %d | %d | %d | %.2f | %d | %s | %s | %s | %s |" % (
            p["LINK_W"], p["TURN"], p["LINK_DELAY"], e["G"], e["periods"], e["window_steps"], e["period_steps"],
            e["units"], pct(e["efficiency"]), pct(e["efficiency_host"]), pct(e["formula"]),
            "yes" if e["efficiency"] >= 0.95 else "no"))
    A("")
    pred = [(e["params"]["LINK_W"] == 4 and e["G"] <= 4) or (e["params"]["LINK_W"] == 8 and e["G"] <= 2) for e in ef]
    A("The ≥ 95 %% target is for the defaults; docs/mlc.md says it holds while `G` ≤ 4 at `LINK_W` 4 and `G` = 2 at")
    A("`LINK_W` 8 (a turn-round does not shrink with a wider link), and the measured sets %s."
      % ("agree with that in every case" if all(p_ == (e["efficiency"] >= 0.95) for p_, e in zip(pred, ef))
         else "**do not all agree** with that"))
    A("")
    if "mlc-efficiency.png" in names:
        A("![measured one-way efficiency against the formula](mlc-efficiency.png)")
        A("")
    d = next((e for e in ef if e["params"]["LINK_W"] == lw and e["params"]["TURN"] == turn and
              e["params"]["LINK_DELAY"] == ld), None)
    if d:
        per = d["period_steps"]
        data = 480 * 4 / lw
        pre, chk, tr = 2 * 4 * 4 / lw, 2 * 4 * 4 / lw, 2 * G
        def exact_eq(e):   # units*128 / (window*LINK_W) == 480*4 / (LINK_W*(F15 + F0 + 2G)), in integers
            return e["units"] * 128 * (e["F15"] + e["F0"] + 2 * e["G"]) == 480 * 4 * e["window_steps"]
        exact = all(exact_eq(e) for e in ef)
        is_480_502 = d["units"] * 128 * 502 == 480 * d["window_steps"] * lw
        A("At the defaults the measured efficiency is **%s** (target ≥ 95 %%: %s), %s docs/mlc.md's 480/502. Every"
          % (pct(d["efficiency"]), "met" if d["efficiency"] >= 0.95 else "**missed**",
             "exactly" if is_480_502 else "**not** (a contradiction of docs/mlc.md)"))
        A("period measured %.2f steps; of them %.0f carry unit nibbles and %.2f are lost (%s of the link):"
          % (per, data, per - data, pct((per - data) / per)))
        A("")
        A("| cause | steps per period | share of the link |")
        A("|---|---|---|")
        A("| preambles: `NP`, `FLAGS`, `CR0`, `CR1` of the data frame and of the null frame, 4 + 4 nibbles | %.0f | %s |"
          % (pre, pct(pre / per)))
        A("| checks: the CRC-16 of both frames, 4 + 4 nibbles | %.0f | %s |" % (chk, pct(chk / per)))
        A("| turn-rounds: 2`G` = 2·(2 + `LINK_DELAY` + `TURN`) idle steps | %d | %s |" % (tr, pct(tr / per)))
        A("| sum | %.0f | %s |" % (pre + chk + tr, pct((pre + chk + tr) / per)))
        A("")
        A("Preambles + checks + turn-rounds = %.0f steps = the measured loss of %.2f steps: %s. Measured and formula"
          % (pre + chk + tr, per - data, "every lost cycle is accounted for" if abs(pre + chk + tr - (per - data)) < 1e-9
             else "**they differ** (report this)"))
        A("agree %s for the %d parameter sets above; the other end sent %d null and %d data frames in the default window."
          % ("exactly" if exact else "**not everywhere**", len(ef), d["other_end_null_frames"], d["other_end_data_frames"]))
        pf = 480 / (483 + 3 + 2 * G * lw / 4)
        A("Between the paper's frame (3 + 480 nibbles) and ours (8 + 480): `FLAGS` (the toggle and echo of the")
        A("acknowledgement) and the four check nibbles, which make a corrupted frame a resent one (docs/mlc.md, Frames);")
        A("the paper's frames with our turn-round would give 480 / (483 + 3 + 2`G`) = %s." % pct(pf))
        A("A whole transfer adds its start and its acknowledgement: the %d-byte ping-pong above moved %s one way"
          % (big["size"], pct(big["oneway_frac"])))
        A("(%s of the link counting the acknowledgement's round trip)." % pct(big["throughput_frac"]))
        A("")
    c.d = d


def mlc_speed_md(c):
    """The speed of the MLC's model, RTL and lockstep bench."""
    m, A, L = c.m, c.A, c.L
    sp = {r["what"]: r for r in m if r.get("test") == "random"}
    if sp:
        A("## Speed of the model, the RTL and the lockstep bench")
        A("")
        A("`mlc_bench --mode model|rtl|lockstep`, the same random traffic (docs/bench.md has the details):")
        A("")
        A("| what | cycles | seconds | cycles/s | vs RTL |")
        A("|---|---|---|---|---|")
        for w in ("model", "rtl", "lockstep"):
            if w in sp:
                r_ = sp[w]
                A("| %s | %d | %.3f | %.0f | %.2fx |" % (w, r_["cycles"], r_["seconds"], r_["cycles_per_s"],
                                                         r_["cycles_per_s"] / sp["rtl"]["cycles_per_s"]))
        A("")
        L.extend(mlc_step_md(m))
        sw = next((r_ for r_ in m if r_["what"] == "model" and r_.get("test") == "perf-sweep"), None)
        if sw:
            if L[-1] != "":
                A("")
            A("The measurements on this page: %d steps of the model pair in %.2f s (%.0f steps/s, host drivers and"
              % (sw["cycles"], sw["seconds"], sw["cycles_per_s"]))
            A("message checks included).")
        A("")


def mlc_summary_md(c):
    """The summary: the paper's orderings and ours."""
    A, big, ratio, fig9_ok = c.A, c.big, c.ratio, c.fig9_ok
    tol, sizes, burst_best, order_sp, r = c.tol, c.sizes, c.burst_best, c.order_sp, c.r
    d16, dmax, fig11_ok, d = c.d16, c.dmax, c.fig11_ok, c.d
    A("## Summary: the paper's orderings")
    A("")
    A("| figure | the paper | ours | reproduced |")
    A("|---|---|---|---|")
    A("| 9 | ping-pong rises to 80 %%; ping-ping = 50 %% of ping-pong | ping-pong rises to %s; ping-ping / ping-pong %.3f at %d B | %s |"
      % (pct(big["throughput_frac"]), ratio, big["size"], "yes" if fig9_ok else "no"))
    A("| 10 | Network Burst best at every size; 64 B > 32 B > 16 B; 1.6x throughput, 3x minimal latency | burst best "
      "(within %g percentage point) at %s; 64 > 32 > 16 from %s; %.2fx throughput (%.2fx padded), minimal latency %.2fx (%.2fx padded) | %s |"
      % (100 * tol, "every size" if burst_best == sizes else "some sizes",
         ("%d B" % order_sp[0]) if order_sp else "nowhere", r["thr"], r["thr_pad"], r["lat"], r["lat_pad"],
         "ordering yes, ratios smaller" if burst_best == sizes and order_sp else "no"))
    A("| 11 | same at 16 B, pipelined better as messages grow, at most 8 MB/s apart | %+.1f %% at 16 B, pipelined "
      "better above, %.2f MB/s apart at %d B | %s |" % (100 * d16, dmax[0], dmax[1], "yes" if fig11_ok else "no"))
    if d:
        A("| Efficiency | (Table 1: 15 packets a frame) | %s one way at the defaults (formula %s) | target ≥ 95 %% %s |"
          % (pct(d["efficiency"]), pct(d["formula"]), "met" if d["efficiency"] >= 0.95 else "missed"))
    A("")


def mlc_perf_md(records, pngs):
    """docs/mlc-perf.md: the MLC's measurements beside the paper's numbers (Yamagiwa et al. 2000, Figs. 8-11), with the
    plots and the analysis; every number of ours comes from the records. One function a section, each given the
    context c (the records, the default parameters, the frame lengths F, the page's lines L and A = L.append) and
    leaving in it what the later sections use."""
    m = [r for r in records if r.get("block") == "mlc"]
    if not m:
        return
    pp, pi = mlc_series(records, "pingpong", "burst"), mlc_series(records, "pingping", "burst")
    mb = mlc_series(records, "pingpong", "burst-msg")
    ser = next(r for r in m if r["what"] == "pingpong" and r["test"] == "burst")
    P = ser["params"]
    lw, turn, ld = P["LINK_W"], P["TURN"], P["LINK_DELAY"]
    G = 2 + ld + turn

    def F(n, w=lw):
        return (8 + 32 * n) * 4 // w

    names = {os.path.basename(p) for p in pngs} | {f for f in os.listdir(os.path.join(ROOT, "docs"))
                                                   if f.startswith("mlc-") and f.endswith(".png")}
    L = []
    A = L.append
    c = types.SimpleNamespace(records=records, m=m, pp=pp, pi=pi, mb=mb, ser=ser, P=P, lw=lw, turn=turn, ld=ld, G=G,
                              F=F, names=names, L=L, A=A)
    for section in (mlc_intro_md, mlc_paper_md, mlc_fig9_md, mlc_fig10_md, mlc_fig11_md, mlc_efficiency_md,
                    mlc_speed_md, mlc_summary_md):
        section(c)
    with open(os.path.join(ROOT, "docs", "mlc-perf.md"), "w") as f:
        f.write("\n".join(L) + "\n")
