"""Shared by the generators (gen_link_defs.py, gen_cores.py): write a generated file, or check
that the committed copy is what the generator makes now."""
import difflib
import os
import sys

from sanfab_cli import suggest, version_text


def usage_or_version(argv, options, tool, doc, need_args=False):
    """The generators' command-line conventions: --version prints version_text(tool), -h/--help the usage; an
    option not among `options` is an error naming it (with "did you mean"), as is no argument with need_args.
    Returns the exit status to end with (0 or 2), or None to go on."""
    if "--version" in argv:
        print(version_text(tool))
        return 0
    if "-h" in argv or "--help" in argv:
        print(doc.strip())
        return 0
    for a in argv:
        if a.startswith("-") and a not in options:
            s = suggest(a, options + ["--version", "--help"])
            print("%s: unknown option %s%s (options: %s)" % (tool, a, " (did you mean %s?)" % s if s else "",
                                                             ", ".join(options)), file=sys.stderr)
            return 2
    if need_args and not [a for a in argv if not a.startswith("-")]:
        print(doc.strip())
        return 2
    return None


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
