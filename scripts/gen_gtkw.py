#!/usr/bin/env python3
"""sanfab -- GTKWave save files of the Verilator benches' waves (docs/verification.md, "Waves").

    scripts/gen_gtkw.py BLOCK VCD [-o FILE]   write BLOCK's save file from the scopes of VCD
    scripts/gen_gtkw.py --check GTKW VCD      every signal GTKW names is in VCD (exit 1 if not)
    scripts/gen_gtkw.py --list                the blocks it knows

A save file groups a block's signals by link/port: one group per port and direction (port 0 in,
port 0 out, ...), then the register port and counters, clock and reset. The ports are found in the
VCD (its scopes), so the file fits the parameter set the VCD was written by; a signal the VCD does not
have is left out. The committed files tb/<block>/*.gtkw are written from a VCD of the block's default
parameter set (the header of each says which); for another set, or a network of tb/net, write one
from that run's VCD:

    build/xbar/p4/xbar_bench --test random --cycles 2000 --vcd /tmp/p4.vcd
    scripts/gen_gtkw.py xbar /tmp/p4.vcd -o /tmp/p4.gtkw && gtkwave /tmp/p4.vcd /tmp/p4.gtkw
"""
import argparse
import re
import sys

# Each block: header comment, then groups. A group is (title, scope pattern, signals): the pattern
# is a regular expression over a scope's full name (dots between levels); with capture groups it is
# a port (an index, a name, or a switch and a port): one group per port found, titled with {p} (or
# {0}, {1}: the captures); the groups of one port follow each other (port 0 in, port 0 out, ...). Signals are names in that scope or paths
# below it ("u_out.tx"), in display order.
SPECS = {
    "xbar": {
        "about": "the crossbar (rtl/xbar): per port its input side (rx, slack buffer) and output side (tx, STOP)",
        "groups": [
            ("port {p} in", r"TOP\.xbar\.g_in\[(\d+)\]\.u_in",
             ["rx", "occ", "want", "wr", "pop", "gp", "mp", "ab", "xf_to", "xf_end", "xf_d", "ev_rx_pkt",
              "ev_rx_byte", "ev_crc_err", "ev_malformed", "ev_overflow", "ev_drop_route", "ev_drop_timeout"]),
            ("port {p} out", r"TOP\.xbar\.g_out\[(\d+)\]\.u_out",
             ["tx", "rx", "stop_eff", "stop_q", "busy_q", "own_q", "req", "arb_gnt", "arb_valid", "ev_tx_pkt",
              "ev_tx_byte"]),
            ("register port and counters", r"TOP", ["reg_rd", "reg_addr", "reg_rvalid", "reg_rdata"]),
            ("clock and reset", r"TOP", ["clk", "rst"]),
        ],
    },
    "mlc": {
        "about": "the Maestro Link Controller pair of the lockstep bench (tb/mlc: u_a the master, u_b the slave, "
                 "joined by the bench's link model): per end its link, frame state, host side and registers",
        "groups": [
            ("MLC {p}: link (CTL/data out and in)", r"TOP\.mlc_pair\.u_(a|b)",
             ["tx_en", "tx_d", "rx_en", "rx_d"]),
            ("MLC {p}: frames", r"TOP\.mlc_pair\.u_(a|b)",
             ["u_link.link_state_q", "u_link.hold_q", "u_send.nib_idx_q", "u_send.frame_np_q",
              "u_send.frame_flags_q", "u_recv.tack_q", "u_recv.in_frame_q", "u_recv.rx_np_q", "u_recv.rx_flags_q",
              "u_recv.good_q", "u_link.judging", "u_link.early_frame_q", "u_link.guard_hit"]),
            ("MLC {p}: host side and FIFO status", r"TOP\.mlc_pair\.u_(a|b)",
             ["h_wr", "h_wch", "h_wdata", "h_rd", "h_rch", "h_rvalid", "h_rdata", "st_tx_space0", "st_tx_space1",
              "st_rx_avail0", "st_rx_avail1"]),
            ("MLC {p}: registers and counters", r"TOP\.mlc_pair\.u_(a|b)",
             ["reg_wr", "reg_rd", "reg_addr", "reg_wdata", "reg_rvalid", "reg_rdata", "u_regs.cfg_q"]),
            ("clock and reset", r"TOP", ["clk", "rst"]),
        ],
    },
    "vcsw": {
        "about": "the VC switch (rtl/vcsw): per port its input (flits in, stop bits out, buffers, head) and "
                 "output (flits out after the cable, stop bits in, allocation)",
        "groups": [
            ("port {p} in", r"TOP\.vcsw\.g_in\[(\d+)\]",
             ["u_in.rx_valid", "u_in.rx_vc", "u_in.rx_data", "u_in.rx_tail", "u_in.stop", "u_in.occ_f", "u_in.occ_c",
              "u_in.h_valid", "u_in.h_port", "u_in.h_ovc", "u_in.h_first", "u_in.h_tail", "u_in.ev_rx_pkt",
              "u_in.ev_rx_flit", "u_in.ev_drop_route", "u_in.ev_drop_vc", "u_in.ev_ovf", "u_in.ev_trunc"]),
            ("port {p} out", r"TOP\.vcsw\.g_out\[(\d+)\]",
             ["o_valid", "o_vc", "o_data", "o_tail", "u_out.tx_stop", "u_out.req", "u_out.gnt", "u_out.busy_q",
              "u_out.blk_q", "u_out.ev_tx_pkt", "u_out.ev_tx_flit"]),
            ("configuration port and counters", r"TOP",
             ["cfg_we", "cfg_re", "cfg_addr", "cfg_wdata", "cfg_rvalid", "cfg_rdata"]),
            ("clock and reset", r"TOP", ["clk", "rst"]),
        ],
    },
}
SBOX_MLC_LINK = ["tx_en", "tx_d", "rx_en", "rx_d", "link_state_q", "hold_q"]
SBOX_MLC_HOST = ["h_wr", "h_wch", "h_wdata", "h_rd", "h_rch", "h_rvalid", "h_rdata", "st_tx_space0", "st_tx_space1",
                 "st_rx_avail0", "st_rx_avail1"]
