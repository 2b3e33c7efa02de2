#!/bin/sh
# sim-targets.sh - the simulator's table of targets: each example (EXAMPLES) on each disk
# and depth under the three policies, and anticipatory with each depth-32
# rule, the share rule and the newcomer favour switched off (the A/B), printed by
# bench/sim-targets.py.
# Usage: bench/sim-targets.sh [OUTDIR]   (DISKS, DEPTHS and EXAMPLES from the
# environment; BASE=path/to/another/antic-sim adds its anticipatory, e.g.
# main's, to compare). EXAMPLES defaults to Morton's workloads and the
# random readers beside a writer: not the ionice examples, whose
# files lie beyond a 40 GB disk's end (they have a test of their own), nor
# direct-reader-beside-writer, whose writer sim-targets.py has no measure
# for.
set -eu
cd "$(dirname "$0")/.."
SIM=build/antic-sim
[ -x "$SIM" ] || { echo "sim-targets.sh: build $SIM first (make)" >&2; exit 1; }
DISKS=${DISKS:-"st2000dm006 ide2003"}
DEPTHS=${DEPTHS:-"32 1"}
EXAMPLES=${EXAMPLES:-"compile-alone compile-vs-write random-vs-write read-vs-fsync read-vs-tree \
six-tree-readers ten-streams write-vs-read write-vs-tree"}
BASE=${BASE:-}
OUT=${1:-build/sim-targets}
rm -rf "$OUT.tmp"
mkdir -p "$OUT.tmp"
for d in $DISKS; do
	for q in $DEPTHS; do
		for e in $EXAMPLES; do
			f=examples/$e.fio
			[ -f "$f" ] || { echo "sim-targets.sh: EXAMPLES: no $f" >&2; exit 1; }
			base="$OUT.tmp/$d-q$q-$e"
			"$SIM" --quiet --output-format json --set disk="$d" --set queue_depth="$q" \
				--output "$base-all.json" "$f" || [ $? -eq 3 ]
			for v in no-inflight:antic_in_flight=0 no-bound:write_bound=0 \
				no-syncw:sync_write_expire=0 no-share:share_window=0 \
				no-newcomer:newcomer_expire=0 no-plug:newcomer_plug=0; do
				"$SIM" --quiet --output-format json --scheduler anticipatory \
					--set disk="$d" --set queue_depth="$q" --set "${v#*:}" \
					--output "$base-${v%%:*}.json" "$f" || [ $? -eq 3 ]
			done
			"$SIM" --quiet --output-format json --scheduler anticipatory \
				--set disk="$d" --set queue_depth="$q" --set antic_in_flight=0 \
				--set write_bound=0 --set sync_write_expire=0 --set share_window=0 \
				--set newcomer_expire=0 --output "$base-none.json" "$f" || [ $? -eq 3 ]
			if [ -n "$BASE" ]; then
				"$BASE" --quiet --output-format json --scheduler anticipatory \
					--set disk="$d" --set queue_depth="$q" --output "$base-base.json" "$f" || [ $? -eq 3 ]
			fi
		done
	done
done
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
exec python3 bench/sim-targets.py "$OUT" examples
