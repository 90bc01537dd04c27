"""sanfab-sim's one file per run and the examples (docs/network.md "One file per run", examples/README.md), and the
command-line conventions of sanfab-sim and sanfab-netgen (--version, "did you mean", ranges in messages, the RTL's
switch sizes). Called by run_netsim_tests.py; each function adds its results to the tally it is given."""
import glob
import json
import os
import re
import time

from testlib import run, write

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")


def version():
    with open(os.path.join(ROOT, "VERSION")) as f:
        return f.read().strip()


def drop_config(text):
    """A sanfab-sim JSON without its config line (the second: the files or lines the run was given)."""
    lines = text.split("\n")
    return "\n".join(lines[:1] + lines[2:])


def config_keys(path):
    """The keys a config file gives (first word of each line after the header, comments dropped)."""
    keys = []
    with open(path) as f:
        for line in f.read().split("\n")[1:]:
            line = line.split("#", 1)[0].strip()
            if line:
                keys.append(line.split()[0])
    return keys


def examples_tests(T, build, tmp, sim):
    """Every examples/*.conf runs (shortened) and gives sane JSON; every one is listed in examples/README.md, which
    lists no file that is missing, and has its header (what it reproduces, Run, Time, Expect)."""
    result = T.result
    t0 = time.time()
    confs = sorted(glob.glob(os.path.join(EXAMPLES, "*.conf")))
    names = [os.path.basename(c) for c in confs]
    readme_path = os.path.join(EXAMPLES, "README.md")
    readme = open(readme_path).read() if os.path.exists(readme_path) else ""
    listed = sorted(set(re.findall(r"\]\(([\w.-]+\.conf)\)", readme)))
    result(len(confs) >= 5 and listed == names, "examples: examples/README.md lists every examples/*.conf and no other",
           f"files {names}, listed {listed}")
    for seed in ("first-run", "seed000", "seed001", "seed002", "seed003"):
        result(any(n.startswith(seed) for n in names), f"examples: a config for {seed}", f"files {names}")
    for conf in confs:
        name = os.path.basename(conf)
        text = open(conf).read()
        head = text.split("\n")
        ok = head[0] == "sanfab-sim 1" and all(re.search(r"^#\s+%s:" % w, text, re.M) for w in ("Run", "Time", "Expect"))
        ok = ok and f"sanfab-sim examples/{name}" in text
        result(ok, f"examples: {name} has its header (Run, Time, Expect; the run line names the file)")
        keys = config_keys(conf)
        wl = "workload" in keys or "workload-file" in keys
        out = os.path.join(tmp, "ex-" + name.replace(".conf", ".json"))
        if wl:
            short = ["--message-bytes", "4096", "--messages", "1"] if "workload" in keys else []
        else:  # the file's loads, short windows, a drain so that every point delivers every message
            short = ["--warmup", "300", "--cycles", "2000", "--drain", "50000"]
        t1 = time.time()
        rc, _, err = run([sim, conf, "--quiet", "-o", out] + short, timeout=120)
        secs = time.time() - t1
        ok, detail = rc == 0, err[-600:]
        try:
            d = json.load(open(out))
            ok = ok and d["tool"] == "sanfab-sim" and "topology_gen" in d["config"] and "routing" in d["config"]
            if wl:
                w = d["workload"]
                ok = ok and w["finished"] and w["messages"] > 0 and w["bytes"] > 0 and w["misrouted"] == 0
                ok = ok and w["lost_aborted"] == 0 and w["lost_crc"] == 0 and w["lost_itb_pool"] == 0
                detail = f"finished {w['finished']}, {w['messages']} messages, {w['aggregate_gbit_s']:.2f} Gb/s"
            else:
                pts = d["points"]
                ok = ok and len(pts) >= 3 and all(p["messages"]["delivered"] > 0 and p["deadlock"] is None and
                                                   p["messages"]["misrouted"] == 0 for p in pts)
                for p in pts:  # (the windows are too short for the saturation flags to mean much)
                    acc = p.get("accepted_flits_ns_sw", p.get("accepted_flits_cycle_host", p.get("accepted_bytes_cycle_host")))
                    m = p["messages"]
                    ok = ok and acc > 0 and m["in_flight"] == 0 and m["delivered"] == m["generated"]
                detail = f"{len(pts)} points, each accepted traffic and delivered every message it generated"
        except (OSError, ValueError, KeyError, IndexError, TypeError) as ex:
            ok, detail = False, repr(ex) + err[-600:]
        result(ok, f"examples: {name} runs (shortened, {secs:.1f} s): {detail}", detail)
    result(time.time() - t0 < 60, f"examples: every example ran in {time.time() - t0:.1f} s (budget 60 s)")


