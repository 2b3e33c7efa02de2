#!/bin/busybox sh
# /init of the benchmark VM: Morton's 2003 suite and the start-up rows (a
# recorded program start replayed while a background load runs, as bfq's S
# suite measures it) on hddsim, under each scheduler in turn, repeated,
# for each disk of DISKS ("PRESET:DEPTH ..."; the start-up rows on the
# first). Each workload is a job file of /bench/jobs that antic-sim reads
# too. Prints "DISK PRESET DEPTH" before each disk's runs, one line per
# measured run ("RES ..."; "SREPLAY ..." the replayer's figures) and after
# it the JSON document of each fio of the run on one line, "FIO DEPTH
# WORKLOAD SCHED REP ROLE {...}"; the host (bench/report.py, from
# bench/vmbench.sh) reads them by key.
. /lib/guest-init.sh
. /bench/params
FRESH=${FRESH:-0}
# what the guest could have taken from the host: its clock's start (the
# RTC) and its random pool (boot_id is its first draw); on the
# instruction clock both should be the same in every boot
echo "vm: boot_id $(cat /proc/sys/kernel/random/boot_id), date $(date -u +%Y-%m-%dT%H:%M:%S), fresh=${FRESH:-0} seed=${SEED:-none} wb_mb=${WB_MB:-0}, booted in $(cut -d' ' -f1 /proc/uptime) s, the CPU busy $(awk '/^cpu / { printf "%.2f", ($2 + $3 + $4 + $7 + $8) / 100; exit }' /proc/stat) s of it"
echo "vm: kernel $(uname -r), $(nproc) cpus, quick=$QUICK reps=$REPS cap=${CAP}s (compile ${CAPC}s, start-up ${CAPS}s) disks=$DISKS warm=${WARM}s time_scale=$TSCALE startup_offset=30g${AS_SET:+ as_set=$AS_SET}"
WARMUP=$WARM
export WARM=0 RANDRT=$((CAP / 2)) FAIRRT=$CAP	# the job files' variables: this shell sleeps the warm-up
export BACKUPCLASS=2 PLAYERCLASS=2	# best effort unless a workload names the class
export PLAYERSIZE=${PLAYERSIZE:-32m}	# bench/jobs/ionice-player.fio's player
J=/bench/jobs
modprobe bfq; modprobe kyber-iosched; modprobe crc32c_generic; modprobe ext4
modprobe anticipatory || echo "vm: anticipatory did not load"
# further schedulers SCHEDS names, e.g. variants of ours that boot.sh put
# in the initramfs from VM_EXTRA_KO, to compare them in one boot
for m in $SCHEDS; do modprobe "$m" 2>/dev/null; done

# benchmark processes run in a cgroup with Morton's 256 MB, so the page
# cache is as small as his while hddsim keeps its data outside it
mkdir -p /cg && mount -t cgroup2 none /cg && echo +memory > /cg/cgroup.subtree_control
mkdir -p /cg/bench && echo $MEMCG > /cg/bench/memory.max
echo $$ > /cg/bench/cgroup.procs

D=hddsim0
RAW=/dev/$D
FSUUID=0a471c00-0000-4000-8000-000000000034
RAWOFF=21474836480	# 20 GiB: ext4 below, raw regions above
SUOFF=30g	# the start-ups' image, above the loads' readers (bench/jobs/startup-*.fio)
hs() { cat /sys/block/$D/hddsim/$1; }
idle() { awk '/^cpu / { print $5 + $6; exit }' /proc/stat; }
total() { awk '/^cpu / { s = 0; for (i = 2; i <= NF; i++) s += $i; print s; exit }' /proc/stat; }
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

TREE="--rw=read --bs=4k --nrfiles=12000 --filesize=4k-20k --file_service_type=sequential --openfiles=1"
# fio names files after the job: the measured job ("compile") must read the
# files the setup job wrote, not lay out its own
SRC="--rw=read --bs=4k --nrfiles=1200 --filesize=4k-28k --file_service_type=sequential --openfiles=1 --thinktime=370ms --thinktime_blocks=32 --filename_format=src.\$jobnum.\$filenum"

