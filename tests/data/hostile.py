#!/usr/bin/env python3
# Hostile results for t_hostile.sh: every string a chart, table, compare, size or report
# prints, set to text that would run a command, break a line or a cell if passed through.
#   hostile.py make GOLDEN_DIR OUT_DIR   writes the corpus, prints the file names
#   hostile.py csv FILE / md FILE / text FILE / svg DIR / dumb DIR / html FILE: checks
import csv
import json
import os
import shutil
import sys
import xml.dom.minidom

MARK = "PWNED"
PAYLOADS = [
    "x'\nsystem('touch %s')\n#" % MARK,
    '"; system("touch %s"); "' % MARK,
    "`touch %s`" % MARK,
    "$(touch %s)" % MARK,
    "@SHORT @ARG1 @x",
    "a\\b\\",
    "q' title 'q'; system('touch %s'); plot 'z" % MARK,
    "'; load '/etc/passwd' #",
    "Ünïcødé ✓ 日本語 🚀 \u202egnp.exe",
    "\x1b[31mred\x1b[0m\r\n\ttab\x07",
    '=HYPERLINK("http://x","y")',
    "+1+cmd|' /C calc'!A0",
    "-2",
    "@SUM(A1:A9)",
    "| pipe | cell |",
    "<script>alert(1)</script><img src=x onerror=alert(2)>",
    '", comma, "quote',
    "A" * 10240,
]
# Values read as enums: a hostile one is (rightly) refused as a whole file.
ENUM_KEYS = {"status", "kind"}
# Names of files beside the result: kept, so the charts still have their series.
FILE_KEYS = {"intervals", "samples"}
# File names (a result's name is printed and becomes a chart's name).
NAMES = ["q' title 'q'; system('touch %s'); plot 'z" % MARK, "$(touch %s)" % MARK,
         "`touch %s`" % MARK, "a|b,c=d", "Ünï ✓ \x1b[31m"]


def poison(node, pick, keep=()):
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            out[k] = v if k in ENUM_KEYS or k in FILE_KEYS or k in keep else poison(v, pick, keep)
        return out
    if isinstance(node, list):
        return [poison(v, pick, keep) for v in node]
    if isinstance(node, str):
        return pick()
    return node


def hostile_events(doc, pick):
    t0 = doc["t0_ns"]
    evs = [{"t_ns": t0 + 2 * 10**9 + i, "t_end_ns": 0, "kind": "usb_disconnect",
            "source": pick(), "text": pick()} for i in range(3)]
    for job in doc["jobs"]:
        job["events"] = evs
        job.setdefault("validity", {}).setdefault("reasons", []).append(pick())
        job["error"] = pick()


def make(golden, out):
    os.makedirs(out, exist_ok=True)
    made = []
    srcs = sorted(f for f in os.listdir(golden) if f.endswith(".json"))
    for n, payload in enumerate(PAYLOADS + [None]):
        src = srcs[n % len(srcs)]
        doc = json.load(open(os.path.join(golden, src)))
        if payload is None:
            # Everything, the job options too (rw, ioengine: jobs then model nothing).
            seq = iter(range(10**9))
            pick = lambda: PAYLOADS[next(seq) % len(PAYLOADS)]
            keep = ()
        else:
            pick = lambda: payload
            keep = ("options",)
        doc = poison(doc, pick, keep)
        hostile_events(doc, pick)
        stem = "hostile-%02d" % n
        write(doc, golden, src, out, stem)
        made.append(stem + ".json")
    for n, name in enumerate(NAMES):
        src = srcs[n % len(srcs)]
        doc = json.load(open(os.path.join(golden, src)))
        write(doc, golden, src, out, name)
        made.append(name + ".json")
    print("\n".join(made))


def write(doc, golden, src, out, stem):
    base = src[:-5]
    files = {}
    for kind in ("intervals", "samples"):
        s = os.path.join(golden, "%s.%s.csv" % (base, kind))
        if os.path.exists(s):
            shutil.copy(s, os.path.join(out, "%s.%s.csv" % (stem, kind)))
            files[kind] = "%s.%s.csv" % (stem, kind)
    doc["files"] = files
    with open(os.path.join(out, stem + ".json"), "w") as f:
        json.dump(doc, f, indent=1)


def fail(msg):
    print(msg)
    sys.exit(1)


def no_controls(text, what, allowed="\n"):
    for i, ch in enumerate(text):
        if (ord(ch) < 32 and ch not in allowed) or ch == "\x7f" or 0x80 <= ord(ch) < 0xa0 \
                or ch in "\u202a\u202b\u202c\u202d\u202e":
            fail("%s: control character %r at %d" % (what, ch, i))


def check_csv(path):
    text = open(path, encoding="utf-8").read()
    no_controls(text, path)
    rows = list(csv.reader(open(path, newline="", encoding="utf-8")))
    if len(rows) < 2:
        fail("%s: no rows" % path)
    width = len(rows[0])
    for n, row in enumerate(rows):
        if len(row) != width:
            fail("%s: row %d has %d fields, header %d" % (path, n + 1, len(row), width))
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@"):
                try:
                    float(cell)
                except ValueError:
                    fail("%s: row %d: formula cell %r" % (path, n + 1, cell[:40]))
    print("%s: %d rows of %d fields" % (path, len(rows), width))


def cells(line):
    out, cur, esc = [], "", False
    for ch in line:
        if esc:
            cur += ch
            esc = False
        elif ch == "\\":
            cur += ch
            esc = True
        elif ch == "|":
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def check_md(path):
    text = open(path, encoding="utf-8").read()
    no_controls(text, path)
    width = None
    rows = 0
    for n, line in enumerate(text.split("\n")):
        if not line.startswith("|"):
            width = None
            continue
        w = len(cells(line))
        if width is None:
            width = w
        elif w != width:
            fail("%s:%d: %d cells, header %d" % (path, n + 1, w - 2, width - 2))
        rows += 1
    if not rows:
        fail("%s: no table" % path)
    print("%s: %d table lines" % (path, rows))


def check_text(path):
    no_controls(open(path, encoding="utf-8").read(), path)
    print("%s: no control characters" % path)


def check_dumb(d):
    n = 0
    for f in sorted(os.listdir(d)):
        if f.endswith(".txt"):
            # gnuplot's dumb terminal starts each page with a form feed.
            no_controls(open(os.path.join(d, f), encoding="utf-8").read(), f, "\n\f")
            n += 1
    if not n:
        fail("%s: no text chart" % d)
    print("%s: %d text charts, valid UTF-8 without control characters" % (d, n))


def check_svg(d):
    n = 0
    for f in sorted(os.listdir(d)):
        if f.endswith(".svg"):
            xml.dom.minidom.parse(os.path.join(d, f))
            n += 1
    if not n:
        fail("%s: no SVG" % d)
    print("%s: %d SVG files parse as XML" % (d, n))


def check_html(path):
    text = open(path, encoding="utf-8").read()
    no_controls(text, path, "\n\t")
    for bad in ("<script>alert", "<img src=x"):
        if bad in text:
            fail("%s: %r reached the page unescaped" % (path, bad))
    print("%s: no payload markup" % path)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        {"csv": check_csv, "md": check_md, "text": check_text, "svg": check_svg,
         "dumb": check_dumb, "html": check_html}[cmd](sys.argv[2])