def oneconf_tests(T, build, tmp, sim, tag):
    """topology-gen and routing give the three-tool pipeline's results byte for byte; write-* write the tools'
    files; bad lines name FILE:LINE; the two ways of naming the topology (routes) are exclusive."""
    result = T.result
    topo_tool, route_tool = os.path.join(build, "sanfab-topo"), os.path.join(build, "sanfab-route")
    d = os.path.join(tmp, "oneconf")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "w-*")):
        os.remove(f)
    topo, itb, dl, rh = (os.path.join(d, n) for n in ("r8.topo", "itb.routes", "dl.routes", "dl.rhinet"))
    run([topo_tool, "random", "--switches", "8", "--seed", "3", "-o", topo])
    run([route_tool, "itb", topo, "--seed", "5", "-o", itb])
    run([route_tool, "dl", topo, "--vcs", "3", "--select", "sancho", "-o", dl, "--rhinet", rh])
    common = "load 0.02, 0.08\nwarmup 1000\ncycles 4000\nseed 7\n"
    # the crossbar network: random topology, ITB routes
    rc1, out1, err1 = run([sim, "--topology", topo, "--routes", itb, "--load", "0.02,0.08", "--warmup", "1000", "--cycles",
                           "4000", "--seed", "7", "--quiet"])
    cfg = write(os.path.join(d, "x.conf"), "sanfab-sim 1\ntopology-gen random --switches 8 --seed 3\nrouting itb --seed 5\n"
                "write-topology w-x.topo\nwrite-routes w-x.routes\n" + common)
    rc2, out2, err2 = run([sim, cfg, "--quiet"])
    ok = rc1 == 0 and rc2 == 0 and drop_config(out1) == drop_config(out2) and len(out1) > 1000
    result(ok, f"{tag} topology-gen + routing give the same JSON bytes as sanfab-topo | sanfab-route | sanfab-sim "
               "(crossbar network, ITB)", (err1 + err2)[-600:])
    try:
        c = json.loads(out2)["config"]
        ok = (c["topology_gen"] == "random --switches 8 --seed 3" and c["routing"] == "itb --seed 5" and
              c["topology"] == os.path.join(d, "w-x.topo") and json.loads(out2)["network"]["algorithm"].startswith("itb"))
    except (ValueError, KeyError) as ex:
        ok, c = False, repr(ex)
    result(ok, f"{tag} the JSON records the generator and algorithm lines (config topology_gen, routing) and the files "
               "written", str(c)[:400])
    same = all(os.path.exists(os.path.join(d, w)) and open(os.path.join(d, w)).read() == open(ref).read()
               for w, ref in (("w-x.topo", topo), ("w-x.routes", itb)))
    result(same, f"{tag} write-topology and write-routes write what sanfab-topo -o and sanfab-route -o write")
    # the VC network: DL with 3 VCs, tables written in the run
    vk = ["--switch", "vcsw", "--load", "0.1,0.3", "--warmup", "1000", "--cycles", "4000", "--quiet"]
    rc1, out1, err1 = run([sim, "--topology", topo, "--routes", dl, "--tables", rh] + vk)
    cfg = write(os.path.join(d, "v.conf"), "sanfab-sim 1\nswitch vcsw\ntopology-gen random --switches 8 --seed 3\n"
                "routing dl --vcs 3 --select sancho\nwrite-routes w-v.routes\nwrite-tables w-v.rhinet\n")
    rc2, out2, err2 = run([sim, cfg] + vk)
    ok = rc1 == 0 and rc2 == 0 and drop_config(out1) == drop_config(out2) and re.search(r'"vcs_used": [23]', out2) is not None
    result(ok, f"{tag} topology-gen + routing give the same JSON bytes as the pipeline with sanfab-route --rhinet "
               "tables (VC network, DL 3 VCs)", (err1 + err2)[-600:])
    same = all(os.path.exists(os.path.join(d, w)) and open(os.path.join(d, w)).read() == open(ref).read()
               for w, ref in (("w-v.routes", dl), ("w-v.rhinet", rh)))
    result(same, f"{tag} write-tables writes what sanfab-route --rhinet writes")
    # the command line's way of naming the topology overrides the file's other way
    rc, out, err = run([sim, cfg, "--topology", topo, "--routes", dl, "--tables", rh, "--write-routes", "none"] + vk)
    result(rc != 0 and "write-routes without routing" in err, f"{tag} write-routes without routing is refused", err[-300:])
    cfg2 = write(os.path.join(d, "v2.conf"), "sanfab-sim 1\nswitch vcsw\ntopology-gen random --switches 8 --seed 3\n"
                 "routing dl --vcs 3 --select sancho\n")
    rc, out, err = run([sim, cfg2, "--topology", topo, "--routes", dl, "--tables", rh] + vk)
    result(rc == 0 and drop_config(out) == drop_config(out1), f"{tag} --topology and --routes on the command line override "
                                                              "the file's topology-gen and routing", err[-300:])
    # errors name FILE:LINE and the problem
    bad = [
        ("topology-gen random --swiches 8\nrouting updown\n", ":2: topology-gen: unknown option --swiches (did you mean --switches?)"),
        ("topology-gen rando\nrouting updown\n", ":2: topology-gen: unknown kind \"rando\" (did you mean random?)"),
        ("topology-gen cplant --k 3\nrouting updown\n", ":2: topology-gen: --k is not an option of cplant"),
        ("topology-gen random -o x.topo\nrouting updown\n", ":2: topology-gen: -o is not an option of a generator line"),
        ("topology-gen random\nrouting dl --vcs 40\n", ":3: routing: --vcs needs a whole number in 1..16, got \"40\""),
        ("topology-gen random\nrouting itbb\n", ":3: routing: unknown algorithm \"itbb\" (did you mean itb?)"),
        ("topology-gen random\nrouting updown --seed 3\n", ":3: routing: --seed is not used by this run"),
        ("topology-gen random\nrouting dl --rhinet t.rh\n", ":3: routing: --rhinet is not an option of a routing line"),
        ("topology-gen random --switches 4 --ports 2 --hosts 1\nrouting updown\n",
         ":2: topology-gen random --switches 4 --ports 2 --hosts 1: generator: random: need at least two link ports"),
        ("topology-gen random --switches 8\nrouting updown --root 30\n", ":3: routing updown --root 30: --root 30: no such switch (0..7)"),
        (f"topology {topo}\ntopology-gen random\nrouting updown\n", ":3: topology-gen and topology (line 2) both given"),
        (f"topology-gen random\nrouting updown\nroutes {itb}\n", ":4: routes and routing (line 3) both given"),
        ("switch vcsw\ntopology-gen random\nrouting dl\ntables x.rh\n", ":5: tables and routing (line 4) both given"),
        ("topology-gen random\nroutng updown\n", ":3: unknown key \"routng\" (did you mean routing?)"),
    ]
    for i, (body, want) in enumerate(bad):
        p = write(os.path.join(d, f"bad{i}.conf"), "sanfab-sim 1\n" + body + "load 0.01\n")
        rc, out, err = run([sim, p, "--quiet"])
        result(rc != 0 and (os.path.basename(p) + want) in err and not out,
               f"{tag} a bad config line names FILE:LINE and the problem: {want.split(': ', 1)[1][:70]}", f"rc={rc} {err[-400:]}")
    rc, out, err = run([sim, "--topology", topo, "--topology-gen", "cplant", "--routing", "updown", "--load", "0.01"])
    result(rc != 0 and "topology (command line) and topology-gen (command line) both given" in err,
           f"{tag} --topology with --topology-gen is refused", err[-300:])
    rc, out, err = run([sim, "--topology", topo, "--routes", itb, "--routing", "updown", "--load", "0.01"])
    result(rc != 0 and "routes (command line) and routing (command line) both given" in err,
           f"{tag} --routes with --routing is refused", err[-300:])
    rc, out, err = run([sim, "--topology", topo, "--routing", "updown", "--write-topology", os.path.join(d, "w-n.topo"),
                        "--load", "0.01"])
    result(rc != 0 and "write-topology without topology-gen" in err, f"{tag} write-topology without topology-gen is refused",
           err[-300:])


