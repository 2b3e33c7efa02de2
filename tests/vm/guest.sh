#!/bin/busybox sh
# /init of the test VM: loads anticipatory.ko and checks it on a virtio
# disk and on null_blk. Prints "VMTEST PASS|FAIL name", then the kernel
# log between DMESG BEGIN/END, then VMTEST END, and powers off.
. /lib/guest-init.sh
echo 0 > /proc/sys/kernel/printk_ratelimit 2>/dev/null
echo 60 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null

run() {
	name=$1
	shift
	# ONLY (from /bench/params): the names of the tests to run, the rest skipped
	case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	("$@") > /tmp/out 2>&1 &
	pid=$!
	(sleep $((300 + ${STRESS_S:-0})); kill $pid 2>/dev/null) &
	dog=$!
	wait $pid
	rc=$?
	kill $dog 2>/dev/null
	if [ $rc = 0 ]; then
		# a test may say what it counted: a last "detail: ..." line
		detail=$(sed -n 's/^detail: //p' /tmp/out | tail -n 1)
		echo "VMTEST PASS $name${detail:+ ($detail)}"
	else
		echo "VMTEST FAIL $name: $(tail -n 5 /tmp/out | tr '\n' '|')"
	fi
}

D=vda
Q=/sys/block/$D/queue
T=$Q/iosched
TUNABLES="antic_expire read_expire write_expire read_batch_expire write_batch_expire share_window newcomer_expire newcomer_plug start_read_expire prio_aging_expire"

t_load() {
	modprobe anticipatory || return 1
	grep -qw anticipatory $Q/scheduler
}

t_select() {
	echo anticipatory > $Q/scheduler || return 1
	grep -q '\[anticipatory\]' $Q/scheduler || return 1
	echo mq-deadline > $Q/scheduler && echo as > $Q/scheduler || return 1
	grep -q '\[anticipatory\]' $Q/scheduler
}

t_defaults() {
	want=6 sre=1000
	[ "$(cat $Q/rotational)" = 1 ] || want=0 sre=0
	[ "$(cat $T/antic_expire)" = $want ] || { echo "antic_expire $(cat $T/antic_expire), want $want"; return 1; }
	[ "$(cat $T/read_expire)" = 125 ] && [ "$(cat $T/write_expire)" = 250 ] &&
		[ "$(cat $T/read_batch_expire)" = 500 ] && [ "$(cat $T/write_batch_expire)" = 125 ] &&
		[ "$(cat $T/antic_in_flight)" = 1 ] && [ "$(cat $T/write_bound)" = 32 ] &&
		[ "$(cat $T/sync_write_expire)" = 20 ] && [ "$(cat $T/share_window)" = 60000 ] &&
		[ "$(cat $T/newcomer_expire)" = 8000 ] && [ "$(cat $T/newcomer_plug)" = 2 ] &&
		[ "$(cat $T/start_read_expire)" = $sre ] &&
		[ "$(cat $T/prio_aging_expire)" = 10000 ] &&
		grep -q "exit probability" $T/est_time
}

# more than a sysfs page of digits
LONG=$(printf '%05000d' 0 | tr 0 9)

t_sysfs_invalid() {
	for f in $TUNABLES; do
		old=$(cat $T/$f)
		for bad in -1 abc 1.5 99999999999 "" 0x10 "5 6" 1000001 "$LONG"; do
			if echo "$bad" > $T/$f 2>/dev/null; then
				echo "$f accepted '$bad'"; return 1
			fi
			[ "$(cat $T/$f)" = "$old" ] || { echo "$f changed by '$bad'"; return 1; }
		done
	done
	echo 1001 > $T/antic_expire 2>/dev/null && { echo "antic_expire took 1001"; return 1; }
	echo 0 > $T/read_expire 2>/dev/null && { echo "read_expire took 0"; return 1; }
	echo 1 > $T/est_time 2>/dev/null && { echo "est_time writable"; return 1; }
	return 0
}

t_sysfs_valid() {
	for f in $TUNABLES; do
		old=$(cat $T/$f)
		echo 17 > $T/$f || return 1
		[ "$(cat $T/$f)" = 17 ] || return 1
		echo "$old" > $T/$f || return 1
	done
	echo 0 > $T/antic_expire && [ "$(cat $T/antic_expire)" = 0 ] && echo 6 > $T/antic_expire
}

# data written through the scheduler reads back intact (crc32c verify)
t_fio_verify() {
	dev=$1
	fio --output-format=terse --minimal \
		--name=rand --filename=$dev --direct=1 --rw=randwrite --bs=4k-64k \
		--offset=0 --size=32m --ioengine=libaio --iodepth=8 --verify=crc32c --verify_fatal=1 \
		--name=seqbuf --filename=$dev --direct=0 --rw=write --bs=1m --offset=64m --size=32m \
		--ioengine=psync --verify=crc32c --verify_fatal=1 --end_fsync=1 \
		--name=reader --filename=$dev --direct=1 --rw=read --bs=16k --offset=128m --size=32m \
		--ioengine=psync \
		--name=mixed --filename=$dev --direct=1 --rw=randrw --bs=4k --offset=192m --size=16m \
		--ioengine=psync --thinktime=200 > /tmp/fio.out 2>&1 || { cat /tmp/fio.out; return 1; }
	! grep -qi "verify.*fail\|bad magic\|crc32c.*mismatch" /tmp/fio.out
}

t_ext4() {
	mkfs.ext4 -q -F /dev/$D || return 1
	mount -t ext4 /dev/$D /mnt || { grep ext4 /proc/filesystems; ls -ld /mnt; dmesg | tail -n 5; return 1; }
	fio --name=files --directory=/mnt --rw=write --bs=64k --size=8m --nrfiles=4 --numjobs=3 \
		--verify=crc32c --verify_fatal=1 --end_fsync=1 --ioengine=psync > /tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; umount /mnt; return 1; }
	dd if=/dev/urandom of=/mnt/blob bs=1M count=8 2>/dev/null && sync
	a=$(md5sum < /mnt/blob)
	umount /mnt || return 1
	mount -t ext4 /dev/$D /mnt || return 1
	b=$(md5sum < /mnt/blob)
	umount /mnt
	[ "$a" = "$b" ]
}

load() {	# $1 device, $2 seconds: background load, returns its pid in LOADPID
	fio --name=w --filename=$1 --rw=randwrite --bs=4k-128k --direct=0 --size=64m --offset=256m \
		--time_based --runtime=$2 --ioengine=psync \
		--name=r --filename=$1 --rw=randread --bs=4k --direct=1 --size=64m --offset=0 \
		--time_based --runtime=$2 --ioengine=libaio --iodepth=4 \
		--name=s --filename=$1 --rw=read --bs=64k --direct=0 --size=64m --offset=128m \
		--time_based --runtime=$2 --ioengine=psync > /tmp/load.out 2>&1 &
	LOADPID=$!
}

t_switch_under_load() {
	dev=$1
	q=/sys/block/$(basename $dev)/queue
	load $dev 25
	i=0
	while [ $i -lt 12 ]; do
		for s in anticipatory mq-deadline anticipatory none anticipatory bfq kyber; do
			echo $s > $q/scheduler 2>/dev/null
			sleep 0.3
		done
		i=$((i + 1))
	done
	echo anticipatory > $q/scheduler
	wait $LOADPID || { cat /tmp/load.out; return 1; }
	grep -q '\[anticipatory\]' $q/scheduler
}

t_tunables_under_load() {
	load /dev/$D 20
	i=0
	while [ $i -lt 40 ]; do
		for f in $TUNABLES; do
			echo $(( (i * 7) % 50 + 1 )) > $T/$f || return 1
		done
		echo $((i % 3)) > $T/antic_expire
		i=$((i + 1))
		sleep 0.2
	done
	wait $LOADPID || { cat /tmp/load.out; return 1; }
	echo 6 > $T/antic_expire; echo 125 > $T/read_expire; echo 250 > $T/write_expire
	echo 500 > $T/read_batch_expire; echo 125 > $T/write_batch_expire; echo 60000 > $T/share_window
	echo 8000 > $T/newcomer_expire; echo 2 > $T/newcomer_plug; echo 1000 > $T/start_read_expire
}

