#!/bin/sh
# Builds anticipatory.ko and an initramfs for kernel KVER, boots it under
# qemu and prints the guest's console. Usage: boot.sh KVER CACHE
# GUEST (the /init script, default tests/vm/guest.sh), PARAMS (a file
# copied to /bench/params), VM_MEM (MiB), VM_CPUS, VM_TIMEOUT (s),
# VM_PROGS (more host programs for the guest), VM_ICOUNT and VM_RR (below),
# VM_APPEND (more kernel arguments),
# VM_EXTRA_KO (more modules, e.g. variants of the scheduler to compare in
# one boot), VM_KO and VM_HDDSIM_KO (the two modules built elsewhere),
# VM_DISK (an image whose copy, grown to 512 MiB, is the virtio disk),
# VM_BENCH_FILES (files and directories copied into /bench) change it;
# VM_ROOT and VM_KSRC boot a kernel built here (tests/debug-kernel.sh).
set -eu
kver=$1 cache=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$cache/$kver
mkdir -p "$work"

if [ -n "${VM_KO:-}" ]; then
	# modules built elsewhere (tests/deb.sh: DKMS's), both or neither
	ko=$VM_KO hddsim_ko=${VM_HDDSIM_KO:?VM_KO needs VM_HDDSIM_KO}
	echo "vm: modules given: $ko $hddsim_ko"
else
	echo "vm: building anticipatory.ko and hddsim.ko for $kver"
	# VM_KSRC: a kernel build tree of one's own (the debug kernel)
	# under a lock: boots of one tree side by side (vmbench.sh's TAGs) each build
	flock "$top/kernel" \
	make -s -C "$top/kernel" KVER="$kver" ${VM_KSRC:+KSRC="$VM_KSRC" BLOCK_INC="$VM_KSRC/block"} \
		>"$work/kbuild.log" 2>&1 ||
		{ cat "$work/kbuild.log"; echo "vm: module build failed"; exit 1; }
	ko=$top/kernel/build/anticipatory-$kver.ko hddsim_ko=$top/kernel/build/hddsim-$kver.ko
fi

# the kernel image and its modules: from /boot if installed, from
# setup.sh's image of the chroot's kernel (7.x: linux-binary's vmlinuz
# beside linux-modules' modules), else the .deb
. "$top/kernel/chroot.conf"
img=$(antic_image_dir "$kver")
root=$work/image
if [ -n "${VM_ROOT:-}" ]; then
	# a kernel built here: VM_ROOT/boot/vmlinuz-KVER, VM_ROOT/lib/modules/KVER
	vmlinuz=$VM_ROOT/boot/vmlinuz-$kver moddir=$VM_ROOT/lib/modules/$kver
elif [ -f "/boot/vmlinuz-$kver" ] && [ -d "/lib/modules/$kver/kernel" ]; then
	vmlinuz=/boot/vmlinuz-$kver moddir=/lib/modules/$kver
elif [ -f "$img/usr/lib/modules/$kver/vmlinuz" ]; then
	vmlinuz=$img/usr/lib/modules/$kver/vmlinuz moddir=$img/usr/lib/modules/$kver
elif [ -d "$ANTIC_CHROOT/usr/src/linux-headers-$kver" ]; then
	echo "vm: no image of $kver in $img; run 'sudo ./setup.sh'"
	exit 1
