#!/bin/sh
# Hold each disk preset in core/disk.c to its published figures
# (tests/presets/figures.tsv) by running tests/presets/*.fio through
# antic-sim: QD1 and QD32 reads, writes and fsyncs, each within its stated
# tolerance (a row marked todo would print "not modelled yet" and not
# count; none is). --markdown prints the table in docs/simulator.md.
cd "$(dirname "$0")/.." || exit 1
[ -x build/antic-sim ] || make -s build/antic-sim || exit 1
exec python3 tests/presets/check.py "$@"
