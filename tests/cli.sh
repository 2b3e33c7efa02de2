#!/bin/sh
# antic-sim's command line as a user meets it: each refusal one line on
# stderr saying what fio would (no usage dump, the file named once, exit
# 1 or 2), no silent empty result (a replay keeping no request fails), a
# run stopped at max_time marked in the table and JSON and exiting 3,
# names printed whole, zero counters hidden unless --counters, --remap.
# Needs build/antic-sim (make). Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
sim=${1:-build/antic-sim}
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$sim" ] || { echo "tests/cli.sh: $sim is missing (make)"; echo "0 passed, 1 failed"; exit 1; }

# refuses NAME WANT_RC WANT_TEXT ARGS...: exit WANT_RC, one line holding WANT_TEXT
refuses() {
	name=$1 rc_want=$2 text=$3
	shift 3
	"$sim" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$rc_want" ]; then
		ko "$name: exit $rc, want $rc_want ($(head -c 300 "$tmp/err"))"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		ko "$name: $(wc -l <"$tmp/err") lines on stderr, want 1: $(head -c 300 "$tmp/err")"
	elif ! grep -qF -- "$text" "$tmp/err"; then
		ko "$name: stderr lacks '$text': $(cat "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		ko "$name: wrote to stdout on an error"
	else
		ok "$name: $(cat "$tmp/err")"
	fi
}

job() { printf '%s\n' "$@" >"$tmp/j.fio"; }

job '[a]' 'szie=1g'
refuses "near miss" 1 "j.fio:2: szie: no such option; did you mean size?" -q "$tmp/j.fio"
job '[a]' 'size=1g' 'ioengine=mmap'
refuses "fio engine" 1 "fio's ioengine=mmap is not supported by antic-sim" -q "$tmp/j.fio"
job '[a]' 'size=1g' 'rw=randrad'
refuses "rw values" 1 "want read, write, randread, randwrite, rw, readwrite or randrw" -q "$tmp/j.fio"
job '[a]' 'size=1g' 'numjobs=5000'
refuses "numjobs limit" 1 "numjobs: at most 4096 (fio's own limit)" -q "$tmp/j.fio"
job '; antic-sim rpm=5400' '[a]' 'size=1m'
refuses "setting without its colon" 1 "j.fio:1: rpm: an antic-sim setting in a comment wants a colon" -q "$tmp/j.fio"
job '[a]' 'size=1m'
refuses "unknown option, no usage" 2 "unknown option '--bogus'" --bogus "$tmp/j.fio"
refuses "a near miss on the command line" 2 "unknown option '--schedular'; did you mean --scheduler?" \
	--schedular noop "$tmp/j.fio"
refuses "unknown --set lists the settings" 1 "the settings are: rpm heads" -q --set foo=1 "$tmp/j.fio"
refuses "replay --device matching nothing" 1 "--device 9 matches no request; the trace's devices: 0, 1" \
	replay -q --device 9 tests/traces/two-devices.disksim
refuses "replay --skip past the end" 1 "--skip 1000.000 s leaves no request" \
	replay -q --skip 1000s tests/traces/vda-compile.blktrace.0
# a replay error names the trace once
refuses "trace named once" 1 "two-devices.disksim:2: device:" replay -q tests/traces/two-devices.disksim
if [ "$(grep -o two-devices.disksim "$tmp/err" | wc -l)" -eq 1 ]; then ok "the trace's name printed once"
else ko "the trace's name printed $(grep -o two-devices.disksim "$tmp/err" | wc -l) times: $(cat "$tmp/err")"; fi

# fio options that would change what runs, refused rather than ignored
# (nothing written: no --output file either)
job '[a]' 'size=1m' 'rw=randread' 'random_generator=lfsr'
refuses "random_generator=lfsr" 1 "j.fio:4: fio's random_generator=lfsr is not supported by antic-sim" \
	-q --output "$tmp/o.json" "$tmp/j.fio"
