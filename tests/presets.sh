#!/bin/sh
# Hold each disk preset in core/disk.c to its published figures
# (tests/presets/figures.tsv) by running tests/presets/*.fio through
# antic-sim. QD32, write and fsync figures print as "not modelled yet" and
# are not counted: the model has no write-back cache yet and its NCQ is
# being reworked. --markdown prints the README's table.
cd "$(dirname "$0")/.." || exit 1
[ -x build/antic-sim ] || make -s build/antic-sim || exit 1
exec python3 tests/presets/check.py "$@"
