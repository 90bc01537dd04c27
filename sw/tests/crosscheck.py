#!/usr/bin/env python3
"""Cross-check `sanfab-route check` against the independent checker tests/refcheck.py.

usage: crosscheck.py --build DIR [--topologies N] [--seed S] [--mutations M]
For N topologies (random irregular ones and adversarial ones: relabelled ids, shuffled ports, hosts on high ports,
switches without hosts, parallel links, level hints), every algorithm configuration computes a route set; each
set and M single-hop mutations of it are judged by both checkers, which must agree. Prints the seed, a line per
disagreement and a summary ending "disagreements D"; exit 1 on any disagreement.
"""
import argparse
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refcheck  # noqa: E402

CONFIGS = [
    ["updown"], ["updown", "--select", "random"], ["updown", "--select", "sancho"], ["updown", "--select", "balanced"],
    ["updown", "--select", "pch"], ["updown", "--select", "pch", "--vcs", "3"], ["updown", "--select", "random", "--vcs", "3"],
    ["itb"], ["itb", "--fallback", "refuse"],
    ["dl", "--rule", "ud", "--vcs", "3"], ["dl", "--rule", "ud-du", "--select", "pch", "--vcs", "3"],
    ["dl", "--rule", "ud-dudu", "--select", "random", "--vcs", "2"], ["dl", "--rule", "lturn", "--select", "sancho", "--vcs", "3"],
    ["dl", "--rule", "ud", "--select", "balanced", "--vcs", "2"],
    ["fm"], ["fm", "--deadlock", "layers", "--map", "random"], ["fm", "--deadlock", "none", "--allow-deadlock"],
    ["clos-all", "--max-alt", "4"], ["lash"], ["lash", "--select", "low"],
]


