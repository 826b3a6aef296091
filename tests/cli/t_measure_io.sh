#!/usr/bin/env bash
# measure with I/O figures: the target's /proc/diskstats for any command, fio's own JSON
# (its figures and per-job runtime, its file layout out of the active phase) for fio.
. "$(dirname "$0")/../lib/lib.sh"

if ! t_is_root; then
	skip "needs root for loop devices"
	done_testing
	exit
fi
command -v fio >/dev/null || { skip "fio not installed"; done_testing; exit; }
mnt=$(t_loop_ext4 128 mio) || { ok 1 "loop ext4"; done_testing; exit 1; }
dev=$(findmnt -no SOURCE "$mnt")
cg=$(t_throttle "$dev" 23000000 14000000 2200 600) || { ok 1 "throttle"; done_testing; exit 1; }
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --device "$(basename "$dev")" >/dev/null 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
meas="--meter um25c:$T_TMP/um,interval=100ms --idle 1s --idle-samples 5 --tail-hold 500ms
	--tail-max 3s --no-progress --kmsg none"

# Any command: the device's counters over the active phase.
t_in_cgroup "$cg" "$IOWATT" measure $meas --target "$mnt" --json-out "$T_TMP/dd.json" -- \
	dd if=/dev/zero of="$mnt/dd.bin" bs=1M count=16 oflag=direct >"$T_TMP/dd.out" 2>&1
ok $? "measure dd with --target"
python3 - "$T_TMP/dd.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
w = j["write"]["io_bytes"]
assert j["io_source"] == "diskstats", j.get("io_source")
assert 16 << 20 <= w <= (16 << 20) + (2 << 20), w
assert j["efficiency"]["j_per_gb"] > 0 and j["efficiency"]["iops_per_ma"] > 0, j["efficiency"]
print("# diskstats: %d bytes written, %.1f J/GB" % (w, j["efficiency"]["j_per_gb"]))
PY
ok $? "its 16 MiB of writes counted from diskstats, with J/GB and IOPS/mA"
grep -q "dd: I/O figures from the target's /proc/diskstats" "$T_TMP/dd.out"
ok $? "the summary says where the I/O figures came from"

# fio with JSON: its figures, and its layout (32 MiB at 14 MB/s) out of the active phase.
fio_args="--name=r --rw=read --bs=1M --size=32M --direct=1 --directory=$mnt"
t_in_cgroup "$cg" "$IOWATT" measure $meas --json-out "$T_TMP/fio.json" -- \
	fio $fio_args --output-format=json >"$T_TMP/fio.out" 2>"$T_TMP/fio.err"
ok $? "measure fio --output-format=json"
python3 - "$T_TMP/fio.json" "$T_TMP/fio.out" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
out = open(sys.argv[2]).read()
fio = json.loads(out[out.index("{"):out.rindex("}") + 1])["jobs"][0]
ph = j["phases"]
active = (ph["active"]["t_end_ns"] - ph["active"]["t_start_ns"]) / 1e6
layout = (ph["active"]["t_start_ns"] - ph["idle"]["t_end_ns"]) / 1e9
assert j["io_source"] == "fio"
assert j["read"]["io_bytes"] == fio["read"]["io_bytes"] == 32 << 20
# Not a timing window: both ends come from fio's own stamps, which are whole ms.
assert abs(active - fio["job_runtime"]) <= 2, (active, fio["job_runtime"], fio.get("job_start"))
assert layout > 1.0, layout
assert j["read"]["clat_ns"]["percentile"]["50.000000"] == fio["read"]["clat_ns"]["percentile"]["50.000000"]
print("# fio: active %.0f ms = job_runtime %d ms; %.1f s of layout before it in no phase"
      % (active, fio["job_runtime"], layout))
PY
ok $? "fio's bytes and latencies; the active phase is its job_runtime, the layout left out"
grep -q '"fio version"' "$T_TMP/fio.out"
ok $? "fio's JSON still reaches stdout"
grep -q "^r: I/O figures from fio's JSON" "$T_TMP/fio.out"
ok $? "and the summary says the figures are fio's, on a row named by fio's job (r)"

t_in_cgroup "$cg" "$IOWATT" measure $meas --target "$mnt" --json-out "$T_TMP/fio2.json" -- \
	fio $fio_args --output-format=json --output="$T_TMP/fio-own.json" >/dev/null 2>&1
[ "$(jget "$T_TMP/fio2.json" 'd["jobs"][0]["io_source"] + str(d["jobs"][0]["read"]["io_bytes"])')" = "fio33554432" ]
ok $? "fio --output=FILE: its figures are read from that file (and win over diskstats)"

"$IOWATT" measure $meas --json-out "$T_TMP/none.json" -- true >"$T_TMP/none.out" 2>&1
grep -q "true: no I/O figures (give --target" "$T_TMP/none.out" &&
	[ "$(jget "$T_TMP/none.json" '"io_source" in d["jobs"][0]')" = False ]
ok $? "without --target or fio: no I/O figures, and the summary says how to get them"

# measure --help lists only what measure uses.
"$IOWATT" measure --help >"$T_TMP/help.txt"
! grep -qE -- "--(keep|allow-raw-device|profile|jobs|dry-run|same-size|same-size-as)\b|Sizes:|--bs|--rw " "$T_TMP/help.txt" &&
	grep -q -- "--force .*replace an existing --json-out" "$T_TMP/help.txt"
ok $? "measure --help has no run-only option, no job option, no sizes"
"$IOWATT" measure --keep -- true 2>"$T_TMP/keep.err"
[ $? -eq 2 ] && grep -q "option --keep is for iowatt run" "$T_TMP/keep.err"
ok $? "and refuses a run-only option, naming it"

done_testing
