#!/usr/bin/env bash
# Installs the Debian 12 packages iowatt needs: --runtime for running, --fleet for the
# labgrid test alone, default everything for the tests.
set -eu
runtime="build-essential pkg-config libaio-dev liburing-dev libinih-dev libjansson-dev libblkid-dev libserialport-dev libgpiod-dev nettle-dev libsigrok-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libseccomp-dev gnuplot-nox"
testing="umockdev libumockdev-dev libglib2.0-dev fio socat sigrok-cli ser2net e2fsprogs util-linux mount python3 procps groff-base chromium clang libclang-rt-dev"
# The labgrid fleet test (tests/cli/t_labgrid.sh): Debian's labgrid 0.4.1 (its coordinator
# runs on contrib/labgrid/wamp-router.py), ser2net for the exporter, sshd for the boards;
# python3-yaml also reads contrib/lava/iowatt.yaml (tests/cli/t_lava.sh).
fleet="python3-labgrid python3-pytest python3-yaml ser2net openssh-server openssh-client"
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
echo "iowatt: installing:$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
