#!/bin/bash
# timeout: 60
# Harness self-test (tests/host/h05-harness-resume.sh): kills the guest
# kernel on the boots HARNESS_FAULTS names, e.g. "1:step 2:warn" (the
# faults of tests/harness/fault/bfqng_fault.c, loaded from /mnt/host).
source "$BFQNG_TESTS/lib.sh"
for f in ${HARNESS_FAULTS:-}; do
	[ "${f%%:*}" = "${BFQNG_BOOT:-}" ] || continue
	diag "boot $BFQNG_BOOT: loading the fault module (${f#*:})"
	insmod /mnt/host/bfqng_fault.ko what="${f#*:}" || die "insmod bfqng_fault.ko what=${f#*:}"
	sleep 5
	tap_fail "the kernel dies of the fault (${f#*:}) on boot $BFQNG_BOOT" "still running 5 s after insmod"
	exit 1
done
tap_ok "the fault file runs to its end (boot ${BFQNG_BOOT:-?})"
