#!/bin/bash
# timeout: 600
# Last file of the debug lane: free what the tests may still hold (null_blk
# devices, bfq-ng and the test modules), then scan for leaks twice and fail
# on any suspect.  Boot-time suspects were set aside by debug-guest.sh; the
# full report goes to $BFQNG_OUT/kmemleak.txt.
source "$BFQNG_TESTS/lib.sh"

f=/sys/kernel/debug/kmemleak
[ -w $f ] || die "no $f (kernel without DEBUG_KMEMLEAK?)"
for d in /sys/kernel/config/nullb/*/; do
	[ -d "$d" ] || continue
	echo 0 >"$d/power" 2>/dev/null
	rmdir "$d" 2>/dev/null
done
unload_bfqng
for m in bfq-ng-kunit hddsim scsi_debug null_blk bfq kyber-iosched; do
	[ -d "/sys/module/${m//-/_}" ] && { modprobe -r "$m" || diag "cannot unload $m"; }
done
# kmemleak ignores objects younger than 5 s.
sleep 6
echo scan >$f
sleep 6
echo scan >$f
cat $f >"$BFQNG_OUT/kmemleak.txt"
n=$(grep -c '^unreferenced object' "$BFQNG_OUT/kmemleak.txt")
if [ "$n" = 0 ]; then
	tap_ok "kmemleak: no leak suspects after the run"
else
	tap_fail "kmemleak: no leak suspects after the run" \
		"$n suspect(s): $(grep -E '^unreferenced|^  backtrace|^    \[<' "$BFQNG_OUT/kmemleak.txt" | head -n 12 | paste -sd'|')"
	sed 's/^/# /' "$BFQNG_OUT/kmemleak.txt" | head -n 60
fi
exit 0
