#!/usr/bin/env python3
"""Tests of seed 004's experiments module (scripts/exp_seed004.py; docs/experiments-seed004.md): the tree shapes it
names, its checks (the required multicast target fails below 5x, holds at 5x and above), and its page built from a
small hand-made set of JSON (every section, the paper's numbers beside ours, the 16-node limit stated, no PNG named
that is not there). No simulator runs; well under a second.

  python3 scripts/test_exp_seed004.py [-v]
"""
import argparse
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import exp_seed004 as E  # noqa: E402


def read(path):
    with open(path) as f:
        return f.read()


def args(full=False):
    a = argparse.Namespace(full=full, md_dir_arg=None, seed=1)
    E.configure(a)
    return a


def stat(lo, avg, hi):
    return {"min": lo, "avg": avg, "max": hi, "min_us": lo * 0.02, "avg_us": avg * 0.02, "max_us": hi * 0.02}


def fig8():
    parts = {"t1": stat(50, 60, 71), "t2": stat(5, 5, 5), "t3": stat(8, 8, 8), "t4": stat(51, 51, 51),
             "total": stat(114, 124, 135)}
    return {"network": E.gen_line(E.BOX8), "hosts": 8, "reps": 4, "parts": parts, "t1_max_minus_t4_min": 20,
            "t1_max_minus_t4_min_us": 0.4, "t1_spread": 21, "t1_spread_us": 0.42,
            "table2_us": {"ni_sw": 1.2, "sw": 0.26, "sw_ni": 1.02, "total": 2.48}}


def fig9():
    rows = []
    for s, pp, pi in ((16, 3.3, 3.0), (2048, 19.9, 11.8), (65536, 23.8, 12.2)):
        rows.append({"size": s, "reps": 4, "pingpong_rt_us": 1.0, "pingpong_mbytes_s": pp, "pingpong_frac": pp / 25,
                     "pingping_rt_us": 1.0, "pingping_mbytes_s": pi, "pingping_frac": pi / 25, "ratio": pi / pp,
                     "f2f_pingpong_mbytes_s": pp + 1, "f2f_pingping_mbytes_s": pi + 0.5})
    return {"network": E.gen_line(E.BOX8), "hosts": [0, 1], "same_box": True, "face_to_face": "bench.json", "rows": rows}


def multicast(ratio7):
    rows = [{"members": k, "mc_bus_words": 8, "uc_bus_words": 8 * k if k < 7 else int(8 * ratio7),
             "bus_ratio": float(k) if k < 7 else ratio7, "mc_latency_us": 2.26, "uc_latency_us": 2.26 + k,
             "mc_mbytes_s": 6.7 * k, "uc_mbytes_s": 6.7} for k in range(1, 8)]
    return {"network": E.gen_line(E.BOX8), "message_bytes": 16, "rows": rows}


def barrier():
    return {"rows": [{"network": E.gen_line(t), "levels": t[0], "nodes": E.tree_nodes(t), "boxes": E.tree_boxes(t),
                      "latency_us_min": 2.0 * t[0], "latency_us_avg": 2.5 * t[0], "latency_us_max": 3.0 * t[0],
                      "latency_cycles_avg": 125.0 * t[0]} for t in ((1, 8, 8, 0), (2, 8, 4, 4))],
            "max_nodes": 16, "requested_nodes": 64}


def trees():
    rows = []
    for t, u in (((1, 8, 4, 0), 0.16), ((1, 8, 8, 0), 0.14), ((2, 8, 2, 2), 0.13)):
        for pat in ("uniform", "hotspot"):
            thr = u if pat == "uniform" else u * 0.9
            r = {"network": E.gen_line(t), "levels": t[0], "fanout": t[3], "hosts_per_leaf": t[2], "ports": t[1],
                 "nodes": E.tree_nodes(t), "boxes": E.tree_boxes(t), "message_size": 11, "traffic": pat,
                 "throughput_bytes_cycle_host": thr, "throughput_mbytes_s_host": E.mbytes(thr),
                 "aggregate_mbytes_s": E.mbytes(thr) * E.tree_nodes(t), "reached_saturation": True,
                 "saturation_load": 0.2, "points": [[0.02, 0.02, 0.02, 140.0, False]], "latency_us_low": 2.8}
            if t[0] > 1:
                r["busiest_link"] = {"between": [0, 1], "util_both_ways": 0.99}
            rows.append(r)
    return {"rows": rows, "hotspot_percent": 10, "warmup": 5000, "cycles": 30000, "message_sizes": [11],
            "load_unit": "payload bytes/host/cycle"}


