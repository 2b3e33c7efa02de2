#!/bin/sh
# Runs the kernel's scripts/checkpatch.pl over kernel/ and core/. The
# script comes from Debian's linux-source package (extracted once into
# kernel/build/checkpatch). Fails on any error, and on any warning except
# the LINUX_VERSION_CODE ones that kcompat.h exists to contain, and the
# attribute spelled out in core/compat.h's userspace half, which stands in
# there for the kernel's noinline macro.
# Usage: checkpatch.sh [path/to/checkpatch.pl]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp=${1:-$here/build/checkpatch/scripts/checkpatch.pl}
if [ ! -f "$cp" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | tail -n 1)
	[ -n "$tarball" ] || { echo "checkpatch: install linux-source-6.12 (or pass the script's path)" >&2; exit 1; }
	top=$(basename "$tarball" .tar.xz)
	mkdir -p "$here/build/checkpatch"
	tar -xJf "$tarball" -C "$here/build/checkpatch" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" "$top/scripts/const_structs.checkpatch"
	cp=$here/build/checkpatch/scripts/checkpatch.pl
fi
cd "$here/.."
out=$(perl "$cp" --no-tree -f --terse --show-types kernel/*.c kernel/*.h core/*.c core/*.h 2>&1 || true)
printf '%s\n' "$out"
bad=$(printf '%s\n' "$out" | grep -E ': (ERROR|WARNING):' |
	grep -v '^kernel/kcompat.h:.*\(LINUX_VERSION_CODE\|CONSTANT_COMPARISON\)' |
	grep -v '^core/compat.h:[0-9]*: WARNING:PREFER_DEFINED_ATTRIBUTE_MACRO: Prefer \(noinline\|__always_inline\) over' || true)
if [ -n "$bad" ]; then
	echo "checkpatch: problems above"
	exit 1
fi
echo "checkpatch: clean (kernel/ and core/)"
