#!/usr/bin/env bash
# Build (or refresh) the bfq-ng test VM guest image in $BFQNG_CACHE/guest/:
#   rootfs.img  ext4, 2 GiB sparse: Debian 12 minbase + fio, blktrace, trace-cmd,
#               jq and the pinned kernel's modules
#   vmlinuz, initrd.img  the pinned kernel and its initramfs, taken out of the guest
#   stamp       sha256 of the recipe; the image is rebuilt when it changes
# The kernel package is installed only inside the guest rootfs, never on the
# host.  Idempotent, non-interactive, safe to interrupt: everything is built in
# a temp dir inside a private mount namespace and renamed into place at the end.
# Usage: build-image.sh [--force]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/config.sh"

MIRROR=${BFQNG_MIRROR:-http://deb.debian.org/debian}
SECMIRROR=${BFQNG_SECMIRROR:-http://deb.debian.org/debian-security}
SUITE=bookworm
IMG_SIZE=2G
GUEST_PKGS=(bash coreutils util-linux fio kmod procps gawk e2fsprogs sed grep
	findutils blktrace trace-cmd jq less strace psmisc)
# Modules the initramfs needs to reach the root fs (MODULES=list keeps the
# initramfs small, which matters for boot time under TCG).
INITRD_MODULES=(virtio_pci virtio_blk ext4 crc32c_generic)
# Module dirs (under /lib/modules/$KVER/kernel) kept in the guest.
KEEP_MODULE_DIRS=(arch block crypto fs lib mm kernel security virt net/9p
	drivers/block drivers/scsi drivers/md drivers/virtio drivers/nvme drivers/ata
	drivers/char drivers/cdrom drivers/acpi drivers/base drivers/target)

guest=$BFQNG_CACHE/guest
recipe_hash() {
	{
		cat "$here/build-image.sh" "$here/bfqng-init"
		echo "$KVER $KPKGVER $KIMAGE_PKG $MIRROR $SECMIRROR $IMG_SIZE"
	} | sha256sum | cut -d' ' -f1
}
want=$(recipe_hash)

force=0
[ "${1:-}" = --force ] && force=1
is_current() {
	[ -s "$guest/rootfs.img" ] && [ -s "$guest/vmlinuz" ] && [ -s "$guest/initrd.img" ] &&
		[ "$(cat "$guest/stamp" 2>/dev/null)" = "$want" ]
}
if [ $force = 0 ] && is_current; then
	echo "image: up to date ($guest)"
	exit 0
fi

[ "$(id -u)" = 0 ] || { echo "image: must run as root (debootstrap, chroot)" >&2; exit 1; }

# Re-exec in a private mount namespace: every mount made for the chroot dies
# with the process, whatever way it ends.
if [ -z "${BFQNG_IMG_NS:-}" ]; then
	mkdir -p "$BFQNG_CACHE"
	exec 9>"$BFQNG_CACHE/.image.lock"
	if ! flock -n 9; then
		echo "image: another build is running; waiting for it"
		flock 9
		is_current && [ $force = 0 ] && { echo "image: up to date ($guest)"; exit 0; }
	fi
	export BFQNG_IMG_NS=1
	exec unshare --mount --propagation private "$0" "$@"
fi

t0=$(date +%s)
log() { echo "image: [$(($(date +%s) - t0))s] $*"; }
mkdir -p "$BFQNG_CACHE/debs/debootstrap" "$BFQNG_CACHE/debs/apt"
work=$(mktemp -d "$BFQNG_CACHE/.guest-build.XXXXXX")
root=$work/rootfs
# Long steps run in the background so that a signal is acted on at once.
child=
bg() {
	"$@" &
	child=$!
	wait "$child"
	local rc=$?
	child=
	return $rc
}
cleanup() {
	local rc=$?
	set +e
	if [ -n "$child" ]; then
		pkill -TERM -P "$child" 2>/dev/null
		kill "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	# Unmount (deepest first) before deleting, and never cross file systems.
	if [ -d "$root" ]; then
		findmnt -rn -o TARGET | grep -F "$root" | sort -r | while read -r mp; do
			umount -l "$mp" 2>/dev/null || true
		done
	fi
	rm -rf --one-file-system "$work"
	[ $rc = 0 ] || echo "image: build FAILED (rc=$rc)" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

log "debootstrap $SUITE (minbase) from $MIRROR into $root"
# The deb cache speeds up rebuilds; debootstrap never needs the network twice.
bg debootstrap --variant=minbase --cache-dir="$BFQNG_CACHE/debs/debootstrap" \
	"$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
	tail -n 30 "$work/debootstrap.log" >&2
	exit 1
}

log "configuring chroot"
cat >"$root/etc/apt/sources.list" <<EOT
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECMIRROR $SUITE-security main
EOT
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
cat >"$root/etc/dpkg/dpkg.cfg.d/01-bfqng-nodoc" <<'EOT'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
EOT
mkdir -p "$root/etc/initramfs-tools/conf.d"
printf 'MODULES=list\nCOMPRESS=zstd\n' >"$root/etc/initramfs-tools/conf.d/bfqng.conf"
printf '%s\n' "${INITRD_MODULES[@]}" >>"$root/etc/initramfs-tools/modules"
echo bfqng-vm >"$root/etc/hostname"
: >"$root/etc/fstab"
printf 'do_symlinks = no\n' >"$root/etc/kernel-img.conf"

mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
mount --bind "$BFQNG_CACHE/debs/apt" "$root/var/cache/apt/archives"
mkdir -p "$root/var/cache/apt/archives/partial"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }
log "apt-get install ${GUEST_PKGS[*]} $KIMAGE_PKG=$KPKGVER"
apt_install() {
	in_root apt-get update -q &&
		in_root apt-get install -y -q --no-install-recommends \
			-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
			"${GUEST_PKGS[@]}" "$KIMAGE_PKG=$KPKGVER"
}
bg apt_install >"$work/apt.log" 2>&1 || {
	tail -n 40 "$work/apt.log" >&2
	exit 1
}
[ -s "$root/boot/vmlinuz-$KVER" ] && [ -s "$root/boot/initrd.img-$KVER" ] || {
	echo "image: kernel or initramfs missing in the guest /boot" >&2
	tail -n 40 "$work/apt.log" >&2
	exit 1
}

log "trimming the module tree, decompressing what is kept"
# Keep only the module dirs a block-layer test VM can need, uncompressed: the
# guest runs depmod at every boot (to pick up the freshly built .ko files), and
# over the full, xz-compressed tree that takes ~20 s under TCG.
mods=$root/lib/modules/$KVER/kernel
keep=$root/lib/modules/$KVER/kernel.keep
for d in "${KEEP_MODULE_DIRS[@]}"; do
	[ -d "$mods/$d" ] || continue
	mkdir -p "$keep/$(dirname "$d")"
	mv "$mods/$d" "$keep/$d"
done
rm -rf "$mods"
mv "$keep" "$mods"
find "$mods" -name '*.ko.xz' -print0 | xargs -0 -r -n 64 -P "$(nproc)" xz -d
mkdir -p "$root/lib/modules/$KVER/extra"
in_root depmod -a "$KVER"
log "kept $(find "$mods" -name '*.ko' | wc -l) modules"
in_root apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/*
install -m 0755 "$here/bfqng-init" "$root/sbin/bfqng-init"
mkdir -p "$root/mnt/run" "$root/mnt/host"
# root without password on the (unused) getty, for manual debugging.
sed -i 's/^root:[^:]*:/root::/' "$root/etc/shadow"

out=$work/out
mkdir -p "$out"
cp "$root/boot/vmlinuz-$KVER" "$out/vmlinuz"
cp "$root/boot/initrd.img-$KVER" "$out/initrd.img"
chmod 0644 "$out/vmlinuz" "$out/initrd.img"

log "unmounting chroot file systems"
for mp in var/cache/apt/archives tmp dev sys proc; do umount "$root/$mp"; done

log "mke2fs -t ext4 -d rootfs ($IMG_SIZE sparse)"
bg mke2fs -q -F -t ext4 -L bfqng-root -E root_owner=0:0 -d "$root" "$out/rootfs.img" "$IMG_SIZE"
echo "$KVER" >"$out/kver"
echo "$want" >"$out/stamp"

# Swap the new image in; a VM still running from the old one keeps its inode.
rm -rf "$guest.old"
[ -d "$guest" ] && mv "$guest" "$guest.old"
mv "$out" "$guest"
rm -rf "$guest.old"
log "done: $guest ($(du -sh --apparent-size "$guest/rootfs.img" | cut -f1) apparent, $(du -sh "$guest/rootfs.img" | cut -f1) used)"