class Shapes(unittest.TestCase):
    def test_trees(self):
        self.assertEqual(E.gen_line((1, 8, 8, 0)), "tree --levels 1 --ports 8 --hosts 8")
        self.assertEqual(E.gen_line((2, 5, 4, 4)), "tree --levels 2 --ports 5 --hosts 4 --fanout 4")
        self.assertEqual((E.tree_nodes((2, 8, 4, 4)), E.tree_boxes((2, 8, 4, 4))), (16, 5))
        self.assertEqual((E.tree_nodes((3, 8, 2, 2)), E.tree_boxes((3, 8, 2, 2))), (8, 7))
        for full in (False, True):  # every network of either mode fits a Maestro network (16 nodes at most)
            a = args(full)
            self.assertTrue(all(E.tree_nodes(t) <= E.MAX_NODES for t in a.trees + a.barrier_trees))
            self.assertIn(16, [E.tree_nodes(t) for t in a.barrier_trees])


class Checks(unittest.TestCase):
    def test_multicast_target_is_required(self):
        for ratio, ok in ((4.9, False), (5.0, True), (7.0, True)):
            ch = E.multicast_checks(multicast(ratio))
            req = [c for c in ch if c[1]]
            self.assertEqual(len(req), 1)
            self.assertEqual(req[0][0], ok, ratio)

    def test_paper_comparisons_are_not_required(self):
        for ch in (E.fig8_checks(fig8()), E.fig9_checks(fig9()), E.barrier_checks(barrier()), E.trees_checks(trees())):
            self.assertTrue(ch)
            self.assertFalse(any(hard for _, hard, _ in ch))
            self.assertTrue(all(ok for ok, _, _ in ch))


class Page(unittest.TestCase):
    def test_page_from_small_json(self):
        a = args()
        with tempfile.TemporaryDirectory() as td:
            a.md_dir_arg = td
            path = E.md_path(a)
            found = [("fig8", fig8()), ("fig9", fig9()), ("multicast", multicast(7.0)), ("barrier", barrier()),
                     ("trees", trees())]
            for _, d in found:
                d["checks"] = [{"ok": True, "required": False, "check": "a check"}]
            E.write_md(path, a, found, [])
            text = read(path)
        for want in ("## Fig. 8 and Table 2", "| paper (Maestro NI, Maestro SB) | 1.78 | 2.26 | 1.78 | 5.82 |",
                     "against the paper's **1.12 us**", "## Fig. 9 through the box", "## Multicast", "| 7 | 8 | 56 | 7.0x",
                     "## Barriers", "at most 16 nodes", "## Trees of boxes", "`tree --levels 2 --ports 8 --hosts 2 --fanout 2`",
                     "## Checks", "- ok: a check"):
            self.assertIn(want, text)
        self.assertNotIn(".png)", text)  # no plot was made: none is named
        self.assertNotIn("Not run yet", text)

    def test_page_names_what_is_missing(self):
        a = args()
        with tempfile.TemporaryDirectory() as td:
            a.md_dir_arg = td
            E.write_md(E.md_path(a), a, [("fig8", fig8())], ["fig9", "multicast", "barrier", "trees"])
            text = read(E.md_path(a))
        self.assertIn("Not run yet: fig9, multicast, barrier, trees.", text)
        self.assertTrue(E.md_path(a).endswith("experiments-seed004.md"))


if __name__ == "__main__":
    unittest.main()
