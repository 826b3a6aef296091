#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a document names a repository path that is not in the tree (tests/cli/t_docs.sh).

Usage: check-doc-paths.py ROOT DOC.md...

Files move (src/bench became another folder, headers split, tests moved into kinds); a
document that still names the old path sends its reader nowhere. Checked, in each DOC:
- every markdown link to a file ([text](path), relative to the document's folder);
- every word in backquotes or a fenced block that is a repository path: it starts with a
  top-level folder of the tree (src/, tests/, docs/ ...), is a top-level file (Makefile),
  or has a folder and a source file's extension (energy/energy.c: the include root src/, as
  an #include names it). A glob (plots/*.gp) must match something.
Left alone: placeholders (meters/<family>/, tests/cli/t_NAME.sh, DIR/report.html), outputs
a run writes (results/, charts/, build*/), absolute paths and URLs.
"""
import glob
import os
import re
import sys

TOP_DIRS = ("src/", "meters/", "tests/", "docs/", "scripts/", "bench/", "configs/", "plots/",
            "dist/", "debian/", ".ci/", "contrib/")
TOP_FILES = {"Makefile", "README.md", "VERSION"}
SOURCE_EXT = re.compile(r"\.(c|h|sh|py|md|gp|ini|json|csv|supp|rules|png|svg|xml)$")
OUTPUTS = ("results/", "charts/", "build/", "build-", "/", "~", "./", "../")
# What splits a backquoted span into words: spaces and the punctuation of command lines
# and prose around a path (`--json-out=FILE`, `(see tests/lib/lib.sh)`, `a, b`).
SPLIT = re.compile(r"[\s=\"'(\[\]|,;]+")


def placeholder(path):
    """meters/<family>/, src/cli/cmd_NAME.c, DIR/x, a.{c,h}: a pattern, not a file."""
    if re.search(r"[<>{}]|\.\.\.", path):
        return True
    return any(re.search(r"[A-Z]{2,}", part) for part in path.split("/") if part not in TOP_FILES)


def words(text):
    for span in re.findall(r"```.*?```|`[^`\n]+`", text, re.S):
        for w in SPLIT.split(span.strip("`")):
            w = w.rstrip(".:)")
            if w:
                yield w


def exists(root, rel):
    path = os.path.join(root, rel)
    if any(c in rel for c in "*?"):
        return bool(glob.glob(path))
    return os.path.exists(path)


def check(root, doc):
    """Yields (kind, name, found) for each path the document names."""
    text = open(doc, encoding="utf-8").read()
    seen = set()
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z][a-z0-9+.-]*:", link) or link.startswith("#") or link in seen:
            continue
        seen.add(link)
        # A link is relative to its document's folder, as a reader's browser takes it.
        target = os.path.join(os.path.dirname(os.path.abspath(doc)), link.split("#")[0])
        yield "link", link, os.path.exists(target)
    for w in words(text):
        if w in seen or w.startswith(OUTPUTS) or placeholder(w):
            continue
        if not (w in TOP_FILES or w.startswith(TOP_DIRS) or
                ("/" in w and SOURCE_EXT.search(w) and not re.match(r"[a-z0-9]+:", w))):
            continue
        seen.add(w)
        # energy/energy.c and bench/engine.h are under src/, as an #include names them.
        yield "path", w, exists(root, w) or exists(root, "src/" + w)


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root, stale, n = argv[1], 0, 0
    for doc in argv[2:]:
        for kind, name, found in check(root, doc):
            n += 1
            if not found:
                print("%s: %s %s is not in the tree" % (doc, kind, name))
                stale += 1
    print("%d paths named, %d not in the tree" % (n, stale))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
