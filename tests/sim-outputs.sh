#!/bin/sh
# What antic-sim writes for fio's and blktrace's tools, read by those tools:
# - fio's JSON (one scheduler, several, json+) has every field of fio 3.33's
#   own output (tests/fio-json-check.py against tests/fio-json/fio-3.33.json),
#   and fio's fio_jsonplus_clat2csv turns the json+ into CSV and validates it,
#   its last cumulative count the JSON's N;
# - write_lat_log, write_bw_log, write_iops_log (log_avg_msec too) make fio's
#   files, with one line per I/O (or window), fio2gnuplot's average of a
#   bandwidth log is the JSON's bw_mean within a window's rounding, and
#   fio_generate_plots draws them;
# - --write-blktrace: blkparse reads the files and counts as many Q, D, C as
#   the JSON's block requests; btt's D2C count and maximum match the JSON;
#   iowatcher draws them; antic-sim replays them (the round trip) with the
#   same requests.
# A tool that is not installed is a failure, not a skip: setup installs fio,
# blktrace, gnuplot and iowatcher.
# Usage: tests/sim-outputs.sh [BINARY]
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
bin=$top/${1:-build/antic-sim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
export SOURCE_DATE_EPOCH=0
check=tests/fio-json-check.py
ref=tests/fio-json/fio-3.33.json
job=examples/compile-vs-write.fio
for t in fio_jsonplus_clat2csv fio2gnuplot fio_generate_plots gnuplot blkparse btt iowatcher; do
	command -v $t > /dev/null || ko "$t is installed"
done

# fio's JSON
if "$bin" --quiet --scheduler anticipatory --output-format json $job > $tmp/one.json &&
	"$bin" --quiet --output-format json $job > $tmp/all.json &&
	"$bin" --quiet --scheduler deadline --output-format json+ $job > $tmp/plus.json &&
	"$bin" replay --quiet --scheduler noop --output-format json tests/traces/hddsim0-untar.blktrace.0 > $tmp/replay.json &&
	python3 $check $ref $tmp/one.json $tmp/all.json $tmp/plus.json $tmp/replay.json; then
	ok "fio's JSON: one scheduler, three, json+ and a replay have fio's fields"
else
	ko "fio's JSON: one scheduler, three, json+ and a replay have fio's fields"
fi
# percentile_list, lat_percentiles, clat_percentiles: the percentiles fio's own run of the options lists
pct_case() {
	printf '[x]\nrw=randread\nsize=1m\n%s\n' "$1" | tr ' ' '\n' > $tmp/pct.fio
	"$bin" --quiet --scheduler noop --output-format json $tmp/pct.fio > $tmp/pct.json &&
		fio --ioengine=null --output-format=json $tmp/pct.fio > $tmp/pct-fio.json 2>/dev/null &&
		python3 - $tmp/pct.json $tmp/pct-fio.json "$1" <<'PY'
import json, sys
keys = lambda f: [(k, list(json.load(open(f))["jobs"][0]["read"][k].get("percentile", {}))) for k in ("clat_ns", "lat_ns")]
ours, fio = keys(sys.argv[1]), keys(sys.argv[2])
print("%s: antic-sim %s, fio %s" % (sys.argv[3], ours, fio))
assert ours == fio
PY
}
if pct_case "percentile_list=99.5:50:90 lat_percentiles=1" && pct_case "clat_percentiles=0" &&
	pct_case "percentile_list=1:99.99"; then
	ok "percentile options give fio's percentiles"
else
	ko "percentile options give fio's percentiles"
fi
# fio's groups: stonewall starts one, clones stay in theirs; jobnames are the sections'
printf '[a]\nrw=read\nsize=1m\nnumjobs=2\n[b]\nrw=read\nsize=1m\nnumjobs=2\nstonewall\n[c]\nrw=read\nsize=1m\n' > $tmp/gr.fio
if "$bin" --quiet --scheduler noop --output-format json $tmp/gr.fio > $tmp/gr.json &&
	fio --ioengine=null --output-format=json $tmp/gr.fio > $tmp/gr-fio.json 2>/dev/null &&
	python3 - $tmp/gr.json $tmp/gr-fio.json <<'PY'
import json, sys
ids = lambda f: [(j["jobname"], j["groupid"]) for j in json.load(open(f))["jobs"]]
print("groups: antic-sim %s, fio %s" % (ids(sys.argv[1]), ids(sys.argv[2])))
assert ids(sys.argv[1]) == ids(sys.argv[2])
PY
then
	ok "jobnames and groupids as fio's"
else
	ko "jobnames and groupids as fio's"
fi
# fsync=4 over 16 writes and end_fsync: five fsyncs timed in "sync", each at least the drive's FLUSH
printf '[s]\nrw=write\nbs=4k\nsize=64k\nfsync=4\nend_fsync=1\n' > $tmp/fs.fio
if "$bin" --quiet --scheduler noop --output-format json $tmp/fs.fio > $tmp/fs.json &&
	python3 - $tmp/fs.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["jobs"][0]["sync"]
print("sync: total_ios %d, lat_ns min %d mean %.0f max %d" % (s["total_ios"], s["lat_ns"]["min"], s["lat_ns"]["mean"], s["lat_ns"]["max"]))
assert s["total_ios"] == 5 and s["lat_ns"]["N"] == 5 and s["lat_ns"]["min"] > 0 and len(s["lat_ns"]["percentile"]) == 17
PY
then
	ok "fsyncs timed in the JSON's sync"
else
	ko "fsyncs timed in the JSON's sync"
fi
# fio's own reader of json+: each job's CSV, validated, its last row's cumulative count N
if (cd $tmp && fio_jsonplus_clat2csv plus.json plus.csv > /dev/null &&
	fio_jsonplus_clat2csv plus.json plus.csv --validate > validate.out) &&
	python3 - $tmp/plus.json $tmp <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for i, j in enumerate(doc["jobs"]):
    rows = [l.split(", ") for l in open("%s/plus_job%d.csv" % (sys.argv[2], i)).read().splitlines()]
    col = rows[0].index("read_clat_ns_cumulative") if j["read"]["total_ios"] else rows[0].index("write_clat_ns_cumulative")
    n = j["read"]["clat_ns"]["N"] or j["write"]["clat_ns"]["N"]
    last = max(int(r[col]) for r in rows[1:] if r[col].strip())
    print("fio_jsonplus_clat2csv: job %d (%s): %d rows, cumulative %d of N %d" % (i, j["jobname"], len(rows) - 1, last, n))
    assert last == n
PY
then
	grep -c validated $tmp/validate.out | grep -qx 2 && ok "fio_jsonplus_clat2csv reads and validates json+" ||
		ko "fio_jsonplus_clat2csv validates both jobs"
else
	ko "fio_jsonplus_clat2csv reads and validates json+"
fi
# each scheduler's document of a three-scheduler json+, on its own, to the same tool
if "$bin" --quiet --output-format json+ $job > $tmp/all-plus.json &&
	python3 - $tmp/all-plus.json $tmp <<'PY' &&
import json, sys
for s, d in json.load(open(sys.argv[1]))["schedulers"].items():
    json.dump(d, open("%s/sched-%s.json" % (sys.argv[2], s), "w"))
PY
	(cd $tmp && for s in noop deadline anticipatory; do
		fio_jsonplus_clat2csv sched-$s.json sched-$s.csv > /dev/null &&
		fio_jsonplus_clat2csv sched-$s.json sched-$s.csv --validate | grep -c validated | grep -qx 2 || exit 1
	done); then
	ok "fio_jsonplus_clat2csv validates each scheduler's document"
else
	ko "fio_jsonplus_clat2csv validates each scheduler's document"
fi

# fio's logs
mkdir $tmp/logs
cat > $tmp/logs/l.fio <<'FIO'
[global]
ioengine=psync
direct=1
bs=64k
size=64m
write_lat_log=L
write_bw_log=B
write_iops_log=I
[r]
rw=randread
[w]
rw=write
log_avg_msec=500
FIO
if (cd $tmp/logs && "$bin" --quiet --scheduler deadline --output-format json l.fio > l.json) &&
	(cd $tmp/logs && "$bin" --quiet --scheduler noop,deadline l.fio > /dev/null) &&
	python3 - $tmp/logs <<'PY'
import json, os, sys
d = sys.argv[1]
doc = json.load(open(d + "/l.json"))
names = sorted(f for f in os.listdir(d) if f.endswith(".log"))
want = sorted("%s%s_%s.%d.log" % (p, s, t, n) for p, ts in (("L", ("lat", "clat", "slat")), ("B", ("bw",)), ("I", ("iops",)))
              for t in ts for n in (1, 2) for s in ("", "-noop", "-deadline"))
assert names == want, (names, want)
rd = [l.split(", ") for l in open(d + "/L_lat.1.log")]
assert len(rd) == doc["jobs"][0]["read"]["total_ios"], len(rd)
assert all(len(r) == 5 and r[2] == "0" and r[3] == "65536" for r in rd)
lat = sorted(int(r[1]) for r in rd)
c = doc["jobs"][0]["read"]["clat_ns"]
assert lat[0] == c["min"] and lat[-1] == c["max"], (lat[0], lat[-1], c)
wr = [l.split(", ") for l in open(d + "/I_iops.2.log")]
# each 500 ms window's IOPS is twice its I/Os: they sum to the JSON's total
assert sum(int(r[1]) for r in wr) == 2 * doc["jobs"][1]["write"]["total_ios"], (len(wr), doc["jobs"][1]["write"])
print("logs: %d files; L_lat.1.log %d lines (total_ios %d), min/max %d/%d ns as the JSON's; I_iops.2.log %d windows"
      % (len(names), len(rd), c["N"], lat[0], lat[-1], len(wr)))
PY
then
	ok "fio's log files, named and lined as fio's, with the JSON's figures"
else
	ko "fio's log files, named and lined as fio's, with the JSON's figures"
fi
# log_offset and per_job_logs=0: the files and columns fio's null engine writes for the same job
mkdir $tmp/lo $tmp/lo-fio
printf '[a]\nrw=randread\nsize=256k\nbs=64k\ndirect=1\nwrite_lat_log=L\nwrite_bw_log=B\nlog_offset=1\nper_job_logs=0\nnumjobs=2\n' > $tmp/lo/a.fio
cp $tmp/lo/a.fio $tmp/lo-fio/
if (cd $tmp/lo && "$bin" --quiet --scheduler noop a.fio > /dev/null) &&
	(cd $tmp/lo-fio && fio --ioengine=null a.fio > /dev/null 2>&1) &&
	python3 - $tmp/lo $tmp/lo-fio <<'PY'
import os, sys
def logs(d):
    return {f: [l.split(", ") for l in open(os.path.join(d, f))] for f in sorted(os.listdir(d)) if f.endswith(".log")}
ours, fio = logs(sys.argv[1]), logs(sys.argv[2])
shape = lambda ls: {f: (len(r), sorted({len(x) for x in r})) for f, r in ls.items()}
print("log_offset, per_job_logs=0: antic-sim %s; fio %s" % (shape(ours), shape(fio)))
assert shape(ours) == shape(fio)
offs = sorted(int(x[4]) for x in ours["L_lat.log"])
assert offs == sorted(int(x[4]) for x in fio["L_lat.log"]), offs
PY
then
	ok "log_offset and per_job_logs=0 write fio's files and columns"
else
	ko "log_offset and per_job_logs=0 write fio's files and columns"
fi
# the prio column: with log_prio=1 each I/O's ioprio value as fio's null
# engine logs it for the same jobs (prio alone is best effort, a class
# alone level 0, none 0x0000); without, 0, and 1 for a real-time I/O
# (fio 3.33's flag; not asked of fio here, whose real-time class needs
# CAP_SYS_NICE)
mkdir $tmp/pr $tmp/pr-fio
printf '[global]\nrw=read\nsize=16k\nlog_prio=1\n[a]\nprio=3\nwrite_lat_log=a\n[b]\nprioclass=3\nwrite_lat_log=b\n[c]\nwrite_lat_log=c\n[d]\nprioclass=2\nprio=5\nwrite_lat_log=d\n[e]\nlog_prio=0\nprioclass=2\nwrite_lat_log=e\n' > $tmp/pr/p.fio
cp $tmp/pr/p.fio $tmp/pr-fio/
printf '[r]\nrw=read\nsize=16k\nprioclass=1\nprio=2\nwrite_lat_log=r\n[rp]\nrw=read\nsize=16k\nprioclass=1\nprio=2\nlog_prio=1\nwrite_lat_log=rp\n' > $tmp/pr/rt.fio
if (cd $tmp/pr && "$bin" --quiet --scheduler noop p.fio > /dev/null && "$bin" --quiet --scheduler noop rt.fio > /dev/null) &&
	(cd $tmp/pr-fio && fio --ioengine=null p.fio > /dev/null 2>&1) &&
	python3 - $tmp/pr $tmp/pr-fio <<'PY'
import os, sys
def prios(d):
    return {f.split("_")[0]: sorted({l.split(", ")[-1].strip() for l in open(os.path.join(d, f))})
            for f in os.listdir(d) if f.endswith("_lat.%s.log" % f.split(".")[-2])}
ours, fio = prios(sys.argv[1]), prios(sys.argv[2])
print("prio column: antic-sim %s; fio %s" % (sorted(ours.items()), sorted(fio.items())))
assert {k: v for k, v in ours.items() if k not in ("r", "rp")} == fio
assert ours["r"] == ["1"] and ours["rp"] == ["0x2002"], (ours["r"], ours["rp"])
PY
then
	ok "the logs' prio column is fio's, log_prio=1 and not"
else
	ko "the logs' prio column is fio's, log_prio=1 and not"
fi
# fio2gnuplot's own average of the writer's bandwidth log against the JSON's bw_mean
if (cd $tmp/logs && mkdir g && fio2gnuplot -p 'B_bw.2.log' -g -k -d g -t sim > g.out 2>&1) &&
	python3 - $tmp/logs <<'PY'
import json, sys
d = sys.argv[1]
g = dict(l.strip().split("=") for l in open(d + "/g/B_bw.2.global"))
w = json.load(open(d + "/l.json"))["jobs"][1]["write"]
print("fio2gnuplot: B_bw.2.log avg %s KiB/s over %s samples; the JSON's io_kbytes %d over them %.2f, bw %d KiB/s"
      % (g["avg"], g["values_count"], w["io_kbytes"], w["io_kbytes"] / (0.5 * int(g["values_count"])), w["bw"]))
# each window's KiB/s is its KiB over 0.5 s (floored): their mean is the job's KiB over the windows
want = w["io_kbytes"] / (0.5 * int(g["values_count"]))
assert abs(float(g["avg"]) - want) <= 1, (g, want)
PY
then
	ok "fio2gnuplot reads the bandwidth log, its average the JSON's"
else
	cat $tmp/logs/g.out 2>/dev/null | tail -5; ko "fio2gnuplot reads the bandwidth log, its average the JSON's"
fi
if (cd $tmp/logs && mkdir p && cp L_*.1.log B_bw.1.log I_iops.1.log p/ && cd p &&
	fio_generate_plots sim > out 2>&1 && for t in lat clat bw iops; do grep -q "<path" sim-$t.svg || exit 1; done); then
	ok "fio_generate_plots draws the lat, clat, bw and iops logs"
else
	ko "fio_generate_plots draws the lat, clat, bw and iops logs"
fi

# blktrace
mkdir $tmp/bt
if "$bin" --quiet --set disk=sata7200 --scheduler anticipatory,deadline --write-blktrace $tmp/bt --output-format json $job > $tmp/bt.json &&
	blkparse -D $tmp/bt -i anticipatory -d $tmp/bt/as.bin -o $tmp/bt/as.txt > /dev/null 2>&1 &&
	(cd $tmp/bt && btt -i as.bin -o btt > /dev/null 2>&1) &&
	python3 - $tmp/bt.json $tmp/bt <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))["schedulers"]["anticipatory"]
