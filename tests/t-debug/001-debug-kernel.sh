#!/bin/bash
# timeout: 60
# The debug lane runs on the debug kernel: its release, the debugfs files of
# kmemleak, KUnit and fault injection, and this kernel's own modules.
source "$BFQNG_TESTS/lib.sh"

r=$(uname -r)
case $r in
*-bfqng-debug) tap_ok "running the debug kernel ($r)" ;;
*) tap_fail "running the debug kernel" "uname -r is $r" ;;
esac
for f in kmemleak kunit failslab fail_make_request fail_io_timeout; do
	if [ -e "/sys/kernel/debug/$f" ]; then tap_ok "debugfs $f present"
	else tap_fail "debugfs $f present" "/sys/kernel/debug/$f missing"; fi
done
for m in bfq-ng bfq-ng-kunit null_blk scsi_debug bfq kyber-iosched hddsim; do
	if modinfo -F vermagic "$m" 2>/dev/null | grep -q "^$r "; then tap_ok "module $m built for $r"
	else tap_fail "module $m built for $r" "vermagic '$(modinfo -F vermagic "$m" 2>&1 | head -n1)'"; fi
done
exit 0
