#!/bin/sh
# Every shipped example is a job file fio itself accepts (fio --parse-only):
# antic-sim's own settings ride in "; antic-sim: NAME=VALUE" comments.
# Usage: tests/fio-parse-examples.sh [FILE...]
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
if ! command -v fio >/dev/null 2>&1; then
	echo "FAIL fio is not installed (setup.sh installs it)"
	echo "0 passed, 1 failed"; exit 1
fi
[ $# -eq 0 ] && set -- examples/*.fio
for f in "$@"; do
	if out=$(fio --parse-only "$f" 2>&1) && [ -z "$out" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL $f: fio --parse-only: $(printf '%s' "$out" | head -n 3 | tr '\n' ' ')"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
