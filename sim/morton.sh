#!/bin/sh
# Runs the examples that reproduce Andrew Morton's 2003 scheduler
# benchmarks and prints his times beside ours (deadline vs anticipatory).
# Usage: sim/morton.sh [antic-sim options...], e.g. --set wakeup=0
set -eu
cd "$(dirname "$0")/.."
SIM=${ANTIC_SIM:-build/antic-sim}
[ -x "$SIM" ] || { echo "morton.sh: $SIM not built (run make)" >&2; exit 1; }

# his figures, and which job of each example they time: one file, which
# bench/report.py reads too
figures=bench/morton-2003.tsv

# columns per disk profile: deadline, anticipatory, their ratio
printf '%-42s %13s | %20s | %20s\n' "" "Morton 2003" "sata7200" "ide2003"
printf '%-42s %6s %6s | %6s %6s %6s | %6s %6s %6s\n' "seconds" "dl" "AS" \
	"dl" "AS" "dl/AS" "dl" "AS" "dl/AS"
grep -v -e '^#' -e '^workload	' "$figures" |
while IFS='	' read -r ex has hdl job what source; do
	line=$(printf '%-42s %6s %6s' "$what" "$hdl" "$has")
	for disk in sata7200 ide2003; do
		cell=$("$SIM" --quiet --output-format=csv --scheduler deadline,anticipatory \
			--set disk=$disk "$@" "examples/$ex.fio" |
		awk -F, -v job="$job" '
			NR > 1 && index($2, job) == 1 {
				t = $7 / 1000
				if (t > m[$1]) m[$1] = t
				if ($13 == 1) capped[$1] = 1
			}
			# a run stopped at max_time is a bound: ">T", and ">R" for the ratio
			function cell(s) { return (s in capped ? ">" : "") sprintf("%.1f", m[s]) }
			END {
				if (!(("deadline" in m) && ("anticipatory" in m)) || !m["anticipatory"])
					exit 1
				r = sprintf("%.2f", m["deadline"] / m["anticipatory"])
				if ("anticipatory" in capped)
					r = "?"
				else if ("deadline" in capped)
					r = ">" r
				printf "%6s %6s %6s", cell("deadline"), cell("anticipatory"), r
			}') || { echo "morton.sh: $ex: no result for job $job" >&2; exit 1; }
		line="$line | $cell"
	done
	printf '%s\n' "$line"
done
