#!/usr/bin/env bash
# iowatt export and import (issue 33.4): a result's samples as a sigrok session (srzip) that
# sigrok-cli reads back, and as a CSV with each sample's job and phase, checked against the
# result's own samples and phase spans; outputs follow the rules of every output (no
# overwrite without --force, nothing left behind, bad input said with its file and line).
# Then recordings made beside a run (a PPK2 file written here with a known offset and
# currents, the run's own export as a sigrok session) placed back on the run's clock.
. "$(dirname "$0")/../lib/lib.sh"
# The srzip export hands libsigrok a device instance its 0.5.2 API has no public free for
# (the session does not own a user device): under Debian 13's glib, which mallocs where
# Debian 12's kept GSlice magazines, LeakSanitizer sees it. Full unwinding lets
# tests/lsan.supp's libsigrok.so entry name it, as in t_sigrok_signed.sh.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

"$IOWATT" emulate um25c --link "$T_TMP/um" --step "0:100,3:400" >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
mkdir -p "$T_TMP/t" "$T_TMP/x"
"$IOWATT" run --target "$T_TMP/t" --meter "um25c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --size 4m --rate-iops 20 --direct 0 --ioengine psync --idle 1s \
	--idle-samples 5 --tail-max 5s --tail-hold 500ms --no-progress --json-out "$T_TMP/r.json" >"$T_TMP/r.out" 2>&1
ok $? "a run metered by an emulated UM25C (100 mA, then 400 mA from 3 s)" || tail -n 5 "$T_TMP/r.out" | sed "s/^/#   /"
kill "$emu_pid" 2>/dev/null
wait "$emu_pid" 2>/dev/null
emu_pid=""

# CSV: every stored sample, in the file's order, with the phase the result's spans give it.
"$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/r.csv" 2>"$T_TMP/csv.err"
ok $? "export to r.csv ($(cat "$T_TMP/csv.err"))"
python3 - "$T_TMP/r.json" "$T_TMP/r.samples.csv" "$T_TMP/x/r.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
spans = []
for j in r["jobs"]:
    for ph in ("idle", "active", "tail"):
        s = (j.get("phases") or {}).get(ph)
        if s and s["t_end_ns"] > s["t_start_ns"]:
            spans.append((s["t_start_ns"], s["t_end_ns"], j["jobname"], ph))
src = list(csv.DictReader(open(sys.argv[2])))
out = list(csv.DictReader(open(sys.argv[3])))
assert len(src) == len(out) and len(out) > 30, (len(src), len(out))
seen = set()
for a, b in zip(src, out):
    t = int(a["t_ns"])
    assert int(b["t_ns"]) == t
    assert abs(float(b["ma"]) - 1e3 * float(a["a"])) < 1e-3, (a, b)
    want = [(job, ph) for t0, t1, job, ph in spans if t0 <= t < t1]
    got = (b["job"], b["phase"])
    assert (want[0] if want else ("", "")) == got, (t, want, got)
    assert "emulated" in b["flags"], b
    seen.add(b["phase"])
assert {"idle", "active", "tail"} <= seen, seen
print("rows", len(out), "phases", sorted(seen))
PY
ok $? "CSV: each sample's mA and flags as stored, its job and phase as the result's spans say"

# srzip: sigrok-cli reads it back; the grid, the channels, and the active phase's current.
if ! command -v sigrok-cli >/dev/null; then
	skip "sigrok-cli is not installed (tests/deps.sh)"
	skip "sigrok-cli is not installed (tests/deps.sh)"
else
	"$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/r.sr" 2>"$T_TMP/sr.err" &&
		sigrok-cli -i "$T_TMP/x/r.sr" --show >"$T_TMP/show.txt" 2>&1 &&
		grep -q "^Samplerate: 100" "$T_TMP/show.txt" &&
		for c in idle active tail io; do grep -q -- "- $c: logic" "$T_TMP/show.txt" || exit 1; done &&
		for c in emu0_V emu0_mA emu0_W io_MBps; do grep -q -- "- $c: analog" "$T_TMP/show.txt" || exit 1; done
	ok $? "srzip: sigrok-cli --show reads it: 100 Hz, the phases and io as logic, the emulator's V mA W (named emu0) and io MB/s as analog ($(tr '\n' ' ' <"$T_TMP/show.txt"))"
	sigrok-cli -i "$T_TMP/x/r.sr" -O csv >"$T_TMP/sr.csv" 2>/dev/null
	python3 - "$T_TMP/r.json" "$T_TMP/r.samples.csv" "$T_TMP/sr.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
