#!/usr/bin/env bash
# Event-locked aligned on the GPIO marker (issue 35.5): `iowatt run --mark-gpio` on an
# emulated gpiochip0 (umockdev, in-process) whose line 17 is wired to the PPK2 emulator's
# D0; the emulator sends its samples 20 ms late (--hold-ms), so the host's stamps read
# its clock late by about 19 ms (20 ms less the driver's 1 ms USB allowance). The result
# must align on the marker (alignment "marker", input D0 found by auto), find that offset
# within its U95 and recover the emulator's 1000 / 3000 uJ per op at paced 10 IOPS.
# Without the wire: "correlation", with the reason.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

UMOCK="$REPO/${O:-build}/tests/umock_gpio_ppk2"
[ -x "$UMOCK" ] || { echo "1..0 # skip no $UMOCK (built without umockdev)"; exit 0; }
command -v umockdev-wrapper >/dev/null || { echo "1..0 # skip no umockdev-wrapper"; exit 0; }
HOLD_MS=20
t_emu_loop 64 mk
trap 'stop_emu; t_cleanup' EXIT

# run NAME WIRE: one run with the marker, its wire the file WIRE or - (none)
run_marked() {
	local name=$1 wire=$2
	: >"$T_TMP/$name.wire"
	start_emu ppk2 "$T_TMP/$name.p" --device "$dev" --idle-ma 90 --ma-per-mbps 0 \
		--ma-per-kiops 0 --uc-per-read 200 --uc-per-write 600 --cap-ma 6500 --update-ms 1 \
		--volts 5 --cable-ohms 0 --hold-ms $HOLD_MS --logic-wire "$T_TMP/$name.wire" \
		--truth "$T_TMP/$name.truth"
	ok $? "$name: the PPK2 emulator follows $dev, D0 wired to $T_TMP/$name.wire"
	timeout 300 umockdev-wrapper "$UMOCK" "$wire" run "$REPO/tests/data/profiles/ppk2-paced.ini" --target "$mnt" \
		--meter "ppk2:$T_TMP/$name.p,vdd=5000" --mark-gpio gpiochip0:17 --kmsg none \
		--no-progress --json-out "$T_TMP/$name.json" >"$T_TMP/$name.out" 2>&1
	ok $? "$name: a paced job measured by the PPK2 emulator with --mark-gpio"
	stop_emu
	grep -q "^not ok" "$T_TMP/$name.out" && sed 's/^/# /' "$T_TMP/$name.out" | tail -20
}

check() {
	python3 - "$T_TMP/$1.json" "$T_TMP/$1.truth" <<'PY'
import csv, json, sys
e = json.load(open(sys.argv[1]))["jobs"][0]["power"].get("event_locked") or {}
# The driver stamps a batch's last sample at its arrival less 1 ms (USB), the earliest
# arrival setting the anchor: the meter's clock reads the least gap between a sample
# taken and sent, less 1 ms, late (the host's wake-up, microseconds, comes on top).
taken, gap = None, None
for row in csv.DictReader(open(sys.argv[2])):
    if row["kind"] == "sample_taken":
        taken = int(row["t_ns"])
    elif row["kind"] == "sample_sent" and taken is not None:
        d = int(row["t_ns"]) - taken
        gap = d if gap is None or d < gap else gap
truth_off = (gap or 0) / 1e9 - 1e-3
truth = {"read": 200e-6 * 5 * 1e6, "write": 600e-6 * 5 * 1e6}
print("alignment %s %s %s" % (e.get("alignment"), e.get("marker_input"), e.get("marker_edges")))
print("note %s" % (e.get("alignment_note") or "-").replace(" ", "_"))
o, u = e.get("offset_s"), e.get("offset_u_s")
print("offset %s %s %s %d" % (o, u, truth_off,
                              int(o is not None and u is not None and abs(o - truth_off) <= u)))
print("corr %s drift %s" % (e.get("correlation_offset_s"), e.get("drift_ppm")))
for k in ("read", "write"):
    v, u = e.get(k + "_uj_per_op"), e.get(k + "_uj_per_op_u95")
    print("%s %s %s %s %d" % (k, v, u, truth[k],
                              int(v is not None and u is not None and abs(v - truth[k]) <= 2 * u)))
PY
}

run_marked wired "$T_TMP/wired.wire"
check wired >"$T_TMP/wired.check"
sed 's/^/# /' "$T_TMP/wired.check"
grep -q "^alignment marker D0 [1-9]" "$T_TMP/wired.check"
ok $? "wired: aligned on the marker, found on D0 ($(awk '$1 == "alignment" { print $4 " edges" }' "$T_TMP/wired.check"))"
grep -q "^offset .* 1$" "$T_TMP/wired.check"
ok $? "wired: the offset within its U95 of the truth ($(awk '$1 == "offset" { printf "%.4f +- %.4f ms against %.4f", $2 * 1e3, $3 * 1e3, $4 * 1e3 }' "$T_TMP/wired.check"))"
el_charges_ok "$T_TMP/wired.check" "wired: "
grep -q "PACED-4K loop 1: event-locked on the marker (D0, [0-9]* edges): the meter's clock +[0-9.]* +- [0-9.]* ms" "$T_TMP/wired.out"
ok $? "wired: the summary says so ($(grep -o "event-locked on the marker.*" "$T_TMP/wired.out"))"

run_marked unwired -
check unwired >"$T_TMP/unwired.check"
sed 's/^/# /' "$T_TMP/unwired.check"
grep -q "^alignment correlation " "$T_TMP/unwired.check"
ok $? "unwired: aligned by cross-correlation"
grep -q "^note no_edge_on_the_meter's_digital_inputs" "$T_TMP/unwired.check"
ok $? "unwired: the result says why not the marker"
grep -q "PACED-4K loop 1: event-locked by cross-correlation, not the marker: no edge on" "$T_TMP/unwired.out"
ok $? "unwired: and the summary"
el_charges_ok "$T_TMP/unwired.check" "unwired: "
done_testing
