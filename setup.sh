#!/bin/sh
# Installs what the demo and the tests need on Debian 12: a C toolchain
# for the simulator; for the kernel module and its VM tests, the headers
# of both LTS kernels (6.1 and 6.12), the matching linux-source packages
# (block/'s internal headers, checkpatch.pl), qemu, busybox-static, fio, blktrace,
# e2fsprogs. Run as root (or through sudo).
set -eu
[ "$(id -u)" -eq 0 ] || { echo "setup.sh: run as root (sudo ./setup.sh)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends build-essential make gcc libc6-dev \
	linux-headers-amd64 linux-headers-6.12-amd64 \
	qemu-system-x86 busybox-static fio e2fsprogs cpio kmod xz-utils gzip perl gnuplot-nox blktrace valgrind
# linux-source at exactly the headers' version, so block/*.h match
for hdr in $(dpkg-query -W -f '${Package}\n' 'linux-headers-6.*-amd64' | grep -E '^linux-headers-6\.(1|12)\.[0-9]'); do
	kver=${hdr#linux-headers-}
	mm=$(printf '%s\n' "$kver" | cut -d. -f1,2)
	v=$(dpkg-query -W -f '${Version}' "$hdr")
	if apt-cache madison "linux-source-$mm" | awk '{ print $3 }' | grep -qx "$v"; then
		apt-get install -y -q --no-install-recommends "linux-source-$mm=$v"
	else
		echo "setup.sh: linux-source-$mm $v is not in the archive; installing the newest" >&2
		apt-get install -y -q --no-install-recommends "linux-source-$mm"
	fi
done
