#!/bin/sh
# bench/report.py on hand-made guest logs in guest-bench.sh's format
# (tests/bench-report/guest.log, one repetition in the older format:
# finished, projected and capped runs, a document cut short, cost runs;
# guest2.log, three repetitions on two disks with start-up rows), with
# antic-sim's predictions fixed by tests/bench-report/fake-sim.sh so the
# test does not move with the model: the tables byte for byte, the JSON by
# key, the verdicts, the plot's kinds, README's section, and a run with the
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
# cost runs without none (QUICK=1's schedulers): no ratio to none, no crash
grep -v -e '^COST none ' -e '^FIO 0 cost-[^ ]* none ' $dir/guest.log > "$out/nonone.log"
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/nonone.log" "$out/n" > /dev/null 2> "$out/n.err" &&
	grep -Eq '^anticipatory +reads +26500 +\(26000-27000\) +- ' "$out/n.txt"; then
	ok "cost runs without none"
else
	cat "$out/n.err"; ko "cost runs without none"
fi
# a variant of ours run beside it (bench/variant-ko.sh's asbase): its own
# column after the known schedulers, the same figures for the same runs,
# and left out of the plot rather than stopping it
awk '{ print } ($1 == "RES" || $1 == "FIO") && $4 == "anticipatory" { $4 = "asbase"; print }' \
	$dir/guest2.log > "$out/variant.log"
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/variant.log" "$out/v" > /dev/null 2> "$out/v.err" &&
	python3 - "$out/v.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
heads = [l for l in lines if l.startswith("workload ")]
rows = [l for l in lines if l.startswith("write-vs-read ")]
# anticipatory's "median [range] {sim}", then asbase's "median [range]", alike
same = [re.findall(r"(\S+ \[\S+\]) \{\S+\} +(\S+ \[\S+\])", r) for r in rows]
ok = heads and all(h.split()[-5:-3] == ["anticipatory", "asbase"] for h in heads) and \
    rows and all(m and m[-1][0] == m[-1][1] for m in same)
sys.exit(0 if ok else 1)
PY
then
	ok "a variant's column"
else
	cat "$out/v.err"; ko "a variant's column"
fi
# AS_SET's tunables (the header's as_set=) go to the prediction, every call
sed '1s/$/ as_set=read_expire=1000 antic_expire=3/' $dir/guest2.log > "$out/asset.log"
printf '#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' "$out/args" "$PWD/$dir/fake-sim.sh" > "$out/sim.sh"
chmod +x "$out/sim.sh"
if ANTIC_SIM="$out/sim.sh" python3 bench/report.py "$out/asset.log" "$out/a" > /dev/null 2> "$out/a.err" &&
	grep -v -e --list-schedulers "$out/args" | grep -q . &&
	! grep -v -e --list-schedulers "$out/args" |
		grep -v -e '--set read_expire=1000 .*--set antic_expire=3' | grep -q .; then
	ok "AS_SET's tunables in the predictions"
else
	cat "$out/a.err"; ko "AS_SET's tunables in the predictions"
fi
# the error compares like with like: antic-sim's job runtime against the
# kernel's (fio's job_runtime, 3380 ms in guest.log), not the run's wall
# time (3680 ms, fio's setup included); a run without it keeps the wall time
check "error against fio's job runtime, not the wall time" python3 - "$out/r.json" <<'PY'
import json, sys
rs = {(r["workload"], r["scheduler"]): r for r in json.load(open(sys.argv[1]))["results"]}
a, m = rs[("write-vs-read", "anticipatory")], rs[("write-vs-read", "mq-deadline")]
sys.exit(0 if a["median"] == 3.68 and a["kernel_io_time"] == 3.38 and
         a["sim_error"] == round((a["sim_prediction"] - 3.38) * 100 / 3.38, 1) and
         m["kernel_io_time"] is not None and rs[("random-vs-write", "mq-deadline")]["kernel_io_time"] is None
         else 1)
PY
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
res = {(x["disk"], x["depth"], x["workload"], x["load"], x["scheduler"]): x for x in r["results"]}
cost = {(x["scheduler"], x["load"]): x for x in r["cost"]}
k = lambda w, s: ("ide2003", 1, w, None, s)
wr, wt = res[k("write-vs-read", "mq-deadline")], res[k("write-vs-tree", "mq-deadline")]
wa, rw = res[k("write-vs-tree", "anticipatory")], res[k("random-vs-write", "mq-deadline")]
ar = res[k("write-vs-read", "anticipatory")]
checks = [
    ("kernel, and a log without DISK lines is ide2003's", r["kernel"] == "6.12.0-test"
     and r["disks"] == [{"disk": "ide2003", "depth": 1}]),
    ("six results", len(r["results"]) == 6),
    ("finished run", (wr["median"], wr["min"], wr["max"], wr["capped"], wr["median_kind"],
                      wr["fio_error"], wr["sim_prediction"], wr["repetitions"])
     == (9.29, 9.29, 9.29, False, "done", False, 64.109, [{"rep": 1, "value": 9.29, "kind": "done"}])),
    ("projected run", (wt["median"], wt["capped"], wt["median_kind"], wt["repetitions"][0]["kind"],
                       wt["sim_error"]) == (184.2, True, "partial", "projected", None)),
    ("capped run is a bound", (wa["median"], wa["capped"], wa["median_kind"], wa["sim_prediction"],
                               wa["sim_error"]) == (22.3, True, "bound", 8.7, None)),
    ("cut-short document skipped", [j["role"] for j in wa["jobs"]] == ["measured", "writer"]),
    ("latency metric", (rw["median"], rw["unit"], rw["sim_prediction"], rw["sim_error"],
                        rw["jobs"][0]["read_p99_ms"]) == (42.0, "ms", 54.0, 28.6, 450.0)),
    ("one run has no verdict", ar["vs"]["mq-deadline"] == {"ratio": 0.396, "verdict": "one run"}),
    ("job figures", (wr["jobs"][0]["name"], wr["jobs"][0]["read_p99_ms"], wr["jobs"][1]["write_MBps"])
     == ("cat", 198.18, 10.82)),
    ("cost runs", len(r["cost"]) == 8 and cost[("anticipatory", "reads")]
     == {"scheduler": "anticipatory", "load": "reads", "runs": 2, "iops": 26500, "iops_min": 26000,
         "iops_max": 27000, "cpu_us_per_io": 76.604, "iops_vs_none": 0.855, "cpu_vs_none": 1.17}),
    # round 1: 27000 / 25000, round 2: 26000 / 23000
    ("cost ratios round by round", {(x["load"], x["vs"]): x for x in r["cost_ratios"]}
     [("reads", "mq-deadline")] == {"load": "reads", "vs": "mq-deadline", "rounds": 2, "median": 1.105,
                                    "min": 1.08, "max": 1.13, "target": 0.95,
                                    "verdict": "met in every round"}),
]
# the targets' verdicts, on rounds made up here (a round one side lacks is left out)
sys.path.insert(0, "bench")
import report
def row(*by_rep):
    return {"by_rep": {i + 1: v for i, v in enumerate(by_rep) if v is not None}}
made = {("anticipatory", "reads"): row(80, 95, 100, 50), ("mq-deadline", "reads"): row(100, 100, 100),
        ("bfq", "reads"): row(90, 100, 110), ("kyber", "reads"): row(100, 100, 100, 100),
        ("none", "reads"): row(200, 200, 200, 200)}
