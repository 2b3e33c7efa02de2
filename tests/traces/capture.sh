#!/bin/sh
# Regenerates the blktrace fixtures in tests/traces/: boots KVER (default:
# the installed 6.12 headers' kernel) with tests/traces/guest-capture.sh,
# which traces an untar and read-back of a small tree, a compile-like read
# pattern and a streaming write beside reads, on virtio and on hddsim.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${1:-$("$top/tests/vm/kernels.sh" 6.12)}
command -v blktrace >/dev/null || { echo "capture: needs blktrace (apt-get install blktrace)" >&2; exit 1; }
cache=$top/build/capture
mkdir -p "$cache"
GUEST=$top/tests/traces/guest-capture.sh VM_PROGS=blktrace VM_TIMEOUT=1200 \
	"$top/tests/vm/boot.sh" "$kver" "$cache" > "$cache/log" 2>&1 || true
grep -q '^vm: capture done' "$cache/log" || { echo "capture: the guest did not finish; see $cache/log" >&2; exit 1; }
grep '^vm: traced' "$cache/log" | sed 's/\r$//' >&2
out=$top/tests/traces
rm -f "$out"/*.blktrace.*
dd if="$cache/$kver/disk.img" bs=1M skip=448 2>/dev/null | tar xf - -C "$out"
for f in "$out"/*.blktrace.*; do
	[ "$(wc -c < "$f")" -le 1048576 ] || echo "capture: $f is over 1 MiB" >&2
done
ls -l "$out"/*.blktrace.* >&2
