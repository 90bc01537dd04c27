"""Shared by the generators (gen_link_defs.py, gen_cores.py): write a generated file, or check
that the committed copy is what the generator makes now."""
import difflib
import os
import sys


def write_or_check(root, path, text, check, tool):
    """Write `text` to `path` (relative to `root`), or with `check` compare it with the committed
    file, print the difference and a hint naming `tool`; returns 0 when written or equal, else 1."""
    full = os.path.join(root, path)
    if check:
        try:
            with open(full) as fh:
                old = fh.read()
        except OSError:
            old = ""
        if old == text:
            return 0
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                   path + " (committed)", path + " (generated)"))
        print("%s: %s is not what scripts/%s.py makes now; run `make generate` and commit it"
              % (tool, path, tool))
        return 1
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as fh:
        fh.write(text)
    print("wrote %s" % path)
    return 0
