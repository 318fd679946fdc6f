#!/bin/bash
# timeout: 600
# Host side, no VM: `make install DESTDIR=` puts bfq-ng.ko in
# lib/modules/KVER/updates and runs depmod there (the alias resolves);
# install-extras adds bfq-ng-top and the udev rule, install-compat the
# drop-in mode's modprobe.d file; uninstall removes all four; dkms-src lays
# out the DKMS tree.  Only DESTDIR is written.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TOP/scripts/config.sh"

tmp=$(mktemp -d)
at_exit rm -rf "$tmp"
mk() { make -C "$BFQNG_TOP" --no-print-directory "$@" >>"$BFQNG_OUT/h10-make.log" 2>&1; }
mods=$tmp/lib/modules/$KVER

mk modules || die "make modules failed (see $BFQNG_OUT/h10-make.log)"
mk install DESTDIR="$tmp" || die "make install DESTDIR=$tmp failed (see $BFQNG_OUT/h10-make.log)"
check_eq "make install puts the module in lib/modules/KVER/updates" \
	"$([ -f "$mods/updates/bfq-ng.ko" ] && echo present || echo missing)" present
check_eq "the installed module is built for the pinned kernel (vermagic)" \
	"$(modinfo -F vermagic "$mods/updates/bfq-ng.ko" | cut -d' ' -f1)" "$KVER"
check_eq "depmod ran in DESTDIR: modules.dep lists the module" \
	"$(grep -c '^updates/bfq-ng.ko:' "$mods/modules.dep" 2>/dev/null)" 1
check_eq "the elevator alias resolves (modprobe -d DESTDIR -R bfq-ng-iosched)" \
	"$(modprobe -d "$tmp" -S "$KVER" -R bfq-ng-iosched 2>&1)" bfq_ng
check_eq "nothing is written outside lib/modules/KVER" \
	"$(cd "$tmp" && find . -type f ! -path "./lib/modules/$KVER/*" | head -n 3 | paste -sd' ')" ""

mk install-extras DESTDIR="$tmp" PREFIX=/usr || die "make install-extras failed"
check_eq "install-extras installs bfq-ng-top executable" \
	"$(stat -c %a "$tmp/usr/sbin/bfq-ng-top" 2>/dev/null)" 755
check_eq "install-extras installs the udev rule" \
	"$(cmp -s "$BFQNG_TOP/udev/60-bfq-ng.rules" "$tmp/etc/udev/rules.d/60-bfq-ng.rules" && echo same)" same

mk install-compat DESTDIR="$tmp" || die "make install-compat failed"
check_eq "install-compat installs the drop-in mode's modprobe.d file" \
	"$(cmp -s "$BFQNG_TOP/etc/modprobe.d/bfq-ng-compat.conf" "$tmp/etc/modprobe.d/bfq-ng-compat.conf" && echo same)" same
check_eq "with it, bfq-iosched resolves to bfq-ng (modprobe -d DESTDIR -R)" \
	"$(modprobe -C "$tmp/etc/modprobe.d" -d "$tmp" -S "$KVER" -R bfq-iosched 2>&1)" bfq_ng

mk uninstall DESTDIR="$tmp" PREFIX=/usr || die "make uninstall failed"
check_eq "make uninstall removes the module, the tool, the rule and the modprobe.d file" \
	"$(cd "$tmp" && ls "lib/modules/$KVER/updates/bfq-ng.ko" usr/sbin/bfq-ng-top \
		etc/udev/rules.d/60-bfq-ng.rules etc/modprobe.d/bfq-ng-compat.conf 2>/dev/null | paste -sd' ')" ""
check_eq "make uninstall reruns depmod: modules.dep no longer lists it" \
	"$(grep -c 'bfq-ng' "$mods/modules.dep" 2>/dev/null)" 0

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$BFQNG_TOP/dkms.conf")
mk dkms-src DESTDIR="$tmp" || die "make dkms-src failed"
src=$tmp/usr/src/bfq-ng-$ver
missing=
for f in dkms.conf Kbuild main.c bfq-ng.h scripts/dkms-build.sh; do
	[ -f "$src/$f" ] || missing+=" $f"
done
check_eq "dkms-src lays out /usr/src/bfq-ng-$ver (missing files)" "${missing:-none}" none
check_eq "dkms-src ships no build products" \
	"$(cd "$src" && ls ./*.o ./*.ko ./*.mod.c 2>/dev/null | paste -sd' ')" ""
