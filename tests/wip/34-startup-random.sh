#!/bin/bash
# timeout: 420
# (Work in progress: not in `make check`; run with `make check-wip`.)
# Start-up latency under 10 random readers on hddsim: within 3x the idle
# time with low_latency=1, slower with it off.  Measured under TCG with the
# host loaded: 1.383 s against 0.362 s idle (3.8x); 3.699 s with it off.
# Each of the application's reads that comes after the idle wait ends
# waits behind a random reader's request in flight.
export STARTUP_KINDS=randread
source "$BFQNG_TESTS/t/34-startup-latency.sh"
