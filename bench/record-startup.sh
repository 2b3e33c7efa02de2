#!/bin/sh
# Records the cold-cache start-up of real programs with blktrace in a VM and
# keeps the traces as fixtures (bench/startup/NAME.blkparse, blkparse's text,
# which antic-sim replay and bench/replay-startup both read).
# The programs run from an ext4 image built here without root (mke2fs -d):
# python3.11 importing a chunk of its standard library, and `git status` on
# a tree cut from linux-source. The image is the guest's virtio disk, mounted
# read-only (nothing but the start-ups reads it), so a trace's sectors are
# the image's sectors: replayed on a raw device they land where the files lie
# on any disk whose first sectors hold the same image.
# Usage: bench/record-startup.sh [KVER]  (default: the newest 6.12)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:-$("$top/tests/vm/kernels.sh" 6.12)}
[ -n "$kver" ] || { echo "record-startup: no 6.12 headers; run 'sudo ./setup.sh'" >&2; exit 1; }
for t in /usr/bin/python3.11 /usr/bin/git blktrace blkparse mke2fs; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		{ echo "record-startup: $t missing (Debian: python3.11 git blktrace e2fsprogs)" >&2; exit 1; }
done
ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 ||
	{ echo "record-startup: no /usr/src/linux-source-*.tar.xz; run 'sudo ./setup.sh'" >&2; exit 1; }
work=$top/build/record-startup
root=$work/root
mkdir -p "$work"

# copy_prog BIN: BIN and the libraries ldd lists, at the same paths
copy_libs() {
	ldd "$1" 2>/dev/null | awk '/=>/ { print $3 } /^[ \t]*\/lib/ { print $1 }' | while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_prog() {
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
	copy_libs "$1"
}

if [ ! -f "$work/startup.img" ]; then
	echo "record-startup: building the ext4 image" >&2
	rm -rf "$root" && mkdir -p "$root/dev" "$root/proc" "$root/tmp"
	copy_prog /usr/bin/python3.11
	mkdir -p "$root/usr/lib"
	cp -a /usr/lib/python3.11 "$root/usr/lib/"
	# the extension modules' own libraries (libssl for _ssl, ...)
	for so in "$root"/usr/lib/python3.11/lib-dynload/*.so; do copy_libs "$so"; done
	copy_prog /usr/bin/git
	# a source tree of about 6500 files, committed, with the index's stat
	# data matching what the image will hold: only mtime and size are
	# compared (mke2fs -d keeps mtimes, not inode numbers or ctimes), and
	# every mtime lies well before the index's, so git re-reads no file
	src=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || ls /usr/src/linux-source-*.tar.xz | tail -n 1)
	mkdir -p "$root/src"
	tar -xJf "$src" -C "$root/src" --strip-components=1 --wildcards \
		'linux-source-*/block' 'linux-source-*/kernel' 'linux-source-*/mm' \
		'linux-source-*/fs/ext4' 'linux-source-*/include/linux'
	find "$root/src" -exec touch -h -d '2025-01-01 00:00:00' {} +
	git -C "$root/src" init -q
	git -C "$root/src" config core.checkStat minimal
	git -C "$root/src" config core.trustctime false
	git -C "$root/src" add -A
	git -C "$root/src" -c user.name=antic -c user.email=antic@localhost commit -q -m tree
	git -C "$root/src" gc -q
	# 4 KiB blocks, as on any disk of today (mke2fs would give a file system
	# this small 1 KiB ones)
	mke2fs -q -t ext4 -b 4096 -F -L startup -d "$root" "$work/startup.img" 480M
	rm -rf "$root"
fi

make -s -C "$top" all >/dev/null
log=$work/record-$kver.log
echo "record-startup: booting $kver (log: $log)" >&2
GUEST=$top/bench/record-guest.sh VM_DISK=$work/startup.img VM_PROGS="blktrace blkparse" \
	VM_MEM=1024 VM_TIMEOUT=900 "$top/tests/vm/boot.sh" "$kver" "$top/build/vmbench" > "$log" 2>&1 || true
sed -i 's/\r$//' "$log"
grep -q '^RECORD END' "$log" || { echo "record-startup: the guest did not finish; see $log" >&2; exit 1; }
names=$(awk '$1 == "TRACE" { print $2 }' "$log" | sort -u)
[ -n "$names" ] || { echo "record-startup: no traces in $log" >&2; exit 1; }
for n in $names; do
	f=$top/bench/startup/$n.blkparse
	# written whole or not at all; antic-sim must read it
	awk -v n="$n" '$1 == "TRACE" && $2 == n { sub(/^TRACE [^ ]+ /, ""); print }' "$log" > "$f.tmp"
	"$top/build/antic-sim" replay --quiet --scheduler noop "$f.tmp" > /dev/null ||
		{ echo "record-startup: antic-sim cannot replay $f.tmp" >&2; exit 1; }
	mv "$f.tmp" "$f"
	echo "record-startup: $f: $(grep -c ' Q ' "$f") requests, $(wc -c < "$f") bytes" >&2
done
grep '^STARTUP' "$log" >&2 || true
