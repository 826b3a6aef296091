#!/usr/bin/env bash
# New meters: spec checks, iowatt meters by USB ID and permissions, the libsigrok bridge with its demo driver.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# 3. Spec checks before any device is touched.
"$IOWATT" probe --meter "ppk2:$T/none,mode=source" --seconds 1 >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "mode=source powers the device: give vdd" "$T/err"
ok $? "ppk2: source mode without vdd= is refused"
"$IOWATT" probe --meter "fnb58:auto" --seconds 1 --sysfs-root "$T" >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "no FNIRSI tester" "$T/err"
ok $? "fnb58:auto with no tester says so"
"$IOWATT" meters --help >"$T/help.out" 2>&1
grep -q "fnb58:auto" "$T/help.out" && grep -q "ppk2:/dev/ttyACM0" "$T/help.out" &&
	grep -q "check=on|off" "$T/help.out"
ok $? "iowatt meters --help lists the new drivers and their keys"

# 4. iowatt meters finds the testers by USB ID and says when permissions are the problem.
S=$T/sysroot
mkdir -p "$S/sys/devices/usb1/1-1/1-1:1.0/0003:2E3C:5558.0001/hidraw/hidraw0" \
	"$S/sys/devices/usb1/1-2/1-2:1.0/tty/ttyACM0" "$S/sys/class/hidraw" "$S/sys/class/tty" "$S/dev"
printf 'DRIVER=hid-generic\nHID_ID=0003:00002E3C:00005558\nHID_NAME=FNIRSI FNB-58\n' \
	>"$S/sys/devices/usb1/1-1/1-1:1.0/0003:2E3C:5558.0001/uevent"
ln -s ../.. "$S/sys/devices/usb1/1-1/1-1:1.0/0003:2E3C:5558.0001/hidraw/hidraw0/device"
ln -s ../../devices/usb1/1-1/1-1:1.0/0003:2E3C:5558.0001/hidraw/hidraw0 "$S/sys/class/hidraw/hidraw0"
echo 1915 >"$S/sys/devices/usb1/1-2/idVendor"
echo c00a >"$S/sys/devices/usb1/1-2/idProduct"
ln -s ../.. "$S/sys/devices/usb1/1-2/1-2:1.0/tty/ttyACM0/device"
ln -s ../../devices/usb1/1-2/1-2:1.0/tty/ttyACM0 "$S/sys/class/tty/ttyACM0"
: >"$S/dev/hidraw0"
: >"$S/dev/ttyACM0"
chmod 600 "$S/dev/hidraw0" "$S/dev/ttyACM0"
"$IOWATT" meters --sysfs-root "$S" >"$T/scan.out" 2>&1
grep -q "/dev/hidraw0 *FNB58 (2e3c:5558)" "$T/scan.out" && grep -q "spec: fnb58:/dev/hidraw0" "$T/scan.out"
ok $? "iowatt meters finds an FNB58 by its HID_ID"
grep -q "/dev/ttyACM0 *Nordic PPK2" "$T/scan.out" && grep -q "spec: ppk2:/dev/ttyACM0" "$T/scan.out"
ok $? "and a PPK2 by its USB ID"
if t_is_root && command -v setpriv >/dev/null; then
	chmod 755 "$T"
	# The same binary, where nobody can reach it (a tree under /root, as in tests/distros.sh's
	# chroots, is closed to other users).
	cp "$IOWATT" "$T/iowatt-user" && chmod 755 "$T/iowatt-user"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$T/iowatt-user" meters --sysfs-root "$S" \
		>"$T/scan.user" 2>&1
	grep "FNB58" "$T/scan.user" | grep -q "PERMISSION DENIED: install dist/udev/60-iowatt.rules" &&
		grep "Nordic PPK2" "$T/scan.user" | grep -q "PERMISSION DENIED: add yourself to dialout"
	ok $? "a user who cannot open them is told why"
	! grep -q "PERMISSION DENIED" "$T/scan.out"
	ok $? "root is not"
else
	skip "needs root and setpriv to try as another user"
	skip "needs root and setpriv to try as another user"
fi

