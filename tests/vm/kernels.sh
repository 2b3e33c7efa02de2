#!/bin/sh
# Prints the kernels the VM tests and benchmarks run on: the newest
# installed headers of each Debian LTS series (6.1, 6.12), or of the
# series given. A machine may keep older headers from earlier upgrades;
# those are left out, so every run tests the kernels setup.sh pinned
# linux-source for. Usage: kernels.sh [SERIES...]
[ $# -gt 0 ] || set -- 6.1 6.12
for s in "$@"; do
	ls -d /usr/src/linux-headers-"$s".*-amd64 2>/dev/null | sed 's|/usr/src/linux-headers-||' |
		sort -V | tail -n 1
done
