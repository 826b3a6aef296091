#!/usr/bin/env bash
# make demo's script: a run that stops part-way still gets charts and the report page of the
# jobs that ran, and the script exits as the run did.
. "$(dirname "$0")/../lib/lib.sh"

if ! t_is_root; then
	skip "needs root for loop devices"
	done_testing
	exit
fi
t_need_gnuplot
mnt=$(t_loop_ext4 64 demo) || { ok 1 "loop ext4"; done_testing; exit 1; }
out="$T_TMP/out"
demo_pid=""
trap '[ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null; t_cleanup' EXIT

demo=$(t_demo_script)

# A second demo on the same directory while one runs: told so at once, exit 3, nothing run.
(flock 9 && sleep 30) 9>"$mnt/.demo.lock" &
hold_pid=$!
for _ in $(seq 100); do flock -n "$mnt/.demo.lock" true 2>/dev/null || break; sleep 0.1; done
DEMO_DIR="$mnt" DEMO_OUT="$T_TMP/out2" bash "$demo" --jobs SEQ1M-Q8T1-write >"$T_TMP/demo2.out" 2>&1
rc=$?
kill "$hold_pid" 2>/dev/null
wait "$hold_pid" 2>/dev/null
[ $rc -eq 3 ] && grep -q "another make demo is running on $mnt" "$T_TMP/demo2.out" &&
	! ls "$T_TMP"/out2/iowatt-*.json >/dev/null 2>&1
ok $? "a second demo on the same directory says so and stops (rc=$rc)"

DEMO_DIR="$mnt" DEMO_OUT="$out" bash "$demo" --jobs SEQ1M-Q8T1-write,SEQ1M-Q8T1-read \
	--size 16M --rate-iops 4 --idle 1s --idle-samples 5 --tail-hold 500ms --tail-max 3s \
	--no-progress --kmsg none >"$T_TMP/demo.out" 2>&1 &
demo_pid=$!
# Ctrl-C once the first job is in the result (its progress, not the clock, decides).
run_pid=""
for _ in $(seq 600); do
	r=$(ls "$out"/iowatt-*-quick.json 2>/dev/null | head -n 1)
	if [ -n "$r" ] && [ "$(jget "$r" 'len(d["jobs"])' 2>/dev/null)" = 1 ]; then
		run_pid=$(pgrep -P "$demo_pid" -f "iowatt run quick")
		break
	fi
	kill -0 "$demo_pid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$run_pid" ] && kill -INT "$run_pid"
wait "$demo_pid"
rc=$?
demo_pid=""
[ "$rc" -eq 130 ]
ok $? "the demo exits 130 as the interrupted run did (rc=$rc)"
[ $rc -eq 130 ] || sed 's/^/#   /' "$T_TMP/demo.out" | tail -20
if t_emulated; then # no chart there: the demo says so
	grep -q "demo: could not draw the charts" "$T_TMP/demo.out"
	ok $? "under qemu-user the demo says it could not draw the charts"
	t_skip_charts
	grep -q "^report: $out/report.html (without its charts" "$T_TMP/demo.out" &&
		[ -s "$out/report.html" ]
	ok $? "and writes the report page, saying it has no charts"
else
	grep -q "charts: $out/plots/ (of the jobs that ran; the run exited 130)" "$T_TMP/demo.out"
	ok $? "and still draws the charts of the jobs that ran"
	ls "$out"/plots/*.png >/dev/null 2>&1 && [ -f "$out"/plots/efficiency.png ]
	ok $? "charts are there ($(ls "$out"/plots 2>/dev/null | tr '\n' ' '))"
	grep -q "^report: $out/report.html$" "$T_TMP/demo.out" && [ -s "$out/report.html" ]
	ok $? "and writes the report page next to the charts"
fi
# The meters table's row of the demo's meter: its model, marked EMULATED.
python3 - "$out/report.html" <<'PY' >"$T_TMP/meter-row"
import re, sys
page = open(sys.argv[1]).read()
sec = re.search(r'<section id="meters">(.*?)</section>', page, re.S)
rows = re.findall(r"<tr>(.*?)</tr>", sec.group(1) if sec else "", re.S)
cells = [re.findall(r"<td[^>]*>(.*?)</td>", r, re.S) for r in rows]
hit = [c for c in cells if len(c) > 1 and "UM25C" in c[1] and "EMULATED" in c[1]]
print(re.sub(r"<[^>]+>", " ", hit[0][1]) if hit else "none")
sys.exit(0 if hit else 1)
PY
ok $? "the page names the meter as EMULATED ($(tr -s ' ' <"$T_TMP/meter-row"))"
r=$(ls "$out"/iowatt-*-quick.json | head -n 1)
[ "$(jget "$r" 'd["status"]')" = interrupted ] && [ "$(jget "$r" 'd["jobs"][0]["status"]')" = ok ]
ok $? "the result holds the finished job and says the run was interrupted"

done_testing
