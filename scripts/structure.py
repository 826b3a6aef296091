#!/usr/bin/env python3
"""Measures the shape of the product code (src/ and meters/), for before/after tables of a restructuring.

structure.py [ROOT] [--objects DIR] [--json] [--no-duplicates]: run it on two trees and compare
the lines. Figures that need links (arrows and circles of links, unused functions, commands
calling each other) read the objects of a build of that tree with nm: DIR/<source path>.o.

What is counted, where it is not obvious:
- lines: physical lines of .c and .h files; a folder is one that holds any.
- function length: the lines strictly between a function body's opening and closing brace.
- arrows back up: includes and link references that check-layers.py reports as pointing up
  (its ALLOW sets included: they are still arrows), with the LAYERS and DEPS of the measured
  tree's own scripts/check-layers.py, as folders move; and two kinds inside one folder:
  "include 2-cycles", a file including a header of its folder whose own includes reach the
  file's own header (x.c/x.h are one unit x); "includes a caller's header", x.c including y.h
  while y.c uses symbols of x.c (the header is named after the file above it).
- circles: strongly connected components of more than one node in the graph "file A uses a
  symbol defined in file B" (nm), and in that graph lifted to folders.
- unused functions: global functions (nm type T) no other product object references; "used
  in own file" when the name appears again in its own .c, "used only by tests" when it
  appears in tests/ sources (tests are linked from .c straight to binaries: no objects).
- commands calling commands: a symbol of src/cli/cmd_X.c used by a cli file other than
  cmd_X.c, X_*.c (its helpers) and main.c / commands.c (the dispatcher and the table of commands).
- duplicates: rows of `duplicates --repo ROOT --most 200 --seconds 120` whose both sides are
  in src/ or meters/; "boilerplate" as the tool marks it.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


layers = load_module(os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-layers.py"), "layers")

PRODUCT = ("src/", "meters/")
ENTRY_POINTS = {"main", "LLVMFuzzerTestOneInput"}
# Comments, strings and character constants: blanked before braces and names are read.
NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
PREPROCESSOR = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.M)
IDENT = re.compile(r'\b[A-Za-z_]\w*\b')


def read(path):
    with open(path, encoding="utf-8", errors="replace") as fp:
        return fp.read()


def code_only(text):
    """text with comments, strings and preprocessor lines blanked; line numbers kept."""
    text = NOISE.sub(lambda m: "\n" * m.group().count("\n") + ('""' if m.group()[0] == '"' else " "), text)
    return PREPROCESSOR.sub("", text)


def functions(path):
    """[(name, body lines, static)] of the function definitions in a C file."""
    text = code_only(read(path))
    found, depth, head_start, open_at = [], 0, 0, 0
    for m in re.finditer(r"[{};]", text):
        c = m.group()
        if c == "{":
            if depth == 0:
                open_at = m.start()
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                head = text[head_start:open_at]
                names = [n for n in re.findall(r"(\w+)\s*\(", head) if n != "__attribute__"]
                if names and head.rstrip().endswith(")") and "=" not in head:
                    body = text.count("\n", open_at, m.start()) - 1
                    found.append((names[0], max(body, 1), bool(re.search(r"\bstatic\b", head))))
                head_start = m.end()
        elif depth == 0:
            head_start = m.end()
    return found


def sccs(graph):
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def rooms(files):
    folders = {}
    for f in files:
        d = folders.setdefault(os.path.dirname(f), {"files": 0, "lines": 0})
        d["files"] += 1
        d["lines"] += read(f).count("\n")
    return folders


def big_files(files, funcs):
    sizes = {f: read(f).count("\n") for f in files}
    row = lambda f: {"file": f, "lines": sizes[f], "functions": len(funcs.get(f, ()))}
    by_size = sorted(files, key=lambda f: -sizes[f])
    return {
        "over_300": [row(f) for f in by_size if sizes[f] > 300],
        "over_600": [row(f) for f in by_size if sizes[f] > 600],
        "cli_over_300": [row(f) for f in by_size if sizes[f] > 300 and f.startswith("src/cli/")],
    }


def folder_arrows(files, refs):
    """The two kinds of in-folder arrows back up (see the module's docstring)."""
    inc = {f: [t for _, _, t in layers.includes(f) if t and os.path.dirname(t) == os.path.dirname(f)]
           for f in files}
    own_header = lambda f: f[:-2] + ".h"

    def reaches(h, goal, seen):
        if h == goal:
            return True
        seen.add(h)
        return any(reaches(n, goal, seen) for n in inc.get(h, ()) if n not in seen)

    cycles, callers = [], []
    for f in files:
        for h in inc[f]:
            if h != own_header(f) and reaches(h, own_header(f), set()) and own_header(f) in files:
                cycles.append(f"{f} -> {h}")
            caller = h[:-2] + ".c"
            if f.endswith(".c") and caller != f and (caller, f) in refs:
                callers.append(f"{f} -> {h} ({caller} calls it)")
    return sorted(set(cycles)), callers


def unused_functions(files, defined, used):
    """Global functions no other product object references, by where they are used at all."""
    users = {}
    for user, sym in used:
        users.setdefault(sym, set()).add(user)
    test_names = set()
    for dirpath, _, names in os.walk("tests"):
        for n in names:
            if n.endswith((".c", ".h")):
                test_names.update(IDENT.findall(code_only(read(os.path.join(dirpath, n)))))
    own_text = {}
    result = {"used_only_in_own_file": [], "used_in_own_file_and_tests": [], "used_only_by_tests": [],
              "dead": []}
    for sym, (owner, kind) in sorted(defined.items()):
        if kind != "T" or sym in ENTRY_POINTS or users.get(sym, set()) - {owner}:
            continue
        if owner not in own_text:
            own_text[owner] = IDENT.findall(code_only(read(owner)))
        in_own, in_tests = own_text[owner].count(sym) > 1, sym in test_names
        key = ("used_in_own_file_and_tests" if in_own and in_tests else "used_only_in_own_file" if in_own
               else "used_only_by_tests" if in_tests else "dead")
        result[key].append(f"{owner}: {sym}")
    return {k: sorted(v) for k, v in result.items()}


def commands_calling_commands(refs):
    out = []
    for (user, owner), syms in sorted(refs.items()):
        m = re.fullmatch(r"src/cli/cmd_(\w+)\.c", owner)
        name = os.path.basename(user)
        if (m and user.startswith("src/cli/") and user not in ("src/cli/main.c", "src/cli/commands.c")
                and name != f"cmd_{m.group(1)}.c" and not name.startswith(m.group(1) + "_")):
            out.append(f"{user} -> {owner} ({', '.join(sorted(syms))})")
    return out


def duplicates(root):
    """Product-code rows of the duplicates tool: (total, not boilerplate, the tool's notes)."""
    if not shutil.which("duplicates"):
        return {"not_run": "duplicates is not on PATH"}
    out = subprocess.run(["duplicates", "--repo", root, "--most", "200", "--seconds", "120"],
                         capture_output=True, text=True).stdout
    rows = [line.split() for line in out.splitlines() if re.match(r"D\d+ ", line)]
    product = [r for r in rows if r[1].startswith(PRODUCT) and r[3].startswith(PRODUCT)]
    notes = [line for line in out.splitlines()[1:] if not re.match(r"D\d+ ", line)]
    return {"pairs": len(product), "not_boilerplate": sum("boilerplate" not in r for r in product),
            "rows_read": len(rows), "tool_said": [out.splitlines()[0]] + notes if out else []}


def measure(root, objdir, with_duplicates):
    os.chdir(root)
    # Folders move between the trees compared: each is measured with its own layer map.
    if os.path.isfile("scripts/check-layers.py"):
        tree_layers = load_module("scripts/check-layers.py", "tree_layers")
        layers.LAYERS, layers.DEPS = tree_layers.LAYERS, tree_layers.DEPS
    files = layers.product_files()
    funcs = {f: functions(f) for f in files if f.endswith(".c")}
    res = {"tree": os.getcwd(), "files": len(files), "rooms": rooms(files)}
    res["lines"] = sum(r["lines"] for r in res["rooms"].values())
    res["big_files"] = big_files(files, funcs)
    longest = sorted(((n, f, body) for f, fs in funcs.items() for n, body, _ in fs), key=lambda x: -x[2])
    res["longest_functions"] = [{"function": n, "file": f, "body_lines": b} for n, f, b in longest[:10]]
    res["includes_up"] = [f"{f}:{n} -> {t}" for f in files for n, _, t in layers.includes(f)
                          if t and layers.layer_of(f) and layers.why_up(f, t)]
    refs = {}
    if objdir:
        defined, used, missing = layers.read_objects(objdir, files)
        refs = link_references = layers.link_references(defined, used)
        res["objects"] = {"dir": objdir, "sources_not_built": missing}
        up = {k: v for k, v in link_references.items()
              if layers.layer_of(k[0]) and layers.layer_of(k[1]) and layers.why_up(*k)}
        res["links_up"] = [f"{u} -> {o} ({', '.join(sorted(s))})" for (u, o), s in sorted(up.items())]
        res["links_up_symbols"] = sum(len(s) for s in up.values())
        graph = {}
        for u, o in refs:
            graph.setdefault(u, set()).add(o)
        folder_graph = {}
        for u, o in refs:
            if os.path.dirname(u) != os.path.dirname(o):
                folder_graph.setdefault(os.path.dirname(u), set()).add(os.path.dirname(o))
        res["circles_files"] = sccs(graph)
        res["circles_folders"] = sccs(folder_graph)
        res["unused"] = unused_functions(files, defined, used)
        res["commands_calling_commands"] = commands_calling_commands(refs)
    res["folder_include_cycles"], callers = folder_arrows(files, refs)
    if objdir:
        res["folder_includes_callers_header"] = callers
    if with_duplicates:
        res["duplicates"] = duplicates(res["tree"])
    return res


def listing(title, items, extra=""):
    print(f"{title}: {len(items)}{extra}")
    for item in items:
        print(f"  {' <-> '.join(item) if isinstance(item, list) else item}")


def print_text(res):
    print(f"# tree {res['tree']}")
    print(f"product code: {res['files']} files, {res['lines']} lines, {len(res['rooms'])} folders")
    print("  folder                 files  lines")
    for d, r in sorted(res["rooms"].items()):
        print(f"  {d:<22} {r['files']:>5}  {r['lines']:>5}")
    big = {k: [f"{r['file']}: {r['lines']} lines, {r['functions']} functions" for r in v]
           for k, v in res["big_files"].items()}
    print(f"files over 300 lines: {len(big['over_300'])}")
    listing("files over 600 lines", big["over_600"])
    listing("src/cli files over 300 lines", big["cli_over_300"])
    listing("ten longest functions (body lines)",
            [f"{r['body_lines']:>4}  {r['function']} ({r['file']})" for r in res["longest_functions"]])
    listing("includes pointing up a layer", res["includes_up"])
    if "links_up" in res:
        listing("link references pointing up a layer", res["links_up"],
                f" file pairs, {res['links_up_symbols']} symbols")
    listing("in-folder include 2-cycles", res["folder_include_cycles"])
    if "links_up" not in res:
        print("# no --objects: link figures not measured")
    else:
        callers = res["folder_includes_callers_header"]
        listing("in-folder includes of a caller's header", callers,
                f" ({sum(c.startswith('meters/') for c in callers)} in meters/)")
        listing("link circles between files", res["circles_files"])
        listing("link circles between folders", res["circles_folders"])
        unused = res["unused"]
        listing("dead functions (referenced nowhere)", unused["dead"])
        listing("exported functions used only by tests", unused["used_only_by_tests"])
        listing("exported functions used only in their own file", unused["used_only_in_own_file"])
        listing("exported functions used only in their own file and by tests",
                unused["used_in_own_file_and_tests"])
        listing("cli files calling another command's functions", res["commands_calling_commands"])
        if res["objects"]["sources_not_built"]:
            print(f"# sources without an object: {' '.join(res['objects']['sources_not_built'])}")
    dup = res.get("duplicates")
    if dup and "not_run" in dup:
        print(f"# duplicates not run: {dup['not_run']}")
    elif dup:
        print(f"duplicates pairs in product code: {dup['pairs']}, {dup['not_boilerplate']} not boilerplate "
              f"(of {dup['rows_read']} rows)")
        for line in dup["tool_said"]:
            print(f"  # {line}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", default=".")
    ap.add_argument("--objects", help="build directory of that tree: objects at DIR/<source path>.o")
    ap.add_argument("--json", action="store_true", help="the figures as one JSON object")
    ap.add_argument("--no-duplicates", action="store_true", help="skip the duplicates tool (up to 2 min)")
    args = ap.parse_args()
    objdir = os.path.abspath(args.objects) if args.objects else None
    res = measure(args.root, objdir, not args.no_duplicates)
    if args.json:
        json.dump(res, sys.stdout, indent=1)
        print()
    else:
        print_text(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
