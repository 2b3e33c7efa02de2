#!/bin/sh
# Runs a command inside the chroot setup.sh built (kernel/chroot.conf),
# with this source tree mounted at /antic and the host's /proc (objtool
# reads it). As root through a private mount
# namespace; otherwise through a user namespace that maps the caller to
# root, so that `make check` needs no sudo once setup.sh has run.
# Usage: in-chroot.sh COMMAND [ARG...]   (run from anywhere in the tree)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/chroot.conf"
[ -f "$ANTIC_CHROOT/.antic-ready" ] ||
	{ echo "in-chroot: no build chroot at $ANTIC_CHROOT; run 'sudo ./setup.sh'" >&2; exit 1; }
[ -d "$ANTIC_CHROOT/antic" ] ||
	{ echo "in-chroot: $ANTIC_CHROOT/antic (the mount point) is missing; run 'sudo ./setup.sh'" >&2; exit 1; }
# the user namespace is needed only without root
ns=-m
[ "$(id -u)" -eq 0 ] || ns=-rm
unshare $ns true 2>/dev/null || { echo "in-chroot: cannot create a namespace (unshare $ns);" \
	"unprivileged user namespaces may be off here: build as root, or allow them" >&2; exit 1; }
# shellcheck disable=SC2016 # expanded by the inner shell
exec unshare $ns sh -c 'mount --bind "$1" "$0/antic" && mount --rbind /proc "$0/proc" && shift && exec chroot "$0" "$@"' \
	"$ANTIC_CHROOT" "$top" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 "$@"
