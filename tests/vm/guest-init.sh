# Sourced first by every VM /init (tests/vm/guest.sh, bench/guest-bench.sh):
# busybox's commands, the kernel's pseudo file systems, and /sbin/modprobe,
# through which the kernel asks for modules (crc32c for ext4).
/bin/busybox --install -s /bin
ln -s /bin/busybox /sbin/modprobe
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs none /sys/kernel/debug
