#!/usr/bin/env python3
"""Check every copy of the blocks' parameter defaults against their one table, cmodel/sanfab_params.h.

  scripts/check_params.py              check (make lint runs this); exit 1 naming each mismatch as
                                       FILE:LINE: NAME is X, the table says Y
  scripts/check_params.py --root DIR   check the tree at DIR instead of this repository (the tests)
  scripts/check_params.py --list       print the table as the checker reads it
  scripts/check_params.py --ranges B   print block B's top-level parameters, one "NAME DEFAULT LO HI" a line
                                       (tb/common/param_range_test.sh: the values just outside them)

The C code takes its defaults from the table itself (X-macros: the C models' default-params functions,
sanfab-sim's sf_sim_cfg_default). What the compiler does not reach is checked here:
  - every `parameter NAME = V` of the block's RTL (tops, submodules) and Icarus benches, for the table's names
  - mk/<block>.mk's <block>_PARAMS (the same names, the same defaults)
  - the docs' parameter tables (docs/<block>.md: a table whose header has a "default" column): the defaults, and
    the ranges where the "range" column is plain numbers ("2..32", "0, 1", "8, 16, ..., 256": LO and HI)
  - the networks: rtl/net/<top>.v's parameters, mk/net.mk's NET_PARAMS_<kind> and NET_KEY_<NAME>, sanfab-sim's key
    table (sw/sim/sf_simkeys.c: the default columns of --help), its VC network's cable default (sw/sim/sf_simcfg.c)
    and docs/network.md's key table
A block is a line of BLOCKS below (adding the switch box: its macro in the table, its line here).
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = "cmodel/sanfab_params.h"

# block -> the table's macros of the block, the macros mk/<block>.mk's PARAMS lists, the RTL files (globs; a file
# is checked for the names it declares), the doc (and the macros its parameter table lists, when not all)
BLOCKS = {
    "xbar": dict(macros=("XBAR_PARAM",), mk_macros=("XBAR_PARAM",), mk="mk/xbar.mk",
                 rtl=("rtl/xbar/*.v", "tb/xbar/*_icarus_tb.v"), doc="docs/xbar.md"),
    "vcsw": dict(macros=("VCSW_PARAM",), mk_macros=("VCSW_PARAM",), mk="mk/vcsw.mk",
                 rtl=("rtl/vcsw/*.v", "tb/vcsw/*_icarus_tb.v"), doc="docs/vcsw.md"),
    "mlc": dict(macros=("MLC_PARAM", "MLC_END_PARAM", "MLC_LINK_PARAM"), mk_macros=("MLC_PARAM", "MLC_LINK_PARAM"),
                mk="mk/mlc.mk", rtl=("rtl/mlc/mlc.v", "rtl/mlc/mlc_pair.v", "tb/mlc/mlc_icarus_tb.v"),
                doc="docs/mlc.md", doc_macros=("MLC_PARAM", "MLC_END_PARAM")),
}
# block -> the macros of its top's parameters (the top its mk file names: the MLC's is the pair)
TOP_MACROS = {"xbar": ("XBAR_PARAM",), "vcsw": ("VCSW_PARAM",), "mlc": ("MLC_PARAM", "MLC_LINK_PARAM")}
# network kind -> the table's macro, the network tops of that kind
NETS = {
    "xbar": dict(macro="NET_XBAR_PARAM", rtl=("rtl/net/net4.v",)),
    "vcsw": dict(macro="NET_VCSW_PARAM", rtl=("rtl/net/vnet4.v",)),
    "sbox": dict(macro="NET_SBOX_PARAM", rtl=()),  # no committed top: its networks are generated under build/
}

MACRO_RE = re.compile(r"^\s*([A-Z_]+_PARAM)\(([^)]*)\)\s*$")


class Table:
    """The table: block entries (macro, name, default, lo, hi, line) and network entries (macro, name, key,
    default, field, line)."""

    def __init__(self, root):
        self.path = os.path.join(root, TABLE)
        self.params = []
        self.nets = []
        with open(self.path) as f:
            for n, line in enumerate(f, 1):
                m = MACRO_RE.match(line)
                if not m:
                    continue
                args = [a.strip() for a in m.group(2).split(",")]
                if m.group(1).startswith("NET_"):
                    if len(args) != 4:
                        raise SystemExit("%s:%d: a NET_*_PARAM line takes 4 arguments" % (TABLE, n))
                    self.nets.append(dict(macro=m.group(1), name=args[0], key=args[1], default=int(args[2]),
                                          field=args[3], line=n))
                else:
                    if len(args) != 4:
                        raise SystemExit("%s:%d: a *_PARAM line takes 4 arguments" % (TABLE, n))
                    self.params.append(dict(macro=m.group(1), name=args[0], default=int(args[1]), lo=int(args[2]),
                                            hi=int(args[3]), line=n))

    def block(self, b, macros=None):
        """The ordered {name: entry} of block b (its macros, or the given ones)."""
        ms = macros or BLOCKS[b]["macros"]
        return {p["name"]: p for p in self.params if p["macro"] in ms}

    def net(self, kind):
        """The ordered {name: entry} of network kind `kind`."""
        return {p["name"]: p for p in self.nets if p["macro"] == NETS[kind]["macro"]}


class Checker:
    def __init__(self, root):
        self.root = root
        self.errors = []
        self.checked = 0

    def err(self, path, line, msg):
        self.errors.append("%s:%d: %s" % (path, line, msg))

    def same(self, path, line, name, got, want):
        """Compare one copy (got: text or int) with the table's value."""
        self.checked += 1
        if str(got).strip() != str(want):
            self.err(path, line, "%s is %s, the table says %s" % (name, str(got).strip(), want))

    def read(self, rel):
        with open(os.path.join(self.root, rel)) as f:
            return f.read()

    def files(self, globs):
        out = []
        for g in globs:
            out += sorted(os.path.relpath(p, self.root) for p in glob.glob(os.path.join(self.root, g)))
        return out

    # ------------------------------------------------------------------ RTL
    PARAM_RE = re.compile(r"\bparameter\s+(?:integer\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^,;)\n/]+)")

    def rtl(self, rel, want):
        """Every `parameter NAME = V` of file rel whose NAME is in want ({name: default})."""
        text = self.read(rel)
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("//")[0]
            for m in self.PARAM_RE.finditer(code):
                if m.group(1) in want:
                    self.same(rel, n, m.group(1), m.group(2), want[m.group(1)])

    # ------------------------------------------------------------------ make
    def mk_var(self, rel, var):
        """(value, line) of `var := value` in a makefile (continuation lines joined), or (None, 0)."""
        lines = self.read(rel).splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^%s\s*:?=\s*(.*)$" % re.escape(var), line)
            if m:
                val = m.group(1)
                j = i
                while val.endswith("\\"):
                    j += 1
                    val = val[:-1] + " " + lines[j]
                return val.split("#")[0], i + 1
        return None, 0

    def mk_params(self, rel, var, want):
        """var := NAME=V ... holds exactly want's names, with want's values."""
        val, line = self.mk_var(rel, var)
        if val is None:
            self.err(rel, 1, "%s not found (the table lists %s)" % (var, " ".join(want)))
            return
        got = dict(w.split("=", 1) for w in val.split() if "=" in w)
        for name, v in want.items():
            if name not in got:
                self.err(rel, line, "%s is missing from %s, the table says %s" % (name, var, v))
            else:
                self.same(rel, line, name, got[name], v)
        for name in got:
            if name not in want:
                self.err(rel, line, "%s is in %s, the table has no such parameter" % (name, var))

    # ------------------------------------------------------------------ docs
    @staticmethod
    def cells(line):
        return [c.strip() for c in line.strip().strip("|").split("|")]

    def doc_tables(self, rel):
        """Yield (line, header cells, row cells) for every row of every Markdown table of a doc."""
        header = None
        for n, line in enumerate(self.read(rel).splitlines(), 1):
            if not line.startswith("|"):
                header = None
                continue
            if header is None:
                header = [c.lower() for c in self.cells(line)]
                continue
            if set(line.strip()) <= set("|-: "):
                continue
            yield n, header, self.cells(line)

    @staticmethod
    def doc_range(cell):
        """(lo, hi) of a range cell of plain numbers ("2..32", "0, 1", "8, 16, 32", "0, or 16..65535", "4..255 (RTL),
        ..." -- the first range before a remark), or None (a symbolic bound: "1..`DEPTH`", "2^24-1")."""
        cell = cell.split("(")[0].strip().rstrip(",")
        if not re.match(r"^[0-9]+( *(\.\.|,|, or) *[0-9]+)*$", cell):
            return None
        nums = [int(x) for x in re.findall(r"[0-9]+", cell)]
        return nums[0], nums[-1]

    def doc_params(self, rel, want, ranges=None):
        """A parameter table's rows (`NAME` | default | range | ...) agree with want ({name: default}) and ranges
        ({name: (lo, hi)}, where the doc's range is plain numbers); every name of want has a row."""
        seen = set()
        for n, header, row in self.doc_tables(rel):
            if "default" not in header:
                continue
            m = re.match(r"^`([A-Z_][A-Z0-9_]*)`$", row[0])
            if not m or m.group(1) not in want:
                continue
            name = m.group(1)
            seen.add(name)
            if ranges and "range" in header and name in ranges:
                r = self.doc_range(row[header.index("range")])
                if r is not None:
                    self.same(rel, n, name + "'s range", "%d..%d" % r, "%d..%d" % ranges[name])
            got = row[header.index("default")]
            if got in ("—", "-"):  # no default (the MLC's MASTER: the two ends differ)
                continue
            self.same(rel, n, name, got, want[name])
        for name in want:
            if name not in seen:
                self.err(rel, 1, "%s has no row in a parameter table (| `NAME` | default | ...)" % name)

    def doc_keys(self, rel, kind, want):
        """docs/network.md's key table: the `kind` column of the rows naming want's keys ({key: (name, default)})."""
        for n, header, row in self.doc_tables(rel):
            if header[:1] != ["key"] or kind not in header:
                continue
            keys = [k.strip().strip("`") for k in row[0].split(",")]
            vals = [v.strip() for v in row[header.index(kind)].split(",")]
            for k, v in zip(keys, vals):
                if k in want and re.match(r"^[0-9]+$", v):
                    self.same(rel, n, "%s (%s)" % (want[k][0], k), v, want[k][1])

    # ------------------------------------------------------------------ sanfab-sim
    def sim_keys(self, table):
        rel = "sw/sim/sf_simkeys.c"
        keys = {}
        for n, line in enumerate(self.read(rel).splitlines(), 1):
            m = re.match(r'^\s*\[K_\w+\] = \{"([^"]+)", "([^"]*)", (NULL|"([^"]*)")(.*FOR_\w+, "([^"]*)"\})?', line)
            if m:
                keys[m.group(1)] = (m.group(2), m.group(4), n, m.group(6))
        for kind in NETS:
            for p in table.net(kind).values():
                if p["key"] not in keys:
                    self.err(rel, 1, "%s: no key %s in sf_sim_keys (the table's key of it)" % (p["name"], p["key"]))
                    continue
                xdef, vdef, n, sdef = keys[p["key"]]
                if kind == "sbox":  # the sbox column: its own default, else the first
                    got = sdef if sdef is not None else xdef
                else:
                    got = xdef if kind == "xbar" else (vdef if vdef is not None else xdef)
                if got == "(packet)":  # maxlen: the packet length by default, packet-flits's default
                    got = keys["packet-flits"][1]
                self.same(rel, n, "%s (%s, %s column)" % (p["name"], p["key"], kind), got, p["default"])
        # the VC network's cable: sf_sim_cfg_kind_defaults sets link_delay when the key is not given
        rel = "sw/sim/sf_simcfg.c"
        text = self.read(rel)
        m = re.search(r"if \(!c->given\[K_LINKDELAY\]\)\s*c->link_delay = (\w+);", text)
        if not m:
            self.err(rel, 1, "the VC network's link_delay default (if (!c->given[K_LINKDELAY]) ...) not found")
        else:
            line = text[: m.start(1)].count("\n") + 1
            self.same(rel, line, "LINK_DELAY (link-delay, vcsw)", m.group(1), table.net("vcsw")["LINK_DELAY"]["default"])

    def run(self):
        table = Table(self.root)
        for b, spec in BLOCKS.items():
            want = {n: p["default"] for n, p in table.block(b).items()}
            for rel in self.files(spec["rtl"]):
                self.rtl(rel, want)
            mk_want = {n: p["default"] for n, p in table.block(b, spec["mk_macros"]).items()}
            self.mk_params(spec["mk"], "%s_PARAMS" % b, mk_want)
            doc = table.block(b, spec.get("doc_macros"))
            self.doc_params(spec["doc"], {n: p["default"] for n, p in doc.items()},
                            {n: (p["lo"], p["hi"]) for n, p in doc.items()})
        for kind, spec in NETS.items():
            net = table.net(kind)
            want = {n: p["default"] for n, p in net.items()}
            for rel in self.files(spec["rtl"]):
                self.rtl(rel, want)
            self.mk_params("mk/net.mk", "NET_PARAMS_%s" % kind, want)
            for n, p in net.items():
                # a kind's own name first (NET_KEY_sbox_TIMEOUT: its TIMEOUT is not the crossbar's), then the shared one
                var = "NET_KEY_%s_%s" % (kind, n)
                val, line = self.mk_var("mk/net.mk", var)
                if val is None:
                    var = "NET_KEY_%s" % n
                    val, line = self.mk_var("mk/net.mk", var)
                if val is None:
                    self.err("mk/net.mk", 1, "NET_KEY_%s not found, the table says %s" % (n, p["key"]))
                else:
                    self.same("mk/net.mk", line, var, val, p["key"])
            self.doc_keys("docs/network.md", kind, {p["key"]: (n, p["default"]) for n, p in net.items()})
        self.sim_keys(table)
        return table


