#!/usr/bin/env python3
"""Tests of scripts/check_params.py (the parameter defaults' copies against cmodel/sanfab_params.h): the repository
passes; a temporary copy of the files it reads passes, and fails, naming FILE:LINE, the name, the copy's value and
the table's, once one copy is made wrong (an RTL submodule, an Icarus bench, a mk file, a doc table's default or
range, mk/net.mk, a network top, sanfab-sim's key table) or the table itself is. Under a second.

  python3 scripts/test_check_params.py [-v]
"""
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_params  # noqa: E402

ROOT = check_params.ROOT


def files_read():
    """Every file the checker reads (relative paths)."""
    rels = {check_params.TABLE, "mk/net.mk", "docs/network.md", "sw/sim/sf_simkeys.c", "sw/sim/sf_simcfg.c"}
    c = check_params.Checker(ROOT)
    for spec in list(check_params.BLOCKS.values()) + list(check_params.NETS.values()):
        rels.update(c.files(spec["rtl"]))
        for k in ("mk", "doc"):
            if k in spec:
                rels.add(spec[k])
    return sorted(rels)


def run(root):
    """(exit code, output) of the checker on the tree at root."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = check_params.main(["--root", root])
    return rc, out.getvalue()


class CheckParams(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="check_params.")
        for rel in files_read():
            os.makedirs(os.path.join(self.tmp, os.path.dirname(rel)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, rel), os.path.join(self.tmp, rel))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, rel, pattern, repl):
        """Replace the first match of pattern in the copy of rel; return the 1-based line of the change."""
        path = os.path.join(self.tmp, rel)
        with open(path) as f:
            text = f.read()
        m = re.search(pattern, text, re.M)
        self.assertIsNotNone(m, "%s: no %r" % (rel, pattern))
        with open(path, "w") as f:
            f.write(text[: m.start()] + m.expand(repl) + text[m.end():])
        return text[: m.start()].count("\n") + 1

    def fails_with(self, line):
        rc, out = run(self.tmp)
        self.assertEqual(rc, 1, out)
        self.assertIn(line, out.splitlines())

    def test_repository_passes(self):
        rc, out = run(ROOT)
        self.assertEqual(rc, 0, out)

    def test_copy_passes(self):
        rc, out = run(self.tmp)
        self.assertEqual(rc, 0, out)

    def test_rtl_submodule(self):
        n = self.edit("rtl/xbar/xbar_ingress.v", r"(parameter SLACK_DEPTH\s*=\s*)80", r"\g<1>81")
        self.fails_with("rtl/xbar/xbar_ingress.v:%d: SLACK_DEPTH is 81, the table says 80" % n)

    def test_icarus_bench(self):
        n = self.edit("tb/vcsw/vcsw_icarus_tb.v", r"(parameter\s+DEPTH\s*=\s*)64", r"\g<1>32")
        self.fails_with("tb/vcsw/vcsw_icarus_tb.v:%d: DEPTH is 32, the table says 64" % n)

    def test_mk_params(self):
        n = self.edit("mk/mlc.mk", r"(mlc_PARAMS\s*:=.*TURN=)1", r"\g<1>2")
        self.fails_with("mk/mlc.mk:%d: TURN is 2, the table says 1" % n)

    def test_doc_table(self):
        n = self.edit("docs/xbar.md", r"^(\| `GO_THRESH` \| )40", r"\g<1>41")
        self.fails_with("docs/xbar.md:%d: GO_THRESH is 41, the table says 40" % n)

    def test_doc_range(self):
        n = self.edit("docs/vcsw.md", r"^(\| `LINK_DELAY` \| 0 \| 0\.\.)64", r"\g<1>63")
        self.fails_with("docs/vcsw.md:%d: LINK_DELAY's range is 0..63, the table says 0..64" % n)

    def test_net_mk_and_top(self):
        n = self.edit("mk/net.mk", r"(NET_PARAMS_xbar\s*:=.*ROUTE_DELAY=)21", r"\g<1>20")
        self.fails_with("mk/net.mk:%d: ROUTE_DELAY is 20, the table says 21" % n)
        n = self.edit("rtl/net/vnet4.v", r"(parameter TAG_W\s*=\s*)12", r"\g<1>10")
        self.fails_with("rtl/net/vnet4.v:%d: TAG_W is 10, the table says 12" % n)

    def test_sim_key_table(self):
        n = self.edit("sw/sim/sf_simkeys.c", r'(\[K_SLACK\] = \{"slack", ")80', r"\g<1>96")
        self.fails_with("sw/sim/sf_simkeys.c:%d: SLACK_DEPTH (slack, xbar column) is 96, the table says 80" % n)

    def test_table_changed(self):
        self.edit(check_params.TABLE, r"^(XBAR_PARAM\(TIMEOUT,\s*)4096", r"\g<1>4000")
        rc, out = run(self.tmp)
        self.assertEqual(rc, 1, out)
        for rel in ("rtl/xbar/xbar.v", "rtl/xbar/xbar_in.v", "tb/xbar/xbar_icarus_tb.v", "mk/xbar.mk", "docs/xbar.md"):
            self.assertRegex(out, r"(?m)^%s:\d+: TIMEOUT is 4096, the table says 4000$" % re.escape(rel))


if __name__ == "__main__":
    unittest.main()
