#!/bin/sh
# Hold antic-sim to the kernel's figures in the head-to-head
# (tests/sim-vs-kernel/figures.tsv, measured by bench/vmbench.sh): each
# cell's workload through antic-sim's model of the kernel's scheduler,
# within the row's tolerance; rows the model misses today are marked todo
# there and print "not modelled yet" with their error.
cd "$(dirname "$0")/.." || exit 1
[ -x build/antic-sim ] || make -s build/antic-sim || exit 1
exec python3 tests/sim-vs-kernel/check.py "$@"