v = {x["vs"]: x for x in report.cost_ratios(made)}
checks += [
    ("cost verdict: met by the median", (v["mq-deadline"]["rounds"], v["mq-deadline"]["median"],
                                        v["mq-deadline"]["verdict"])
     == (3, 0.95, "met by the median, not in every round")),
    ("cost verdict: missed", (v["bfq"]["median"], v["bfq"]["verdict"]) == (0.909, "missed")),
    ("cost ratio without a target", "verdict" not in v["kyber"] and "none" not in v),
]
# a round at 0.89996 prints as 0.9 but misses a target of 0.9
v = report.cost_ratios({("anticipatory", "reads"): row(8999.6), ("mq-deadline", "reads"): row(10000)})
checks.append(("cost verdict judged unrounded", (v[0]["min"], v[0]["verdict"]) == (0.9, "missed")))
for name, good in checks:
    print("%s json: %s" % ("PASS" if good else "FAIL", name))
PY
cat "$out/json"
pass=$((pass + $(grep -c '^PASS' "$out/json"))) fail=$((fail + $(grep -c '^FAIL' "$out/json")))
grep -q '^PASS' "$out/json" || ko "json checks ran"

# a log of three repetitions on two disks with start-up rows
# (tests/bench-report/guest2.log): medians and ranges, the verdicts, a
# start-up stopped at its cap, the load's throughput, the plot's kinds and
# README's section
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py $dir/guest2.log "$out/g" > "$out/g.stdout" 2> "$out/g.stderr"; then
	ok "report.py runs on repetitions"
else
	cat "$out/g.stderr"; ko "report.py runs on repetitions"
fi
check "repetitions' table as expected" diff -u $dir/expected2.txt "$out/g.txt"
# (expected.txt and expected2.txt are report.py's tables of guest.log and
# guest2.log with fake-sim.sh, as above: after a change to the tables,
# regenerate them with ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py
# $dir/guest.log /tmp/r; cp /tmp/r.txt $dir/expected.txt, and so for
# guest2.log, and read the diff)
# antic-sim's load starts as long before the measured job as the
# kernel's did: guest2.log's documents at st2000dm006 given fio's
# timestamp_ms and job_runtime, anticipatory's writer started 10 s before
# the cat in every repetition (its fio left 0, 5 and 11 s after the cat
# ended: its job_runtime less the cat's is 10, 15 and 21 s), mq-deadline's
# 6.4 and 6.6 s and a repetition whose measured fio ran no job (stopped
# while setting up: job_runtime 0, a timestamp that is no start; left
# out, median 6.5);
# ide2003's documents have none: antic-sim gets the header's warm-up
# there, and the figures say so
python3 - $dir/guest2.log "$out/lead.log" <<'PY'
import json, sys
lead = {("anticipatory", 1): (10000, 0), ("anticipatory", 2): (10000, 5000),
        ("anticipatory", 3): (10000, 11000), ("mq-deadline", 1): (6400, 0),
        ("mq-deadline", 2): (6600, 2000), ("mq-deadline", 3): (9000, 0)}
unstarted = ("mq-deadline", 3)
disk, out = None, []
for line in open(sys.argv[1]):
    w = line.split(" ", 6)
    if w[0] == "DISK":
        disk = w[1]
    if w[0] == "FIO" and disk == "st2000dm006" and w[2] == "write-vs-read" and \
            (w[3], int(w[4])) in lead:
        ms, tail = lead[(w[3], int(w[4]))]
        doc = json.loads(w[6])
        t0 = 100000 * int(w[4])  # the measured job's start, fio's clock
        rt = 3000 if w[5] == "measured" else 3000 + ms + tail
        if w[5] == "measured" and (w[3], int(w[4])) == unstarted:
            rt = 0
        doc["timestamp_ms"] = t0 + 3000 + (0 if w[5] == "measured" else tail)
        for j in doc["jobs"]:
            j["job_runtime"] = rt
        line = " ".join(w[:6] + [json.dumps(doc)]) + "\n"
    out.append(line)
open(sys.argv[2], "w").write("".join(out))
PY
rm -f "$out/lead.args"
if FAKE_SIM_ARGS="$out/lead.args" ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/lead.log" "$out/lead" \
	> /dev/null 2> "$out/lead.err" &&
	grep -q "^RANDRT=6 FAIRRT= WARM=10000ms .*--scheduler anticipatory .*disk=st2000dm006 .*write-vs-read.fio" "$out/lead.args" &&
	grep -q "^RANDRT=6 FAIRRT= WARM=6500ms .*--scheduler deadline .*disk=st2000dm006 .*write-vs-read.fio" "$out/lead.args" &&
	grep -q "^RANDRT=6 FAIRRT= WARM=3000ms .*--scheduler anticipatory,deadline .*disk=ide2003 .*write-vs-read.fio" "$out/lead.args" &&
	[ "$(grep -c 'write-vs-read.fio' "$out/lead.args")" -eq 3 ] &&
	grep -Eq '^st2000dm006 +32 write-vs-read +anticipatory +[0-9.]+ +[0-9.]+ +10\.0 ' "$out/lead.txt" &&
	grep -Eq '^st2000dm006 +32 write-vs-read +mq-deadline +[0-9.]+ +[0-9.]+ +6\.5 ' "$out/lead.txt" &&
	grep -Eq '^ide2003 +1 write-vs-read +anticipatory +[0-9.]+ +[0-9.]+ +3\.0\* ' "$out/lead.txt" &&
	python3 - "$out/lead.json" "$out/lead.txt" <<'PY'
import json, re, sys
rs = {(r["disk"], r["workload"], r["scheduler"]): r for r in json.load(open(sys.argv[1]))["results"]}
lead = lambda d, s: (rs[(d, "write-vs-read", s)].get("sim_lead_s"), rs[(d, "write-vs-read", s)].get("sim_lead_from"))
txt = open(sys.argv[2]).read().split("\n\n")
st = [p for p in txt if p.startswith("== st2000dm006 at queue depth 32: time")][0]
ide = [p for p in txt if p.startswith("== ide2003 at queue depth 1: time")][0]
ok = (lead("st2000dm006", "anticipatory") == (10.0, "log") and lead("st2000dm006", "mq-deadline") == (6.5, "log")
      and lead("ide2003", "anticipatory") == (3.0, "header") and "sim_lead_s" not in rs[("st2000dm006", "write-vs-read", "bfq")]
      and "*}" not in st and "{T*}" not in st and re.search(r"\{[0-9.]+\*\}", ide) and "{T*}: antic-sim's load started only" in ide)
sys.exit(0 if ok else 1)
PY
then
	ok "antic-sim's load gets the kernel's head start per scheduler (fio's timestamps), the warm-up marked where the log has none"
else
	cat "$out/lead.err" "$out/lead.args"; grep -A12 "^== antic-sim's error" "$out/lead.txt"
	ko "antic-sim's load gets the kernel's head start per scheduler (fio's timestamps), the warm-up marked where the log has none"
fi
printf '# t\n\n%s\nold\n%s\ntail\n' "$(sed -n 's/^START_MARK = "\(.*\)"$/\1/p' bench/report.py)" \
	"$(sed -n 's/^END_MARK = "\(.*\)"$/\1/p' bench/report.py)" > "$out/README.md"
check "README section written" python3 bench/report.py --readme "$out/README.md" "$out/g.json"
# a validation program (bench/startup/SETS) beside a tuning one: each set
# in a table of its own, titled so, in the tables, the JSON and README
awk '{ print } ($1 == "RES" || $1 == "SREPLAY" || $1 == "FIO") && $3 ~ /^startup-git@/ {
	sub(/startup-git@/, "startup-gcc@"); print }' $dir/guest2.log > "$out/sets.log"
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/sets.log" "$out/sets" > /dev/null 2> "$out/sets.err" &&
	printf '# t\n\n%s\nold\n%s\n' "$(sed -n 's/^START_MARK = "\(.*\)"$/\1/p' bench/report.py)" \
		"$(sed -n 's/^END_MARK = "\(.*\)"$/\1/p' bench/report.py)" > "$out/sets.md" &&
	python3 bench/report.py --readme "$out/sets.md" "$out/sets.json" 2>> "$out/sets.err" &&
	python3 - "$out/sets.txt" "$out/sets.json" "$out/sets.md" <<'PY'
