#!/bin/sh
# The head-to-head: boots each kernel with hddsim, runs bench/guest-bench.sh
# under each scheduler on each disk of DISKS (Morton's 2003 suite on each,
# the start-up rows on the first), REPS times with the schedulers rotated,
# then writes bench/results/vmbench-KVER.{log,txt,json,png,svg} (the last
# four by bench/report.py), with antic-sim's prediction beside each figure.
# Usage: bench/vmbench.sh [KVER...]; QUICK=1 for a short run of a subset
# (results vmbench-KVER-quick.*); DISKS= for the cost runs alone.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/bench/results
wdir=$top/build/vmbench${TAG:-}	# each TAG its own: runs of different TAGs may boot side by side
mkdir -p "$out" "$wdir"
QUICK=${QUICK:-0}
ALL="write-vs-read write-vs-tree read-vs-tree six-trees ten-streams read-vs-fsync compile-vs-write compile-alone random-vs-write"
# CAP bounds each measured run (a stopped run is projected from what it
# read, "~T", or reported as the bound ">T" where it cannot be); the
# compile jobs get CAPC: their think time is about 45 s, and fio first stats
# every file (an inode pass) before it reads them; a start-up gets CAPS.
# The full run was made to fit 90 minutes for two kernels on a 2-core
# machine with the tuning start-ups alone, so it is shrunk where the
# shape survives: the Morton workloads whose answer
# is one number each (six-trees, ten-streams and the compiles, whose think
# time alone is 45 s a run, are left to WORKLOADS=), kyber left to SCHEDS=
# (neither ratio the report judges needs it), a 10 s cap for Morton's runs
# and the start-ups alike (each workload shows its ordering well before; a
# longer run is drawn as stopped) and a 2 s warm-up. The start-ups
# (bench/startup/SETS: all of them by default, tuning set first) replay
# their think times as recorded (TSCALE=1: they were recorded on the
# instruction clock, 1 ns a guest instruction; TSCALE scales them). Each
# start-up costs a run per load, scheduler and repetition, up to CAPS
# each: the seven recorded, under five loads, four schedulers and three
# repetitions, are 420 runs, up to 105 minutes a kernel where python and
# git alone took 30 (STARTUPS="python git": the tuning set alone). Every
# run to its cap would take well over an hour a kernel, so a full run of
# several kernels boots
# them side by side (PARALLEL=1, one guest CPU each; the report's idle
# column shows whether a guest's CPU ran short) unless PARALLEL=0.
# DISKS, CAP, CAPC, CAPS, REPS, WORKLOADS, STARTUPS, LOADS, SCHEDS, WARM,
# TSCALE override the choices (WORKLOADS=all: the whole suite); TAG=-x
# names the results vmbench-KVER-x.*;
# AS_SET="name=value ..." writes anticipatory's sysfs tunables before each
# of its runs (an A/B of one rule, say AS_SET=newcomer_plug=0);
# DIAG=1 samples anticipatory's debugfs state every 50 ms from each start-up's
# load to its end
# (DIAG lines in the log); TRACE=1 the requests inserted (block_rq_insert,
# with the inserting task) from each start-up's sync to 0.3 s into the
# program (TRACE lines);
# WBTRACE=1 traces writeback, wbt, reclaim throttling and the block layer
# from each Morton load's start to the measured run's end, and samples the
# memory cgroup's dirty and writeback pages every 100 ms (WBT and SMP lines
# in the log): a diagnosis, not a benchmark: the tracing costs the guest's
# CPU, which decides some cells, so its figures are not comparable with a
# run without it.
# RANDOM_ROOTCG=1 runs random-vs-write's readers outside the memory cgroup.
# COSTREPS rounds of COSTRUN s of the null_blk cost runs (anticipatory's
# antic_expire there: COST_ANTIC_EXPIRE ms, default 6, where null_blk's own
# default is 0, so that the waiting path runs).
# The guest runs on qemu's instruction clock (tests/vm/boot.sh's
# VM_ICOUNT, default 0: 1 ns a guest instruction, idle time skipped; one
# vCPU, no virtio disk, a fixed RTC and no random seed from the host): the
# guest's time is its own, and every bound and cap above is in guest
# seconds. Two boots of one configuration reach each run in the same state
# (bench/guest-bench.sh's CLOCK fingerprint) until some run diverges from
# the inside, and all later runs differ with it; so repetitions stay
# needed, and a verdict needs a null A/B's margin (REPORT_ARGS below).
# qemu runs in record mode (tests/vm/boot.sh's VM_RR): its log of the
# boot, build/vmbenchTAG/KVER/replay.bin, is kept until the next boot of
# that TAG; bench/rr-events.py finds where two boots' logs part.
# There each measured run starts on a fresh disk and file system
# (FRESH=1), fio's random seed is SEED + the repetition (SEED default
# 3400: a repetition draws the same offsets in every boot), and a
# writer's load has put WB_MB MiB (default 64) on the disk before the
# measured job starts. REALTIME=1 runs on the host's clock as before
# (2 vCPUs, FRESH=0, fio's own seeds unless SEED is given).
# VARIANT_SET="SCHED:name=value ..." sets a tunable of the scheduler named
# (a variant from VM_EXTRA_KO, say) before each of its runs.
# ISOLATE=1 boots once for every measured run (below, one_isolated);
# REP_FIRST=N there boots repetitions N..REPS alone (a stopped run's rest).
# PLAYERSIZE: the ionice player's size (bench/jobs/ionice-player.fio, 32m).
# The host stamps each RES line with its wall time ("WALL ms" after it):
# the report gives the wall time a run costs. REPORT_ARGS go to
# bench/report.py: --null JSON (a null A/B's report: the verdicts' margin),
# --margin PCT, --ab A:B (a table of scheduler B against A).
# every recorded start-up, the tuning set first (bench/startup/SETS)
startups_all=$(awk '$1 == "tuning" || $1 == "validation" { $1 = ""; print }' "$top/bench/startup/SETS" | xargs)
[ -n "$startups_all" ] || { echo "vmbench: bench/startup/SETS names no start-up" >&2; exit 1; }
if [ "$QUICK" = 1 ]; then
	# its bound is under 10 minutes (a run with python too and 10 s caps
	# took 13.5 minutes on a machine shared with four other VMs)
	REPS=${REPS:-2} CAP=${CAP:-8} CAPC=60 CAPS=${CAPS:-8} COSTRUN=3 COSTREPS=${COSTREPS:-$([ "${ISOLATE:-0}" = 1 ] && echo 0 || echo 1)} HDDMEM=700
	DISKS=${DISKS-"st2000dm006:32 ide2003:1"} TREES=1
	WORKLOADS=${WORKLOADS:-"write-vs-read"}
	STARTUPS=${STARTUPS-"git"} LOADS=${LOADS:-"none 5r5w-seq"}
	SCHEDS=${SCHEDS:-"mq-deadline bfq anticipatory"}
	TAG=${TAG--quick}	# a quick run keeps the full results too
