#!/usr/bin/env python3
# Writes a copy of a result as a run without a meter would leave it: no power, efficiency,
# validity or per-meter figures, no meters; usage: strip_power.py IN.json OUT.json
import json, os, shutil, sys

src, dst = sys.argv[1], sys.argv[2]
d = json.load(open(src))
d["meters"] = []
for j in d["jobs"]:
    for k in ("power", "efficiency", "validity", "meters"):
        j.pop(k, None)
# A result reads only CSVs beside it: the interval series is copied next to the copy.
name = os.path.basename(dst)[:-5] + ".intervals.csv"
shutil.copy(src[:-5] + ".intervals.csv", os.path.join(os.path.dirname(os.path.abspath(dst)), name))
d["files"] = {"intervals": name}
json.dump(d, open(dst, "w"))
