#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The documents name only paths that exist: every file README.md and docs/*.md link to or
# name in backquotes is in the tree (scripts/check-doc-paths.py), so a move cannot leave
# a guide pointing nowhere.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1

docs=(README.md docs/*.md)
python3 scripts/check-doc-paths.py "$REPO" "${docs[@]}" >"$T_TMP/paths.out" 2>&1
rc=$?
grep -v "paths named" "$T_TMP/paths.out" | sed 's/^/# /'
ok $rc "every path named in README.md and docs/*.md is in the tree ($(tail -n 1 "$T_TMP/paths.out"))"

# The README is the way in: it links the guides and the architecture.
for d in docs/user-guide.md docs/developer-guide.md docs/architecture.md; do
	[ -f "$d" ] && grep -qF "]($d)" README.md
	ok $? "README.md links $d"
done

# The check itself must catch a stale path of each kind, and pass the live ones.
mkdir -p "$T_TMP/docs"
: >"$T_TMP/docs/live.md"
cat >"$T_TMP/docs/stale.md" <<'EOF'
Live: `src/cli/main.c`, `energy/energy.c`, `plots/*.gp`, `meters/<family>/`, [a page](live.md).
Stale: `src/core/no_such_file.c`, `run/no_such.h`, `tests/no_such_dir/*.sh`,
[gone](no-such-page.md).
```
$ tests/t_no_such_test.sh
```
EOF
python3 scripts/check-doc-paths.py "$REPO" "$T_TMP/docs/stale.md" >"$T_TMP/stale.out" 2>&1
rc=$?
missing=""
for w in src/core/no_such_file.c run/no_such.h "tests/no_such_dir/*.sh" no-such-page.md \
	tests/t_no_such_test.sh; do
	grep -qF " $w is not in the tree" "$T_TMP/stale.out" || missing="$missing $w"
done
[ $rc -ne 0 ] && [ -z "$missing" ] && grep -qx "9 paths named, 5 not in the tree" "$T_TMP/stale.out"
ok $? "a stale path of each kind is reported, and only those${missing:+ (not reported:$missing)}"
[ $rc -ne 0 ] && [ -z "$missing" ] || sed 's/^/# /' "$T_TMP/stale.out"

done_testing