SBOX_SRC = ["act", "st_q", "cls_q", "p_q", "elig", "gnt", "o_move", "o_wr", "o_rd", "o_last", "o_wait", "room"]
SBOX_BUS = ["u_bus.g_move", "u_bus.g_port", "u_bus.g_ch", "u_bus.g_p", "u_bus.g_rd", "u_bus.g_wr", "u_bus.g_pword",
            "s_act", "s_wait", "agnt", "bgnt", "u_manager.rsv_src_q", "bar_busy", "up_v", "up"]
SBOX_REG = ["reg_wr", "reg_rd", "reg_addr", "reg_wdata", "reg_rvalid", "reg_rdata"]
SPECS["sbox"] = {
    "about": "the Maestro switch box (rtl/sbox/sbox.v): per port its MLC's link and host side (the box's side of "
             "the FIFOs), then each bus source (message analyzer state), the bus and manager, the register port",
    "groups": [
        ("port {p}: link (MLC)", r"TOP\.sbox\.g_mlc\[(\d+)\]\.u_mlc", SBOX_MLC_LINK),
        ("port {p}: box side of the MLC FIFOs", r"TOP\.sbox\.g_mlc\[(\d+)\]\.u_mlc", SBOX_MLC_HOST),
        ("bus source {1}", r"TOP\.sbox\.g_(src)\[(\d+)\]\.u_src", SBOX_SRC),
        ("bus and manager", r"TOP\.sbox", SBOX_BUS),
        ("register port", r"TOP", SBOX_REG),
        ("clock and reset", r"TOP", ["clk", "rst"]),
    ],
}
SPECS["sbox_tree"] = {
    "about": "the two-box tree of the tree bench (tb/sbox/sbox_tree.v: box a the root, box b below it): per box "
             "its bus, manager and register port, then per port its MLC's link and box side, then its bus sources",
    "groups": [
        ("box {0}: bus and manager", r"TOP\.sbox_tree\.u_(a|b)", SBOX_BUS),
        ("box {0}: register port", r"TOP\.sbox_tree\.u_(a|b)", SBOX_REG),
        ("box {0} port {1}: link (MLC)", r"TOP\.sbox_tree\.u_(a|b)\.g_mlc\[(\d+)\]\.u_mlc", SBOX_MLC_LINK),
        ("box {0} port {1}: box side of the MLC FIFOs", r"TOP\.sbox_tree\.u_(a|b)\.g_mlc\[(\d+)\]\.u_mlc",
         SBOX_MLC_HOST),
        ("box {0} bus source {2}", r"TOP\.sbox_tree\.u_(a|b)\.g_(src)\[(\d+)\]\.u_src", SBOX_SRC),
        ("clock and reset", r"TOP", ["clk", "rst"]),
    ],
}
# a network of tb/net (rtl/net, sanfab-netgen): every switch's ports, crossbars or VC switches
SPECS["net"] = {
    "about": "an RTL network of tb/net (sanfab-netgen): per switch and port its input and output side "
             "(crossbar or VC switch signals, as the network has)",
    "groups": [
        ("switch {0} port {1} in", r"TOP\.[^.]+\.u_sw(\d+)\.g_in\[(\d+)\]",
         ["u_in." + n for n in SPECS["xbar"]["groups"][0][2][:8]] + SPECS["vcsw"]["groups"][0][2][:10]),
        ("switch {0} port {1} out", r"TOP\.[^.]+\.u_sw(\d+)\.g_out\[(\d+)\]",
         ["u_out." + n for n in SPECS["xbar"]["groups"][1][2][:6]] + SPECS["vcsw"]["groups"][1][2][:8]),
        ("clock and reset", r"TOP", ["clk", "rst"]),
    ],
}

