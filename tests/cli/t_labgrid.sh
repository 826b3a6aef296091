#!/usr/bin/env bash
# A labgrid board farm on this machine: coordinator, exporter and ser2net in front of the
# emulated meters, localhost over SSH as the boards, contrib/labgrid's pytest module
# measuring them in parallel, one report and one comparison over all of them.
#
# Three places: board1 and board2 (each an ext4 loop device and its own emulated UM25C),
# board3 whose SSH port answers nothing (a board that is down). board2's meter is a tty
# the exporter serves with its own ser2net (one connection, no kickolduser, in 0.4.1: a
# second connection is turned away, checked), board1's a NetworkSerialPort of a ser2net
# the lab runs itself with kickolduser (docs/fleet.md): the run gets through although a
# stale session of a board that rebooted holds the port. Checked: board1/board2 pass and board3 fails with its reason while the others go
# on; both good runs overlap in time; the merged comparison holds every job of both
# boards, valid, with the meter's figures equal to a direct run's (the same profile, the
# meter read here over its pty) within the intervals the results give. The coordinator
# is Debian 12's labgrid 0.4.1 on contrib/labgrid/wamp-router.py (Debian has no crossbar;
# docs/fleet.md says why).
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
PY=/usr/bin/python3 # Debian's python, whose dist-packages hold labgrid (not a pyenv one)
if ! "$REPO/tests/deps.sh" --fleet >"$T_TMP/deps.out" 2>&1; then
	echo "1..0 # skip cannot install the labgrid test packages: $(tail -n 1 "$T_TMP/deps.out")"
	exit 0
fi
if grep -q "skipped:.* python3-labgrid" "$T_TMP/deps.out"; then
	# Debian 13 packages no labgrid 0.4.1 (docs/fleet.md: its labgrid is 25+, gRPC).
	echo "1..0 # skip this system's archive has no python3-labgrid (Debian 13 has none; docs/fleet.md)"
	exit 0
fi
for need in /usr/sbin/sshd /usr/sbin/ser2net /usr/bin/ssh-keygen; do
	[ -x "$need" ] || { echo "1..0 # skip $need missing after tests/deps.sh --fleet"; exit 0; }
done
"$PY" -c 'import labgrid, autobahn, pytest' 2>"$T_TMP/import.err" ||
	{ echo "1..0 # skip labgrid not importable: $(tail -n 1 "$T_TMP/import.err")"; exit 0; }