import json, re, sys
txt = open(sys.argv[1]).read()
tables = {}
for part in re.split(r"\n(?===)", txt):
    m = re.search(r"under each background load, (tuning|validation) set", part.splitlines()[0])
    if m:
        tables[m.group(1)] = [l.split()[0] for l in part.splitlines()[3:] if l.startswith("startup-")]
sets = {(r["workload"], r["set"]) for r in json.load(open(sys.argv[2]))["results"] if "set" in r}
md = open(sys.argv[3]).read()
mt, mv = md.find("under load, tuning set"), md.find("under load, validation set")
ok = (set(tables.get("tuning", [])) == {"startup-git"} and set(tables.get("validation", [])) == {"startup-gcc"}
      and sets == {("startup-git", "tuning"), ("startup-gcc", "validation")}
      and 0 <= mt < mv and "startup-gcc" not in md[mt:mv] and "startup-gcc" in md[mv:])
sys.exit(0 if ok else 1)
PY
then
	ok "start-ups: the tuning and the validation set in tables of their own"
else
	cat "$out/sets.err"; ko "start-ups: the tuning and the validation set in tables of their own"
fi
ANTIC_SIM=$dir/fake-sim.sh python3 - "$out/g.json" "$out/README.md" "$out" > "$out/json2" 2>&1 <<'PY'
import json, sys
sys.path.insert(0, "bench")
import report
r = json.load(open(sys.argv[1]))
res = {(x["disk"], x["depth"], x["workload"], x["load"], x["scheduler"]): x for x in r["results"]}
k = lambda w, l, s, d=("st2000dm006", 32): d + (w, l, s)
dl, bq, aa = (res[k("write-vs-read", None, s)] for s in ("mq-deadline", "bfq", "anticipatory"))
g5 = {s: res[k("startup-git", "5r5w-seq", s)] for s in ("mq-deadline", "bfq", "anticipatory")}
gn = res[k("startup-git", "none", "anticipatory")]
ide = res[k("write-vs-read", None, "mq-deadline", ("ide2003", 1))]
readme = open(sys.argv[2]).read()
checks = [
    ("median, min, max of three", (dl["median"], dl["min"], dl["max"], len(dl["repetitions"]))
     == (9.5, 9.0, 10.0, 3)),
    ("a win where the ranges are apart", aa["vs"]["mq-deadline"] == {"ratio": 0.474, "verdict": "win"}),
    ("within noise where they overlap", aa["vs"]["bfq"] == {"ratio": 0.75, "verdict": "within noise"}),
    ("a start-up stopped at its cap is capped, and counts at the cap",
     (g5["bfq"]["capped"], g5["bfq"]["median_kind"], g5["bfq"]["repetitions"][0], g5["bfq"]["max"])
     == (True, "partial", {"rep": 1, "value": 15.0, "kind": "bound"}, 15.0)),
    ("a win against a cell with a capped run, the ranges apart",
     g5["anticipatory"]["vs"]["bfq"]["verdict"] == "win"),
    ("start-ups within noise", gn["vs"] == {"mq-deadline": {"ratio": 1.091, "verdict": "within noise"},
                                            "bfq": {"ratio": 1.0, "verdict": "within noise"}}),
    ("the load's throughput and its prediction",
     (g5["anticipatory"]["background"], g5["anticipatory"]["sim_background"])
     == ({"read_MBps": 35.0, "write_MBps": 5.0, "read_max_ms": [2000.0, 1500.0, 2500.0]},
         {"read_MBps": 60.0, "write_MBps": 12.0})),
    ("no longest read where fio logged none", "read_max_ms" not in g5["bfq"]["background"]),
    ("a run killed before its cap is left out",
     (res[k("write-vs-read", None, "bfq", ("ide2003", 1))]["median"],
      res[k("write-vs-read", None, "bfq", ("ide2003", 1))]["repetitions"][1])
     == (8.2, {"rep": 2, "value": None, "kind": "error"})),
    ("start-up prediction and error", (g5["mq-deadline"]["sim_prediction"], g5["mq-deadline"]["sim_error"],
                                       res[k("startup-git", "none", "mq-deadline")]["sim_error"])
     == (3.2, 0.0, 190.9)),
    ("no error against a capped cell", (ide["capped"], ide["sim_error"], ide["sim_prediction"])
     == (True, None, 64.109)),
    ("each record's I/O path, for the error's target", (g5["bfq"]["io_path"], dl["io_path"])
     == ("raw-direct", "ext4")),
    ("the disks in order", r["disks"] == [{"disk": "st2000dm006", "depth": 32}, {"disk": "ide2003", "depth": 1}]),
    ("README: the verdicts counted", "of 2 start-up cells, anticipatory started the program faster than "
     "mq-deadline beyond the noise in 1, slower in 0, and within noise in 1; against bfq 1 faster, "
     "0 slower, 1 within noise" in readme),
    ("README: the load's share", "moved 0.80-0.80 times what it moved under mq-deadline (median "
     "0.80): the load paid for part of anticipatory's faster start-ups" in readme),
    ("README: the guest's idle CPU per disk", "st2000dm006, depth 32 (guest CPU idle " in readme),
    ("README: only between the markers", readme.startswith("# t\n") and readme.endswith("tail\n")
     and "\nold\n" not in readme),
]
# the plot: a cell with a run stopped at its cap is never a plain bar
log = report.read_log("tests/bench-report/guest2.log")
cells = report.build_cells(log)
plot = report.write_reports(log, cells, {}, report.morton_figures(), sys.argv[3] + "/p")
capped = {(x["workload"] if x["load"] is None else "%s/%s" % (x["workload"][8:], x["load"]))
          + "@" + x["disk"] + " " + x["scheduler"] for x in r["results"] if x["capped"]}
labels, scheds, width, rows = report.plot_data(plot)
kind_of = {}
for p in plot:
    kind_of[p[0] + " " + p[1]] = p[5]
checks.append(("capped cells drawn hatched or as arrows", len(capped) == 2 and
               all(kind_of[c] != "done" for c in capped)))
script = report.gnuplot_script(plot, "t", sys.argv[3] + "/p.dat")
solid = [l for l in script.split(", \\\n") if "fill solid" in l and "keyentry" not in l]
checks.append(("solid bars only for finished cells", solid and all("$5 == 0 " in l for l in solid)))
for name, good in checks:
    print("%s repetitions: %s" % ("PASS" if good else "FAIL", name))
PY
cat "$out/json2"
pass=$((pass + $(grep -c '^PASS' "$out/json2"))) fail=$((fail + $(grep -c '^FAIL' "$out/json2")))
grep -q '^PASS' "$out/json2" || ko "repetition checks ran"

# the real simulator: its predictions stand in braces beside the kernel's,
# from bench/jobs and, for the start-ups, antic-sim replay beside the load
# (guest.log's figures marked: its documents have no timestamp_ms); each
# scheduler's own head start, in ms, and one scheduler a run, taken by it
if [ -x build/antic-sim ] && python3 bench/report.py $dir/guest.log "$out/s" > /dev/null 2>&1 &&
	python3 bench/report.py $dir/guest2.log "$out/s2" > /dev/null 2>&1; then
	check "antic-sim's predictions" grep -Eq '^write-vs-read +[0-9.]+ \{[0-9.]+\*\} +[0-9.]+ \{[0-9.]+\*\}' "$out/s.txt"
	check "antic-sim's predictions with the kernel's head start" sh -c "python3 bench/report.py '$out/lead.log' '$out/sl' > /dev/null 2>&1 &&
		grep -Eq '^write-vs-read +[0-9.]+ \[[0-9.-]+\] \{[0-9.]+\} +[0-9.]+ \[[0-9.-]+\] +[0-9.]+ \[[0-9.-]+\] \{[0-9.]+\} ' '$out/sl.txt' &&
		grep -Eq '^st2000dm006 +32 write-vs-read +anticipatory +[0-9.]+ +[0-9.]+ +10\.0 ' '$out/sl.txt'"
	check "antic-sim's start-up predictions" \
		grep -Eq '^startup-git 5r5w-seq +[0-9.]+ \[[0-9.-]+\] \{[0-9.]+\} .* \{[0-9.]+\}' "$out/s2.txt"