VAR_RE = re.compile(r"\$var\s+\S+\s+(\d+)\s+\S+\s+(\S+)(?:\s+(\[[^\]]*\]))?\s+\$end")


def read_vcd_header(path):
    """The VCD's signals: {scope: {name: full name with range}} (dots between scope levels)."""
    scopes, stack = {}, []
    with open(path, "r", errors="replace") as f:
        for line in f:
            if "$enddefinitions" in line:
                break
            t = line.split()
            if not t:
                continue
            if t[0] == "$scope":
                stack.append(t[2])
                scopes.setdefault(".".join(stack), {})
            elif t[0] == "$upscope":
                stack.pop()
            elif t[0] == "$var":
                m = VAR_RE.search(line)
                if not m:
                    continue
                name, rng = m.group(2), m.group(3)
                if rng is None and "[" in name and name.endswith("]") and int(m.group(1)) > 1:
                    rng = ""  # the name carries its range already
                full = ".".join(stack + [name]) + (rng or "")
                scopes.setdefault(".".join(stack), {})[name] = full
    return scopes


def all_signals(scopes):
    return {full for sigs in scopes.values() for full in sigs.values()}


def find(scopes, sc, sigs):
    """The full names of signals sigs (names in scope sc, or paths below it: "u_out.tx") the VCD has."""
    names = []
    for s in sigs:
        sub, _, name = s.rpartition(".")
        where = sc + "." + sub if sub else sc
        if name in scopes.get(where, {}):
            names.append(scopes[where][name])
    return names