br = doc["antic"]["block_requests"]
n = {}
for l in open(sys.argv[2] + "/as.txt"):
    f = l.split()
    if len(f) > 6 and f[0] == "8,0" and f[5] in "QGIDC" and len(f[5]) == 1:
        n[(f[5], "W" in f[6])] = n.get((f[5], "W" in f[6]), 0) + 1
print("blkparse: Q %d+%d D %d+%d C %d+%d (reads+writes); the JSON: reads %d writes %d completed"
      % (n.get(("Q", 0), 0), n.get(("Q", 1), 0), n.get(("D", 0), 0), n.get(("D", 1), 0),
         n.get(("C", 0), 0), n.get(("C", 1), 0), br["reads"], br["writes"]))
assert n.get(("C", 0), 0) == br["reads"] and n.get(("C", 1), 0) == br["writes"]
assert n[("Q", 0)] >= n[("D", 0)] >= n[("C", 0)] and n[("Q", 1)] >= n[("D", 1)] >= n[("C", 1)]
avg = open(sys.argv[2] + "/btt.avg").read().splitlines()
row = {l.split()[0]: l.split() for l in avg if l.split() and l.split()[0] in ("Q2D", "D2C", "Q2C", "I2D")}
print("btt: " + "; ".join("%s avg %s s max %s N %s" % (k, r[2], r[3], r[4]) for k, r in sorted(row.items())))
d2c = row["D2C"]
assert int(d2c[4]) == br["reads"] + br["writes"]
# the slowest completion is the slowest request: no application I/O is quicker than its request
assert float(d2c[1]) > 0 and float(d2c[3]) <= max(j[d]["clat_ns"]["max"] for j in doc["jobs"] for d in ("read", "write")) / 1e9 + 1e-9
# D2C is the drive's time: its mean times N is the disk's busy time at depth 1 (one at a time)
busy = doc["antic"]["disk"]["busy_ns"] / 1e9
assert abs(float(d2c[2]) * int(d2c[4]) - busy) <= 0.02 * busy, (d2c, busy)
PY
then
	ok "blkparse and btt read --write-blktrace's files, counts and D2C as the JSON's"