act = r["jobs"][0]["phases"]["active"]
t0, t1 = act["t_start_ns"], act["t_end_ns"]
src = [(int(x["t_ns"]), 1e3 * float(x["a"])) for x in csv.DictReader(open(sys.argv[2]))]
# The current the meter showed over the active phase, each reading held until the next.
held, w = 0.0, 0.0
for (ta, ma), (tb, _) in zip(src, src[1:]):
    a, b = max(ta, t0), min(tb, t1)
    if b > a:
        held += ma * (b - a); w += b - a
truth = held / w
rows = [l for l in open(sys.argv[3]) if l[0].isdigit()]
head = [l for l in open(sys.argv[3]) if l.startswith("; Channels")][0]
names = head.split(":", 1)[1].split(",")
names = [n.strip() for n in names]
ia, im = names.index("active"), names.index("emu0_mA")
cells = [float(l.split(",")[im]) for l in rows if l.split(",")[ia] == "1"]
got = sum(cells) / len(cells)
span_cells = (t1 - t0) / 1e7
print(f"active: {len(cells)} cells (span {span_cells:.1f}), mean {got:.2f} mA, held readings {truth:.2f} mA")
assert abs(len(cells) - span_cells) <= 2, (len(cells), span_cells)
assert abs(got - truth) / truth < 0.02, (got, truth)
assert len(rows) == (src[-1][0] - src[0][0]) // 10**7 + 1, (len(rows), src[0][0], src[-1][0])
PY
	ok $? "srzip: the active logic channel spans the active phase, its mean mA the held readings' (within 2 %)"
fi

# Outputs: never over a file without --force; nothing left beside it; bounds said.
echo keep >"$T_TMP/x/old.csv"
! "$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/old.csv" 2>"$T_TMP/old.err" &&
	[ "$(cat "$T_TMP/x/old.csv")" = keep ] && grep -q "already exists" "$T_TMP/old.err"
ok $? "an existing file is not replaced without --force ($(cat "$T_TMP/old.err"))"
"$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/old.csv" --force 2>/dev/null &&
	head -1 "$T_TMP/x/old.csv" | grep -q "^t_ns,t_s,meter,job,phase"
ok $? "--force replaces it"
! "$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/big.sr" --rate 1000000 2>"$T_TMP/big.err" &&
	[ ! -e "$T_TMP/x/big.sr" ] && grep -q -- "--rate" "$T_TMP/big.err"
ok $? "a grid past the bound is refused naming --rate, no file ($(cat "$T_TMP/big.err"))"
for r in 0.5 1.5; do
	! "$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/frac.sr" --rate "$r" 2>"$T_TMP/frac.err" &&
		[ ! -e "$T_TMP/x/frac.sr" ] && grep -q -- "--rate" "$T_TMP/frac.err"
	ok $? "--rate $r is refused, no file: a session's samplerate is whole Hz (0.5 wrote 0, 1.5 wrote 1) ($(head -c 160 "$T_TMP/frac.err"))"
done
! "$IOWATT" export "$T_TMP/r.json" -o "$T_TMP/x/r.txt" 2>"$T_TMP/fmt.err" && grep -q -- "--format" "$T_TMP/fmt.err"
ok $? "a name that says no format asks for --format"
[ -z "$(ls -A "$T_TMP/x" | grep -v '^r\.csv$\|^r\.sr$\|^old\.csv$')" ]
ok $? "nothing else left in the output folder ($(ls -A "$T_TMP/x" | tr '\n' ' '))"

