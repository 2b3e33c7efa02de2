#!/bin/sh
# Checks bench/rr-events.py on logs written here in qemu 7.2's record
# format: its counts by kind, that two logs of one execution compare the
# same while one interrupt an instruction later is found as the first
# difference, and that a cut or unknown event is an error naming the
# offset. RR_EVENTS names the script to check (default bench/rr-events.py).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
rr=${RR_EVENTS:-$top/bench/rr-events.py}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0 npass=0 nfail=0
# logs of a short execution: a and b alike, "late" takes its interrupt
# one instruction later, "cut" ends inside a clock value, "bad" has an
# event id past the last, "short" stops before the shutdown
python3 - "$t" <<'P' || exit 1
import struct, sys
d = sys.argv[1]
# qemu 7.2's ids: instruction 0, interrupt 1, exception 2, async 3-9,
# shutdown 10-21, char write 22, clock 28-29, checkpoint 30-38, end 39
def log(late=False, cut=False, bad=False, short=False):
    b = struct.pack(">IQ", 0xE0200C, 0)
    b += bytes([28]) + struct.pack(">Q", 1234567)          # host clock
    b += bytes([37, 38])                                    # checkpoints init, reset
    b += bytes([0]) + struct.pack(">I", 1000 + late)        # 1000 instructions
    b += bytes([1])                                         # interrupt
    b += bytes([0]) + struct.pack(">I", 500 - late) + bytes([2])  # exception at 1500
    b += bytes([22]) + struct.pack(">II", 1, 0)             # char write
    b += bytes([3]) + struct.pack(">Q", 1500)               # bottom half
    b += bytes([30, 29]) + struct.pack(">Q", 99 + late)     # warp start, its virtual_rt read
    if bad:
        b += bytes([40])
    if not short:
        b += bytes([10 + 6, 39])                            # guest shutdown, end
    if cut:
        b = b[:13 + 4]
    return b
for name, kw in (("a", {}), ("b", {}), ("late", {"late": True}),
                 ("cut", {"cut": True}), ("bad", {"bad": True}), ("short", {"short": True})):
    open("%s/%s.rr" % (d, name), "wb").write(log(**kw))
P
check() {	# check WHAT: the last command's outcome was as WHAT says
	if [ "$ok" = 1 ]; then echo "ok   $1"; npass=$((npass + 1)); else echo "FAIL $1"; fail=1; nfail=$((nfail + 1)); fi
}
python3 "$rr" "$t/a.rr" > "$t/out" 2>&1
ok=0
grep -q '1500 guest instructions' "$t/out" &&
	grep -Eq 'interrupt +1$' "$t/out" && grep -Eq 'exception +1$' "$t/out" &&
	grep -Eq 'clock_host +1$' "$t/out" && grep -Eq 'clock_virtual_rt +1$' "$t/out" &&
	grep -Eq 'async_bh +1$' "$t/out" && grep -Eq 'char_write +1$' "$t/out" &&
	grep -Eq 'checkpoint_clock_warp_start +1$' "$t/out" && grep -Eq 'shutdown_6 +1$' "$t/out" &&
	grep -Eq 'end +1$' "$t/out" && ok=1
check "counts each kind of event"
python3 "$rr" "$t/a.rr" "$t/b.rr" > "$t/out" 2>&1
rc=$?
ok=0; [ $rc = 0 ] && grep -q 'the same 11 events' "$t/out" && ok=1
check "two logs of one execution are the same (clock values apart)"
python3 "$rr" "$t/a.rr" "$t/late.rr" > "$t/out" 2>&1
rc=$?
ok=0
[ $rc = 1 ] && grep -q 'first difference at event 3' "$t/out" &&
	grep -q 'a.rr: icount 1000 interrupt' "$t/out" && grep -q 'late.rr: icount 1001 interrupt' "$t/out" && ok=1
check "an interrupt one instruction later is the first difference"
python3 "$rr" "$t/a.rr" "$t/short.rr" > "$t/out" 2>&1
rc=$?
ok=0; [ $rc = 1 ] && grep -q 'the same 9 events, then only .*a.rr goes on: icount 1500 shutdown_6' "$t/out" && ok=1
check "a log that stops early differs from the whole one"
python3 "$rr" "$t/cut.rr" > "$t/out" 2>&1
rc=$?
ok=0; [ $rc = 1 ] && grep -q 'cut.rr: offset 13: log ends inside a clock value' "$t/out" && ok=1
check "a log cut inside an event is an error naming the offset"
python3 "$rr" "$t/bad.rr" > "$t/out" 2>&1
rc=$?
ok=0; [ $rc = 1 ] && grep -q 'bad.rr: offset 63: unknown event 40' "$t/out" && ok=1
check "an unknown event is an error naming the offset"
echo "$npass passed, $nfail failed"
exit $fail
