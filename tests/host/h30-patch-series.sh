#!/bin/bash
# timeout: 1200
# Host side, no VM: `make check-patches` within `make check`.  The patch
# series (`make patches`) applies without fuzz to the pinned linux-source
# tree, touches only block/, Documentation/block/ and MAINTAINERS, and
# builds there (tests/patches/check-patches.sh; cold, the tree is extracted
# and prepared once, ~5 min and 2 GB of cache; warm, ~1 min).
source "$BFQNG_TESTS/lib.sh"

# Its own summary line is left out: the runner counts the test points.
bash "$BFQNG_TOP/tests/patches/check-patches.sh" | grep -v '^[0-9]* passed, [0-9]* failed'
exit "${PIPESTATUS[0]}"
