#!/usr/bin/env bash
# The folder tree is the architecture: no #include and no link reference points up a layer
# (scripts/check-layers.py; links read with nm from the build's objects, $O).
. "$(dirname "$0")/../lib/lib.sh"

check "no include points up a layer" -- python3 "$REPO/scripts/check-layers.py" "$REPO"

case ${O:-build} in /*) OBJ=${O} ;; *) OBJ=$REPO/${O:-build} ;; esac
if [ -f "$OBJ/src/core/log.o" ]; then
	check "no link reference points up a layer ($OBJ)" -- \
		python3 "$REPO/scripts/check-layers.py" "$REPO" --objects "$OBJ"
else
	skip "no objects in $OBJ to read links from (build first)"
fi

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

# Event sources: one folder each, listed by src/sources/registry; none names another.
printf '#include "sources/rpi_volt/rpi_volt.h"\n' >>"$T_TMP/tree/src/sources/get_throttled/get_throttled.c"
python3 "$REPO/scripts/check-layers.py" "$T_TMP/tree" >"$T_TMP/src.out" 2>&1
[ $? -ne 0 ] && grep -q "src/sources/get_throttled/get_throttled.c.*rpi_volt.h (another driver's folder)" "$T_TMP/src.out"
ok $? "a source including another source's header is reported"

# Links: a tiny tree whose files name each other through their own externs, which the
# include check cannot see. run -> core is allowed; core -> run and driver -> driver are not.
L=$T_TMP/links
mkdir -p "$L/src/core" "$L/src/run" "$L/meters/um" "$L/meters/board" "$L/src/sources/rpi_volt" \
	"$L/src/sources/get_throttled" "$L/src/sources/registry"
printf 'int run_fn(void);\nint core_fn(void);\nint core_fn(void) { return run_fn(); }\n' >"$L/src/core/low.c"
printf 'int core_fn(void);\nint run_fn(void);\nint run_fn(void) { return core_fn() + 1; }\n' >"$L/src/run/high.c"
printf 'int board_fn(void);\nint um_fn(void);\nint um_fn(void) { return board_fn(); }\n' >"$L/meters/um/um.c"
printf 'int board_fn(void);\nint board_fn(void) { return 2; }\n' >"$L/meters/board/board.c"
printf 'extern const int source_rpi_volt;\nconst int source_rpi_volt = 1;\n' >"$L/src/sources/rpi_volt/rv.c"
printf 'extern const int source_rpi_volt;\nint thr_fn(void);\nint thr_fn(void) { return source_rpi_volt; }\n' \
	>"$L/src/sources/get_throttled/thr.c"
printf 'extern const int source_rpi_volt;\nconst int *const reg[] = { &source_rpi_volt };\n' \
	>"$L/src/sources/registry/reg.c"
built=0
for f in src/core/low src/run/high meters/um/um meters/board/board src/sources/rpi_volt/rv \
	src/sources/get_throttled/thr src/sources/registry/reg; do
	mkdir -p "$(dirname "$L/obj/$f")"
	${CC:-cc} -c -o "$L/obj/$f.o" "$L/$f.c" || built=1
done
python3 "$REPO/scripts/check-layers.py" "$L" --objects "$L/obj" >"$T_TMP/links.out" 2>&1
rc=$?
[ $built -eq 0 ] && [ $rc -ne 0 ] &&
	grep -qx 'not ok - src/core/low.c -> src/run/high.c (run_fn)' "$T_TMP/links.out"
st=$?
ok $st "a link from core up to run is reported"
[ $st -eq 0 ] || sed 's/^/#   /' "$T_TMP/links.out"
grep -qx 'not ok - meters/um/um.c -> meters/board/board.c (board_fn)' "$T_TMP/links.out"
ok $? "a driver linking to another driver's folder is reported"
grep -qx 'not ok - src/sources/get_throttled/thr.c -> src/sources/rpi_volt/rv.c (source_rpi_volt)' \
	"$T_TMP/links.out"
ok $? "a source naming another source's driver is reported"
! grep -q 'src/sources/registry/reg.c ->' "$T_TMP/links.out"
ok $? "the source registry naming a source is not reported"
! grep -q 'src/run/high.c -> src/core/low.c' "$T_TMP/links.out"
ok $? "a link from run down to core is not reported"

done_testing