else
	ko "antic-sim's predictions (build/antic-sim built?)"
fi
# the verdict rule with the instrument's margin: a null A/B (one module
# under two names, asbase here) whose repetition 1 differs by 20 % gives
# --ab's spread; a report given it (--null) calls a difference only beyond
# it. mq-deadline's write-vs-read at st2000dm006 made 5.1-5.3 s: its range
# lies apart from anticipatory's 4.0-5.0 s, the medians 13 % apart.
awk '{ print } ($1 == "RES" || $1 == "FIO") && $4 == "anticipatory" && $3 == "write-vs-read" {
	$4 = "asbase"; if ($1 == "RES" && $5 == 1) $6 = $6 * 1.2; print }' $dir/guest2.log > "$out/null.log"
awk '$1 == "RES" && $2 == 32 && $3 == "write-vs-read" && $4 == "mq-deadline" { $6 = 5000 + 100 * $5 } { print }' \
	$dir/guest2.log > "$out/close.log"
rp() { ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$@" > /dev/null 2>> "$out/ab.err"; }
vs() {	# vs JSON: anticipatory's verdict against mq-deadline in write-vs-read at st2000dm006
	python3 -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if (x["disk"], x["workload"], x["scheduler"])
     == ("st2000dm006", "write-vs-read", "anticipatory")]
print(r[0]["vs"]["mq-deadline"]["verdict"])' "$1"
}
if rp --ab anticipatory:asbase "$out/null.log" "$out/null" &&
	python3 -c 'import json, sys
ab = json.load(open(sys.argv[1]))["ab"]
c = [x for x in ab if x["disk"] == "st2000dm006" and x["workload"] == "write-vs-read"]
sys.exit(0 if len(c) == 1 and (c[0]["spread_pct"], c[0]["verdict"], c[0]["ratios"]) == (20.0, "same", [1.2, 1.0, 1.0]) else 1)' "$out/null.json" &&
	grep -q '^== A/B: asbase (B) against anticipatory (A)' "$out/null.txt"; then
	ok "--ab: a null A/B's spread, and every cell the same"
else
	cat "$out/ab.err"; ko "--ab: a null A/B's spread, and every cell the same"
fi
rp "$out/close.log" "$out/c0" && rp --null "$out/null.json" "$out/close.log" "$out/c1" &&
	rp --margin 10 "$out/close.log" "$out/c2"
check "verdict: ranges apart and no margin given is a win" test "$(vs "$out/c0.json")" = win
check "verdict: within the null A/B's spread is no win" test "$(vs "$out/c1.json")" = "within noise"
check "verdict: beyond a stated margin is a win" test "$(vs "$out/c2.json")" = win
check "the margin in the JSON" grep -q '"margin_pct": 20.0' "$out/c1.json"
# per cell: a null A/B that ran write-vs-read at st2000dm006 with no
# spread and at ide2003 with 20 % judges st2000dm006's by its own 0 %
# (a win, the ranges apart), not by the largest spread
awk '{ print } ($1 == "RES" || $1 == "FIO") && $4 == "anticipatory" && $3 == "write-vs-read" {
	$4 = "asbase"; if ($1 == "RES" && $5 == 1 && $2 == 1) $6 = $6 * 1.2; print }' $dir/guest2.log > "$out/null2.log"
rp --ab anticipatory:asbase "$out/null2.log" "$out/null2" && rp --null "$out/null2.json" "$out/close.log" "$out/c4"
check "verdict: each cell by its own null spread" test "$(vs "$out/c4.json")" = win
# two null A/Bs: a cell takes the largest spread either shows for it
rp --null "$out/null.json" --null "$out/null2.json" "$out/close.log" "$out/c6"
check "verdict: --null twice, a cell by the larger of its spreads" test "$(vs "$out/c6.json")" = "within noise"
# and never below 2 %: anticipatory 5.01-5.03 s against mq-deadline's
# 5.06-5.08 s, the ranges apart, a null spread of 0 %: 1 % is no verdict
awk '$1 == "RES" && $2 == 32 && $3 == "write-vs-read" && $4 == "anticipatory" { $6 = 5000 + 10 * $5 }
	$1 == "RES" && $2 == 32 && $3 == "write-vs-read" && $4 == "mq-deadline" { $6 = 5050 + 10 * $5 } { print }' \
	$dir/guest2.log > "$out/near.log"
rp "$out/near.log" "$out/n0" && rp --null "$out/null2.json" "$out/near.log" "$out/n1"
check "verdict: a cell's null margin is at least 2 %" test "$(vs "$out/n0.json") $(vs "$out/n1.json")" = "win within noise"
if ! python3 bench/report.py --null "$out/c0.json" "$out/close.log" "$out/c3" > /dev/null 2> "$out/c3.err" &&
	grep -q "c0.json: no \"ab\" cells" "$out/c3.err" && [ ! -e "$out/c3.txt" ]; then
	ok "--null without A/B cells: an error naming the file, nothing written"
else
	ko "--null without A/B cells: an error naming the file, nothing written"
fi
# two boots: the same JSON twice repeats; one figure 3 % off is named, and
# the run still passes (34 of 35 within 2 %); every figure 3 % off fails
sed 's/"rep": 1, "value": 5.1,/"rep": 1, "value": 5.253,/' "$out/c0.json" > "$out/c0b.json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    for x in r["repetitions"]:
        x["value"] = x["value"] and x["value"] * 1.03
json.dump(d, open(sys.argv[2], "w"))' "$out/c0.json" "$out/c0c.json"
if python3 bench/report.py --repeat "$out/c0.json" "$out/c0.json" > "$out/rp1" &&
	python3 bench/report.py --repeat "$out/c0.json" "$out/c0b.json" > "$out/rp2" &&
	grep -Eq ' 1 +5.10 +5.25 +\+3.0% NO$' "$out/rp2" && grep -q '^34 of 35 within 2 %' "$out/rp2" &&
	! python3 bench/report.py --repeat "$out/c0.json" "$out/c0c.json" > "$out/rp3" &&
	grep -q '^0 of 35 within 2 %' "$out/rp3"; then
	ok "--repeat: boot against boot, 2 % per repetition, 90 % of them"
else
	tail -n 3 "$out/rp1" "$out/rp2" "$out/rp3"; ko "--repeat: boot against boot, 2 % per repetition, 90 % of them"
fi
# fairness: each job's IOPS, p50, p99 from the measured run's fio JSON,
# and its share: IOPS beside the other over IOPS alone (the fair-solo run
# under the same scheduler); a guest log made here, two repetitions
python3 - "$out/fair.log" <<'PY'
import json, sys
def job(name, d, iops, p50, p99):
    io = {"io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0, "runtime": 0, "total_ios": 0,
          "clat_ns": {"percentile": {}}}
    x = dict(io, iops=iops, total_ios=int(iops * 10), runtime=10000,
             clat_ns={"mean": (p50 + 1) * 1e6, "percentile": {"50.000000": p50 * 1e6, "99.000000": p99 * 1e6}})
    return {"jobname": name, "job_runtime": 10000, "read": x if d == "r" else io, "write": x if d == "w" else io}
runs = [("fair-aio", [job("writer", "w", 5, 200, 300), job("reader", "r", 150, 80, 350)]),
        ("fair-solo-writer", [job("writer", "w", 100, 10, 12)]),
        ("fair-solo-aio", [job("reader", "r", 200, 70, 90)])]