t_nr_requests() {
	old=$(cat $Q/nr_requests)
	for n in 4 1024 $old; do
		echo $n > $Q/nr_requests || { echo "nr_requests $n refused"; return 1; }
		check_async_depth $n || return 1
		t_fio_verify /dev/$D || return 1
	done
}

# The async share: from 6.18, where shallow_depth counts all of a queue's
# tags, 3/4 of nr_requests; before, 3/4 of one sbitmap word (at most 48
# of 64 bits; a word keeps its size when nr_requests shrinks, so it may
# exceed nr_requests).
check_async_depth() {
	c=/sys/kernel/debug/block/$D/sched/counters
	[ -f $c ] || return 0	# no debugfs in this kernel
	a=$(awk '$1 == "async_depth" { print $2 }' $c)
	[ -n "$a" ] && [ "$a" -ge 1 ] || { echo "nr_requests $1: async_depth '$a'"; return 1; }
	v=$(uname -r | cut -d- -f1)
	maj=${v%%.*} min=${v#*.}; min=${min%%.*}
	if [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 18 ]; }; then
		want=$(($1 * 3 / 4)); [ $want -ge 1 ] || want=1
		[ "$a" = $want ] || { echo "nr_requests $1: async_depth $a, want $want"; return 1; }
	else
		[ "$a" -le 48 ] || { echo "nr_requests $1: async_depth $a, more than 3/4 of a word"; return 1; }
	fi
}

# many short-lived readers while a writer streams: the exit paths
t_exit_paths() {
	dd if=/dev/zero of=/dev/$D bs=1M seek=300 count=150 2>/dev/null &
	w=$!
	i=0
	while [ $i -lt 300 ]; do
		dd if=/dev/$D of=/dev/null bs=4k count=3 skip=$((i * 37)) iflag=direct 2>/dev/null &
		[ $((i % 10)) = 9 ] && wait_readers
		i=$((i + 1))
	done
	wait
	c=/sys/kernel/debug/block/$D/sched/counters
	[ -f $c ] || { echo "no $c"; return 1; }
	cat $c
	[ "$(awk '$1 == "waits" { print $2 }' $c)" -gt 0 ]
}
wait_readers() { sleep 0.05; }

# Debug kernels only (CONFIG_FAILSLAB): slab allocations fail at random
# in the task that switches the disk between anticipatory and none
# and in a reader doing I/O meanwhile (its io_cq is made anew under each
# new scheduler), so that the module's and blk-mq's error paths run.
# From none, not from mq-deadline: 7.3's elevator_change leaves the old
# scheduler's sysfs directory behind when a switch away from it fails,
# and every later switch then fails with EEXIST (reproduced here with
# bfq and mq-deadline alone on the 7.3 debug kernel); a switch from
# none has no old scheduler to leave. Some
# switches must fail and none may crash; afterwards the disk verifies data
# under anticipatory, and t_unload (next) still removes the module. The
# failing task forks nothing: busybox's shell gives up when a fork fails.
# The kernel reports some injected failures with a stack (warn_alloc),
# so this test checks its own stretch of the log for real trouble and
# then clears it, leaving dmesg-clean the rest.
t_alloc_faults() {
	F=/sys/kernel/debug/failslab
	echo none > $Q/scheduler || return 1
	dmesg -c > /dev/null
	echo N > $F/ignore-gfp-wait && echo Y > $F/task-filter && echo 1 > $F/verbose &&
		echo 0 > $F/space && echo -1 > $F/times && echo 1 > $F/interval &&
		echo 5 > $F/probability || return 1
	dd if=/dev/$D of=/dev/null bs=4k count=1000000 iflag=direct 2>/dev/null &
	io=$!
	echo 1 > /proc/$io/make-it-fail || return 1
	echo 1 > /proc/self/make-it-fail || return 1
	n=0 ok=0
	while [ $n -lt 100 ]; do
		echo anticipatory > $Q/scheduler 2>/dev/null && ok=$((ok + 1))
		echo none > $Q/scheduler 2>/dev/null
		n=$((n + 1))
	done
	until echo 0 > /proc/self/make-it-fail; do :; done 2>/dev/null
	echo 0 > $F/probability
	kill $io 2>/dev/null
	wait $io
	dmesg -c > /tmp/af.log
	injected=$(grep -c 'forcing a failure' /tmp/af.log)
	echo "alloc faults: $ok of $n switches to anticipatory succeeded; $injected slab allocations failed"
	! grep -E -f /lib/kernel-trouble.re /tmp/af.log || return 1
	[ $ok -lt $n ] && [ $injected -gt 0 ] || return 1
	echo anticipatory > $Q/scheduler || return 1
	fio --name=v --filename=/dev/$D --direct=1 --rw=randwrite --bs=4k --size=8m \
		--verify=crc32c --verify_fatal=1 > /tmp/af.out 2>&1 || { tail -n 5 /tmp/af.out; return 1; }
}

t_unload() {
	rmmod anticipatory 2>/dev/null && { echo "unloaded while in use"; return 1; }
	echo mq-deadline > $Q/scheduler || return 1
	rmmod anticipatory || return 1
	grep -qw anticipatory $Q/scheduler && return 1
	modprobe anticipatory && echo anticipatory > $Q/scheduler
}

t_null_blk() {
	modprobe null_blk memory_backed=1 gb=1 submit_queues=2 hw_queue_depth=8 \
		irqmode=2 completion_nsec=100000 || return 1
	n=/sys/block/nullb0/queue
	echo anticipatory > $n/scheduler || return 1
	[ "$(cat $n/iosched/antic_expire)" = 0 ] || { echo "nonrot antic_expire $(cat $n/iosched/antic_expire)"; return 1; }
	echo 4 > $n/iosched/antic_expire || return 1
	t_fio_verify /dev/nullb0 || return 1
	t_switch_under_load /dev/nullb0 || return 1
	echo none > $n/scheduler && rmmod null_blk
}

H=/sys/block/hddsim0
# busybox date has no %N: milliseconds since boot, to 10 ms
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
hs() { cat /sys/block/$1/hddsim/$2; }

t_hddsim_load() {
	modprobe hddsim rpm=1 2>/dev/null && { echo "took rpm=1"; rmmod hddsim; return 1; }
	modprobe hddsim mem_mb=100000 2>/dev/null && { echo "took mem_mb=100000"; rmmod hddsim; return 1; }
	modprobe hddsim capacity=12q 2>/dev/null && { echo "took capacity=12q"; rmmod hddsim; return 1; }
	# at most 1024t: 8 EiB overflows the block device's size, and a
	# suffix must not wrap a number round to something small
	for c in 1025t 8388608t 16777217t 99999999999999999999 1tt; do
		modprobe hddsim capacity=$c nodata=1 2>/dev/null && { echo "took capacity=$c"; rmmod hddsim; return 1; }
	done
	modprobe hddsim capacity=1024t nodata=1 || { echo "refused capacity=1024t"; return 1; }
	[ "$(cat $H/size)" = 2199023255552 ] || { echo "1024t: size $(cat $H/size)"; rmmod hddsim; return 1; }
	rmmod hddsim || return 1
	modprobe hddsim profile=ide2004 2>/dev/null && { echo "took profile=ide2004"; rmmod hddsim; return 1; }
	modprobe hddsim ncq_age_ms=60001 2>/dev/null && { echo "took ncq_age_ms=60001"; rmmod hddsim; return 1; }
	# a profile is core's preset: 40 GB and 128 KiB requests, as antic-sim's disk=ide2003
	modprobe hddsim profile=ide2003 mem_mb=16 || return 1
	[ "$(cat $H/size)" = 78125000 ] && [ "$(cat $H/queue/max_sectors_kb)" = 128 ] ||
		{ echo "ide2003: size $(cat $H/size), max_sectors_kb $(cat $H/queue/max_sectors_kb)"; rmmod hddsim; return 1; }
	rmmod hddsim || return 1
	modprobe hddsim nr_devices=3 capacity=2g,40g,1000g queue_depth=1,32,1 mem_mb=128,64,1 nodata=0,0,1 || return 1
	[ "$(cat $H/queue/rotational)" = 1 ] || { echo "not rotational"; return 1; }
	[ "$(cat $H/size)" = 4194304 ] || { echo "size $(cat $H/size)"; return 1; }
	[ "$(cat /sys/block/hddsim1/size)" = 83886080 ] || return 1
	[ "$(cat /sys/block/hddsim2/size)" = 2097152000 ] || return 1
	grep -q hddsim /proc/devices
}