[ -e "$tmp/o.json" ] && ko "a refused job file still wrote --output" || ok "a refused job file writes no --output"
job '[a]' 'size=1m' 'ratemin=1m'
refuses "ratemin (fio's rate_min)" 1 "j.fio:3: fio's ratemin is not supported by antic-sim" -q "$tmp/j.fio"
job '[a]' 'size=1m' 'write_hist_log=h'
refuses "write_hist_log" 1 "j.fio:3: fio's write_hist_log is not supported by antic-sim" -q "$tmp/j.fio"
job '[a]' 'size=1m' 'rate_iops=50' 'io_submit_mode=offload'
refuses "io_submit_mode=offload" 1 "j.fio:4: fio's io_submit_mode=offload is not supported by antic-sim" \
	-q "$tmp/j.fio"
job '[a]' 'size=1m' 'filename_format=shared'
refuses "filename_format without \$filenum" 1 "j.fio:3: fio's filename_format must name each of a job's files apart" -q "$tmp/j.fio"
job '[a]' 'size=1m' 'numjobs=2' 'filename_format=shared.$filenum'
refuses "filename_format that clones would share" 1 "j.fio:1: job 'a': filename_format 'shared.\$filenum' without \$jobnum" -q "$tmp/j.fio"
job '[a]' 'size=1m' 'numjobs=2' 'filename_format=$jobname.$filenum'
refuses "filename_format whose clones share one \$jobname" 1 "j.fio:1: job 'a': filename_format '\$jobname.\$filenum' without \$jobnum" -q "$tmp/j.fio"
job '[global]' 'size=1m' 'filename_format=data.$jobnum.$filenum' '[a]' '[b]'
refuses "filename_format two jobs would share" 1 "j.fio:5: job 'b': filename_format 'data.\$jobnum.\$filenum' without \$jobname names the files of job 'a'" -q "$tmp/j.fio"
# the files are named by the format, as fio names them (its iolog shows them)
job '[global]' 'size=1m' 'nrfiles=2' 'filename_format=tree.0.$FILENUM' '[a]' 'directory=/d0' '[b]' 'directory=/d1'
if "$sim" -q --scheduler noop --write_iolog "$tmp/io.log" "$tmp/j.fio" >/dev/null 2>"$tmp/err" &&
	grep -q ' /d0/tree.0.1 add$' "$tmp/io.log" && grep -q ' /d1/tree.0.0 add$' "$tmp/io.log"; then
	ok "files named by filename_format (in fio's any case), each directory its own"
