#!/usr/bin/env bash
# make demo METER=ppk2 and METER=atorch: the demo runs with that emulated meter, names it, says EMULATED, measures energy.
. "$(dirname "$0")/../lib/lib.sh"

demo=$(t_demo_script)

# demo_with METER MODEL: one short job on a scratch directory under /var/tmp (T_TMP is
# there), results in a temp dir; checks the result against the meter asked for.
demo_with() {
	local meter=$1 model=$2 out="$T_TMP/out-$1" rc r
	METER=$meter DEMO_DIR="$T_TMP/scratch-$meter" DEMO_OUT="$out" timeout 120 bash "$demo" \
		--jobs SEQ1M-Q8T1-read --size 4M --rate-iops 4 --idle 1s --idle-samples 2 \
		--tail-hold 200ms --tail-max 1s --no-progress --kmsg none >"$T_TMP/$meter.out" 2>&1
	rc=$?
	ok $rc "make demo METER=$meter exits 0"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T_TMP/$meter.out" | tail -20
	grep -q "demo: starting iowatt's EMULATED $meter" "$T_TMP/$meter.out" &&
		grep -q "EMULATED meter" "$T_TMP/$meter.out"
	ok $? "$meter: the demo and the run's summary say EMULATED"
	r=$(ls "$out"/iowatt-*-quick.json 2>/dev/null | head -n 1)
	python3 - "${r:-/nonexistent}" "$meter" "$model" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["meters"][0]
jobs = d["jobs"]
e = [j["power"]["energy_active_j"] for j in jobs]
print("# %s: meter %s (%s), emulated %s, %d job(s), active energy %s J" %
      (sys.argv[2], m["model"], m["spec"], m["emulated"], len(jobs), e))
ok = (len(d["meters"]) == 1 and m["emulated"] is True and sys.argv[3] in m["model"]
      and m["spec"].startswith(sys.argv[2] + ":") and len(jobs) == 1
      and all(x is not None and x > 0 for x in e))
sys.exit(0 if ok else 1)
PY
	ok $? "$meter: the result names the $model, is labelled emulated and its job has energy"
	! [ -e "$T_TMP/scratch-$meter/$meter" ]
	ok $? "$meter: the emulator and its link are gone after the demo"
}

demo_with ppk2 PPK2
demo_with atorch ATORCH

done_testing
