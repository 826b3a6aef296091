#!/usr/bin/env bash
# Runs the README's `make demo` and `make check` in debootstrap chroots of other Debian systems.
#
#   tests/distros.sh -d DIR [-o docs/platforms.md] [-r] [-p] [-c] [-D | -C | -P] [SYSTEM...]
#
# SYSTEM is SUITE-ARCH (default: trixie-amd64 trixie-arm64 bookworm-armhf bookworm-arm64).
# Chroots are made once and cached in DIR; the tree is copied in afresh on every run. Foreign
# architectures run under qemu-user through binfmt_misc, with Debian 13's static qemu (10.x):
# Debian 12's qemu-user 7.2 runs aarch64 sanitizer binaries out of memory. Needs root, an
# amd64 host and the Debian mirror. Prints one line per system; -o writes them as Markdown.
# Each system's row is kept in DIR/logs, so -r writes the report from the last runs without
# running anything (systems measured by separate invocations, in parallel). The .deb is
# built (dpkg-buildpackage -b, then lintian) on amd64 systems; -p builds it under qemu too.
# -c only creates the chroots (debootstrap, qemu), to run them later one at a time.
# -D runs make demo only (a first look at a system: under qemu, make check takes hours);
# -C runs make check only, -P the package only (-p implied), keeping the other cells from
# the system's last row.
# Each test gets CHROOT_TEST_TIMEOUT s (600, as on the host) natively, QEMU_TEST_TIMEOUT s
# (1800) under qemu; tests/run.sh ends a hung test sooner, after TEST_IDLE s of silence.
set -u
cd "$(dirname "$0")/.."
TREE=$PWD
MIRROR=${MIRROR:-http://deb.debian.org/debian}
DIR=""
OUT=""
REPORT_ONLY=0
DEB_ALL=0
CREATE_ONLY=0
DEMO_ONLY=0
CHECK_ONLY=0
PKG_ONLY=0
while getopts "d:o:rpcDCPh" o; do
	case $o in
	d) DIR=$OPTARG ;;
	o) OUT=$OPTARG ;;
	r) REPORT_ONLY=1 ;;
	p) DEB_ALL=1 ;;
	c) CREATE_ONLY=1 ;;
	D) DEMO_ONLY=1 ;;
	C) CHECK_ONLY=1 ;;
	P) PKG_ONLY=1 ;;
	*) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$DIR" ] || { echo "distros.sh: -d DIR (where the chroots are kept) is required" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "distros.sh: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
