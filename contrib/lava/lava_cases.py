#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Reports an iowatt result to LAVA: per job lava-test-case measurements of J/GB and IOPS/mA
# (pass when the job is valid) and the job's validity (pass or fail, with its reasons).
#
# Usage: lava_cases.py RESULT.json   (lava-test-case on PATH, as in LAVA's test shell)
# A job's case names are its name (LAVA's allowed characters) with .rROUND.lLOOP added
# when the result repeats it; a figure the result does not know (no meter) is a skip.
import collections
import json
import math
import re
import subprocess
import sys

FIGURES = (("j_per_gb", "J/GB"), ("iops_per_ma", "IOPS/mA"))


def case(name, result, measurement=None, units=None):
    cmd = ["lava-test-case", name, "--result", result]
    if measurement is not None:
        cmd += ["--measurement", repr(float(measurement)), "--units", units]
    subprocess.run(cmd, check=True)


def main(path):
    try:
        with open(path) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        print(f"lava_cases.py: {path}: {e}", file=sys.stderr)
        case("iowatt-result", "fail")
        return 1
    case("iowatt-result", "pass")
    jobs = res.get("jobs", [])
    seen = collections.Counter(j["jobname"] for j in jobs)
    for j in jobs:
        name = re.sub(r"[^A-Za-z0-9._-]", "_", j["jobname"])
        if seen[j["jobname"]] > 1:
            name += f".r{j.get('round', 1)}.l{j.get('loop', 1)}"
        validity = j.get("validity", {})
        valid = bool(validity.get("valid"))
        for key, units in FIGURES:
            value = (j.get("efficiency") or {}).get(key)
            if value is None or not math.isfinite(value):
                case(f"{name}.{key}", "skip")
            else:
                case(f"{name}.{key}", "pass" if valid else "fail", value, units)
        if not valid:
            print(f"{name}: invalid: {'; '.join(validity.get('reasons', []))}")
        case(f"{name}.valid", "pass" if valid else "fail", 1 if valid else 0, "valid")
    if res.get("emulated"):
        print("note: the power figures come from an EMULATED meter")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: lava_cases.py RESULT.json")
    sys.exit(main(sys.argv[1]))
