#!/bin/sh
# The simulator's main paths under valgrind's memcheck: the unit tests,
# a job file, a trace replay (closed and open loop), fio's JSON, logs and
# blktrace's files, and a convert. Any error or leak fails it. Prints
# "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)"; echo "0 passed, 1 failed"; exit 1; }
p=0 f=0
vg() {
	name=$1
	shift
	if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$@" > build/valgrind.out 2>&1; then
		echo "PASS valgrind $name"; p=$((p + 1))
	else
		tail -n 30 build/valgrind.out; echo "FAIL valgrind $name"; f=$((f + 1))
	fi
}
vg tests build/tests
vg jobfile build/antic-sim --quiet examples/read-vs-fsync.fio
vg replay-closed build/antic-sim replay --quiet tests/traces/hddsim0-writeread
vg replay-open build/antic-sim replay --quiet --replay open --output-format json tests/traces/vda-compile
vg outputs build/antic-sim --quiet --scheduler noop,anticipatory --output-format json+ \
	--write-blktrace build tests/fio-json/logs.fio
vg convert build/antic-sim convert --quiet --target /dev/sdx --output build/valgrind.iolog tests/traces/vda-untar
echo "$p passed, $f failed"
[ $f -eq 0 ]