# A samples file with a line that is not a sample: left out, said with FILE:LINE.
cp "$T_TMP/r.json" "$T_TMP/bad.json"
{ head -3 "$T_TMP/r.samples.csv"; echo "12x,0,1,2,3,"; tail -n +4 "$T_TMP/r.samples.csv"; } >"$T_TMP/bad.samples.csv"
cp "$T_TMP/r.intervals.csv" "$T_TMP/bad.intervals.csv"
python3 - "$T_TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("files", {})["samples"] = "bad.samples.csv"
d["files"]["intervals"] = "bad.intervals.csv"
json.dump(d, open(sys.argv[1], "w"))
PY
"$IOWATT" export "$T_TMP/bad.json" -o "$T_TMP/bad.csv" 2>"$T_TMP/bad.err" &&
	grep -q "bad.samples.csv:4: 1 line(s) that are not samples" "$T_TMP/bad.err" &&
	[ $(($(wc -l <"$T_TMP/bad.csv"))) -eq $(($(wc -l <"$T_TMP/x/r.csv"))) ]
ok $? "a malformed samples line is left out with FILE:LINE ($(cat "$T_TMP/bad.err"))"

# import: recordings made beside the run, written here with a known start (1.2345 s before
# the run's t0) and currents (50 mA idle, 300 mA in every active phase, 1 mA noise): a PPK2
# file at 100 kS/s; a sigrok session of a 10 Hz meter (each reading held 100 ms on a 1 kHz
# grid); and a PPK2 file whose current never steps.
python3 - "$T_TMP/r.json" "$T_TMP" <<'PY'
import json, random, struct, sys, zipfile
r = json.load(open(sys.argv[1]))
t0, start = r["t0_ns"], -1.2345
act = [((j["phases"]["active"]["t_start_ns"] - t0) / 1e9, (j["phases"]["active"]["t_end_ns"] - t0) / 1e9)
       for j in r["jobs"]]
end = max(b for a, b in act) + 3.0
random.seed(7)
def series(rate, hold_s, flat):
    out, v, next_t = [], 0.0, -1e9
    for i in range(int((end - start) * rate)):
        t = start + i / rate
        if t >= next_t:  # a new reading
            on = any(a <= t < b for a, b in act) and not flat
            v = 50.0 + (250.0 if on else 0.0) + random.uniform(-1, 1)
            next_t = t + hold_s
        out.append(v)
    return out
def ppk2(path, flat):
    ma = series(100000, 0, flat)
    raw = b"".join(struct.pack("<f", x * 1000) + struct.pack(">H", 0) for x in ma)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("metadata.json", json.dumps({"metadata": {"samplesPerSecond": 100000, "startSystemTime": 0}, "formatVersion": 2}))
        z.writestr("session.raw", raw)
def srzip(path):
    ma = series(1000, 0.1, False)
    meta = ("[global]\nsigrok version=0.5.2\n\n[device 1]\nsamplerate=1 kHz\n"
            "total analog=2\nanalog1=V\nanalog2=dut_mA\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", "2")
        z.writestr("metadata", meta)
        z.writestr("analog-1-1-1", struct.pack(f"<{len(ma)}f", *([5.0] * len(ma))))
        z.writestr("analog-1-2-1", struct.pack(f"<{len(ma)}f", *ma))
ppk2(sys.argv[2] + "/rec.ppk2", False)
ppk2(sys.argv[2] + "/flat.ppk2", True)
srzip(sys.argv[2] + "/rec.sr")
PY
"$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/rec.ppk2" --volts 5 --json-out "$T_TMP/imp.json" >"$T_TMP/imp.out" 2>&1
ok $? "import a PPK2 file recorded beside the run ($(sed -n 2p "$T_TMP/imp.out"))"
# check_import JSON MAX_U95_S MIN_U95_S: the offset within its U95 of the truth, the U95
# within bounds, the phases' currents as recorded.
check_import() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
al = d["alignment"]
err = al["offset_s"] - (-1.2345)
print(f"offset {al['offset_s']:.6f} s (truth -1.234500), error {err*1e3:+.3f} ms, U95 {al['u95_s']*1e3:.3f} ms, source period {al['source_period_s']*1e3:.3f} ms")
assert abs(err) <= al["u95_s"] and float(sys.argv[3]) <= al["u95_s"] <= float(sys.argv[2]), al
assert d["figures_from"] == "recording", d
# A phase's mean may take in the neighbour's 250 mA step for as long as the placement
# may be off (U95) at each of its edges.
for j in d["jobs"]:
    for ph, want in (("active", 300), ("idle", 50)):
        tol = 3 + 250 * 2 * al["u95_s"] / j[ph]["seconds"]
        assert abs(j[ph]["mean_ma"] - want) < tol, (ph, j[ph]["mean_ma"], want, tol)
