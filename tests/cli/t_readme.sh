#!/usr/bin/env bash
# The README's and the guides' examples are what the tool prints: each `$ ./iowatt ...`
# block is run from the repository's root and every line it shows must be in the output,
# in order; the compare table and the run summary have the tool's own columns and verdicts.
# The README keeps the two commands and the demo's output; the manual's examples (charts,
# compare, size) live in docs/charts.md, the SD-card-speed demo in docs/user-guide.md.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
DOCS=(README.md docs/user-guide.md docs/charts.md)
CHARTS=docs/charts.md

python3 - "$IOWATT" "${DOCS[@]}" <<'PY' >"$T_TMP/blocks.out"
import re, shlex, subprocess, sys
text = "".join(open(f).read() for f in sys.argv[2:])
n = bad = 0
for block in re.findall(r"```\n(.*?)```", text, re.S):
    lines = block.rstrip("\n").split("\n")
    m = re.match(r"\$ \./iowatt (size|compare) (.*)", lines[0])
    if not m:
        continue
    n += 1
    cmd = [sys.argv[1], m.group(1)] + shlex.split(m.group(2))
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
ok $? "every \$ ./iowatt size|compare example runs from the root and prints what ${DOCS[*]} show ($(tail -1 "$T_TMP/blocks.out"))"

G=tests/data/golden
"$IOWATT" compare --format md $G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json \
	$G/usbssd-samsung-t7.json $G/nvme-netac.json >"$T_TMP/md.out" 2>/dev/null
grep "^| " "$CHARTS" | grep -E "^\| (rank|[0-9-]+ +\|)" | grep -F "SEQ1M-Q8T1-read" >"$T_TMP/readme-md.rows"
grep -F -x -f "$T_TMP/readme-md.rows" "$T_TMP/md.out" | diff -q - "$T_TMP/readme-md.rows" >/dev/null &&
	[ -s "$T_TMP/readme-md.rows" ]
ok $? "$CHARTS's markdown compare rows are the tool's own"

# The charts: docs/img holds what docs/charts.md's own `$ ./iowatt plot` line draws from
# docs/demo/ (the same charts, no stale one, each the same size in pixels), every image the
# README and charts.md show is there, and the demo results are what charts.md says they
# are: emulated, on devices throttled to the speeds it names.
python3 - "$CHARTS" "$IOWATT" "$T_TMP/img" README.md <<'PY' >"$T_TMP/figs.out" 2>&1
import glob, json, os, re, shlex, struct, subprocess, sys
readme, iowatt, tmp = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
doc = sys.argv[1]
bad = 0
def fail(msg):
    global bad
    print("# " + msg)
    bad = 1
def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24]) if head[:8] == b"\x89PNG\r\n\x1a\n" else None

m = re.search(r"^\$ \./iowatt plot (.*)$", readme, re.M)
args = shlex.split(m.group(1)) if m else []
if "-o" not in args or args[args.index("-o") + 1] != "docs/img":
    fail("no `$ ./iowatt plot ... -o docs/img ...` line in " + doc)
else:
    args[args.index("-o") + 1] = tmp
    files = [f for a in args for f in (sorted(glob.glob(a)) if "*" in a else [a])]
    r = subprocess.run([iowatt, "plot"] + files, capture_output=True, text=True)
    if r.returncode:
        fail(doc + "'s plot line failed: " + r.stderr[-300:])
    made = sorted(f for f in os.listdir(tmp) if f.endswith(".png")) if os.path.isdir(tmp) else []
    have = sorted(f for f in os.listdir("docs/img") if f.endswith(".png") and not f.startswith("golden-"))
    if made != have:
        fail("docs/img has %s, %s's plot line draws %s" % (have, doc, made))
    for f in set(made) & set(have):
        if png_size(os.path.join(tmp, f)) != png_size(os.path.join("docs/img", f)):
            fail("%s: %s in docs/img, %s redrawn" % (f, png_size(os.path.join("docs/img", f)),
                                                    png_size(os.path.join(tmp, f))))
