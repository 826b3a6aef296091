#!/usr/bin/env bash
# Completion after `--meter DRIVER:`: a serial driver's connections are the ports `iowatt
# meters` lists and the ser2net prefixes rfc2217:// and tcp://; other drivers get neither.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
COMP=dist/bash-completion/iowatt
complete_words() { # words...: COMPREPLY for the last word, as bash completion gives it
	PATH=$(dirname "$IOWATT"):$PATH bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iowatt; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$COMP" "$@" 2>/dev/null
}

# The ports `iowatt meters` lists under "Serial ports:" (none on a machine without any).
"$IOWATT" meters 2>/dev/null | awk '/^Serial ports:/ { on = 1; next } /^[A-Z]/ { on = 0 }
	on && /^  \/dev\// { print $1 }' >"$T_TMP/ports"
drivers=$("$IOWATT" help --complete meters | sed 's/:$//')
for drv in um25c atorch tc66c; do
	case " $(echo $drivers) " in *" $drv "*) ;; *) skip "$drv not built"; continue ;; esac
	"$IOWATT" help --complete-words 3 iowatt run --meter "$drv:" >"$T_TMP/$drv.words"
	grep -qx "$drv:rfc2217://" "$T_TMP/$drv.words" && grep -qx "$drv:tcp://" "$T_TMP/$drv.words" &&
		grep -qx "@nospace" "$T_TMP/$drv.words"
	ok $? "$drv: offers rfc2217:// and tcp:// without a space after"
	missing=$(while read -r p; do grep -qx "$drv:$p" "$T_TMP/$drv.words" || echo "$p"; done <"$T_TMP/ports")
	[ -z "$missing" ]
	ok $? "$drv: offers the $(wc -l <"$T_TMP/ports") port(s) iowatt meters lists$([ -n "$missing" ] && echo "; missing $missing")"
done
"$IOWATT" help --complete-words 3 iowatt run --meter hwmon: >"$T_TMP/hwmon.words"
! grep -q "rfc2217://\|tcp://" "$T_TMP/hwmon.words"
ok $? "hwmon (not serial): no network prefixes"
complete_words iowatt probe --meter um25c: >"$T_TMP/bash.words"
grep -qx "rfc2217://\|um25c:rfc2217://" "$T_TMP/bash.words"
ok $? "bash completion of 'probe --meter um25c:' offers rfc2217:// ($(tr '\n' ' ' <"$T_TMP/bash.words"))"

# Words iowatt answers with reach bash as text: a port or label named like a command
# substitution is offered as it is and runs nothing (compgen -W would expand it).
mkdir -p "$T_TMP/fake"
cat >"$T_TMP/fake/iowatt" <<SH
#!/bin/sh
printf '%s\n' 'um25c:/dev/\$(touch $T_TMP/PWNED)' 'um25c:\`touch $T_TMP/PWNED\`' 'um25c:\$HOME' 'um25c:a b'
SH
chmod +x "$T_TMP/fake/iowatt"
PATH=$T_TMP/fake:$PATH bash -c '. "$1"; COMP_WORDS=(iowatt run --meter um25c:); COMP_CWORD=3; _iowatt; printf "%s\n" "${COMPREPLY[@]}"' \
	_ "$COMP" >"$T_TMP/hostile.words" 2>&1
[ ! -e "$T_TMP/PWNED" ] && [ "$(wc -l <"$T_TMP/hostile.words")" -eq 4 ] &&
	grep -qxF 'um25c:$HOME' "$T_TMP/hostile.words" && grep -qxF 'um25c:a b' "$T_TMP/hostile.words" &&
	grep -qF 'um25c:/dev/$(touch' "$T_TMP/hostile.words"
ok $? "words with \$(...), backquotes, \$VAR and a space come back as text, nothing runs ($(tr '\n' '|' <"$T_TMP/hostile.words"))"

done_testing
