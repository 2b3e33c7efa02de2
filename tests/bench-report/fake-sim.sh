#!/bin/sh
# Stands in for antic-sim in tests/bench-report.sh: the same fixed
# predictions (sim.json) for every job file, and sim-replay.json for every
# replay, so the test does not move when the simulator's model does; the
# scheduler table as core has it.
# FAKE_SIM_ARGS: a file each call's arguments are added to, after the job
# files' runtime variables
[ -z "$FAKE_SIM_ARGS" ] || echo "RANDRT=${RANDRT:-} FAIRRT=${FAIRRT:-} WARM=${WARM:-} $*" >> "$FAKE_SIM_ARGS"
if [ "$1" = --list-schedulers ]; then
	printf 'noop none\ndeadline mq-deadline\nanticipatory anticipatory as\n'
	exit 0
fi
if [ "$1" = replay ]; then
	cat "$(dirname "$0")/sim-replay.json"
	exit 0
fi
cat "$(dirname "$0")/sim.json"
