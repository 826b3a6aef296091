# SPDX-License-Identifier: GPL-2.0-or-later
# labgrid pytest module: an iowatt profile on every place of the environment, in parallel,
# then one report and one comparison over all boards.
#
#   pytest --lg-env contrib/labgrid/fleet.yaml contrib/labgrid/test_iowatt_fleet.py
#
# Each target of the environment is a place (fleet.yaml says what it holds and the options
# read here). For each one this makes a private work folder on the board (mktemp -d, so no
# other user of the board can plant or read files there), finds iowatt on the board or
# installs it there, copies the profile over, runs it with --meter pointing at the place's
# exported meter port, fetches the result files and removes the folder. Every word that
# reaches the board's shell is quoted; file names made from place names keep only
# [A-Za-z0-9._-]. Boards run side by side in threads; a board that fails (SSH refused or
# dropped, the board browning out, the meter gone, a run that never ends) is written down
# as failed with the reason and its own test fails, while the others go on. At the end
# test_fleet_report builds IOWATT_OUT/report/report.html and IOWATT_OUT/compare.{txt,csv}
# from every result that came back, and IOWATT_OUT/fleet.json says what each board did.
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import time

import pytest

TIMEOUT_S = 3600
# iowatt run --strict's exit codes of a run that went through, and what they say
STRICT_VERDICTS = {0: "valid", 4: "INVALID", 5: "UNCERTAIN"}
SAFE_PATH = re.compile(r"/[A-Za-z0-9._/-]+")


def pytest_generate_tests(metafunc):
    """One test_board case per place: the targets of the --lg-env file."""
    if "place" in metafunc.fixturenames:
        env = getattr(metafunc.config, "_labgrid_env", None)
        names = sorted(env.config.get_targets()) if env else []
        metafunc.parametrize("place", names)


def option(env, name, default=""):
    value = env.config.get_option(name, "\0")
    return default if value in ("\0", "") else value


def target_option(env, place, name, default=""):
    value = env.config.get_target_option(place, name, "\0")
    return default if value in ("\0", "") else value


def meter_spec(env, place, target):
    """--meter for this place: the exported port as DRIVER:rfc2217://HOST:PORT, or a whole
    spec from the options (a meter on the board itself)."""
    meter = target_option(env, place, "iowatt_meter")
    if not meter:
        raise ValueError(f"place {place}: no iowatt_meter option (the meter's driver)")
    keys = target_option(env, place, "iowatt_meter_keys")
    if ":" not in meter:
        port = target.get_resource("NetworkSerialPort")
        # labgrid-exporter serves a serial port with ser2net's telnet(rfc2217) accepter.
        meter = f"{meter}:rfc2217://{port.host}:{port.port}"
    return meter + ("," + keys if keys else "")


