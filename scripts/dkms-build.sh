#!/usr/bin/env bash
# DKMS build step for bfq-ng (dkms.conf's MAKE), run in the DKMS build dir:
#   dkms-build.sh KERNELVER KERNEL_SOURCE_DIR
#   dkms-build.sh --clean
# bfq-ng needs the private block headers (block/*.h) of exactly the target
# kernel's source.  They are taken from the linux-source-X.Y package, which
# must be the same Debian version as the target kernel's headers package
# (LINUX_PACKAGE_ID in the headers' include/generated/package.h); anything
# else stops with the apt-get command that fixes it.
#   LINUX_SOURCE_TARBALL=path   use this tarball instead of the package's
set -euo pipefail

clean() {
	rm -rf kprivate ./*.o ./*.ko ./*.mod ./*.mod.c ./.*.cmd Module.symvers modules.order
}
fail() {
	echo "bfq-ng: $*" >&2
	exit 1
}
if [ "${1:-}" = --clean ]; then
	clean
	exit 0
fi
[ $# = 2 ] || fail "usage: $0 KERNELVER KERNEL_SOURCE_DIR | --clean"
kver=$1 kdir=$2
[ -f "$kdir/Makefile" ] || fail "no kernel headers for $kver in $kdir: apt-get install linux-headers-$kver"

series=$(sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p' <<<"$kver")
[ -n "$series" ] || fail "cannot tell the kernel series of '$kver'"
src_pkg=linux-source-$series
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/$src_pkg.tar.xz}

# The Debian version of the target kernel, e.g. 6.12.118-1~deb12u1.
want=$(sed -n 's/^#define LINUX_PACKAGE_ID " *Debian \(.*\)"$/\1/p' \
	"$kdir/include/generated/package.h" 2>/dev/null || true)
[ -n "$want" ] || fail "$kdir is not a Debian kernel's headers (no LINUX_PACKAGE_ID): bfq-ng builds only for Debian's kernels"

if [ -z "${LINUX_SOURCE_TARBALL:-}" ]; then
	have=$(dpkg-query -W -f='${Status} ${Version}' "$src_pkg" 2>/dev/null || true)
	case $have in
	"install ok installed $want") ;;
	"install ok installed "*)
		fail "$src_pkg ${have##* } is installed, but $kver needs $want's private block headers: apt-get install $src_pkg=$want" ;;
	*) fail "$kver needs its private block headers from $src_pkg: apt-get install $src_pkg=$want" ;;
	esac
fi
[ -r "$tarball" ] || fail "$tarball missing: apt-get install --reinstall $src_pkg=$want"

rm -rf kprivate
mkdir -p kprivate
tar -xJf "$tarball" -C kprivate --strip-components=1 --wildcards \
	--exclude='*/bfq-*' "$src_pkg/Makefile" "$src_pkg/block/*.h"
# The tarball's own version must be the kernel's upstream version too.
sub=$(sed -n 's/^SUBLEVEL = //p' kprivate/Makefile)
[ "$series.$sub" = "${want%%-*}" ] ||
	fail "$tarball is Linux $series.$sub, $kver is ${want%%-*}: apt-get install $src_pkg=$want"
make -C "$kdir" M="$PWD" KPRIV="$PWD/kprivate" modules