def main(argv):
    root = ROOT
    args = list(argv)
    if "--help" in args or "-h" in args:
        print(__doc__.strip())
        return 0
    if "--root" in args:
        i = args.index("--root")
        if i + 1 >= len(args):
            print("check_params.py: --root needs a directory", file=sys.stderr)
            return 2
        root = args[i + 1]
        del args[i:i + 2]
    if "--ranges" in args:
        i = args.index("--ranges")
        if i + 1 >= len(args) or args[i + 1] not in TOP_MACROS:
            print("check_params.py: --ranges needs a block: %s" % ", ".join(TOP_MACROS), file=sys.stderr)
            return 2
        for p in Table(root).block(args[i + 1], TOP_MACROS[args[i + 1]]).values():
            print(p["name"], p["default"], p["lo"], p["hi"])
        return 0
    listing = "--list" in args
    if listing:
        args.remove("--list")
    if args:
        print("check_params.py: unknown argument %s (--help)" % args[0], file=sys.stderr)
        return 2
    c = Checker(root)
    table = c.run()
    if listing:
        for p in table.params:
            print("%-14s %-12s %10d  %d..%d" % (p["macro"], p["name"], p["default"], p["lo"], p["hi"]))
        for p in table.nets:
            print("%-14s %-12s %10d  key %s" % (p["macro"], p["name"], p["default"], p["key"]))
    for e in c.errors:
        print(e)
    if listing:
        print("%d copies checked" % c.checked)
    if c.errors:
        print("check_params.py: %d copies differ from %s" % (len(c.errors), TABLE))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
