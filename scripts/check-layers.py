#!/usr/bin/env python3
"""Fails when an #include points up a layer: the folder tree is the architecture (docs/architecture.md)."""
import os
import re
import sys

# Layer of a source file or header, by its directory. Order is for the report only: what
# each layer may include is the explicit DEPS map below.
LAYERS = [
    ("core", ["src/core"]),
    ("transport", ["meters/transport"]),
    ("io", ["src/io"]),
    ("metercore", ["meters", "meters/core", "meters/emu"]),
    ("drivers", None),  # any other meters/<dir>: one directory per driver family
    ("sources", ["src/sources"]),
    ("result", ["src/result"]),
    ("run", ["src/run"]),
    ("report", ["src/report"]),
    ("cli", ["src/cli"]),
]

DEPS = {
    "core": set(),
    "transport": {"core"},
    "io": {"core"},
    "metercore": {"core", "transport"},
    "drivers": {"core", "transport", "metercore"},
    "sources": {"core"},
    "result": {"core", "io"},
    "run": {"core", "io", "metercore", "sources", "result"},
    "report": {"core", "io", "result"},
    "cli": {"core", "transport", "io", "metercore", "drivers", "sources", "result", "run", "report"},
}

# Known upward includes still being removed; each entry is "file -> header". Empty when done.
ALLOW = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    d = os.path.dirname(path)
    for name, dirs in LAYERS:
        if dirs and d in dirs:
            return name
    if d.startswith("meters/"):
        return "drivers"
    return None


def resolve(src, inc):
    """The repository path of a quoted include: beside the file, then -Isrc, then -I."""
    for cand in (os.path.join(os.path.dirname(src), inc), os.path.join("src", inc), inc):
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    os.chdir(root)
    files = []
    for top in ("src", "meters"):
        for dirpath, _, names in os.walk(top):
            files += [os.path.join(dirpath, n) for n in names if n.endswith((".c", ".h"))]
    bad = 0
    checked = 0
    for f in sorted(files):
        lf = layer_of(f)
        if lf is None:
            print(f"not ok - {f}: not in any layer's folder")
            bad += 1
            continue
        with open(f, encoding="utf-8") as fp:
            for lineno, line in enumerate(fp, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                if m.group(1) == "config.h":
                    continue  # generated into the build directory by the Makefile
                target = resolve(f, m.group(1))
                if target is None:
                    print(f"not ok - {f}:{lineno}: include \"{m.group(1)}\" not found")
                    bad += 1
                    continue
                checked += 1
                lt = layer_of(target)
                same_dir = os.path.dirname(target) == os.path.dirname(f)
                if same_dir or lt == lf and lf != "drivers":
                    continue
                if lt in DEPS[lf] or f"{f} -> {target}" in ALLOW:
                    continue
                why = "another driver's folder" if lt == lf else f"layer {lt} is not below {lf}"
                print(f"not ok - {f}:{lineno}: includes {target} ({why})")
                bad += 1
    print(f"# {len(files)} files, {checked} includes checked, {bad} pointing up")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
