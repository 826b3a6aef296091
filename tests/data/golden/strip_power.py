#!/usr/bin/env python3
# Writes a copy of a result as a run without a meter would leave it: no power, efficiency,
# validity or per-meter figures, no meters; usage: strip_power.py IN.json OUT.json
import json, os, sys

src, dst = sys.argv[1], sys.argv[2]
d = json.load(open(src))
d["meters"] = []
for j in d["jobs"]:
    for k in ("power", "efficiency", "validity", "meters"):
        j.pop(k, None)
# Keep the interval series reachable from the copy's directory.
d["files"] = {"intervals": os.path.abspath(src[:-5] + ".intervals.csv")}
json.dump(d, open(dst, "w"))