# lay_out NAME FIO-ARGS: write files into /mnt/NAME with fio and print
# their size in KiB, the sum of their lengths (what a reader of them reads)
lay_out() {
	name=$1
	shift
	fio --output-format=json "$@" > /dev/null || return 1
	echo "SIZE $name $(ls -lRn /mnt/$name | awk '/^-/ { b += $5 } END { printf "%d\n", b / 1024 }')"
}

# fio_line PREFIX FILE: fio's JSON document in FILE on one line behind
# PREFIX, less what fio printed before it ("fio: terminating on signal 2")
# and its indentation: a line per line of it would take five times the
# console, and the log is kept in bench/results
fio_line() {
	echo "FIO $1 $(sed -n '/^{/,$p' "$2" | sed 's/^[[:space:]]*//' | tr -d '\n')"
}

setup_disk() {
	modprobe hddsim profile=$PRESET queue_depth=$DEPTH mem_mb=$HDDMEM || return 1
	echo mq-deadline > /sys/block/$D/queue/scheduler
	# a fixed UUID and directory hash seed: where ext4 puts a directory
	# and how it orders names come from them, so each file system is laid
	# out alike (mke2fs would draw both from the guest's random pool)
	E2FSPROGS_FAKE_TIME=1767225600 mkfs.ext4 -q -F -N 200000 -J size=64 -U $FSUUID \
		-E lazy_itable_init=0,lazy_journal_init=0,hash_seed=$FSUUID $RAW 20G || return 1
	mkdir -p /mnt && mount -t ext4 $RAW /mnt || return 1
	mkdir -p /mnt/src
	# files laid out once, in the order a tree's files would be written;
	# "SIZE name KB" tells the report how much a reader of them reads
	want write-vs-tree || want read-vs-tree || want six-trees || TREES=0
	want six-trees || [ $TREES -le 1 ] || TREES=1	# the other tree workloads read tree0
	i=0
	while [ $i -lt $TREES ]; do
		mkdir -p /mnt/tree$i
		lay_out tree$i --name=tree --directory=/mnt/tree$i $TREE --rw=write || return 1
		i=$((i + 1))
	done
	if want compile-vs-write || want compile-alone; then
		lay_out src --name=src --directory=/mnt/src $SRC --rw=write --thinktime=0 || return 1
	fi
	# the raw-disk fairness and ionice jobs use neither file
	case "$FRESH $WORKLOADS" in
	"1 fair-"* | "1 ionice-"*) ;;
	*)
		fio --name=r100 --filename=/mnt/r100 --rw=write --bs=1m --size=100m > /dev/null || return 1
		fio --name=w --filename=/mnt/wfile --rw=write --bs=1m --size=256m > /dev/null || return 1
		;;
	esac
	# the start-up rows' writers' file (bench/jobs/startup-5r5w-*.fio)
	if [ "$STARTUP_HERE" = 1 ] && [ -n "$STARTUPS" ] && { [ "$FRESH" != 1 ] || want startup; }; then
		fio --name=bgw --filename=/mnt/bgw --rw=write --bs=1m --size=160m > /dev/null || return 1
	fi
	sync
	echo "vm: disk ready, $(hs mem_pages) data pages, nr_requests $(cat /sys/block/$D/queue/nr_requests), read_ahead_kb $(cat /sys/block/$D/queue/read_ahead_kb), max_sectors_kb $(cat /sys/block/$D/queue/max_sectors_kb)"
}

