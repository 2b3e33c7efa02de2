#!/bin/sh
# The debug kernel: 6.12 (or SERIES, e.g. SERIES=7.3, whose source is in
# setup.sh's chroot) from Debian's linux-source, x86_64 defconfig plus
# KASAN, lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, DEBUG_LIST and fault
# injection (failslab, fail_page_alloc, fail_make_request, and null_blk's
# requeue= and timeout=), then the VM tests (tests/vm) on it with both
# modules built against it; there they also fail slab allocations at
# random while the scheduler is switched (t_alloc_faults), and run
# null_blk's requeue and timeout injection under every scheduler
# (t_null_blk_faults). Too slow for CI here (see docs/reliability.md for the
# measured times); developers run it as `make debug-kernel`.
# Stage: build, test, or all (default); config stops after making and
# checking .config (minutes, not the build's hour).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stage=${1:-all}
series=${SERIES:-6.12}
. "$top/kernel/chroot.conf"
# one tree per series, so that a 7.x kernel does not overwrite the 6.12 one
dir=$top/build/debug-kernel
[ "$series" = 6.12 ] || dir=$top/build/debug-kernel-$series
src=$dir/linux-source-$series
root=$dir/root
tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || [ ! -f "$ANTIC_CHROOT$tarball" ] || tarball=$ANTIC_CHROOT$tarball
mkdir -p "$dir"
if [ "$stage" != test ]; then
	for t in flex bison bc; do
		command -v $t >/dev/null || { echo "debug-kernel: needs $t: apt-get install flex bison bc libelf-dev libssl-dev" >&2; exit 1; }
	done
	# objtool (x86's ORC unwinder) is built first and needs libelf's headers
	[ -f /usr/include/gelf.h ] ||
		{ echo "debug-kernel: needs libelf-dev (objtool): apt-get install libelf-dev" >&2; exit 1; }
	t0=$(date +%s)
	if [ ! -f "$src/Makefile" ]; then
		[ -f "$tarball" ] ||
			{ echo "debug-kernel: needs linux-source-$series (sudo ./setup.sh)" >&2; exit 1; }
		echo "debug-kernel: extracting $tarball" >&2
		tar -C "$dir" -xf "$tarball"
	fi
	cd "$src"
	make -s x86_64_defconfig
	scripts/config --set-str LOCALVERSION -antic-debug --disable LOCALVERSION_AUTO \
		--enable DEBUG_INFO_NONE --disable DEBUG_INFO_DWARF5 --disable DEBUG_INFO_DWARF4 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		--enable KASAN --enable KASAN_GENERIC --enable KASAN_OUTLINE \
		--enable PROVE_LOCKING --enable DEBUG_ATOMIC_SLEEP --enable DEBUG_LIST \
		--enable FAULT_INJECTION --enable FAULT_INJECTION_CONFIGFS --enable FAILSLAB --enable FAIL_PAGE_ALLOC \
		--enable FAIL_MAKE_REQUEST --enable FAULT_INJECTION_DEBUG_FS \
		--enable DETECT_HUNG_TASK --enable SOFTLOCKUP_DETECTOR \
		--enable DEBUG_FS --enable BLK_DEBUG_FS --enable BLK_DEV_INITRD \
		--enable VIRTIO_PCI --enable VIRTIO_BLK --enable EXT4_FS \
		--enable MQ_IOSCHED_DEADLINE --module MQ_IOSCHED_KYBER --module IOSCHED_BFQ \
		--module BLK_DEV_NULL_BLK --enable BLK_DEV_NULL_BLK_FAULT_INJECTION \
		--enable CRYPTO_CRC32C --enable MEMCG \
		--disable MODULE_SIG --disable WERROR
	make -s olddefconfig
	for o in FAULT_INJECTION FAILSLAB FAIL_PAGE_ALLOC FAIL_MAKE_REQUEST BLK_DEV_NULL_BLK_FAULT_INJECTION KASAN; do
		grep -q "^CONFIG_$o=y" .config ||
			{ echo "debug-kernel: CONFIG_$o did not survive olddefconfig" >&2; exit 1; }
	done
	if [ "$stage" = config ]; then
		echo "debug-kernel: $src/.config has every option asked for" >&2
		exit 0
	fi
	echo "debug-kernel: building $(make -s kernelversion) with $(nproc) jobs" >&2
	make -s -j"$(nproc)" bzImage modules
	# after the build: before it, 7.x's kernelrelease leaves LOCALVERSION out
	kver=$(make -s kernelrelease)
	rm -rf "$root"
	make -s modules_install INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 DEPMOD=/bin/true
	mkdir -p "$root/boot"
	cp arch/x86/boot/bzImage "$root/boot/vmlinuz-$kver"
	echo "$kver" > "$dir/kver"
	echo "debug-kernel: built $kver in $(( $(date +%s) - t0 )) s" >&2
fi
if [ "$stage" != build ]; then
	kver=$(cat "$dir/kver")
	t0=$(date +%s)
	rc=0
	VM_ROOT=$root VM_KSRC=$src VM_TIMEOUT=3600 VM_MEM=2048 "$top/tests/vm/run.sh" "$kver" || rc=$?
	echo "debug-kernel: VM tests took $(( $(date +%s) - t0 )) s" >&2
	exit $rc
fi
