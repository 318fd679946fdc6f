# shellcheck shell=bash
# Pinned versions and cache locations shared by every build and test script.
# Sourced, never run.
KVER=6.12.118+deb12-amd64
KPKGVER=6.12.118-1~deb12u1
KBUILD_PKG=linux-kbuild-6.12.118+deb12
KHDR_PKG=linux-headers-$KVER
KHDR_COMMON_PKG=linux-headers-6.12.118+deb12-common
KIMAGE_PKG=linux-image-$KVER-unsigned
KSRC_PKG=linux-source-6.12
KSRC_TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# Everything built or downloaded lives here, outside the repository.
BFQNG_CACHE=${BFQNG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bfq-ng}
KHDR_ROOT=$BFQNG_CACHE/kheaders/$KPKGVER
KDIR_DEFAULT=$KHDR_ROOT/usr/src/linux-headers-$KVER
KPRIV_DIR=$BFQNG_CACHE/kprivate/$KPKGVER
