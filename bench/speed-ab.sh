#!/bin/sh
# The simulator's speed before and after, measured in one run: builds
# `make bench` at REV (default: the previous commit) beside the working
# tree's, runs them in alternation ROUNDS times (default 3), and prints
# each side's closed-loop replay rate (median CPU column of the
# "anticipatory closed" row) per round, then their medians and ranges.
# Alternation spreads a shared machine's moods over both sides. Both are
# built by the working tree's bench.c, with the Makefile of their own tree.
# Usage: bench/speed-ab.sh [REV] [ROUNDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD~1} rounds=${2:-3}
old=$top/build/speed-ab-old
cd "$top"
make -s build/bench >/dev/null
rm -rf "$old"
git worktree add -q --detach "$old" "$rev"
trap 'git -C "$top" worktree remove --force "$old"' EXIT
# one harness for both: the working tree's bench.c and Makefile rule, so
# that only the simulator differs (REV must have the same sim_run API)
cp tests/bench.c "$old/tests/bench.c"
make -s -C "$old" build/bench >/dev/null
rate() {	# $1: a bench binary, run from its tree (the trace goes in build/)
	(cd "$2" && "$1" | awk '/^anticipatory closed/ { print $4 }')
}
a="" b=""
i=1
while [ "$i" -le "$rounds" ]; do
	x=$(rate "$old/build/bench" "$old") y=$(rate "$top/build/bench" "$top")
	[ -t 2 ] && echo "speed-ab: round $i of $rounds: $rev $x, working tree $y" >&2
	a="$a $x" b="$b $y"
	i=$((i + 1))
done
python3 - "$rev" "$a" "$b" <<'P'
import statistics, sys
rev, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
for name, v in ((rev, a), ("working tree", b)):
    print(f"{name:>14}: median {statistics.median(v)/1e6:.2f} M requests per CPU second "
          f"(range {min(v)/1e6:.2f}-{max(v)/1e6:.2f}; rounds: {' '.join(f'{x/1e6:.2f}' for x in v)})")
ratio = statistics.median(b) / statistics.median(a)
overlap = min(b) <= max(a) and min(a) <= max(b)
print(f"ratio of medians: {ratio:.2f} ({'within noise: the ranges overlap' if overlap else 'the ranges do not overlap'})")
P
