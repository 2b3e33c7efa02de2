#!/bin/sh
# The head-to-head: boots each kernel with hddsim (a 2003-class 7200 rpm
# disk, as Morton's), runs bench/guest-bench.sh under none, mq-deadline,
# kyber, bfq and anticipatory, then writes bench/results/vmbench-KVER.
# {log,txt,json,png,svg} (the last four by bench/report.py), with
# antic-sim's prediction beside each figure.
# Usage: bench/vmbench.sh [KVER...]; QUICK=1 for one repetition of a
# subset (11 minutes on 6.12 here; results vmbench-KVER-quick.*); DEPTHS=
# for the cost runs alone.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/bench/results
mkdir -p "$out" "$top/build/vmbench"
QUICK=${QUICK:-0}
ALL="write-vs-read write-vs-tree read-vs-tree six-trees ten-streams read-vs-fsync compile-vs-write compile-alone random-vs-write"
# CAP bounds each measured run (a stopped run is projected from what it
# read, "~T", or reported as the bound ">T" where it cannot be); the
# compile jobs get CAPC: their think time is about 45 s, and fio first stats
# every file (an inode pass) before it reads them.
# Full: about an hour per kernel here; kernels run one after another
# unless PARALLEL=1 (one VM per kernel at once, each with VM_CPUS=1).
# CAP, CAPC, DEPTHS, REPS, WORKLOADS, SCHEDS override the full run's
# choices; TAG=-x names the results vmbench-KVER-x.*; RANDOM_ROOTCG=1
# runs random-vs-write's readers outside the memory cgroup.
# COSTREPS rounds of the null_blk cost runs; DEPTHS= (empty) runs only them.
if [ "$QUICK" = 1 ]; then
	REPS=1 DEPTHS=${DEPTHS-1} TREES=1 CAP=${CAP:-20} CAPC=60 COSTRUN=5 COSTREPS=${COSTREPS:-1} HDDMEM=700 TIMEOUT=1500
	WORKLOADS=${WORKLOADS:-"write-vs-read write-vs-tree read-vs-fsync random-vs-write"}
	TAG=${TAG--quick}	# a quick run keeps the full results too
else
	REPS=${REPS:-1} DEPTHS=${DEPTHS-"1 32"} TREES=6 CAP=${CAP:-20} CAPC=${CAPC:-90} COSTRUN=10 HDDMEM=1700
	COSTREPS=${COSTREPS:-3}
	TIMEOUT=$((REPS * 7200))
	WORKLOADS=${WORKLOADS:-$ALL}
fi
SCHEDS=${SCHEDS:-"none mq-deadline kyber bfq anticipatory"}
[ -n "$DEPTHS" ] || TAG=${TAG:--cost}	# a cost-only run keeps the full results
if [ $# -eq 0 ]; then
	set -- $("$top/tests/vm/kernels.sh")
	[ $# -gt 0 ] || { echo "vmbench: no kernel headers; run 'sudo ./setup.sh'" >&2; exit 1; }
fi
make -s -C "$top" all >/dev/null
params=$top/build/vmbench/params
cat > "$params" <<P
QUICK=$QUICK
REPS=$REPS
DEPTHS="$DEPTHS"
TREES=$TREES
CAP=$CAP
CAPC=$CAPC
COSTRUN=$COSTRUN
COSTREPS=$COSTREPS
HDDMEM=$HDDMEM
MEMCG=256M
SCHEDS="$SCHEDS"
WORKLOADS="$WORKLOADS"
ANTIC_EXPIRE="${ANTIC_EXPIRE:-}"
RANDOM_ROOTCG=${RANDOM_ROOTCG:-0}
P
PARALLEL=${PARALLEL:-0}
VMMEM=$((HDDMEM * 2 + 700))	# hddsim takes at most half the guest's RAM
cpus=2
[ "$PARALLEL" = 1 ] && cpus=1
one() {	# one kernel's run: log, then report
	kver=$1
	log=$out/vmbench-$kver${TAG:-}.log
	echo "vmbench: $kver (log: $log)" >&2
	if [ -t 2 ] && [ "$PARALLEL" != 1 ]; then
		GUEST=$top/bench/guest-bench.sh PARAMS=$params VM_MEM=$VMMEM VM_CPUS=$cpus VM_TIMEOUT=$TIMEOUT \
			"$top/tests/vm/boot.sh" "$kver" "$top/build/vmbench" 2>&1 | tee "$log" |
			grep --line-buffered '^vm:' >&2 || true
	else
		GUEST=$top/bench/guest-bench.sh PARAMS=$params VM_MEM=$VMMEM VM_CPUS=$cpus VM_TIMEOUT=$TIMEOUT \
			"$top/tests/vm/boot.sh" "$kver" "$top/build/vmbench" > "$log" 2>&1 || true
	fi
	sed -i 's/\r$//' "$log"
	grep -q '^VMBENCH END' "$log" || { echo "vmbench: $kver: the guest did not finish; see $log" >&2; return 1; }
	! grep -q '^vm: disk setup failed' "$log" || { echo "vmbench: $kver: hddsim or ext4 setup failed; see $log" >&2; return 1; }
	python3 "$top/bench/report.py" "$log" "$out/vmbench-$kver${TAG:-}"
}
rc=0
if [ "$PARALLEL" = 1 ]; then
	# modules first, one kernel at a time: the builds share kernel/
	for kver in "$@"; do make -s -C "$top/kernel" KVER="$kver" >/dev/null || exit 1; done
	pids=
	for kver in "$@"; do one "$kver" & pids="$pids $!"; done
	for p in $pids; do wait $p || rc=1; done
else
	for kver in "$@"; do one "$kver" || rc=1; done
fi
exit $rc
