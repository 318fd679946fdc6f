#!/usr/bin/env bash
# Install, idempotently and non-interactively, every Debian package the host
# needs, then fetch the pinned kernel headers into the cache.
#
# The pinned linux-headers package depends on the matching linux-image, and the
# kernel image must never be installed on the host (it would touch the host's
# boot setup), so the headers are downloaded and unpacked into the cache
# instead of installed.  linux-source-6.12 is installed (it is only a tarball).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

host_pkgs=(
	build-essential gcc-12 make bc flex bison libelf-dev libssl-dev dwarves kmod cpio
	xz-utils zstd rsync sparse "$KSRC_PKG=$KPKGVER"
	qemu-system-x86 qemu-utils debootstrap e2fsprogs
	gnuplot-nox ca-certificates
)

missing=()
for p in "${host_pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed "*)
		[ "$name" = "$p" ] || [ "${have##* }" = "$want" ] || missing+=("$p") ;;
	*) missing+=("$p") ;;
	esac
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

if dpkg-query -W -f='${Status}' "$KIMAGE_PKG" 2>/dev/null | grep -q 'ok installed'; then
	echo "deps: note: $KIMAGE_PKG is installed on this host; bfq-ng does not need it here" >&2
fi

"$here/kernel-prep.sh"
