#!/bin/sh
# Prints the kernels the VM tests and benchmarks run on: the newest
# installed headers of each Debian LTS series (6.1, 6.12) and of Debian's
# newest kernel (7.x, whose headers live in setup.sh's chroot:
# kernel/chroot.conf), or of the series given. A machine may keep older
# headers from earlier upgrades; those are left out, so every run tests
# the kernels setup.sh pinned linux-source for. Usage: kernels.sh [SERIES...]
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/kernel/chroot.conf"
[ $# -gt 0 ] || set -- 6.1 6.12 7
for s in "$@"; do
	ls -d /usr/src/linux-headers-"$s".*-amd64 "$ANTIC_CHROOT"/usr/src/linux-headers-"$s".*-amd64 2>/dev/null |
		sed 's|.*/linux-headers-||' | sort -V | tail -n 1
done