print("jobs", [(j["jobname"], round(j["active"]["mean_ma"], 2), round(j["idle"]["mean_ma"], 2)) for j in d["jobs"]])
PY
}
check_import "$T_TMP/imp.json" 0.002 0
ok $? "PPK2: placed within its U95 (at most 2 ms) of the truth, the phases' currents 300 and 50 mA"
grep -q "FROM THE RECORDING" "$T_TMP/imp.out"
ok $? "the figures are labelled as the recording's"
"$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/rec.sr" --channel dut_mA --json-out "$T_TMP/imp-sr.json" >"$T_TMP/imp-sr.out" 2>&1 &&
	check_import "$T_TMP/imp-sr.json" 0.5 0.1
ok $? "a sigrok session of a 10 Hz meter: placed within its U95, which is no finer than the meter's 100 ms"
! "$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/rec.sr" >"$T_TMP/two.out" 2>&1 &&
	grep -q "say which with --channel" "$T_TMP/two.out" && grep -q "dut_mA" "$T_TMP/two.out"
ok $? "a session with two analog channels asks for --channel and lists them"
! "$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/flat.ppk2" >"$T_TMP/flat.out" 2>&1 &&
	grep -q "no offset puts the recording's steps" "$T_TMP/flat.out"
ok $? "a recording that never steps is not placed anywhere ($(tail -n 1 "$T_TMP/flat.out"))"

# --offset places the recording without a search: its JSON says the unknown U95 as null
# (jansson refuses NaN, and with it the file was not written and the command failed unsaid).
"$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/rec.ppk2" --offset -1.2345 --volts 5 \
	--json-out "$T_TMP/imp-off.json" >"$T_TMP/imp-off.out" 2>&1 &&
	python3 - "$T_TMP/imp-off.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
al = d["alignment"]
assert al["method"] == "given" and al["u95_s"] is None and abs(al["offset_s"] + 1.2345) < 1e-6, al
assert all(abs(j["active"]["mean_ma"] - 300) < 5 for j in d["jobs"]), d["jobs"]
PY
ok $? "--offset with --json-out: written, the offset as given, U95 null ($(tail -n 1 "$T_TMP/imp-off.out"))"

# Placed so that it starts 0.3 s into the active phase: the phase's mean stands, but no
# job energy or J/GB (the covered part's energy over all the job's bytes read low).
late=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print((r["jobs"][0]["phases"]["active"]["t_start_ns"] - r["t0_ns"]) / 1e9 + 0.3)' "$T_TMP/r.json")
"$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/rec.ppk2" --offset "$late" --volts 5 \
	--json-out "$T_TMP/imp-late.json" >"$T_TMP/imp-late.out" 2>&1 &&
	python3 - "$T_TMP/imp-late.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["active"] is not None and j["active"]["seconds"] > 0, j
assert j["energy_active_j"] is None and j["energy_net_j"] is None and j["j_per_gb"] is None, j
PY
ok $? "a recording that misses the active phase's first 0.3 s gives no job energy or J/GB ($(grep -m1 "energies\|J/GB" "$T_TMP/imp-late.out"))"

# Forged sessions: a member longer than the archive's directory says (it was written past
# the points' array), a samplerate no bin width fits (1e300, 1e400: a division by zero).
python3 - "$T_TMP" <<'PY'
import io, struct, sys, zipfile
meta = "[global]\nsigrok version=0.5.2\n\n[device 1]\nsamplerate=%s\ntotal analog=1\nanalog1=dut_mA\n"
def session(rate):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", "2")
        z.writestr("metadata", meta % rate)
        z.writestr("analog-1-1-1", struct.pack("<100000f", *([5.0] * 100000)))
    return bytearray(b.getvalue())