t_hddsim_verify() {
	for d in hddsim0 hddsim1; do
		echo anticipatory > /sys/block/$d/queue/scheduler || return 1
		t_fio_verify_small /dev/$d || return 1
		[ "$(hs $d requests)" -gt 0 ] && [ "$(hs $d seeks)" -gt 0 ] || return 1
	done
	# zeros written where nothing was stored take no memory
	m0=$(hs hddsim1 mem_pages)
	dd if=/dev/zero of=/dev/hddsim1 bs=1M count=16 seek=1024 oflag=direct 2>/dev/null || return 1
	[ "$(hs hddsim1 mem_pages)" = "$m0" ] || { echo "zeros took $(( $(hs hddsim1 mem_pages) - m0 )) pages"; return 1; }
	# no-data mode: writes vanish, reads are zeros
	dd if=/dev/urandom of=/dev/hddsim2 bs=4k count=16 oflag=direct 2>/dev/null || return 1
	[ "$(dd if=/dev/hddsim2 bs=4k count=16 iflag=direct 2>/dev/null | tr -d '\000' | wc -c)" = 0 ]
}

t_fio_verify_small() {
	fio --name=v --filename=$1 --direct=1 --rw=randwrite --bs=4k-64k --size=16m \
		--ioengine=libaio --iodepth=4 --verify=crc32c --verify_fatal=1 \
		--name=b --filename=$1 --direct=0 --rw=write --bs=1m --offset=32m --size=16m \
		--verify=crc32c --verify_fatal=1 --end_fsync=1 > /tmp/fio.out 2>&1 || { cat /tmp/fio.out; return 1; }
}

# the disk takes the time its model says: 50 random 4 KiB reads at depth 1
# cost at least 50 * (2 ms) even on a fast host, and busy_ns agrees
t_hddsim_timing() {
	echo 0 > /sys/block/hddsim1/hddsim/lateness_us || return 1
	echo 1 > /sys/block/hddsim1/hddsim/lateness_us 2>/dev/null && { echo "lateness_us took 1"; return 1; }
	b0=$(hs hddsim1 busy_ns)
	t0=$(now_ms)
	fio --name=r --filename=/dev/hddsim1 --direct=1 --rw=randread --bs=4k --number_ios=50 \
		--size=40g --ioengine=psync --randseed=7 > /tmp/fio.out 2>&1 || { cat /tmp/fio.out; return 1; }
	t1=$(now_ms)
	b1=$(hs hddsim1 busy_ns)
	# completions late against the model: "p50 P p99 P max M n N" (us)
	set -- $(cat /sys/block/hddsim1/hddsim/lateness_us)
	echo "lateness us: p50 $2 p99 $4 max $6 over $8 completions"
	[ "$8" -ge 50 ] && [ "$2" -le "$4" ] && [ "$4" -le $(( $6 + $6 / 4 + 3 )) ] || return 1
	echo "wall $((t1 - t0)) ms, disk busy $(( (b1 - b0) / 1000000 )) ms"
	[ $(( (b1 - b0) / 1000000 )) -ge 100 ] && [ $((t1 - t0)) -ge $(( (b1 - b0) / 1000000 )) ]
}

t_hddsim_faults() {
	echo 1000000 > $H/hddsim/fail_ppm || return 1
	e0=$(hs hddsim0 errors)
	dd if=/dev/hddsim0 of=/dev/null bs=4k count=1 skip=77 iflag=direct 2>/dev/null && { echo "read did not fail"; return 1; }
	[ "$(hs hddsim0 errors)" -gt "$e0" ] || return 1
	echo 0 > $H/hddsim/fail_ppm
	dd if=/dev/hddsim0 of=/dev/null bs=4k count=1 skip=78 iflag=direct 2>/dev/null || { echo "read failed after"; return 1; }
	echo 1000000 > $H/hddsim/slow_ppm && echo 200 > $H/hddsim/slow_ms || return 1
	t0=$(now_ms)
	dd if=/dev/hddsim0 of=/dev/null bs=4k count=3 skip=99 iflag=direct 2>/dev/null || return 1
	t1=$(now_ms)
	echo 0 > $H/hddsim/slow_ppm
	[ $((t1 - t0)) -ge 600 ] || { echo "slow requests took $((t1 - t0)) ms"; return 1; }
	for bad in -1 abc 1000001 ""; do
		echo "$bad" > $H/hddsim/fail_ppm 2>/dev/null && { echo "fail_ppm took '$bad'"; return 1; }
	done
	[ "$(hs hddsim0 fail_ppm)" = 0 ] || return 1
	# one request in ten failing under load, at depth 8: fio sees the errors,
	# nothing hangs, and the scheduler ends with nothing queued or in flight
	e0=$(hs hddsim0 errors)
	echo 100000 > $H/hddsim/fail_ppm
	fio --name=f --filename=/dev/hddsim0 --direct=1 --rw=randread --bs=4k --size=64m \
		--number_ios=300 --ioengine=libaio --iodepth=8 --continue_on_error=all > /tmp/fio.out 2>&1
	echo 0 > $H/hddsim/fail_ppm
	e1=$(hs hddsim0 errors)
	echo "errors $((e1 - e0)) of 300"
	[ $((e1 - e0)) -gt 5 ] && [ $((e1 - e0)) -lt 100 ] || return 1
	grep -qi "error" /tmp/fio.out || { echo "fio saw no error"; return 1; }
	c=/sys/kernel/debug/block/hddsim0/sched/counters
	grep -q "^queued 0$" $c && grep -q "^nr_dispatched 0$" $c || { cat $c; return 1; }
}

# the drive's depth is a budget under 32 tags: the scheduler gets a SATA
# disk's nr_requests at depth 1, the drive never holds more than its depth,
# and the depth changes at run time (bad values refused)
t_hddsim_depth() {
	echo mq-deadline > $H/queue/scheduler || return 1
	[ "$(cat $H/queue/nr_requests)" = 64 ] || { echo "nr_requests $(cat $H/queue/nr_requests)"; return 1; }
	[ "$(hs hddsim0 queue_depth)" = 1 ] || return 1
	for bad in 0 33 -1 abc ""; do
		echo "$bad" > $H/hddsim/queue_depth 2>/dev/null && { echo "queue_depth took '$bad'"; return 1; }
	done
	[ "$(hs hddsim0 queue_depth)" = 1 ] || return 1
	fio --name=d --filename=/dev/hddsim0 --direct=1 --rw=randrw --bs=4k --size=64m \
		--ioengine=libaio --iodepth=16 --numjobs=2 --time_based --runtime=6 \
		--verify=crc32c --verify_fatal=1 > /tmp/fio.out 2>&1 &
	fp=$!
	max=0
	for depth in 1 4 32 2; do
		echo $depth > $H/hddsim/queue_depth || { kill $fp; wait $fp; return 1; }
		# a shallower drive first finishes what it already holds (on a
		# loaded host that takes more than one sample): from the first
		# sample at or under the new depth, it must stay there
		n=0 settled=0
		while [ $n -lt 10 ] || { [ $settled = 0 ] && [ $n -lt 100 ]; }; do
			sleep 0.1
			set -- $(cat $H/inflight)
			f=$(($1 + $2))
			[ $f -le $depth ] && settled=1
			[ $settled = 1 ] && [ $f -gt $depth ] && { echo "$f in flight at depth $depth"; kill $fp; wait $fp; return 1; }
			[ $f -gt $max ] && max=$f
			n=$((n + 1))
		done
		[ $settled = 1 ] || { echo "never at or under depth $depth in 10 s"; kill $fp; wait $fp; return 1; }
	done
	wait $fp || { cat /tmp/fio.out; return 1; }
	echo 1 > $H/hddsim/queue_depth
	echo "most in flight seen: $max"
	[ $max -gt 1 ]
}