else
	if [ ! -f "$root/boot/vmlinuz-$kver" ]; then
		echo "vm: fetching linux-image-$kver"
		rm -rf "$root" "$work/deb" && mkdir -p "$work/deb"
		(cd "$work/deb" && apt-get download "linux-image-$kver" >/dev/null) ||
			{ echo "vm: cannot download linux-image-$kver (apt-get update? network?)"; exit 1; }
		dpkg-deb -x "$work"/deb/*.deb "$root"
		rm -rf "$work/deb"
	fi
	vmlinuz=$root/boot/vmlinuz-$kver moddir=$root/lib/modules/$kver
fi
modbase=$(cd "$(dirname "$moddir")/../.." && pwd)
[ "$modbase" != / ] || modbase=
[ -f "$moddir/modules.dep" ] || depmod -b "${modbase:-/}" "$kver"

# the initramfs
ir=$work/initramfs
rm -rf "$ir"
mkdir -p "$ir/bin" "$ir/sbin" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/tmp" "$ir/mnt" \
	"$ir/lib/modules/$kver/extra" "$ir/etc"
cp "$(command -v busybox)" "$ir/bin/busybox"
for m in virtio_blk virtio_pci null_blk ext4 bfq kyber-iosched crc32c_generic configfs; do
	modprobe -d "${modbase:-/}" -S "$kver" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r f; do
	# under /lib/modules/KVER/ as the kernel's own tools look for it: the
	# path after it (modprobe -d / prints //lib/..., so no fixed prefix)
	rel=${f#*/lib/modules/"$kver"/}
	[ "$rel" != "$f" ] || { echo "vm: $f is not under lib/modules/$kver"; exit 1; }
	mkdir -p "$ir/lib/modules/$kver/$(dirname "$rel")"
	case $f in
	*.xz) xz -dc "$f" > "$ir/lib/modules/$kver/${rel%.xz}" ;;
	*) cp "$f" "$ir/lib/modules/$kver/$rel" ;;
	esac
done
# kmod FROM TO: a module into the initramfs. On the instruction clock
# without its BTF section: two builds of one source in one directory
# differ only there (pahole orders the types differently from build to
# build), and every byte of the initramfs is unpacked and read at boot,
# so a rebuilt module would start the guest on another path although its
# code is the same. (Builds in two directories differ in the file names
# they carry as well.)
kmod() {
	if [ -n "${VM_ICOUNT:-}" ]; then
		objcopy --remove-section=.BTF "$1" "$2" ||
			{ echo "vm: cannot strip $1"; exit 1; }
	else
		cp "$1" "$2"
	fi
}
kmod "$ko" "$ir/lib/modules/$kver/extra/anticipatory.ko"
kmod "$hddsim_ko" "$ir/lib/modules/$kver/extra/hddsim.ko"
# VM_EXTRA_KO may name builds for several kernels (bench/variant-ko.sh's
# NAME-KVER.ko): each boot takes its own, under the module's own name
for m in ${VM_EXTRA_KO:-}; do
	vm=$(modinfo -F vermagic "$m") || { echo "vm: VM_EXTRA_KO: cannot read $m"; exit 1; }
	if [ "${vm%% *}" != "$kver" ]; then
		echo "vm: VM_EXTRA_KO: $m is for ${vm%% *}, not $kver: left out"
		continue
	fi
	kmod "$m" "$ir/lib/modules/$kver/extra/$(basename "$m" | sed "s/-$kver\.ko\$/.ko/")"
done
cp "$moddir"/modules.order "$moddir"/modules.builtin "$moddir"/modules.builtin.modinfo \
	"$ir/lib/modules/$kver/" 2>/dev/null || true
depmod -b "$ir" "$kver"
# programs and the libraries they load
for prog in fio mke2fs ${VM_PROGS:-}; do
	p=$(command -v "$prog" || echo "/sbin/$prog")
	cp "$p" "$ir/bin/"
	ldd "$p" | awk '/=>/ { print $3 } /^[ \t]*\/lib/ { print $1 }' | while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$ir$(dirname "$lib")"
		cp -L "$lib" "$ir$lib"
	done
done
ln -sf mke2fs "$ir/bin/mkfs.ext4"
cp "${GUEST:-$top/tests/vm/guest.sh}" "$ir/init"
cp "$top/tests/vm/guest-init.sh" "$ir/lib/guest-init.sh"
cp "$top/tests/vm/kernel-trouble.re" "$ir/lib/kernel-trouble.re"
if [ -n "${PARAMS:-}" ]; then
	mkdir -p "$ir/bench"
	cp "$PARAMS" "$ir/bench/params"
fi
if [ -n "${VM_BENCH_FILES:-}" ]; then
	mkdir -p "$ir/bench"
	for f in $VM_BENCH_FILES; do cp -r "$f" "$ir/bench/"; done
fi
chmod +x "$ir/init"
# the same bytes from the same files: fixed times, order and inode numbers
# (the guest's clock counts the instructions that unpack it)
find "$ir" -exec touch -h -d @1767225600 {} +
# On the instruction clock it goes uncompressed: the guest's own gunzip of
# its 40 MB (fio's libraries, 88 MB unpacked) costs every boot wall time.
(cd "$ir" && find . | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible) |
	if [ -n "${VM_ICOUNT:-}" ]; then cat; else gzip -n -1; fi > "$work/initrd"