[ "$(dpkg --print-architecture)" = amd64 ] || { echo "distros.sh: needs an amd64 host" >&2; exit 2; }
SYSTEMS=("$@")
[ ${#SYSTEMS[@]} -gt 0 ] || SYSTEMS=(trixie-amd64 trixie-arm64 bookworm-armhf bookworm-arm64)
mkdir -p "$DIR/logs"
DIR=$(cd "$DIR" && pwd)
# Packages every chroot gets at creation; make demo/check install the rest (tests/deps.sh).
BASE_PKGS=sudo,make,ca-certificates

say() { echo "distros: $*" >&2; }

host_tools() {
	command -v debootstrap >/dev/null && return 0
	say "installing debootstrap"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

# binfmt_misc entries for the foreign CPUs, pointing at trixie's static qemu. The F flag
# opens the interpreter now, so it runs inside any chroot without a copy there.
QEMU_DIR=$DIR/qemu
ELF_MASK='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
declare -A QEMU_CPU=([arm64]=aarch64 [armhf]=arm)
declare -A ELF_MAGIC=(
	[arm64]='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
	[armhf]='\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x28\x00')

qemu_ready() { # arch
	local cpu=${QEMU_CPU[$1]} bm=/proc/sys/fs/binfmt_misc
	[ -f $bm/register ] || mount -t binfmt_misc binfmt_misc $bm || {
		say "binfmt_misc is not available: cannot run $1"; return 1; }
	if [ ! -x "$QEMU_DIR/usr/bin/qemu-$cpu" ]; then
		make_chroot trixie-amd64 || return 1
		say "fetching Debian 13's qemu-user (static) through the trixie-amd64 chroot"
		rm -f "$DIR/trixie-amd64/tmp/"qemu-user_*.deb
		chroot "$DIR/trixie-amd64" sh -c 'cd /tmp && apt-get update -qq && apt-get download -qq qemu-user' ||
			return 1
		mkdir -p "$QEMU_DIR"
		dpkg-deb -x "$DIR"/trixie-amd64/tmp/qemu-user_*.deb "$QEMU_DIR" || return 1
	fi
	if [ ! -e "$bm/iowatt-$cpu" ]; then
		printf ':iowatt-%s:M::%s:%s:%s:F\n' "$cpu" "${ELF_MAGIC[$1]}" "$ELF_MASK" \
			"$QEMU_DIR/usr/bin/qemu-$cpu" >$bm/register || return 1
	fi
	echo 1 >"$bm/iowatt-$cpu"
}

make_chroot() { # system
	local sys=$1 suite=${1%-*} arch=${1##*-} root=$DIR/$1
	[ -f "$root/.iowatt-chroot" ] && return 0
	[ "$arch" = amd64 ] || qemu_ready "$arch" || return 1
	say "creating $sys (debootstrap $suite $arch)"
	rm -rf "$root"
	debootstrap --variant=minbase --arch="$arch" --include=$BASE_PKGS "$suite" "$root" "$MIRROR" \
		>"$DIR/logs/$sys-debootstrap.log" 2>&1 || { say "debootstrap failed: $DIR/logs/$sys-debootstrap.log"; return 1; }
	touch "$root/.iowatt-chroot"
}

# The chroot directory bind-mounted onto itself, so its /proc/self/mountinfo shows its
# root; /proc, /dev and /sys of the host for the tests (loop devices, sysfs, ptys).
mount_chroot() {
	local root=$1
	mountpoint -q "$root" || mount --bind "$root" "$root"
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
	mountpoint -q "$root/dev" || mount --rbind /dev "$root/dev"
	mountpoint -q "$root/sys" || mount --rbind /sys "$root/sys"
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
}

umount_chroot() {
	local root=$1 m
	for m in sys dev proc; do
		mountpoint -q "$root/$m" && umount -R "$root/$m" 2>/dev/null
	done
	# -R: with the mounts a test interrupted here left inside (its loop devices stay).
	mountpoint -q "$root" && umount -R "$root" 2>/dev/null
}

MOUNTED=()
cleanup() {
	local r
	for r in "${MOUNTED[@]}"; do umount_chroot "$r"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

copy_tree() { # root
	rm -rf "$1/root/iowatt"
	mkdir -p "$1/root/iowatt"
	(git ls-files -co --exclude-standard 2>/dev/null || find . -path ./.git -prune -o -type f -print) |
		tar -cf - -T - | tar -xf - -C "$1/root/iowatt"
}

# dpkg-buildpackage -b in the chroot, then lintian: "iowatt_V_A.deb, N KiB, lintian: ...".
build_deb() { # root log
	chroot "$1" /usr/bin/env DEBIAN_FRONTEND=noninteractive bash -c '
		apt-get install -y -qq --no-install-recommends debhelper lintian groff-base >/dev/null &&
		rm -rf /root/deb && mkdir -p /root/deb && cp -a /root/iowatt /root/deb/iowatt &&
		cd /root/deb/iowatt && rm -rf build build-san iowatt &&
		dpkg-buildpackage -b -us -uc' >"$2" 2>&1 || { echo "**dpkg-buildpackage failed**"; return; }
	local f
	f=$(cd "$1/root/deb" && ls iowatt_*.deb | head -n 1)
	chroot "$1" bash -c "cd /root/deb && lintian --fail-on error ${f%.deb}*.changes" >>"$2" 2>&1
	echo "$f, $(($(stat -c %s "$1/root/deb/$f") / 1024)) KiB, lintian: $(grep -cE '^E: ' "$2") errors, $(grep -cE '^W: ' "$2") warnings"
}

# A cell of the system's last row, for a run that does not measure it again (-C, -P),
# marked with the tree it was measured on unless it already is.
last_cell() { # system column
	local c
	c=$(awk -F' [|] ' -v n="$2" 'NR == 1 { print $n }' "$DIR/logs/$1.row" 2>/dev/null)
	case $c in
	"" | not\ run* | not\ built*) echo "not run" ;;
	*"(tree "*) echo "$c" ;;
	*) echo "$c (tree $(cut -d' ' -f1 "$DIR/logs/$1.tree" 2>/dev/null))" ;;
	esac
}

# The figures of one log: "N passed, N failed, N skipped".
counts() { grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1; }

RESULTS=()
SKIPS=()
SKIPS_ALL=()
TREES=()
run_system() {
	local sys=$1 arch=${1##*-} root=$DIR/$1 env t0 demo check line dlog clog deb tree
	host_tools || return 1
	if ! make_chroot "$sys"; then
		RESULTS+=("| $sys | chroot failed | - | - |")
		return 1
	fi
	[ "$arch" = amd64 ] || qemu_ready "$arch" || { RESULTS+=("| $sys | no qemu | - | - |"); return 1; }
	mount_chroot "$root"
	MOUNTED+=("$root")
	copy_tree "$root"
	# The tree as copied: the run takes hours, and the working tree may move meanwhile.
	tree="$(git -C "$TREE" describe --always --dirty 2>/dev/null) $(date -u +%Y-%m-%d)"
	# Under qemu-user LeakSanitizer cannot stop the threads it scans (no ptrace) and each
	# test runs many times slower: leak checks off, longer per-test timeout. Natively the
	# bound is the host's (600 s): it is there to end hangs, which TEST_IDLE's silence
	# check ends sooner, not to time tests; a fixed 150 s cut t_netserial (166 s on the
	# host, a working test) in the Debian 13 chroot.
	env="IOWATT_CHROOT=1 TEST_TIMEOUT=${CHROOT_TEST_TIMEOUT:-600}"
	if [ "$arch" != amd64 ]; then
		env="$env ASAN_OPTIONS=detect_leaks=0 TEST_TIMEOUT=${QEMU_TEST_TIMEOUT:-1800}"
		SKIPS+=("$sys: LeakSanitizer off (ASAN_OPTIONS=detect_leaks=0): it cannot run under qemu-user")
	fi
	dlog=$DIR/logs/$sys-demo.log
	clog=$DIR/logs/$sys-check.log
	if [ $CHECK_ONLY -eq 1 ] || [ $PKG_ONLY -eq 1 ]; then
		demo=$(last_cell "$sys" 2)
	else
		say "$sys: make demo (log $dlog)"
		t0=$(date +%s)
		if chroot "$root" /usr/bin/env $env bash -c 'cd /root/iowatt && make demo' >"$dlog" 2>&1; then
			demo="ok ($(($(date +%s) - t0)) s)"
		else
			demo="**failed** ($(($(date +%s) - t0)) s)"
		fi
	fi
	if [ $DEMO_ONLY -eq 1 ]; then
		check="not run (-D)"
		deb="not built (-D)"
		: >"$clog"
	elif [ $PKG_ONLY -eq 1 ]; then
		check=$(last_cell "$sys" 3)
		say "$sys: dpkg-buildpackage -b (log $DIR/logs/$sys-deb.log)"
		deb=$(build_deb "$root" "$DIR/logs/$sys-deb.log")
	else
		say "$sys: make check (log $clog)"
		t0=$(date +%s)
		chroot "$root" /usr/bin/env $env bash -c 'cd /root/iowatt && make check' >"$clog" 2>&1
		line=$(counts "$clog")
		check="${line:-**no result**} ($(($(date +%s) - t0)) s)"
		grep -qE '^FAIL ' "$clog" && check="$check; failed: $(sed -nE 's/^FAIL ([^ ]+).*/\1/p' "$clog" | tr '\n' ' ')"
		deb="not built under qemu (-p builds it)"
		[ "$arch" != amd64 ] && [ $DEB_ALL -eq 0 ] || deb=$(build_deb "$root" "$DIR/logs/$sys-deb.log")
	fi
	# Every skip with its reason, once per test and reason.
	while IFS= read -r l; do SKIPS+=("$sys: $l"); done < <(
		awk '/^ok   [^ ]+ \(.*skipped/ { t = $2; next }
		     /^    / && t != "" { sub(/^    (# )?/, ""); sub(/^skip /, ""); print t ": " $0; next }
		     { t = "" }' "$clog" | sed -E 's/^([^:]+): [0-9]+ # skip /\1: /' | sort -u)
	echo "| $sys | $demo | $check | $deb |" >"$DIR/logs/$sys.row"
	printf '%s\n' "${SKIPS[@]}" | grep "^$sys: " >"$DIR/logs/$sys.skips"
	echo "$tree" >"$DIR/logs/$sys.tree"
	echo "$sys: make demo $demo; make check $check; package $deb"
	umount_chroot "$root"
}

for s in "${SYSTEMS[@]}"; do
	case $s in
	*-amd64 | *-arm64 | *-armhf) if [ $CREATE_ONLY -eq 1 ]; then
		host_tools && make_chroot "$s" && say "$s: chroot ready in $DIR/$s"
	elif [ $REPORT_ONLY -eq 0 ]; then run_system "$s"; fi ;;
	*) say "unknown system $s (SUITE-ARCH, ARCH one of amd64 arm64 armhf)" ;;
	esac
done
for s in "${SYSTEMS[@]}"; do
	[ -f "$DIR/logs/$s.row" ] || continue
	RESULTS+=("$(cat "$DIR/logs/$s.row")")
	TREES+=("$s: $(cat "$DIR/logs/$s.tree" 2>/dev/null)")
	while IFS= read -r l; do [ -n "$l" ] && SKIPS_ALL+=("$l"); done <"$DIR/logs/$s.skips"
done

report() {
	echo "# Platforms"
	echo
	echo "Measured $(date -u +%Y-%m-%d) with \`tests/distros.sh\` (debootstrap chroots on a Debian"
	echo "$(cat /etc/debian_version) amd64 host, kernel $(uname -r); arm64 and armhf under qemu-user"
	echo "$("$QEMU_DIR/usr/bin/qemu-aarch64" --version 2>/dev/null | head -n 1 | sed 's/ (.*//')). Tree and day of each run: $(IFS=';'; echo "${TREES[*]}" | sed 's/;/; /g')."
	echo
	echo "| system | \`make demo\` | \`make check\` | \`dpkg-buildpackage -b\` |"
	echo "|---|---|---|---|"
	printf '%s\n' "${RESULTS[@]}"
	echo
	echo "## Skipped, with the reason"
	echo
	if [ ${#SKIPS_ALL[@]} -eq 0 ]; then echo "Nothing skipped."; else printf -- '- %s\n' "${SKIPS_ALL[@]}"; fi
}
if [ -n "$OUT" ]; then
	report >"$OUT"
	say "wrote $OUT"
fi