# Everything at once for STRESS_S seconds: fio verifying on several
# processes, short-lived readers started and killed while anticipation is
# on, the scheduler switched every 0.3 s, tunables rewritten at random
# (valid and not), and hddsim disks loaded, verified and removed. Passes
# when the data verifies and every part ends in time; dmesg is checked
# after all tests.
STRESS_S=${STRESS_S:-40}
[ -f /bench/params ] && . /bench/params
t_stress() {
	end=$(( $(now_ms) + STRESS_S * 1000 ))
	echo anticipatory > $Q/scheduler || return 1
	fio --name=v --filename=/dev/$D --direct=1 --rw=randwrite --bs=4k-64k --size=24m \
		--offset_increment=32m --numjobs=3 --ioengine=libaio --iodepth=4 --verify=crc32c \
		--verify_backlog=16 --verify_fatal=1 --time_based --runtime=$STRESS_S \
		--name=b --filename=/dev/$D --direct=0 --rw=write --bs=1m --offset=128m --size=32m \
		--verify=crc32c --verify_fatal=1 --end_fsync=1 --loops=1000 --time_based --runtime=$STRESS_S \
		> /tmp/stress-fio.out 2>&1 &
	fp=$!
	(	# process churn: readers that live a few milliseconds to a second
		n=0
		while [ $(now_ms) -lt $end ]; do
			n=$((n + 1))
			dd if=/dev/$D of=/dev/null bs=4k count=400 skip=$((RANDOM % 4096 * 8)) iflag=direct 2>/dev/null &
			c=$!
			sleep 0.$((RANDOM % 10))
			kill -9 $c 2>/dev/null
			wait $c 2>/dev/null
		done
		echo "stress: $n short-lived readers"
	) &
	churn=$!
	(	# the scheduler, and its tunables while it is ours
		n=0
		while [ $(now_ms) -lt $end ]; do
			for s in anticipatory mq-deadline anticipatory none bfq anticipatory kyber; do
				echo $s > $Q/scheduler 2>/dev/null && n=$((n + 1))
				for k in 1 2 3; do
					set -- $TUNABLES
					shift $((RANDOM % 7))
					case $((RANDOM % 4)) in
					0) v=$((RANDOM % 3)) ;;
					1) v=$((RANDOM % 1000 + 1)) ;;
					2) v=-$RANDOM ;;
					*) v=x$RANDOM ;;
					esac
					echo $v > $T/$1 2>/dev/null
				done
				sleep 0.3
			done
		done
		echo anticipatory > $Q/scheduler
		echo "stress: $n scheduler switches"
	) &
	sw=$!
	hs_rc=0 hs_n=0
	while [ $(now_ms) -lt $end ]; do	# hddsim disks come and go
		hs_n=$((hs_n + 1))
		modprobe hddsim nr_devices=3 capacity=1g queue_depth=1,32,32 mem_mb=64 || { hs_rc=1; break; }
		for h in hddsim0 hddsim1 hddsim2; do
			echo anticipatory > /sys/block/$h/queue/scheduler
			echo 20000 > /sys/block/$h/hddsim/requeue_ppm
		done
		# hddsim2 written with fsyncs while its power is cut; every
		# disk's scheduler switched meanwhile, requeues on all three
		fio --name=h2 --filename=/dev/hddsim2 --direct=1 --rw=randwrite --bs=4k-64k --size=256m \
			--ioengine=libaio --iodepth=8 --fsync=8 --number_ios=300 --continue_on_error=all \
			> /dev/null 2>&1 &
		h2=$!
		(	k=0
			while kill -0 $h2 2>/dev/null; do
				k=$((k + 1))
				set -- none mq-deadline bfq kyber anticipatory
				shift $((k % 5))
				for h in hddsim0 hddsim1 hddsim2; do
					echo "$1" > /sys/block/$h/queue/scheduler 2>/dev/null
				done
				[ $((k % 3)) = 0 ] && echo 1 > /sys/block/hddsim2/hddsim/power_cut
				sleep 0.2
			done
		) &
		cutter=$!
		fio --name=h0 --filename=/dev/hddsim0 --direct=1 --rw=randwrite --bs=4k --size=4m \
			--verify=crc32c --verify_fatal=1 --number_ios=64 \
			--name=h1 --filename=/dev/hddsim1 --direct=1 --rw=randwrite --bs=4k --size=4m \
			--ioengine=libaio --iodepth=8 --verify=crc32c --verify_fatal=1 --number_ios=64 \
			> /tmp/stress-hs.out 2>&1 || { cat /tmp/stress-hs.out; hs_rc=1; }
		wait $h2 $cutter
		hs_rq=$((${hs_rq:-0} + $(hs hddsim0 requeues) + $(hs hddsim1 requeues) + $(hs hddsim2 requeues)))
		hs_pc=$((${hs_pc:-0} + $(hs hddsim2 power_cuts)))
		rmmod hddsim || { echo "hddsim would not unload"; hs_rc=1; break; }
	done
	wait $churn; wait $sw
	wait $fp || { tail -n 20 /tmp/stress-fio.out; return 1; }
	! grep -qi "verify.*fail\|bad magic\|crc32c.*mismatch" /tmp/stress-fio.out || return 1
	echo "stress: $STRESS_S s, $hs_n hddsim load/verify/unload cycles ($hs_rq requeues, $hs_pc power cuts), hddsim rc $hs_rc"
	[ $hs_rc = 0 ]
}

# The depth-32 rules (issue 15) on the depth-32 disk: their tunables take
# exactly their ranges; a buffered writer, a buffered reader and O_DIRECT
# writes run with K at 1, at its default and with the bound off; at the
# end nothing is queued, in flight or held, and K is inside its range.
t_rules_depth32() {
	d=hddsim1
	t=/sys/block/$d/queue/iosched
	c=/sys/kernel/debug/block/$d/sched/counters
	echo anticipatory > /sys/block/$d/queue/scheduler || return 1
	for bad in 2 -1 abc ""; do
		echo "$bad" > $t/antic_in_flight 2>/dev/null && { echo "antic_in_flight took '$bad'"; return 1; }
	done
	echo 4097 > $t/write_bound 2>/dev/null && { echo "write_bound took 4097"; return 1; }
	echo 60001 > $t/sync_write_expire 2>/dev/null && { echo "sync_write_expire took 60001"; return 1; }
	echo 600001 > $t/share_window 2>/dev/null && { echo "share_window took 600001"; return 1; }
	echo 60001 > $t/newcomer_expire 2>/dev/null && { echo "newcomer_expire took 60001"; return 1; }
	echo 4097 > $t/newcomer_plug 2>/dev/null && { echo "newcomer_plug took 4097"; return 1; }
	echo 60001 > $t/start_read_expire 2>/dev/null && { echo "start_read_expire took 60001"; return 1; }
	[ "$(cat $t/antic_in_flight)" = 1 ] && [ "$(cat $t/write_bound)" = 32 ] &&
		[ "$(cat $t/sync_write_expire)" = 20 ] && [ "$(cat $t/share_window)" = 60000 ] &&
		[ "$(cat $t/newcomer_expire)" = 8000 ] && [ "$(cat $t/newcomer_plug)" = 2 ] &&
		[ "$(cat $t/start_read_expire)" = 1000 ] ||
		{ echo "a refused value changed a rule"; return 1; }
	for wb in 1 32 0; do
		echo $wb > $t/write_bound || return 1
		dd if=/dev/zero of=/dev/$d bs=1M count=48 seek=$((2048 + wb * 64)) conv=fsync 2>/dev/null &
		w=$!
		dd if=/dev/$d of=/dev/null bs=128k count=160 skip=$((100 + wb * 1000)) 2>/dev/null ||
			{ kill $w; wait $w; return 1; }
		dd if=/dev/zero of=/dev/$d bs=64k count=32 seek=$((20000 + wb * 100)) oflag=direct 2>/dev/null ||
			{ kill $w; wait $w; return 1; }
		wait $w || return 1
	done
	echo 0 > $t/antic_in_flight && echo 0 > $t/sync_write_expire && echo 0 > $t/share_window &&
		echo 0 > $t/newcomer_expire && echo 0 > $t/newcomer_plug &&
		echo 0 > $t/start_read_expire || return 1
	t_fio_verify_small /dev/$d || return 1
	echo 1 > $t/antic_in_flight && echo 32 > $t/write_bound && echo 20 > $t/sync_write_expire &&
		echo 60000 > $t/share_window && echo 8000 > $t/newcomer_expire &&
		echo 2 > $t/newcomer_plug && echo 1000 > $t/start_read_expire || return 1
	[ -f $c ] || return 0	# no debugfs in this kernel
	tr '\n' ' ' < $c; echo
	awk '{ v[$1] = $2 }
		END { exit !(v["queued"] == 0 && v["nr_dispatched"] == 0 &&
			v["in_flight_sync"] == 0 && v["in_flight_async"] == 0 &&
			v["holding_writes"] == 0 && v["write_k_min"] >= 1 &&
			v["write_k_min"] <= v["write_k"] && v["write_k"] <= v["write_k_max"] &&
			v["newcomer_queued"] == 0 && v["newcomer_in_flight"] == 0 &&
			("newcomer_first_ms" in v)) }' $c
}

