#!/bin/sh
# Print a directory holding block/'s internal headers (elevator.h,
# blk-mq.h, ...) for kernel KVER, extracting them from Debian's
# linux-source-X.Y package into CACHE when needed. Says what to install
# when they cannot be found.
# Usage: block-headers.sh KVER CACHE
set -eu
kver=$1 cache=$2
mm=$(printf '%s\n' "$kver" | cut -d. -f1,2)
dir=$cache/block-$mm
if [ -f "$dir/block/elevator.h" ]; then
	echo "$dir/block"
	exit 0
fi
tarball=/usr/src/linux-source-$mm.tar.xz
if [ ! -f "$tarball" ]; then
	cat >&2 <<MSG
anticipatory: the block layer's internal headers for $kver are missing.
They come with Debian's kernel source; install the version that matches
the running image, e.g.:
    apt-get install linux-source-$mm
(or pass BLOCK_INC=/path/to/linux-$mm/block).
MSG
	exit 1
fi
# warn when the source package is not the headers' version
src_v=$(dpkg-query -W -f '${Version}' "linux-source-$mm" 2>/dev/null | sed 's/-.*//') || src_v=
hdr_v=$(dpkg-query -W -f '${Version}' "linux-headers-$kver" 2>/dev/null | sed 's/-.*//') || hdr_v=
if [ -n "$src_v" ] && [ -n "$hdr_v" ] && [ "$src_v" != "$hdr_v" ]; then
	echo "anticipatory: warning: linux-source-$mm is $src_v but linux-headers-$kver is $hdr_v;" \
		"install linux-source-$mm=<the headers' version> if the build or the module misbehaves" >&2
fi
tmp=$dir.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
tar -xJf "$tarball" -C "$tmp" --strip-components=1 --wildcards "linux-source-$mm/block/*.h"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "$dir/block"