def conventions_tests(T, build, tmp, sim, tag):
    """--version, "did you mean" for options, keys and names, ranges in the numeric messages, empty load items."""
    result = T.result
    v = version()
    for tool in ("sanfab-sim", "sanfab-netgen"):
        path = sim if tool == "sanfab-sim" else os.path.join(build, tool)
        rc, out, err = run([path, "--version"])
        result(rc == 0 and out == f"{tool} (sanfab) {v}\n", f"{tag} {tool} --version prints \"{tool} (sanfab) {v}\"",
               out + err)
    d = os.path.join(tmp, "conv")
    os.makedirs(d, exist_ok=True)
    topo = os.path.join(d, "r6.topo")
    run([os.path.join(build, "sanfab-topo"), "random", "--switches", "6", "-o", topo])
    base = [sim, "--topology-gen", "random --switches 6", "--routing", "updown", "--warmup", "200", "--cycles", "1000",
            "--quiet"]
    cases = [
        (["--lod", "0.1"], "unknown option --lod (did you mean --load?)"),
        (["--load", "0.1", "--jbos", "2"], "unknown option --jbos (did you mean --jobs?)"),
        (["--load", "0.1", "--switch", "xbr"], "unknown switch kind (did you mean xbar?)"),
        (["--load", "0.1", "--traffic", "unifrm"], "unknown pattern (did you mean uniform?)"),
        (["--load", "0.1", "--policy", "probng"], "unknown policy (did you mean probing?)"),
        (["--load", "0.01,"], "empty item in the list of loads"),
        (["--load", ",0.01"], "empty item in the list of loads"),
        (["--load", "0.01,,0.02"], "empty item in the list of loads"),
        (["--load", "0.01, ,0.02"], "empty item in the list of loads"),
        (["--load", "0"], "expected loads 0 < x <= 1000"),
        (["--load", "1001"], "expected loads 0 < x <= 1000"),
        (["--load", "0.1", "--hotspot", "101"], "expected a percentage 0..100"),
        (["--load", "0.1", "--message-size", "4"], "expected bytes 8..65536"),
        (["--load", "0.1", "--jobs", "65"], "1..64"),
    ]
    for args, want in cases:
        rc, out, err = run(base + args)
        result(rc == 2 and want in err, f"{tag} {' '.join(args)}: {want}", f"rc={rc} {err[-300:]}")
    rc, out, err = run(base + ["--load", "0.01, 0.02 ,0.03 0.04"])
    try:
        ok = rc == 0 and json.loads(out)["config"]["loads"] == [0.01, 0.02, 0.03, 0.04]
    except (ValueError, KeyError):
        ok = False
    result(ok, f"{tag} loads separated by commas and spaces in any mix are read", err[-300:])
    p = write(os.path.join(d, "typo.conf"), "sanfab-sim 1\ntopology r6.topo\nrouting updown\nlod 0.1\n")
    rc, out, err = run([sim, p])
    result(rc != 0 and "typo.conf:4: unknown key \"lod\" (did you mean load?)" in err, f"{tag} a misspelt config key: did you "
                                                                                       "mean", err[-300:])
    # sanfab-netgen: the switch sizes the RTL builds (xbar NPORTS 2..32, vcsw 2..16), did you mean
    ng = os.path.join(build, "sanfab-netgen")
    topo_tool = os.path.join(build, "sanfab-topo")
    t20, t33 = os.path.join(d, "p20.topo"), os.path.join(d, "p33.topo")
    run([topo_tool, "random", "--switches", "3", "--ports", "20", "--hosts", "2", "-o", t20])
    run([topo_tool, "random", "--switches", "3", "--ports", "33", "--hosts", "2", "-o", t33])
    rc, out, err = run([ng, t20, "-o", os.path.join(d, "p20.v")])
    result(rc == 0, f"{tag} sanfab-netgen builds a crossbar network of 20-port switches (xbar NPORTS 2..32)", err[-300:])
    rc, out, err = run([ng, t33, "-o", os.path.join(d, "p33.v")])
    result(rc == 1 and "takes NPORTS 2..32" in err, f"{tag} sanfab-netgen refuses a 33-port crossbar, naming the range 2..32",
           err[-300:])
    rc, out, err = run([ng, t20, "--kind", "vcsw", "-o", os.path.join(d, "p20v.v")])
    result(rc == 1 and "takes NPORTS 2..16" in err, f"{tag} sanfab-netgen refuses a 20-port VC switch, naming the range 2..16",
           err[-300:])
    rc, out, err = run([ng, t20, "--knd", "vcsw"])
    result(rc == 2 and "did you mean --kind?" in err, f"{tag} sanfab-netgen --knd: did you mean --kind", err[-300:])
    rc, out, err = run([ng, t20, "--kind", "vcs"])
    result(rc == 2 and "did you mean vcsw?" in err, f"{tag} sanfab-netgen --kind vcs: did you mean vcsw", err[-300:])