else ko "filename_format's names: $(cat "$tmp/err") $(head -n 4 "$tmp/io.log" 2>/dev/null)"; fi
job '[a]' 'size=1m' "write_lat_log=$tmp/a" 'log_unix_epoch=1'
refuses "log_unix_epoch=1" 1 "j.fio:4: fio's log_unix_epoch is not supported by antic-sim" -q "$tmp/j.fio"
job '[a]' 'size=4m' 'nrfiles=4' 'openfiles=2'
refuses "openfiles below nrfiles" 1 "j.fio:1: job 'a': fio's openfiles below the job's 4 files" -q "$tmp/j.fio"
# a job's own names, one file open at a time in sequence (guest-bench's trees): as fio runs them
job '[a]' 'size=4m' 'nrfiles=4' 'openfiles=1' 'file_service_type=sequential' 'filename_format=tree.0.$filenum'
if "$sim" -q --scheduler noop "$tmp/j.fio" >/dev/null 2>"$tmp/err"; then ok "filename_format with \$filenum, openfiles in sequence"
else ko "bench's tree job refused: $(cat "$tmp/err")"; fi
# every job file bench/guest-bench.sh runs is one antic-sim reads too: its predictions
bad=
for f in bench/jobs/*.fio; do
	WARM=2 RANDRT=5 FAIRRT=10 BACKUPCLASS=3 PLAYERCLASS=1 PLAYERSIZE=32m \
		"$sim" -q --scheduler noop --set max_time=1s "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 3 ] || bad="$bad $f: $(head -n 1 "$tmp/err")"
done
[ -z "$bad" ] && ok "antic-sim reads every bench/jobs file" || ko "bench/jobs refused:$bad"
# and the values that change nothing still run
job '[a]' 'size=1m' 'rw=randread' 'random_generator=tausworthe64' 'io_submit_mode=inline' \
	'filename_format=$jobname.$jobnum.$filenum' 'log_unix_epoch=0' 'nrfiles=2' 'openfiles=2'
if "$sim" -q --scheduler noop "$tmp/j.fio" >/dev/null 2>"$tmp/err"; then ok "their values that change nothing run"
else ko "a no-op value refused: $(cat "$tmp/err")"; fi

# iodepth_low: a full queue drains to it before it is filled again, so
# a third of the I/Os go at depths 5-8 (fio's "8" bucket), none without it
dj() { job '[a]' 'ioengine=libaio' 'direct=1' 'rw=randread' 'size=16m' 'iodepth=16' "$@"; }
level8() { "$sim" -q --scheduler deadline --output-format json "$tmp/j.fio" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["iodepth_level"]["8"])'; }
dj
l0=$(level8)
dj 'iodepth_low=4'
l4=$(level8)
if python3 -c "import sys; sys.exit(not (float('$l0') < 1 and 30 < float('$l4') < 37))"; then
	ok "iodepth_low=4 of 16: $l4 % of I/Os at depth 5-8 ($l0 % without)"
else ko "iodepth_low=4 of 16: $l4 % at depth 5-8, want about 33 ($l0 % without)"; fi
# iodepth_batch_complete_min: a full queue reaps 8 before it refills,
# so the depth falls to 8 and the drive sees fewer commands at once
iops() { "$sim" -q --scheduler deadline --output-format json "$tmp/j.fio" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'; }
dj
i0=$(iops)
dj 'iodepth_batch_complete_min=8'
i8=$(iops)
dj 'iodepth_batch_complete=8'
i8b=$(iops)
if [ "$i0" != "$i8" ] && [ "$i8" = "$i8b" ]; then ok "iodepth_batch_complete_min=8 (and its alias) changes the run: $i8 IOPS, $i0 without"
else ko "iodepth_batch_complete_min=8: $i8 IOPS (alias $i8b), $i0 without"; fi

# invalidate (fio's default 1): a job's region leaves the page cache when
# fio opens its files, at the job's start and each loop; invalidate=0
# keeps what an earlier job or loop read
riops() { "$sim" -q --scheduler noop --output-format json "$tmp/j.fio" |
	python3 -c 'import json, sys; print(" ".join("%.1f" % j["read"]["iops"] for j in json.load(sys.stdin)["jobs"]))'; }
job '[r1]' 'rw=randread' 'size=8m' 'filename=f' '[r2]' 'stonewall' 'rw=randread' 'size=8m' 'filename=f'
drop=$(riops)
job '[r1]' 'rw=randread' 'size=8m' 'filename=f' '[r2]' 'stonewall' 'invalidate=0' 'rw=randread' 'size=8m' 'filename=f'
keep=$(riops)
job '[l]' 'rw=randread' 'size=8m' 'loops=2'
ldrop=$(riops)
job '[l]' 'rw=randread' 'size=8m' 'loops=2' 'invalidate=0'
lkeep=$(riops)
if python3 - "$drop" "$keep" "$ldrop" "$lkeep" <<'PY'
import sys
d, k = [list(map(float, a.split())) for a in sys.argv[1:3]]
ld, lk = float(sys.argv[3]), float(sys.argv[4])
sys.exit(not (0.8 < d[1] / d[0] < 1.25 and k[1] > 10 * k[0] and lk > 1.5 * ld))
PY
then ok "invalidate: a second reader goes to the disk ($drop IOPS), with invalidate=0 to the cache ($keep); loops=2 $ldrop, kept $lkeep"
else ko "invalidate: second reader $drop IOPS (want alike), invalidate=0 $keep (want the 2nd 10x); loops=2 $ldrop, kept $lkeep"; fi

# directory: fio puts a filename under the directory given before it,
# so two jobs naming x in two directories have two files; a filename
# from [global], before the job's directory, is one file they share
job '[global]' 'rw=write' 'size=1m' '[a]' 'directory=/a' 'filename=x' '[b]' 'directory=/b' 'filename=x'
"$sim" -q --scheduler noop --write_iolog "$tmp/io.log" "$tmp/j.fio" >/dev/null 2>&1
two=$(grep -c ' add$' "$tmp/io.log")
job '[global]' 'rw=write' 'size=1m' 'filename=x' '[a]' 'directory=/a' '[b]' 'directory=/b'
"$sim" -q --scheduler noop --write_iolog "$tmp/io.log" "$tmp/j.fio" >/dev/null 2>&1
one=$(grep ' add$' "$tmp/io.log" | tr '\n' ' ')
if [ "$two" -eq 2 ] && [ "$one" = "0 x add " ]; then ok "directory= before filename= gives each job its file, after it shares x"
else ko "directory: $two files for /a/x and /b/x (want 2); shared: '$one' (want '0 x add ')"; fi

# an output that cannot be kept: one error, exit 1, the run's writer closed once
job '[a]' 'size=1m'
mkdir -p "$tmp/bt/deadline.blktrace.0/x"
refuses "--write-blktrace onto a directory" 1 "deadline.blktrace.0: Is a directory" \
	-q --scheduler deadline --write-blktrace "$tmp/bt" "$tmp/j.fio"
if ls "$tmp/bt" | grep -q tmp; then ko "--write-blktrace left a temporary file: $(ls "$tmp/bt")"
else ok "--write-blktrace that fails leaves no temporary file"; fi

# a log that cannot be written: one line naming it, exit 1 (with an
# ASan build as $1, LeakSanitizer's report would make it more lines)
job '[a]' 'size=1m' "write_lat_log=$tmp/no/such/dir/a"
refuses "a log that cannot be written" 1 "fio logs: $tmp/no/such/dir/a_lat.1.log: No such file or directory" \
	-q --scheduler noop "$tmp/j.fio"

# ioscheduler= in a job file: that one scheduler
job '[a]' 'size=1m' 'ioscheduler=mq-deadline'
if "$sim" -q "$tmp/j.fio" >"$tmp/out" 2>&1 && [ "$(sed -n 2p "$tmp/out" | awk '{print $NF}')" = deadline ] &&
	[ "$(sed -n 2p "$tmp/out" | wc -w)" -eq 1 ]; then ok "ioscheduler=mq-deadline runs deadline alone"
else ko "ioscheduler=mq-deadline: $(head -3 "$tmp/out")"; fi

# names whole: two names alike for 14 characters stay apart
job '[random-reader-one]' 'rw=randread' 'size=4m' '[random-reader-two]' 'rw=randread' 'size=4m'
"$sim" -q "$tmp/j.fio" >"$tmp/out" 2>&1
if grep -q '^random-reader-one ' "$tmp/out" && grep -q '^random-reader-two ' "$tmp/out"; then
	ok "job names printed whole"
else ko "job names cut: $(grep '^random' "$tmp/out")"; fi
# a replay's process keeps its pid
"$sim" replay -q tests/traces/hddsim0-writeread.blktrace.0 >"$tmp/out" 2>&1
if grep -qE '^kworker/u8:3\[55\] ' "$tmp/out"; then ok "a replay's kworker/u8:3[55] keeps its pid"
else ko "no kworker/...[pid] row: $(grep kworker "$tmp/out" | head -2)"; fi

# replay --ioprio: a traced process's class reaches the policy. Two
# processes each read 400 x 128 KiB back to back, "reader" (pid 100) at
# the disk's start and "backup" (pid 200) 430 GiB away; the reader's
# runtime alone, beside backup at best effort, and beside it at idle
prio_trace() {
	awk -v alone="$1" 'function ts(x) { return sprintf("%d.%09d", int(x), (x - int(x)) * 1e9 + 0.5) }
	BEGIN { for (i = 0; i < 400; i++) { t = i * 0.002
		printf "  8,0 0 %d %s 100 Q R %d + 256 [reader]\n", ++n, ts(t), 2048 + i * 256
		if (!alone) printf "  8,0 0 %d %s 200 Q R %d + 256 [backup]\n", ++n, ts(t), 900000000 + i * 256
		printf "  8,0 0 %d %s 100 C R %d + 256 [0]\n", ++n, ts(t + 0.002), 2048 + i * 256
		if (!alone) printf "  8,0 0 %d %s 200 C R %d + 256 [0]\n", ++n, ts(t + 0.002), 900000000 + i * 256 } }'
}
prio_trace 0 >"$tmp/two.blkparse"
prio_trace 1 >"$tmp/alone.blkparse"
# prio_run SCHED ARGS... TRACE: "READER_MS RT_DISPATCHED IDLE_DISPATCHED"
prio_run() {
	sched=$1
	shift
	"$sim" replay -q --scheduler "$sched" --output-format json "$@" 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
a = d["antic"].get("anticipation", {})
print([j["job_runtime"] for j in d["jobs"] if j["jobname"] == "reader[100]"][0],
      a.get("rt_dispatched", "-"), a.get("idle_dispatched", "-"))' 2>>"$tmp/err"
}
for sched in anticipatory deadline; do
	alone=$(prio_run $sched "$tmp/alone.blkparse")
	be=$(prio_run $sched "$tmp/two.blkparse")
	idle=$(prio_run $sched --ioprio backup=3 "$tmp/two.blkparse")
	idlepid=$(prio_run $sched --ioprio 200=idle:4 "$tmp/two.blkparse")
	# a pid's entry wins over a name's, whichever comes first
	pidwins=$(prio_run $sched --ioprio 200=2 --ioprio backup=3 "$tmp/two.blkparse")
	pidwins2=$(prio_run $sched --ioprio backup=idle --ioprio 200=best-effort "$tmp/two.blkparse")
	# of two alike, the later
	later=$(prio_run $sched --ioprio backup=3 --ioprio backup=2 "$tmp/two.blkparse")
	rt=$(prio_run $sched --ioprio reader=1 "$tmp/two.blkparse")
	if python3 - $sched "$alone" "$be" "$idle" "$idlepid" "$pidwins" "$pidwins2" "$rt" "$later" <<'PY'
import sys
sched = sys.argv[1]
alone, be, idle, idlepid, pw, pw2, rt, later = [a.split() for a in sys.argv[2:]]
ms = lambda r: int(r[0])
near = lambda r: abs(ms(r) - ms(alone)) <= 0.05 * ms(alone)
ok = near(idle) and near(idlepid) and near(rt) and ms(be) > 1.5 * ms(alone) \
	and ms(pw) > 1.5 * ms(alone) and ms(pw2) > 1.5 * ms(alone) and ms(later) > 1.5 * ms(alone)
if sched == "anticipatory":
	# the counters say which class each request went in
	ok = ok and idle[2] == "400" and idlepid[2] == "400" and rt[1] == "400" \
		and be[1:] == ["0", "0"] and pw[1:] == ["0", "0"] and pw2[1:] == ["0", "0"]
sys.exit(not ok)
PY
	then ok "replay --ioprio under $sched: the reader alone ${alone%% *} ms; beside backup at best effort ${be%% *}, at idle ${idle%% *} (by name), ${idlepid%% *} (by pid), itself realtime ${rt%% *}; a pid's best effort over the name's idle ${pidwins%% *}, ${pidwins2%% *}; idle then best effort ${later%% *} (rt_dispatched, idle_dispatched: ${be#* }, ${idle#* }, ${rt#* })"
	else ko "replay --ioprio under $sched: alone '$alone', best effort '$be', idle '$idle', by pid '$idlepid', realtime '$rt', pid over name '$pidwins' '$pidwins2', later '$later' ($(head -c 300 "$tmp/err"))"; fi
done
# a replay ends at its last request, not at a timer left for work long
# gone: the idle class's 10 s aging bound was once the run's time
end=$("$sim" replay -q --scheduler anticipatory --output-format json --ioprio backup=3 "$tmp/two.blkparse" |
	python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["antic"]["sim_time_ns"] // 1000000, max(j["job_runtime"] for j in d["jobs"]))' 2>&1)
if [ "${end% *}" -eq "${end#* }" ] 2>/dev/null; then
	ok "a replay's time is its last request's: ${end% *} ms"
else ko "a replay's time is its last request's: '$end' (run ms, last job's runtime ms)"; fi
# the bad ones: the option and the field named, exit 2, nothing written
refuses "--ioprio outside replay" 2 "antic-sim: --ioprio is an option of antic-sim replay" \
	--ioprio=backup=3 examples/write-vs-read.fio
refuses "--ioprio class" 2 "--ioprio 'x=9': class '9': want 1 (realtime), 2 (best-effort) or 3 (idle)" \
	replay -q --output "$tmp/p.out" --ioprio x=9 "$tmp/two.blkparse"
refuses "--ioprio class name" 2 "--ioprio 'x=rt': class 'rt': want 1 (realtime)" \
	replay -q --ioprio x=rt "$tmp/two.blkparse"
refuses "--ioprio without a class" 2 "--ioprio 'backup': want WHO=CLASS[:LEVEL]" \
	replay -q --ioprio backup "$tmp/two.blkparse"
refuses "--ioprio without WHO" 2 "--ioprio '=3': want WHO=CLASS[:LEVEL]" \
	replay -q --ioprio =3 "$tmp/two.blkparse"
refuses "--ioprio level" 2 "--ioprio 'backup=2:8': level '8': want 0-7" \
	replay -q --ioprio backup=2:8 "$tmp/two.blkparse"
refuses "--ioprio level of none" 2 "--ioprio 'backup=none:3': level 3: class none takes no level" \
	replay -q --ioprio backup=none:3 "$tmp/two.blkparse"
refuses "--ioprio pid" 2 "--ioprio '4294967296=3': pid 4294967296: want at most 4294967295" \
	replay -q --ioprio 4294967296=3 "$tmp/two.blkparse"
refuses "--ioprio name" 2 "--ioprio 'a-name-of-17-chars=3': name: a trace records at most 16 characters" \
	replay -q --ioprio a-name-of-17-chars=3 "$tmp/two.blkparse"
refuses "--ioprio on a trace without processes" 2 "--ioprio: tests/traces/ssd.mqsim: the disksim-ns format names no processes" \
	replay -q --ioprio 1=3 tests/traces/ssd.mqsim
[ -e "$tmp/p.out" ] && ko "a refused --ioprio wrote --output" || ok "a refused --ioprio writes no --output"
# a WHO that selects no process: said after the run, exit 1, no output kept
mkdir -p "$tmp/pbt"
refuses "--ioprio selecting nothing" 1 "--ioprio rsync: no process of that name or pid in $tmp/two.blkparse" \
	replay -q --output "$tmp/p.out" --write-blktrace "$tmp/pbt" --ioprio backup=3 --ioprio rsync=3 "$tmp/two.blkparse"
if [ -e "$tmp/p.out" ] || [ -n "$(ls "$tmp/pbt")" ]; then ko "--ioprio selecting nothing left files: $(ls "$tmp" "$tmp/pbt" | tr '\n' ' ')"
else ok "--ioprio selecting nothing keeps no --output and no --write-blktrace file"; fi
refuses "--ioprio: each that selects nothing" 1 "--ioprio rsync, 300: no process of those names or pids in" \
	replay -q --ioprio rsync=3 --ioprio 100=1 --ioprio 300=3 "$tmp/two.blkparse"

# counters: the zero ones hidden, all with --counters
"$sim" -q --scheduler as "$tmp/j.fio" >"$tmp/out" 2>&1
"$sim" -q --scheduler as --counters "$tmp/j.fio" >"$tmp/all" 2>&1
if grep -qE '[a-z_]+ 0(,|$)' "$tmp/out"; then ko "a zero counter shown without --counters: $(grep -oE '[a-z_]+ 0(,|$)' "$tmp/out" | head -3 | tr '\n' ' ')"
elif ! grep -qE 'ended_exit 0' "$tmp/all"; then ko "--counters does not show the zero ones"
else ok "zero counters hidden ($(sed -n '/^anticipatory:/,$p' "$tmp/out" | grep -oE '[a-z_]+ [0-9]+' | wc -l) shown), all with --counters ($(sed -n '/^anticipatory:/,$p' "$tmp/all" | grep -oE '[a-z_]+ [0-9]+' | wc -l))"; fi

# the layout setting: where a file system put the files, each error naming
# the layout file, its line and field, nothing written; a file named moves
# there, and takes the size given where fio would (a drawn filesize; a
# job's size= extends a smaller file, as fio does)
job '[global]' 'directory=/d' 'rw=read' 'bs=64k' '[a]' 'filename=a' 'size=8m' '[b]' 'filename=b' 'size=8m' \
	'[c]' 'nrfiles=2' 'filesize=64k-128k' 'bs=4k'
lay() { printf '%s\n' "$@" >"$tmp/l.map"; }
# lay_refuses NAME WANT_TEXT MAP_LINE... [-- ARGS...]: the map's lines into
# l.map, then refuses "layout: NAME" 1 WANT_TEXT -q ARGS... --set layout=l.map j.fio
lay_refuses() {
	lname=$1 ltext=$2
	shift 2
	: >"$tmp/l.map"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		printf '%s\n' "$1" >>"$tmp/l.map"
		shift
	done
	[ $# -gt 0 ] && shift
	refuses "layout: $lname" 1 "$ltext" -q "$@" --set layout="$tmp/l.map" "$tmp/j.fio"
}
lay_refuses "a bad BYTES" "l.map:2: BYTES: want a size in bytes, 1 to 2^50, got 'x /d/b'" '# where' '20000000 x /d/b'
lay_refuses "BYTES past 2^50" "l.map:1: BYTES: want a size in bytes, 1 to 2^50" '2000 18446744073709551615 /d/b'
lay_refuses "a bad SECTOR" "l.map:1: SECTOR: want a sector number, got '2e6 4096 /d/b'" '2e6 4096 /d/b'
lay_refuses "no BYTES" "l.map:1: BYTES: want a size in bytes, 1 to 2^50, got nothing" '2000'
lay_refuses "no PATH" "l.map:1: PATH: want a path" '2000 4096'
lay_refuses "a file given twice" "l.map:3: PATH: /d/b is given twice (line 1 too)" \
	'2000 4096 /d/b' '' '9000 4096 /d/b' '9100 4096 /d/b'
lay_refuses "matching no file" "none of its 1 paths names a file of this run" '2000 4096 /e/b' \
	-- --output "$tmp/lo.json"
[ -e "$tmp/lo.json" ] && ko "layout matching nothing wrote its --output" || ok "layout matching nothing: no --output written"
lay_refuses "past the disk's end" "l.map:1: SECTOR: /d/b at 83886000 would end past the disk's 83886080" \
	'83886000 1048576 /d/b' -- --set capacity=40g
lay_refuses "a sector near 2^64" "would end past the disk's" '18446744073709550000 4096 /d/b'
refuses "layout: no such file" 1 "layout $tmp/none.map: No such file or directory" \
	-q --set layout="$tmp/none.map" "$tmp/j.fio"
refuses "layout: a replay without --jobs" 1 "a replay lays out no file" \
	replay -q --set layout="$tmp/l.map" tests/traces/two-devices.disksim
# a relative layout= in a job file is taken from the job file's directory
# (run from another one), --set's from the current directory
mkdir -p "$tmp/sub/maps" "$tmp/elsewhere"
printf '%s\n' '20000000 1048576 /d/b' >"$tmp/sub/maps/l.map"
{ echo '; antic-sim: layout=maps/l.map'; cat "$tmp/j.fio"; } >"$tmp/sub/j.fio"
sim_abs=$(cd "$(dirname "$sim")" && pwd)/$(basename "$sim")
got=$(cd "$tmp/elsewhere" && "$sim_abs" -q --scheduler deadline "$tmp/sub/j.fio" 2>&1)
if printf '%s\n' "$got" | grep -qxF "layout $tmp/sub/maps/l.map: 1 of the 4 files placed there"; then
	ok "layout: a job file's relative map taken from its directory ($tmp/sub/maps/l.map)"
else
	ko "layout: a job file's relative map, from another directory: $(printf '%s\n' "$got" | head -c 300)"
fi
got=$(cd "$tmp" && "$sim_abs" -q --scheduler deadline --set layout=sub/maps/l.map "$tmp/sub/j.fio" 2>&1)
if printf '%s\n' "$got" | grep -qxF "layout sub/maps/l.map: 1 of the 4 files placed there"; then
	ok "layout: --set's relative map taken from the current directory"
else
	ko "layout: --set's relative map, from $tmp: $(printf '%s\n' "$got" | head -c 300)"
fi
{ cat "$tmp/j.fio"; echo '[antic-sim]'; echo 'layout=none.map'; } >"$tmp/sub/k.fio"
refuses "layout: a job file's missing map named by its resolved path" 1 \
	"layout $tmp/sub/none.map: No such file or directory" -q "$tmp/sub/k.fio"
lay '# b far off, c.0.0 far off and 1 MiB' '20000000 1048576 /d/b' '30000000 1048576 /d/c.0.0'
"$sim" -q --scheduler deadline "$tmp/j.fio" >"$tmp/out0" 2>&1
"$sim" -q --scheduler deadline --set layout="$tmp/l.map" --output-format json "$tmp/j.fio" >"$tmp/out1" 2>&1
"$sim" -q --scheduler deadline --set layout="$tmp/l.map" "$tmp/j.fio" >"$tmp/out2" 2>&1
s0=$(awk '/mean seek MiB/ { print int($4) }' "$tmp/out0") s2=$(awk '/mean seek MiB/ { print int($4) }' "$tmp/out2")
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
b = [j["read"]["io_bytes"] for j in d["jobs"] if j["jobname"] in ("b", "c")]
print(b[0], b[1], d["antic"]["layout"]["placed"], d["antic"]["layout"]["files"])' "$tmp/out1" 2>/dev/null)
set -- $got
if [ "${s0:-0}" -lt 100 ] && [ "${s2:-0}" -gt 5000 ] && [ "${1:-}" = 8388608 ] &&
	[ "${2:-0}" -gt 1048576 ] && [ "${2:-0}" -le $((1048576 + 131072)) ] && [ "${3:-}" = 2 ] && [ "${4:-}" = 4 ] &&
	grep -q "^layout .*l.map: 2 of the 4 files placed there$" "$tmp/out2"; then
	ok "layout: mean seek $s0 -> $s2 MiB, b read its job's 8 MiB, c its 1 MiB file and the other ($2 bytes), 2 of 4 placed (said)"
else
	ko "layout: mean seek '$s0' -> '$s2' MiB, b, c, placed, files: '$got'; $(sed -n 2p "$tmp/out2")"
fi

# a run stopped at max_time: marked, exit 3, the cap said at the start
job '[a]' 'rw=randread' 'size=1g'
"$sim" --scheduler noop --set max_time=1s "$tmp/j.fio" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && grep -q '^STOPPED at max_time' "$tmp/out" && grep -q 'max_time 1 s' "$tmp/out" &&
	head -1 "$tmp/err" | grep -q 'stops at max_time, 1 s'; then ok "max_time: exit 3, STOPPED in the table, the cap said first"
else ko "max_time: exit $rc; $(head -3 "$tmp/out"); $(head -1 "$tmp/err")"; fi
"$sim" -q --scheduler noop --set max_time=1s --output-format json "$tmp/j.fio" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -Eq '"timed_out" ?: true' "$tmp/out"; then ok "max_time: timed_out in JSON, exit 3"
else ko "max_time JSON: exit $rc, $(grep -Eo '"timed_out" ?: [a-z]*' "$tmp/out")"; fi
"$sim" -q --scheduler noop "$tmp/j.fio" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && ok "a run that ends exits 0" || ko "a run that ends exits $rc"

# the progress line (a terminal only): simulated time against the run's end
if command -v script >/dev/null; then
	job '[a]' 'rw=randread' 'size=1g' 'runtime=3s'
	script -qc "$sim --scheduler noop $tmp/j.fio" /dev/null 2>&1 | tr '\r' '\n' >"$tmp/out"
	if grep -q 'simulated of at most 3 s (the jobs. runtimes)' "$tmp/out"; then ok "progress against the jobs' runtime"
	else ko "progress line: $(grep -a simulated "$tmp/out" | head -2)"; fi
else
	ko "script(1) missing (util-linux): the progress line is not checked"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
