#!/bin/bash
# timeout: 1800
# Host side, then a VM of its own: `make check-dkms` within `make check`.
# `dkms install` for the pinned kernel in a chroot of the guest image, then
# the VM boots that image and loads and selects the DKMS-built module; the
# host's kernel is not touched (tests/dkms/check-dkms.sh; cold, the image
# gets dkms and the pinned headers and sources from Debian's mirror once;
# warm, ~1 min).
source "$BFQNG_TESTS/lib.sh"

bash "$BFQNG_TOP/tests/dkms/check-dkms.sh" | grep -v '^[0-9]* passed, [0-9]* failed'
exit "${PIPESTATUS[0]}"