with open(sys.argv[1], "w") as f:
    f.write("vm: kernel 6.12.0-test, 1 cpus, quick=0 reps=2 cap=10s (compile 90s, start-up 10s) "
            "disks=sata7200:1 warm=2s time_scale=0.1\nDISK sata7200 1\n")
    for rep in (1, 2):
        for w, jobs in runs:
            f.write("RES 1 %s mq-deadline %d 10300 1 90 100 1000 10000 900 0\nWALL %d\n" % (w, rep, rep * 1000))
            if rep == 2:  # the second repetition's reader got 170 IOPS beside the writer
                jobs = [dict(j, read=dict(j["read"], iops=170)) if j["jobname"] == "reader" and w == "fair-aio"
                        else j for j in jobs]
            f.write("FIO 1 %s mq-deadline %d measured %s\n" % (w, rep, json.dumps({"jobs": jobs})))
PY
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/fair.log" "$out/f" > /dev/null 2> "$out/f.err" &&
	python3 -c 'import json, sys
f = {x["job"]: x for x in json.load(open(sys.argv[1]))["fairness"]}
ok = (f["reader"]["iops"], f["reader"]["p50_ms"], f["reader"]["p99_ms"], f["reader"]["share"]) == (160.0, 80.0, 350.0, 0.8) \
    and (f["writer"]["iops"], f["writer"]["share"]) == (5.0, 0.05) and len(f) == 2
sys.exit(0 if ok else 1)' "$out/f.json" && grep -q '^== fairness on the raw disk' "$out/f.txt" &&
	grep -q '^wall time per run (host s): median 0.0 \[0.0-1.0\] over 5 runs' "$out/f.txt" &&
	grep -Eq '^fair-aio +81\.0 ' "$out/f.txt"; then
	ok "fairness: IOPS, p50, p99 and share of the disk per job, the reader's mean latency in the table; wall time per run"
else
	cat "$out/f.err"; sed -n '/== the instrument/,$p' "$out/f.txt"; ko "fairness: IOPS, p50, p99 and share of the disk per job, the reader's mean latency in the table; wall time per run"