else
	ko "blkparse and btt read --write-blktrace's files, counts and D2C as the JSON's"
fi
if (cd $tmp/bt && iowatcher -t as.bin -o as.svg > iow.out 2>&1 && grep -q "<svg" as.svg); then
	ok "iowatcher draws the run"
else
	ko "iowatcher draws the run"
fi
# the round trip: antic-sim replays what it wrote, the same requests by the same processes
if "$bin" replay --scheduler anticipatory --output-format json $tmp/bt/anticipatory > $tmp/rt.json 2> $tmp/rt.err &&
	python3 - $tmp/bt/as.txt $tmp/rt.json $tmp/rt.err <<'PY'
import json, re, sys
q = {}
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) > 6 and f[0] == "8,0" and f[5] == "Q":
        q["W" in f[6]] = q.get("W" in f[6], 0) + 1
rt = json.load(open(sys.argv[2]))
m = re.search(r"(\d+) requests \((\d+) reads .*?, (\d+) writes", open(sys.argv[3]).read())
names = sorted(j["jobname"].split("[")[0] for j in rt["jobs"])
print("round trip: the replay reads %s requests (%s reads, %s writes), blkparse counted Q %d+%d; processes %s"
      % (m.group(1), m.group(2), m.group(3), q[False], q[True], names))