t_hddsim_unload() {
	for d in hddsim0 hddsim1 hddsim2; do echo mq-deadline > /sys/block/$d/queue/scheduler; done
	rmmod hddsim && ! grep -q hddsim /proc/devices
}

# ---- the write-back cache and power cuts (hddsim0: st2000dm006, cache on)
P=/sys/block/hddsim0/hddsim

# Records for the power-cut test: record N of run SALT is the line
# "antic-rec SALT N" repeated over 4 KiB. Prints records $2 .. $2+$3-1.
recs() {
	awk -v salt="$1" -v n="$2" -v k="$3" 'BEGIN {
		for (r = 0; r < k; r++) {
			line = sprintf("antic-rec %s %08d\n", salt, n + r)
			s = line
			while (length(s) < 4096)
				s = s s
			printf "%s", substr(s, 1, 4096)
		}
	}'
}

# Records of @1 (a file of whole records) that differ from @2's.
bad_records() {
	cmp -l "$1" "$2" 2>/dev/null | awk '{ print int(($1 - 1) / 4096) }' | uniq | wc -l
}

# The writer: batches of $2 records from block $3 on, each written with
# O_DIRECT and then fsync'd (a FLUSH); only when dd returns (the fsync
# acknowledged) does the batch go to /tmp/pc.expect and its last number
# to /tmp/pc.acked. A batch that fails (a power cut) is read back first
# (which of its completed writes survived: /tmp/pc.unacked "written
# lost") and then written again. Stops at /tmp/pc.stop.
# A batch the power cut fell inside without failing it (the drive held
# none of its commands at that moment) is written again and not counted:
# a drive that loses power alone loses its cache without telling the
# host, so the fsync vouches only for writes made since the last cut
# (power_cuts tells the writer, as the host's own power loss would).
pc_writer() {
	salt=$1 k=$2 base=$3 n=0 uw=0 ul=0 straddled=0
	echo -1 > /tmp/pc.acked
	: > /tmp/pc.expect
	while [ ! -e /tmp/pc.stop ]; do
		recs "$salt" $n $k > /tmp/pc.batch
		c0=$(cat $P/power_cuts)
		if dd if=/tmp/pc.batch of=/dev/hddsim0 bs=4k seek=$((base + n)) \
			oflag=direct conv=notrunc,fsync 2>/tmp/pc.dd; then
			if [ "$(cat $P/power_cuts)" != "$c0" ]; then
				straddled=$((straddled + 1))
				echo $straddled > /tmp/pc.straddled
				pc_lost $k
				continue
			fi
			cat /tmp/pc.batch >> /tmp/pc.expect
			echo $((n + k - 1)) > /tmp/pc.acked
			n=$((n + k))
			continue
		fi
		# writes dd saw complete before the error: whole records out;
		# busybox prints none when the fsync failed, after all of them
		j=$(sed -n 's/^\([0-9]*\)+[0-9]* records out$/\1/p' /tmp/pc.dd)
		[ -n "$j" ] || j=$k
		pc_lost $j
	done
	echo "$uw $ul" > /tmp/pc.unacked
}

# The first $1 records of the batch were written (the drive took them)
# but no fsync after the last cut vouches for them: how many the cut took.
pc_lost() {
	if [ "$1" -gt 0 ]; then
		dd if=/dev/hddsim0 of=/tmp/pc.rb bs=4k skip=$((base + n)) count=$1 \
			iflag=direct 2>/dev/null
		head -c $(($1 * 4096)) /tmp/pc.batch > /tmp/pc.want
		b=$(bad_records /tmp/pc.want /tmp/pc.rb)
		uw=$((uw + $1)); ul=$((ul + b))
	fi
	echo "$uw $ul" > /tmp/pc.unacked
}

# Nothing fsync acknowledged is lost to a power cut: a writer on hddsim0
# under scheduler $1, five cuts a second or two apart, then every
# acknowledged record read back. Unacknowledged writes lost are counted
# too (the cut must be losing something).
t_power_cut() {
	sched=$1 base=$2
	echo "$sched" > /sys/block/hddsim0/queue/scheduler || return 1
	[ "$(cat $P/write_cache)" = 1 ] || { echo "write_cache $(cat $P/write_cache)"; return 1; }
	cuts0=$(cat $P/power_cuts) lost0=$(cat $P/lost_sectors)
	rm -f /tmp/pc.stop /tmp/pc.unacked /tmp/pc.straddled
	# scattered writes elsewhere keep the mechanism busy, so that written
	# data stays in the cache a while (as on a disk in use): a FLUSH
	# acknowledged early would then leave records there for a cut to take
	fio --name=noise --filename=/dev/hddsim0 --rw=randwrite --bs=4k --direct=1 \
		--ioengine=psync --offset=1000g --size=800g --rate_iops=40 --time_based \
		--runtime=600 --continue_on_error=all > /dev/null 2>&1 &
	np=$!
	pc_writer "$sched-$RANDOM" 8 $base &
	w=$!
	for c in 1 2 3 4 5; do
		sleep 1.$((RANDOM % 10))
		echo 1 > $P/power_cut || { echo "power_cut refused"; touch /tmp/pc.stop; kill $np; wait $w $np; return 1; }
	done
	sleep 1
	touch /tmp/pc.stop
	wait $w
	kill $np; wait $np
	acked=$(cat /tmp/pc.acked)
	set -- $(cat /tmp/pc.unacked 2>/dev/null || echo 0 0)
	uw=$1 ul=$2
	[ "$acked" -ge 0 ] || { echo "nothing acknowledged"; return 1; }
	dd if=/dev/hddsim0 of=/tmp/pc.got bs=4k skip=$base count=$((acked + 1)) iflag=direct 2>/dev/null
	bad=$(bad_records /tmp/pc.expect /tmp/pc.got)
	[ "$(wc -c < /tmp/pc.got)" = "$(wc -c < /tmp/pc.expect)" ] || { echo "read back $(wc -c < /tmp/pc.got) bytes"; return 1; }
	cuts=$(( $(cat $P/power_cuts) - cuts0 )) lost=$(( $(cat $P/lost_sectors) - lost0 ))
	st=$(cat /tmp/pc.straddled 2>/dev/null || echo 0)
	echo "power-cut $sched: $((acked + 1)) acknowledged, $bad lost; $ul of $uw written but unacknowledged lost; $cuts cuts lost $lost sectors; $st batches a cut fell inside unnoticed, rewritten"
	[ "$cuts" = 5 ] || return 1
	echo "detail: $((acked + 1 - bad)) of $((acked + 1)) acknowledged records intact; $ul of $uw records written but not fsync'd since the last cut were lost; the cuts lost $lost sectors"
	[ "$bad" = 0 ]
}