fi
# an isolated run (vmbench.sh ISOLATE=1): a boot a run, the boots' logs one
# after another; each run's wall time is its own boot's stamp, the total
# the last line's, and the disk is named once
python3 - "$out/fair.log" "$out/iso.log" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
head, runs = lines[:2], [l for l in lines[2:] if not l.startswith("WALL")]
with open(sys.argv[2], "w") as f:
    for i in range(0, len(runs), 2):  # a RES line and its FIO line: one boot
        f.write("\n".join(head + [runs[i], "WALL %d" % (10000 + 1000 * i), runs[i + 1], "VMBENCH END", "WALL 99"]) + "\n")
    f.write("VMBENCH END isolated: %d boots\nWALL 600000\n" % (len(runs) // 2))
PY
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/iso.log" "$out/iso" > /dev/null 2> "$out/iso.err" &&
	grep -q '^wall time per run, each a boot of its own (host s): median 15.0 \[10.0-20.0\] over 6 runs; 10.0 min in all' "$out/iso.txt" &&
	python3 -c 'import json, sys; sys.exit(0 if len(json.load(open(sys.argv[1]))["disks"]) == 1 else 1)' "$out/iso.json"; then
	ok "an isolated run: each run's wall time its boot's, the disk once"
else
	cat "$out/iso.err"; grep '^wall' "$out/iso.txt"; ko "an isolated run: each run's wall time its boot's, the disk once"
fi
# isolated parts merge with each run's own wall time and the parts' totals
# summed (boots of different cells may share a boot_id); an isolated part
# beside a shared one is refused
python3 - "$out/iso.log" "$out/isop" <<'PY'
import sys
boots, cur = [], []
for l in open(sys.argv[1]).read().splitlines():
    if l.startswith("VMBENCH END isolated"):
        break
    cur.append(l)
    if l == "WALL 99":
        boots.append(cur)
        cur = []
for i, part in enumerate((boots[:3], boots[3:])):
    with open("%s%d.log" % (sys.argv[2], i + 1), "w") as f:
        f.write("vm: boot_id same-id, date x\n")
        f.write("\n".join(sum(part, [])) + "\nVMBENCH END isolated: 3 boots\nWALL 300000\n")
PY
if ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/isop1.log" "$out/isop2.log" "$out/isom" > /dev/null 2> "$out/isom.err" &&
	grep -q '^wall time per run, each a boot of its own (host s): median 15.0 \[10.0-20.0\] over 6 runs; 10.0 min in all' "$out/isom.txt" &&
	! ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/isop1.log" "$out/fair.log" "$out/isox" > /dev/null 2> "$out/isox.err" &&
	grep -q "ISOLATE=1) in some parts, not in others" "$out/isox.err" && [ ! -e "$out/isox.txt" ]; then
	ok "isolated parts: merged with each run's own wall time; beside a shared part refused"
else
	cat "$out/isom.err" "$out/isox.err"; grep '^wall' "$out/isom.txt"; ko "isolated parts: merged with each run's own wall time; beside a shared part refused"
fi
# the fairness predictions get AS_SET's tunables too
sed '1s/$/ as_set=antic_expire=3/' "$out/fair.log" > "$out/fairset.log"
rm -f "$out/fs.args"
if FAKE_SIM_ARGS="$out/fs.args" ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$out/fairset.log" "$out/fs" \
	> /dev/null 2> "$out/fs.err" && grep -q "fair-aio" "$out/fs.args" &&
	! grep -v -e --list-schedulers "$out/fs.args" | grep -v -e '--set antic_expire=3' | grep -q .; then
	ok "AS_SET's tunables in the fairness predictions"
else
	cat "$out/fs.err" "$out/fs.args"; ko "AS_SET's tunables in the fairness predictions"
fi
# ext4's tree map (bench/layouts) only for a log whose boots made a fresh
# file system for each run (fresh=1 in the boot line): not for fresh=0, nor
# for a log older than that line (its runs shared one file system)
boot='vm: boot_id b-1, date x, fresh=1 seed=3400 wb_mb=64, booted in 1.00 s, the CPU busy 0.50 s of it'
{ echo "$boot"; cat $dir/guest.log; } > "$out/fresh1.log"
{ echo "$boot" | sed 's/fresh=1/fresh=0/'; cat $dir/guest.log; } > "$out/fresh0.log"
rm -f "$out/l1.args" "$out/l0.args" "$out/lo.args" "$out/l.err"
rpa() { FAKE_SIM_ARGS=$1 ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$2" "$3" > /dev/null 2>> "$out/l.err"; }
if rpa "$out/l1.args" "$out/fresh1.log" "$out/l1" && rpa "$out/l0.args" "$out/fresh0.log" "$out/l0" &&
	rpa "$out/lo.args" $dir/guest.log "$out/lo" &&
	grep -q -- "--set layout=[^ ]*/bench/layouts/tree1.map [^ ]*/write-vs-tree.fio$" "$out/l1.args" &&
	! grep -v /write-vs-tree.fio "$out/l1.args" | grep -q layout= &&
	grep -q /write-vs-tree.fio "$out/l0.args" && ! grep -q layout= "$out/l0.args" &&
	grep -q /write-vs-tree.fio "$out/lo.args" && ! grep -q layout= "$out/lo.args"; then
	ok "the tree map to antic-sim for a log of fresh file systems only (not fresh=0, not a log before FRESH)"
else
	cat "$out/l.err" "$out/l1.args" "$out/l0.args"
	ko "the tree map to antic-sim for a log of fresh file systems only (not fresh=0, not a log before FRESH)"
fi
# and the report says which layout its tree cells had: the map for the
# fresh log, one after another for fresh=0
if grep -q "small-file cells' files in antic-sim: where ext4 put them on a fresh file system, bench/layouts/tree1.map" "$out/l1.txt" &&
	grep -q "small-file cells' files in antic-sim: one after another" "$out/l0.txt" &&
	python3 -c '
import json, sys
one = [r for r in json.load(open(sys.argv[1]))["results"] if r["workload"] == "write-vs-tree" and "sim_layout" in r]
zero = [r for r in json.load(open(sys.argv[2]))["results"] if r["workload"] == "write-vs-tree" and "sim_layout" in r]
sys.exit(0 if one and zero and all(r["sim_layout"] == "tree1.map" for r in one) and
         all(r["sim_layout"] is None for r in zero) else 1)' "$out/l1.json" "$out/l0.json"; then
	ok "the report names the tree cells' layout (the map, or one after another)"
else
	ko "the report names the tree cells' layout (the map, or one after another)"
fi
# a run made in parts (one disk each): the merged report is the whole
# log's, and a cell in two parts or two kernels' parts are refused
{ sed -n 1p $dir/guest2.log; sed -n '2,83p' $dir/guest2.log; } > "$out/part1.log"
{ sed -n 1p $dir/guest2.log; sed -n '84,$p' $dir/guest2.log; } > "$out/part2.log"
rp2() { ANTIC_SIM=$dir/fake-sim.sh python3 bench/report.py "$@" > /dev/null; }
if rp2 $dir/guest2.log "$out/whole" 2> "$out/m.err" &&
	rp2 "$out/part1.log" "$out/part2.log" "$out/merged" 2>> "$out/m.err" &&
	grep -q '^DISK ide2003' "$out/part2.log" && ! grep -q '^DISK ide2003' "$out/part1.log" &&
	diff "$out/whole.txt" "$out/merged.txt" >> "$out/m.err" && cmp -s "$out/whole.json" "$out/merged.json"; then
	ok "a run in two parts: the same report as the whole"
else
	cat "$out/m.err"; ko "a run in two parts: the same report as the whole"
fi
sed 's/^vm: kernel 6.12.0-test,/vm: kernel 7.0.0-test,/' "$out/part2.log" > "$out/part2k.log"
if ! rp2 "$out/part1.log" "$out/part1.log" "$out/twice" 2> "$out/twice.err" &&
	grep -q "st2000dm006 32 .* is in an earlier part too" "$out/twice.err" && [ ! -e "$out/twice.txt" ] &&
	! rp2 "$out/part1.log" "$out/part2k.log" "$out/kv" 2> "$out/kv.err" &&
	grep -q "kver 7.0.0-test, but .*part1.log has 6.12.0-test" "$out/kv.err" && [ ! -e "$out/kv.txt" ] &&
	{ echo "vm: boot_id b-1, date x"; cat "$out/part1.log"; } > "$out/b1.log" &&
	{ echo "vm: boot_id b-1, date x"; cat "$out/part2.log"; } > "$out/b2.log" &&
	! rp2 "$out/b1.log" "$out/b2.log" "$out/b" 2> "$out/b.err" &&
	grep -q "b2.log: the same boot (boot_id b-1) as .*b1.log" "$out/b.err" && [ ! -e "$out/b.txt" ]; then
	ok "parts refused: a cell twice, two kernels, one boot twice"
else
	cat "$out/twice.err" "$out/kv.err" "$out/b.err"; ko "parts refused: a cell twice, two kernels, one boot twice"
fi
# --as: a variant build's cells, in a part of their own, stand for
# anticipatory's where it ran them (ide2003 here; st2000dm006's stay
# anticipatory's own), a --drop'd scheduler's left out everywhere, with
# --as or alone; a variant or a --drop with no cell is an error and
# writes nothing
# asv: anticipatory's ide2003 runs again, half as long again, beside them
# (each before the original: a cell kept twice would show the original's)
awk '{ l = $0 } ($1 == "RES" || $1 == "FIO" || $1 == "SREPLAY" || $1 == "SETTLE" || $1 == "CLOCK") && $4 == "anticipatory" {
	$4 = "asv"; if ($1 == "RES") $6 = int($6 * 1.5); print } { print l }' "$out/part2.log" > "$out/part2v.log"
if rp2 --as asv --drop bfq "$out/part1.log" "$out/part2v.log" "$out/asv" 2> "$out/asv.err" &&
	python3 -c 'import json, sys
w, v = (json.load(open(f))["results"] for f in sys.argv[1:3])
key = lambda x: (x["disk"], x["workload"], x.get("load"), x["scheduler"])
want = {key(x): x["median"] for x in w if x["scheduler"] != "bfq"}
got = {key(x): x["median"] for x in v}
def near(k, m):
    x = want.get(k)
    if x is None or m is None:
        return m == x
    f = 1.5 if k[3] == "anticipatory" and k[0] == "ide2003" and k[1] != "random-vs-write" and not k[1].startswith("fair") else 1
    return abs(m - f * x) <= 0.02 * f * x + 0.011
ide = [k for k in got if k[3] == "anticipatory" and k[0] == "ide2003"]
sys.exit(0 if got.keys() == want.keys() and all(near(k, m) for k, m in got.items()) and ide
         and any(k[3] == "anticipatory" and k[0] == "st2000dm006" for k in got)
         and not any(k[3] in ("asv", "bfq") for k in got) else 1)' \
	"$out/merged.json" "$out/asv.json" &&
	! rp2 --as asx "$out/part1.log" "$out/part2v.log" "$out/asx" 2> "$out/asx.err" &&
	grep -q "no cell of asx" "$out/asx.err" && [ ! -e "$out/asx.txt" ] &&
	rp2 --drop bfq "$out/part1.log" "$out/part2v.log" "$out/dr" 2> "$out/dr.err" &&
	python3 -c 'import json, sys
s = {x["scheduler"] for x in json.load(open(sys.argv[1]))["results"]}
sys.exit(0 if "bfq" not in s and {"asv", "anticipatory", "mq-deadline"} <= s else 1)' "$out/dr.json" &&
	! rp2 --drop bfx "$out/part1.log" "$out/part2v.log" "$out/dx" 2> "$out/dx.err" &&
	grep -q "drop bfx: no cell of bfx" "$out/dx.err" && [ ! -e "$out/dx.txt" ] &&
	! rp2 --drop anticipatory "$out/part1.log" "$out/part2v.log" "$out/dy" 2> "$out/dy.err" &&
	grep -q "drop anticipatory: " "$out/dy.err" && [ ! -e "$out/dy.txt" ] &&
	! rp2 --drop bfq --ab anticipatory:bfq "$out/part1.log" "$out/part2v.log" "$out/dz" 2> "$out/dz.err" &&
	grep -q "no cell of bfq in the logs (after --drop)" "$out/dz.err" && [ ! -e "$out/dz.txt" ] &&
	! rp2 --as asv --drop asv "$out/part1.log" "$out/part2v.log" "$out/dd" 2> "$out/dd.err" &&
	grep -q "neither anticipatory nor" "$out/dd.err" && [ ! -e "$out/dd.txt" ] &&
	! rp2 --as asv --ab anticipatory:asv "$out/part1.log" "$out/part2v.log" "$out/da" 2> "$out/da.err" &&
	grep -q "no cell of asv in the logs (after --as)" "$out/da.err" && [ ! -e "$out/da.txt" ] &&
	sed '1s/$/ as_set=antic_expire=0/' "$out/part1.log" > "$out/p1s.log" &&
	sed '1s/$/ as_set=antic_expire=0/' "$out/part2v.log" > "$out/p2s.log" &&
	! rp2 --as asv "$out/p1s.log" "$out/p2s.log" "$out/ds" 2> "$out/ds.err" &&
	grep -q "AS_SET (antic_expire=0) was written to anticipatory's tunables alone" "$out/ds.err" && [ ! -e "$out/ds.txt" ]; then
	ok "--as: a variant's cells stand for anticipatory's, its own and --drop's left out; errors write nothing"
else
	cat "$out/asv.err" "$out/asx.err" "$out/dr.err" "$out/dx.err"; ko "--as: a variant's cells stand for anticipatory's, its own and --drop's left out; errors write nothing"
fi
# --as on a log of cost runs alone (DISKS= runs): the variant's cost runs
# stand for anticipatory's (here bfq's renamed asv, anticipatory's left out)
grep -v -e '^RES' -e '^FIO [1-9]' -e '^COST anticipatory ' -e '^FIO 0 cost-[^ ]* anticipatory ' "$dir/guest.log" |
	sed -e 's/^COST bfq /COST asv /' -e 's/^\(FIO 0 cost-[^ ]*\) bfq /\1 asv /' > "$out/costv.log"
if rp2 --as asv "$out/costv.log" "$out/costv" 2> "$out/costv.err" &&
	rp2 "$dir/guest.log" "$out/costref" 2>> "$out/costv.err" &&
	python3 -c 'import json, sys
c = {(x["scheduler"], x["load"]): x["iops"] for x in json.load(open(sys.argv[1]))["cost"]}
b = {(x["scheduler"], x["load"]): x["iops"] for x in json.load(open(sys.argv[2]))["cost"]}
sys.exit(0 if c[("anticipatory", "reads")] == b[("bfq", "reads")] and ("bfq", "reads") not in c else 1)' \
	"$out/costv.json" "$out/costref.json"; then
	ok "--as on cost runs alone: the variant's stand for anticipatory's"
else
	cat "$out/costv.err"; ko "--as on cost runs alone: the variant's stand for anticipatory's"
fi
# read-ahead is the kernel's per disk: parts on two disks with their
# own are merged, antic-sim gets each disk's; one disk's twice with two
# is refused
sed 's/^vm: disk ready, .*/&, read_ahead_kb 1024, max_sectors_kb 512/' "$out/part1.log" > "$out/ra1.log"
sed 's/^vm: disk ready, .*/&, read_ahead_kb 256, max_sectors_kb 128/' "$out/part2.log" > "$out/ra2.log"
sed 's/read_ahead_kb 1024/read_ahead_kb 512/' "$out/ra1.log" | sed 's/^vm: boot_id .*//' > "$out/ra3.log"
rm -f "$out/ra.args"
if FAKE_SIM_ARGS="$out/ra.args" rp2 "$out/ra1.log" "$out/ra2.log" "$out/ra" 2> "$out/ra.err" &&
	grep -q "disk=st2000dm006 .*read_ahead_kb=1024" "$out/ra.args" &&
	grep -q "disk=ide2003 .*read_ahead_kb=256" "$out/ra.args" &&
	! grep -q "disk=st2000dm006 .*read_ahead_kb=256\|disk=ide2003 .*read_ahead_kb=1024" "$out/ra.args" &&
	! rp2 "$out/ra1.log" "$out/ra2.log" "$out/ra3.log" "$out/rb" 2> "$out/rb.err" &&
	grep -q "read_ahead_kb 512 at st2000dm006, but an earlier part has 1024" "$out/rb.err" && [ ! -e "$out/rb.txt" ]; then
	ok "read-ahead per disk: two disks' parts merged, each disk's to antic-sim; one disk's with two refused"
else
	cat "$out/ra.err" "$out/rb.err"; ko "read-ahead per disk: two disks' parts merged, each disk's to antic-sim; one disk's with two refused"
fi
# the cap is per disk (random-vs-write runs for half of it, the fairness
# jobs for all of it): parts of two disks at two caps merge, antic-sim
# gets each disk's; one disk at two caps is refused
sed 's/ cap=12s / cap=60s /' "$out/part2.log" > "$out/cp2.log"
sed 's/ cap=12s / cap=60s /; s/^vm: boot_id .*//' "$out/part1.log" > "$out/cp3.log"
rm -f "$out/cp.args"
if FAKE_SIM_ARGS="$out/cp.args" rp2 "$out/part1.log" "$out/cp2.log" "$out/cp" 2> "$out/cp.err" &&
	grep -q "^RANDRT=6 FAIRRT= .*disk=st2000dm006 .*write-vs-read.fio" "$out/cp.args" &&
	grep -q "^RANDRT=30 FAIRRT= .*disk=ide2003 .*write-vs-read.fio" "$out/cp.args" &&
	grep -q "cap=60s" "$out/cp.txt" && grep -q "cap=12s" "$out/cp.txt" &&
	grep -q '"cap_s_by_disk": {"st2000dm006": 12, "ide2003": 60}' "$out/cp.json" &&
	! rp2 "$out/part1.log" "$out/cp2.log" "$out/cp3.log" "$out/cq" 2> "$out/cq.err" &&
	grep -q "cap 60 s at st2000dm006, but an earlier part has 12" "$out/cq.err" && [ ! -e "$out/cq.txt" ] &&
	sed 's/ cap=10s / cap=60s /; s/ warm=2s / warm=3s /' "$out/fair.log" > "$out/cpf.log" &&
	FAKE_SIM_ARGS="$out/cpf.args" rp2 "$out/part1.log" "$out/cpf.log" "$out/cpf" 2>> "$out/cp.err" &&
	grep -q "^RANDRT= FAIRRT=60 .*disk=sata7200 .*fair-aio.fio" "$out/cpf.args" &&
	! grep -q "FAIRRT=12" "$out/cpf.args" && grep -q '"cap_s": null' "$out/cpf.json" &&
	rp2 "$out/part1.log" "$out/part2.log" "$out/cpu" 2>> "$out/cp.err" &&
	grep -q '"cap_s": 12,' "$out/cpu.json" && ! grep -q cap_s_by_disk "$out/cpu.json"; then
	ok "the cap per disk: two disks' parts at two caps merged, each disk's to antic-sim; one disk at two refused"
else
	cat "$out/cp.err" "$out/cq.err"; ko "the cap per disk: two disks' parts at two caps merged, each disk's to antic-sim; one disk at two refused"
fi
# ionice: each job's own runtime from the measured run's fio JSON (the
# reader alone, beside the idle and the best-effort backup; the player at
# real time and at best effort), the ratios of medians and the verdicts by
# the ranges; antic-sim's figures from the same job files with the class
# each workload gives, the player's size as the guest's fio had it (a
# fake antic-sim answering by file, class and size); a
# job that moved all of its size is done though its run stopped at the cap;
# the idle backup finishes when it moved all of its size after the reader
python3 - "$out/ionice.log" <<'PY'
import json, sys
def job(name, d, secs, kb, size):
    io = {"io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0, "runtime": 0, "total_ios": 0,
          "clat_ns": {"percentile": {}}}
    x = dict(io, io_kbytes=kb, io_bytes=kb * 1024, total_ios=kb // 128, runtime=int(secs * 1000))
    return {"jobname": name, "job_runtime": int(secs * 1000), "job options": {"size": size},
            "read": x if d == "r" else io, "write": x if d == "w" else io}
R = lambda t: job("reader", "r", t, 102400, "100m")
B = lambda t, kb=65536: job("backup", "w", t, kb, "64m")
P = lambda t: job("player", "r", t, 49152, "48m")
L = job("load", "r", 1, 5000, "1g")
# per scheduler and workload, one list of jobs per repetition
runs = {"anticipatory": {"ionice-reader-alone": [[R(1.00)], [R(1.02)], [R(0.98)]],
                         "ionice-backup": [[B(1.8), R(1.05)], [B(1.9), R(1.06)], [B(2.0), R(1.04)]],
                         "ionice-backup-be": [[B(1.5), R(1.5)], [B(1.6), R(1.6)], [B(1.4), R(1.4)]],
                         "ionice-player": [[P(0.30), L], [P(0.32), L], [P(0.31), L]],
                         "ionice-player-be": [[P(2.0), L], [P(2.2), L], [P(1.9), L]]},
        "mq-deadline": {"ionice-reader-alone": [[R(1.00)], [R(1.02)], [R(0.98)]],
                        "ionice-backup": [[B(1.8), R(1.4)], [B(1.9), R(1.5)], [B(10.0, 30000), R(1.3)]],
                        "ionice-backup-be": [[B(1.5), R(1.5)], [B(1.6), R(1.6)], [B(1.4), R(1.4)]],
                        "ionice-player": [[P(0.50), L], [P(0.60), L], [P(0.55), L]],
                        "ionice-player-be": [[P(1.0), L], [P(1.3), L], [P(1.1), L]]}}
# bfq's idle backup writes all of it but once ends before the reader: not after it
runs["bfq"] = dict(runs["anticipatory"], **{"ionice-backup": [[B(1.8), R(1.05)], [B(0.9), R(1.2)], [B(2.0), R(1.04)]]})
with open(sys.argv[1], "w") as f:
    f.write("vm: kernel 6.12.0-test, 1 cpus, quick=0 reps=3 cap=10s (compile 90s, start-up 10s) "
            "disks=sata7200:1 warm=2s time_scale=1\nDISK sata7200 1\n")
    for rep in (1, 2, 3):
        for s, ws in runs.items():
            for w, reps in ws.items():
                capped = 1 if max(j["job_runtime"] for j in reps[rep - 1]) >= 9500 else 0
                f.write("RES 1 %s %s %d 3000 %d 90 100 1000 10000 900 0\n" % (w, s, rep, capped))
                f.write("FIO 1 %s %s %d measured %s\n" % (w, s, rep, json.dumps({"jobs": reps[rep - 1]})))
PY
cat > "$out/ionice-sim.sh" <<'SH'
#!/bin/sh
# a fake antic-sim: one figure per job file and class, as antic-sim's JSON
[ "$1" = --list-schedulers ] && { printf 'noop none\ndeadline mq-deadline\nanticipatory anticipatory as\n'; exit 0; }
for a; do f=$a; done
j() { printf '{"jobname": "%s", "job_runtime": %d, "job options": {"size": "%s"}, "read": {"io_kbytes": %d}, "write": {"io_kbytes": 0}}' "$@"; }
case "$f:$BACKUPCLASS:$PLAYERCLASS" in
*/ionice-backup-reader.fio:*) jobs=$(j reader 1010 100m 102400) ;;
*/ionice-backup.fio:3:*) jobs="$(j backup 2500 64m 65536), $(j reader 1030 100m 102400)" ;;
*/ionice-backup.fio:2:*) jobs="$(j backup 2400 64m 65536), $(j reader 1600 100m 102400)" ;;
*/ionice-player.fio:*:1) [ "$PLAYERSIZE" = 48m ] && jobs=$(j player 250 48m 49152) ;;
*/ionice-player.fio:*:2) [ "$PLAYERSIZE" = 48m ] && jobs=$(j player 3000 48m 49152) ;;
*) echo "ionice-sim: unexpected $f $BACKUPCLASS $PLAYERCLASS" >&2; exit 1 ;;
esac
d="{\"jobs\": [$jobs]}"
echo "{\"schedulers\": {\"deadline\": $d, \"anticipatory\": $d}}"
SH
chmod +x "$out/ionice-sim.sh"
if ANTIC_SIM="$out/ionice-sim.sh" python3 bench/report.py "$out/ionice.log" "$out/i" > /dev/null 2> "$out/i.err" &&
	python3 -c 'import json, sys
