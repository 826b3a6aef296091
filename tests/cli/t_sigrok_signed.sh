#!/usr/bin/env bash
# libsigrok's demo driver through the bridge reads as sigrok-cli prints it: its DC channels are signed, negative volts included.
. "$(dirname "$0")/../lib/lib.sh"

if ! "$IOWATT" meters --help 2>&1 | grep -q "^  sigrok: "; then
	skip "built without libsigrok: no demo driver"
	done_testing
	exit
fi
if ! command -v sigrok-cli >/dev/null; then
	skip "sigrok-cli is not installed (tests/deps.sh installs it): nothing to compare with"
	done_testing
	exit
fi
# libsigrok's own leak under Debian 13's glib is let through as in t_meters_scan.sh.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
T=$T_TMP

# values_cli CH: the values sigrok-cli prints for the demo's channel CH, in volts, 4 decimals.
values_cli() {
	timeout 30 sigrok-cli -d demo --samples 4000 -O analog -C "$1" 2>/dev/null |
		python3 -c '
import sys
scale = {"V": 1.0, "mV": 1e-3, "uV": 1e-6, "kV": 1e3}
for line in sys.stdin:
    f = line.split()
    if len(f) >= 3 and f[0].endswith(":") and f[2] in scale:
        print("%.4f" % (float(f[1]) * scale[f[2]] + 0.0))'
}

# iowatt_run CH TAIL: a 1 s measure reading only channel CH; samples in $T/CH.samples.csv.
iowatt_run() {
	timeout 60 "$IOWATT" measure --meter "sigrok:demo,channel=$1$2" --samples raw --idle 0.5s \
		--idle-samples 2 --tail-hold 0.2s --tail-max 0.5s --no-progress \
		--json-out "$T/$1$2.json" -- sleep 1 >"$T/$1$2.out" 2>&1
}

# 1. Channels A0-A3 (square, sine, triangle, sawtooth: a fixed pattern each): the values
# iowatt reads are the values sigrok-cli prints, the negative ones too, none dropped.
for ch in A0 A1 A2 A3; do
	values_cli "$ch" | sort -u >"$T/$ch.cli"
	iowatt_run "$ch" ""
	ok $? "measure with sigrok:demo,channel=$ch exits 0"
	python3 - "$T/$ch.json" "$T/$ch.samples.csv" "$T/$ch.cli" "$ch" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
m = d["meters"][0]
got = sorted({"%.4f" % (float(r["v"]) + 0.0) for r in csv.DictReader(open(sys.argv[2])) if r["v"]})
want = sorted(set(open(sys.argv[3]).read().split()), key=float)
got.sort(key=float)
print("# %s: sigrok-cli %d values %s .. %s; iowatt %d values %s .. %s; out_of_range %d, signed %s"
      % (sys.argv[4], len(want), want[0] if want else "-", want[-1] if want else "-", len(got),
         got[0] if got else "-", got[-1] if got else "-", m["out_of_range"], m["signed"]))
ok = (want and got == want and float(want[0]) < 0 and m["out_of_range"] == 0 and
      m["signed"] == "V A W")
sys.exit(0 if ok else 1)
PY
	ok $? "$ch: iowatt's values are sigrok-cli's, negative volts kept, none dropped, the result says V A W are signed"
done

# 2. A4 (random noise): both see negative volts within the same bounds.
values_cli A4 | sort -g | sed -n '1p;$p' | tr '\n' ' ' >"$T/A4.cli"
iowatt_run A4 ""
python3 - "$T/A4.json" "$T/A4.samples.csv" "$T/A4.cli" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
lo, hi = (float(x) for x in open(sys.argv[3]).read().split())
v = [float(r["v"]) for r in csv.DictReader(open(sys.argv[2])) if r["v"]]
print("# A4: sigrok-cli %.4f .. %.4f V; iowatt %.4f .. %.4f V over %d samples" % (lo, hi, min(v), max(v), len(v)))
sys.exit(0 if lo < 0 and min(v) < 0 and min(v) >= -10.0001 and max(v) <= 10.0001 and
         d["meters"][0]["out_of_range"] == 0 else 1)
PY
ok $? "A4 (noise): negative readings come through within the demo's +-10 V"

# 3. sign=unsigned (a device that reads loads only): the negative half is impossible and dropped.
iowatt_run A1 ",sign=unsigned"
python3 - "$T/A1,sign=unsigned.json" "$T/A1,sign=unsigned.samples.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
v = [float(r["v"]) for r in csv.DictReader(open(sys.argv[2])) if r["v"]]
m = d["meters"][0]
print("# A1, sign=unsigned: min %.4f V, out_of_range %d, signed %s" % (min(v), m["out_of_range"], m["signed"]))
sys.exit(0 if min(v) >= 0 and m["out_of_range"] > 0 and m["signed"] is None else 1)
PY
ok $? "sign=unsigned: negative volts are dropped as impossible and counted"

done_testing