# The extra channels (D+, D-, temperature) reach probe's lines.
start_emu fnb58 "$T/x58" --constant-ma 100 --duration 20
timeout 20 "$IOWATT" probe --meter "fnb58:$T/x58" --seconds 2 >"$T/x58.probe" 2>&1
grep -q "D+ 0.600 V, D- 0.600 V, 28.5 C" "$T/x58.probe"
ok $? "fnb58: D+, D- and temperature are shown with the readings"
stop_emu

# 5. The libsigrok bridge, with libsigrok's own demo driver through the push entry point.
if "$IOWATT" meters --help 2>&1 | grep -q "^  sigrok: "; then
	# A1 is libsigrok's sine, +-10 V, read here as a load's (sign=unsigned; signed, as the
	# bridge reads it by default, in t_sigrok_signed.sh): its negative half is no supply
	# voltage and is dropped as impossible (counted, with an event; a reading within the
	# sanity check's noise slack, FLOOR_V 1 mV, of zero is kept), the positive half
	# keeps its shape. Full
	# unwinding on malloc, so tests/lsan.supp sees libsigrok's frames under glib's (which has
	# no frame pointers) and only libsigrok's own leak is let through.
	SR_ASAN="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	ASAN_OPTIONS=$SR_ASAN timeout 30 "$IOWATT" probe --meter "sigrok:demo,channel=A1,rate=1000,sign=unsigned" --seconds 2 \
		--csv "$T/sigrok.csv" >"$T/sigrok.out" 2>&1
	ok $? "probe of libsigrok's demo device exits 0"
	grep -q "Demo device (sigrok)" "$T/sigrok.out"
	ok $? "the model is libsigrok's"
	python3 - "$T/sigrok.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = [int(r["t_ns"]) for r in rows]
v = [float(r["v"]) for r in rows]
ok = (400 <= len(rows) <= 2600 and t == sorted(t) and min(v) >= -0.001 and
      all(math.isnan(float(r["a"])) for r in rows) and max(v) > min(v))
print("# %d samples, V %.3f..%.3f" % (len(rows), min(v), max(v)))
sys.exit(0 if ok else 1)
PY
	ok $? "voltage samples at up to 1 kS/s (A1 is a voltage: no current), in time order, none below the 1 mV noise slack"
	grep -q "dropped as impossible: a negative voltage" "$T/sigrok.out"
	ok $? "the sine's negative half is dropped as impossible, and said"
	# iowatt meters lists what libsigrok's own scan finds: here only its demo device, which
	# libsigrok 0.5.2 returns to every scan, and which is named as a test signal.
	# Its exit status too: under ASan a leak in libsigrok's scan would show here.
	"$IOWATT" meters >"$T/meters.out" 2>&1
	rc=$?
	sed -n '/^sigrok /,/^[A-Z]/p' "$T/meters.out" >"$T/sigrok.scan"
	[ $rc -eq 0 ] && grep -q "^  Demo device  (libsigrok's demo driver: a test signal, not a meter" "$T/sigrok.scan" &&
		grep -q "^    analog channels: A0 " "$T/sigrok.scan" &&
		grep -qx "    spec: sigrok:demo" "$T/sigrok.scan"
	rc=$?
	ok $rc "iowatt meters lists libsigrok's scan: the demo device, said to be a test signal"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/sigrok.scan"
	spec=$(sed -n 's/^    spec: \(sigrok:demo\)$/\1/p' "$T/sigrok.scan")
	# Unwound fully as above, so libsigrok's own leak (every probe of sigrok:demo with
	# Debian 13's glib, tests/lsan.supp) is let through here too.
	ASAN_OPTIONS=$SR_ASAN timeout 30 "$IOWATT" probe --meter "${spec:-none},channel=A0,rate=1000" \
		--seconds 1 >"$T/listed.out" 2>&1 && grep -q "Demo device (sigrok)" "$T/listed.out"
	rc=$?
	ok $rc "the spec it prints opens that device"
	[ $rc -eq 0 ] || grep -v "dropped as impossible" "$T/listed.out" | tail -n 12 | sed 's/^/#   /'
	"$IOWATT" probe --meter "sigrok:no-such-driver" --seconds 1 >/dev/null 2>"$T/err"
	[ $? -ne 0 ] && grep -q "has no driver 'no-such-driver'" "$T/err"
	ok $? "an unknown libsigrok driver is named"
else
	skip "built without libsigrok"
fi

done_testing
