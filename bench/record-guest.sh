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
	HOME=/ chroot /img "$@" > /tmp/out 2>&1
	rc=$?
	t1=$(now_ms)
	sleep 1
	kill -INT $bt
	wait $bt
	echo "STARTUP $name $((t1 - t0)) ms, exit $rc, output: $(tail -n 1 /tmp/out)"
	blkparse -i "$name" -D /tmp/bt 2>/dev/null | awk -v n="$name" '$6 == "Q" || $6 == "C" { print "TRACE " n " " $0 }'
	rm -rf /tmp/bt
}

record python /usr/bin/python3.11 -c 'import asyncio, argparse, csv, decimal, email.mime.multipart, http.client, json, logging.handlers, unittest, urllib.request, xml.etree.ElementTree, zipfile, tarfile, sqlite3, ssl; print("imported")'
record git /usr/bin/git -C /src status
echo RECORD END
poweroff -f
