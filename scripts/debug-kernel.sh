#!/usr/bin/env bash
# Build the bfq-ng debug-lane kernel (KASAN, lockdep, UBSAN, kmemleak, KUnit,
# fault injection) from the pinned linux-source-6.12 tarball, in the cache:
#   $BFQNG_CACHE/debug-kernel/src/          the built tree: KDIR for out-of-tree
#                                           modules (.config, Module.symvers)
#   $BFQNG_CACHE/debug-kernel/bzImage       the kernel
#   $BFQNG_CACHE/debug-kernel/initrd.img    a tiny initramfs carrying the
#                                           kernel's modules (see below)
#   $BFQNG_CACHE/debug-kernel/kver          its `uname -r`
#   $BFQNG_CACHE/debug-kernel/stamp         sha256 of the fragment, this
#                                           script, the source version and gcc
# The config is x86_64 defconfig + kvm_guest.config + scripts/debug-kernel.config.
# Everything the guest needs to reach its root and the 9p share is built in;
# the rest (null_blk, scsi_debug, bfq, kyber) are modules.  The guest image
# (tests/vm/build-image.sh) only has the stock kernel's modules, so the
# initramfs carries this kernel's /lib/modules/$kver, and its /init
# (tests/vm/debug-init.c, static) mounts /dev/vda, bind-mounts the modules
# into it and switches to /sbin/bfqng-init as the stock boot does.
# Rebuilt only when the stamp changes; the kernel build itself is incremental.
# Usage: debug-kernel.sh [--force] [--print-kdir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/config.sh"

DK=$BFQNG_CACHE/debug-kernel
SRC=$DK/src
FRAG=$here/debug-kernel.config
INIT_C=$top/tests/vm/debug-init.c
JOBS=${DEBUG_KERNEL_JOBS:-$(nproc)}

if [ "${1:-}" = --print-kdir ]; then
	echo "$SRC"
	exit 0
fi

want=$({
	cat "$FRAG" "$0" "$INIT_C"
	echo "$KPKGVER $KSRC_TARBALL"
	gcc --version | head -n 1
} | sha256sum | cut -d' ' -f1)

is_current() {
	[ -s "$DK/bzImage" ] && [ -s "$DK/initrd.img" ] && [ -s "$SRC/Module.symvers" ] &&
		[ "$(cat "$DK/stamp" 2>/dev/null)" = "$want" ]
}
if [ "${1:-}" != --force ] && is_current; then
	echo "debug-kernel: up to date ($DK, $(cat "$DK/kver"))"
	exit 0
fi

mkdir -p "$DK"
exec 9>"$DK/.lock"
if ! flock -n 9; then
	echo "debug-kernel: another build is running; waiting for it"
	flock 9
	is_current && { echo "debug-kernel: up to date"; exit 0; }
fi

t0=$(date +%s)
log() { echo "debug-kernel: [$(($(date +%s) - t0))s] $*"; }
low=(nice -n 19)
command -v ionice >/dev/null && low+=(ionice -c3)

# --- source ---------------------------------------------------------------
if [ ! -e "$SRC/.extracted" ] || [ "$(cat "$SRC/.extracted")" != "$KPKGVER" ]; then
	[ -r "$KSRC_TARBALL" ] || { echo "debug-kernel: $KSRC_TARBALL missing: run 'make deps'" >&2; exit 1; }
	log "extracting $KSRC_TARBALL"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	"${low[@]}" tar -xJf "$KSRC_TARBALL" -C "$SRC.tmp" --strip-components=1
	echo "$KPKGVER" >"$SRC.tmp/.extracted"
	mv "$SRC.tmp" "$SRC"
fi

# --- config ---------------------------------------------------------------
# Built from scratch each time into .config.new; .config is replaced only when
# the result differs, so an unchanged config rebuilds nothing.
log "configuring"
(
	cd "$SRC"
	new=.config.bfqng-new
	rm -f "$new"
	make -s KCONFIG_CONFIG="$new" defconfig >/dev/null
	make -s KCONFIG_CONFIG="$new" kvm_guest.config >/dev/null
	KCONFIG_CONFIG="$new" scripts/kconfig/merge_config.sh -m "$new" "$FRAG" >"$DK/merge.log" 2>&1 ||
		{ cat "$DK/merge.log" >&2; exit 1; }
	make -s KCONFIG_CONFIG="$new" olddefconfig >/dev/null
	# Every y/m/string the fragment asks for must have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$new" || {
				echo "debug-kernel: config: wanted '$line', got '$(grep "^${line%%=*}=" "$new" || echo "${line%%=*} unset")'" >&2
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			if grep -q "^$sym=" "$new"; then
				echo "debug-kernel: config: note: $sym stays enabled (selected by another option, or not user-settable without EXPERT)" >&2
			fi ;;
		esac
	done <"$FRAG"
	[ $bad = 0 ] || exit 1
	if ! cmp -s "$new" .config; then
		mv "$new" .config
		log "config changed"
	fi
	rm -f "$new" "$new.old"
)

# --- build ----------------------------------------------------------------
log "building bzImage + modules with -j$JOBS (niced; a cold build takes ~30 min)"
"${low[@]}" make -C "$SRC" -j"$JOBS" -s bzImage modules >"$DK/build.log" 2>&1 ||
	{ tail -n 40 "$DK/build.log" >&2; log "FAILED (full log: $DK/build.log)"; exit 1; }
kver=$(make -s -C "$SRC" kernelrelease)
log "built $kver"

# --- initramfs: static /init + this kernel's modules ------------------------
stage=$(mktemp -d "$DK/.initrd.XXXXXX")
trap 'rm -rf "$stage"' EXIT
"${low[@]}" make -C "$SRC" -s modules_install INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 >/dev/null
rm -f "$stage/lib/modules/$kver/build" "$stage/lib/modules/$kver/source"
gcc -static -Os -Wall -o "$stage/init" "$INIT_C"
mkdir -p "$stage/dev" "$stage/root" "$stage/proc"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1) \
	>"$DK/initrd.img.tmp"
mv "$DK/initrd.img.tmp" "$DK/initrd.img"
cp "$SRC/arch/x86/boot/bzImage" "$DK/bzImage"
echo "$kver" >"$DK/kver"
echo "$want" >"$DK/stamp"
log "done: $DK/bzImage, $DK/initrd.img ($(du -h "$DK/initrd.img" | cut -f1)), KDIR=$SRC"
