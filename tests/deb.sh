#!/bin/sh
# The Debian packages: builds antic-dkms and antic-sim with
# dpkg-buildpackage from a copy of the tree, lists their contents against
# what each must hold, runs the packaged antic-sim and antic-select, and
# has DKMS build anticipatory.ko and hddsim.ko from the packaged sources
# for every installed kernel with headers and linux-source, then boots the
# modules DKMS built for one of them in a VM (the VM tests' core). DKMS
# installs in an overlay chroot (or, without one, builds in private
# trees), so the machine's /var/lib/dkms and /lib/modules are left as
# they were, and the test checks that they were.
# Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in dpkg-buildpackage dh_dkms dkms; do
	command -v "$tool" >/dev/null || { ko "$tool is missing (setup.sh installs debhelper, dh-dkms, dkms)"; finish; }
done

version=$(dpkg-parsechangelog -l debian/changelog -S Version)
upstream=${version%-*}
arch=$(dpkg --print-architecture)

# -- build from a copy, so the .debs land in $tmp and not beside the tree
src=$tmp/antic-$upstream
mkdir -p "$src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	# tracked and new files, not build/ or other ignored output
	git ls-files -z -co --exclude-standard | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		xargs -0 tar -cf - | tar -xf - -C "$src"
else
	tar -cf - --exclude=./build --exclude=./kernel/build . | tar -xf - -C "$src"
