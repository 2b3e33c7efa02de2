#!/bin/sh
# Stands in for antic-sim in tests/bench-report.sh: the same fixed
# predictions (sim.json) for every example, so the test does not move
# when the simulator's model does.
cat "$(dirname "$0")/sim.json"
