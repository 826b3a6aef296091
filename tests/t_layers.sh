#!/usr/bin/env bash
# The folder tree is the architecture: no #include points up a layer (scripts/check-layers.py).
. "$(dirname "$0")/lib.sh"

check "no include points up a layer" -- python3 "$REPO/scripts/check-layers.py" "$REPO"

# The check itself must catch a violation: copy the tree and add an upward include.
mkdir -p "$T_TMP/tree"
cp -r "$REPO/src" "$REPO/meters" "$T_TMP/tree/"
printf '#include "run/run.h"\n' >>"$T_TMP/tree/src/core/log.c"
python3 "$REPO/scripts/check-layers.py" "$T_TMP/tree" >"$T_TMP/up.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'src/core/log.c.*src/run/run.h' "$T_TMP/up.out"
ok $? "an include from core up to run is reported"

cp "$REPO/src/core/log.c" "$T_TMP/tree/src/core/log.c"
printf '#include "meters/um/um_protocol.h"\n' >>"$T_TMP/tree/meters/board/hwmon.c"
python3 "$REPO/scripts/check-layers.py" "$T_TMP/tree" >"$T_TMP/side.out" 2>&1
[ $? -ne 0 ] && grep -q "another driver's folder" "$T_TMP/side.out"
ok $? "a driver including another driver's header is reported"

done_testing
