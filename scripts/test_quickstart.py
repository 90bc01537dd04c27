#!/usr/bin/env python3
"""The README's quickstart, run as written: every command of the shell blocks of its "Quickstart" section, in
order, in a scratch directory that sees the repository's sw/, examples/, scripts/ and .venv/ (so the commands'
outputs stay out of the tree). `make ...` lines run in the repository itself (make tools; make deps-plot, which
only checks when the environment is there). Fails when a command fails or a file the commands name as an
output (-o FILE) is missing or empty.

    .venv/bin/python scripts/test_quickstart.py [--readme FILE]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from sanfab_cli import ArgumentParser  # noqa: E402


def quickstart_commands(readme):
    """The quickstart section's shell commands (continuation lines joined, comments dropped), in order."""
    text = open(readme).read()
    m = re.search(r"^## Quickstart.*?$(.*?)^## ", text, re.S | re.M)
    if not m:
        sys.exit("test_quickstart: %s: no '## Quickstart' section" % readme)
    cmds = []
    for block in re.findall(r"```sh\n(.*?)```", m.group(1), re.S):
        for line in block.replace("\\\n", " ").split("\n"):
            # a comment starts at a '#' after blanks, outside quotes: let shlex decide
            try:
                words = shlex.split(line, comments=True)
            except ValueError as e:
                sys.exit("test_quickstart: %s: cannot read the command %r: %s" % (readme, line, e))
            if words:
                cmds.append(words)
    if not cmds:
        sys.exit("test_quickstart: %s: the quickstart has no commands" % readme)
    return cmds


def main():
    ap = ArgumentParser(prog="test_quickstart.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    a = ap.parse_args()
    cmds = quickstart_commands(a.readme)
    fails = 0
    with tempfile.TemporaryDirectory(prefix="sanfab-quickstart-") as tmp:
        for d in ("sw", "examples", "scripts", ".venv", "VERSION", "docs"):
            if os.path.exists(os.path.join(ROOT, d)):
                os.symlink(os.path.join(ROOT, d), os.path.join(tmp, d))
        for words in cmds:
            where = ROOT if words[0] == "make" else tmp
            r = subprocess.run(words, cwd=where, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            outs = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "-o"]
            bad = [o for o in outs if not os.path.isfile(os.path.join(where, o))
                   or os.path.getsize(os.path.join(where, o)) == 0]
            ok = r.returncode == 0 and not bad
            print("%s: %s" % ("ok" if ok else "FAILED", " ".join(shlex.quote(w) for w in words)))
            if not ok:
                fails += 1
                print("    exit %d%s" % (r.returncode, ", no output: " + " ".join(bad) if bad else ""))
                print("    " + "\n    ".join(r.stdout.strip().split("\n")[-8:]))
    print("quickstart: %d commands, %d failed" % (len(cmds), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