r = {x["scheduler"]: x for x in json.load(open(sys.argv[1]))["ionice"]}
a, d = r["anticipatory"], r["mq-deadline"]
med = lambda x, f: x[f + "_s"]["median"]
ok = (med(a, "reader_alone"), med(a, "reader_idle"), med(a, "backup_idle"), med(a, "reader_be"),
      med(a, "player_rt"), med(a, "player_be")) == (1.0, 1.05, 1.9, 1.5, 0.31, 2.0) \
    and (a["reader_ratio"], a["reader_verdict"], a["backup_verdict"]) == (1.05, "met", "met") \
    and (a["player_speedup"], a["player_verdict"]) == (6.452, "met") \
    and (d["reader_ratio"], d["reader_verdict"], d["backup_verdict"]) == (1.4, "missed", "missed") \
    and d["backup_idle_s"]["done"] is False and d["backup_idle_s"]["max"] == 10.0 \
    and d["reader_idle_s"]["done"] is True \
    and (d["player_speedup"], d["player_verdict"]) == (2.0, "unsettled") \
    and a["sim"] == {"reader_alone_s": 1.01, "reader_idle_s": 1.03, "backup_idle_s": 2.5, "reader_be_s": 1.6,
                     "backup_be_s": 2.4, "player_rt_s": 0.25, "player_be_s": 3.0,
                     "reader_ratio": 1.02, "player_speedup": 12.0} \
    and (r["bfq"]["backup_verdict"], r["bfq"]["backup_idle_s"]["done"], r["bfq"]["sim"]) == ("missed", True, None) \
    and len(r) == 3 and not any(x["workload"].startswith("ionice") for x in json.load(open(sys.argv[1]))["results"])
