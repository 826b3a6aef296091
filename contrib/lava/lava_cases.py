#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Reports an iowatt result to LAVA: per job lava-test-case measurements of J/GB and IOPS/mA
# (pass when the job is valid) and the job's validity (pass or fail, with its reasons).
#
# Usage: lava_cases.py RESULT.json   (lava-test-case on PATH, as in LAVA's test shell)
# A job's case names are its name (LAVA's allowed characters) with .rROUND.lLOOP added
# when the result repeats it; a figure the result does not know (no meter) is a skip.
#
# The result file is data from the device, not trusted: it is checked whole before
# anything is reported (a malformed one is one failed iowatt-result case and its reason),
# round and loop must be integers, names that become alike once sanitised get .nN, and
# nothing from the file reaches the console with a control character in it, because LAVA
# reads its test signals from that console.
import json
import math
import re
import subprocess
import sys

FIGURES = (("j_per_gb", "J/GB"), ("iops_per_ma", "IOPS/mA"))
MAX_INDEX = 1000000        # round and loop: iowatt counts from 1, far below this
MAX_NAME = 80              # LAVA keeps test case names short; room is left for suffixes
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]|<(?=LAVA_)")


class Malformed(Exception):
    """The result file is not an iowatt result this script can report."""


def inert(text):
    """text safe for LAVA's console: control characters (and the start of a LAVA signal)
    shown as \\xNN escapes, so nothing printed can open a line or a signal of its own."""
    return UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                      else f"\\u{ord(m.group()):04x}", str(text))


def case(name, result, measurement=None, units=None):
    cmd = ["lava-test-case", name, "--result", result]
    if measurement is not None:
        cmd += ["--measurement", repr(float(measurement)), "--units", units]
    subprocess.run(cmd, check=True)


def index(job, n, key):
    """round or loop of job n: a checked integer, 1 when the result leaves it out."""
    value = job.get(key)
    if value is None:
        return 1
    if type(value) is not int or not 1 <= value <= MAX_INDEX:
        raise Malformed(f"job {n}: {key} is {inert(json.dumps(value)[:40])}, "
                        f"not an integer 1..{MAX_INDEX}")
    return value


def figure(job, n, key):
    """An efficiency figure: a finite number, or None when the result does not know it."""
    eff = job.get("efficiency")
    if eff is None:
        return None
    if not isinstance(eff, dict):
        raise Malformed(f"job {n}: efficiency is not an object")
    value = eff.get(key)
    if value is None:
        return None
    if type(value) not in (int, float):
        raise Malformed(f"job {n}: efficiency.{key} is not a number")
    return value if math.isfinite(value) else None


def validity(job, n):
    """(valid, reasons) of job n; a job without validity is not valid."""
    v = job.get("validity")
    if v is None:
        return False, ["the result has no validity for this job"]
    if not isinstance(v, dict) or type(v.get("valid")) is not bool:
        raise Malformed(f"job {n}: validity.valid is not true or false")
    reasons = v.get("reasons") or []
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise Malformed(f"job {n}: validity.reasons is not a list of strings")
    return v["valid"], reasons


def check_jobs(res):
    """Every job as (jobname, round, loop, valid, reasons, {figure: value}), or Malformed."""
    if not isinstance(res, dict):
        raise Malformed("the top level is not an object")
    jobs = res.get("jobs")
    if not isinstance(jobs, list):
        raise Malformed("no jobs list")
    out = []
    for n, j in enumerate(jobs, 1):
        if not isinstance(j, dict):
            raise Malformed(f"job {n} is not an object")
        name = j.get("jobname")
        if not isinstance(name, str) or not name:
            raise Malformed(f"job {n}: jobname is not a non-empty string")
        valid, reasons = validity(j, n)
        out.append((name, index(j, n, "round"), index(j, n, "loop"), valid, reasons,
                    {key: figure(j, n, key) for key, _ in FIGURES}))
    return out


def case_names(jobs):
    """A distinct LAVA case name for every job. Names LAVA takes as they are keep them;
    a name that had to change (or collides once changed) gets .nN after it, the first
    free N, so two jobs never report under one name."""
    repeated = {}
    for name, *_ in jobs:
        repeated[name] = repeated.get(name, 0) + 1
    wanted = []
    for name, rnd, loop, *_ in jobs:
        base = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:MAX_NAME]
        kept = base == name
        if repeated[name] > 1:
            base += f".r{rnd}.l{loop}"
        wanted.append((base, kept))
    names, taken = [None] * len(jobs), set()
    # Kept names first: a valid "a_b" keeps its name even when an "a b" comes before it.
    for keep in (True, False):
        for i, (base, kept) in enumerate(wanted):
            if kept != keep:
                continue
            name, n = base, 1
            while name in taken:
                n += 1
                name = f"{base}.n{n}"
            names[i] = name
            taken.add(name)
    return names


def main(path):
    try:
        with open(path, encoding="utf-8") as f:
            res = json.load(f)
        jobs = check_jobs(res)
    except (OSError, ValueError, RecursionError, Malformed) as e:
        reason = inert(f"lava_cases.py: {path}: {e}")
        print(reason)
        print(reason, file=sys.stderr)
        case("iowatt-result", "fail")
        return 1
    case("iowatt-result", "pass")
    for (jobname, _r, _l, valid, reasons, figures), name in zip(jobs, case_names(jobs)):
        if name != jobname:
            print(f"{name}: the job {inert(json.dumps(jobname, ensure_ascii=False))}")
        for key, units in FIGURES:
            if figures[key] is None:
                case(f"{name}.{key}", "skip")
            else:
                case(f"{name}.{key}", "pass" if valid else "fail", figures[key], units)
        if not valid:
            print(f"{name}: invalid: {inert('; '.join(reasons))}")
        case(f"{name}.valid", "pass" if valid else "fail", 1 if valid else 0, "valid")
    if res.get("emulated") is True:
        print("note: the power figures come from an EMULATED meter")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: lava_cases.py RESULT.json")
    sys.exit(main(sys.argv[1]))
