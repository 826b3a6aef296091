#!/usr/bin/env bash
# For every meter driver, `iowatt meters --help`, the man page and bash completion of a spec
# offer the same keys, and the spec parser takes each with a value help shows for it.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
COMP=dist/bash-completion/iowatt
"$IOWATT" meters --help >"$T_TMP/help"
"$IOWATT" help --man >"$T_TMP/iowatt.1"

# "DRIVER KEY" lines of a drivers listing: a driver's "  NAME: ..." heading, then the
# "      key=VALUE" lines under its "    keys:" (man: troff's escaped dashes undone).
listed_keys() { # file
	sed -E 's/\\-/-/g; s/^\\&//' "$1" | awk '
		/^  [a-z0-9_]+: / { drv = $1; sub(/:$/, "", drv); keys = 0; next }
		/^    keys:$/ { keys = 1; next }
		/^    [a-z]/ { keys = 0 }
		keys && /^      [a-z][a-z0-9_]*=/ { k = $1; sub(/=.*/, "", k); print drv, k }' | sort -u
}
complete_words() { # words...: COMPREPLY for the last word, as bash completion gives it
	PATH=$(dirname "$IOWATT"):$PATH bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iowatt; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$COMP" "$@" 2>/dev/null
}

listed_keys "$T_TMP/help" >"$T_TMP/help.keys"
awk '$0 == ".SH \"IOWATT METERS\"" { on = 1; next } /^\.SH/ { on = 0 } on' "$T_TMP/iowatt.1" \
	>"$T_TMP/meters.1"
listed_keys "$T_TMP/meters.1" >"$T_TMP/man.keys"
drivers=$("$IOWATT" help --complete meters | sed 's/:$//')
: >"$T_TMP/comp.keys"
for drv in $drivers; do
	complete_words iowatt probe --meter "$drv:x," |
		sed -nE "s/^$drv:x,([a-z0-9_]+)=$/$drv \1/p" >>"$T_TMP/comp.keys"
done
sort -u -o "$T_TMP/comp.keys" "$T_TMP/comp.keys"

[ "$(cut -d' ' -f1 "$T_TMP/help.keys" | sort -u | wc -l)" -ge 10 ]
ok $? "--help lists the keys of $(cut -d' ' -f1 "$T_TMP/help.keys" | sort -u | wc -l) drivers ($(wc -l <"$T_TMP/help.keys") keys)"
diff "$T_TMP/help.keys" "$T_TMP/man.keys" >"$T_TMP/d1"
ok $? "the man page lists the same keys$(sed 's/^/; /' "$T_TMP/d1" | head -n 4 | tr -d '\n')"
diff "$T_TMP/help.keys" "$T_TMP/comp.keys" >"$T_TMP/d2"
ok $? "completion offers the same keys$(sed 's/^/; /' "$T_TMP/d2" | head -n 4 | tr -d '\n')"

# A value help shows for a key: its default, else its first choice, else the low end of its
# range, else 1 (numbers) or x (text).
value_of() { # DRIVER KEY
	sed -E 's/\\-/-/g' "$T_TMP/help" | awk -v d="$1" -v k="$2" '
		/^  [a-z0-9_]+: / { drv = $1; sub(/:$/, "", drv); next }
		drv == d && index($1, k "=") == 1 {
			v = substr($1, length(k) + 2)
			if (match($0, /default [^ ;)]+/)) { print substr($0, RSTART + 8, RLENGTH - 8); exit }
			if (v ~ /\|/) { split(v, c, "|"); print c[1]; exit }
			if (match($0, /[(; ][0-9.]+[a-z]*\.\./)) { print substr($0, RSTART + 1, RLENGTH - 3); exit }
			print (v ~ /^(TEXT|PATH)$/) ? "x" : "1"; exit
		}'
}
# conn DRIVER: what follows the colon; a driver that takes none gets its keys alone.
conn_of() {
	grep -qE "^    spec: $1:key=value" "$T_TMP/help" && return
	printf 'x,'
}

bad=
n=0
for drv in $drivers; do
	spec="$drv:$(conn_of "$drv")"
	for k in $(awk -v d="$drv" '$1 == d { print $2 }' "$T_TMP/help.keys"); do
		spec="$spec$k=$(value_of "$drv" "$k"),"
		n=$((n + 1))
	done
	spec=${spec%,}
	timeout 20 "$IOWATT" probe --meter "$spec" --seconds 1 --sysfs-root "$T_TMP/none" \
		>/dev/null 2>"$T_TMP/err"
	# the spec parser's refusals: a key it does not know, or a value it does not take
	if grep -qE "unknown key|does not apply|given twice|not key=value|: [a-z_]+=[^ ]*: " "$T_TMP/err"; then
		bad="$bad $spec ($(head -c 200 "$T_TMP/err"))"
	fi
done
[ -z "$bad" ]
ok $? "the parser takes each of the $n keys with the value help shows${bad:+; not:$bad}"

# The check can fail: a key help lacks.
{ cat "$T_TMP/help.keys"; echo "um25c no_such_key"; } | sort -u | diff -q - "$T_TMP/comp.keys" >/dev/null
[ $? -ne 0 ]
ok $? "a key one listing lacks fails the comparison"
"$IOWATT" probe --meter "um25c:x,no_such_key=1" --seconds 1 >/dev/null 2>"$T_TMP/err"
grep -q "unknown key" "$T_TMP/err"
ok $? "... and the parser's refusal is seen"

done_testing