sys.exit(0 if ok else 1)' "$out/i.json" &&
	grep -Eq '^sata7200 +1 anticipatory +1\.00 \[0\.98-1\.02\] \{1\.01\} +1\.05 \[1\.04-1\.06\] \{1\.03\} +1\.05 \{1\.02\} met +1\.90 \[1\.80-2\.00\] \{2\.50\} +met ' "$out/i.txt" &&
	grep -Eq '^sata7200 +1 mq-deadline +.* 1\.40 \{1\.02\} missed +~1\.90 \[1\.80-10\.00\] \{2\.50\} +missed ' "$out/i.txt" &&
	grep -Eq '^sata7200 +1 mq-deadline +0\.55 \[0\.50-0\.60\] \{0\.25\} +1\.10 \[1\.00-1\.30\] \{3\.00\} +2\.00 \{12\.00\} unsettled$' "$out/i.txt"; then
	ok "ionice: each job's time, the ratios and verdicts by the ranges, antic-sim's by file and class"
else
	cat "$out/i.err"; sed -n '/== ionice/,$p' "$out/i.txt"; ko "ionice: each job's time, the ratios and verdicts by the ranges, antic-sim's by file and class"
fi
# the guest runs each ionice workload in the class its name promises
check "ionice: guest-bench.sh's classes" sh -c "grep -q 'BACKUPCLASS=3 measure ionice-backup ' bench/guest-bench.sh &&
	grep -q 'BACKUPCLASS=2 measure ionice-backup-be ' bench/guest-bench.sh &&
	grep -q 'PLAYERCLASS=1 measure ionice-player ' bench/guest-bench.sh &&
	grep -q 'PLAYERCLASS=2 measure ionice-player-be ' bench/guest-bench.sh &&
	grep -q '^prioclass=\\\${BACKUPCLASS}$' bench/jobs/ionice-backup.fio &&
	grep -q '^prioclass=\\\${PLAYERCLASS}$' bench/jobs/ionice-player.fio"
# guest-bench.sh's order of the schedulers: rotated by one per repetition
rot=$(sed -n '/^rotated() {/,/^}/p' bench/guest-bench.sh)
order=$(SCHEDS="a b c" sh -c "$rot"'
for REP in 1 2 3 4; do printf "%s|" "$(rotated)"; done')
check "schedulers rotated per repetition" test "$order" = "a b c|b c a|c a b|a b c|"
# sim/morton.sh reads the same figures: a header of two lines and a row each
rows=$(grep -vc -e '^#' -e '^workload	' bench/morton-2003.tsv)
check "sim/morton.sh reads bench/morton-2003.tsv" \
	test "$(sim/morton.sh 2>/dev/null | grep -c ' | ')" -eq $((rows + 2))

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