for d in (doc, sys.argv[4]):
    for link in re.findall(r"\]\(([^)#:]+)\)", open(d).read()):
        if not os.path.exists(os.path.join(os.path.dirname(d), link)):
            fail("%s links to %s, which is not there" % (d, link))

# "SD-card speeds (14 MB/s write, 23 MB/s read, 600 / 2200 IOPS) and ... USB-stick speeds
# (9 / 36 MB/s, 250 / 1400 IOPS)": the sequential MB/s and 32-deep random IOPS of each result.
t = re.search(r"SD-card speeds \((\d+) MB/s write, (\d+) MB/s read, (\d+) / (\d+) IOPS\) and to\s+"
              r"USB-stick speeds \((\d+) / (\d+) MB/s, (\d+) / (\d+) IOPS\)", readme)
if not t:
    fail(doc + " does not name the demo devices' throttles")
else:
    want = [float(x) for x in t.groups()]
    for name, (wmb, rmb, wiops, riops) in (("sdcard-speed", want[:4]), ("usbstick-speed", want[4:])):
        d = json.load(open("docs/demo/%s.json" % name))
        if not d.get("emulated"):
            fail("%s: not an emulated meter's result, as %s says" % (name, doc))
        jobs = {j["jobname"]: j for j in d["jobs"]}
        for job, dirn, key, lim, scale in (("SEQ1M-Q8T1-write", "write", "bw_bytes", wmb, 1e6),
                                           ("SEQ1M-Q8T1-read", "read", "bw_bytes", rmb, 1e6),
                                           ("RND4K-Q32T1-write", "write", "iops", wiops, 1),
                                           ("RND4K-Q32T1-read", "read", "iops", riops, 1)):
            got = jobs[job][dirn][key] / scale if job in jobs else float("nan")
            if not abs(got - lim) <= 0.03 * lim:
                fail("%s %s: %.4g, the throttle in %s %g" % (name, job, got, doc, lim))
        for j in d["jobs"]:
            if "energy_tail_net_j" not in (j.get("power") or {}):
                fail("%s %s: no energy_tail_net_j, which %s's timeline shows" % (name, j["jobname"], doc))
print("figures bad %d" % bad)
PY
if t_emulated; then # the plot line cannot draw there
	t_skip_charts
else
	grep "^#" "$T_TMP/figs.out"
	grep -q "^figures bad 0$" "$T_TMP/figs.out"
	ok $? "$CHARTS's charts are what its plot line draws from docs/demo, whose results match its text"
fi

# make demo sizes its jobs with --size auto: the README's demo block (and the user guide's,
# on a throttled device) shows that plan.
DEMO_DOCS=(README.md docs/user-guide.md)
for d in "${DEMO_DOCS[@]}"; do
	sed -n '/^\$ make demo/,/^```/p' "$d" >"$T_TMP/demo-block"
	grep -q -- "--size auto" scripts/demo.sh &&
		grep -qE "^SEQ1M-Q8T1-write +write +1 MiB +8 +1 +auto +1 " "$T_TMP/demo-block" &&
		grep -q "^plan: .*: bytes moved chosen by size=auto;" "$T_TMP/demo-block" &&
		grep -q "^size=auto SEQ1M-Q8T1-write: " "$T_TMP/demo-block"
	ok $? "$d's make demo block has the plan and sizes of the demo's --size auto"
done