# the cache as the block layer and sysfs see it; bad values change nothing
t_wcache_sysfs() {
	modprobe hddsim profile=st2000dm006 capacity=64g mem_mb=128 || return 1
	q=/sys/block/hddsim0/queue
	[ "$(cat $P/write_cache)" = 1 ] && [ "$(cat $q/write_cache)" = "write back" ] ||
		{ echo "write_cache $(cat $P/write_cache), queue says $(cat $q/write_cache)"; return 1; }
	for bad in 2 -1 abc "" 1x; do
		echo "$bad" > $P/write_cache 2>/dev/null && { echo "write_cache took '$bad'"; return 1; }
		echo "$bad" > $P/power_cut 2>/dev/null && { echo "power_cut took '$bad'"; return 1; }
	done
	echo 0 > $P/power_cut 2>/dev/null && { echo "power_cut took 0"; return 1; }
	cat $P/power_cut 2>/dev/null && { echo "power_cut readable"; return 1; }
	[ "$(cat $P/write_cache)" = 1 ] && [ "$(cat $P/power_cuts)" = 0 ] || return 1
	echo 0 > $P/write_cache || return 1
	[ "$(cat $q/write_cache)" = "write through" ] || { echo "queue says $(cat $q/write_cache)"; return 1; }
	# write-through: a write is on the media when it completes
	d0=$(cat $P/destages)
	dd if=/dev/urandom of=/dev/hddsim0 bs=4k count=16 oflag=direct 2>/dev/null || return 1
	[ "$(cat $P/dirty_sectors)" = 0 ] && [ "$(cat $P/overlay_pages)" = 0 ] && [ "$(cat $P/destages)" = "$d0" ] || return 1
	echo 1 > $P/write_cache || return 1
	[ "$(cat $q/write_cache)" = "write back" ] || return 1
	rmmod hddsim || return 1
	# ide2003 is write-through, and has no cache to turn on
	modprobe hddsim profile=ide2003 mem_mb=16 || return 1
	[ "$(cat $P/write_cache)" = 0 ] && [ "$(cat $q/write_cache)" = "write through" ] || { rmmod hddsim; return 1; }
	echo 1 > $P/write_cache 2>/dev/null && { echo "ide2003 took write_cache=1"; rmmod hddsim; return 1; }
	[ "$(cat $q/write_cache)" = "write through" ] || { echo "refused, yet the queue says $(cat $q/write_cache)"; rmmod hddsim; return 1; }
	rmmod hddsim || return 1
	# as parameters: refused when the model would refuse them
	modprobe hddsim write_cache=2 2>/dev/null && { echo "took write_cache=2"; rmmod hddsim; return 1; }
	modprobe hddsim profile=ide2003 write_cache=1 2>/dev/null && { echo "ide2003 took a cache without cache_mb"; rmmod hddsim; return 1; }
	modprobe hddsim profile=ide2003 write_cache=1 cache_mb=8 mem_mb=16 || return 1
	[ "$(cat $P/write_cache)" = 1 ] && [ "$(cat $q/write_cache)" = "write back" ] || { rmmod hddsim; return 1; }
	rmmod hddsim || return 1
	modprobe hddsim profile=st2000dm006 mem_mb=256
}

# The cache's timing in the kernel, as tests/presets.sh measures it in
# antic-sim (tests/presets/randwrite-qd1.fio and fsync-8.fio over the
# whole 2 TB disk): printed to set beside the simulator's figures, with
# how late hddsim's completions were meanwhile. Passes when the jobs run.
t_wcache_timing() {
	echo mq-deadline > /sys/block/hddsim0/queue/scheduler
	cap=$(( $(cat /sys/block/hddsim0/size) * 512 ))
	echo 0 > $P/lateness_us
	fio --name=w --filename=/dev/hddsim0 --size=$cap --rw=randwrite --bs=4k --direct=1 \
		--ioengine=psync --time_based --runtime=10 --output-format=terse --terse-version=3 \
		> /tmp/fio.out 2>&1 || { cat /tmp/fio.out; return 1; }
	iops=$(awk -F';' '{ print int($49) }' /tmp/fio.out)
	set -- $(cat $P/lateness_us)
	echo "wcache timing: random 4 KiB writes at QD1: $iops IOPS (lateness us p50 $2 p99 $4 max $6 n $8)"
	# the random writes left the cache full: each fsync below must wait
	# for its own 8 writes only, as the preset's job measures it
	i=0
	until [ "$(cat $P/dirty_sectors)" = 0 ]; do
		i=$((i + 1))
		[ $i -lt 200 ] || { echo "the cache never drained"; return 1; }
		sleep 0.1
	done
	echo 0 > $P/lateness_us
	all=""
	for i in 1 2 3 4 5 6; do
		fio --name=f$i --filename=/dev/hddsim0 --size=$cap --number_ios=8 --norandommap=1 \
			--rw=randwrite --bs=4k --ioengine=psync --end_fsync=1 --randseed=$i \
			--output-format=json > /tmp/fio.out 2>&1 || { cat /tmp/fio.out; return 1; }
		ms=$(sed -n 's/.*"job_runtime" : \([0-9]*\).*/\1/p' /tmp/fio.out | head -n 1)
		[ -n "$ms" ] || { echo "no job_runtime"; return 1; }
		all="$all $ms"
	done
	set -- $(cat $P/lateness_us)
	echo "wcache timing: fsync after 8 scattered writes, ms:$all (lateness us p50 $2 p99 $4 max $6 n $8)"
	[ "$iops" -gt 0 ]
}

# The cache empties and the overlay is freed within 10 s (after a cut or I/O).
wcache_settled() {
	i=0
	while [ "$(cat $P/dirty_sectors)" != 0 ] || [ "$(cat $P/overlay_pages)" != 0 ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "never settled: $(cat $P/dirty_sectors) dirty, $(cat $P/overlay_pages) overlay pages"; return 1; }
		sleep 0.1
	done
}

# A FLUSH waiting for the cache when the power goes: the fsync fails,
# records the cache had acknowledged are gone, the cache and the overlay
# are empty after, and the disk works on. A writer keeps the cache full
# (its writes wait for room), so the FLUSH has over a second of destages
# to wait for; the cut comes once the FLUSH is seen at the drive.
t_cut_flush() {
	echo mq-deadline > /sys/block/hddsim0/queue/scheduler
	fio --name=fill --filename=/dev/hddsim0 --rw=randwrite --bs=4k --direct=1 --size=32g \
		--ioengine=libaio --iodepth=16 --randseed=3 --time_based --runtime=60 \
		--continue_on_error=all > /tmp/fill.out 2>&1 &
	fp=$!
	i=0
	# up to 30 s: fio takes a while to start on a debug kernel
	until [ "$(cat $P/dirty_sectors)" -ge 1000 ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "cache never filled: $(tail -n 3 /tmp/fill.out | tr '\n' ' ')"; kill $fp; wait $fp; return 1; }
		sleep 0.05
	done
	l0=$(cat $P/lost_sectors) f0=$(cat $P/flushes)
	# 8 scattered records the cache acknowledges, not fsync'd
	for r in 0 1 2 3 4 5 6 7; do
		recs cut $r 1 > /tmp/cf.rec
		dd if=/tmp/cf.rec of=/dev/hddsim0 bs=4k seek=$((r * 1000003 + 7)) oflag=direct conv=notrunc 2>/dev/null ||
			{ kill $fp; wait $fp; return 1; }
	done
	dd if=/dev/urandom of=/dev/hddsim0 bs=4k count=1 seek=100 oflag=direct conv=notrunc,fsync 2>/dev/null &
	f=$!
	i=0
	until [ "$(cat $P/flushes)" -gt "$f0" ]; do
		i=$((i + 1))
		[ $i -lt 400 ] || { echo "no FLUSH reached the drive"; kill $fp $f; wait $fp; return 1; }
		sleep 0.05
	done
	s=$(cat $P/dirty_sectors)
	echo 1 > $P/power_cut || { kill $fp; wait $fp; return 1; }
	wait $f && { echo "fsync succeeded across the cut (dirty sectors before: $s)"; kill $fp; wait $fp; return 1; }
	kill $fp; wait $fp
	gone=0
	for r in 0 1 2 3 4 5 6 7; do
		recs cut $r 1 > /tmp/cf.want
		dd if=/dev/hddsim0 of=/tmp/cf.got bs=4k skip=$((r * 1000003 + 7)) count=1 iflag=direct 2>/dev/null
		cmp -s /tmp/cf.want /tmp/cf.got || gone=$((gone + 1))
	done
	sleep 1	# what fio sent after the cut settles
	echo "dirty sectors at the cut: $s, lost: $(( $(cat $P/lost_sectors) - l0 )), unacknowledged records gone: $gone of 8"
	[ "$s" -gt 0 ] && [ $gone -gt 0 ] || return 1
	wcache_settled || return 1
	[ $(( $(cat $P/lost_sectors) - l0 )) -gt 0 ] || return 1
	t_fio_verify_small /dev/hddsim0
}