PIDS=()
lab_cleanup() {
	local p
	[ -n "${LG_CROSSBAR:-}" ] && for b in board1 board2 board3; do
		timeout 20 "$PY" -m labgrid.remote.client -p "$b" release >/dev/null 2>&1
	done
	for ((p = ${#PIDS[@]} - 1; p >= 0; p--)); do kill "${PIDS[p]}" 2>/dev/null; done
	for p in "${PIDS[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done
	t_cleanup
}
trap lab_cleanup EXIT
bg() { # LOG COMMAND...: in the background, its pid kept for the cleanup
	local log=$1
	shift
	"$@" >"$log" 2>&1 &
	PIDS+=($!)
}
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_log() { # FILE ERE: until FILE has a line matching ERE (bounded so a broken start ends)
	local i
	for i in $(seq 300); do grep -qE -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}

# The boards' targets and the meters: one emulated UM25C per board, one for the direct run.
mnt1=$(t_loop_ext4 256 b1) && mnt2=$(t_loop_ext4 256 b2) && mnt0=$(t_loop_ext4 256 b0) ||
	{ ok 1 "three loop ext4 file systems"; done_testing; exit 1; }
for n in 0 1 2 3; do
	bg "$T_TMP/emu$n.log" "$IOWATT" emulate um25c --link "$T_TMP/um$n" --constant-ma 250
done
for n in 0 1 2 3; do wait_log "$T_TMP/emu$n.log" EMULATED || break; done
ok $? "four emulated UM25C up"

# 1. A direct run: the profile with the meter on its pty, no network, no labgrid.
profile=$REPO/tests/data/profiles/fleet.ini
timeout 120 "$IOWATT" run "$profile" --target "$mnt0" --meter "um25c:$T_TMP/um0,interval=100ms" \
	--no-progress --json-out "$T_TMP/direct.json" >"$T_TMP/direct.out" 2>&1
ok $? "direct run of $profile exits 0"

# 2. sshd on a free port with throwaway keys: localhost is the boards.
ssh_port=$(free_port)
ssh-keygen -q -t ed25519 -N '' -f "$T_TMP/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$T_TMP/id" &&
	cp "$T_TMP/id.pub" "$T_TMP/authorized_keys" && chmod 600 "$T_TMP/authorized_keys"
ok $? "throwaway host and client keys"
mkdir -p /run/sshd
cat >"$T_TMP/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $ssh_port
HostKey $T_TMP/host_key
AuthorizedKeysFile $T_TMP/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
bg "$T_TMP/sshd.log" /usr/sbin/sshd -D -e -f "$T_TMP/sshd_config"
ssh_ok=1
for _ in $(seq 100); do
	ssh -F none -i "$T_TMP/id" -p "$ssh_port" -o BatchMode=yes -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR root@127.0.0.1 true 2>/dev/null && { ssh_ok=0; break; }
	sleep 0.2
done
ok $ssh_ok "sshd on 127.0.0.1:$ssh_port takes the throwaway key"

# 3. Router, coordinator, exporter: the lab's side. The router admits only the holder of
# this run's secret (a 0600 file in T_TMP, which is 0700), carried in the URL's path and
# given to labgrid in the environment, where other users cannot read it (t_wamp_router.sh
# checks the router's side against a hostile peer).
export PYTHONUNBUFFERED=1
wamp_port=$(free_port)
bg "$T_TMP/router.log" "$PY" "$REPO/contrib/labgrid/wamp-router.py" --port "$wamp_port" \
	--secret-file "$T_TMP/wamp.secret"
wait_log "$T_TMP/router.log" "^wamp-router: ws://"
ok $? "WAMP router up on ws://127.0.0.1:$wamp_port/ws/SECRET"
LG_CROSSBAR=ws://127.0.0.1:$wamp_port/ws/$(cat "$T_TMP/wamp.secret")
export LG_CROSSBAR
mkdir -p "$T_TMP/coord"
(cd "$T_TMP/coord" && WS=$LG_CROSSBAR exec "$PY" -m labgrid.remote.coordinator) >"$T_TMP/coord.log" 2>&1 &
PIDS+=($!)
wait_log "$T_TMP/coord.log" "Coordinator ready"
ok $? "labgrid coordinator ready"
dead_port=$(free_port) # nothing listens there: board3 is down
# board1's meter: the lab's own ser2net, as docs/fleet.md shows it, exported as it is.
s2n_port=$(free_port)
cat >"$T_TMP/ser2net.yaml" <<EOF
connection: &board1
  accepter: telnet(rfc2217,mode=server),tcp,127.0.0.1,$s2n_port
  connector: serialdev(nouucplock=true),$(readlink -f "$T_TMP/um1"),9600n81,local
  options:
    kickolduser: true
    mdns: false
EOF
bg "$T_TMP/ser2net.log" /usr/sbin/ser2net -n -u -c "$T_TMP/ser2net.yaml"
cat >"$T_TMP/exporter.yaml" <<EOF
board1:
  NetworkService: {address: 127.0.0.1, port: $ssh_port, username: root}
  NetworkSerialPort: {host: 127.0.0.1, port: $s2n_port, speed: 9600}
board2:
  NetworkService: {address: 127.0.0.1, port: $ssh_port, username: root}
  RawSerialPort: {port: $(readlink -f "$T_TMP/um2"), speed: 9600}
board3:
  NetworkService: {address: 127.0.0.1, port: $dead_port, username: root}
  RawSerialPort: {port: $(readlink -f "$T_TMP/um3"), speed: 9600}
EOF
bg "$T_TMP/exporter.log" "$PY" -m labgrid.remote.exporter -n lab1 \
	--hostname 127.0.0.1 "$T_TMP/exporter.yaml"
client() { timeout 60 "$PY" -m labgrid.remote.client "$@"; }
LG_CROSSBAR=ws://127.0.0.1:$wamp_port/ws timeout 30 "$PY" -m labgrid.remote.client places \
	>"$T_TMP/nosecret.out" 2>&1
[ $? -ne 0 ] && grep -q "refused a session: wrong ticket" "$T_TMP/router.log"
ok $? "labgrid's client without the secret is refused ($(grep -c 'refused a session' "$T_TMP/router.log") refusals in the router's log)"
exported=1
for _ in $(seq 100); do
	[ "$(client resources 2>/dev/null | grep -c '^lab1/board[123]/')" -ge 6 ] && { exported=0; break; }
	sleep 0.2
done
ok $exported "labgrid-exporter exports three boards' NetworkService and serial port"
places=0
for b in board1 board2 board3; do
	{ client -p $b create && client -p $b add-match "lab1/$b/*" && client -p $b acquire; } \
		>>"$T_TMP/client.log" 2>&1 || places=1
done
ok $places "three places created and acquired"
client -p board2 show >"$T_TMP/board2.show" 2>&1
board2_port=$(awk '/^Acquired resource/ { in_nsp = index($0, "/NetworkSerialPort/") > 0 }
	in_nsp && match($0, /'"'port'"': [0-9]+/) { print substr($0, RSTART + 8, RLENGTH - 8); exit }' "$T_TMP/board2.show")
[ -n "$board2_port" ]
ok $? "board2's meter port is served by the exporter's ser2net once the place is acquired (${board2_port:-none})"
client -p board1 show >"$T_TMP/board1.show" 2>&1
grep -q "'port': $s2n_port" "$T_TMP/board1.show"
ok $? "board1's meter is the lab's ser2net, exported as a NetworkSerialPort (port $s2n_port)"

# second_connection PORT: while one connection holds PORT, does a second get in?
second_connection() {
	"$PY" - "$1" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
held = socket.create_connection(("127.0.0.1", port), timeout=10)
time.sleep(1)  # ser2net has taken the first connection
second = socket.create_connection(("127.0.0.1", port), timeout=10)
got = b""
try:
    while len(got) < 4096:
        d = second.recv(4096)
        if not d:
            break
        got += d
except socket.timeout:
    pass
print("refused" if b"Port already in use" in got else "admitted")
PY
}
out=$(second_connection "$board2_port")
[ "$out" = refused ]
ok $? "the exporter's ser2net (labgrid 0.4.1) turns a second connection away while one holds the port: $out"
# A stale session (a board that rebooted mid-run) holds board1's port through the run.
"$PY" - "$s2n_port" >"$T_TMP/stale.out" 2>&1 <<'PY' &
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(900)
try:
    while s.recv(1 << 20):
        pass
    print("closed by ser2net")
except OSError as e:
    print("not closed:", e)
PY
stale_pid=$!
PIDS+=($stale_pid)

# 4. The fleet run: contrib/labgrid's environment (board1, board2) plus board3.
cp "$REPO/contrib/labgrid/fleet.yaml" "$T_TMP/fleet.yaml"
cat >>"$T_TMP/fleet.yaml" <<'EOF'
  board3:
    resources:
      RemotePlace:
        name: board3
    drivers:
      SSHDriver:
        keyfile: !template "$LG_SSH_KEY"
    options:
      iowatt_target: /nonexistent
      iowatt_meter: um25c
EOF
# The meter through the exporter's port when iowatt has the network transport (issue 23
# part 1); without it, the same emulators by their ptys, the boards being this machine.
if "$IOWATT" meters --help 2>&1 | grep -q rfc2217; then
	LG_BOARD1_METER=um25c LG_BOARD2_METER=um25c
	via="rfc2217 through labgrid-exporter's ser2net"
else
	LG_BOARD1_METER=um25c:$T_TMP/um1 LG_BOARD2_METER=um25c:$T_TMP/um2
	via="its pty (this iowatt has no rfc2217 transport)"
fi
export LG_BOARD1_METER LG_BOARD2_METER LG_SSH_KEY=$T_TMP/id LG_IOWATT=$IOWATT
export LG_IOWATT_PROFILE=$profile LG_IOWATT_OUT=$T_TMP/fleet
export LG_BOARD1_TARGET=$mnt1 LG_BOARD2_TARGET=$mnt2
export LG_BOARD1_IOWATT=$IOWATT LG_BOARD2_INSTALL=$IOWATT # board1 finds it, board2 gets a copy
export ASAN_OPTIONS=${ASAN_OPTIONS:-} LSAN_OPTIONS=${LSAN_OPTIONS:-}
t0=$(date +%s)
(cd "$T_TMP" && timeout 600 "$PY" -m pytest -p no:cacheprovider -v --lg-env "$T_TMP/fleet.yaml" \
	"$REPO/contrib/labgrid/test_iowatt_fleet.py") >"$T_TMP/pytest.out" 2>&1 &
pyt=$!
# The fleet run takes a minute or more (a dead board costs labgrid's 30 s SSH timeout):
# say it is alive, so tests/run.sh does not take the silence for a hang.
while kill -0 "$pyt" 2>/dev/null; do
	sleep 10
	kill -0 "$pyt" 2>/dev/null && echo "# fleet run going, $(($(date +%s) - t0)) s"
done
wait "$pyt"
rc=$?
echo "# fleet run: pytest exit $rc in $(($(date +%s) - t0)) s, meter via $via"
grep -E "(PASSED|FAILED|ERROR)" "$T_TMP/pytest.out" | sed 's/^/#   /'
[ $rc -eq 1 ]
ok $? "pytest exits 1: one place failed, none errored"
# The kick came when board1's run connected, minutes ago: a session still open is a failure.
kill -0 "$stale_pid" 2>/dev/null && echo "not closed: still connected after the run" >"$T_TMP/stale.out"
grep -q "closed by ser2net" "$T_TMP/stale.out"
ok $? "board1's run kicked the stale session off its meter port (kickolduser): $(cat "$T_TMP/stale.out")"
for b in board1 board2; do
	grep -q "test_board\[$b\] PASSED" "$T_TMP/pytest.out"
	ok $? "$b measured"
done
work2=$(sed -nE '1s|^\$ timeout .* (/tmp/iowatt-fleet\.[A-Za-z0-9]{8})/iowatt run .*|\1|p' "$T_TMP/fleet/board2.log")
[ -n "$work2" ] && [ ! -e "$work2" ]
ok $? "board2's copy ran from a private mktemp folder (${work2:-none}), removed after the run"
grep -q "test_board\[board3\] FAILED" "$T_TMP/pytest.out"
ok $? "board3 (SSH refused) marked failed"
# run --strict: a board whose run went through has its jobs' verdict as a case of its own
for b in board1 board2; do
	v=$("$PY" -c 'import json, sys; print({p["place"]: p for p in json.load(open(sys.argv[1]))["places"]}[sys.argv[2]].get("verdict"))' "$T_TMP/fleet/fleet.json" "$b")
	want=FAILED
	[ "$v" = valid ] && want=PASSED
	grep -q "test_board_valid\[$b\] $want" "$T_TMP/pytest.out"
	ok $? "$b: test_board_valid $want for a run whose jobs are $v (--strict), test_board passed"
done
grep -q "test_board_valid\[board3\] SKIPPED" "$T_TMP/pytest.out"
ok $? "board3: nothing to judge, its validity case skipped"
grep -q "test_fleet_report PASSED" "$T_TMP/pytest.out"
ok $? "the report and comparison are built over the boards that came back"
[ $rc -le 1 ] || sed 's/^/#   /' "$T_TMP/pytest.out" | tail -n 40

check "fleet.json: board3 failed with its reason, the others ok, overlapping in time" -- \
	"$PY" - "$T_TMP/fleet/fleet.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
r = {p["place"]: p for p in f["places"]}
print(json.dumps(f, indent=1))
assert r["board1"]["status"] == "ok" and r["board2"]["status"] == "ok"
assert r["board1"]["install"] == "given" and r["board2"]["install"] == "copied"
assert r["board3"]["status"] == "failed" and r["board3"]["reason"]
assert r["board1"]["verdict"] in ("valid", "INVALID", "UNCERTAIN"), r["board1"]
assert r["board2"]["verdict"] in ("valid", "INVALID", "UNCERTAIN"), r["board2"]
a, b = r["board1"], r["board2"]
assert a["t_start"] < b["t_end"] and b["t_start"] < a["t_end"], "board runs did not overlap"
PY

# 5. The merged comparison against the direct run, through compare's own CSV.
"$IOWATT" compare "$T_TMP/direct.json" --format csv -o "$T_TMP/direct.csv" 2>/dev/null
check "merged comparison: both boards' jobs, valid, meter figures = direct run's within the intervals" -- \
	"$PY" - "$T_TMP/fleet/compare.csv" "$T_TMP/direct.csv" "$profile" <<'PY'
import configparser, csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
direct = {r["job"]: r for r in csv.DictReader(open(sys.argv[2]))}
prof = configparser.ConfigParser()
prof.read(sys.argv[3])
jobs = [s for s in prof.sections() if s != "global"]
for board in ("board1", "board2"):
    for job in jobs:
        got = [r for r in rows if r["device"] == board and r["job"] == job]
        assert len(got) == 1, f"{board}/{job}: {len(got)} rows"
        r, d = got[0], direct[job]
        assert r["valid"] == "true", f"{board}/{job} invalid: {r['reasons']}"
        for key in ("active_ma", "active_w", "idle_w"):
            a, b = float(r[key]), float(d[key])
            room = float(r[key + "_u95"]) + float(d[key + "_u95"])
            print(f"{board} {job} {key}: {a:.4g} vs direct {b:.4g} (+-{room:.3g})")
            assert abs(a - b) <= room, f"{board}/{job} {key} {a} vs direct {b} beyond {room}"
PY
grep -q "board1" "$T_TMP/fleet/report/report.html" && grep -q "board2" "$T_TMP/fleet/report/report.html"
ok $? "report.html names both boards"
sed 's/^/#   /' "$T_TMP/fleet/compare.txt"
# Every meter here is an emulator behind the exporter's ser2net, which listens on all
# addresses (a dual-stack socket): each result must still say its figures are emulated.
for f in "$T_TMP/direct.json" "$T_TMP"/fleet/board[12].json; do
	[ "$(jget "$f" "d.get('emulated')")" = True ]
	ok $? "$(basename "$f") is labelled emulated"
done
grep -q "emulated" "$T_TMP/fleet/compare.txt"
ok $? "the merged comparison marks the boards' meters emulated"
done_testing
