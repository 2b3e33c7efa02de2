#!/bin/busybox sh
# /init of bench/record-startup.sh's VM: blktrace records the cold-cache
# start-up of each program on the virtio disk (the image of programs,
# mounted read-only), and blkparse's Q and C events of it are printed as
# "TRACE NAME <event>" for the host to keep.
. /lib/guest-init.sh
echo "vm: kernel $(uname -r), $(nproc) cpus"
modprobe virtio_pci; modprobe virtio_blk; modprobe crc32c_generic; modprobe ext4
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda ] && break; sleep 1; done
mkdir -p /img
mount -t ext4 -o ro,noatime /dev/vda /img || { echo "vm: cannot mount the image"; poweroff -f; }
mount -t devtmpfs dev /img/dev
mount -t proc proc /img/proc
# what the programs write (gcc's object and temporary files) goes to memory
mount -t tmpfs tmp /img/tmp
# inside the image the programs are under /usr/bin (gcc looks for as there)
export PATH=/usr/bin:/bin:/sbin
# the CPU is never idle: on the instruction clock (sleep=off) an idle
# guest's clock jumps to its next timer, so a program's wait for the disk
# would last until some timer (seconds, at times) and shift every later
# process's start; with this spinner in the idle class, which yields to
# any other task at once, a wait lasts the instructions the spinner ran
# while the host served the read
chrt -i 0 /bin/busybox sh -c 'while :; do :; done' &
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# record NAME COMMAND...: COMMAND run in the image, cold, under blktrace
record() {
	name=$1
	shift
	mkdir -p /tmp/bt
	sync
	echo 3 > /proc/sys/vm/drop_caches
	blktrace -d /dev/vda -D /tmp/bt -o "$name" > /tmp/bt.out 2>&1 &
	bt=$!
	sleep 2	# blktrace's relay buffers set up before the first request
	t0=$(now_ms)
	HOME=/ TMPDIR=/tmp chroot /img "$@" > /tmp/out 2>&1
	rc=$?
	t1=$(now_ms)
	sleep 1
	kill -INT $bt
	wait $bt
	echo "STARTUP $name $((t1 - t0)) ms, exit $rc, output: $(tail -n 1 /tmp/out)"
	[ $rc = 0 ] || sed "s/^/OUTPUT $name /" /tmp/out | tail -n 20
	blkparse -i "$name" -D /tmp/bt 2>/dev/null | awk -v n="$name" '$6 == "Q" || $6 == "C" { print "TRACE " n " " $0 }'
	rm -rf /tmp/bt
}

record python /usr/bin/python3.11 -c 'import asyncio, argparse, csv, decimal, email.mime.multipart, http.client, json, logging.handlers, unittest, urllib.request, xml.etree.ElementTree, zipfile, tarfile, sqlite3, ssl; print("imported")'
record git /usr/bin/git -C /src status
record gcc /usr/bin/gcc-12 -O2 -c -o /tmp/prog.o /cc/prog.c
record perl /usr/bin/perl -MPOSIX -MData::Dumper -MStorable -MFile::Find -MFile::Temp -MGetopt::Long \
	-MList::Util=sum -MTime::Local -MText::Wrap -MEncode -MIO::Socket -e 'print scalar(keys %INC), " modules\n"'
record vim /usr/bin/vim.basic -es -N -n -i NONE -c 'syntax on' -c 'e /src/kernel/sched/core.c' \
	-c 'normal! G' -c 'verbose echo &ft b:current_syntax line(".")' -c 'q!'
record xz /usr/bin/xz -T2 -tv /data/src.tar.xz
record grep /usr/bin/find /src/kernel /src/mm /src/block -name '*.[ch]' -exec /usr/bin/grep -l -e rcu_read_lock {} +
echo RECORD END
poweroff -f
