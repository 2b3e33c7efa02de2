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
	qemu-system-x86 busybox-static fio fio-examples e2fsprogs cpio kmod xz-utils gzip perl python3 gnuplot-nox blktrace valgrind
# the Debian packages (tests/deb.sh: dpkg-buildpackage, dh_dkms, dkms)
# and their manual pages (tests/man.sh: man -l, groff)
apt-get install -y -q --no-install-recommends dpkg-dev debhelper dh-dkms dkms fakeroot man-db groff-base
# linux-source at exactly the version of the headers the metapackages
# point at now, so that block/*.h match. Only those: a machine may keep
# older headers from an earlier run, and pinning the source to one of
# them would ask apt to downgrade (and then upgrade) the source package.
for meta in linux-headers-amd64 linux-headers-6.12-amd64; do
	hdr=$(dpkg-query -W -f '${Depends}' "$meta" | tr ',' '\n' |
		sed -n 's/^ *\(linux-headers-6\.[0-9]*\.[^ ]*-amd64\).*/\1/p' | head -n 1)
	[ -n "$hdr" ] || { echo "setup.sh: cannot tell which headers $meta depends on" >&2; exit 1; }
	kver=${hdr#linux-headers-}
	mm=$(printf '%s\n' "$kver" | cut -d. -f1,2)
	v=$(dpkg-query -W -f '${Version}' "$hdr")
	if apt-cache madison "linux-source-$mm" | awk '{ print $3 }' | grep -qx "$v"; then
		# the newest source may be a stable release ahead of the newest headers
		apt-get install -y -q --no-install-recommends --allow-downgrades "linux-source-$mm=$v"
	else
		echo "setup.sh: linux-source-$mm $v is not in the archive; installing the newest" >&2
		apt-get install -y -q --no-install-recommends "linux-source-$mm"
	fi
done
