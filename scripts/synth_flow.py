"""sanfab synthesis flow (scripts/synth.py), its runs: the Yosys and nextpnr commands and their logs, a
config's job (prepare: scripts, commands, cache key), the cell counting of Yosys's statistics, and the
runs themselves with their cached results under build/synth/<name>/."""

import contextlib
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sysconfig
import threading
import time

from synth_records import (BUILD_DIR, DEVICES, ROOT, TOOL_ENV, TOOL_TIMEOUT_S, FlowError, constraint_file,
                           inputs_sha, judge_fields, log, median_run, module_params, read_filelist, read_json, read_text,
                           rel, vlit, wrapper_files)

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
    overuse count, whether routing had begun), None where absent."""
    est = over = None
    routing = False
    try:
        with open(os.path.join(ROOT, logfile), errors="replace") as fh:
            for line in fh:
                if re.match(r"Info: (Routing\.\.|Routing \d+ arcs|Running router2)", line):
                    routing = True
                m = re.search(r"Max frequency for clock .*?: ([0-9.]+) MHz", line)
                if m:
                    est = float(m.group(1))
                m = re.search(r"overused=(\d+)", line) or re.match(r"Info:\s+\d+ \|.*\|\s*(\d+)\|", line)
                if m:
                    over = int(m.group(1))
    except OSError:
        pass
    return est, over, routing


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


# ----------------------------------------------------------------------------- jobs

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

    # one nextpnr run per seed, each in its own directory, all from the one netlist
    pnr = []
    for seed in cfg["_seeds"]:
        sdir = os.path.join(bdir, "seed%d" % seed)
        os.makedirs(os.path.join(ROOT, sdir), exist_ok=True)
        report = os.path.join(sdir, "pnr_report.json")
        args = dev["args"] + ["--json", netlist, dev["constraint_flag"], constraint,
                              "--freq", str(cfg["target_mhz"]), "--seed", str(seed),
                              "--report", report, "--timing-allow-fail", "-q",
                              "-l", os.path.join(sdir, "pnr.log")] + list(cfg.get("nextpnr_opts", []))
        pnr.append({"seed": seed, "dir": sdir, "report": report, "args": args,
                    "inputs_sha": inputs_sha(cfg, filelists, seed)})

    versions = tool_versions(["yosys", dev["nextpnr"]])
    inputs = inputs_sha(cfg, filelists)
    h = hashlib.sha256()
    h.update(json.dumps([inputs, versions, ys], sort_keys=True).encode())
    synth_key = h.hexdigest()
    for p in pnr:
        # a seed's run is cached on its own: adding a seed to a config places only the new one
        p["key"] = hashlib.sha256(json.dumps([synth_key, p["args"]]).encode()).hexdigest()
    h.update(json.dumps([p["args"] for p in pnr], sort_keys=True).encode())
    return {"synth_key": synth_key, "cfg": cfg, "dev": dev, "dir": bdir, "files": files, "ys": ys_file,
            "stat": stat_json, "ys_bd": ys_bd_file, "stat_bd": bd_stat, "pnr": pnr,
            "versions": versions, "key": h.hexdigest(), "inputs_sha": inputs, "core": core, "top": top,
            "constraint": constraint, "filelist": flist, "slots": None}


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
    with tool_slot(job):
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

    # Yosys, unless this netlist was made from the same inputs already (a config given one more seed)
    synth_file = os.path.join(ROOT, bdir, "synth_done.json")
    done = None
    if not force and os.path.isfile(synth_file) and os.path.isfile(os.path.join(ROOT, bdir, "netlist.json")):
        try:
            done = read_json(synth_file)
        except (OSError, ValueError):
            done = None
    if done and done.get("_key") == job["synth_key"] and os.path.isfile(os.path.join(ROOT, job["stat"])):
        rec["synth_seconds"] = done.get("synth_seconds")
        log("[%s] yosys: netlist of these inputs already made" % cfg["name"])
    else:
        for f in (job["stat"], synth_file):
            if os.path.exists(os.path.join(ROOT, f)):
                os.remove(os.path.join(ROOT, f))
        log("[%s] yosys %s ..." % (cfg["name"], dev["synth"]))
        with tool_slot(job):
            rc, secs = run_tool(tool_cmd("yosys") + ["-s", job["ys"]], os.path.join(bdir, "yosys.log"))
        rec["synth_seconds"] = round(secs, 1)
        if rc != 0 or not os.path.isfile(os.path.join(ROOT, job["stat"])):
            rec["error"] = "yosys failed (rc %d): %s; log %s/yosys.log" % (
                rc, " | ".join(log_errors(os.path.join(bdir, "yosys.log"))), bdir)
            return finish(job, rec)
        with open(synth_file, "w") as fh:
            json.dump({"_key": job["synth_key"], "synth_seconds": rec["synth_seconds"]}, fh)
    secs = rec["synth_seconds"] or 0.0
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

    # the seeds' place-and-route runs, side by side as far as the tool slots allow
    threads = []
    runs = [None] * len(job["pnr"])

    def place(i, p):
        try:
            runs[i] = run_pnr(job, p, force)
        except FlowError as e:
            runs[i] = {"seed": p["seed"], "inputs_sha": p["inputs_sha"], "pnr_ok": False, "fits": False,
                       "fmax_mhz": None, "pnr_seconds": 0.0, "error": str(e)}

    for i, p in enumerate(job["pnr"]):
        t = threading.Thread(target=place, args=(i, p))
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    med = median_run(runs)
    for k in ("pnr_ok", "fits", "fmax_mhz", "critical_path", "device_utilization", "fit_error", "route_error",
              "fmax_est_mhz", "error"):
        if k in med:
            rec[k] = med[k]
    rec["pnr_seconds"] = round(sum(r["pnr_seconds"] for r in runs), 1)
    rec["seeds"] = [r["seed"] for r in runs]
    rec["median_seed"] = med["seed"]
    if len(runs) > 1:
        rec["runs"] = runs
        log("[%s] seeds %s: Fmax %s MHz, median %s (seed %d)" % (
            cfg["name"], ", ".join(str(r["seed"]) for r in runs),
            " / ".join("-" if r.get("fmax_mhz") is None else "%.1f" % r["fmax_mhz"] for r in runs),
            "-" if med.get("fmax_mhz") is None else "%.1f" % med["fmax_mhz"], med["seed"]))
    return finish(job, rec)


def run_pnr(job, p, force):
    """One seed's nextpnr run of a synthesized config, from its cache unless `force`: its result (a dict
    with "seed")."""
    cfg = job["cfg"]
    run_file = os.path.join(ROOT, p["dir"], "run.json")
    if not force and os.path.isfile(run_file):
        try:
            old = read_json(run_file)
            if old.get("_key") == p["key"]:
                old.pop("_key")
                log("[%s] seed %d: cached" % (cfg["name"], p["seed"]))
                return old
        except (OSError, ValueError):
            pass
    run = run_pnr_uncached(job, p)
    with open(run_file, "w") as fh:
        json.dump(dict(run, _key=p["key"]), fh, indent=1, sort_keys=True)
    return run


def run_pnr_uncached(job, p):
    """nextpnr at one seed (run_pnr's uncached part)."""
    cfg, dev = job["cfg"], job["dev"]
    run = {"seed": p["seed"], "inputs_sha": p["inputs_sha"], "pnr_ok": False, "fits": False, "fmax_mhz": None}
    if os.path.exists(os.path.join(ROOT, p["report"])):
        os.remove(os.path.join(ROOT, p["report"]))
    limit = cfg.get("pnr_timeout_s")
    with tool_slot(job):
        rc, secs = run_tool(tool_cmd(dev["nextpnr"]) + p["args"], os.path.join(p["dir"], "pnr.out"),
                            timeout=limit or TOOL_TIMEOUT_S)
    run["pnr_seconds"] = round(secs, 1)
    rep_path = os.path.join(ROOT, p["report"])
    plog = os.path.join(p["dir"], "pnr.log")
    if limit and rc == -1:
        # a result, not a flow error: placement or routing did not finish within the config's time limit
        est, over, routing = placement_estimate(plog)
        util = log_utilization(plog)
        if util:
            run["device_utilization"] = {k: v for k, v in sorted(util.items()) if v[0]}
        run["fmax_est_mhz"] = est
        if routing:
            run["route_error"] = "the router had not converged after %d s (%s overused wires left); placement " \
                                 "estimate %s MHz" % (limit, "?" if over is None else over,
                                                      "?" if est is None else "%.1f" % est)
        else:
            run["route_error"] = "placement had not finished after %d s (routing not begun); estimate %s MHz" \
                                 % (limit, "?" if est is None else "%.1f" % est)
        log("[%s] seed %d did not route: %s" % (cfg["name"], p["seed"], run["route_error"]))
        return run
    if rc != 0 or not os.path.isfile(rep_path):
        errs = log_errors(plog) or log_errors(os.path.join(p["dir"], "pnr.out"))
        util = log_utilization(plog)
        over = ["%s %d/%d" % (k, u, a) for k, (u, a) in sorted(util.items()) if u > a]
        if util:
            run["device_utilization"] = {k: v for k, v in sorted(util.items()) if v[0]}
        if over or any(re.search(r"no BELs remaining|Failed to expand region|Design uses", e)
                       for e in errs):
            # a result, not a flow error: the design is too big for the device
            run["fit_error"] = "too big for %s: %s" % (
                cfg["device"], ", ".join(over) if over else " | ".join(errs))
            log("[%s] does not fit: %s" % (cfg["name"], run["fit_error"]))
        else:
            run["error"] = "nextpnr (seed %d) failed (rc %d): %s; log %s" % (p["seed"], rc, " | ".join(errs), plog)
        return run
    rep = read_json(rep_path)
    run["pnr_ok"] = True
    util = rep.get("utilization", {})
    run["device_utilization"] = {k: [v["used"], v["available"]] for k, v in sorted(util.items())
                                 if v.get("used")}
    run["fits"] = all(v["used"] <= v["available"] for v in util.values())
    fm = rep.get("fmax", {})
    clk = [k for k in fm if "clk" in k] or list(fm)
    if clk:
        run["fmax_mhz"] = round(min(fm[k]["achieved"] for k in clk), 2)
    cps = rep.get("critical_paths", [])
    if cps:
        path = cps[0].get("path", [])
        if path:
            a, b = path[0]["from"]["cell"], path[-1]["to"]["cell"]
            run["critical_path"] = {"from": a, "to": b,
                                    "in_core": a.startswith("u_core.") or b.startswith("u_core.")}
    return run


@contextlib.contextmanager
def tool_slot(job):
    """Hold one of the run's tool slots (synth.py --jobs) while a tool runs; none when the job has no slots."""
    if job.get("slots") is None:
        yield
        return
    with job["slots"]:
        yield


def finish(job, rec):
    rec["_key"] = job["key"]
    rec["input_hash"] = job["key"][:16]
    rec["inputs_sha"] = job["inputs_sha"]
    with open(os.path.join(ROOT, job["dir"], "result.json"), "w") as fh:
        json.dump(rec, fh, indent=1, sort_keys=True)
    return rec
