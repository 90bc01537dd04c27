#!/usr/bin/env python3
"""Plots of sanfab-sim results (the papers' figures), PNG output, matplotlib from .venv (make deps).

  plot_net.py latency SWEEP.json [SWEEP.json ...] -o FILE.png [--label NAME ...] [--title TEXT] [--network]
      average message latency against accepted traffic, one curve per sweep: ns against flits/ns/switch for a
      crossbar network (Flich et al. 2002 Figs. 10 and 12 style), cycles against flits/host/cycle for a VC network (Koibuchi et al. 2003
      Figs. 6 and 7 style; the points have no flits/ns/switch); --network plots the latency from injection
      instead of from generation.
  plot_net.py links SWEEP.json -o FILE.png [--point N | --load X] [--layout auto|grid|spring] [--k K] [--vmax U]
                    [--title TEXT]
      link-utilisation map of any network, each directed channel (the JSON's `links.per_channel`) a segment
      beside its link (the two directions side by side), coloured by its utilisation in the window. Needs a sweep
      run with `links yes` (the default). A 2D mesh or torus (every grid neighbour linked, every link within a row
      or a column, switch s at (s % K, s // K), K = --k or the square root of the switch count) is drawn as its
      grid (Figs. 13-17 style): wrap-around links as stubs leaving the grid, express links as arcs (to their far
      end, or leaving the grid when the other way round is shorter).
      Any other network (random, Clos, fat tree, hypercube, ...) is drawn as a force (spring) layout of its
      switches, numbered. --layout grid refuses, naming why, a network that is not such a grid; --layout
      spring draws a grid network as a force layout too.

  plot_net.py pool RUN.json [RUN.json ...] -o FILE.png [--cols N] [--title TEXT]
      ITB pool occupancy per NIC (Fig. 11b/c style): one panel per load point (of every file, in order), the
      maximum (bars) and the time-average (line) number of in-transit packets held by each NIC over the window,
      against the NIC (host) number; from `itb.per_nic_avg_max_pkts`.

  plot_net.py errorbars SPEC.json -o FILE.png
      curves with min-max error bars (Geoffray and Hoefler 2008 Fig. 6 style) from a spec {"title", "xlabel", "ylabel", "logx",
      "series": [{"label", "x": [...], "y": [...], "ymin": [...], "ymax": [...]}]} that an experiment writes.

  plot_net.py lines SPEC.json -o FILE.png
      plain curves (Etsion et al. 2000 Figs. 7, 9, 12, 14 style) from a spec {"title", "xlabel", "ylabel", "logx",
      "series": [{"label", "x": [...], "y": [...], optional "ymin"/"ymax" (min-max bars), "dashed"}],
      optional "marks": [{"label", "y"}] (horizontal reference lines, e.g. a paper's value)}; y from 0.

Curves are labelled with --label (in order) or the route algorithm named in each JSON.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sanfab_cli import ArgumentParser, float_range, int_range  # noqa: E402


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("plot_net: %s: %s" % (path, e))


def mpl():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return matplotlib, plt
    except ImportError:
        sys.exit("plot_net: matplotlib missing; run `make deps` and use .venv/bin/python")


def cmd_latency(a):
    _, plt = mpl()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    units = set()
    for i, path in enumerate(a.sweeps):
        d = load(path)
        pts = d.get("points", [])
        if not pts:
            sys.exit("plot_net: %s has no load points" % path)
        label = a.label[i] if a.label and i < len(a.label) else d["network"]["algorithm"].split()[0]
        key = "avg_network" if a.network else "avg"
        ns = "accepted_flits_ns_sw" in pts[0]
        units.add(ns)
        xs = [p["accepted_flits_ns_sw" if ns else "accepted_flits_cycle_host"] for p in pts]
        lat = "latency_ns" if ns else "latency_cycles"
        ys = [p[lat][key] if p[lat][key] is not None else math.nan for p in pts]
        ax.plot(xs, ys, marker="o", ms=3, label=label)
    if len(units) > 1:
        sys.exit("plot_net: the sweeps mix crossbar (ns) and VC (cycle) networks")
    ns = units.pop()
    ax.set_xlabel("accepted traffic (%s)" % ("flits/ns/switch" if ns else "flits/host/clock"))
    ax.set_ylabel("average latency (%s)" % ("ns" if ns else "clocks") + (" from injection" if a.network else ""))
    if a.title:
        ax.set_title(a.title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.output, dpi=a.dpi)
    print("plot_net: wrote %s" % a.output)


def grid_shape(n, chans, k=None):
    """(K, rows) when the switches laid out row by row, switch s at (s % K, s // K), make a 2D mesh or torus: every
    pair of grid neighbours is linked and every link joins two switches of one row or one column (wrap-around and
    express links included); None otherwise. K is `k`, or the square root of the switch count when it is whole."""
    if k is None:
        k = int(round(math.sqrt(n)))
        if k * k != n:
            return None
    if k < 1 or n % k or n < 2:
        return None
    rows = n // k
    linked = {(a, b) for a, _, b, _, _ in chans} | {(b, a) for a, _, b, _, _ in chans}
    for s in range(n):
        x, y = s % k, s // k
        if (x + 1 < k and (s, s + 1) not in linked) or (y + 1 < rows and (s, s + k) not in linked):
            return None
    if any(a != b and a % k != b % k and a // k != b // k for a, b in linked):
        return None
    return k, rows


def spring_layout(n, edges, iterations=300):
    """Positions of n switches (a list of (x, y) in the unit square) for the undirected links `edges`: a
    Fruchterman-Reingold force layout started from a circle, so the same network always gets the same picture."""
    import numpy as np
    if n == 1:
        return [(0.5, 0.5)]
    ang = 2 * math.pi * np.arange(n) / n
    pos = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    kopt = 1.0 / math.sqrt(n)
    e = np.array(sorted(edges), dtype=int).reshape(-1, 2)
    temp = 0.1
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-6)
        disp = (delta / dist[:, :, None] * (kopt * kopt / dist)[:, :, None]).sum(axis=1)  # repulsion
        if len(e):
            d = pos[e[:, 0]] - pos[e[:, 1]]
            dl = np.maximum(np.linalg.norm(d, axis=1), 1e-6)
            f = d / dl[:, None] * (dl * dl / kopt)[:, None]  # attraction along the links
            np.add.at(disp, e[:, 0], -f)
            np.add.at(disp, e[:, 1], f)
        length = np.maximum(np.linalg.norm(disp, axis=1), 1e-9)
        pos += disp / length[:, None] * np.minimum(length, temp)[:, None]
        temp = max(temp * 0.98, 0.002)
    pos -= pos.min(axis=0)
    pos /= max(pos.max(), 1e-9)
    return [(float(x), float(y)) for x, y in pos]


def links_layout(d, chans, layout, k):
    """("grid", (K, rows)) or ("spring", positions) for the network of a sweep; exits naming what it cannot draw."""
    n = d["network"]["switches"]
    if any(not (0 <= c[0] < n and 0 <= c[2] < n) for c in chans):
        sys.exit("plot_net: links: a channel names a switch outside 0..%d" % (n - 1))
    shape = grid_shape(n, chans, k)
    if layout == "grid" or (layout == "auto" and k is not None):
        if shape is None:
            sys.exit("plot_net: links: the %d switches are not a 2D mesh or torus of %s switches a row (switch s at "
                     "(s %% K, s // K), every grid neighbour linked, every link within a row or a column): draw it "
                     "with --layout spring" % (n, k if k else "sqrt(%d)" % n))
        return "grid", shape
    if layout == "auto" and shape is not None:
        return "grid", shape
    return "spring", spring_layout(n, {(min(a, b), max(a, b)) for a, _, b, _, _ in chans if a != b})


def cmd_links(a):
    matplotlib, plt = mpl()
    d = load(a.sweep)
    pts = d.get("points", [])
    if not pts:
        sys.exit("plot_net: %s has no load points (a workload run: its links are over the whole run, not a "
                 "load point's window)" % a.sweep if "workload" in d else "plot_net: %s has no load points" % a.sweep)
    if a.load is not None:
        idx = min(range(len(pts)), key=lambda i: abs(pts[i]["load"] - a.load))
    else:
        idx = a.point if a.point is not None else len(pts) - 1
    if not 0 <= idx < len(pts):
        sys.exit("plot_net: --point %d out of range 0..%d" % (idx, len(pts) - 1))
    p = pts[idx]
    chans = p.get("links", {}).get("per_channel")
    if chans is None:
        sys.exit("plot_net: %s: no per-channel utilisation (run sanfab-sim with `links yes`)" % a.sweep)
    if not chans:
        sys.exit("plot_net: %s: the network has no switch-to-switch links to draw" % a.sweep)
    n = d["network"]["switches"]
    kind, lay = links_layout(d, chans, a.layout, a.k)
    cmap = matplotlib.colormaps["inferno_r"]
    vmax = a.vmax if a.vmax else max(max(c[4] for c in chans), 1e-9)
    fig, ax = plt.subplots(figsize=(6.4, 6.0))
    if kind == "grid":
        k, rows = lay
        pos = lambda s: (s % k, s // k)
        for sa, _, sb, _, u in chans:
            (x0, y0), (x1, y1) = pos(sa), pos(sb)
            dx, dy = x1 - x0, y1 - y0
            dist, size = abs(dx) + abs(dy), (k if dy == 0 else rows)
            wrap = dist > size - dist  # shorter the other way round: a stub leaving the grid
            ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
            if wrap:
                ux, uy = -ux, -uy
            nx, ny = -uy * 0.09, ux * 0.09  # the two directions of a link side by side
            if dist == 1 or (wrap and dist == size - 1):  # a neighbour or a wrap-around link: a straight segment
                end = 0.53 if wrap else 0.93
                xs = [x0 + ux * 0.08 + nx, x0 + ux * end + nx]
                ys = [y0 + uy * 0.08 + ny, y0 + uy * end + ny]
            else:  # an express link: an arc, to its far end or (the short way round) leaving the grid
                reach = 0.75 if wrap else dist - 0.08
                bulge = 0.3 if wrap else min(0.15 + 0.1 * dist, 0.45)
                t = [i / 24 for i in range(25)]
                cx, cy = x0 + ux * reach / 2 + nx / 0.09 * bulge, y0 + uy * reach / 2 + ny / 0.09 * bulge
                px, py = x0 + ux * 0.08 + nx, y0 + uy * 0.08 + ny
                qx, qy = x0 + ux * reach + nx, y0 + uy * reach + ny
                xs = [(1 - v) ** 2 * px + 2 * v * (1 - v) * cx + v * v * qx for v in t]
                ys = [(1 - v) ** 2 * py + 2 * v * (1 - v) * cy + v * v * qy for v in t]
            ax.plot(xs, ys, color=cmap(u / vmax), lw=3 if dist == 1 or wrap and dist == size - 1 else 2,
                    solid_capstyle="butt")
        for s in range(n):
            x, y = pos(s)
            ax.plot(x, y, "s", color="#888888", ms=7)
        ax.set_xlim(-0.8, k - 0.2)
        ax.set_ylim(-0.8, rows - 0.2)
        ax.invert_yaxis()
        ax.set_xticks(range(k))
        ax.set_yticks(range(rows))
        what = "grid %d x %d" % (k, rows)
    else:
        pos = lay
        seen = {}
        for sa, _, sb, _, u in chans:
            (x0, y0), (x1, y1) = pos[sa], pos[sb]
            if sa == sb:  # a switch linked to itself: a small ring beside it
                ax.add_patch(matplotlib.patches.Circle((x0 + 0.03, y0 + 0.03), 0.025, fill=False,
                                                       color=cmap(u / vmax), lw=2))
                continue
            m = seen[(sa, sb)] = seen.get((sa, sb), -1) + 1  # parallel links: side by side
            dx, dy = x1 - x0, y1 - y0
            ln = math.hypot(dx, dy) or 1.0
            off = 0.008 * (1 + 2 * m)  # each direction on its own side of the link
            nx, ny = -dy / ln * off, dx / ln * off
            t0, t1 = min(0.03 / ln, 0.45), 1 - min(0.03 / ln, 0.45)
            ax.plot([x0 + dx * t0 + nx, x0 + dx * t1 + nx], [y0 + dy * t0 + ny, y0 + dy * t1 + ny],
                    color=cmap(u / vmax), lw=2.2 if n <= 32 else 1.4, solid_capstyle="butt")
        for s, (x, y) in enumerate(pos):
            ax.plot(x, y, "o", color="#888888", ms=9 if n <= 64 else 5, zorder=3)
            if n <= 64:
                ax.annotate(str(s), (x, y), ha="center", va="center", fontsize=6, color="white", zorder=4)
        ax.set_xlim(-0.08, 1.08)
        ax.set_ylim(-0.08, 1.08)
        ax.set_xticks([])
        ax.set_yticks([])
        what = "spring layout of %d switches" % n
    sm = matplotlib.cm.ScalarMappable(cmap=cmap, norm=matplotlib.colors.Normalize(0, vmax))
    fig.colorbar(sm, ax=ax, label="link utilisation", shrink=0.8)
    ax.set_aspect("equal")
    acc = ("accepted %.4f flits/ns/switch" % p["accepted_flits_ns_sw"] if "accepted_flits_ns_sw" in p else
           "accepted %.4f flits/host/clock" % p["accepted_flits_cycle_host"])
    ax.set_title(a.title or "%s, load %g (%s), mean %.3f, max %.3f" % (
        d["network"]["algorithm"].split()[0], p["load"], acc, p["links"]["mean_util"], p["links"]["max_util"]),
        fontsize=9)
    fig.tight_layout()
    fig.savefig(a.output, dpi=a.dpi)
    print("plot_net: wrote %s (%s)" % (a.output, what))


def cmd_pool(a):
    _, plt = mpl()
    panels = []
    for path in a.runs:
        d = load(path)
        for p in d.get("points", []):
            per = p.get("itb", {}).get("per_nic_avg_max_pkts")
            if per is None:
                sys.exit("plot_net: %s: no per-NIC pool figures (itb.per_nic_avg_max_pkts)" % path)
            panels.append(p)
    if not panels:
        sys.exit("plot_net: no load points")
    cols = max(1, min(a.cols, len(panels)))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.3 * rows), squeeze=False)
    for i, p in enumerate(panels):
        ax = axes[i // cols][i % cols]
        per = p["itb"]["per_nic_avg_max_pkts"]
        xs = list(range(len(per)))
        ax.bar(xs, [m for _, m in per], width=1.0, color="#9ecae1", label="maximum")
        ax.plot(xs, [v for v, _ in per], color="#d62728", lw=1.2, label="average")
        ax.set_xlim(-0.5, len(per) - 0.5)
        ax.set_xlabel("NIC (host)")
        ax.set_ylabel("in-transit packets held")
        ax.set_title("offered %g, accepted %.4f flits/ns/switch%s\nmax %d, largest average %.2f" % (
            p["load"], p["accepted_flits_ns_sw"], " (saturated)" if p["saturated"] else "",
            p["itb"]["pool_max_pkts"], p["itb"]["pool_avg_pkts_max"]), fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7, loc="upper right")
    for j in range(len(panels), rows * cols):
        axes[j // cols][j % cols].axis("off")
    if a.title:
        fig.suptitle(a.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(a.output, dpi=a.dpi)
    print("plot_net: wrote %s" % a.output)


def cmd_errorbars(a):
    _, plt = mpl()
    spec = load(a.spec)
    try:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for i, s in enumerate(spec["series"]):
            lo = [y - m for y, m in zip(s["y"], s["ymin"])]
            hi = [m - y for y, m in zip(s["y"], s["ymax"])]
            off = 1 + 0.03 * (i - (len(spec["series"]) - 1) / 2)  # spread the bars of one x apart a little
            ax.errorbar([x * off for x in s["x"]], s["y"], yerr=[lo, hi], marker="o", ms=4, capsize=3, lw=1.2,
                        label=s["label"])
        if spec.get("logx"):
            ax.set_xscale("log", base=2)
            xs = sorted({x for s in spec["series"] for x in s["x"]})
            ax.set_xticks(xs)
            ax.set_xticklabels([str(x) for x in xs])
        ax.set_xlabel(spec.get("xlabel", ""))
        ax.set_ylabel(spec.get("ylabel", ""))
        ax.set_ylim(0, 1.05)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(a.title or spec.get("title", ""), fontsize=10)
    except (KeyError, TypeError, ValueError) as e:
        sys.exit("plot_net: %s: bad spec (%s)" % (a.spec, e))
    fig.tight_layout()
    fig.savefig(a.output, dpi=a.dpi)
    print("plot_net: wrote %s" % a.output)


def cmd_lines(a):
    _, plt = mpl()
    spec = load(a.spec)
    try:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for s in spec["series"]:
            style = dict(marker="o", ms=4, lw=1.2, label=s["label"], ls="--" if s.get("dashed") else "-")
            if "ymin" in s and "ymax" in s:
                err = [[y - m for y, m in zip(s["y"], s["ymin"])], [m - y for y, m in zip(s["y"], s["ymax"])]]
                ax.errorbar(s["x"], s["y"], yerr=err, capsize=3, **style)
            else:
                ax.plot(s["x"], s["y"], **style)
        for m in spec.get("marks", []):
            ax.axhline(m["y"], color="#888888", lw=0.9, ls=":")
            ax.annotate(m["label"], (0.01, m["y"]), xycoords=("axes fraction", "data"), fontsize=7, color="#555555",
                        va="bottom")
        if spec.get("logx"):
            ax.set_xscale("log", base=2)
            xs = sorted({x for s in spec["series"] for x in s["x"]})
            ax.set_xticks(xs)
            ax.set_xticklabels([str(x) for x in xs], fontsize=7, rotation=45 if len(xs) > 6 else 0)
        ax.set_xlabel(spec.get("xlabel", ""))
        ax.set_ylabel(spec.get("ylabel", ""))
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_title(a.title or spec.get("title", ""), fontsize=10)
    except (KeyError, TypeError, ValueError) as e:
        sys.exit("plot_net: %s: bad spec (%s)" % (a.spec, e))
    fig.tight_layout()
    fig.savefig(a.output, dpi=a.dpi)
    print("plot_net: wrote %s" % a.output)


def main(argv=None):
    ap = ArgumentParser(prog="plot_net.py", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lat = sub.add_parser("latency", help="latency against accepted traffic (Figs. 10, 12)")
    lat.add_argument("sweeps", nargs="+", help="sanfab-sim JSON files, one curve each")
    lat.add_argument("--label", action="append", help="curve label (repeat, in order)")
    lat.add_argument("--network", action="store_true", help="latency from injection (avg_network)")
    lk = sub.add_parser("links", help="link-utilisation map of any network: a 2D mesh or torus as its grid "
                        "(Figs. 13-17), any other as a force layout")
    lk.add_argument("sweep", help="a sanfab-sim JSON file run with links yes")
    g = lk.add_mutually_exclusive_group()
    g.add_argument("--point", type=int_range(0), help="load point index (default: the last)")
    g.add_argument("--load", type=float_range(0, lo_open=True), help="the load point nearest this offered load")
    lk.add_argument("--layout", choices=("auto", "grid", "spring"), default="auto", help="grid: switch s at "
                    "(s %% K, s // K), only for a 2D mesh or torus (refused otherwise); spring: a force layout of "
                    "any network; auto (default): grid when the network is a mesh or torus, else spring")
    lk.add_argument("--k", type=int_range(1), help="switches per row of the grid (default: the square root of the "
                    "switch count)")
    lk.add_argument("--vmax", type=float_range(0, lo_open=True), help="utilisation at the top of the colour scale "
                    "(default: the most used channel's), to draw several maps on one scale")
    pl = sub.add_parser("pool", help="ITB pool occupancy per NIC, one panel per load point (Fig. 11b/c)")
    pl.add_argument("runs", nargs="+", help="sanfab-sim JSON files; every load point is a panel")
    pl.add_argument("--cols", type=int_range(1, 16), default=2, help="panels per row (1..16)")
    eb = sub.add_parser("errorbars", help="curves with min-max error bars from a spec (Geoffray and Hoefler 2008 Fig. 6)")
    eb.add_argument("spec", help="the spec JSON an experiment writes")
    ln = sub.add_parser("lines", help="plain curves from a spec (Etsion et al. 2000 Figs. 7, 9, 12, 14)")
    ln.add_argument("spec", help="the spec JSON an experiment writes")
    for s in (lat, lk, pl, eb, ln):
        s.add_argument("-o", "--output", required=True, help="PNG file to write")
        s.add_argument("--title", help="plot title")
        s.add_argument("--dpi", type=int_range(20, 1200), default=120, help="resolution (20..1200, default 120)")
    a = ap.parse_args(argv)
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    {"latency": cmd_latency, "links": cmd_links, "pool": cmd_pool, "errorbars": cmd_errorbars, "lines": cmd_lines}[a.cmd](a)


if __name__ == "__main__":
    main()