assert (int(m.group(2)), int(m.group(3))) == (q[False], q[True])
# the writer's buffered writes go out through the flusher
assert names == ["compile", "kworker/flush"], names
PY
then
	ok "antic-sim replays its own blktrace output"
else
	cat $tmp/rt.err | head -3; ko "antic-sim replays its own blktrace output"
fi
# a directory that is not there: an error naming the file, exit 1, no file left anywhere
mkdir $tmp/err && printf '[r]\nrw=read\nsize=1m\nwrite_lat_log=nodir/x\n' > $tmp/err/e.fio
(cd $tmp/err && "$bin" --quiet --write-blktrace $tmp/err/none e.fio > out 2> err1; echo $? > rc1
	"$bin" --quiet --write-blktrace . e.fio > out 2> err2; echo $? > rc2)
if [ "$(cat $tmp/err/rc1)" = 1 ] && grep -q "none/noop.blktrace.0: No such file" $tmp/err/err1 &&
	[ "$(cat $tmp/err/rc2)" = 1 ] && grep -q "nodir/x-noop_lat.1.log: No such file" $tmp/err/err2 &&
	[ "$(ls $tmp/err)" = "$(printf 'e.fio\nerr1\nerr2\nout\nrc1\nrc2')" ]; then
	ok "an output that cannot be written: the error names it, exit 1, nothing left"
else
	cat $tmp/err/err1 $tmp/err/err2; ls $tmp/err; ko "an output that cannot be written: the error names it, exit 1, nothing left"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
