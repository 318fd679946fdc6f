#!/bin/bash
# timeout: 300
# (Work in progress: not in `make check`; run with `make check-wip`.
# Measured under TCG, 10 s runs: merging / queue_merging=0 = 0.36-0.90
# (bfq-ng 11.7-25.8 MiB/s, queue_merging=0 25.1-32.0, mq-deadline 2.2-3.1).
# The disk is busy under 15% of the time in both bfq-ng runs: with
# queue_merging=0, idling serves one reader at a time out of hddsim's
# read-ahead cache, which holds the other readers' blocks too; the four
# readers are limited by the emulated CPU, not by the disk, and a shared
# queue wakes four processes instead of one.)
# The bound for tests/t/36-eqm-interleaved-throughput.sh: with their
# queues merged, four interleaved readers on hddsim get at least twice the
# aggregate throughput of bfq-ng with queue_merging=0.
EQM_WANT_2X=1
source "$BFQNG_TESTS/t/36-eqm-interleaved-throughput.sh"