fi
t0=$(date +%s)
# the unit tests run in make check already; nocheck skips them here
if (cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b ($(($(date +%s) - t0)) s)"
else
	tail -n 30 "$tmp/build.log"
	ko "dpkg-buildpackage -us -uc -b failed (log above)"
	finish
fi
dkms_deb=$tmp/antic-dkms_${version}_all.deb
sim_deb=$tmp/antic-sim_${version}_${arch}.deb
for deb in "$dkms_deb" "$sim_deb"; do
	[ -f "$deb" ] && ok "built ${deb##*/}" || ko "no ${deb##*/}"
done
[ -f "$dkms_deb" ] && [ -f "$sim_deb" ] || finish

# -- contents
# expect DEB FILE...: each FILE (a path in the package) is there
expect() {
	deb=$1
	shift
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/list"
	missing=
	for f in "$@"; do
		grep -qx "$f" "$tmp/list" || missing="$missing $f"
	done
	[ -z "$missing" ] && ok "${deb##*/} holds all $# expected files" ||
		ko "${deb##*/} lacks:$missing"
}
echo "-- ${dkms_deb##*/}:"
dpkg-deb -c "$dkms_deb" | awk '$1 !~ /^d/ { print "   " $6 }'
echo "-- ${sim_deb##*/}:"
dpkg-deb -c "$sim_deb" | awk '$1 !~ /^d/ { print "   " $6 }'

usrc=/usr/src/antic-$upstream
# the files kernel/Makefile copies into its build directory (SRCS,
# CORE_SRCS): a DKMS build without any of them fails
srcs=$(sed -n 's/^SRCS *:= *//p' kernel/Makefile)
core_srcs=$(sed -n 's/^CORE_SRCS *:= *//p' kernel/Makefile)
if [ -z "$srcs" ] || [ -z "$core_srcs" ]; then
	ko "cannot read SRCS and CORE_SRCS from kernel/Makefile"
fi
set --
for f in $srcs; do set -- "$@" "$usrc/kernel/$f"; done
for f in $core_srcs; do set -- "$@" "$usrc/core/$f"; done
expect "$dkms_deb" "$@" "$usrc/dkms.conf" "$usrc/kernel/Makefile" "$usrc/kernel/block-headers.sh" \
	/usr/sbin/antic-select /usr/share/antic/60-antic.rules /usr/lib/modules-load.d/antic.conf \
	/usr/share/man/man4/anticipatory.4.gz /usr/share/man/man4/hddsim.4.gz \
	/usr/share/man/man8/antic-select.8.gz /usr/share/doc/antic-dkms/copyright
expect "$sim_deb" /usr/bin/antic-sim /usr/share/man/man1/antic-sim.1.gz /usr/share/doc/antic-sim/copyright

dpkg-deb -f "$dkms_deb" Depends | grep -q 'dkms' && ok "antic-dkms depends on dkms" ||
	ko "antic-dkms does not depend on dkms: $(dpkg-deb -f "$dkms_deb" Depends)"
dpkg-deb -e "$dkms_deb" "$tmp/ctl"
if grep -q 'common.postinst' "$tmp/ctl/postinst" 2>/dev/null &&
	grep -qx "DKMS_NAME=antic" "$tmp/ctl/postinst" && grep -qx "DKMS_VERSION=$upstream" "$tmp/ctl/postinst"; then
	ok "postinst hands antic $upstream to DKMS (dh_dkms)"
else
	ko "postinst does not run DKMS for antic $upstream"
fi

# -- what the packages install, extracted
root=$tmp/root
dpkg-deb -x "$dkms_deb" "$root"
dpkg-deb -x "$sim_deb" "$root"
v=$("$root/usr/bin/antic-sim" --version 2>&1)
[ "$v" = "antic-sim $upstream" ] && ok "packaged antic-sim runs: $v" ||
	ko "packaged antic-sim --version says '$v', want 'antic-sim $upstream'"
# the same program as the tree's, whatever the package's build flags
job="--quiet --set max_time=2s --output-format csv examples/write-vs-read.fio"
# shellcheck disable=SC2086
"$root/usr/bin/antic-sim" $job >"$tmp/pkg.csv" 2>&1
# shellcheck disable=SC2086
build/antic-sim $job >"$tmp/tree.csv" 2>&1
if [ -s "$tmp/pkg.csv" ] && cmp -s "$tmp/pkg.csv" "$tmp/tree.csv"; then
	ok "packaged antic-sim gives build/antic-sim's output on examples/write-vs-read.fio"
else
	ko "packaged antic-sim's output differs from build/antic-sim's"
fi
grep -v '^#' "$root/usr/lib/modules-load.d/antic.conf" | grep -qx anticipatory &&
	ok "modules-load.d loads anticipatory (and nothing else)" ||
	ko "modules-load.d/antic.conf does not list anticipatory"
[ "$(grep -cv '^#' "$root/usr/lib/modules-load.d/antic.conf")" -eq 1 ] ||
	ko "modules-load.d/antic.conf lists more than the scheduler"

# the rule: a whole rotational disk gets anticipatory; nothing active as shipped
rule=$root/usr/share/antic/60-antic.rules
if grep -v '^#' "$rule" | grep -q 'ATTR{queue/rotational}=="1"' &&
	grep -v '^#' "$rule" | grep -q 'ATTR{queue/scheduler}="anticipatory"'; then
	ok "60-antic.rules selects anticipatory where queue/rotational is 1"
else
	ko "60-antic.rules does not match rotational disks to anticipatory"
fi
[ -z "$(cd "$root" && find . -path '*/udev/rules.d/*')" ] &&
	ok "no udev rule is active as shipped (nothing in a rules.d)" ||
	ko "the package installs an active udev rule"
sel=$root/usr/sbin/antic-select
sysroot=$tmp/sysroot
export ANTIC_RULES_TEMPLATE="$rule"
if "$sel" enable --root "$sysroot" >/dev/null && cmp -s "$rule" "$sysroot/etc/udev/rules.d/60-antic.rules" &&
	"$sel" status --root "$sysroot" | grep -q '^enabled' &&
	"$sel" disable --root "$sysroot" >/dev/null && [ ! -e "$sysroot/etc/udev/rules.d/60-antic.rules" ] &&
	"$sel" status --root "$sysroot" | grep -q '^disabled' &&
	[ -z "$(ls -A "$sysroot/etc/udev/rules.d")" ]; then
	ok "antic-select enable writes the rule, disable removes it, status follows"
else
	ko "antic-select enable/disable/status under --root"
fi
ANTIC_RULES_TEMPLATE=$tmp/none "$sel" enable --root "$tmp/sysroot2" >/dev/null 2>&1
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/sysroot2/etc/udev/rules.d/60-antic.rules" ] &&
	ok "antic-select without its template fails (exit $rc) and writes nothing" ||
	ko "antic-select without its template: exit $rc"
"$sel" bogus >/dev/null 2>&1
[ $? -eq 2 ] && ok "antic-select refuses an unknown command (exit 2)" || ko "antic-select accepted 'bogus'"
unset ANTIC_RULES_TEMPLATE

# -- DKMS, from the packaged sources, for every kernel it can build for:
# those with headers and the matching linux-source
kernels=
for kdir in /lib/modules/*/; do
	kver=$(basename "$kdir")
	[ -d "$kdir/build" ] || continue
	mm=$(echo "$kver" | cut -d. -f1,2)
	if [ ! -f "/usr/src/linux-source-$mm.tar.xz" ]; then
		echo "note: $kver: no linux-source-$mm, DKMS cannot build for it (not counted)"
		continue
	fi
	kernels="$kernels $kver"
done
[ -n "$kernels" ] || { ko "no kernel with headers and linux-source (setup.sh installs them)"; finish; }
# what installing antic-dkms would change on this machine (and nothing
# else, which other work on the machine may change meanwhile)
state() {
	{ find /var/lib/dkms /usr/src/antic-* /lib/modules/*/updates 2>/dev/null
	  dpkg-query -W -f '${Package} ${Status}\n' antic-dkms antic-sim 2>&1; } | sort
}
state >"$tmp/state.before"