# Everything a user can do to the cache at once: I/O at depth 32 with
# fsyncs, the cache switched off and on, power cut every few tenths of a
# second, bad values. Nothing may hang (fio ends; the disk then settles
# empty) and the module must unload afterwards (t_wcache_unload).
t_cut_chaos() {
	echo bfq > /sys/block/hddsim0/queue/scheduler
	echo 32 > $P/queue_depth || return 1
	fio --name=w --filename=/dev/hddsim0 --rw=randwrite --bs=4k-64k --direct=1 --size=4g \
		--ioengine=libaio --iodepth=16 --fsync=4 --time_based --runtime=15 --continue_on_error=all \
		--name=r --filename=/dev/hddsim0 --rw=randread --bs=4k --direct=1 --size=4g --offset=4g \
		--ioengine=libaio --iodepth=8 --time_based --runtime=15 --continue_on_error=all \
		--name=b --filename=/dev/hddsim0 --rw=write --bs=256k --direct=0 --size=64m --offset=8g \
		--end_fsync=1 --time_based --runtime=15 --continue_on_error=all > /tmp/chaos.out 2>&1 &
	fp=$!
	n=0 off=0 on=0 busy=0
	while kill -0 $fp 2>/dev/null; do
		n=$((n + 1))
		echo 1 > $P/power_cut || { echo "power_cut failed"; kill $fp; return 1; }
		case $((n % 4)) in
		1) if echo 0 > $P/write_cache; then off=$((off + 1)); else busy=$((busy + 1)); fi ;;
		3) echo 1 > $P/write_cache && on=$((on + 1)) ;;
		esac
		echo 7 > $P/write_cache 2>/dev/null && { echo "took 7"; kill $fp; return 1; }
		sleep 0.$((RANDOM % 6 + 1))
	done
	wait $fp
	echo 1 > $P/write_cache
	echo 1 > $P/queue_depth
	echo "chaos: $n power cuts, cache off $off times ($busy refused), on $on times"
	sleep 2
	set -- $(cat /sys/block/hddsim0/inflight)
	[ "$1" = 0 ] && [ "$2" = 0 ] || { echo "in flight: $*"; return 1; }
	wcache_settled || return 1
	grep -q "err=" /tmp/chaos.out || { echo "fio saw no errors"; tail -n 5 /tmp/chaos.out; return 1; }
	t_fio_verify_small /dev/hddsim0
}

t_wcache_unload() {
	echo 1 > $P/power_cut && rmmod hddsim && ! grep -q hddsim /proc/devices
}

# ---- faults a real disk produces (hddsim's requeue_ppm, fail_alloc_ppm, mem_mb)

# Runs "$@" in the background for at most $1 seconds: its status when it
# ended in time, 124 when it was still running (then left running: a
# process waiting on I/O that never completes cannot be killed).
bounded() {
	blim=$(($1 * 10))
	shift
	"$@" &
	bp=$!
	t=0
	while kill -0 $bp 2>/dev/null; do
		[ $t -lt $blim ] || return 124
		sleep 0.1
		t=$((t + 1))
	done
	wait $bp
}

# Requeues under scheduler $1 on hddsim0: half of its commands are given
# back to blk-mq (blk_mq_requeue_request, the path SCSI's error handling
# retries a command by; every other one prepared, as SCSI's are, so that
# blk-mq sends it around the scheduler). A sequential reader beside four
# readers that read once every 4 s (each may be the process anticipation
# waits for when its request comes back) and a verifying writer, 9 s.
# fio must end within 60 s, data verify, no read wait 2 s (a scheduler
# waiting for the completion of a request that went around it is not
# told of it, and stalls everyone until that process reads again, 4 s
# later; under TCG on a loaded host a read has waited 1.1 s without
# it), and nothing stay queued or in flight.
t_requeue() {
	s=$1 h=/sys/block/hddsim0
	echo "$s" > $h/queue/scheduler || return 1
	r0=$(hs hddsim0 requeues)
	echo 500000 > $h/hddsim/requeue_ppm || return 1
	bounded 60 fio --output-format=terse --terse-version=3 \
		--name=seq --filename=/dev/hddsim0 --rw=read --bs=4k --direct=1 --ioengine=psync \
		--size=512m --time_based --runtime=9 \
		--name=thinker --filename=/dev/hddsim0 --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--offset=1g --size=1g --thinktime=4000000 --numjobs=4 --time_based --runtime=9 \
		--name=v --filename=/dev/hddsim0 --rw=randwrite --bs=4k-64k --direct=1 --ioengine=libaio \
		--iodepth=4 --offset=2g --size=8m --verify=crc32c --verify_fatal=1 > /tmp/rq.out 2>&1
	rc=$?
	echo 0 > $h/hddsim/requeue_ppm
	if [ $rc = 124 ]; then
		echo "$s: fio still running after 60 s; in flight: $(cat $h/inflight)"
		tr '\n' ' ' < /sys/kernel/debug/block/hddsim0/sched/counters 2>/dev/null
		killall fio 2>/dev/null
		return 1
	fi
	[ $rc = 0 ] || { tail -n 5 /tmp/rq.out; return 1; }
	n=$(( $(hs hddsim0 requeues) - r0 ))
	# read clat max (field 15, us) of every job
	worst=$(awk -F';' 'NF > 20 && $15 > m { m = $15 } END { print int(m / 1000) }' /tmp/rq.out)
	sleep 1
	set -- $(cat $h/inflight)
	[ "$1" = 0 ] && [ "$2" = 0 ] || { echo "$s: in flight after: $*"; return 1; }
	c=/sys/kernel/debug/block/hddsim0/sched/counters
	if [ "$s" = anticipatory ] && [ -f $c ]; then
		grep -q "^queued 0$" $c && grep -q "^nr_dispatched 0$" $c || { tr '\n' ' ' < $c; return 1; }
	fi
	echo "requeue $s: $n requeues, longest read $worst ms"
	echo "detail: $n requeues, longest read $worst ms"
	[ "$n" -gt 10 ] && [ -n "$worst" ] && [ "$worst" -lt 2000 ]
}

# mem_mb bounds all of hddsim's memory with the write cache on: a write
# of 48 MiB into mem_mb=32 fails with ENOSPC (counted in nomem), media
# and overlay pages stay within 32 MiB (hddsim's own count, exact), and
# the guest's free memory falls by no more than 64 MiB (a coarse bound:
# MemFree moves by several MiB on its own; it fell 17-34 MiB with the
# limit kept, 33 with it ignored); write-through the same.
t_nospc() {
	modprobe hddsim capacity=1g mem_mb=32 || return 1
	[ "$(cat $P/write_cache)" = 1 ] || { echo "write_cache $(cat $P/write_cache)"; rmmod hddsim; return 1; }
	lim=$((32 * 256)) worst=0
	a0=$(awk '$1 == "MemFree:" { print $2 }' /proc/meminfo)
	(	# the largest hddsim holds meanwhile
		m=0
		while [ ! -e /tmp/ns.stop ]; do
			v=$(( $(cat $P/mem_pages) + $(cat $P/overlay_pages) ))
			[ $v -gt $m ] && m=$v && echo $m > /tmp/ns.max
			sleep 0.05
		done
	) &
	mon=$!
	rm -f /tmp/ns.stop /tmp/ns.max
	bounded 120 dd if=/dev/urandom of=/dev/hddsim0 bs=1M count=48 oflag=direct 2>/tmp/ns.dd
	rc=$?
	[ $rc != 124 ] || { echo "dd still writing after 120 s: $(cat $P/mem_pages) media, $(cat $P/overlay_pages) overlay pages"; touch /tmp/ns.stop; return 1; }
	wcache_settled
	a1=$(awk '$1 == "MemFree:" { print $2 }' /proc/meminfo)
	touch /tmp/ns.stop
	wait $mon
	worst=$(cat /tmp/ns.max 2>/dev/null || echo 0)
	out=$(sed -n 's/^\([0-9]*\)+[0-9]* records out$/\1/p' /tmp/ns.dd)
	echo "cache on: dd exit $rc after ${out:-?} MiB; $(cat $P/nomem) refused; most pages held $worst of $lim; MemFree fell $(( (a0 - a1) / 1024 )) MiB"
	[ $rc != 0 ] && grep -q "No space left" /tmp/ns.dd || { echo "want ENOSPC: $(cat /tmp/ns.dd)"; rmmod hddsim; return 1; }
	[ "$(cat $P/nomem)" -gt 0 ] && [ "$worst" -le $lim ] &&
		[ $(( $(cat $P/mem_pages) + $(cat $P/overlay_pages) )) -le $lim ] &&
		[ $(( (a0 - a1) / 1024 )) -le 64 ] || { rmmod hddsim; return 1; }
	echo 0 > $P/write_cache || { rmmod hddsim; return 1; }
	dd if=/dev/urandom of=/dev/hddsim0 bs=1M count=48 seek=100 oflag=direct 2>/tmp/ns.dd &&
		{ echo "write-through: no error"; rmmod hddsim; return 1; }
	grep -q "No space left" /tmp/ns.dd || { cat /tmp/ns.dd; rmmod hddsim; return 1; }
	[ "$(cat $P/mem_pages)" -le $lim ] || { rmmod hddsim; return 1; }
	echo "detail: ENOSPC with the cache on after ${out:-?} of 48 MiB, at most $worst of $lim pages held"
	rmmod hddsim
}

