#!/bin/bash
# timeout: 600
# Host side, no VM: dkms.conf accepts Debian 12's 6.12 kernels only, and its
# build step (scripts/dkms-build.sh) builds bfq-ng.ko from the DKMS source
# tree with the private headers of the matching linux-source, or names the
# package to install when it cannot.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TOP/scripts/config.sh"

excl=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"/\1/p' "$BFQNG_TOP/dkms.conf")
bad=
for k in "$KVER" 6.12.57+deb12-amd64 6.12.118+deb12-cloud-amd64 6.12.9+bpo-amd64; do
	[[ $k =~ $excl ]] || bad+=" $k"
done
check_eq "BUILD_EXCLUSIVE_KERNEL accepts Debian 12's 6.12 kernels (rejected)" "${bad:-none}" none
bad=
for k in 6.1.0-28-amd64 6.12.118-generic 6.13.2+deb12-amd64 6.12.38+deb13-amd64 6.12.118; do
	[[ $k =~ $excl ]] && bad+=" $k"
done
check_eq "BUILD_EXCLUSIVE_KERNEL rejects other kernels (accepted)" "${bad:-none}" none

tmp=$(mktemp -d)
at_exit rm -rf "$tmp"
make -C "$BFQNG_TOP" --no-print-directory dkms-src DESTDIR="$tmp" >/dev/null 2>&1 || die "make dkms-src failed"
src=$(echo "$tmp"/usr/src/bfq-ng-*)
cd "$src" || die "no DKMS source tree"
log=$BFQNG_OUT/h11-dkms-build.log
if bash scripts/dkms-build.sh "$KVER" "$KDIR_DEFAULT" >"$log" 2>&1 && [ -f bfq-ng.ko ]; then
	tap_ok "the DKMS build step builds bfq-ng.ko for $KVER"
else
	tap_fail "the DKMS build step builds bfq-ng.ko for $KVER" "see $log: $(tail -n 2 "$log" | paste -sd' ')"
fi
check_eq "the private headers come from linux-source (kprivate/block/blk-mq.h)" \
	"$([ -f kprivate/block/blk-mq.h ] && echo present)" present
bash scripts/dkms-build.sh --clean
check_eq "the CLEAN step removes the build products" "$(ls ./*.ko kprivate 2>/dev/null | paste -sd' ')" ""

msg=$(LINUX_SOURCE_TARBALL=/nonexistent/linux-source.tar.xz bash scripts/dkms-build.sh "$KVER" "$KDIR_DEFAULT" 2>&1)
rc=$?
if [ $rc != 0 ] && [[ $msg == *"apt-get install"*"$KSRC_PKG=$KPKGVER"* ]]; then
	tap_ok "without linux-source the build step fails and names the package ($msg)"
else
	tap_fail "without linux-source the build step fails and names the package" "rc $rc, said '$msg'"
fi
msg=$(bash scripts/dkms-build.sh 6.12.118+deb12-amd64 "$tmp/no-headers" 2>&1)
rc=$?
if [ $rc != 0 ] && [[ $msg == *"linux-headers-6.12.118+deb12-amd64"* ]]; then
	tap_ok "without kernel headers the build step fails and names the package"
else
	tap_fail "without kernel headers the build step fails and names the package" "rc $rc, said '$msg'"
fi
