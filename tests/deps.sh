#!/usr/bin/env bash
# Installs the Debian packages iowatt needs (12 and 13): --runtime for running, --fleet for
# the labgrid test alone, default everything for the tests.
set -eu
runtime="build-essential pkg-config libaio-dev liburing-dev libinih-dev libjansson-dev libblkid-dev libserialport-dev libgpiod-dev nettle-dev libsigrok-dev libzip-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libseccomp-dev gnuplot-nox"
testing="umockdev libumockdev-dev libglib2.0-dev fio socat sigrok-cli ser2net iproute2 python3-serial e2fsprogs util-linux mount python3 procps groff-base chromium clang libclang-rt-dev"
# The labgrid fleet test (tests/cli/t_labgrid.sh): Debian 12's labgrid 0.4.1 (its coordinator
# runs on contrib/labgrid/wamp-router.py, python3-autobahn, also in t_wamp_router.sh),
# ser2net for the exporter, sshd for the boards; python3-yaml also reads
# contrib/lava/iowatt.yaml (tests/cli/t_lava.sh). Debian 13 has no python3-labgrid: it is
# skipped below and the labgrid test says so.
fleet="python3-labgrid python3-autobahn python3-pytest python3-yaml ser2net openssh-server openssh-client"
want="$runtime $testing $fleet"
case "${1:-}" in
--runtime) want=$runtime ;;
--fleet) want=$fleet ;;
esac
missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
# What this system's archive does not have is skipped, by name, rather than failing the
# whole install: the tests that need it skip with their reason.
have="" absent=""
for p in $missing; do
	cand=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	if [ -n "$cand" ] && [ "$cand" != "(none)" ]; then have="$have $p"; else absent="$absent $p"; fi
done
[ -z "$absent" ] || echo "iowatt: not in this system's archive, skipped:$absent"
[ -z "$have" ] && exit 0
echo "iowatt: installing:$have"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $have >/dev/null
