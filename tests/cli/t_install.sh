#!/usr/bin/env bash
# make install/uninstall into a DESTDIR, the man page from the option tables, bash completion.
. "$(dirname "$0")/../lib/lib.sh"

# The prefix the build under test was made with: another one would change config.h and
# rebuild it (without the sanitizers) under the tests that follow. The .deb's PREFIX=/usr
# is built and checked by dpkg-buildpackage in tests/distros.sh.
D=$T_TMP/root
P=usr/local
MK=(make -s -C "$REPO" O="${O:-build}" PREFIX=/$P DESTDIR="$D")
before=$(stat -c %Y "$REPO/${O:-build}/config.h" 2>/dev/null)
check "make install PREFIX=/usr/local DESTDIR=... succeeds" -- "${MK[@]}" install
[ "$(stat -c %Y "$REPO/${O:-build}/config.h" 2>/dev/null)" = "$before" ]
ok $? "installing does not reconfigure the build"
for f in $P/bin/iowatt $P/share/man/man1/iowatt.1 $P/share/bash-completion/completions/iowatt \
	$P/share/iowatt/configs/quick.ini $P/share/iowatt/plots/timeline.gp \
	etc/udev/rules.d/60-iowatt.rules $P/share/metainfo/io.github.iowatt.metainfo.xml; do
	[ -f "$D/$f" ]
	ok $? "installs /$f"
done
[ -x "$D/$P/bin/iowatt" ] && [ ! -x "$D/$P/share/iowatt/configs/quick.ini" ]
ok $? "the binary is executable, data files are not"

# The installed binary finds the installed profiles (../share/iowatt/configs from bin/).
"$D/$P/bin/iowatt" help --complete profiles >"$T_TMP/profiles" 2>&1
grep -qx quick "$T_TMP/profiles"
ok $? "the installed binary lists the installed profiles"

# Every option `iowatt run --help` prints is in the man page's section of run, and nothing
# else is (t_options_agree.sh checks every command's section, and completion, alike).
man1=$D/$P/share/man/man1/iowatt.1
"$IOWATT" run --help | grep -oE -- '^(  -[a-z], |      )--[a-z][a-z0-9_-]*' | sed -E 's/.*--//' | sort -u >"$T_TMP/help.opts"
awk '$0 == ".SH \"IOWATT RUN\"" { on = 1; next } /^\.SH/ { on = 0 } on' "$man1" |
	sed -nE 's/^(\\fB\\-[a-z]\\fR, )?\\fB\\-\\-([a-z0-9_\\-]+)\\fR.*/\2/p' | sed 's/\\-/-/g' | sort -u >"$T_TMP/man.opts"
[ -s "$T_TMP/help.opts" ] && cmp -s "$T_TMP/help.opts" "$T_TMP/man.opts"
same=$?
ok $same "the man page's run section lists exactly the options of run --help ($(wc -l <"$T_TMP/help.opts") options)"
[ $same -eq 0 ] || diff "$T_TMP/help.opts" "$T_TMP/man.opts" | head -n 10 | sed 's/^/#   /'
for c in $("$IOWATT" help --complete commands); do
	grep -q "^\.B $c\$" "$man1" || { echo "# $c missing"; false; }
done
ok $? "the man page has every command"
grep -q "^\.TH IOWATT 1 .*$("$IOWATT" --version | cut -d' ' -f2)" "$man1"
ok $? "the man page carries the version"
if command -v groff >/dev/null; then
	groff -man -ww -z "$man1" >"$T_TMP/groff.out" 2>&1
	[ ! -s "$T_TMP/groff.out" ]
	ok $? "groff reads the man page without a warning"
	sed 's/^/#   /' "$T_TMP/groff.out" | head -n 5
else
	skip "groff is not installed: man page syntax not checked"
fi

# Bash completion, as bash calls it.
complete_words() { # words...: prints COMPREPLY for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iowatt; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$D/$P/share/bash-completion/completions/iowatt" "$@"
}
PATH=$D/$P/bin:$PATH complete_words iowatt r | grep -qx run
ok $? "completion: iowatt r<TAB> gives run"
PATH=$D/$P/bin:$PATH complete_words iowatt run --meter um2 | grep -qx 'um25c:'
ok $? "completion: --meter um2<TAB> gives the driver um25c:"
PATH=$D/$P/bin:$PATH complete_words iowatt run qu | grep -qx quick
ok $? "completion: iowatt run qu<TAB> gives the shipped profile quick"
PATH=$D/$P/bin:$PATH complete_words iowatt run --rate-i | grep -qx -- --rate-iops
ok $? "completion: run's options from the binary's table, with dashes"

grep -q 'SUBSYSTEM=="gpio".*GROUP="gpio"' "$D/etc/udev/rules.d/60-iowatt.rules" &&
	grep -q 'SUBSYSTEM=="hidraw".*2e3c.*GROUP="plugdev"' "$D/etc/udev/rules.d/60-iowatt.rules"
ok $? "udev rules: GPIO chips to gpio, FNIRSI hidraw to plugdev"

check "make uninstall succeeds" -- "${MK[@]}" uninstall
left=$(find "$D" -type f | sed "s|^$D||")
[ -z "$left" ]
ok $? "uninstall removes every installed file${left:+ (left: $left)}"

done_testing
