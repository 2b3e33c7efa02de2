#!/bin/sh
# bench/vmbench.sh ISOLATE=1 without booting (ISOLATE_DRY=1): a boot for
# every run (repetition x scheduler x cell), and a boot's params are its
# cell's values alone, so that two runs of other SCHEDS, REPS or cells
# give the same cell the same bytes (the initramfs the guest boots).
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
k=isolate-check
a=build/vmbench-isocheck-a/isolated-$k b=build/vmbench-isocheck-b/isolated-$k
TAG=-isocheck-a ISOLATE=1 ISOLATE_DRY=1 DISKS=ide2003:1 WORKLOADS=write-vs-read STARTUPS=vim \
	LOADS="none 5r5w-seq" SCHEDS="mq-deadline anticipatory" REPS=2 COSTREPS=0 \
	bench/vmbench.sh $k 2> build/isocheck-a.err
TAG=-isocheck-b ISOLATE=1 ISOLATE_DRY=1 DISKS=ide2003:1 WORKLOADS=write-vs-read STARTUPS=vim \
	LOADS="5r5w-seq" SCHEDS="anticipatory" REPS=1 COSTREPS=0 \
	bench/vmbench.sh $k 2> build/isocheck-b.err
na=$(ls -d "$a"/*/ 2>/dev/null | wc -l) nb=$(ls -d "$b"/*/ 2>/dev/null | wc -l)
# 2 repetitions x 2 schedulers x (write-vs-read, vim alone, vim beside 5r5w-seq)
if [ "$na" = 12 ] && [ "$nb" = 2 ] &&
	[ "$(cat "$a"/*/params | grep -c '^REPS=1$')" = 12 ] &&
	[ "$(grep -l '^SCHEDS="anticipatory"$' "$a"/*/params | xargs grep -l '^REP0=2$' | wc -l)" = 3 ]; then
	ok "a boot for each repetition, scheduler and cell, each one run"
else
	cat build/isocheck-a.err; ko "a boot for each repetition, scheduler and cell, each one run"
fi
# b's two boots (anticipatory, repetition 1: write-vs-read; vim beside
# 5r5w-seq) are byte for byte two of a's
same=0
for f in "$b"/*/params; do
	for g in "$a"/*/params; do cmp -s "$f" "$g" && { same=$((same + 1)); break; }; done
done
if [ "$same" = 2 ]; then
	ok "a cell's params are the same bytes whatever else the run boots"
else
	ko "a cell's params are the same bytes whatever else the run boots ($same of 2)"
fi
# REP_FIRST: the rest of a stopped run, its repetitions alone, each boot
# the same bytes as the full run's
f=build/vmbench-isocheck-f/isolated-$k
TAG=-isocheck-f ISOLATE=1 ISOLATE_DRY=1 DISKS=ide2003:1 WORKLOADS=write-vs-read STARTUPS=vim \
	LOADS="none 5r5w-seq" SCHEDS="mq-deadline anticipatory" REPS=2 REP_FIRST=2 COSTREPS=0 \
	bench/vmbench.sh $k 2> /dev/null
same=0
for g in "$f"/*/params; do
	grep -q '^REP0=2$' "$g" || continue
	for h in "$a"/*/params; do cmp -s "$g" "$h" && { same=$((same + 1)); break; }; done
done
rc_rf=0
for rf in 0 3 x; do
	TAG=-isocheck-g ISOLATE=1 ISOLATE_DRY=1 DISKS=ide2003:1 WORKLOADS=write-vs-read STARTUPS= \
		REPS=2 REP_FIRST=$rf bench/vmbench.sh $k 2> /dev/null && rc_rf=1
done
if [ "$(ls -d "$f"/*/ 2>/dev/null | wc -l)" = 6 ] && [ "$same" = 6 ] && [ "$rc_rf" = 0 ]; then
	ok "REP_FIRST=2 boots the second repetition alone, as the full run boots it; 0, 3 of 2, x refused"
else
	ko "REP_FIRST=2 boots the second repetition alone, as the full run boots it ($same of 6)"
fi
# compile-alone, as a shared run does, on the first disk alone; asked-for
# cost runs, or no run at all, are refused rather than skipped in silence
TAG=-isocheck-c ISOLATE=1 ISOLATE_DRY=1 DISKS="st2000dm006:32 ide2003:1" WORKLOADS=compile-alone \
	STARTUPS= SCHEDS=none REPS=1 bench/vmbench.sh $k 2> /dev/null
TAG=-isocheck-d ISOLATE=1 ISOLATE_DRY=1 DISKS=ide2003:1 WORKLOADS=write-vs-read STARTUPS= \
	COSTREPS=1 bench/vmbench.sh $k 2> /dev/null
rc_cost=$?
TAG=-isocheck-e ISOLATE=1 ISOLATE_DRY=1 DISKS=ide2003:1 WORKLOADS=none STARTUPS= \
	bench/vmbench.sh $k 2> /dev/null
rc_none=$?
c=build/vmbench-isocheck-c/isolated-$k
if [ "$(ls -d "$c"/*/ 2>/dev/null | wc -l)" = 1 ] && grep -q '^DISKS="st2000dm006:32"$' "$c"/1/params &&
	[ "$rc_cost" != 0 ] && [ "$rc_none" != 0 ]; then
	ok "compile-alone on the first disk alone; cost runs or no runs refused"
else
	ko "compile-alone on the first disk alone; cost runs or no runs refused (cost rc $rc_cost, none rc $rc_none)"
fi
rm -rf build/vmbench-isocheck-a build/vmbench-isocheck-b build/vmbench-isocheck-c build/vmbench-isocheck-d \
	build/vmbench-isocheck-e build/vmbench-isocheck-f build/vmbench-isocheck-g build/isocheck-a.err build/isocheck-b.err
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