d = session("1 kHz")
name = b"analog-1-1-1"
# (signature, offset of the uncompressed size, of the name's length, of the name)
for sig, size_at, len_at, name_at in ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46)):
    pos = d.find(sig)
    while pos >= 0:
        n = struct.unpack_from("<H", d, pos + len_at)[0]
        if d[pos + name_at:pos + name_at + n] == name:
            struct.pack_into("<I", d, pos + size_at, 400)  # says 100 points, holds 100000
        pos = d.find(sig, pos + 4)
open(sys.argv[1] + "/forged.sr", "wb").write(d)
for tag, rate in (("huge", "1e300"), ("inf", "1e400")):
    open(sys.argv[1] + "/" + tag + ".sr", "wb").write(session(rate))
PY
! "$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/forged.sr" --offset 0 >"$T_TMP/forged.out" 2>&1 &&
	grep -q "damaged archive" "$T_TMP/forged.out" && ! grep -q "Sanitizer\|runtime error" "$T_TMP/forged.out"
ok $? "a member longer than its stated size is refused as damaged ($(grep -m1 "forged" "$T_TMP/forged.out"))"
for tag in huge inf; do
	! "$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/$tag.sr" --offset 0 >"$T_TMP/$tag.out" 2>&1 &&
		grep -q "no samplerate" "$T_TMP/$tag.out" && ! grep -q "Sanitizer\|runtime error" "$T_TMP/$tag.out"
	ok $? "a samplerate of $tag size is refused, not divided by ($(grep -m1 "$tag.sr\|error" "$T_TMP/$tag.out"))"
done

# A recording that holds the run's steps twice (the same workload run again 40 s later, or
# a recording looped): the search is coarse first, then fine around each candidate, and the
# second place must still be seen. Then a long, noisy recording with the run in it once at
# a place off the coarse grid: found within its U95.
python3 - "$T_TMP/r.json" "$T_TMP" <<'PY'
import array, json, random, sys, zipfile
r = json.load(open(sys.argv[1]))
t0 = r["t0_ns"]
act = [((j["phases"]["active"]["t_start_ns"] - t0) / 1e9, (j["phases"]["active"]["t_end_ns"] - t0) / 1e9)
       for j in r["jobs"]]
def write(path, start, seconds, shifts):
    rate = 1000
    random.seed(11)
    ma = array.array("f", (50.0 + random.uniform(-1, 1) for _ in range(int(seconds * rate))))
    for sh in shifts:
        for a, b in act:
            for i in range(max(0, int((a + sh - start) * rate)), min(len(ma), int((b + sh - start) * rate))):
                ma[i] += 250.0
    meta = ("[global]\nsigrok version=0.5.2\n\n[device 1]\nsamplerate=1 kHz\n"
            "total analog=1\nanalog1=dut_mA\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("version", "2")
        z.writestr("metadata", meta)
        z.writestr("analog-1-1-1", ma.tobytes())
end = max(b for a, b in act)
write(sys.argv[2] + "/twice.sr", -1.2345, end + 50, (0, 40))
write(sys.argv[2] + "/long.sr", -300.0123, end + 600, (0,))
PY
! "$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/twice.sr" >"$T_TMP/twice.out" 2>&1 &&
	grep -q "fits the result as well 100% elsewhere" "$T_TMP/twice.out"
ok $? "a recording holding the run twice is not placed: ambiguous ($(grep -m1 "as well" "$T_TMP/twice.out"))"
"$IOWATT" import "$T_TMP/r.json" --recording "$T_TMP/long.sr" --json-out "$T_TMP/long.json" >"$T_TMP/long.out" 2>&1 &&
	python3 - "$T_TMP/long.json" <<'PY'
import json, sys
al = json.load(open(sys.argv[1]))["alignment"]
err = al["offset_s"] + 300.0123
print(f"offset error {err*1e3:+.3f} ms, U95 {al['u95_s']*1e3:.3f} ms, runner-up {al['runner_up']:.2f}")
assert abs(err) <= al["u95_s"] <= 0.01 and al["runner_up"] < 0.5, al
PY
ok $? "a 10-minute recording with the run once, 300.0123 s in: placed within its U95 ($(tail -n 1 "$T_TMP/long.out"))"

done_testing
