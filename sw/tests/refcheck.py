#!/usr/bin/env python3
"""Independent route-file checker, written from docs/routing.md and docs/topology.md only (not from the C code).

usage: refcheck.py TOPOLOGY ROUTES    prints "ok" or one line per failed check; exit 0 ok, 1 rejected.
As a module: check(topo_text, routes_text) -> list of problems (empty = accepted).
"""
import sys
from collections import deque


class Topo:
    def __init__(self, text):
        self.ports = {}    # switch -> port count
        self.level = {}    # switch -> level hint
        self.peer = {}     # (switch, port) -> ("host", h) or ("switch", s, p)
        self.host = {}     # host -> (switch, port)
        for raw in text.splitlines():
            f = raw.split("#", 1)[0].split()
            if not f:
                continue
            if f[0] == "switch":
                s = int(f[1])
                self.ports[s] = int(f[3])
                self.level[s] = int(f[5]) if len(f) > 5 else None
            elif f[0] == "host":
                sw, p = map(int, f[2].split(":"))
                self.host[int(f[1])] = (sw, p)
                self.peer[(sw, p)] = ("host", int(f[1]))
            elif f[0] == "link":
                a, pa = map(int, f[1].split(":"))
                b, pb = map(int, f[2].split(":"))
                self.peer[(a, pa)] = ("switch", b, pb)
                self.peer[(b, pb)] = ("switch", a, pa)
        self.S = len(self.ports)
        self.H = len(self.host)
        # neighbours of each switch in port order
        self.nbr = {s: [(p, self.peer[(s, p)][1]) for p in range(self.ports[s])
                        if self.peer.get((s, p), ("none",))[0] == "switch"] for s in self.ports}

    def dist_from(self, src):
        d = {src: 0}
        q = deque([src])
        while q:
            x = q.popleft()
            for _, y in self.nbr[x]:
                if y not in d:
                    d[y] = d[x] + 1
                    q.append(y)
        return d

    def orientation(self, root):
        """docs: BFS spanning tree from the root (or all level-0 switches, else switch 0); the up end of a link is
        the end nearer the root, the lower switch id on a tie. Also the BFS tree (parent = switch that first
        reached it, neighbours visited in port order) for the L-turn positions."""
        if root is not None and root >= 0:
            roots = [root]
        else:
            lv = [l for l in self.level.values() if l is not None]
            roots = sorted(s for s in self.ports if lv and self.level[s] == min(lv)) or [0]
        level = {r: 0 for r in roots}
        parent = {r: None for r in roots}
        q = deque(roots)
        while q:
            x = q.popleft()
            for _, y in self.nbr[x]:
                if y not in level:
                    level[y] = level[x] + 1
                    parent[y] = x
                    q.append(y)
        # preorder numbers: roots in id order, children in id order
        pre = {}
        children = {s: sorted(y for y in parent if parent[y] == s) for s in self.ports}
        for r in roots:
            stack = [r]
            while stack:
                x = stack.pop()
                pre[x] = len(pre)
                stack.extend(reversed(children[x]))
        return level, pre

    def is_up(self, level, a, b):
        """channel a -> b goes up"""
        return level[b] < level[a] or (level[b] == level[a] and b < a)


def parse_header(algo):
    name = algo.split()[0] if algo.split() else ""
    kv = {}
    for tok in algo.split()[1:]:
        if "=" in tok:
            k, v = tok.split("=", 1)
            kv[k] = v
    return name, kv


