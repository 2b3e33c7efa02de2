#!/bin/busybox sh
# /init of the trace-capture VM: real workloads on ext4 on the virtio disk
# and on hddsim, each traced with blktrace; the traces leave the VM as a
# tar written to the virtio disk at 448 MiB (tests/traces/capture.sh).
. /lib/guest-init.sh
modprobe virtio_blk; modprobe virtio_pci; modprobe crc32c_generic; modprobe ext4
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
modprobe hddsim capacity=8g rpm=7200 outer_mbps=40 inner_mbps=22 avg_seek_us=9000 \
	full_stroke_us=17000 max_sectors_kb=128 mem_mb=256 || echo "vm: no hddsim"
mkdir -p /traces /tmp/gen /mnt
echo "vm: kernel $(uname -r)"

# a small source tree, in RAM, to untar: 300 files of 4-20 KiB
fio --name=gen --directory=/tmp/gen --rw=write --bs=4k --nrfiles=300 --filesize=4k-20k \
	--file_service_type=sequential --openfiles=1 > /dev/null
(cd /tmp && tar cf /tmp/src.tar gen) && rm -rf /tmp/gen

traced() {	# traced NAME DEV CMD...: blktrace DEV while CMD runs
	name=$1 dev=$2
	shift 2
	sync
	echo 3 > /proc/sys/vm/drop_caches
	blktrace -d /dev/$dev -D /traces -o $name > /dev/null 2>&1 &
	bt=$!
	sleep 1
	"$@"
	sync
	sleep 1
	kill -INT $bt
	wait $bt
	echo "vm: traced $name: $(cat /traces/$name.blktrace.* | wc -c) bytes"
}

untar() { cd /mnt && tar xf /tmp/src.tar && sync && echo 3 > /proc/sys/vm/drop_caches && tar cf - gen > /dev/null; cd /; }
compile() {
	fio --name=compile --directory=/mnt/gen --rw=read --bs=4k --nrfiles=300 --filesize=4k-20k \
		--file_service_type=sequential --openfiles=1 --thinktime=5ms --thinktime_blocks=8 \
		--filename_format='gen.$jobnum.$filenum' > /dev/null
}
writeread() {
	fio --name=w --filename=/mnt/big --rw=write --bs=1m --size=24m --end_fsync=1 > /dev/null &
	w=$!
	cat /mnt/gen/gen.0.1* > /dev/null
	dd if=/mnt/r8 of=/dev/null bs=128k 2>/dev/null
	wait $w
}

for dev in vda hddsim0; do
	[ -b /dev/$dev ] || continue
	echo mq-deadline > /sys/block/$dev/queue/scheduler
	mkfs.ext4 -q -F /dev/$dev 300M && mount -t ext4 /dev/$dev /mnt || { echo "vm: mkfs $dev failed"; continue; }
	traced $dev-untar $dev untar
	traced $dev-compile $dev compile
	dd if=/dev/urandom of=/mnt/r8 bs=1M count=8 2>/dev/null
	traced $dev-writeread $dev writeread
	umount /mnt
done
(cd /traces && tar cf - .) | dd of=/dev/vda bs=1M seek=448 conv=fsync 2>/dev/null
echo "vm: capture done"
sync
poweroff -f
