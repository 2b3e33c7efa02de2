#!/bin/sh
# Runs the test binary plain and under ASan+UBSan; prints one summary line.
set -u
cd "$(dirname "$0")/.."
total_p=0 total_f=0
for bin in build/tests build/tests-san; do
	echo "== $bin"
	out=$("$bin" 2>&1); rc=$?
	printf '%s\n' "$out"
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
	if [ -z "$line" ]; then
		echo "$bin: no summary (exit $rc)"; total_f=$((total_f + 1)); continue
	fi
	p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	total_p=$((total_p + p)); total_f=$((total_f + f))
done
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
