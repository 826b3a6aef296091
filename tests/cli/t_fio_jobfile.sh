#!/usr/bin/env bash
# fio job files: `run JOB.fio` reads fio's keys and sizes, takes filename= as the target,
# ignores and refuses with FILE:LINE and a reason; `--explain fio` gives fio's command lines.
. "$(dirname "$0")/../lib/lib.sh"

d="$T_TMP/fio"
mkdir -p "$d"
cat >"$d/two.fio" <<JOB
; a fio user's file, as fio reads it
[global]
filename=$d/scratch.bin
size=1m
ioengine=libaio
direct=1
group_reporting
thinktime=100

[seqw]
rw=write
bs=128k
fsync=4

[randr]
rw=randread
bs=4k
iodepth=8
numjobs=2
size=1024kib
JOB
run="--no-meter --idle 0 --tail-max 0 --no-progress --kmsg none"

"$IOWATT" run "$d/two.fio" $run -o "$d/out" >"$d/out.txt" 2>"$d/err.txt"
ok $? "run two.fio with filename= and no --target (stderr: $(grep error "$d/err.txt"))"
python3 - "$d"/out/*.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
jobs = {j["jobname"]: j["options"] for j in r["jobs"]}
assert list(jobs) == ["seqw", "randr"], list(jobs)
w, rr = jobs["seqw"], jobs["randr"]
assert w["size"] == 1 << 20 and w["bs"] == 128 << 10, w   # fio's 1m and 128k: binary
assert rr["size"] == 1024000, rr["size"]  # fio's 1024kib: x 10^3 (kb_base=1024)
assert w["fdatasync"] == 4 and w["thinktime_ns"] == 100000, w  # fsync=4; thinktime in us
assert rr["numjobs"] == 2 and rr["iodepth"] == 8 and rr["ioengine"] == "libaio", rr
assert w["direct"] == 1 and w["end_fsync"] == 0, w         # fio's end_fsync default: 0
PY
ok $? "the jobs carry fio's values in fio's units (1m binary, kib decimal, thinktime us)"
[ ! -e "$d/scratch.bin" ]
ok $? "filename= named a file the run created: removed at exit as --target's would be"
grep -q "two.fio:7: fio's 'group_reporting' is ignored: " "$d/err.txt"
ok $? "group_reporting: said to be ignored, with FILE:LINE"
grep -q "two.fio:13: fio's fsync=4 is read as fdatasync=4: " "$d/err.txt"
ok $? "fsync=N: said to run as fdatasync=N"

# fio strips the blanks in front of a line: an indented key, bare key or section is read.
printf '[global]\n  size=64k\n\tbs=4k\n  [ind]\n    rw=read\n    group_reporting\n' >"$d/ind.fio"
"$IOWATT" run "$d/ind.fio" --target "$d" --dry-run >"$d/ind.out" 2>"$d/ind.err"
ok $? "indented keys, a bare key and a section in a fio file are read ($(grep -m1 error "$d/ind.err"))"
grep -q "ind.fio:6: fio's 'group_reporting' is ignored" "$d/ind.err" && grep -qw ind "$d/ind.out"
ok $? "the indented bare key is fio's group_reporting on its line, the indented section a job"

# fio's defaults where iowatt's differ: buffered, psync.
printf '[global]\nsize=64k\n[plain]\nrw=read\n' >"$d/plain.fio"
"$IOWATT" run "$d/plain.fio" --target "$d" --dry-run >/dev/null 2>"$d/plain.err"
ok $? "a fio file without direct= or ioengine= is read"
grep -q "plain runs buffered (direct=0, fio's default" "$d/plain.err"
ok $? "direct=0 by fio's default is said (the page cache takes part)"

refused() { # FILE LINE KEY WHY-PATTERN DESCRIPTION
	"$IOWATT" run "$1" --target "$d" --dry-run >/dev/null 2>"$d/r.err"
	local rc=$?
	[ "$rc" -ne 0 ] && grep -q "$(basename "$1"):$2: .*$3.*$4" "$d/r.err"
	ok $? "$5 (exit $rc: $(head -c 200 "$d/r.err"))"
}
printf '[global]\nsize=1g\n[t]\nrw=read\ntime_based\nruntime=10\n' >"$d/tb.fio"
refused "$d/tb.fio" 5 time_based "size=auto" "bare time_based: refused at its line, pointing to size=auto"
printf '[global]\nsize=1g\n[z]\nzonemode=zbd\n' >"$d/zone.fio"
refused "$d/zone.fio" 4 zonemode "not a key iowatt reads" "a fio key iowatt lacks: refused, named"
printf '[a]\nsize=1m\nfilename=/tmp/x\n[b]\nsize=1m\nfilename=/tmp/y\n' >"$d/two-files.fio"
"$IOWATT" run "$d/two-files.fio" --dry-run >/dev/null 2>"$d/r.err"
[ $? -ne 0 ] && grep -q "two-files.fio:6: filename=/tmp/y: iowatt runs every job of a file on one target, and line 3 gave" "$d/r.err"
ok $? "two targets in one file: refused, naming both lines"
printf '[global]\nsize=50%%\n[p]\nrw=read\n' >"$d/pct.fio"
refused "$d/pct.fio" 2 size "not a size iowatt can use" "size=50%: refused with the reason"

# An existing file filename= names is the user's: read, never written without --force.
head -c 1048576 /dev/zero >"$d/theirs.bin"
printf '[w]\nfilename=%s\nsize=64k\nrw=write\n' "$d/theirs.bin" >"$d/theirs.fio"
"$IOWATT" run "$d/theirs.fio" $run -o "$d/out2" >/dev/null 2>"$d/theirs.err"
[ $? -ne 0 ] && [ "$(wc -c <"$d/theirs.bin")" -eq 1048576 ] && cmp -s "$d/theirs.bin" <(head -c 1048576 /dev/zero)
ok $? "a write job on a file the run did not create is refused, the file untouched ($(head -c 200 "$d/theirs.err"))"

# --explain fio hands out no command that writes where the run itself would not.
"$IOWATT" run "$d/theirs.fio" --explain fio >"$d/theirs.sh" 2>"$d/theirs-explain.err"
[ $? -ne 0 ] && ! grep -q '^fio ' "$d/theirs.sh" && grep -q "existing file and job 'w' writes" "$d/theirs-explain.err"
ok $? "--explain fio of a write job on a file the run did not create: refused, no command printed"
"$IOWATT" run "$d/theirs.fio" --explain fio --force >"$d/theirs2.sh" 2>/dev/null &&
	[ "$(grep -c '^fio ' "$d/theirs2.sh")" -eq 1 ] && cmp -s "$d/theirs.bin" <(head -c 1048576 /dev/zero)
ok $? "with --force, as the run, the command is printed (and nothing written)"

# --explain fio: fio runs each line, and moves what iowatt's job moves.
"$IOWATT" run "$d/two.fio" --explain fio >"$d/explain.sh" 2>/dev/null
ok $? "--explain fio prints and runs nothing"
[ "$(grep -c '^fio ' "$d/explain.sh")" -eq 2 ] && [ ! -e "$d/scratch.bin" ]
ok $? "one fio line per job, and no file created"
if command -v fio >/dev/null; then
	n=0
	while IFS= read -r line; do
		case "$line" in fio\ *) ;; *) continue ;; esac
		n=$((n + 1))
		eval "$line --output-format=json --output=$d/fio$n.json" >/dev/null 2>&1 || echo "fio $n failed"
	done <"$d/explain.sh" >"$d/fio.err"
	python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
w = json.load(open(d + "/fio1.json"))["jobs"]
r = json.load(open(d + "/fio2.json"))["jobs"]
assert sum(j["write"]["io_bytes"] for j in w) == 1 << 20, w
assert sum(j["read"]["io_bytes"] for j in r) == 2 * 1024000, [j["read"]["io_bytes"] for j in r]
PY
	ok $? "fio ran both lines and moved iowatt's bytes (1 MiB written, 2 x 1024000 read) $(cat "$d/fio.err")"
	q="$d/it's a dir"
	mkdir -p "$q"
	line=$("$IOWATT" run "$d/plain.fio" --target "$q" --explain fio 2>/dev/null | grep '^fio ')
	eval "$line --output-format=json" >/dev/null 2>&1 && [ -s "$q/iowatt-fio.scratch" ]
	ok $? "a target with a quote and a space is shell-quoted: fio wrote its file there"
	# measure -- fio: the command's row takes fio's job names (numjobs clones once), its
	# I/O summed and the command's power, said so; then a row per fio job with its own I/O
	# and no power figures.
	"$IOWATT" measure $run --json-out "$d/m.json" -- fio --output-format=json \
		--name=seqw --filename="$d/m.bin" --size=32m --rw=write --bs=64k \
		--name=seqr --filename="$d/m.bin" --size=32m --rw=read --bs=64k --stonewall \
		--numjobs=2 >"$d/m.out" 2>"$d/m.err"
	ok $? "measure -- fio with two jobs (three with the clones)"
	python3 - "$d/m.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"]
assert [x["jobname"] for x in j] == ["seqw+seqr", "seqw", "seqr"], [x["jobname"] for x in j]
assert j[0]["write"]["io_bytes"] == 32 << 20 and j[0]["read"]["io_bytes"] == 2 * (32 << 20), j[0]
assert j[1]["write"]["io_bytes"] == 32 << 20 and not j[1]["read"]["io_bytes"], j[1]
assert j[2]["read"]["io_bytes"] == 2 * (32 << 20) and not j[2]["write"]["io_bytes"], j[2]
PY
	ok $? "the command's row is named by fio's jobs, their I/O summed; a row per fio job after it"
	grep -q "fio ran 3 jobs (seqw+seqr): this row has their I/O summed over fio.s window and the whole command.s power; a row each after it" "$d/m.err"
	ok $? "it says the first row has the whole command's power, the rows after it their own"
else
	skip "fio not installed"
	skip "fio not installed"
	skip "fio not installed"
	skip "fio not installed"
	skip "fio not installed"
fi

done_testing
