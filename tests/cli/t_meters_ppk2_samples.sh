#!/usr/bin/env bash
# PPK2 at 100 kS/s with --samples raw and binary: every sample, as many as the result counts, in the documented layout.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# --samples raw and binary: every sample, as many as the result counts.
# samples_run MODE: a short measure with the PPK2 at 5 V, 250 mA.
samples_run() {
	local mode=$1 rc
	start_emu ppk2 "$T/s$mode" --constant-ma 250 --volts 5.0 --cable-ohms 0 --duration 60
	timeout 60 "$IOWATT" measure --meter "ppk2:$T/s$mode,vdd=5000" --samples "$mode" --idle 1s \
		--idle-samples 2 --tail-hold 0.2s --tail-max 0.5s --json-out "$T/$mode.json" \
		-- sleep 0.5 >"$T/$mode.run" 2>&1
	rc=$?
	ok $rc "measure --samples $mode with the PPK2 emulator exits 0"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/$mode.run" | tail -5
	stop_emu
}

samples_run raw
python3 - "$T/raw.json" "$T/raw.samples.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
n = d["meters"][0]["samples"]
rows = list(csv.DictReader(open(sys.argv[2])))
t = [int(r["t_ns"]) for r in rows]
ok = (list(rows[0].keys()) == ["t_ns", "meter", "v", "a", "w", "flags"] and len(rows) == n
      and t == sorted(t) and all(r["meter"] == "0" and "emulated" in r["flags"] for r in rows)
      and all(abs(float(r["a"]) - 0.25) < 0.005 for r in rows) and n > 100000)
print("# raw: %d rows, the result counts %d samples" % (len(rows), n))
sys.exit(0 if ok else 1)
PY
ok $? "--samples raw: one CSV row per sample, as many as meters[0].samples, unbinned columns"

samples_run binary
[ -f "$T/binary.samples.bin" ] && [ ! -e "$T/binary.samples.csv" ]
ok $? "--samples binary writes NAME.samples.bin (and no CSV)"
# The record as docs/results.md documents it: the test reads the layout from there.
python3 - "$T/binary.json" "$T/binary.samples.bin" "$REPO/docs/results.md" <<'PY'
import json, math, re, struct, sys
doc = " ".join(open(sys.argv[3]).read().split())
m = re.search(r"the 8 bytes `(\w+)`, then one (\d+)-byte little-endian record per sample: "
              r"`t_ns` \(u64\), `meter` \(u32\), `flags` \(u32 bits: ([^)]*)\), `v`, `a`, `w` "
              r"\(IEEE 754 doubles", doc)
if not m:
    sys.exit("# docs/results.md no longer describes the record as this test reads it")
magic, size = m.group(1).encode(), int(m.group(2))
bits = {name: int(b) for b, name in re.findall(r"(\d+) (\w+)", m.group(3))}
rec = struct.Struct("<QIIddd")
assert rec.size == size, (rec.size, size)
d = json.load(open(sys.argv[1]))
n = d["meters"][0]["samples"]
data = open(sys.argv[2], "rb").read()
ok = data[:len(magic)] == magic and (len(data) - len(magic)) % size == 0
recs = [rec.unpack_from(data, off) for off in range(len(magic), len(data), size)]
t = [r[0] for r in recs]
want = bits["emulated"] | bits["w_computed"]
ok = (ok and len(recs) == n and n > 100000 and t == sorted(t) and
      all(r[1] == 0 and r[2] & want == want for r in recs) and
      all(r[3] == 5.0 and abs(r[4] - 0.25) < 0.005 and math.isclose(r[5], r[3] * r[4])
          for r in recs))
print("# binary: %d records of %d bytes after %s, the result counts %d samples; flag bits %s"
      % (len(recs), size, magic.decode(), n, bits))
sys.exit(0 if ok else 1)
PY
ok $? "--samples binary: the documented 40-byte records, one per sample, as many as meters[0].samples"

done_testing
