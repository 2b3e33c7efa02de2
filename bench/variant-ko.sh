#!/bin/sh
# Builds the scheduler of another revision as a module of its own name, so
# that one boot can compare it with today's in alternating rounds (the
# cost runs, or any vmbench run) instead of two boots on a drifting host:
#   bench/variant-ko.sh REV NAME KVER   ->  kernel/build/NAME-KVER.ko
# The variant registers as elevator NAME; give it to bench/vmbench.sh as
#   VM_EXTRA_KO=kernel/build/NAME-KVER.ko SCHEDS="... anticipatory NAME"
set -eu
[ $# -eq 3 ] || { echo "usage: variant-ko.sh REV NAME KVER" >&2; exit 2; }
rev=$1 name=$2 kver=$3
# not a name the kernel or this project already uses for a scheduler or module
case $name in
*[!a-z0-9_]* | "" | anticipatory | as | hddsim | none | bfq | kyber | deadline | noop)
	echo "variant-ko: NAME must be [a-z0-9_]+ and not a scheduler's or module's name" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/variant/$name
rm -rf "$src" && mkdir -p "$src"
git -C "$top" archive "$rev" kernel core | tar -x -C "$src"
# the elevator's name and alias, the module's file name
sed -i -e "s/^#define ANTIC_AS_NAME .*/#define ANTIC_AS_NAME \"$name\"/" \
	-e "s/^#define ANTIC_AS_ALIAS .*/#define ANTIC_AS_ALIAS \"$name\"/" "$src/core/sched.h"
sed -i -e "s/^obj-m := anticipatory.o/obj-m := $name.o/" \
	-e "s/^anticipatory-y :=/$name-y :=/" "$src/kernel/Kbuild"
sed -i -e "s|\$(OUT)/anticipatory.ko\" \"\$(CURDIR)/build/anticipatory-|\$(OUT)/$name.ko\" \"\$(CURDIR)/build/$name-|" \
	"$src/kernel/Makefile"
grep -q "^obj-m := $name.o" "$src/kernel/Kbuild" && grep -q "/$name.ko" "$src/kernel/Makefile" ||
	{ echo "variant-ko: $rev's kernel/Kbuild or Makefile is not the shape this script renames" >&2; exit 1; }
make -s -C "$src/kernel" KVER="$kver" >"$src/build.log" 2>&1 ||
	{ cat "$src/build.log" >&2; echo "variant-ko: build of $rev failed" >&2; exit 1; }
mkdir -p "$top/kernel/build"
cp "$src/kernel/build/$name-$kver.ko" "$top/kernel/build/$name-$kver.ko"
echo "$top/kernel/build/$name-$kver.ko"