def gen_topology(rng, i):
    """One topology in the text format; odd/even and i pick the adversarial features."""
    n = rng.randint(3, 14)
    ports = rng.randint(4, 8)
    parallel = i % 4 == 1
    # a random connected multigraph over switches 0..n-1 (before relabelling)
    links = []
    deg = [0] * n
    order = list(range(n))
    rng.shuffle(order)
    for k in range(1, n):   # random spanning tree
        a, b = order[k], order[rng.randrange(k)]
        if deg[a] < ports - 1 and deg[b] < ports - 1:
            links.append((a, b)); deg[a] += 1; deg[b] += 1
        else:
            return gen_topology(rng, i)
    for _ in range(rng.randint(0, 2 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        if a == b or deg[a] >= ports - 1 or deg[b] >= ports - 1:
            continue
        if not parallel and ((a, b) in links or (b, a) in links):
            continue
        links.append((a, b)); deg[a] += 1; deg[b] += 1
    # hosts: some switches without hosts (but at least two hosts overall), hosts on random (often high) ports
    hosts = []
    for s in range(n):
        free = ports - deg[s]
        k = rng.randint(0, min(3, free)) if i % 3 == 0 else rng.randint(1, min(2, free))
        hosts.append(k)
    if sum(hosts) < 2:
        hosts[0] = max(hosts[0], 1)
        hosts[-1] = max(hosts[-1], 1)
        if hosts[0] + deg[0] > ports or hosts[-1] + deg[-1] > ports:
            return gen_topology(rng, i)
    relabel = list(range(n))
    if i % 2 == 1:
        rng.shuffle(relabel)
    portmap = []
    for s in range(n):
        p = list(range(ports))
        if i % 5 != 0:
            rng.shuffle(p)
        if i % 7 == 3:   # hosts on the highest ports
            p = list(reversed(range(ports)))
        portmap.append(p)
    used = [0] * n
    lines = ["sanfab-topology 1", f"name crosscheck {i}"]
    if parallel:
        lines.append("parallel-links yes")
    levels = i % 6 == 5
    for s in sorted(range(n), key=lambda x: relabel[x]):
        lines.append(f"switch {relabel[s]} ports {ports}" + (f" level {0 if s == 0 else 1}" if levels else ""))
    hid = 0
    hl = []
    for s in range(n):
        for _ in range(hosts[s]):
            hl.append((s, portmap[s][used[s]]))
            used[s] += 1
    hperm = list(range(len(hl)))
    if i % 2 == 1:
        rng.shuffle(hperm)
    for k, (s, p) in enumerate(hl):
        lines.append(f"host {hperm[k]} {relabel[s]}:{p}")
        hid += 1
    for a, b in links:
        pa, pb = portmap[a][used[a]], portmap[b][used[b]]
        used[a] += 1; used[b] += 1
        lines.append(f"link {relabel[a]}:{pa} {relabel[b]}:{pb}")
    return "\n".join(lines) + "\n"


def mutate(rng, topo, text):
    """One single-hop mutation of one route: another output port at one hop (rest of the route completed by a
    shortest path, same VC) or another VC at one hop. Returns new text or None."""
    lines = text.splitlines()
    idx = [k for k, l in enumerate(lines) if l.startswith("route ")]
    if not idx:
        return None
    k = rng.choice(idx)
    f = lines[k].split()
    src, dst = int(f[1]), int(f[2])
    body = f[5:]
    vcs = None
    if "|" in body:
        j = body.index("|")
        vcs = [int(v) for v in body[j + 2:]]
        body = body[:j]
    byts = [int(b, 16) for b in body]
    # walk to find switch before each route byte
    cur = topo.host[src][0]
    at = []
    for b in byts:
        if b == 0xC0:
            at.append(None)
            continue
        at.append(cur)
        pr = topo.peer[(cur, b & 0x3F)]
        if pr[0] == "switch":
            cur = pr[1]
    nvc = int(next(l for l in lines if l.startswith("hosts ")).split()[5])
    cand = [i for i, b in enumerate(byts) if b != 0xC0 and topo.peer[(at[i], b & 0x3F)][0] == "switch"]
    if not cand:
        return None
    i = rng.choice(cand)
    if vcs is not None and nvc > 1 and rng.random() < 0.5:
        vi = sum(1 for b in byts[:i] if b != 0xC0)
        nv = rng.randrange(nvc)
        if nv == vcs[vi]:
            return None
        vcs[vi] = nv
        new = byts
    else:
        x = at[i]
        opts = [p for p, _ in topo.nbr[x] if p != byts[i] & 0x3F]
        if not opts:
            return None
        p = rng.choice(opts)
        y = topo.peer[(x, p)][1]
        dsw, dport = topo.host[dst]
        d = topo.dist_from(dsw)
        tail = []
        while y != dsw:
            q = next(q for q, z in topo.nbr[y] if d[z] == d[y] - 1)
            tail.append(0x80 | q)
            y = topo.peer[(y, q)][1]
        new = byts[:i] + [0x80 | p] + tail + [0x80 | dport]
        if vcs is not None:
            vi = sum(1 for b in byts[:i] if b != 0xC0)
            vcs = vcs[:vi + 1] + [vcs[vi]] * (len(tail) + 1)
    f2 = f[:5] + [f"{b:02x}" for b in new] + (["|", "vc"] + [str(v) for v in vcs] if vcs is not None else [])
    lines[k] = " ".join(f2)
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--topologies", type=int, default=100)
    ap.add_argument("--mutations", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"crosscheck: seed {a.seed}")
    rng = random.Random(a.seed)
    route = os.path.join(a.build, "sanfab-route")
    tmp = os.path.join(a.build, "tmp", "crosscheck")
    os.makedirs(tmp, exist_ok=True)
    n_sets = n_refused = n_mut = n_agree = 0
    verdicts = {"accept": 0, "reject": 0}
    dis = []
    for i in range(a.topologies):
        text = gen_topology(rng, i)
        tp = os.path.join(tmp, f"t{i}.topo")
        with open(tp, "w") as f:
            f.write(text)
        topo = refcheck.Topo(text)
        for cfg in CONFIGS:
            rp = os.path.join(tmp, "r.routes")
            if os.path.exists(rp):
                os.remove(rp)
            seed = [] if cfg[0] not in ("itb",) and "random" not in cfg else ["--seed", str(rng.randrange(1 << 30))]
            p = subprocess.run([route, cfg[0], tp] + cfg[1:] + seed + ["-o", rp], capture_output=True, text=True)
            if p.returncode != 0:
                n_refused += 1   # the tool refused to produce a set (e.g. an ITB at a host-less switch under refuse)
                if p.returncode != 1:
                    dis.append(f"topology {i} {' '.join(cfg)}: tool failed: {p.stderr.strip()[-300:]}")
                continue
            n_sets += 1
            base = open(rp).read()
            texts = [base]
            for _ in range(a.mutations):
                m = mutate(rng, topo, base)
                if m:
                    texts.append(m)
            for k, rt in enumerate(texts):
                mp = os.path.join(tmp, "m.routes")
                with open(mp, "w") as f:
                    f.write(rt)
                c = subprocess.run([route, "check", tp, mp], capture_output=True, text=True)
                ref = refcheck.check(text, rt)
                ok_c = c.returncode == 0
                if k:
                    n_mut += 1
                if ok_c == (not ref):
                    n_agree += 1
                    verdicts["accept" if ok_c else "reject"] += 1
                else:
                    dis.append(f"topology {i} {' '.join(cfg)} {'mutation %d' % k if k else 'as computed'}: check says "
                               f"{'ok' if ok_c else 'bad'} ({c.stderr.strip()[-300:]}), refcheck says {ref or 'ok'}")
                    with open(os.path.join(tmp, f"disagree{len(dis)}.routes"), "w") as f:
                        f.write(rt)
    for d in dis[:20]:
        print("DISAGREE", d)
    print(f"topologies {a.topologies}, configurations {len(CONFIGS)}, route sets {n_sets} (refused by the tool {n_refused}), "
          f"mutated sets {n_mut}, judged {n_sets + n_mut}: agree {n_agree} (both accept {verdicts['accept']}, both reject "
          f"{verdicts['reject']}), disagreements {len(dis)}")
    sys.exit(1 if dis else 0)


if __name__ == "__main__":
    main()