# The run summary: the README's header and verdicts against a real run's.
if t_is_root; then
	mnt=$(t_loop_ext4 64 readme) || { ok 1 "loop ext4"; done_testing; exit 1; }
	# The verdict's wording is the point; a loaded machine's pty can cost the meter its 95 %
	# coverage (94.7 % once at load 9), which makes that one run INVALID: up to three runs.
	for try in 1 2 3; do
		rm -f "$T_TMP/um" "$T_TMP"/r.*
		"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 150 >/dev/null 2>&1 &
		emu=$!
		for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
		"$IOWATT" run --rw write --bs 1M --size 16M --rate-iops 4 --target "$mnt" \
			--no-progress --kmsg none --meter "um25c:$T_TMP/um,interval=100ms" --idle 1s \
			--idle-samples 5 --tail-hold 300ms --json-out "$T_TMP/r.json" >"$T_TMP/run.out" 2>&1
		kill $emu 2>/dev/null
		wait $emu 2>/dev/null
		grep -qE " EMULATED$" "$T_TMP/run.out" && break
		echo "# run $try not valid (a loaded machine): $(grep -oE 'INVALID: .*' "$T_TMP/run.out" | head -1)"
	done
	# Units follow the figures (0.76 W of this run is 765 mW): compared without their prefix.
	unitless() { tr -s ' ' | sed -E 's/ (m|µ|n)(W|A|J\/GB) / \2 /g; s/ (m|µ|n)(W|A|J\/GB) / \2 /g'; }
	run_head=$(grep -E "^job +loop +status" "$T_TMP/run.out" | unitless)
	verdict=$(grep -oE "EMULATED$" "$T_TMP/run.out" | head -1)
	for d in "${DEMO_DOCS[@]}"; do
		readme_head=$(sed -n '/^\$ make demo/,/^```/p' "$d" | grep -E "^job +loop +status" | unitless)
		[ -n "$run_head" ] && [ "$run_head" = "$readme_head" ]
		ok $? "$d's summary has the run's columns ($readme_head)"
		sed -n '/^\$ make demo/,/^```/p' "$d" | grep -E "^[A-Z0-9]+-[^ ]* +[0-9]+ +ok " \
			>"$T_TMP/readme-rows"
		# A demo on a disk busy with others' I/O (said once, as the tool does) has idle
		# baselines that are not quiet: its rows say so instead, the block still says
		# EMULATED where the tool does (the meter's line, every reason line).
		busy=$(sed -n '/^\$ make demo/,/^```/p' "$d" | grep -c "is busy with I/O that is not iowatt's")
		# A row that is UNCERTAIN has its job's reason line in the block (the summary
		# cuts the row's verdict short: the reason line is where the user reads why).
		sed -n '/^\$ make demo/,/^```/p' "$d" | grep -oE "^[A-Z0-9]+-[^ ]* loop [0-9]+: UNCERTAIN: " |
			cut -d' ' -f1 >"$T_TMP/readme-why"
		[ -n "$verdict" ] && [ -s "$T_TMP/readme-rows" ] &&
			awk -v v="$verdict" -v busy="$busy" 'NR == FNR { why[$1] = 1; next }
				index($0, v) == 0 && !(busy > 0 && $0 ~ / UNCERTAIN: idle not quiet$/) &&
				!($0 ~ / UNCERTAIN: / && ($1 in why)) { bad = 1 } END { exit bad }' \
				"$T_TMP/readme-why" "$T_TMP/readme-rows" &&
			sed -n '/^\$ make demo/,/^```/p' "$d" | grep -q "^figures from an EMULATED meter: they describe no real hardware$" &&
			! sed -n '/^\$ make demo/,/^```/p' "$d" | grep -E "^[A-Z0-9]+-[^ ]* loop [0-9]+: " |
				grep -v "figures from an emulated meter$" | grep -q .
		ok $? "every job row of $d's emulated run says '$verdict' as the tool does (or UNCERTAIN, on a busy disk or with its reason line), and the block says EMULATED"
	done
	[ -n "$verdict" ] || sed "s/^/# /" "$T_TMP/run.out" | tail -5
else
	for d in "${DEMO_DOCS[@]}"; do
		skip "needs root for a loop device"
		skip "needs root for a loop device"
	done
fi

done_testing
