#!/usr/bin/env bash
# Checked before any I/O: output paths (probe --csv and run --json-out never replace a file
# unless --force, never write through a symlink, refuse a directory and the --target) and
# memory for the I/O buffers (a clean refusal, no abort, no test file left).
. "$(dirname "$0")/../lib/lib.sh"

T=$T_TMP
cd "$T" || exit 1
echo "user data" >user.csv
ln -s user.csv link.csv
sum0=$(sha256sum user.csv)
mkdir adir

# refused LOG DESC REGEX CMD...: the command fails and its error matches REGEX.
refused() {
	local log=$1 desc=$2 re=$3
	shift 3
	timeout 60 "$@" >"$T/$log" 2>&1
	local rc=$?
	[ $rc -ne 0 ] && grep -qE -e "$re" "$T/$log"
	ok $? "$desc (rc=$rc)" || sed 's/^/#   /' "$T/$log" | head -n 5
}

# 1. probe --csv: the path is judged before the meter is opened (this meter does not exist).
refused p1.log "probe --csv on an existing file is refused" "--csv: user.csv: already exists.*--force" \
	"$IOWATT" probe --meter um25c:/nonexistent --seconds 1 --csv user.csv
refused p2.log "probe --csv through a symlink is refused, even with --force" "link.csv: a symbolic link" \
	"$IOWATT" probe --meter um25c:/nonexistent --seconds 1 --csv link.csv --force
refused p3.log "probe --csv on a directory is refused" "adir: a directory" \
	"$IOWATT" probe --meter um25c:/nonexistent --seconds 1 --csv adir --force
! grep -q "nonexistent" "$T/p1.log" "$T/p2.log" "$T/p3.log"
ok $? "each refusal comes before the meter is opened"
# With --force the path is accepted; the meter then fails, and the file is not touched
# (it is created only once the meter answers).
refused p4.log "probe --csv --force gets as far as the meter" "nonexistent" \
	"$IOWATT" probe --meter um25c:/nonexistent --seconds 1 --csv user.csv --force
[ "$(sha256sum user.csv)" = "$sum0" ] && [ -L link.csv ]
ok $? "the user's file and the symlink are unchanged"

# 2. run --json-out: checked before the target is created or anything is written.
refused r1.log "--json-out equal to --target is refused" "new.dat is the --target" \
	"$IOWATT" run --target new.dat --json-out new.dat --no-meter --rw write --bs 4k --size 1m
[ ! -e new.dat ]
ok $? "and nothing was created"
refused r2.log "--json-out naming the existing --target file is refused, even with --force" \
	"is the --target" \
	"$IOWATT" run --target user.csv --json-out "$T/./user.csv" --force --no-meter --rw read \
	--bs 4k --size 8k
[ "$(sha256sum user.csv)" = "$sum0" ]
ok $? "and the target is unchanged"
refused r3.log "a directory as --json-out is refused before the run, even with --force" \
	"--json-out: adir: a directory" \
	"$IOWATT" run --target "$T" --json-out adir --force --no-meter --rw write --bs 4k --size 1m
! grep -q "laying out\|write-4k" "$T/r3.log" && [ -z "$(ls "$T" | grep '^iowatt-')" ]
ok $? "no job ran and no test file was created" || sed 's/^/#   /' "$T/r3.log" | head -n 5
refused r4.log "a --json-out whose intervals CSV is a symlink is refused" \
	"x.intervals.csv: a symbolic link" \
	bash -c "ln -sf user.csv x.intervals.csv && exec \"$IOWATT\" run --target \"$T\" --json-out x.json --force --no-meter --rw write --bs 4k --size 1m"
[ "$(sha256sum user.csv)" = "$sum0" ]
ok $? "and the file it points to is unchanged"
refused r5.log "a --json-out under a regular file is refused before the run" \
	"cannot create user.csv/r.json: user.csv is not a directory" \
	"$IOWATT" run --target "$T" --json-out user.csv/r.json --no-meter --rw write --bs 4k --size 1m
refused r6.log "an existing --json-out is refused without --force" "x.json: already exists" \
	bash -c "touch x.json && exec \"$IOWATT\" run --target \"$T\" --json-out x.json --no-meter --rw write --bs 4k --size 1m"
[ -z "$(ls "$T" | grep '^iowatt-')" ]
ok $? "no refused run left a test file"

# 3. I/O buffers beyond what the machine can give: bs=1g x numjobs=64, reads and writes is
#    128 GiB. Refused before the test file exists (under ASan ulimit -v cannot be used,
#    so the machine's MemAvailable is the limit; a machine with more is skipped).
avail_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
if [ -n "$avail_kib" ] && [ "$avail_kib" -lt $((120 * 1024 * 1024)) ]; then
	refused m1.log "buffers larger than MemAvailable: a clean refusal" \
		"job '[^']*' needs 128 GiB of I/O buffers .* can be allocated \(MemAvailable\)" \
		"$IOWATT" run --target "$T" --json-out m1.json --no-meter --rw randrw \
		--bs 1g --size 1g --numjobs 64
	! grep -q "Aborted\|AddressSanitizer" "$T/m1.log" && [ -z "$(ls "$T" | grep '^iowatt-')" ] &&
		[ ! -e m1.json ]
	ok $? "no abort, no test file, no result left"
else
	skip "this machine has ${avail_kib:-?} KiB available: 128 GiB of buffers could be allocated"
	skip "no abort (not tried)"
fi

done_testing
