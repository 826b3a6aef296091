#!/usr/bin/env bash
# contrib/labgrid/test_iowatt_fleet.py's commands on a board, with hostile place names and
# work folder options: this machine plays the board (a stand-in for the SSH connection runs
# each command with sh -c), so nothing but python3-pytest is needed. Checked: no word of a
# place name or option runs as a command, the work folder is a fresh 0700 one from mktemp
# and is gone afterwards, the local file names stay in the output folder and are distinct.
. "$(dirname "$0")/../lib/lib.sh"
PY=/usr/bin/python3
"$PY" -c 'import pytest' 2>/dev/null || { echo "1..0 # skip python3-pytest is not installed (tests/deps.sh --fleet)"; exit 0; }

mkdir -p "$T_TMP/board" "$T_TMP/out"
# The stand-ins both checks use: this machine as the board, labgrid's config and env.
cat >"$T_TMP/fleet_board.py" <<'PY'
import glob, os, shutil, stat, subprocess

class Board:
    """The BoardShell interface, on this machine: the command goes to sh as SSH gives it;
    seen: every folder the board's mktemp made, with its mode."""
    def __init__(self, board_tmp):
        self.board_tmp, self.seen = board_tmp, []
    def run(self, cmd, timeout=None):
        p = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True,
                           env=dict(os.environ, TMPDIR=self.board_tmp), timeout=timeout)
        if "mktemp" in cmd and p.returncode == 0:
            made = p.stdout.strip()
            self.seen.append((made, stat.S_IMODE(os.stat(made).st_mode)))
        return p.stdout.splitlines(), p.stderr.splitlines(), p.returncode
    def put(self, local, remote):
        shutil.copy(local, remote)
    def get(self, remote, local):
        for f in glob.glob(remote):
            shutil.copy(f, local)

class Config:
    def __init__(self, opts):
        self.opts = opts
    def get_option(self, name, default):
        return self.opts.get(name, default)
    def get_target_option(self, place, name, default):
        return self.opts.get(name, default)

class Env:
    def __init__(self, place, **opts):
        self.config = Config(opts)
        self.fleet_meters = {place: "um25c:/nonexistent"}
PY
check "hostile place names and options: nothing runs, private work folders, distinct local names" -- \
	env -C "$T_TMP" "$PY" - "$REPO/contrib/labgrid" "$T_TMP" <<'PY'
import importlib, os, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
fleet = importlib.import_module("test_iowatt_fleet")
fleet_board = importlib.import_module("fleet_board")
tmp = sys.argv[2]
board_tmp = os.path.join(tmp, "board")
pwned = os.path.join(tmp, "PWNED")
board = fleet_board.Board(board_tmp)
seen = board.seen
Env = fleet_board.Env

# A fake iowatt that writes the result it is told to (--json-out), so the fetch runs too.
fake = os.path.join(tmp, "fake-iowatt")
with open(fake, "w") as f:
    f.write('#!/bin/sh\nwhile [ $# -gt 1 ]; do [ "$1" = --json-out ] && echo "{}" >"$2"; shift; done\n')
os.chmod(fake, 0o755)

evil = f"b1;touch {pwned};$(touch {pwned})`touch {pwned}`"
places = [evil, "b 1", "b_1", "../up", "-rf", ".hidden"]
names = fleet.file_names(places)
print("local names:", names)
assert len(set(names.values())) == len(places), "two places share a file name"
for n in names.values():
    assert n and "/" not in n and not n.startswith((".", "-")), n

workdir_opt = os.path.join(tmp, "work.dir")
bad_workdir = os.path.join(tmp, f"work dir;touch {pwned}")
rec = fleet.measure_board(Env(evil, iowatt_install=fake, iowatt_target="/nonexistent",
                              iowatt_workdir=bad_workdir), evil, board,
                          os.path.join(tmp, "out"), names[evil])
print("iowatt_workdir with a space and ;:", rec["status"], rec["reason"])
assert rec["status"] == "failed" and "not a plain absolute path" in rec["reason"], rec
assert not os.path.exists(bad_workdir) and not seen, "a work folder was made there"
for place in places:
    for opts in ({}, {"iowatt_workdir": workdir_opt}):
        rec = fleet.measure_board(Env(place, iowatt_install=fake, iowatt_target="/nonexistent",
                                      **opts), place, board, os.path.join(tmp, "out"),
                                  names[place])
        print(place, opts, rec["status"], rec["reason"], rec["iowatt"])
        assert rec["status"] == "ok", rec
        assert rec["result"] == os.path.join(tmp, "out", names[place] + ".json"), rec["result"]
        assert os.path.isfile(rec["result"])
assert not os.path.exists(pwned), "a place name or option ran as a command"
assert len(seen) == 2 * len(places) and len({d for d, _ in seen}) == len(seen), seen
for d, mode in seen:
    assert mode == 0o700, f"{d}: mode {mode:o}"
    assert d.startswith((board_tmp + "/iowatt-fleet.", workdir_opt + "/iowatt-fleet.")), d
    assert not os.path.exists(d), f"{d} left on the board"
print(f"{len(seen)} private work folders made with mode 700 and removed; no PWNED")
PY
check "a board's iowatt without run --strict (older): run without it, the result judged here" -- \
	env -C "$T_TMP" "$PY" - "$REPO/contrib/labgrid" "$T_TMP" <<'PY'
import importlib, json, os, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
fleet = importlib.import_module("test_iowatt_fleet")
fleet_board = importlib.import_module("fleet_board")
tmp = os.path.join(sys.argv[2], "strict")
os.makedirs(os.path.join(tmp, "out"), exist_ok=True)
board = fleet_board.Board(tmp)

# JOBS: the result's jobs; an old iowatt refuses --strict as an unknown option (exit 2),
# a new one lists it in run --help and exits 4 for an INVALID job.
def fake(name, knows_strict, jobs):
    path = os.path.join(tmp, name)
    helptext = "  --strict  exit 4/5" if knows_strict else "usage"
    ending = ("[ $strict = 1 ] && exit 4\nexit 0\n" if knows_strict else
              "[ $strict = 1 ] && { echo 'unknown option --strict' >&2; exit 2; }\nexit 0\n")
    result = json.dumps({"jobs": jobs})
    with open(path, "w") as f:
        f.write("#!/bin/sh\n"
                f"[ \"$1 $2\" = 'run --help' ] && {{ echo '{helptext}'; exit 0; }}\n"
                "strict=0\n"
                "while [ $# -gt 1 ]; do\n"
                "  [ \"$1\" = --strict ] && strict=1\n"
                f"  [ \"$1\" = --json-out ] && printf '%s' '{result}' >\"$2\"\n"
                "  shift\ndone\n" + ending)
    os.chmod(path, 0o755)
    return path

bad = [{"validity": {"valid": True, "uncertain": False}}, {"validity": {"valid": False}}]
unsure = [{"validity": {"valid": True, "uncertain": True}}]
for name, knows, jobs, want in (("old-invalid", False, bad, "INVALID"),
                                ("old-uncertain", False, unsure, "UNCERTAIN"),
                                ("new-invalid", True, bad, "INVALID")):
    env = fleet_board.Env("b", iowatt_install=fake(name, knows, jobs), iowatt_target="/nonexistent")
    rec = fleet.measure_board(env, "b", board, os.path.join(tmp, "out"), name)
    print(name, rec["status"], rec["exit_code"], rec["verdict"], rec["reason"])
    assert rec["status"] == "ok" and rec["verdict"] == want, rec
    assert rec["exit_code"] == (4 if knows else 0), rec
PY
done_testing
