#!/usr/bin/env bash
# For every command, --help, the man page's section and bash completion offer the same
# options (the same short letters too), and the parser accepts each of them.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
COMP=dist/bash-completion/iowatt
MAN=$T_TMP/iowatt.1
"$IOWATT" help --man >"$MAN"

# Options as "NAME" or "NAME -X" lines, one spelling (dashes), sorted.
norm() { tr '_' '-' | sort -u; }
help_opts() { # command
	"$IOWATT" "$1" --help | sed -nE 's/^  -([a-zA-Z]), --([a-z][a-z0-9_-]*).*/\2 -\1/p; s/^      --([a-z][a-z0-9_-]*).*/\1/p' | norm
}
man_section() { # command [page]: the lines of its .SH "IOWATT COMMAND" section
	local up
	up=$(echo "$1" | tr 'a-z' 'A-Z')
	awk -v h=".SH \"IOWATT $up\"" '$0 == h { on = 1; next } /^\.SH/ { on = 0 } on' "${2:-$MAN}"
}
man_opts() { # command [page]
	man_section "$@" | sed -E 's/\\-/-/g' |
		sed -nE 's/^\\fB-([a-zA-Z])\\fR, \\fB--([a-z0-9_-]+)\\fR.*/\2 -\1/p; s/^\\fB--([a-z0-9_-]+)\\fR.*/\1/p' | norm
}
complete_words() { # words...: COMPREPLY for the last word, as bash completion gives it
	PATH=$(dirname "$IOWATT"):$PATH bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iowatt; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$COMP" "$@" 2>/dev/null
}
comp_opts() { # command: names only (completion offers long options)
	complete_words iowatt "$1" -- | sed -n 's/^--//p' | norm
}
names() { cut -d' ' -f1 | sort -u; }

# agree CMD HELP MAN COMP: 0 when the three lists match and are not empty.
agree() {
	local cmd=$1 h=$2 m=$3 c=$4
	[ -s "$h" ] || { echo "#   $cmd: --help lists no options"; return 1; }
	cmp -s "$h" "$m" || { echo "#   $cmd: --help and man differ:"; diff "$h" "$m" | sed 's/^/#     /' | head -n 8; return 1; }
	names <"$h" | cmp -s - "$c" || { echo "#   $cmd: --help and completion differ:"; names <"$h" | diff - "$c" | sed 's/^/#     /' | head -n 8; return 1; }
	return 0
}

# A value each option takes: its first allowed value in the man page ("NAME VALUE" lines).
choices() { # command
	man_section "$1" | sed -E 's/\\-/-/g' | awk '
		/^\\fB(-[a-zA-Z]\\fR, \\fB)?--/ { o = $0; sub(/^.*\\fB--/, "", o); sub(/\\fR.*/, "", o); next }
		/^\.B / && o != "" && !(o in seen) { seen[o] = 1; print o, $2 }'
}
value_for() { # option: from $T_TMP/choices, else a number
	local v
	v=$(awk -v o="$1" '$1 == o { print $2; exit }' "$T_TMP/choices")
	echo "${v:-1}"
}

# accepts CMD ARGS...: the parser knows the option: --help at the end runs nothing, an
# unknown option says so, and a refused value names its option.
accepts() {
	local cmd=$1 rc
	shift
	timeout 20 "$IOWATT" "$cmd" "$@" --help >/dev/null 2>"$T_TMP/acc.err"
	rc=$?
	! grep -q "unknown option" "$T_TMP/acc.err" &&
		{ [ $rc -eq 0 ] || grep -q -- "$1" "$T_TMP/acc.err"; }
}

for cmd in $("$IOWATT" help --complete commands); do
	help_opts "$cmd" >"$T_TMP/$cmd.help"
	man_opts "$cmd" >"$T_TMP/$cmd.man"
	comp_opts "$cmd" >"$T_TMP/$cmd.comp"
	agree "$cmd" "$T_TMP/$cmd.help" "$T_TMP/$cmd.man" "$T_TMP/$cmd.comp"
	ok $? "$cmd: --help, man and completion list the same $(wc -l <"$T_TMP/$cmd.help") options"

	# Each option is the parser's: with a value it takes (or one it refuses by name),
	# then --help, so nothing runs. Unknown would say so; refused must name it.
	# Every option with a value at once; one by one only if that is refused.
	"$IOWATT" "$cmd" --help >"$T_TMP/$cmd.text"
	choices "$cmd" >"$T_TMP/choices"
	all=()
	for o in $(names <"$T_TMP/$cmd.help"); do
		[ "$o" = help ] && continue
		# "--name VALUE" takes the next word; "--name" and "--name[=VALUE]" do not
		if grep -qE -- "^(  -[a-zA-Z], |      )--${o//-/[-_]} [^ ]" "$T_TMP/$cmd.text"; then
			all+=("--$o" "$(value_for "$o")")
		else
			all+=("--$o")
		fi
	done
	bad=
	if ! accepts "$cmd" "${all[@]}"; then
		echo "# $cmd: all at once refused: $(head -c 300 "$T_TMP/acc.err")"
		for ((i = 0; i < ${#all[@]}; i++)); do
			args=("${all[i]}")
			[[ ${all[i + 1]:-} != --* ]] && [ $((i + 1)) -lt ${#all[@]} ] && args+=("${all[++i]}")
			accepts "$cmd" "${args[@]}" || bad="$bad ${args[*]}"
		done
	fi
	[ -z "$bad" ]
	ok $? "$cmd: the parser takes every option it lists${bad:+; not:$bad}"
done

# The check itself can fail: a man section missing one option, or with one more.
cmd=probe
man_section $cmd >/dev/null
sed '/^\\fB\\-\\-csv\\fR/d' "$MAN" >"$T_TMP/less.1"
man_opts $cmd "$T_TMP/less.1" >"$T_TMP/less.man"
! agree $cmd "$T_TMP/$cmd.help" "$T_TMP/less.man" "$T_TMP/$cmd.comp" >/dev/null
ok $? "a man page that lost --csv of $cmd fails the check"
{ cat "$T_TMP/$cmd.comp"; echo no-such-option; } | sort -u >"$T_TMP/more.comp"
! agree $cmd "$T_TMP/$cmd.help" "$T_TMP/$cmd.man" "$T_TMP/more.comp" >/dev/null
ok $? "completion offering an option --help lacks fails the check"

# Every command has its man section.
for cmd in $("$IOWATT" help --complete commands); do
	[ -n "$(man_section "$cmd")" ] || { echo "#   no section for $cmd"; false; }
done
ok $? "the man page has a section per command"

# help names what it does not know and exits 2, as an unknown command does.
"$IOWATT" help nosuch >"$T_TMP/help.out" 2>"$T_TMP/help.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "no command 'nosuch'" "$T_TMP/help.err" && [ ! -s "$T_TMP/help.out" ]
ok $? "help with an unknown command exits 2 and names it (rc $rc)"

done_testing