# The real thing where it can be had: dpkg -i in a chroot whose root is
# an overlay over this machine's (so its dkms, headers and linux-source
# are there), writes going to $tmp and vanishing with it. The package's
# postinst runs DKMS as on a user's machine (build and install for each
# kernel: the running one here has no headers), then dpkg --purge must
# take every module away again.
overlay_install() {
	ov=$tmp/ov
	mkdir -p "$ov/upper" "$ov/work" "$ov/root"
	cat >"$tmp/inside.sh" <<'INSIDE'
set -u
deb=$1
shift
say() { echo "@@ $*"; }
dpkg -i "$deb" >/antic-test/dpkg-i.log 2>&1 || { tail -n 30 /antic-test/dpkg-i.log; say ko "dpkg -i antic-dkms failed (log above)"; exit 0; }
say ok "dpkg -i antic-dkms (postinst ran DKMS)"
for kver in "$@"; do
	st=$(dkms status antic -k "$kver" 2>/dev/null)
	m1=$(ls /lib/modules/"$kver"/updates/dkms/anticipatory.ko* 2>/dev/null | head -n 1)
	m2=$(ls /lib/modules/"$kver"/updates/dkms/hddsim.ko* 2>/dev/null | head -n 1)
	vm1=$(modinfo -F vermagic "$m1" 2>/dev/null | cut -d' ' -f1)
	vm2=$(modinfo -F vermagic "$m2" 2>/dev/null | cut -d' ' -f1)
	# depmod ran: modprobe resolves the name for that kernel
	dep=$(modprobe -S "$kver" --show-depends anticipatory 2>/dev/null | tail -n 1)
	if echo "$st" | grep -q ': installed' && [ "$vm1" = "$kver" ] && [ "$vm2" = "$kver" ] &&
		echo "$dep" | grep -q updates/dkms/anticipatory; then
		echo "   $st"
		echo "   $m1, $m2"
		grep -E 'LD \[M\] .*\.ko$' /var/lib/dkms/antic/*/"$kver"/*/log/make.log | sed 's/^/   make.log: /'
		say ok "DKMS built and installed anticipatory.ko and hddsim.ko for $kver (vermagic $kver)"
		# kept for the boot below, past the purge
		mkdir -p /antic-test/ko/"$kver" && cp "$m1" "$m2" /antic-test/ko/"$kver"/
	else
		tail -n 20 /var/lib/dkms/antic/*/build/make.log 2>/dev/null
		say ko "DKMS for $kver: status '$st', modules '$m1' '$m2', vermagic '$vm1' '$vm2', modprobe '$dep'"
	fi
done
dpkg --purge antic-dkms >/antic-test/purge.log 2>&1 || { tail -n 20 /antic-test/purge.log; say ko "dpkg --purge antic-dkms failed"; exit 0; }
left=$(ls /lib/modules/*/updates/dkms/anticipatory.ko* /lib/modules/*/updates/dkms/hddsim.ko* 2>/dev/null; ls -d /var/lib/dkms/antic /usr/src/antic-* 2>/dev/null)
[ -z "$left" ] && say ok "dpkg --purge antic-dkms removed every module and source" ||
	say ko "dpkg --purge left: $left"
INSIDE
	mkdir -p "$ov/upper/antic-test"
	cp "$dkms_deb" "$ov/upper/antic-test/antic-dkms.deb"
	cp "$tmp/inside.sh" "$ov/upper/antic-test/inside.sh"
	# shellcheck disable=SC2086
	unshare --mount --propagation private sh -c '
		set -e
		ov=$1; shift
		mount -t overlay overlay -o "lowerdir=/,upperdir=$ov/upper,workdir=$ov/work" "$ov/root"
		mount -t proc proc "$ov/root/proc"
		mount --rbind /dev "$ov/root/dev"
		mount --rbind /sys "$ov/root/sys"
		mount -t tmpfs tmpfs "$ov/root/tmp"
		echo "@@ mounted"
		chroot "$ov/root" sh /antic-test/inside.sh /antic-test/antic-dkms.deb "$@"
	' sh "$ov" $kernels >"$tmp/ov.log" 2>&1
	grep -q '^@@ mounted' "$tmp/ov.log" || { cat "$tmp/ov.log"; return 1; }
	while IFS= read -r line; do
		case $line in
		"@@ ok "*) ok "${line#@@ ok }" ;;
		"@@ ko "*) ko "${line#@@ ko }" ;;
		"@@ mounted") ;;
		*) echo "$line" ;;
		esac
	done <"$tmp/ov.log"
	grep -q '^@@ ok dpkg --purge' "$tmp/ov.log" || ko "the chroot install did not run to its end"
}

# Elsewhere (no overlayfs or mount namespace): dkms add and build from
# the extracted package with private trees, a signing key under $tmp.
private_build() {
	dk=$tmp/dkms
	mkdir -p "$dk"
	export mok_signing_key="$dk/mok.key" mok_certificate="$dk/mok.pub"
	dkms_args="-m antic -v $upstream --dkmstree $dk --sourcetree $root/usr/src"
	# shellcheck disable=SC2086
	if dkms add $dkms_args >"$tmp/add.log" 2>&1; then
		ok "dkms add (private tree)"
	else
		cat "$tmp/add.log"
		ko "dkms add"
	fi
	for kver in $kernels; do
		t0=$(date +%s)
		# shellcheck disable=SC2086
		if dkms build $dkms_args -k "$kver" >"$tmp/build-$kver.log" 2>&1; then
			dt=$(($(date +%s) - t0))
			mods=$dk/antic/$upstream/$kver/$(uname -m)/module
			log=$dk/antic/$upstream/$kver/$(uname -m)/log/make.log
			# shellcheck disable=SC2086
			status=$(dkms status $dkms_args -k "$kver" 2>/dev/null)
			# compressed (.ko.xz) where the kernel's config says so, as on 6.12
			vm1=$(modinfo -F vermagic "$(ls "$mods"/anticipatory.ko* 2>/dev/null | head -n 1)" 2>/dev/null | cut -d' ' -f1)
			vm2=$(modinfo -F vermagic "$(ls "$mods"/hddsim.ko* 2>/dev/null | head -n 1)" 2>/dev/null | cut -d' ' -f1)
			if [ "$vm1" = "$kver" ] && [ "$vm2" = "$kver" ] && echo "$status" | grep -q ': built'; then
				echo "   $status"
				grep -E 'LD \[M\] .*\.ko$' "$log" | sed 's/^/   make.log: /'
				ok "DKMS built anticipatory.ko and hddsim.ko for $kver (vermagic $kver, $dt s)"
			else
				ko "DKMS for $kver: status '$status', vermagic '$vm1' '$vm2'"
			fi
		else
			tail -n 5 "$tmp/build-$kver.log"
			tail -n 15 "$dk/antic/$upstream/build/make.log" 2>/dev/null
			ko "dkms build for $kver failed (log above)"
		fi
	done
}

t0=$(date +%s)
if [ "${ANTIC_DEB_PRIVATE:-}" != 1 ] && overlay_install; then
	echo "(chroot install: $(($(date +%s) - t0)) s)"
else
	echo "note: no overlay chroot here (or ANTIC_DEB_PRIVATE=1): DKMS builds in a private tree instead"
	private_build
fi
# DKMS's modules booted: the VM tests' core (load, select, verify data on
# a virtio disk and on ext4, unload, null_blk, hddsim) on the first kernel
# both were built for, with the modules the package installed
boot_dkms() {
	kver=$1 kd=$2
	for m in anticipatory hddsim; do
		f=$(ls "$kd/$m".ko* 2>/dev/null | head -n 1)
		case $f in
		*.xz) xz -dc "$f" >"$tmp/$m.ko" ;;
		*.zst) zstd -qdc "$f" >"$tmp/$m.ko" ;;
		*) cp "$f" "$tmp/$m.ko" ;;
		esac || { ko "DKMS's $m.ko for $kver could not be read ($f)"; return; }
	done
	only="load select fio-verify ext4 unload null_blk hddsim-load hddsim-verify hddsim-unload"
	echo "ONLY=\"$only\"" >"$tmp/params"
	PARAMS=$tmp/params VM_KO=$tmp/anticipatory.ko VM_HDDSIM_KO=$tmp/hddsim.ko VM_CACHE=$tmp/vm \
		tests/vm/run.sh "$kver" >"$tmp/vm.log" 2>&1
	want=$(($(echo "$only" | wc -w) + 1))	# and dmesg-clean
	sed -n 's/^VMTEST /   /p' "$tmp/vm.log"
	if grep -q "^$want passed, 0 failed" "$tmp/vm.log" && grep -q "^vm: modules given: $tmp/anticipatory.ko" "$tmp/vm.log"; then
		ok "DKMS's modules pass the VM tests' core on $kver ($want checks)"
	else
		tail -n 20 "$tmp/vm.log"
		ko "DKMS's modules in a VM on $kver (log above; expected $want passed)"
	fi
}
booted=
command -v qemu-system-x86_64 >/dev/null ||
	{ echo "note: no qemu-system-x86_64 here: DKMS's modules not booted (not counted)"; booted=0; }
for kver in $kernels; do
	kd=$tmp/ov/upper/antic-test/ko/$kver
	[ -d "$kd" ] || kd=$tmp/dkms/antic/$upstream/$kver/$(uname -m)/module
	[ -n "$booted" ] || [ ! -d "$kd" ] || { boot_dkms "$kver" "$kd"; booted=1; }
done
[ -n "$booted" ] || ko "no DKMS-built modules to boot"
state >"$tmp/state.after"
if cmp -s "$tmp/state.before" "$tmp/state.after"; then
	ok "the machine's /var/lib/dkms, /usr/src, module trees and antic packages are unchanged"
else
	diff "$tmp/state.before" "$tmp/state.after" | head
	ko "the test changed the machine's state (above)"
fi
finish
