#!/bin/sh
# Installs what the demo and the tests need on Debian 12: a C toolchain
# for the simulator; for the kernel module and its VM tests, the headers
# of both LTS kernels (6.1 and 6.12), the matching linux-source packages
# (block/'s internal headers, checkpatch.pl), qemu, busybox-static, fio, blktrace,
# e2fsprogs; and for Debian's newest kernel (7.x), a chroot of its
# Debian release with its headers, source and gcc, and its image for the
# VM tests (kernel/chroot.conf says where).
#
# Usage: ./setup.sh [--sim]
#   --sim   only what the simulator and `make demo` need (the compiler)
# Run it as root or as a user who may use sudo: it runs itself again
# through sudo when it is not root. Running it again is harmless.
set -eu
case "${1-}" in
--sim) sim_only=1 ;;
'') sim_only=0 ;;
*) echo "setup.sh: unknown argument '$1' (usage: ./setup.sh [--sim])" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		exec sudo -- sh "$0" "$@"
	fi
	echo "setup.sh: installing packages needs root, and sudo is not installed: run it as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends build-essential make gcc libc6-dev
if [ "$sim_only" -eq 1 ]; then
	echo "setup.sh: the compiler is installed; 'make demo' runs the demonstration"
	exit 0
fi
apt-get install -y -q --no-install-recommends \
	linux-headers-amd64 linux-headers-6.12-amd64 \
	qemu-system-x86 busybox-static fio fio-examples e2fsprogs cpio kmod xz-utils gzip perl python3 gnuplot-nox blktrace valgrind \
	debootstrap debian-archive-keyring
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

# Debian's newest kernel (7.3 from trixie-backports, kernel/chroot.conf):
# its headers need trixie's gcc, so its modules are built in a trixie
# chroot (kernel/in-chroot.sh), made once and kept; it is rebuilt only
# when missing or left half-made (no .antic-ready).
. "$(dirname "$0")/kernel/chroot.conf"
if [ ! -f "$ANTIC_CHROOT/.antic-ready" ]; then
	echo "setup.sh: building the $ANTIC_SUITE chroot for the $ANTIC_SUITE_EXTRA kernel in $ANTIC_CHROOT"
	rm -rf "$ANTIC_CHROOT.tmp" "$ANTIC_CHROOT"
	mkdir -p "$ANTIC_CACHE"
	debootstrap --variant=minbase \
		--include="$ANTIC_SUITE_GCC",make,libc6-dev,xz-utils,bc,flex,bison,libelf-dev,kmod \
		"$ANTIC_SUITE" "$ANTIC_CHROOT.tmp" "$ANTIC_MIRROR"
	# the chroot's own sources list, not the machine's; the mirror may be
	# a snapshot whose Release files apt would call expired
	printf 'deb %s %s main\n' "$ANTIC_MIRROR" "$ANTIC_SUITE" "$ANTIC_MIRROR" "$ANTIC_SUITE_EXTRA" \
		> "$ANTIC_CHROOT.tmp/etc/apt/sources.list"
	echo 'Acquire::Check-Valid-Until "false";' > "$ANTIC_CHROOT.tmp/etc/apt/apt.conf.d/99antic"
	mkdir -p "$ANTIC_CHROOT.tmp/antic"	# where in-chroot.sh mounts the tree
	touch "$ANTIC_CHROOT.tmp/.antic-ready"
	mv "$ANTIC_CHROOT.tmp" "$ANTIC_CHROOT"
fi
cp /etc/resolv.conf "$ANTIC_CHROOT/etc/resolv.conf" 2>/dev/null || true
# the newest headers and source from the extra suite (the metapackages
# follow it), every run, so that a rerun picks up a newer kernel
chroot "$ANTIC_CHROOT" apt-get update -q
chroot "$ANTIC_CHROOT" apt-get install -y -q --no-install-recommends -t "$ANTIC_SUITE_EXTRA" \
	linux-headers-amd64 linux-source
kver=$(chroot "$ANTIC_CHROOT" dpkg-query -W -f '${Depends}' linux-headers-amd64 | tr ',' '\n' |
	sed -n 's/^ *linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
[ -n "$kver" ] || { echo "setup.sh: cannot tell which headers linux-headers-amd64 depends on in $ANTIC_CHROOT" >&2; exit 1; }
# its image for the VM tests: from 7.x split into linux-binary (vmlinuz
# under /usr/lib/modules/KVER) and linux-modules
img=$(antic_image_dir "$kver")
if [ ! -f "$img/usr/lib/modules/$kver/vmlinuz" ] || [ ! -f "$img/usr/lib/modules/$kver/modules.dep" ]; then
	echo "setup.sh: fetching the $kver image for the VM tests into $img"
	rm -rf "$img" "$img.tmp" "$ANTIC_CHROOT/tmp/antic-image"
	mkdir -p "$ANTIC_CHROOT/tmp/antic-image" "$img.tmp"
	chmod 0777 "$ANTIC_CHROOT/tmp/antic-image"	# apt downloads as _apt
	chroot "$ANTIC_CHROOT" sh -c "cd /tmp/antic-image && apt-get download linux-binary-$kver linux-modules-$kver"
	for deb in "$ANTIC_CHROOT"/tmp/antic-image/*.deb; do dpkg-deb -x "$deb" "$img.tmp"; done
	rm -rf "$ANTIC_CHROOT/tmp/antic-image"
	[ -f "$img.tmp/usr/lib/modules/$kver/vmlinuz" ] ||
		{ echo "setup.sh: no vmlinuz in linux-binary-$kver" >&2; exit 1; }
	# which modules are built in comes with the headers package
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "$ANTIC_CHROOT/usr/lib/modules/$kver/$f" "$img.tmp/usr/lib/modules/$kver/"
	done
	depmod -b "$img.tmp/usr" "$kver"
	mv "$img.tmp" "$img"
fi
echo "setup.sh: $kver: headers in $ANTIC_CHROOT, image in $img"
