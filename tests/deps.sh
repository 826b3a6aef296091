#!/usr/bin/env bash
# Installs the Debian 12 packages iowatt needs: --runtime for running, default also for tests.
set -eu
runtime="build-essential pkg-config libaio-dev liburing-dev libinih-dev libjansson-dev libblkid-dev libserialport-dev libgpiod-dev nettle-dev libsigrok-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libseccomp-dev gnuplot-nox"
testing="umockdev libumockdev-dev libglib2.0-dev fio socat sigrok-cli ser2net e2fsprogs util-linux mount python3 procps groff-base chromium clang libclang-rt-dev"
want=$runtime
[ "${1:-}" = "--runtime" ] || want="$runtime $testing"
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