def check(topo_text, routes_text):
    T = Topo(topo_text)
    problems = []
    algo = ""
    nvc = nalt = None
    promise_min = False
    routes = {}   # (src, dst, alt) -> (list of segments, each a list of (switch, port, vc)), start vc
    for ln, raw in enumerate(routes_text.splitlines(), 1):
        f = raw.split("#", 1)[0].split()
        if not f:
            continue
        if f[0] == "sanfab-routes":
            continue
        if f[0] == "algorithm":
            algo = " ".join(f[1:])
        elif f[0] == "hosts":
            if int(f[1]) != T.H or int(f[3]) != T.S:
                return [f"line {ln}: file is for another topology"]
            nvc, nalt = int(f[5]), int(f[7])
        elif f[0] == "promise":
            promise_min = f[1:] == ["minimal"]
        elif f[0] == "map":
            pass
        elif f[0] == "route":
            src, dst, alt = int(f[1]), int(f[2]), int(f[3])
            rest = f[5:]
            vcs = None
            if "|" in rest:
                i = rest.index("|")
                vcs = [int(v) for v in rest[i + 2:]]
                rest = rest[:i]
            bytes_ = [int(b, 16) for b in rest]
            cur = T.host[src][0]
            segs = [[]]
            k = 0          # route byte index (VC list entries)
            i = 0
            ok = True
            delivered = False
            while i < len(bytes_):
                b = bytes_[i]
                if b & 0xC0 != 0x80 or delivered:
                    problems.append(f"line {ln}: byte {b:02x} out of place")
                    ok = False
                    break
                port = b & 0x3F
                vc = vcs[k] if vcs else 0
                k += 1
                pr = T.peer.get((cur, port))
                if pr is None:
                    problems.append(f"line {ln}: port {port} of switch {cur} not connected")
                    ok = False
                    break
                if pr[0] == "switch":
                    segs[-1].append((cur, port, vc))
                    cur = pr[1]
                elif i == len(bytes_) - 1 and pr[1] == dst:
                    delivered = True
                elif i + 1 < len(bytes_) and bytes_[i + 1] == 0xC0:
                    segs.append([])   # ITB at host pr[1] of switch cur: the packet is reinjected at cur
                    i += 1
                else:
                    problems.append(f"line {ln}: route reaches host {pr[1]} that is not the destination, without ITB mark")
                    ok = False
                    break
                i += 1
            if ok and not delivered:
                problems.append(f"line {ln}: route {src}->{dst} does not end at host {dst}")
                ok = False
            if ok and vcs is not None and len(vcs) != k:
                problems.append(f"line {ln}: VC list length")
                ok = False
            if ok and vcs is not None and any(v < 0 or v >= nvc for v in vcs):
                problems.append(f"line {ln}: VC out of range")
                ok = False
            if ok:
                routes[(src, dst, alt)] = (segs, vcs[0] if vcs else 0)
    if problems:
        return problems
    for s in range(T.H):
        for d in range(T.H):
            if s != d and (s, d, 0) not in routes:
                return [f"no route from host {s} to host {d}"]
    # deadlock: dependency graph over (channel, vc); an ITB ends the chain
    edges = {}
    for segs, _ in routes.values():
        for seg in segs:
            for (a, pa, va), (b, pb, vb) in zip(seg, seg[1:]):
                edges.setdefault((a, pa, va), set()).add((b, pb, vb))
    colour = {}
    for start in list(edges):
        if start in colour:
            continue
        stack = [(start, iter(edges.get(start, ())))]
        colour[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
            elif colour.get(nxt) == 1:
                problems.append("deadlock: cycle in the channel dependency graph")
                stack = []
                break
            elif nxt not in colour:
                colour[nxt] = 1
                stack.append((nxt, iter(edges.get(nxt, ()))))
        if problems:
            break
    name, kv = parse_header(algo)
    if promise_min:
        dist = {x: T.dist_from(x) for x in T.ports}
        for (s, d, alt), (segs, _) in routes.items():
            if sum(len(g) for g in segs) != dist[T.host[s][0]][T.host[d][0]]:
                problems.append(f"route {s}->{d} alt {alt} promised minimal but is not")
                break
    if name in ("updown", "dl"):
        # docs: vcs= (DL's layers, updown's VCs; an updown header without it means 1 VC) not below the VCs used
        used = max([nvc or 1] + [v + 1 for segs, v0 in routes.values() for seg in segs for (_, _, v) in seg] +
                   [v0 + 1 for _, v0 in routes.values()])
        if "vcs" in kv or name == "updown":
            if not kv.get("vcs", "1").isdigit() or int(kv.get("vcs", "1")) < used:
                return problems + [f"algorithm {name}: vcs={kv.get('vcs', '(none: 1)')} below the {used} VCs used"]
    if name == "updown":
        # docs: an updown route keeps the VC it starts on (chosen at the source)
        for (s, d, alt), (segs, v0) in routes.items():
            if any(v != v0 for seg in segs for (_, _, v) in seg):
                problems.append(f"route {s}->{d} alt {alt}: changes VC (updown keeps one VC per route)")
                break
    updown = name in ("updown", "itb", "clos-all") or (name == "fm" and kv.get("deadlock") == "itb")
    if updown or name == "dl":
        if "root" not in kv:
            return problems + [f"algorithm {name}: no root recorded"]
        root = int(kv["root"].split("(")[0])
        level, pre = T.orientation(root)
    if updown:
        for (s, d, alt), (segs, _) in routes.items():
            bad = False
            for seg in segs:
                down = False
                for (a, pa, _) in seg:
                    b = T.peer[(a, pa)][1]
                    up = T.is_up(level, a, b)
                    if up and down:
                        bad = True
                    if not up:
                        down = True
            if bad:
                problems.append(f"route {s}->{d} alt {alt}: down->up turn")
                break
    if name == "dl":
        rule = kv.get("rule")

        def cls(a, b):
            up = T.is_up(level, a, b)
            if rule == "(L-turn)*":
                left = pre[b] < pre[a]
                return (1 if up else 0) if left else (2 if up else 3)   # LD 0, LU 1, RU 2, RD 3
            return 0 if up else 1

        def allowed(v, x, y):
            if rule == "(UD)*":
                return not (x == 1 and y == 0)
            if rule == "(UD-DU)*":
                return not (x == 1 and y == 0) if v % 2 == 0 else not (x == 0 and y == 1)
            if rule == "UD-(DU)*":
                return not (x == 1 and y == 0) if v == 0 else not (x == 0 and y == 1)
            if rule == "(L-turn)*":
                return x <= y
            raise ValueError(rule)

        for (s, d, alt), (segs, v0) in routes.items():
            bad = None
            pv, pc = v0, None
            for (a, pa, v) in segs[0]:
                b = T.peer[(a, pa)][1]
                c = cls(a, b)
                if v > pv:
                    bad = "layer climbs"
                elif pc is not None and v == pv and not allowed(v, pc, c):
                    bad = "forbidden turn inside a layer"
                pv, pc = v, c
            if bad:
                problems.append(f"route {s}->{d} alt {alt}: {bad}")
                break
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: refcheck.py TOPOLOGY ROUTES")
    probs = check(open(sys.argv[1]).read(), open(sys.argv[2]).read())
    print("\n".join(probs) if probs else "ok")
    sys.exit(1 if probs else 0)


if __name__ == "__main__":
    main()