# a process still holding /mnt is killed: a fio job whose parent the
# memory cgroup's OOM killer took at a cap would keep the file system busy,
# and every later run would find no fresh disk; the log names each one
free_mnt() {
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = $$ ] && continue
		for f in $p/cwd $p/root $p/fd/*; do
			case $(readlink $f 2>/dev/null) in
			/mnt | /mnt/*)
				echo "vm: killed $pid ($(cat $p/comm 2>/dev/null)), still holding /mnt"
				kill -9 $pid 2>/dev/null
				break
				;;
			esac
		done
	done
	sleep 1
}

# a killed process in D state lets go of /mnt once its I/O ends: up to 10 tries
teardown_disk() {
	umount /mnt 2>/dev/null || {
		free_mnt
		n=0
		until umount /mnt 2>/dev/null; do
			n=$((n + 1))
			[ $n -lt 10 ] || { umount /mnt; return 1; }
			sleep 1
		done
	}
	rmmod hddsim
}

# the scheduler SCHED and its tunables on the disk (again after each fresh
# disk): ANTIC_EXPIRE and AS_SET for anticipatory, VARIANT_SET's
# "SCHED:name=value" words for the scheduler they name (a variant of ours
# under another name, say, for an A/B of one tunable in one boot)
use_sched() {
	echo $SCHED > /sys/block/$D/queue/scheduler 2>/dev/null || return 1
	[ $SCHED = anticipatory ] && [ -n "${ANTIC_EXPIRE:-}" ] &&
		echo $ANTIC_EXPIRE > /sys/block/$D/queue/iosched/antic_expire
	sched_tunables $D
	return 0
}

# AS_SET's words (anticipatory) and VARIANT_SET's for SCHED, on disk $1
sched_tunables() {
	set -f	# name=value words, never globs
	if [ $SCHED = anticipatory ]; then
		for kv in ${AS_SET:-}; do
			echo "${kv#*=}" > /sys/block/$1/queue/iosched/${kv%%=*} ||
				echo "vm: AS_SET $kv refused"
		done
	fi
	for skv in ${VARIANT_SET:-}; do
		[ "${skv%%:*}" = $SCHED ] || continue
		kv=${skv#*:}
		echo "${kv#*=}" > /sys/block/$1/queue/iosched/${kv%%=*} ||
			echo "vm: VARIANT_SET $skv refused"
	done
	set +f
}

# fresh WORKLOAD: with FRESH=1 every measured run starts from the same
# state: a new hddsim (its head, caches and counters at their start), a
# new file system of the same UUID and hash seed, and only the files that
# WORKLOAD reads or writes, laid out in the same order; then the scheduler
fresh() {
	[ "$FRESH" = 1 ] || return 0
	# the lay-out runs outside the run's memory cgroup: it writes files as
	# large as the cgroup's whole limit, which on a slow disk writeback
	# cannot clean as fast as reclaim needs, and the OOM killer would take
	# the lay-out's fio
	echo $$ > /cg/cgroup.procs 2>/dev/null
	teardown_disk
	ws=$WORKLOADS trees=$TREES
	WORKLOADS=$1
	setup_disk > /tmp/setup.out 2>&1
	rc=$?
	WORKLOADS=$ws TREES=$trees
	grep -v '^vm: disk ready' /tmp/setup.out
	[ $rc = 0 ] || { echo "vm: disk setup failed (fresh $1)"; return 1; }
	use_sched || echo "vm: no scheduler $SCHED"
	# a new memory cgroup too: the old one's writeback estimates (its
	# dirty rate and limits) and charged pages would carry one run's
	# history into the next, so a run would depend on the one before
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
	runs=$((${runs:-0} + 1))
	mkdir /cg/run$runs && echo $MEMCG > /cg/run$runs/memory.max &&
		echo $$ > /cg/run$runs/cgroup.procs || echo "vm: no memory cgroup for run $runs"
	rmdir /cg/bench 2>/dev/null
	[ $runs -le 1 ] || rmdir /cg/run$((runs - 1)) 2>/dev/null
	# the run starts on the guest clock's next whole second, so that the
	# kernel's periodic work (the tick, writeback's timer) keeps its
	# phase to the run where two boots' clocks differ by a little
	sleep "$(awk '{ printf "%.2f\n", 1 - $1 % 1 }' /proc/uptime)"
	# the guest's clock as the run starts: two boots that agree here
	# reached the run alike
	echo "CLOCK $DEPTH $1 $SCHED $REP $(cut -d' ' -f1 /proc/uptime) $(fingerprint)"
}

# the guest's state in a few numbers (its clock in ns, the disk's busy ns
# and requests, timer interrupts, the CPU's busy time in 1/100 s since
# boot): two boots that print the same here have run alike to this point
fingerprint() {
	echo "now_ns=$(awk '/^now at/ { print $3; exit }' /proc/timer_list) busy_ns=$(hs busy_ns) requests=$(hs requests) loc=$(awk '/LOC:/ { print $2 }' /proc/interrupts) cpu_cs=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat)"
}

# fio's random seed for this repetition's jobs (SEED + REP): the same
# repetition draws the same offsets in every boot, and repetitions differ
seed_opt() {
	[ -n "${SEED:-}" ] && echo "--randseed=$((SEED + REP))"
}

# settle TAG: with WB_MB set, once a writer's load has started, wait until
# the disk has taken WB_MB MiB of writes (the page cache's writeback under
# way, the writer throttled by it), at most 60 s; prints the wait in ms
settle() {
	[ "${WB_MB:-0}" -gt 0 ] || return 0
	w0=$(awk '{ print $7 }' /sys/block/$D/stat)
	t=0
	while [ $(( ($(awk '{ print $7 }' /sys/block/$D/stat) - w0) / 2048 )) -lt $WB_MB ] && [ $t -lt 600 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	echo "SETTLE $DEPTH $1 $SCHED $REP $((t * 100)) $(fingerprint)"
}

bg_pid=
bg() {	# a background load; its fio JSON is printed when stopped
	role=$1
	shift
	fio --output-format=json --output=/tmp/bg.$role $(seed_opt) "$@" > /dev/null 2>&1 &
	bg_pid="$bg_pid $!"
}
# load WORKLOAD ROLE: that section of the workload's job file, in the background
load() { wbtrace_on; bg "$2" $J/$1.fio --section="$2"; LOADROLE=$2; }
# WBTRACE=1 (a diagnosis, not a benchmark): writeback's, wbt's, reclaim's
# and the block layer's trace events from the load's start to its stop,
# and the memory cgroup's dirty and writeback pages every 100 ms
wbtrace_on() {
	[ "${WBTRACE:-0}" = 1 ] || return 0
	tr=/sys/kernel/debug/tracing
	echo 0 > $tr/tracing_on; echo > $tr/trace
	echo 32768 > $tr/buffer_size_kb
	for e in writeback/balance_dirty_pages writeback/writeback_start writeback/writeback_written \
		writeback/writeback_queue_io wbt/wbt_step wbt/wbt_stat wbt/wbt_timer wbt/wbt_lat \
		vmscan/mm_vmscan_throttled block/block_rq_issue block/block_rq_complete; do
		echo 1 > $tr/events/$e/enable 2>/dev/null || echo "vm: no event $e"
	done
	echo 1 > $tr/tracing_on
	cg=$(sed -n 's/^0:://p' /proc/self/cgroup)
	while :; do
		read -r up x < /proc/uptime
		read -r c u n sy id iw rest < /proc/stat
		fd= fw= fl=
		while read -r k v; do
			case $k in file) fl=$v ;; file_dirty) fd=$v ;; file_writeback) fw=$v ;; esac
		done < /cg$cg/memory.stat
		read -r st < /sys/block/$D/stat
		echo "SMP $up cpu $u $sy $id $iw file $fl dirty $fd wb $fw stat $st"
		sleep 0.1
	done > /tmp/smp.out 2>&1 &
	smp_pid=$!
}
wbtrace_off() {	# only after a wbtrace_on of this run: no sampler, nothing to print
	[ "${WBTRACE:-0}" = 1 ] && [ -n "${smp_pid:-}" ] || return 0
	echo 0 > /sys/kernel/debug/tracing/tracing_on
	kill $smp_pid; wait $smp_pid 2>/dev/null
	smp_pid=
	cat /tmp/smp.out
	grep -v '^#' /sys/kernel/debug/tracing/trace | sed 's/^/WBT /'
}
bg_stop() {
	for p in $bg_pid; do kill -INT $p 2>/dev/null; done
	for p in $bg_pid; do wait $p 2>/dev/null; done
	bg_pid= LOADROLE=
}
# guard SECONDS ... unguard: the load is stopped SECONDS after the measured
# process started (2 past its cap) if it is still running then, so that a
# process whose requests the load starves can leave: stopped at its cap,
# it still waits for its requests at the drive (exit_aio), and under none
# at depth 1 on 7.3 the ten readers kept replay-startup there for minutes
# while this script waited for it before stopping them (a run hung to its
# timeout). The measured process stays in the foreground: a background
# one would ignore timeout's SIGINT, as sh's asynchronous commands do.
guard() {
	( sleep "$1"; for p in $bg_pid; do kill -INT $p 2>/dev/null; done ) &
	guard_pid=$!
}
unguard() {
	kill $guard_pid 2>/dev/null
	wait $guard_pid 2>/dev/null
	guard_pid=
}

# the drive's own view of a measured run: hddsim's read-ahead hits and how
# late its completions fired against the model (lateness_us is cleared
# by drive0); raw lines for reading beside antic-sim's disk.cache_hits
drive0() {
	h0=$(hs cache_hits)
	echo 0 > /sys/block/$D/hddsim/lateness_us 2>/dev/null || true
}
drive1() {
	echo "HDS $DEPTH $1 $SCHED $REP cache_hits=$(( $(hs cache_hits) - h0 )) lateness_us $(hs lateness_us)"
}

# anticipatory's debugfs counters over the run (from /tmp/ctr0): the
# decisions behind a figure; write_k* are gauges, shown as they stand
asctr() {
	[ $SCHED = anticipatory ] && [ -f $ctr ] || return 0
	echo "ASCTR $DEPTH $1 $REP $(awk 'NR == FNR { a[$1] = $2; next }
		{ printf "%s=%.0f ", $1, $1 ~ /^write_k|_ms$/ ? $2 : $2 - a[$1] }' /tmp/ctr0 $ctr)"
}

# measure: run the measured fio (capped at CAP seconds) and print results
measure() {
	tag=$1
	shift
	sync
	echo 3 > /proc/sys/vm/drop_caches
	case $tag in *-alone | fair-* | ionice-*) ;; *) sleep 3 ;; esac	# let the load get going
	[ "${LOADROLE:-}" = writer ] && settle "$tag"
	s0=$(hs seeks); b0=$(hs busy_ns); q0=$(hs requests); x0=$(hs sectors)
	drive0
	ctr=/sys/kernel/debug/block/$D/sched/counters
	[ $SCHED = anticipatory ] && [ -f $ctr ] && cat $ctr > /tmp/ctr0
	i0=$(idle); c0=$(total)
	t0=$(now_ms)
	# fio does not always stop at runtime during think time: SIGINT ends it
	# and still prints its results
	cap=$CAP
	case $tag in compile-*) cap=$CAPC ;; esac
	# ROOTCG=1: the measured processes run outside the 256 MB memcg
	guard $((cap + 4))
	if [ "${ROOTCG:-0}" = 1 ]; then
		sh -c 'echo $$ > /cg/cgroup.procs; exec "$@"' sh \
			timeout -s INT $((cap + 2)) fio --output-format=json --runtime=$cap $(seed_opt) "$@" > /tmp/m.out 2>/tmp/m.err
	else
		timeout -s INT $((cap + 2)) fio --output-format=json --runtime=$cap $(seed_opt) "$@" > /tmp/m.out 2>/tmp/m.err
	fi
	rc=$?
	unguard
	t1=$(now_ms)
	i1=$(idle); c1=$(total)
	s1=$(hs seeks); b1=$(hs busy_ns); q1=$(hs requests); x1=$(hs sectors)
	drive1 "$tag"
	bg_stop
	wbtrace_off
	asctr "$tag"
	el=$((t1 - t0))
	cens=0
	[ $el -ge $((cap * 1000 - 500)) ] && cens=1
	echo "RES $DEPTH $tag $SCHED $REP $el $cens $(( (i1 - i0) * 100 / (c1 - c0 + 1) )) $((s1 - s0)) $((x1 - x0)) $(( (b1 - b0) / 1000000 )) $((q1 - q0)) $rc"
	fio_line "$DEPTH $tag $SCHED $REP measured" /tmp/m.out
	for f in /tmp/bg.*; do
		[ -f "$f" ] || continue
		fio_line "$DEPTH $tag $SCHED $REP ${f#/tmp/bg.}" "$f"
		rm -f "$f"
	done
	[ $rc = 0 ] || echo "vm: $tag under $SCHED: fio exit $rc: $(tail -n 2 /tmp/m.err | tr '\n' ' ')"
}

want() { case " $WORKLOADS " in *" $1 "*) return 0 ;; esac; return 1; }

# each workload: its load's sections in the background, then the measured
# ones, from the same job file antic-sim predicts from
# (with FRESH=1 each on a fresh disk: "fresh W &&" below)
suite() {
	want write-vs-read && fresh write-vs-read && { load write-vs-read writer; measure write-vs-read $J/write-vs-read.fio --section=cat; }
	want write-vs-tree && fresh write-vs-tree && { load write-vs-tree writer; measure write-vs-tree $J/write-vs-tree.fio --section=tree; }
	want read-vs-tree && fresh read-vs-tree && { load read-vs-tree streamer; measure read-vs-tree $J/read-vs-tree.fio --section=tree; }
	if want six-trees && [ $TREES -ge 6 ] && fresh six-trees; then
		measure six-trees $J/six-trees.fio
	fi
	want ten-streams && fresh ten-streams && measure ten-streams $J/ten-streams.fio
	if want read-vs-fsync && fresh read-vs-fsync; then
		load read-vs-fsync streamer; measure read-vs-fsync $J/read-vs-fsync.fio --section=fsync
		rm -f /mnt/fsyncfile
	fi
	want compile-vs-write && fresh compile-vs-write && { load compile-vs-write writer; measure compile-vs-write $J/compile-vs-write.fio --section=compile; }
	# the baseline without a writer: once, on the first disk
	want compile-alone && [ "$STARTUP_HERE" = 1 ] && fresh compile-alone && measure compile-alone $J/compile-alone.fio
	# the random readers share the memcg with the writer unless RANDOM_ROOTCG=1
	want random-vs-write && fresh random-vs-write && { load random-vs-write writer; ROOTCG=${RANDOM_ROOTCG:-0}
		measure random-vs-write $J/random-vs-write.fio --section=rand; ROOTCG=0; }
	# fairness on the raw disk: both processes measured from the same
	# start; each also alone (fair-solo: the writer and each reader, the
	# rates the report divides by for a process's share of the disk)
	want fair-aio && fresh fair-aio && measure fair-aio $J/fair-aio.fio
	want fair-psync && fresh fair-psync && measure fair-psync $J/fair-psync.fio
	if want fair-solo; then
		fresh fair-solo && measure fair-solo-writer $J/fair-aio.fio --section=writer
		fresh fair-solo && measure fair-solo-aio $J/fair-aio.fio --section=reader
		fresh fair-solo && measure fair-solo-psync $J/fair-psync.fio --section=reader
	fi
	# ionice's classes on the raw disk, each job file whole with the
	# class its variable names (fio sets it with ioprio_set), the reader
	# also alone; the report takes each job's own runtime from fio
	want ionice-reader-alone && fresh ionice-reader-alone &&
		measure ionice-reader-alone $J/ionice-backup.fio --section=reader
	want ionice-backup && fresh ionice-backup && BACKUPCLASS=3 measure ionice-backup $J/ionice-backup.fio
	want ionice-backup-be && fresh ionice-backup-be && BACKUPCLASS=2 measure ionice-backup-be $J/ionice-backup.fio
	want ionice-player && fresh ionice-player && PLAYERCLASS=1 measure ionice-player $J/ionice-player.fio
	want ionice-player-be && fresh ionice-player-be && PLAYERCLASS=2 measure ionice-player-be $J/ionice-player.fio
}

# startup NAME LOAD: the recorded start-up of NAME (/bench/startup/NAME.blkparse)
# replayed cold (O_DIRECT on the raw device: no cache can help) by
# replay-startup, WARM seconds after the background load LOAD started (none:
# no load); capped at CAPS seconds. The recorded image's sectors go SUOFF
# into the disk, past the readers' regions: where the mounted ext4 lies,
# each direct read would first wait for the writeback of the file system's
# dirty metadata cached there (a QUICK run on 6.12 hung in it). RES's time is the replayer's (first
# issue to last completion), the load's throughput is its fio JSON.
startup() {
	name=$1 ld=$2 tag=startup-$1@$2
	fresh startup || return 0
	# TRACE=1: every request inserted from here to 0.3 s into the
	# program's start, with the task that inserted it (which process the
	# scheduler's newcomer rules saw first); printed after the load stops
	tr=/sys/kernel/debug/tracing
	[ "${TRACE:-0}" = 1 ] && [ ! -d $tr/events/block ] && echo "vm: TRACE=1 but no $tr/events/block: no trace"
	if [ "${TRACE:-0}" = 1 ] && [ -d $tr/events/block ]; then
		echo 0 > $tr/tracing_on; echo > $tr/trace
		echo 8192 > $tr/buffer_size_kb
		dv=$(cat /sys/block/$D/dev)
		echo "dev == $(( (${dv%%:*} << 20) | ${dv#*:} ))" > $tr/events/block/block_rq_insert/filter
		echo 1 > $tr/events/block/block_rq_insert/enable
		echo 1 > $tr/tracing_on
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	# counted from before the load starts: the load's own favour is in them
	ctr=/sys/kernel/debug/block/$D/sched/counters
	[ $SCHED = anticipatory ] && [ -f $ctr ] && cat $ctr > /tmp/ctr0
	# DIAG=1: the scheduler's state every 50 ms from the load's start to the program's end
	dpid=
	if [ "${DIAG:-0}" = 1 ] && [ $SCHED = anticipatory ] && [ -f $ctr ]; then
		while :; do
			echo "DIAG $tag $REP $(now_ms) $(grep -E '^(queued|in_flight_sync|newcomer_plugs|newcomer_reads|waits|read_dispatched|start_fifo_waits|newcomer_first_ms|newcomer_queued|newcomer_in_flight) ' $ctr | tr '\n' ' ') tags $(grep -h busy /sys/kernel/debug/block/$D/hctx0/sched_tags 2>/dev/null | tr -d ' \n')"
			sleep 0.05
		done > /tmp/diag.out 2>&1 &
		dpid=$!
	fi
	[ "$ld" = none ] || { bg load $J/startup-$ld.fio; sleep "$WARMUP"; }
	s0=$(hs seeks); q0=$(hs requests); x0=$(hs sectors)
	drive0
	i0=$(idle); c0=$(total)
	t0=$(now_ms)
	if [ "${TRACE:-0}" = 1 ] && [ -d $tr/events/block ]; then
		echo "TRACESTART $tag $REP $t0"
		(sleep 0.3; echo 0 > $tr/tracing_on) &
	fi
	guard $((CAPS + 2))
	timeout -s INT "$CAPS" replay-startup --time-scale "$TSCALE" --offset "$SUOFF" \
		$RAW /bench/startup/$name.blkparse > /tmp/s.out 2> /tmp/s.err
	rc=$?
	unguard
	t1=$(now_ms)
	i1=$(idle); c1=$(total)
	s1=$(hs seeks); q1=$(hs requests); x1=$(hs sectors)
	drive1 "$tag"
	asctr "$tag"
	[ -z "$dpid" ] || { kill $dpid; wait $dpid 2>/dev/null; cat /tmp/diag.out; }
	bg_stop
	if [ "${TRACE:-0}" = 1 ] && [ -d $tr/events/block ]; then
		echo 0 > $tr/tracing_on
		grep -v '^#' $tr/trace | sed "s/^/TRACE $tag $REP /"
		echo 0 > $tr/events/block/block_rq_insert/enable
	fi
	el=$((t1 - t0)) cens=0
	# stopped at the cap: no figures of its own, only the bound (a replayer
	# that failed before it is an error, reported below)
	grep -q '^STARTUP-REPLAY' /tmp/s.out || [ $el -lt $((CAPS * 1000 - 500)) ] || { cens=1; el=$((CAPS * 1000)); }
	echo "RES $DEPTH $tag $SCHED $REP $el $cens $(( (i1 - i0) * 100 / (c1 - c0 + 1) )) $((s1 - s0)) $((x1 - x0)) 0 $((q1 - q0)) $rc"
	grep -q '^STARTUP-REPLAY' /tmp/s.out &&
		echo "SREPLAY $DEPTH $tag $SCHED $REP $(sed -n 's/^STARTUP-REPLAY //p' /tmp/s.out)"
	for f in /tmp/bg.*; do
		[ -f "$f" ] || continue
		fio_line "$DEPTH $tag $SCHED $REP ${f#/tmp/bg.}" "$f"
		rm -f "$f"
	done
	[ $cens = 1 ] || [ $rc = 0 ] || echo "vm: $tag under $SCHED: replay-startup exit $rc: $(tail -n 2 /tmp/s.err | tr '\n' ' ')"
}
startup_suite() {
	for n in $STARTUPS; do
		for l in $LOADS; do startup "$n" "$l"; done
	done
}

# the schedulers in REP's order: rotated by one per repetition, so that
# each takes each place in turn and drift over the run falls on all alike
rotated() {
	set -- $SCHEDS
	k=$(( (REP - 1) % $# ))
	while [ $k -gt 0 ]; do
		a=$1
		shift
		set -- "$@" "$a"
		k=$((k - 1))
	done
	echo "$@"
}

# each disk in turn, its own hddsim and file system; one repetition is
# every scheduler through the whole suite
STARTUP_HERE=1
for disk in $DISKS; do
	PRESET=${disk%%:*} DEPTH=${disk#*:}
	echo "DISK $PRESET $DEPTH"
	# with FRESH=1 each run makes its own disk: this one only a file system
	ws=$WORKLOADS trees=$TREES
	[ "$FRESH" != 1 ] || WORKLOADS=fair-none
	setup_disk
	rc=$?
	WORKLOADS=$ws TREES=$trees
	[ $rc = 0 ] || { echo "vm: disk setup failed ($disk)"; STARTUP_HERE=0; continue; }
	REP=${REP0:-1}	# REP0: the first repetition's number (vmbench.sh's ISOLATE=1)
	while [ $REP -lt $((${REP0:-1} + REPS)) ]; do
		for SCHED in $(rotated); do
			use_sched || { echo "vm: no scheduler $SCHED"; continue; }
			echo "vm: $PRESET depth $DEPTH rep $REP $SCHED"
			suite
			[ "$STARTUP_HERE" = 1 ] && startup_suite
		done
		REP=$((REP + 1))
	done
	teardown_disk
	STARTUP_HERE=0
done

# the schedulers' own cost: null_blk, no delay, 4 KiB random reads; the
# schedulers take turns in each of COSTREPS rounds, so that drift in the
# host's speed falls on all of them
modprobe null_blk gb=4 submit_queues=2 hw_queue_depth=256 irqmode=0 || echo "vm: no null_blk"
COSTREPS=${COSTREPS:-1}
COST_ANTIC_EXPIRE=${COST_ANTIC_EXPIRE:-6}
echo "vm: cost runs of $COSTRUN s, $COSTREPS times, antic_expire $COST_ANTIC_EXPIRE ms"
REP=1
while [ $REP -le $COSTREPS ]; do
	for SCHED in $SCHEDS; do
		echo $SCHED > /sys/block/nullb0/queue/scheduler 2>/dev/null || continue
		# ours, and any variant of ours, with the same antic_expire
		[ -f /sys/block/nullb0/queue/iosched/antic_expire ] &&
			echo "$COST_ANTIC_EXPIRE" > /sys/block/nullb0/queue/iosched/antic_expire
		sched_tunables nullb0
		# reads-batch8: fio reaps 8 and submits 8 to an io_submit. On 6.1
		# and 7.x (6.12's __submit_bio plugged every bio) a request
		# submitted alone is dispatched from kblockd under any
		# scheduler, a context switch each (perf in a 7.3 guest:
		# kblockd_mod_delayed_work_on from blk_mq_submit_bio); aio plugs
		# a batch of more than 2 and the submitter dispatches it, so
		# this mix shows the scheduler's own cost there.
		for mix in reads reads+writer reads-batch8; do
			set -- --name=rr --filename=/dev/nullb0 --rw=randread --bs=4k --direct=1 --ioengine=libaio \
				--iodepth=32 --numjobs=4 --time_based --runtime=$COSTRUN --group_reporting=1
			[ $mix != reads-batch8 ] || set -- "$@" --iodepth_batch_submit=8 --iodepth_batch_complete_min=8
			[ $mix != reads+writer ] || set -- "$@" --name=sw --filename=/dev/nullb0 --rw=write --bs=1m \
				--direct=0 --offset=2g --size=1g --time_based --runtime=$COSTRUN --new_group
			i0=$(idle); c0=$(total)
			# fio's messages apart: they must not fall inside its JSON
			fio --output-format=json "$@" > /tmp/c.out 2>/tmp/c.err
			i1=$(idle); c1=$(total)
			echo "COST $SCHED $mix $(( (c1 - c0) - (i1 - i0) )) $((c1 - c0))"
			fio_line "0 cost-$mix $SCHED $REP measured" /tmp/c.out
		done
	done
	REP=$((REP + 1))
done
echo VMBENCH END
sync
poweroff -f