disk=$work/disk.img
rm -f "$disk"
[ -z "${VM_DISK:-}" ] || cp "$VM_DISK" "$disk"
truncate -s 512M "$disk"

# VM_ICOUNT=N: the guest's clock counts its instructions, 2^N ns each
# (one TCG thread, idle time skipped): a measure of work that the host's
# load does not move. What else the guest could take from the host is
# fixed with it: the RTC starts at VM_RTC_BASE and runs on the guest's
# clock; what qemu draws for the guest (RDRAND, a random seed in
# setup_data) comes from a fixed seed, machine type 7.1 passes no seed in
# setup_data anyway, and the kernel credits neither RDRAND nor a boot
# loader's seed; no address-space randomisation; no network card, and
# VM_NO_DISK=1 leaves out the virtio disk: their events come at moments
# the host's timing decides. So could the console's, were it a pipe (a
# write its reader has not drained completes later, in the host's time):
# the serial port writes to a file instead, which this script follows.
# And qemu runs in record mode (VM_RR=1, the default; its log, the
# guest's interrupts and clock reads by instruction count, goes to
# CACHE/KVER/replay.bin, which bench/rr-events.py reads and compares):
# without it, qemu's main loop can see the vCPU halted before the vCPU
# thread has counted the instructions it ran up to the halt, and then
# advances the clock to the next timer from a count that is short, so
# that timer fires late by those instructions, as the host's scheduling
# of the two threads decides. Record mode serialises the two threads (the
# replay lock). It does not make qemu 7.2 wholly deterministic: on a
# loaded host two boots can still part after a timer interrupt that both
# take at the same instruction count, through nothing the log holds
# (docs/hddsim-and-vmbench.md).
accel="-accel tcg,thread=multi" machine='' rtc='' append=''
if [ -n "${VM_ICOUNT:-}" ]; then
	rr=
	[ "${VM_RR:-1}" = 0 ] || rr=",rr=record,rrfile=$work/replay.bin"
	accel="-accel tcg -icount shift=$VM_ICOUNT,sleep=off,align=off$rr"
	machine="-M pc-i440fx-7.1 -seed 34 -nodefaults"
	rtc="-rtc base=${VM_RTC_BASE:-2026-01-01T00:00:00},clock=vm"
	append=" random.trust_cpu=off random.trust_bootloader=off norandmaps"
	echo "vm: instruction clock: icount shift=$VM_ICOUNT rtc=${VM_RTC_BASE:-2026-01-01T00:00:00} record=${VM_RR:-1}"
fi
append="$append${VM_APPEND:+ $VM_APPEND}"	# VM_APPEND: more kernel arguments
drive="-drive file=$disk,if=virtio,format=raw,cache=writeback"
[ "${VM_NO_DISK:-0}" != 1 ] || drive=
echo "vm: booting $kver"
if [ -n "${VM_ICOUNT:-}" ]; then
	con=$work/console.log
	: > "$con"
	# shellcheck disable=SC2086 # $accel, $machine, $rtc, $drive are several words
	timeout "${VM_TIMEOUT:-900}" qemu-system-x86_64 $machine $accel $rtc -m "${VM_MEM:-1024}" -smp "${VM_CPUS:-2}" \
		-kernel "$vmlinuz" -initrd "$work/initrd" \
		-append "console=ttyS0 quiet panic=-1$append" \
		$drive \
		-display none -serial file:"$con" -no-reboot </dev/null &
	qpid=$!
	tail -n +1 -f --pid=$qpid "$con"
	wait $qpid || echo "vm: qemu exit $?"
	exit 0
fi
# shellcheck disable=SC2086 # $accel, $machine, $rtc, $drive are several words
timeout "${VM_TIMEOUT:-900}" qemu-system-x86_64 $machine $accel $rtc -m "${VM_MEM:-1024}" -smp "${VM_CPUS:-2}" \
	-kernel "$vmlinuz" -initrd "$work/initrd" \
	-append "console=ttyS0 quiet panic=-1$append" \
	$drive \
	-nographic -no-reboot </dev/null || echo "vm: qemu exit $?"
