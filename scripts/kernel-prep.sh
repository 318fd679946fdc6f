#!/usr/bin/env bash
# Unpack the pinned kernel headers (from the Debian .debs) and the private
# block-layer headers (from linux-source-6.12) into the cache.  Idempotent:
# each step leaves a stamp and is skipped when its stamp exists.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

if [ ! -e "$KHDR_ROOT/.done" ]; then
	echo "kernel-prep: unpacking $KHDR_PKG into $KHDR_ROOT"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q \
		"$KHDR_PKG=$KPKGVER" "$KHDR_COMMON_PKG=$KPKGVER" "$KBUILD_PKG=$KPKGVER" \
		>/dev/null 2>&1) || {
		apt-get update -q >/dev/null
		(cd "$tmp" && apt-get download -q \
			"$KHDR_PKG=$KPKGVER" "$KHDR_COMMON_PKG=$KPKGVER" "$KBUILD_PKG=$KPKGVER")
	}
	rm -rf "$KHDR_ROOT"
	mkdir -p "$KHDR_ROOT"
	for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$KHDR_ROOT"; done
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s#^include /usr/src/#include $KHDR_ROOT/usr/src/#" \
		"$KDIR_DEFAULT/Makefile"
	touch "$KHDR_ROOT/.done"
fi

if [ ! -e "$KPRIV_DIR/.done" ]; then
	[ -r "$KSRC_TARBALL" ] || {
		echo "kernel-prep: $KSRC_TARBALL missing: run 'make deps'" >&2
		exit 1
	}
	echo "kernel-prep: extracting private block headers into $KPRIV_DIR"
	rm -rf "$KPRIV_DIR"
	mkdir -p "$KPRIV_DIR"
	tar -xJf "$KSRC_TARBALL" -C "$KPRIV_DIR" --strip-components=1 \
		--wildcards --exclude='*/bfq-*' 'linux-source-6.12/block/*.h'
	touch "$KPRIV_DIR/.done"
fi
