#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Results for the page and matrix tests (issue 20 section 6), made from the golden ones:
# an UNCERTAIN job, a job run with another size, a 30-job record sweep with one invalid
# cell, an emulated result among real ones, two files named quick.json.
"""page_fixtures.py GOLDEN_DIR OUT_DIR: writes the results below into OUT_DIR."""
import copy
import json
import math
import os
import shutil
import sys

golden, out = sys.argv[1], sys.argv[2]


def load(name):
    return json.load(open(os.path.join(golden, name + ".json")))


def save(d, name):
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # A result reads only sample CSVs beside it: copied there.
    for v in d["files"].values():
        shutil.copy(os.path.join(golden, v), os.path.dirname(path))
    json.dump(d, open(path, "w"), indent=1)


# uncertain.json: the SD card, its SEQ1M-Q8T1-write flagged UNCERTAIN (+-12 % > 5 %).
sd = load("sd-sandisk-ultra")
for j in sd["jobs"]:
    if j["jobname"] == "SEQ1M-Q8T1-write":
        j["validity"]["uncertain"] = True
        j["validity"]["uncertainty"] = {
            "figure": "j_per_gb", "u95_rel": 0.12, "limit": 0.05,
            "dominant": "INA219 resolution 1 mW at 60 mW mean",
            "budget": {"gain": 0.01, "offset": 0.055, "resolution": 0.02, "noise": 0.001,
                       "discretisation": 0.0, "baseline": 0.0}}
save(sd, "uncertain.json")

# bigger.json: the USB stick, its SEQ1M-Q8T1-read run over 4 GiB instead of 1 GiB.
st = load("usbstick-sandisk-ultra")
for j in st["jobs"]:
    if j["jobname"] == "SEQ1M-Q8T1-read":
        j["options"]["size"] = 4 << 30
save(st, "bigger.json")

# emulated.json: the NVMe drive metered by an emulated INA226.
nv = load("nvme-netac")
nv["emulated"] = True
for m in nv["meters"]:
    m["emulated"] = True
for j in nv["jobs"]:
    j["validity"]["emulated"] = True
save(nv, "emulated.json")

# sweep.json: 5 operations x 6 record sizes = 30 jobs; the 16 KiB write is invalid
# (undervoltage) with a J/GB 7x better than its neighbours; the 64 KiB read uncertain; the
# 4 KiB randread's J/GB 1430.
sw = load("sd-sandisk-ultra")
tmpl = {j["jobname"]: j for j in sw["jobs"]}
jobs = []
for bs in (4096, 16384, 65536, 262144, 1048576, 4194304):
    for op in ("write", "rewrite", "read", "reread", "randread"):
        t = copy.deepcopy(tmpl["SEQ1M-Q8T1-write" if "write" in op else "SEQ1M-Q8T1-read"])
        t["jobname"] = "REC%dK-%s" % (bs // 1024, op)
        t["options"]["rw"], t["options"]["bs"] = op, bs
        k = "write" if "write" in op else "read"
        f = max(0.02, 1 - math.exp(-bs / 5e4))
        t[k]["bw_bytes"] = int(t[k]["bw_bytes"] * f)
        t[k]["iops"] = t[k]["bw_bytes"] / bs
        t["efficiency"]["j_per_gb"] = round(t["efficiency"]["j_per_gb"] / f, 1)
        t["events"] = []
        if op == "write" and bs == 16384:
            t["efficiency"]["j_per_gb"] = 9.4
            t["validity"]["valid"] = False
            t["validity"]["reasons"] = ["undervoltage during the job"]
        if op == "randread" and bs == 4096:
            t["efficiency"]["j_per_gb"] = 1430.0  # a label that %.3g writes 1.43e+03
        if op == "read" and bs == 65536:
            t["validity"]["uncertain"] = True
            t["validity"]["uncertainty"] = {"figure": "j_per_gb", "u95_rel": 0.09,
                                            "limit": 0.05, "dominant": "INA219 offset"}
        jobs.append(t)
sw["jobs"] = jobs
save(sw, "sweep.json")

# a/quick.json and b/quick.json: two results of one base name.
save(load("sd-sandisk-ultra"), "a/quick.json")
save(load("usbstick-sandisk-ultra"), "b/quick.json")

# fleet/*.json: four devices (the four golden results) that each ran the same 34 jobs
# (their own 4 and a 30-job record sweep): the charts and page of a wide comparison.
for name in ("sd-sandisk-ultra", "usbstick-sandisk-ultra", "nvme-netac", "usbssd-samsung-t7"):
    d = load(name)
    tmpl = {j["jobname"]: j for j in d["jobs"]}
    jobs = list(d["jobs"])
    for bs in (4096, 16384, 65536, 262144, 1048576, 4194304):
        for op in ("write", "rewrite", "read", "reread", "randread"):
            k = "write" if "write" in op else "read"
            t = copy.deepcopy(tmpl["SEQ1M-Q8T1-" + k])
            t["jobname"] = "REC%dK-%s" % (bs // 1024, op)
            t["options"]["rw"], t["options"]["bs"] = op, bs
            f = max(0.02, 1 - math.exp(-bs / 5e4))
            t[k]["bw_bytes"] = int(t[k]["bw_bytes"] * f)
            t[k]["iops"] = t[k]["bw_bytes"] / bs
            t["efficiency"]["j_per_gb"] = round(t["efficiency"]["j_per_gb"] / f, 2)
            t["events"] = []
            jobs.append(t)
    d["jobs"] = jobs
    save(d, "fleet/%s.json" % name)

# fast.json: the NVMe drive's random jobs at 2 M IOPS (a chart's IOPS axis reaches 1 M:
# '%g' wrote its ticks as 1e+06).
nv = load("nvme-netac")
for j in nv["jobs"]:
    for k in ("read", "write"):
        if j["options"]["bs"] == 4096 and j[k]["iops"]:
            j[k]["iops"] *= 50
            j[k]["bw_bytes"] *= 50
save(nv, "fast.json")
