#!/usr/bin/env bash
# The README's examples are what the tool prints: each `$ ./iowatt ...` block is run from
# the repository's root and every line it shows must be in the output, in order; the
# compare table and the run summary have the tool's own columns and verdicts.
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

python3 - README.md "$IOWATT" <<'PY' >"$T_TMP/blocks.out"
import re, shlex, subprocess, sys
text = open(sys.argv[1]).read()
n = bad = 0
for block in re.findall(r"```\n(.*?)```", text, re.S):
    lines = block.rstrip("\n").split("\n")
    m = re.match(r"\$ \./iowatt (size|compare) (.*)", lines[0])
    if not m:
        continue
    n += 1
    cmd = [sys.argv[2], m.group(1)] + shlex.split(m.group(2))
    out = subprocess.run(cmd, capture_output=True, text=True).stdout.split("\n")
    at = 0
    for want in lines[1:]:
        if want == "...":
            continue
        while at < len(out) and out[at] != want:
            at += 1
        if at == len(out):
            print("# %s: not in its output: %r" % (lines[0][:60], want))
            bad += 1
            break
        at += 1
print("blocks %d bad %d" % (n, bad))
PY
cat "$T_TMP/blocks.out" | grep "^#"
grep -q "^blocks [1-9][0-9]* bad 0$" "$T_TMP/blocks.out"
ok $? "every \$ ./iowatt size|compare example runs from the root and prints what the README shows ($(tail -1 "$T_TMP/blocks.out"))"

G=tests/data/golden
"$IOWATT" compare --format md $G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json \
	$G/usbssd-samsung-t7.json $G/nvme-netac.json >"$T_TMP/md.out" 2>/dev/null
grep "^| " README.md | grep -E "^\| (rank|[0-9-]+ +\|)" | grep -F "SEQ1M-Q8T1-read" >"$T_TMP/readme-md.rows"
grep -F -x -f "$T_TMP/readme-md.rows" "$T_TMP/md.out" | diff -q - "$T_TMP/readme-md.rows" >/dev/null &&
	[ -s "$T_TMP/readme-md.rows" ]
ok $? "the README's markdown compare rows are the tool's own"

# The run summary: the README's header and verdicts against a real run's.
if t_is_root; then
	mnt=$(t_loop_ext4 64 readme) || { ok 1 "loop ext4"; done_testing; exit 1; }
	"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 150 >/dev/null 2>&1 &
	emu=$!
	for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
	"$IOWATT" run --rw write --bs 1M --size 16M --rate-iops 4 --target "$mnt" --no-progress \
		--kmsg none --meter "um25c:$T_TMP/um,interval=100ms" --idle 1s --idle-samples 5 \
		--tail-hold 300ms --json-out "$T_TMP/r.json" >"$T_TMP/run.out" 2>&1
	kill $emu 2>/dev/null
	wait $emu 2>/dev/null
	run_head=$(grep -E "^job +loop +status" "$T_TMP/run.out" | tr -s ' ')
	readme_head=$(sed -n '/^\$ make demo/,/^```/p' README.md | grep -E "^job +loop +status" | tr -s ' ')
	[ -n "$run_head" ] && [ "$run_head" = "$readme_head" ]
	ok $? "the README's summary has the run's columns ($readme_head)"
	verdict=$(grep -oE "valid \(EMULATED\)$" "$T_TMP/run.out" | head -1)
	sed -n '/^\$ make demo/,/^```/p' README.md | grep -E "^[A-Z0-9]+-[^ ]* +[0-9]+ +ok " \
		>"$T_TMP/readme-rows"
	[ -n "$verdict" ] && [ -s "$T_TMP/readme-rows" ] &&
		awk -v v="$verdict" 'index($0, v) == 0 { bad = 1 } END { exit bad }' "$T_TMP/readme-rows"
	ok $? "every job row of the README's emulated run says '$verdict', as the tool does"
	[ -n "$verdict" ] || sed "s/^/# /" "$T_TMP/run.out" | tail -5
else
	skip "needs root for a loop device"
	skip "needs root for a loop device"
fi

done_testing
