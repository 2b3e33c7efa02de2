#!/bin/sh
# Records the cold-cache start-up of real programs with blktrace in a VM and
# keeps the traces as fixtures (bench/startup/NAME.blkparse, blkparse's text,
# which antic-sim replay and bench/replay-startup both read).
# The programs run from an ext4 image built here without root (mke2fs -d),
# each a different shape (bench/startup/SETS names them and their sets):
# python3.11 importing a chunk of its standard library, `git status` on a
# tree cut from linux-source (its index preloaded by threads), gcc compiling
# one C file that includes many system headers, perl loading modules, vim in
# batch mode opening a C file with syntax on, xz testing a multi-block
# archive with two threads (few large reads), and find running grep over
# the tree's sources (many small reads).
# The guest runs on qemu's instruction clock (tests/vm/boot.sh's
# VM_ICOUNT=0: 1 ns a guest instruction, idle time skipped), so a trace's
# think times are the program's guest instructions at 1 ns each, whatever
# the host's load; replay them unscaled.
# The image is the guest's virtio disk, mounted read-only (nothing but the
# start-ups reads it), so a trace's sectors are the image's sectors:
# replayed on a raw device they land where the files lie on any disk whose
# first sectors hold the same image.
# Usage: bench/record-startup.sh [KVER]  (default: the newest 6.12)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:-$("$top/tests/vm/kernels.sh" 6.12)}
[ -n "$kver" ] || { echo "record-startup: no 6.12 headers; run 'sudo ./setup.sh'" >&2; exit 1; }
gccdir=/usr/lib/gcc/x86_64-linux-gnu/12
for t in /usr/bin/python3.11 /usr/bin/git /usr/bin/gcc-12 $gccdir/cc1 /usr/bin/as /usr/bin/perl \
	/usr/bin/vim.basic /usr/bin/xz /usr/bin/find /usr/bin/grep blktrace blkparse mke2fs; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		{ echo "record-startup: $t missing (Debian: python3.11 git gcc-12 binutils perl vim xz-utils findutils grep blktrace e2fsprogs)" >&2; exit 1; }
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
	# xz's archive: the tree's kernel/ and mm/ (about 19 MiB) in 2 MiB
	# blocks, which xz -T decompresses on several threads
	mkdir -p "$root/data"
	(cd "$root/src" && tar -cf - --sort=name kernel mm) |
		xz -6 -T2 --block-size=2MiB > "$root/data/src.tar.xz"
	# gcc: the driver, cc1, as, and the headers the file includes (the
	# host's gcc lists them: -M, with the flags of the guest's run)
	copy_prog /usr/bin/gcc-12
	copy_prog $gccdir/cc1
	copy_prog /usr/bin/as
	mkdir -p "$root/cc"
	cat > "$root/cc/prog.c" <<'C'
#define _GNU_SOURCE
#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int c, n = 0;

	if (!f)
		return -errno;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	for (int i = 1; i < argc; i++)
		printf("%s: %d lines, %.1f\n", argv[i], count_lines(argv[i]), sqrt(i));
	return 0;
}
C
	gcc-12 -O2 -M "$root/cc/prog.c" | sed 's/ \\$//' | tr ' ' '\n' | grep '^/usr/' | sort -u | while read -r h; do
		mkdir -p "$root$(dirname "$h")"
		cp -L "$h" "$root$h"
	done
	# perl and its library (the directories of @INC that exist)
	copy_prog /usr/bin/perl
	for d in /usr/lib/x86_64-linux-gnu/perl-base /usr/lib/x86_64-linux-gnu/perl/5.36 \
		/usr/lib/x86_64-linux-gnu/perl/5.36.0 /usr/share/perl/5.36 /usr/share/perl/5.36.0 /usr/share/perl5; do
		[ -e "$d" ] || continue
		mkdir -p "$root$(dirname "$d")"
		cp -a "$d" "$root$(dirname "$d")/"
	done
	find "$root/usr/lib/x86_64-linux-gnu" -path '*perl*' -name '*.so' | while read -r so; do copy_libs "$so"; done
	# vim and its runtime files
	copy_prog /usr/bin/vim.basic
	mkdir -p "$root/usr/share" "$root/etc"
	cp -a /usr/share/vim "$root/usr/share/"
	cp -a /etc/vim "$root/etc/"
	copy_prog /usr/bin/xz
	copy_prog /usr/bin/find
	copy_prog /usr/bin/grep
	# 4 KiB blocks, as on any disk of today (mke2fs would give a file system
	# this small 1 KiB ones)
	echo "record-startup: $(du -sm "$root" | cut -f1) MiB of files" >&2
	mke2fs -q -t ext4 -b 4096 -F -L startup -d "$root" "$work/startup.img" 480M
	rm -rf "$root"
fi

make -s -C "$top" all >/dev/null
log=$work/record-$kver.log
echo "record-startup: booting $kver (log: $log)" >&2
# the instruction clock with the virtio disk (no VM_NO_DISK: it is what
# the programs read); one vCPU: on this clock two would not run threads
# side by side (one TCG thread runs both, and the clock counts the
# instructions of both), and a vCPU that waits for the other (an IPI)
# may spin until the other's turn comes; not in qemu's record mode
# (VM_RR=0), as the fixtures were recorded: its log would hold the
# virtio disk's every completion, and a trace needs no replay
GUEST=$top/bench/record-guest.sh VM_DISK=$work/startup.img VM_PROGS="blktrace blkparse chrt" \
	VM_ICOUNT=0 VM_RR=0 VM_CPUS=${VM_CPUS:-1} VM_MEM=1024 VM_TIMEOUT=3600 "$top/tests/vm/boot.sh" "$kver" "$top/build/vmbench" > "$log" 2>&1 || true
sed -i 's/\r$//' "$log"
grep -q '^RECORD END' "$log" || { echo "record-startup: the guest did not finish; see $log" >&2; exit 1; }
names=$(awk '$1 == "TRACE" { print $2 }' "$log" | sort -u)
[ -n "$names" ] || { echo "record-startup: no traces in $log" >&2; exit 1; }
rc=0
for n in $names; do
	f=$top/bench/startup/$n.blkparse
	# a program that failed recorded its failure, not its start-up
	grep -q "^STARTUP $n .*, exit 0, " "$log" || {
		grep -e "^STARTUP $n " -e "^OUTPUT $n " "$log" >&2
		echo "record-startup: $n failed in the guest; its trace is not kept" >&2
		rc=1
		continue
	}
	# written whole or not at all; antic-sim must read it
	awk -v n="$n" '$1 == "TRACE" && $2 == n { sub(/^TRACE [^ ]+ /, ""); print }' "$log" > "$f.tmp"
	"$top/build/antic-sim" replay --quiet --scheduler noop "$f.tmp" > /dev/null ||
		{ echo "record-startup: antic-sim cannot replay $f.tmp" >&2; exit 1; }
	mv "$f.tmp" "$f"
	echo "record-startup: $f: $(grep -c ' Q ' "$f") requests, $(wc -c < "$f") bytes" >&2
done
grep '^STARTUP' "$log" >&2 || true
exit $rc
