#!/usr/bin/env python3
"""Fails when an #include or a link reference points up a layer: the folder tree is the architecture (docs/architecture.md).

check-layers.py [ROOT] [--objects DIR]: the include check on ROOT's sources; with --objects, also
every object's link references (nm), as an extern declared in the file itself hides from the first.
"""
import argparse
import os
import re
import subprocess
import sys

# Layer of a source file or header, by its directory. Order is for the report only: what
# each layer may include is the explicit DEPS map below.
LAYERS = [
    ("core", ["src/core"]),
    ("transport", ["meters/transport"]),
    ("io", ["src/io"]),
    ("metercore", ["meters", "meters/core", "meters/emu"]),
    ("drivers", None),  # any other meters/<dir>: one directory per driver family
    ("registry", ["meters/registry"]),  # the table of every driver and emulator
    ("sources", ["src/sources"]),  # the watcher, what a source driver sees, GPIO lines
    ("sourcedrivers", None),  # any other src/sources/<dir>: one directory per event source
    ("sourceregistry", ["src/sources/registry"]),  # the table of every event source
    ("result", ["src/result"]),
    ("analysis", ["src/analysis"]),
    ("energy", ["src/energy"]),
    ("plan", ["src/plan"]),
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
    "registry": {"core", "transport", "metercore", "drivers"},
    "sources": {"core"},
    "sourcedrivers": {"core", "sources"},
    "sourceregistry": {"core", "sources", "sourcedrivers"},
    "result": {"core"},
    "analysis": {"core", "result"},
    "energy": {"core", "result"},
    "plan": {"core", "io", "result", "energy"},
    "run": {"core", "io", "metercore", "registry", "sources", "sourceregistry", "result",
            "analysis", "energy", "plan", "report"},
    "report": {"core", "result", "analysis"},
    "cli": {"core", "transport", "io", "metercore", "drivers", "registry", "sources",
            "sourcedrivers", "sourceregistry", "result", "analysis", "energy", "plan", "run", "report"},
}

# Layers of one folder per driver (a meter family, an event source): a folder of one of
# them may not name another folder of the same layer.
FAMILIES = {"drivers": "meters/", "sourcedrivers": "src/sources/"}

# Known upward includes still being removed; each entry is "file -> header". Empty when done.
ALLOW = set()

# Known upward link references still being removed; each entry is "file -> file" (the
# object using a symbol -> the one defining it). Empty when done.
ALLOW_LINKS = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    d = os.path.dirname(path)
    for name, dirs in LAYERS:
        if dirs and d in dirs:
            return name
    for name, top in FAMILIES.items():
        if d.startswith(top):
            return name
    return None


def why_up(src, dst):
    """None when src may use dst (include or link), else why it points up."""
    lf, lt = layer_of(src), layer_of(dst)
    if os.path.dirname(src) == os.path.dirname(dst) or lt == lf and lf not in FAMILIES:
        return None
    if lt in DEPS[lf]:
        return None
    return "another driver's folder" if lt == lf else f"layer {lt} is not below {lf}"


def product_files(root="."):
    """Every .c and .h below src/ and meters/, as paths relative to root, sorted."""
    files = []
    for top in ("src", "meters"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(dirpath, root)
            files += [os.path.join(rel, n) for n in names if n.endswith((".c", ".h"))]
    return sorted(files)


def resolve(src, inc):
    """The repository path of a quoted include: beside the file, then -Isrc, then -I."""
    for cand in (os.path.join(os.path.dirname(src), inc), os.path.join("src", inc), inc):
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    return None


def includes(f):
    """(line number, included text, repository path or None) of f's quoted includes."""
    with open(f, encoding="utf-8") as fp:
        for lineno, line in enumerate(fp, 1):
            m = INCLUDE.match(line)
            if m and m.group(1) != "config.h":  # config.h: generated into the build directory
                yield lineno, m.group(1), resolve(f, m.group(1))


def read_objects(objdir, files):
    """nm over the objects of files' .c sources: ({symbol: (defining file, nm type)},
    [(using file, symbol)], [sources without an object]).

    Only objects of sources that exist count, so objects left behind by a moved file do not;
    a source without one is a family whose library is missing, or a tree not built yet."""
    objs = {}
    for f in files:
        o = os.path.join(objdir, f[:-2] + ".o")
        if f.endswith(".c") and os.path.isfile(o):
            objs[o] = f
    missing = [f for f in files if f.endswith(".c") and f not in objs.values()]
    defined, used = {}, []
    if objs:
        out = subprocess.run([os.environ.get("NM", "nm"), "-A", "-P", *objs], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            obj, _, rest = line.partition(": ")
            fields = rest.split()
            if len(fields) < 2:
                continue
            sym, kind = fields[0], fields[1]
            if kind in ("U", "w"):
                used.append((objs[obj], sym))
            elif kind.isupper() or kind == "i":
                defined[sym] = (objs[obj], kind)
    return defined, used, missing


def link_references(defined, used):
    """{(using file, defining file): {symbols}}; symbols no object defines are a library's."""
    refs = {}
    for user, sym in used:
        owner = defined.get(sym, (user,))[0]
        if owner != user:
            refs.setdefault((user, owner), set()).add(sym)
    return refs


def check_includes(files):
    bad = checked = 0
    for f in files:
        if layer_of(f) is None:
            print(f"not ok - {f}: not in any layer's folder")
            bad += 1
            continue
        for lineno, text, target in includes(f):
            if target is None:
                print(f"not ok - {f}:{lineno}: include \"{text}\" not found")
                bad += 1
                continue
            checked += 1
            why = why_up(f, target)
            if why and f"{f} -> {target}" not in ALLOW:
                print(f"not ok - {f}:{lineno}: includes {target} ({why})")
                bad += 1
    print(f"# {len(files)} files, {checked} includes checked, {bad} pointing up")
    return bad


def check_links(objdir, files):
    defined, used, missing = read_objects(objdir, files)
    refs = link_references(defined, used)
    if not refs:
        print(f"not ok - no objects of these sources under {objdir}: build them first")
        return 1
    bad = allowed = 0
    for (user, owner), syms in sorted(refs.items()):
        if layer_of(user) is None or layer_of(owner) is None or not why_up(user, owner):
            continue
        if f"{user} -> {owner}" in ALLOW_LINKS:
            allowed += 1
            continue
        print(f"not ok - {user} -> {owner} ({', '.join(sorted(syms))})")
        bad += 1
    for gone in sorted(ALLOW_LINKS - {f"{u} -> {o}" for u, o in refs}):
        print(f"# {gone}: allowed but no longer linked (remove it from ALLOW_LINKS)")
    nsyms = sum(len(s) for s in refs.values())
    print(f"# {len(refs)} file-to-file link references ({nsyms} symbols) checked, "
          f"{bad} pointing up, {allowed} allowed; {len(missing)} sources not built")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", default=".")
    ap.add_argument("--objects", help="build directory: objects at DIR/<source path>.o")
    args = ap.parse_args()
    objdir = os.path.abspath(args.objects) if args.objects else None
    os.chdir(args.root)
    files = product_files()
    bad = check_includes(files)
    if objdir:
        bad += check_links(objdir, files)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
