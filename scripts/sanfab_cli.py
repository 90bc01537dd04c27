"""sanfab command-line conventions for the Python tools (the C tools' sw/src/sf_cli.[ch] in Python): the version from
the one place (the repository's VERSION file), "NAME (sanfab) VERSION" for --version, "did you mean" for misspelt
options, subcommands and choices, and numeric arguments whose error names the range they must be in.

    from sanfab_cli import ArgumentParser, int_range, float_range
    ap = ArgumentParser(description=__doc__)       # adds --version; prog defaults to the script's file name
    ap.add_argument("--jobs", type=int_range(1), default=2)   # "--jobs: expected a whole number >= 1, got '0'"
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION_FILE = os.path.join(ROOT, "VERSION")


def version():
    """The sanfab version of this checkout (the VERSION file's first line), "unknown" when it cannot be read."""
    try:
        with open(VERSION_FILE) as f:
            return f.readline().strip() or "unknown"
    except OSError:
        return "unknown"


def version_text(tool):
    """The --version text of every tool: "TOOL (sanfab) VERSION"."""
    return f"{tool} (sanfab) {version()}"


def _distance(a, b):
    """Damerau-Levenshtein (optimal string alignment) distance, case-insensitive (as sf_cli.c)."""
    a, b = a.lower(), b.lower()
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            best = min(d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), d[i - 1][j] + 1, d[i][j - 1] + 1)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, d[i - 2][j - 2] + 1)
            d[i][j] = best
    return d[len(a)][len(b)]


def suggest(given, known):
    """The name among `known` closest to `given` (leading dashes ignored) when it is a likely misspelling: distance
    <= 2 and less than half the name's length (sf_cli_suggest's rule); None otherwise."""
    g = given.split("=", 1)[0].lstrip("-")
    best, bestd = None, None
    for k in known:
        d, lk = _distance(g, k.lstrip("-")), len(k.lstrip("-"))
        if d <= 2 and 2 * d < lk and (bestd is None or d < bestd):
            best, bestd = k, d
    return best


def _range_text(lo, hi):
    if lo is not None and hi is not None:
        return f"in {lo}..{hi}"
    if lo is not None:
        return f">= {lo}"
    if hi is not None:
        return f"<= {hi}"
    return "any"


def int_range(lo=None, hi=None):
    """An argparse type: a whole number in lo..hi (either bound may be None); the error names the range."""
    def conv(text):
        try:
            v = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number {_range_text(lo, hi)}, got {text!r}") from None
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(f"expected a whole number {_range_text(lo, hi)}, got {text!r}")
        return v
    conv.__name__ = "whole number"
    return conv


def float_range(lo=None, hi=None, lo_open=False):
    """An argparse type: a number in lo..hi (lo excluded with lo_open: "> lo"); the error names the range."""
    def conv(text):
        rng = (f"> {lo}" + (f" and <= {hi}" if hi is not None else "")) if lo_open and lo is not None else _range_text(lo, hi)
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number {rng}, got {text!r}") from None
        if v != v or (lo is not None and (v <= lo if lo_open else v < lo)) or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(f"expected a number {rng}, got {text!r}")
        return v
    conv.__name__ = "number"
    return conv


class ArgumentParser(argparse.ArgumentParser):
    """argparse.ArgumentParser with the sanfab conventions: a --version option printing version_text(prog's first
    word) (add_version=False to leave it out), and "did you mean X?" added to the errors for an unknown option, an
    unknown subcommand or a value outside an option's choices. Subparsers are of this class too (without --version)."""

    def __init__(self, *args, add_version=True, **kw):
        kw.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kw)
        if add_version:
            self.add_argument("--version", action="version", version=version_text(self.prog.split()[0]),
                              help="print the tool's name, 'sanfab' and the version, and exit")

    def add_subparsers(self, **kw):
        sub = super().add_subparsers(**kw)
        sub._parser_class = _SubParser  # their errors get the suggestions too; --version belongs to the tool
        return sub

    def _known_options(self):
        """Every option string of this parser and of its subcommands' parsers."""
        names = list(self._option_string_actions)
        for act in self._actions:
            if isinstance(act, argparse._SubParsersAction):
                for p in act.choices.values():
                    names += [n for n in p._option_string_actions if n not in names]
        return names

    def error(self, message):
        m = re.match(r"unrecognized arguments: (.*)$", message)
        if m:
            hints = []
            for tok in m.group(1).split():
                s = suggest(tok, self._known_options()) if tok.startswith("-") else None
                if s:
                    hints.append(f"{tok.split('=', 1)[0]}: did you mean {s}?")
            if hints:
                message += " (" + "; ".join(hints) + ")"
        m = re.search(r"invalid choice: '?([^' ]*)'? \(choose from (.*)\)$", message)
        if m:
            s = suggest(m.group(1), [c.strip().strip("'") for c in m.group(2).split(",")])
            if s:
                message += f" (did you mean {s}?)"
        super().error(message)


class _SubParser(ArgumentParser):
    """A subcommand's parser: the suggestions, no --version of its own."""

    def __init__(self, *args, **kw):
        kw.setdefault("add_version", False)
        super().__init__(*args, **kw)


def main(argv=None):
    """`python3 scripts/sanfab_cli.py` prints the version (for shell scripts and the docs)."""
    ap = ArgumentParser(prog="sanfab_cli.py", description="Prints the sanfab version of this checkout.")
    ap.parse_args(argv)
    print(version())
    return 0


if __name__ == "__main__":
    sys.exit(main())
