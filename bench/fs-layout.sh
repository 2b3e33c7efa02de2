#!/bin/sh
# Where ext4 puts the files of bench/guest-bench.sh's small-file
# workloads, as antic-sim's layout setting reads it ("SECTOR BYTES PATH"
# lines):
# the file system made as guest-bench.sh makes it (its mkfs line, its
# TREE options and its files, taken from it) on a loop device, its files
# laid out in the same order, then each file's first block from filefrag.
# Needs root (a loop device, mount) and e2fsprogs' filefrag; writes
# nothing but OUT. The host's kernel allocates, not the guest's: the
# guest's own counters of the tree read (seeks, backward seeks) agree with
# antic-sim's on this layout (docs/results.md).
# Usage: bench/fs-layout.sh TREES OUT   (TREES: 1 for write-vs-tree and
# read-vs-tree, 6 for six-trees)
set -eu
[ $# -eq 2 ] || { echo "usage: fs-layout.sh TREES OUT" >&2; exit 2; }
trees=$1 out=$2
case $trees in [1-9]) ;; *) echo "fs-layout.sh: TREES must be 1-9, got '$trees'" >&2; exit 2 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
gb=$top/bench/guest-bench.sh
for t in filefrag fio mkfs.ext4 losetup mountpoint; do
	command -v "$t" >/dev/null 2>&1 || { echo "fs-layout.sh: needs $t" >&2; exit 1; }
done
# guest-bench.sh's own definitions: the file system's UUID, the trees' options
eval "$(grep -E '^(FSUUID|TREE)=' "$gb")"
mkfs_line=$(awk '/^[[:space:]]*E2FSPROGS_FAKE_TIME=.* mkfs\.ext4 / {
	l = $0; while (l ~ /\\$/) { sub(/\\$/, "", l); getline n; l = l n } print l; exit }' "$gb" | sed 's/^[[:space:]]*//')
[ -n "${FSUUID:-}" ] && [ -n "${TREE:-}" ] && [ -n "$mkfs_line" ] ||
	{ echo "fs-layout.sh: $gb no longer has the FSUUID, TREE and mkfs lines this script reads" >&2; exit 1; }
grep -q 'mkdir -p /mnt/src$' "$gb" ||
	{ echo "fs-layout.sh: $gb's setup_disk no longer makes /mnt/src first, as this script does" >&2; exit 1; }
tmp=$(mktemp -d)
mnt=$tmp/mnt dev=
cleanup() {
	if mountpoint -q "$mnt" 2>/dev/null && ! umount "$mnt"; then
		echo "fs-layout.sh: $mnt is still mounted; $tmp left" >&2
		return
	fi
	[ -z "$dev" ] || losetup -d "$dev"
	rm -rf "$tmp" "$out.tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
truncate -s 20G "$tmp/disk.img"
# a rotational disk, as hddsim is: ext4's block allocator treats one so
dev=$(losetup -f --show "$tmp/disk.img")
echo 1 > "/sys/block/${dev#/dev/}/queue/rotational" ||
	{ echo "fs-layout.sh: cannot mark $dev rotational" >&2; exit 1; }
# guest-bench.sh's mkfs on its disk ($RAW), with mke2fs's built-in
# defaults: the guest has no /etc/mke2fs.conf
RAW=$dev
export MKE2FS_CONFIG=/nonexistent
eval "${mkfs_line%%||*}"
mkdir -p "$mnt"
mount "$dev" "$mnt"
# what setup_disk makes before the trees: its first directory moves where
# ext4 puts the next ones
mkdir -p "$mnt/src"
i=0
while [ "$i" -lt "$trees" ]; do
	mkdir -p "$mnt/tree$i"
	# shellcheck disable=SC2086
	fio --output-format=json --name=tree --directory="$mnt/tree$i" $TREE --rw=write > /dev/null
	i=$((i + 1))
done
fio --name=r100 --filename="$mnt/r100" --rw=write --bs=1m --size=100m > /dev/null
fio --name=w --filename="$mnt/wfile" --rw=write --bs=1m --size=256m > /dev/null
sync
bs=$(stat -f -c %S "$mnt")
# filefrag -v: the first extent's physical block (a file is taken as
# contiguous from there); the guest mounts the file system at /mnt, on
# the disk's first sector
find "$mnt" -type f | sort > "$tmp/files"
while read -r f; do
	filefrag -v -b"$bs" "$f" > "$tmp/ff" || { echo "fs-layout.sh: filefrag $f failed" >&2; exit 1; }
	awk -v p="/mnt${f#"$mnt"}" -v s=$((bs / 512)) -v b="$(stat -c %s "$f")" '
		$1 == "0:" { sub(/\.\..*/, "", $4); printf "%d %d %s\n", $4 * s, b, p; n = 1; exit }
		END { exit !n }' "$tmp/ff" || { echo "fs-layout.sh: no extent for $f" >&2; exit 1; }
done < "$tmp/files" > "$tmp/map"
n=$(wc -l < "$tmp/map")
{
	echo "# where ext4 put bench/guest-bench.sh's files ($trees tree(s), r100, wfile):"
	echo "# bench/fs-layout.sh $trees, on Linux $(uname -r); SECTOR BYTES PATH"
	cat "$tmp/map"
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "fs-layout.sh: $n files in $out"
