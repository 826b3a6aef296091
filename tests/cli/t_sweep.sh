#!/usr/bin/env bash
# Record sweeps: rewrite and reread are second passes, and compare --matrix prints iozone's table.
. "$(dirname "$0")/../lib/lib.sh"

if ! t_is_root; then
	skip "needs root for loop devices"
	done_testing
	exit
fi
mnt=$(t_loop_ext4 128 sweep) || { ok 1 "loop ext4"; done_testing; exit 1; }
common="--target $mnt --size 8M --no-meter --no-progress --kmsg none"

# Second passes alone: iowatt makes the first pass itself, outside any measurement.
"$IOWATT" run record-sweep --jobs REC1M-rewrite,REC1M-reread $common \
	--json-out "$T_TMP/alone.json" >"$T_TMP/alone.out" 2>&1
ok $? "rewrite and reread run without a job before them"
grep -q "laying out 8 MiB .* for job 'REC1M-rewrite'" "$T_TMP/alone.out"
ok $? "rewrite without a write before it: the file is written once first"
grep -q "reading 8 MiB .* once for job 'REC1M-reread', a second pass" "$T_TMP/alone.out"
ok $? "reread without a read before it: the file is read once first"
[ "$(jget "$T_TMP/alone.json" '[(j["options"]["rw"], j["write"]["io_bytes"], j["read"]["io_bytes"]) for j in d["jobs"]] == [("rewrite", 8 << 20, 0), ("reread", 0, 8 << 20)]')" = True ]
ok $? "the result counts only the measured pass: 8 MiB written, 8 MiB read"

# After their first passes: nothing is done in between.
jobs=REC1M-write,REC1M-rewrite,REC1M-read,REC1M-reread,REC4K-write,REC4K-rewrite
"$IOWATT" run record-sweep --jobs $jobs $common --json-out "$T_TMP/sweep.json" \
	>"$T_TMP/sweep.out" 2>&1
ok $? "write, rewrite, read, reread in a row"
! grep -q "for job 'REC1M-rewrite'\|once for job 'REC1M-reread'\|for job 'REC4K-rewrite'" \
	"$T_TMP/sweep.out"
ok $? "rewrite follows the write job and reread the read job with no pass of iowatt's own"
[ "$(jget "$T_TMP/sweep.json" '[j["options"]["rw"] for j in d["jobs"]]')" = \
	"['write', 'rewrite', 'write', 'rewrite', 'read', 'reread']" ]
ok $? "the result names each job's mode, in the profile's order"

"$IOWATT" compare --matrix "$T_TMP/sweep.json" >"$T_TMP/matrix.txt" 2>/dev/null
ok $? "compare --matrix"
sed 's/^/# /' "$T_TMP/matrix.txt"
head -2 "$T_TMP/matrix.txt" | tail -1 | grep -qE '^record +write +rewrite +read +reread *$'
ok $? "columns in iozone's order: write, rewrite, read, reread"
python3 - "$T_TMP/sweep.json" "$T_TMP/matrix.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {l.split()[0] + " " + l.split()[1]: l.split()[2:] for l in open(sys.argv[2]).read().splitlines()[2:] if l.strip()}
want = {}
for j in d["jobs"]:
    rec = "1 MiB" if j["options"]["bs"] == 1 << 20 else "4 KiB"
    mbps = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6
    want.setdefault(rec, {})[j["options"]["rw"]] = mbps
ops = ["write", "rewrite", "read", "reread"]
for rec, cells in rows.items():
    for op, cell in zip(ops, cells):
        if op in want[rec]:
            assert abs(float(cell) - want[rec][op]) <= 0.06 + 0.001 * want[rec][op], (rec, op, cell)
        else:
            assert cell == "-", (rec, op, cell)
assert set(rows) == {"1 MiB", "4 KiB"}
PY
ok $? "each cell is that job's MB/s; a record size without the operation shows '-'"
"$IOWATT" compare --matrix --format csv --by iops "$T_TMP/sweep.json" >"$T_TMP/matrix.csv" 2>/dev/null
head -1 "$T_TMP/matrix.csv" | grep -q "^device,metric,bs,write,write_validity,rewrite,rewrite_validity,read,read_validity,reread,reread_validity,file$" &&
	grep -q ",iops,4096," "$T_TMP/matrix.csv"
ok $? "the CSV matrix: a row per device and record size, --by picks the metric"

done_testing