# With one page allocation in 20 failing (fail_alloc_ppm: the request
# goes back to blk-mq, BLK_STS_RESOURCE, and comes again), nothing fsync
# acknowledged is lost to five power cuts (t_power_cut), and the
# failures happened.
t_power_cut_nomem() {
	a0=$(cat $P/alloc_failures)
	echo 50000 > $P/fail_alloc_ppm || return 1
	t_power_cut mq-deadline "$1" > /tmp/pcn.out 2>&1
	rc=$?
	echo 0 > $P/fail_alloc_ppm
	cat /tmp/pcn.out
	a=$(( $(cat $P/alloc_failures) - a0 ))
	echo "power-cut-nomem: $a page allocations failed (injected)"
	echo "detail: $(sed -n 's/^detail: //p' /tmp/pcn.out | tail -n 1); $a allocations failed"
	[ $rc = 0 ] && [ $a -gt 0 ]
}

# The kernel's modules lie where its own tools look (/lib/modules/KVER/kernel).
t_modules_layout() {
	k=/lib/modules/$(uname -r)
	[ -d $k/kernel ] || { echo "no $k/kernel"; return 1; }
	stray=$(find $k -name '*.ko' | grep -v "^$k/kernel/\|^$k/extra/")
	[ -z "$stray" ] || { echo "elsewhere: $stray" | head -n 3; return 1; }
	modprobe -n bfq 2>/dev/null || [ -d /sys/module/bfq ]
}

# null_blk's own fault injection (a kernel built with
# BLK_DEV_NULL_BLK_FAULT_INJECTION, as the debug kernel is), under every
# scheduler: requeues (one in ten) and timeouts (one in ten, the request
# then times out after 1 s): 40 readers each time end within 60 s.
t_null_blk_faults() {
	modprobe null_blk requeue='1,10,0,-1' timeout='1,10,0,-1' irqmode=2 \
		completion_nsec=100000 || return 1
	n=/sys/block/nullb0/queue
	echo 1000 > $n/io_timeout || { rmmod null_blk; return 1; }
	for s in none mq-deadline bfq kyber anticipatory; do
		echo "$s" > $n/scheduler || { rmmod null_blk; return 1; }
		i=0 pids=""
		while [ $i -lt 40 ]; do
			dd if=/dev/nullb0 of=/dev/null bs=4k count=4 skip=$((i * 64)) iflag=direct 2>/dev/null &
			pids="$pids $!"
			i=$((i + 1))
		done
		t=0
		for p in $pids; do
			while kill -0 $p 2>/dev/null; do
				t=$((t + 1))
				[ $t -lt 600 ] || { echo "$s: readers still waiting after 60 s"; return 1; }
				sleep 0.1
			done
		done
		wait
		echo "null_blk faults $s: 40 readers ended in $((t / 10)) s"
	done
	echo none > $n/scheduler
	rmmod null_blk
}

echo "vm: kernel $(uname -r), $(nproc) cpus"
modprobe virtio_blk && modprobe virtio_pci
modprobe bfq; modprobe kyber-iosched; modprobe crc32c_generic; modprobe ext4
i=0
while [ ! -b /dev/$D ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo "vm: $D has $(ls /sys/block/$D/mq | wc -l) hardware queues, rotational $(cat $Q/rotational)"

run modules-layout t_modules_layout
run load t_load
run select t_select
run defaults t_defaults
run sysfs-invalid t_sysfs_invalid
run sysfs-valid t_sysfs_valid
run fio-verify t_fio_verify /dev/$D
run ext4 t_ext4
run switch-under-load t_switch_under_load /dev/$D
run tunables-under-load t_tunables_under_load
run nr-requests t_nr_requests
run exit-paths t_exit_paths
echo "vm: $D counters: $(tr '\n' ' ' < /sys/kernel/debug/block/$D/sched/counters 2>/dev/null)"
if [ -d /sys/kernel/debug/failslab ]; then
	run alloc-faults t_alloc_faults
	grep '^alloc faults' /tmp/out | sed 's/^/vm: /'
fi
run unload t_unload
run null_blk t_null_blk
run hddsim-load t_hddsim_load
run hddsim-verify t_hddsim_verify
run hddsim-timing t_hddsim_timing
echo "vm: hddsim timing: $(cat /tmp/out | tail -n 1)"
echo "vm: hddsim $(grep '^lateness' /tmp/out | tail -n 1)"
run hddsim-faults t_hddsim_faults
run hddsim-depth t_hddsim_depth
run rules-depth32 t_rules_depth32
run hddsim-unload t_hddsim_unload
run wcache-sysfs t_wcache_sysfs
run wcache-timing t_wcache_timing
grep '^wcache timing' /tmp/out | sed 's/^/vm: /'
i=0
for s in none mq-deadline bfq kyber anticipatory; do
	run power-cut-$s t_power_cut $s $((i * 200000))
	grep '^power-cut' /tmp/out | sed 's/^/vm: /'
	i=$((i + 1))
done
set -- $(cat $P/lateness_us)
echo "vm: hddsim lateness with the write cache (power-cut runs): p50 $2 p99 $4 max $6 us over $8 completions"
run cut-flush t_cut_flush
grep '^dirty sectors' /tmp/out | sed 's/^/vm: cut-flush: /'
run cut-chaos t_cut_chaos
grep '^chaos' /tmp/out | sed 's/^/vm: /'
run power-cut-nomem t_power_cut_nomem $((i * 200000))
grep '^power-cut' /tmp/out | sed 's/^/vm: /'
run wcache-unload t_wcache_unload
run nospc t_nospc
grep '^cache on' /tmp/out | sed 's/^/vm: nospc: /'
if modprobe hddsim capacity=4g mem_mb=64; then
	for s in none mq-deadline bfq kyber anticipatory; do
		run requeue-$s t_requeue $s
		grep '^requeue' /tmp/out | sed 's/^/vm: /'
	done
	rmmod hddsim
else
	echo "VMTEST FAIL requeue: hddsim would not load"
fi
if modprobe null_blk 2>/dev/null && [ -e /sys/module/null_blk/parameters/requeue ]; then
	rmmod null_blk
	run null_blk-faults t_null_blk_faults
	grep '^null_blk faults' /tmp/out | sed 's/^/vm: /'
else
	rmmod null_blk 2>/dev/null
	echo "vm: null_blk-faults not run: this kernel's null_blk has no fault injection"
fi
run stress t_stress
grep '^stress: ' /tmp/out | sed 's/^/vm: /'
echo "vm: module size $(cat /sys/module/anticipatory/coresize 2>/dev/null) bytes"
echo DMESG BEGIN
dmesg
echo DMESG END
echo VMTEST END
sync
poweroff -f
