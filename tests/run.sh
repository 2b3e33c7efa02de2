#!/bin/sh
# make check: the userland tests plain, under ASan+UBSan and (with the
# simulator's main paths) under valgrind, checkpatch
# over kernel/ and core/, the manual pages, the Debian packages (with a
# DKMS build of the module), and the kernel module in a VM for each LTS
# kernel. Prints one summary line last.
set -u
cd "$(dirname "$0")/.."
total_p=0 total_f=0
# every failure's line, repeated last: a log cut to its tail still names them
fails=$(mktemp)
trap 'rm -f "$fails"' EXIT
failed() { printf '%s\n' "$*" | cut -c 1-300 >> "$fails"; }

# add the "N passed, N failed" of a command's output to the totals
count() {
	log=$(mktemp)
	{ "$@" 2>&1; echo "rc=$?" > "$log.rc"; } | tee "$log"
	rc=$(sed 's/rc=//' "$log.rc"); out=$(cat "$log"); rm -f "$log" "$log.rc"
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
	if [ -z "$line" ]; then
		echo "$*: no summary (exit $rc)"; total_f=$((total_f + 1))
		failed "$*: no summary (exit $rc)"; return
	fi
	re='^(VMTEST )?FAIL|^vm .*: the guest did not finish'
	printf '%s\n' "$out" | grep -E "$re" | while IFS= read -r l; do failed "$1: $l"; done
	p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	[ "$f" -gt 0 ] && ! printf '%s\n' "$out" | grep -qE "$re" &&
		failed "$1: $f failed (exit $rc), no FAIL line: its output is above"
	total_p=$((total_p + p)); total_f=$((total_f + f))
}

# a command that passes or fails as one test
one() {
	name=$1; shift
	if out=$("$@" 2>&1); then
		echo "PASS $name"; total_p=$((total_p + 1))
	else
		printf '%s\n' "$out" | tail -n 20
		echo "FAIL $name"; total_f=$((total_f + 1)); failed "FAIL $name"
	fi
}

for bin in build/tests build/tests-san; do
	echo "== $bin"
	count "$bin"
done
echo "== golden outputs (byte-identical JSON)"
count tests/golden.sh
echo "== job files issue what fio issues (fio's null engine as the oracle)"
count tests/fio-conformance.py
echo "== the shipped examples are job files fio accepts (fio --parse-only)"
count tests/fio-parse-examples.sh
echo "== Debian's fio-examples: each runs in antic-sim or is refused for a listed reason"
count tests/fio-examples.py
echo "== antic-sim's command line: errors, empty replays, max_time, names, counters"
count tests/cli.sh
echo "== fio's JSON and logs, blktrace's files: read by fio's and blktrace's tools"
count tests/sim-outputs.sh
echo "== disk presets against their published figures"
count tests/presets.sh
echo "== antic-sim against the kernel's figures in the head-to-head"
count tests/sim-vs-kernel.sh
echo "== bench/replay-startup keeps each process's chain (against a file)"
count tests/replay-startup.sh
echo "== bench/report.py on a guest log made by hand"
count tests/bench-report.sh
echo "== bench/sim-targets.sh runs to its table of targets (ide2003, depth 32)"
one sim-targets sh -c 'out=$(DISKS=ide2003 DEPTHS=32 bench/sim-targets.sh build/sim-targets-check) &&
	printf "%s\n" "$out" | grep -Eq "^[0-9]+ met, [0-9]+ missed$"'
echo "== bench/vmbench.sh ISOLATE=1's boots, without booting"
count tests/vmbench-isolate.sh
echo "== bench/rr-events.py on qemu record logs made by hand"
count bench/rr-events-test.sh
echo "== fuzz corpora and kept crashes (ASan+UBSan)"
for t in jobfile settings trace cmdline; do
	one "corpus-$t" build/corpus_$t tests/fuzz/corpus-$t
done
echo "== valgrind"
count tests/valgrind.sh
echo "== manual pages (man -l, and the names they must hold)"
count tests/man.sh
echo "== Debian packages and a DKMS build of them"
count tests/deb.sh
echo "== checkpatch"
one checkpatch kernel/checkpatch.sh
if [ "${ANTIC_SKIP_VM:-}" = 1 ]; then
	# only for quick local runs; CI never sets it, and it counts as a failure
	echo "FAIL vm: skipped (ANTIC_SKIP_VM=1)"; total_f=$((total_f + 1))
	failed "FAIL vm: skipped (ANTIC_SKIP_VM=1)"
else
	echo "== vm"
	count tests/vm/run.sh
fi
if [ -s "$fails" ]; then
	echo "== what failed"
	cat "$fails"
fi
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
