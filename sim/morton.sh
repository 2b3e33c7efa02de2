#!/bin/sh
# Runs the examples that reproduce Andrew Morton's 2003 scheduler
# benchmarks and prints his times beside ours (deadline vs anticipatory).
# Usage: sim/morton.sh [antic-sim options...], e.g. --set wakeup=0
set -eu
cd "$(dirname "$0")/.."
SIM=${ANTIC_SIM:-build/antic-sim}
[ -x "$SIM" ] || { echo "morton.sh: $SIM not built (run make)" >&2; exit 1; }

# example | job whose time is measured (prefix; the slowest clone counts)
#         | his deadline s | his anticipatory s | what is timed
rows='write-vs-read|reader|48|3.8|cat 100 MB during a dd write loop
write-vs-tree|tree|447|17|read a 2.4.19 tree during a dd write loop
read-vs-tree|tree|219|17|read the tree during a streaming read
six-tree-readers|tree|230|50|six tree readers at once
ten-streams|stream|132|31|ten 100 MB streaming readers
read-vs-fsync|writer|7.7|11.9|write+fsync 100 MB during a streaming read
compile-vs-write|compile|400|70|compile during a dd write loop
compile-alone|compile|48|48|compile alone'

# columns per disk profile: deadline, anticipatory, their ratio
printf '%-42s %13s | %20s | %20s\n' "" "Morton 2003" "sata7200 (default)" "ide2003"
printf '%-42s %6s %6s | %6s %6s %6s | %6s %6s %6s\n' "seconds" "dl" "AS" \
	"dl" "AS" "dl/AS" "dl" "AS" "dl/AS"
printf '%s\n' "$rows" | while IFS='|' read -r ex job hdl has what; do
	line=$(printf '%-42s %6s %6s' "$what" "$hdl" "$has")
	for disk in sata7200 ide2003; do
		cell=$("$SIM" --quiet --output-format=csv --scheduler deadline,anticipatory \
			--set disk=$disk "$@" "examples/$ex.fio" |
		awk -F, -v job="$job" '
			NR > 1 && index($2, job) == 1 {
				t = $7 / 1000
				if (t > m[$1]) m[$1] = t
			}
			END {
				if (!(("deadline" in m) && ("anticipatory" in m)) || !m["anticipatory"])
					exit 1
				printf "%6.1f %6.1f %6.2f", m["deadline"], m["anticipatory"],
					m["deadline"] / m["anticipatory"]
			}') || { echo "morton.sh: $ex: no result for job $job" >&2; exit 1; }
		line="$line | $cell"
	done
	printf '%s\n' "$line"
done
