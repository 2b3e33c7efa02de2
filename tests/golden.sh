#!/bin/sh
# The simulator's behaviour, pinned: every example job (depth 1, depth 32
# and on an SSD) and every fixture trace (open and closed loop) must give
# byte-identical JSON to tests/golden/. A refactor must not change a byte;
# a change that means to alter behaviour runs `tests/golden.sh --update`
# and the commit shows the new figures beside the code that moved them.
# Usage: tests/golden.sh [--update] [BINARY]
set -u
cd "$(dirname "$0")/.."
update=0
[ "${1:-}" = --update ] && { update=1; shift; }
bin=${1:-build/antic-sim}
dir=tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# one case: NAME, then the antic-sim arguments
case1() {
	name=$1; shift
	sub=; [ "$1" = replay ] && { sub=replay; shift; }
	# exit 3: stopped at max_time, its JSON marked timed_out (read-vs-tree's deadline run)
	"$bin" $sub --quiet --output-format json "$@" > "$tmp/$name.json" 2> "$tmp/$name.err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
		echo "FAIL $name: antic-sim exited non-zero: $(head -c 300 "$tmp/$name.err")"
		fail=$((fail + 1)); return
	fi
	if [ "$update" = 1 ]; then
		cp "$tmp/$name.json" "$dir/$name.json"; pass=$((pass + 1)); return
	fi
	if [ ! -f "$dir/$name.json" ]; then
		echo "FAIL $name: no $dir/$name.json (run tests/golden.sh --update)"
		fail=$((fail + 1))
	elif cmp -s "$dir/$name.json" "$tmp/$name.json"; then
		pass=$((pass + 1))
	else
		echo "FAIL $name: output differs from $dir/$name.json:"
		diff "$dir/$name.json" "$tmp/$name.json" | head -n 8
		fail=$((fail + 1))
	fi
}

# the cases named by disk pin sata7200 (the default until st2000dm006 at
# depth 32 took its place), at depth 1 and 32 and as an SSD; the -default
# ones whatever antic-sim's default disk is
for f in examples/*.fio; do
	b=$(basename "$f" .fio)
	case1 "$b" --set disk=sata7200 "$f"
	case1 "$b-qd32" --set disk=sata7200 --set queue_depth=32 "$f"
	case1 "$b-ssd" --set disk=sata7200 --set type=ssd "$f"
	case1 "$b-default" "$f"
done
for t in tests/traces/*.blktrace.0; do
	b=$(basename "$t" .blktrace.0)
	case1 "$b-open" replay --replay open --set disk=sata7200 "$t"
	case1 "$b-closed" replay --replay closed --set disk=sata7200 "$t"
	case1 "$b-closed-qd32" replay --replay closed --set disk=sata7200 --set queue_depth=32 "$t"
	case1 "$b-closed-default" replay --replay closed "$t"
done
echo "golden: $pass cases the same as $dir/"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