class BoardShell:
    """Commands and copies over the SSH master connection that labgrid's SSHDriver opened.

    The driver's own run/put/get are labgrid steps, and labgrid keeps its steps on one
    stack for the whole process: from several threads at once they trip its assertions.
    So the driver opens the connection (keys, proxy, ControlMaster) and this runs
    ssh and scp through that master, which is safe from any thread."""

    def __init__(self, driver):
        ns = driver.networkservice
        self.prefix = list(driver.ssh_prefix)
        self.port = str(ns.port)
        self.login = f"{ns.username}@{ns.address}"

    def run(self, cmd, timeout=None):
        """(stdout lines, stderr lines, exit code) of a shell command on the board."""
        p = subprocess.run(["ssh", "-x", *self.prefix, "-p", self.port, self.login, cmd],
                           capture_output=True, text=True, errors="replace",
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.stdout.splitlines(), p.stderr.splitlines(), p.returncode

    def copy(self, src, dst):
        p = subprocess.run(["scp", *self.prefix, "-P", self.port, src, dst],
                           capture_output=True, text=True, errors="replace",
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise RuntimeError(f"scp {src} {dst}: {p.stderr.strip()}")

    def put(self, local, remote):
        self.copy(local, f"{self.login}:{remote}")

    def get(self, remote, local):
        self.copy(f"{self.login}:{remote}", local)


def file_names(places):
    """{place: a file name base of [A-Za-z0-9._-], distinct for every place}."""
    names, taken = {}, set()
    for place in places:
        base = re.sub(r"[^A-Za-z0-9._-]", "_", place).lstrip(".-") or "place"
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}.{n}"
        names[place] = name
        taken.add(name)
    return names


def make_workdir(env, place, ssh):
    """A fresh folder on the board only this login can use: mktemp -d (mode 0700) in
    iowatt_workdir, else in the board's TMPDIR or /tmp."""
    parent = target_option(env, place, "iowatt_workdir")
    if parent and not SAFE_PATH.fullmatch(parent):
        raise ValueError(f"iowatt_workdir {parent!r} is not a plain absolute path "
                         "(A-Z a-z 0-9 . _ - /): scp hands it to the board's shell")
    if parent:
        cmd = (f"mkdir -p -- {shlex.quote(parent)} && "
               f"mktemp -d {shlex.quote(parent.rstrip('/') + '/iowatt-fleet.XXXXXXXX')}")
    else:
        cmd = 'mktemp -d "${TMPDIR:-/tmp}/iowatt-fleet.XXXXXXXX"'
    out, err, rc = ssh.run(cmd)
    remote = out[0].strip() if rc == 0 and out else ""
    # scp hands the remote path to the board's shell: it must be plain, as mktemp makes it.
    if not SAFE_PATH.fullmatch(remote):
        raise RuntimeError(f"mktemp -d on the board failed: {' '.join(out + err)[-200:]}")
    return remote


def find_or_install(env, place, ssh, remote):
    """iowatt's path on the board: the option, iowatt on PATH, or installed from iowatt_install."""
    given = target_option(env, place, "iowatt")
    if given:
        out, _, rc = ssh.run(f"test -x {shlex.quote(given)} && echo {shlex.quote(given)}")
        if rc != 0:
            raise RuntimeError(f"iowatt {given} is not on the board")
        return given, "given"
    out, _, rc = ssh.run("command -v iowatt")
    if rc == 0 and out:
        return out[0].strip(), "found"
    local = target_option(env, place, "iowatt_install")
    if not local:
        raise RuntimeError("no iowatt on the board and no iowatt_install to copy there")
    path = f"{remote}/iowatt" + (".deb" if local.endswith(".deb") else "")
    ssh.put(local, path)
    if path.endswith(".deb"):
        _, err, rc = ssh.run(f"apt-get install -y {shlex.quote(path)}")
        if rc != 0:
            raise RuntimeError(f"installing {local} failed: " + " ".join(err[-3:]))
        return "iowatt", "installed"
    ssh.run(f"chmod 700 {shlex.quote(path)}")
    return path, "copied"


def has_strict(ssh, iowatt):
    """Whether the board's iowatt knows run --strict: one installed before it refuses the
    flag (exit 2, no result), so its run goes without and its result is judged here."""
    out, err, _ = ssh.run(f"{shlex.quote(iowatt)} run --help 2>&1")
    return any("--strict" in line for line in out + err)


def verdict_of(path):
    """valid, UNCERTAIN or INVALID from a result's jobs (what run --strict exits with), or
    None when the file holds no job to judge."""
    try:
        with open(path) as f:
            jobs = json.load(f).get("jobs")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(jobs, list) or not jobs:
        return None
    verdict = "valid"
    for job in jobs:
        v = job.get("validity") if isinstance(job, dict) else None
        if not isinstance(v, dict) or v.get("valid") is not True:
            return "INVALID"
        if v.get("uncertain") is True:
            verdict = "UNCERTAIN"
    return verdict


def measure_board(env, place, ssh, out_dir, name):
    """Runs the profile on one board; the record of what happened, never an exception.
    name is the place's file name base (file_names)."""
    rec = {"place": place, "status": "failed", "reason": "", "result": None,
           "exit_code": None, "iowatt": None, "meter": None, "verdict": None}
    t0 = time.monotonic()
    remote = None
    try:
        remote = make_workdir(env, place, ssh)
        rec["iowatt"], rec["install"] = find_or_install(env, place, ssh, remote)
        profile = option(env, "iowatt_profile", "quick")
        if os.path.isfile(profile):
            copy = f"{remote}/" + file_names([os.path.basename(profile)]).popitem()[1]
            ssh.put(profile, copy)
            profile = copy
        rec["meter"] = env.fleet_meters[place]
        target_dir = target_option(env, place, "iowatt_target")
        if not target_dir:
            raise ValueError(f"place {place}: no iowatt_target option")
        limit = int(target_option(env, place, "iowatt_timeout", str(TIMEOUT_S)))
        json_out = f"{remote}/{name}.json"
        strict = has_strict(ssh, rec["iowatt"])
        # timeout(1) on the board: labgrid's SSHDriver.run waits without a limit, and a
        # board whose run never ends must not hold up the fleet.
        cmd = " ".join(shlex.quote(a) for a in [
            "timeout", "--kill-after=30", str(limit), rec["iowatt"], "run", profile,
            "--target", target_dir, "--meter", rec["meter"], "--no-progress"] +
            (["--strict"] if strict else []) + ["--json-out", json_out])
        out, err, rc = ssh.run(cmd + " 2>&1", timeout=limit + 90)
        rec["exit_code"] = rc
        with open(os.path.join(out_dir, f"{name}.log"), "w") as f:
            f.write("$ " + cmd + "\n" + "\n".join(out + err) + "\n")
        # A run that stopped early (a meter gone, a stop) may still have written its
        # result, marked as such: it is fetched and reported for what it is.
        _, _, has = ssh.run(f"test -s {shlex.quote(json_out)}")
        if has == 0:
            ssh.get(f"{remote}/{name}.*", out_dir)
            rec["result"] = os.path.join(out_dir, f"{name}.json")
        # --strict: 4 when a job is INVALID, 5 when one is UNCERTAIN. The run itself went
        # through; test_board_valid is the case such a job fails, not test_board.
        if strict and rc in STRICT_VERDICTS and rec["result"]:
            rec["status"] = "ok"
            rec["verdict"] = STRICT_VERDICTS[rc]
        elif not strict and rc == 0 and rec["result"]:
            rec["status"] = "ok"
            rec["verdict"] = verdict_of(rec["result"])
        elif rec["result"]:
            rec["status"] = "partial"
            rec["reason"] = f"iowatt run exited {rc}; see {name}.log"
        else:
            tail = [line for line in out + err if line.strip()][-1:]
            rec["reason"] = f"iowatt run exited {rc} without a result: " + " ".join(tail)
    except Exception as e:  # one board's failure is its own; the fleet goes on
        rec["reason"] = f"{type(e).__name__}: {e}"
    if remote:
        try:
            ssh.run(f"rm -rf -- {shlex.quote(remote)}", timeout=60)
        except Exception:  # pylint: disable=broad-except
            pass  # a board gone now keeps its folder; the record already says why
    rec["wall_s"] = round(time.monotonic() - t0, 1)
    rec["t_end"] = time.time()
    rec["t_start"] = rec["t_end"] - rec["wall_s"]
    return rec


@pytest.fixture(scope="session")
def fleet(env):
    """Every place measured, side by side: {place: record}."""
    out_dir = os.path.abspath(option(env, "iowatt_out", "iowatt-fleet"))
    os.makedirs(out_dir, exist_ok=True)
    places = sorted(env.config.get_targets())
    names = file_names(places)
    records, ready = {}, {}
    env.fleet_meters = {}
    # Resolving the places and opening the SSH masters talks to the coordinator from
    # labgrid's own event loop, so it happens here, one place after another; the runs,
    # which are most of the time, go in parallel.
    for place in places:
        try:
            target = env.get_target(place)
            ssh = target.get_driver("SSHDriver")
            env.fleet_meters[place] = meter_spec(env, place, target)
            ready[place] = BoardShell(ssh)
        except Exception as e:  # pylint: disable=broad-except
            records[place] = {"place": place, "status": "failed", "result": None,
                              "reason": f"{type(e).__name__}: {e}"}
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(ready))) as pool:
        futures = {pool.submit(measure_board, env, p, ssh, out_dir, names[p]): p
                   for p, ssh in ready.items()}
        for fut in concurrent.futures.as_completed(futures):
            records[futures[fut]] = fut.result()
    summary = {"out": out_dir, "wall_s": round(time.monotonic() - t0, 1),
               "places": [records[p] for p in places]}
    with open(os.path.join(out_dir, "fleet.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def test_board(fleet, place):
    """One place: its run ended and its result came back."""
    rec = next(r for r in fleet["places"] if r["place"] == place)
    assert rec["status"] == "ok", f"{place}: {rec['status']}: {rec['reason']}"


def test_board_valid(fleet, place):
    """One place: every job of its run valid and known within its limit (run --strict)."""
    rec = next(r for r in fleet["places"] if r["place"] == place)
    if rec["status"] != "ok":
        pytest.skip(f"{place}: no finished run to judge ({rec['reason']})")
    if rec["verdict"] is None:
        pytest.skip(f"{place}: its result holds no job to judge ({rec['result']})")
    assert rec["verdict"] == "valid", \
        f"{place}: a job is {rec['verdict']}: its figures should not be published (see the result)"


def test_fleet_report(env, fleet):
    """One report page and one comparison over every board's result."""
    iowatt = option(env, "iowatt_local", "iowatt")
    done = [r for r in fleet["places"] if r["result"]]
    assert done, "no board returned a result: " + "; ".join(
        f"{r['place']}: {r['reason']}" for r in fleet["places"])
    args = []
    for r in done:
        args += [r["result"], "--label", f"{r['result']}={r['place']}"]
    out = fleet["out"]
    for cmd in ([iowatt, "report", *args, "-o", os.path.join(out, "report")],
                [iowatt, "compare", *args, "-o", os.path.join(out, "compare.txt")],
                [iowatt, "compare", *args, "--format", "csv", "-o", os.path.join(out, "compare.csv")]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        assert p.returncode == 0, f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr}"