else
	REPS=${REPS:-3} CAP=${CAP:-10} CAPC=${CAPC:-90} CAPS=${CAPS:-10} COSTRUN=${COSTRUN:-5} HDDMEM=1700
	DISKS=${DISKS-"st2000dm006:32 ide2003:1"} TREES=6
	COSTREPS=${COSTREPS:-$([ "${ISOLATE:-0}" = 1 ] && echo 0 || echo 2)}
	WORKLOADS=${WORKLOADS:-"write-vs-read write-vs-tree read-vs-tree read-vs-fsync random-vs-write"}
	STARTUPS=${STARTUPS-$startups_all} LOADS=${LOADS:-"none 10r-seq 5r5w-seq 10r-rand 5r5w-rand"}
	SCHEDS=${SCHEDS:-"none mq-deadline bfq anticipatory"}
fi
WARM=${WARM:-2} TSCALE=${TSCALE:-1}
if [ "${REALTIME:-0}" = 1 ]; then
	unset VM_ICOUNT
	FRESH=${FRESH:-0} WB_MB=${WB_MB:-0} SEED=${SEED:-}
else
	export VM_ICOUNT=${VM_ICOUNT:-0} VM_NO_DISK=1
	FRESH=${FRESH:-1} WB_MB=${WB_MB:-64} SEED=${SEED-3400}
