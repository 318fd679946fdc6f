#!/usr/bin/env bash
# `make check-dkms`: DKMS end to end, without touching the host's kernel.
#  1. A copy of the guest image gets dkms, gcc, the pinned kernel's headers
#     and linux-source-6.12 from Debian's mirror (once; cached as
#     $BFQNG_CACHE/dkms/base.img, rebuilt when the guest image changes).
#  2. In a chroot of a fresh copy of it: make dkms-src, then dkms add, build
#     and install for the pinned kernel.
#  3. The VM boots that image (no .ko shipped by the harness) and runs
#     tests/dkms/guest-dkms.sh: modprobe and selection work with the DKMS
#     module, and dkms remove takes it away again.
# Prints TAP and "N passed, N failed".  Needs root and loop devices; the
# chroot's mounts live in a private mount namespace.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/config.sh"
out=$top/tests/out/dkms
mkdir -p "$out"
cache=$BFQNG_CACHE/dkms
guest=$BFQNG_CACHE/guest
PKGS=(dkms gcc-12 make xz-utils "linux-headers-$KVER=$KPKGVER" "$KSRC_PKG=$KPKGVER")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")

# ------------------------------------------------------ inside the namespace
if [ "${1:-}" = --in-ns ]; then
	set -e
	img=$2 step=$3
	mnt=$(mktemp -d "$cache/mnt.XXXXXX")
	trap 'rmdir "$mnt" 2>/dev/null' EXIT	# the namespace takes the mounts with it
	mount -o loop "$img" "$mnt"
	mount -t proc proc "$mnt/proc"
	mount -t sysfs sysfs "$mnt/sys"
	mount --bind /dev "$mnt/dev"
	mount -t tmpfs tmpfs "$mnt/tmp"
	mkdir -p "$BFQNG_CACHE/debs/apt"
	mount --bind "$BFQNG_CACHE/debs/apt" "$mnt/var/cache/apt/archives"
	in_root() { chroot "$mnt" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }
	case $step in
	packages)
		cp /etc/resolv.conf "$mnt/etc/resolv.conf"
		in_root apt-get update -q
		in_root apt-get install -y -q --no-install-recommends "${PKGS[@]}"
		in_root apt-get clean
		rm -rf "$mnt"/var/lib/apt/lists/* ;;
	dkms)
		make -C "$top" --no-print-directory dkms-src DESTDIR="$mnt"
		in_root dkms add "bfq-ng/$ver"
		in_root dkms build "bfq-ng/$ver" -k "$KVER" ||
			{ cat "$mnt/var/lib/dkms/bfq-ng/$ver/build/make.log" >&2; exit 1; }
		in_root dkms install "bfq-ng/$ver" -k "$KVER"
		in_root dkms status ;;
	esac
	umount "$mnt/var/cache/apt/archives" "$mnt/tmp" "$mnt/dev" "$mnt/sys" "$mnt/proc"
	umount "$mnt"
	exit 0
fi

# -------------------------------------------------------------- the host side
source "$top/tests/lib.sh"
[ "$(id -u)" = 0 ] || { tap_fail "check-dkms" "must run as root (loop mount, chroot)"; echo "0 passed, 1 failed"; exit 1; }
export BFQNG_OUT=$out
{
	mkdir -p "$cache"
	exec 9>"$cache/.lock"
	flock 9
	want="$(cat "$guest/stamp" 2>/dev/null) ${PKGS[*]}"
	if [ "$(cat "$cache/base.stamp" 2>/dev/null)" != "$want" ]; then
		diag "building $cache/base.img: the guest image plus ${PKGS[*]} (downloads ~250 MB once)"
		rm -f "$cache/base.img" "$cache/base.stamp"
		cp --sparse=always "$guest/rootfs.img" "$cache/base.tmp" &&
			truncate -s 4G "$cache/base.tmp" &&
			e2fsck -f -y "$cache/base.tmp" >/dev/null 2>&1
		resize2fs "$cache/base.tmp" >/dev/null 2>&1 &&
			unshare --mount --propagation private "$0" --in-ns "$cache/base.tmp" packages \
				>"$out/packages.log" 2>&1 &&
			mv "$cache/base.tmp" "$cache/base.img" && echo "$want" >"$cache/base.stamp"
	fi
	if [ -s "$cache/base.img" ]; then
		tap_ok "a copy of the guest image has dkms, gcc, linux-headers-$KVER and $KSRC_PKG"
	else
		tap_fail "a copy of the guest image has dkms, gcc, linux-headers-$KVER and $KSRC_PKG" \
			"see $out/packages.log: $(tail -n 3 "$out/packages.log" | paste -sd' ')"
		exit 1
	fi

	cp --sparse=always "$cache/base.img" "$cache/run.img"
	if unshare --mount --propagation private "$0" --in-ns "$cache/run.img" dkms >"$out/dkms.log" 2>&1; then
		tap_ok "dkms add, build and install bfq-ng/$ver for $KVER in a chroot of it"
	else
		tap_fail "dkms add, build and install bfq-ng/$ver for $KVER in a chroot of it" \
			"see $out/dkms.log: $(tail -n 3 "$out/dkms.log" | paste -sd' ')"
		exit 1
	fi
	diag "dkms status: $(grep -E '^bfq-ng/' "$out/dkms.log")"

	empty=$(mktemp -d)
	VM_ROOTFS=$cache/run.img VM_MODULES=$empty VM_OUT=$out/vm VM_TIMEOUT=900 \
		VM_PASS_ENV=DKMS_VERSION DKMS_VERSION=$ver \
		"$top/tests/vm/run-vm.sh" "$here/guest-dkms.sh"
	rc=$?
	rmdir "$empty"
	[ $rc = 0 ] || tap_fail "the VM run with the DKMS image" "run-vm exit $rc (see $out/vm/console.log)"
} 2>&1 | tee "$out/tap"
rm -f "$cache/run.img"
pass=$(grep -c '^ok' "$out/tap")
fail=$(grep -c '^not ok' "$out/tap")
echo "$pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
