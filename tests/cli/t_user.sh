#!/usr/bin/env bash
# iowatt as a normal user: a directory the user owns works; a raw device says it needs root.
. "$(dirname "$0")/../lib/lib.sh"

if ! t_is_root || ! command -v setpriv >/dev/null; then
	echo "1..0 # skip needs root and setpriv to become a normal user"
	exit 0
fi
as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# The binary may live under a directory nobody cannot enter: run a copy.
cp "$IOWATT" "$T_TMP/iowatt"
chmod 0755 "$T_TMP" "$T_TMP/iowatt"
mkdir "$T_TMP/mine"
chown nobody: "$T_TMP/mine"

as_user "$T_TMP/iowatt" run --target "$T_TMP/mine" --no-meter --rw randread --bs 4k --size 1m \
	--output "$T_TMP/mine/r" >"$T_TMP/run.out" 2>&1
rc=$?
ok $rc "a normal user runs a job on a directory it owns"
[ $rc -eq 0 ] || sed 's/^/#   /' "$T_TMP/run.out" | tail -n 5
ls "$T_TMP"/mine/r/*.json >/dev/null 2>&1
ok $? "and gets its result file"
[ -z "$(find "$T_TMP/mine" -name 'iowatt-*.tmp')" ]
ok $? "and its scratch file is gone"

truncate -s 8M "$T_TMP/disk.img"
if dev=$(losetup --find --show "$T_TMP/disk.img" 2>/dev/null); then
	T_LOOPS+=("$dev")
	as_user "$T_TMP/iowatt" run --target "$dev" --allow-raw-device --no-meter --rw read \
		--bs 4k --size 1m --output "$T_TMP/mine/r" >"$T_TMP/raw.out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && grep -q "$dev: Permission denied: a raw block device needs root" "$T_TMP/raw.out"
	said=$?
	ok $said "a raw device refused to a normal user says it needs root (exit $rc)"
	[ $said -eq 0 ] || sed 's/^/#   /' "$T_TMP/raw.out" | tail -n 3
else
	skip "cannot set up a loop device here: raw device refusal not checked"
fi

done_testing