def groups_of(spec, scopes):
    """[(title, [full names])] of the block's groups found in the VCD."""
    out = []
    ports = {}  # pattern index -> {port: scope}
    for gi, (_, pat, _) in enumerate(spec["groups"]):
        rx = re.compile(pat + r"$")
        if rx.groups:
            for sc in scopes:
                m = rx.match(sc)
                if m:
                    ports.setdefault(gi, {})[tuple(int(k) if k.isdigit() else k for k in m.groups())] = sc
    per_port = [gi for gi, (_, pat, _) in enumerate(spec["groups"]) if re.compile(pat).groups]
    nports = sorted({p for gi in per_port for p in ports.get(gi, {})},
                    key=lambda key: tuple((isinstance(k, str), k) for k in key))
    for p in nports:
        for gi in per_port:
            title, _, sigs = spec["groups"][gi]
            sc = ports.get(gi, {}).get(p)
            if sc is None:
                continue
            names = find(scopes, sc, sigs)
            if names:
                out.append((title.format(*p, p=" ".join(str(k) for k in p)), names))
    for gi, (title, pat, sigs) in enumerate(spec["groups"]):
        if gi in per_port:
            continue
        sc = pat.replace("\\", "")
        names = find(scopes, sc, sigs)
        if names:
            out.append((title, names))
    return out


def write_gtkw(block, vcd, out, label=None):
    spec = SPECS[block]
    scopes = read_vcd_header(vcd)
    groups = groups_of(spec, scopes)
    if not groups:
        raise SystemExit(f"gen_gtkw: {vcd} has none of {block}'s scopes (is it a VCD of {block}?)")
    lines = [
        f"[*] sanfab GTKWave save file: {spec['about']}",
        f"[*] written by scripts/gen_gtkw.py {block} from a VCD of {label or vcd}; open with",
        "[*]   gtkwave WAVES.vcd THIS.gtkw   (docs/verification.md, \"Waves\"; 1 cycle = 10 ns, cycle c rises at 10c+5)",
        "[timestart] 0",
        "[size] 1600 1000",
        "[pos] -1 -1",
        "[sst_width] 260",
        "[signals_width] 300",
        "[sst_expanded] 1",
        "[sst_vpaned_height] 300",
    ]
    for title, names in groups:
        lines.append("@800200")  # a group (expanded)
        lines.append(f"-{title}")
        for n in names:
            lines.append("@28" if not n.endswith("]") or ":" not in n.rsplit("[", 1)[1] else "@22")
            lines.append(n)
        lines.append("@1000200")  # end of the group
        lines.append(f"-{title}")
    lines.append("[pattern_trace] 1")
    lines.append("[pattern_trace] 0")
    text = "\n".join(lines) + "\n"
    if out in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(out, "w") as f:
            f.write(text)


def gtkw_signals(path):
    """The signal names a save file shows (lines that are no directive, flag, comment or group)."""
    names = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s[0] in "[@-*#" or s.startswith("[*]"):
                continue
            names.append(s)
    return names


def check(gtkw, vcd):
    have = all_signals(read_vcd_header(vcd))
    names = gtkw_signals(gtkw)
    missing = [n for n in names if n not in have]
    if not names:
        print(f"gen_gtkw: {gtkw} shows no signal")
        return 1
    if missing:
        print(f"gen_gtkw: {gtkw}: {len(missing)} of {len(names)} signals are not in {vcd}: {' '.join(missing[:8])}")
        return 1
    print(f"gen_gtkw: {gtkw}: all {len(names)} signals are in {vcd}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="check GTKW against VCD")
    ap.add_argument("--list", action="store_true", help="the blocks this script knows")
    ap.add_argument("--label", help="what the VCD was written by, for the file's header (default: its path)")
    ap.add_argument("-o", "--out", help="the save file (default: stdout)")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    if a.list:
        print(" ".join(sorted(SPECS)))
        return 0
    if len(a.args) != 2:
        ap.error("BLOCK VCD, or --check GTKW VCD")
    if a.check:
        return check(a.args[0], a.args[1])
    if a.args[0] not in SPECS:
        ap.error(f"unknown block {a.args[0]} ({' '.join(sorted(SPECS))})")
    write_gtkw(a.args[0], a.args[1], a.out, a.label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
