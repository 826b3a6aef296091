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

done_testing