fi
[ "$WORKLOADS" != all ] || WORKLOADS=$ALL	# WORKLOADS=all: every Morton workload
[ -n "$DISKS" ] || TAG=${TAG:--cost}	# a cost-only run keeps the full results
if [ $# -eq 0 ]; then
	set -- $("$top/tests/vm/kernels.sh" 6.12 7)	# 6.1 is left to the VM tests
	[ $# -gt 0 ] || { echo "vmbench: no kernel headers; run 'sudo ./setup.sh'" >&2; exit 1; }
fi
flock "$top" make -s -C "$top" all >/dev/null	# runs of one tree side by side build once
# what the run will take at most: every run to its cap, plus what each
# costs around it (sync, dropping caches, the warm-up, fio's start) and each
# disk's set-up; measured runs of QUICK=1 on 6.12 finish well inside their caps
count() { set -- $1; echo $#; }
ns=$(count "$SCHEDS") nd=$(count "$DISKS") nw=$(count "$WORKLOADS") nl=$(count "$LOADS") na=$(count "$STARTUPS")
runs_m=$((nd * nw * ns * REPS)) runs_s=$((na * nl * ns * REPS))
[ "$nd" -gt 0 ] || runs_s=0
per_kernel=$((60 + nd * 90 + runs_m * (CAP + 6) + runs_s * (CAPS + WARM + 3) + COSTREPS * ns * 3 * (COSTRUN + 2)))
ISOLATE_JOBS=${ISOLATE_JOBS:-2}
PARALLEL=${PARALLEL:-$([ "$QUICK" != 1 ] && [ $# -gt 1 ] && echo 1 || echo 0)}
all=$((per_kernel * $#))
[ "$PARALLEL" = 1 ] && all=$per_kernel
# (ISOLATE=1 says its own: a boot a run, the count after REP_FIRST)
[ "${ISOLATE:-0}" = 1 ] ||
	echo "vmbench: $# kernel(s), each $runs_m Morton runs and $runs_s start-up runs:" \
		"at most $((per_kernel / 60)) min a kernel, $((all / 60)) min in all" \
		"($([ "$PARALLEL" = 1 ] && echo "side by side" || echo "one after the other"))" >&2
params=$wdir/params
cat > "$params" <<P
QUICK=$QUICK
REPS=$REPS
DISKS="$DISKS"
TREES=$TREES
CAP=$CAP
CAPC=$CAPC
CAPS=$CAPS
WARM=$WARM
TSCALE=$TSCALE
COSTRUN=$COSTRUN
COSTREPS=$COSTREPS
HDDMEM=$HDDMEM
MEMCG=256M
SCHEDS="$SCHEDS"
WORKLOADS="$WORKLOADS"
STARTUPS="$STARTUPS"
LOADS="$LOADS"
ANTIC_EXPIRE="${ANTIC_EXPIRE:-}"
AS_SET="${AS_SET:-}"
DIAG=${DIAG:-0}
WBTRACE=${WBTRACE:-0}
TRACE=${TRACE:-0}
COST_ANTIC_EXPIRE=${COST_ANTIC_EXPIRE:-6}
RANDOM_ROOTCG=${RANDOM_ROOTCG:-0}
FRESH=$FRESH
WB_MB=$WB_MB
SEED=$SEED
VARIANT_SET="${VARIANT_SET:-}"
PLAYERSIZE=${PLAYERSIZE:-32m}
P
export VM_PROGS="$top/build/replay-startup" VM_BENCH_FILES="$top/bench/jobs $top/bench/startup"
TIMEOUT=$((per_kernel * 2 + 600))	# twice the bound: a hung guest still ends
VMMEM=$((HDDMEM * 2 + 700))	# hddsim takes at most half the guest's RAM
cpus=2
[ "$PARALLEL" = 1 ] && cpus=1
[ -z "${VM_ICOUNT:-}" ] || cpus=1	# one TCG thread runs them all on the instruction clock
# stamp: each RES line followed by "WALL ms", the host's ms since the boot began
stamp_py=$wdir/stamp.py
cat > "$stamp_py" <<'PY'
import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    sys.stdout.write(line)
    if line.startswith(("RES ", "VMBENCH END")):
        sys.stdout.write("WALL %d\n" % ((time.monotonic() - t0) * 1000))
PY
stamp() { python3 -u "$stamp_py"; }
# which code the figures are of: the tree anticipatory.ko was built from
built_from() {
	echo "vm: anticipatory.ko built from $(git -C "$top" describe --always --dirty 2>/dev/null || echo "no git")"
}
# a finished log's last checks, then its report: vmbench-KVER-TAG.*
report_log() {	# KVER LOG
	! grep -q '^vm: disk setup failed' "$2" || { echo "vmbench: $1: hddsim or ext4 setup failed; see $2" >&2; return 1; }
	# shellcheck disable=SC2086 # REPORT_ARGS is several words
	python3 "$top/bench/report.py" ${REPORT_ARGS:-} "$2" "$out/vmbench-$1${TAG:-}"
}
one() {	# one kernel's run: log, then report
	kver=$1
	log=$out/vmbench-$kver${TAG:-}.log
	echo "vmbench: $kver (log: $log)" >&2
	built_from > "$log"
	if [ -t 2 ] && [ "$PARALLEL" != 1 ]; then
		GUEST=$top/bench/guest-bench.sh PARAMS=$params VM_MEM=$VMMEM VM_CPUS=$cpus VM_TIMEOUT=$TIMEOUT \
			"$top/tests/vm/boot.sh" "$kver" "$wdir" 2>&1 | stamp | tee -a "$log" |
			grep --line-buffered '^vm:' >&2 || true
	else
		GUEST=$top/bench/guest-bench.sh PARAMS=$params VM_MEM=$VMMEM VM_CPUS=$cpus VM_TIMEOUT=$TIMEOUT \
			"$top/tests/vm/boot.sh" "$kver" "$wdir" 2>&1 | stamp >> "$log" || true
	fi
	sed -i 's/\r$//' "$log"
	grep -q '^VMBENCH END' "$log" || { echo "vmbench: $kver: the guest did not finish; see $log" >&2; return 1; }
	report_log "$kver" "$log"
}
# ISOLATE=1: every measured run in a boot of its own (boot, the disk's
# set-up, that one run): a run then starts from the same state in every
# boot of it, whatever ran before it in the suite, so that a difference
# inside one run no longer carries into all later ones; a boot and a set-up
# a run is what it costs. ISOLATE_JOBS boots run side by side (default 2,
# one a host core on the instruction clock). The log is the boots' logs in
# the suite's order, each run's WALL from its boot's start.
iso_items() {	# one boot's cell a line: DISK WORKLOAD STARTUP LOAD ("-": none)
	first=1
	for d in $DISKS; do
		for w in $WORKLOADS; do
			# compile-alone, as the start-ups, on the first disk alone
			[ "$w" = none ] || { [ "$w" = compile-alone ] && [ $first = 0 ]; } || echo "$d $w - -"
		done
		if [ $first = 1 ]; then
			for p in $STARTUPS; do for l in $LOADS; do echo "$d - $p $l"; done; done
		fi
		first=0
	done
}
one_isolated() {
	kver=$1
	log=$out/vmbench-$kver${TAG:-}.log
	iw=$wdir/isolated-$kver
	rm -rf "$iw" && mkdir -p "$iw"
	n=0
	for rep in $(seq "${REP_FIRST:-1}" "$REPS"); do
		for s in $SCHEDS; do
			iso_items > "$iw/items"
			while read -r d w st l; do
				n=$((n + 1))
				mkdir -p "$iw/$n"
				# the cell's own values in place of the run's: a boot's
				# bytes (its initramfs) depend on its cell alone, so that
				# the same cell booted by two runs of other SCHEDS, REPS or
				# cells starts alike
				{ grep -Ev '^(DISKS|SCHEDS|REPS|REP0|COSTREPS|WORKLOADS|STARTUPS|LOADS)=' "$params"
				  echo "DISKS=\"$d\""
				  echo "SCHEDS=\"$s\""
				  echo "REPS=1"
				  echo "REP0=$rep"
				  echo "COSTREPS=0"
				  if [ "$w" = - ]; then echo "WORKLOADS=none"; else echo "WORKLOADS=\"$w\""; fi
				  if [ "$st" = - ]; then echo "STARTUPS="; else echo "STARTUPS=\"$st\""; fi
				  [ "$l" = - ] || echo "LOADS=\"$l\""
				} > "$iw/$n/params"
			done < "$iw/items"
		done
	done
	[ "$n" -gt 0 ] || { echo "vmbench: ISOLATE=1: no measured run in WORKLOADS, STARTUPS and DISKS" >&2; return 1; }
	# ISOLATE_DRY=1: the boots' params written (WDIR/isolated-KVER/N/params), none booted
	[ "${ISOLATE_DRY:-0}" != 1 ] || { echo "vmbench: $kver: $n boots' params in $iw" >&2; return 0; }
	flock "$top/kernel" make -s -C "$top/kernel" KVER="$kver" >/dev/null || return 1
	# the boots' own copies: a build in this tree during the run (another
	# run's) would otherwise change the modules under the later boots
	mkdir -p "$iw/ko"
	extra=
	for m in "$top/kernel/build/anticipatory-$kver.ko" "$top/kernel/build/hddsim-$kver.ko" ${VM_EXTRA_KO:-}; do
		cp "$m" "$iw/ko/" || return 1
	done
	for m in ${VM_EXTRA_KO:-}; do extra="$extra $iw/ko/$(basename "$m")"; done
	(cd "$iw/ko" && sha256sum ./*.ko) | sed 's/^/vm: module /' > "$iw/ko/sums"
	per_boot=$((60 + 90 + CAPC + CAPS + CAP + WARM + 20))
	echo "vmbench: $kver: $n boots of one run each, $ISOLATE_JOBS at a time (log: $log)" >&2
	{ built_from; cat "$iw/ko/sums"; } > "$log"
	t0=$(date +%s%N)
	export GUEST="$top/bench/guest-bench.sh" VM_MEM=$VMMEM VM_CPUS=$cpus VM_TIMEOUT=$((per_boot * 2 + 600)) \
		VM_KO="$iw/ko/anticipatory-$kver.ko" VM_HDDSIM_KO="$iw/ko/hddsim-$kver.ko" VM_EXTRA_KO="${extra# }" \
		ISO_BOOT="$top/tests/vm/boot.sh" ISO_KVER=$kver ISO_DIR=$iw ISO_STAMP=$stamp_py
	seq 1 "$n" | xargs -P "$ISOLATE_JOBS" -I{} sh -c '
		PARAMS=$ISO_DIR/{}/params "$ISO_BOOT" "$ISO_KVER" "$ISO_DIR/{}" 2>&1 </dev/null |
			python3 -u "$ISO_STAMP" > "$ISO_DIR/{}/raw.log"
		# what the next boot builds again (about 130 MB a boot); its log and
		# qemu'"'"'s record (replay.bin, for bench/rr-events.py) stay
		rm -rf "$ISO_DIR/{}/$ISO_KVER/initramfs" "$ISO_DIR/{}/$ISO_KVER/initrd" \
			"$ISO_DIR/{}/$ISO_KVER/disk.img"
	' || true
	bad=
	for i in $(seq 1 "$n"); do
		# a boot's WALL: the host ms from its start to its run's result
		sed 's/\r$//' "$iw/$i/raw.log" >> "$log"
		# a boot is its cell's run: one that ended without a result is a hole
		{ grep -q '^VMBENCH END' "$iw/$i/raw.log" && grep -q '^RES ' "$iw/$i/raw.log"; } || bad="$bad $i"
	done
	echo "VMBENCH END isolated: $n boots" >> "$log"
	echo "WALL $(( ($(date +%s%N) - t0) / 1000000 ))" >> "$log"
	[ -z "$bad" ] || { echo "vmbench: $kver: boots$bad did not finish or gave no result; see $iw/N/raw.log" >&2; return 1; }
	report_log "$kver" "$log"
}
rc=0
if [ "${ISOLATE:-0}" = 1 ]; then
	# REP_FIRST: a repetition of this run's, 1..REPS
	case ${REP_FIRST:-1} in
	*[!0-9]* | 0*) echo "vmbench: REP_FIRST=$REP_FIRST: a repetition from 1 to REPS ($REPS)" >&2; exit 2 ;;
	esac
	[ "${REP_FIRST:-1}" -le "$REPS" ] || { echo "vmbench: REP_FIRST=$REP_FIRST is past REPS=$REPS" >&2; exit 2; }
	# its boots measure runs alone: the cost runs are a run of their own
	[ "$COSTREPS" = 0 ] || { echo "vmbench: ISOLATE=1 makes no cost runs; COSTREPS=$COSTREPS asks for them: run them without ISOLATE" >&2; exit 2; }
	for kver in "$@"; do one_isolated "$kver" || rc=1; done
	exit $rc
fi
if [ "$PARALLEL" = 1 ]; then
	# modules first, one kernel at a time: the builds share kernel/
	for kver in "$@"; do flock "$top/kernel" make -s -C "$top/kernel" KVER="$kver" >/dev/null || exit 1; done
	pids=
	for kver in "$@"; do one "$kver" & pids="$pids $!"; done
	for p in $pids; do wait $p || rc=1; done
else
	for kver in "$@"; do one "$kver" || rc=1; done
fi
exit $rc
