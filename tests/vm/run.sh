#!/bin/sh
# Boots each kernel tests/vm/kernels.sh lists (Debian's LTS 6.1 and 6.12,
# and its newest, 7.x) under qemu (TCG) with anticipatory.ko and
# runs tests/vm/guest.sh inside; fails on any failed check and on any
# oops, warning, BUG, hung task or lockup in the guest's kernel log (the
# patterns in tests/vm/kernel-trouble.re, one line, used in the guest too,
# plus any stack trace).
# Usage: tests/vm/run.sh [KVER...]   (default: tests/vm/kernels.sh).
# Prints "N passed, N failed" last.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${VM_CACHE:-$top/build/vm}	# VM_CACHE: another, for a run beside this one
mkdir -p "$cache"
die() { echo "vm: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

need=""
for t in qemu-system-x86_64 busybox fio mke2fs cpio depmod modprobe xz dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/sbin/$t" ] || [ -x "/usr/sbin/$t" ] || need="$need $t"
done
[ -z "$need" ] || die "missing tools:$need; run 'sudo ./setup.sh' (Debian packages qemu-system-x86 busybox-static fio e2fsprogs cpio kmod xz-utils)"
busybox --list 2>/dev/null | grep -qx poweroff || die "busybox is not the static build: apt-get install busybox-static"

if [ $# -eq 0 ]; then
	set -- $("$top/tests/vm/kernels.sh")
	[ $# -ge 3 ] || die "need linux-headers for 6.1, 6.12 and 7.x (found: $*); run 'sudo ./setup.sh'"
fi

total_p=0 total_f=0
for kver in "$@"; do
	echo "== vm $kver"
	"$top/tests/vm/boot.sh" "$kver" "$cache" > "$cache/$kver.log" 2>&1
	rc=$?
	grep -E '^(VMTEST|vm:)' "$cache/$kver.log" | sed 's/\r$//'
	p=$(grep -c '^VMTEST PASS' "$cache/$kver.log")
	f=$(grep -c '^VMTEST FAIL' "$cache/$kver.log")
	if ! grep -q '^VMTEST END' "$cache/$kver.log"; then
		echo "vm $kver: the guest did not finish (exit $rc); log: $cache/$kver.log"
		tail -n 30 "$cache/$kver.log"
		f=$((f + 1))
	fi
	# One warning is the emulator's, not the kernel's: a single-step #DB
	# taken in kernel mode (traps.c's comment: QEMU leaks #DB into the
	# guest). It is shown, counted apart, and cut out with its trace;
	# any other warning, and any other trace, still fails.
	dmesg=$(sed -n '/^DMESG BEGIN/,/^DMESG END/p' "$cache/$kver.log" | sed 's/\r$//')
	leaked=$(printf '%s\n' "$dmesg" | grep -c 'WARNING: .* at arch/x86/kernel/traps.c:[0-9]* exc_debug_kernel' || true)
	[ "$leaked" -gt 0 ] && echo "vm: $kver: $leaked emulator #DB warning(s) (exc_debug_kernel) not counted"
	bad=$(printf '%s\n' "$dmesg" |
		awk '/WARNING: .* at arch\/x86\/kernel\/traps.c:[0-9]* exc_debug_kernel/ { skip = 1 }
		     !skip { print } /---\[ end trace/ { skip = 0 }' |
		grep -E -e 'Call Trace' -f "$top/tests/vm/kernel-trouble.re" || true)
	if [ -n "$bad" ]; then
		echo "VMTEST FAIL dmesg-clean ($kver):"
		printf '%s\n' "$bad" | head -n 40
		f=$((f + 1))
	elif grep -q '^DMESG END' "$cache/$kver.log"; then
		echo "VMTEST PASS dmesg-clean"
		p=$((p + 1))
	fi
	total_p=$((total_p + p)); total_f=$((total_f + f))
done
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
