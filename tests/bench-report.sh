#!/bin/sh
# bench/report.py on a hand-made guest log in guest-bench.sh's format
# (tests/bench-report/guest.log: finished, projected and capped runs, a
# document cut short, cost runs), with antic-sim's predictions fixed by
# tests/bench-report/fake-sim.sh so the test does not move with the model:
# the table byte for byte, the JSON by key, the plot, and a run with the
# real antic-sim. Prints "N passed, N failed" last.
cd "$(dirname "$0")/.."
dir=tests/bench-report
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
check() { name=$1; shift; if "$@"; then ok "$name"; else ko "$name"; fi; }

if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py $dir/guest.log "$out/r" > "$out/stdout" 2> "$out/stderr"; then
	ok "report.py runs"
else
	cat "$out/stderr"; ko "report.py runs"
fi
check "table as expected" diff -u $dir/expected.txt "$out/r.txt"
check "a document cut short is reported" \
	grep -q 'no fio JSON for 1 write-vs-tree anticipatory 1 streamer' "$out/stderr"
if command -v gnuplot >/dev/null 2>&1; then
	check "plot drawn" test -s "$out/r.png" -a -s "$out/r.svg"
else
	check "no plot without gnuplot" grep -q 'no plot: install gnuplot-nox' "$out/stdout"
fi

# the JSON, by key: one "PASS name" or "FAIL name" line per check
python3 - "$out/r.json" > "$out/json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = {(x["depth"], x["workload"], x["scheduler"]): x for x in r["results"]}
cost = {(x["scheduler"], x["load"]): x for x in r["cost"]}
wr, wt = res[(1, "write-vs-read", "mq-deadline")], res[(1, "write-vs-tree", "mq-deadline")]
wa, rw = res[(1, "write-vs-tree", "anticipatory")], res[(1, "random-vs-write", "mq-deadline")]
checks = [
    ("kernel and disk", r["kernel"] == "6.12.0-test" and r["disk"]["rpm"] == 7200),
    ("six results", len(r["results"]) == 6),
    ("finished run", (wr["time_s"], wr["metric"], wr["censored"], wr["projected"],
                      wr["fio_error"], wr["throughput_fraction"], wr["sim_time_s"])
     == (9.29, 9.29, False, False, False, 0.4833, 64.109)),
    ("projected run", (wt["time_s"], wt["metric"], wt["censored"], wt["projected"], wt["fio_error"])
     == (22.2, 184.2, False, True, False)),
    ("capped run is a bound", (wa["metric"], wa["censored"], wa["projected"], wa["sim_time_s"])
     == (22.3, True, False, 8.7)),
    ("cut-short document skipped", [j["role"] for j in wa["jobs"]] == ["measured", "writer"]),
    ("latency metric", (rw["metric"], rw["sim_time_s"], rw["jobs"][0]["read_p50_ms"],
                        rw["jobs"][0]["read_p99_ms"]) == (42.0, 54.0, 42.0, 450.0)),
    ("job figures", (wr["jobs"][0]["name"], wr["jobs"][0]["read_p99_ms"], wr["jobs"][1]["write_MBps"])
     == ("cat", 198.18, 10.82)),
    ("cost runs", len(r["cost"]) == 8 and cost[("anticipatory", "reads")]
     == {"scheduler": "anticipatory", "load": "reads", "runs": 2, "iops": 26500, "iops_min": 26000,
         "iops_max": 27000, "cpu_us_per_io": 76.604, "iops_vs_none": 0.855, "cpu_vs_none": 1.17}),
]
for name, good in checks:
    print("%s json: %s" % ("PASS" if good else "FAIL", name))
PY
cat "$out/json"
pass=$((pass + $(grep -c '^PASS' "$out/json"))) fail=$((fail + $(grep -c '^FAIL' "$out/json")))
grep -q '^PASS' "$out/json" || ko "json checks ran"

# the real simulator: its predictions stand in brackets beside the kernel's
if [ -x build/antic-sim ] && python3 bench/report.py $dir/guest.log "$out/s" > /dev/null 2>&1; then
	check "antic-sim's predictions" grep -Eq '^write-vs-read +- +[0-9.]+ \[[0-9.]+\] .* [0-9.]+ \[[0-9.]+\]' "$out/s.txt"
else
	ko "antic-sim's predictions (build/antic-sim built?)"
fi
# sim/morton.sh reads the same figures: a header of two lines and a row each
rows=$(grep -vc -e '^#' -e '^workload	' bench/morton-2003.tsv)
check "sim/morton.sh reads bench/morton-2003.tsv" \
	test "$(sim/morton.sh 2>/dev/null | grep -c ' | ')" -eq $((rows + 2))

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
