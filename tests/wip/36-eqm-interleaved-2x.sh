#!/bin/bash
# timeout: 300
# (Work in progress: not in `make check`; run with `make check-wip`.
# Measured under TCG, 10 s runs, with the code as committed: bfq-ng 20.5
# and 6.2 MiB/s, queue_merging=0 35.7 and 34.4, mq-deadline 3.3 and 3.5
# (0.58x, 0.18x); over the development runs 0.25x-0.90x.  In probes hddsim was busy under 15% of
# the time in both bfq-ng runs: with queue_merging=0, idling serves one
# reader at a time out of hddsim's read-ahead cache, which holds the other
# readers' blocks too; the readers are limited by the emulated CPU, not
# the disk, and, waiting on it unequally, drift apart in a shared queue
# (dispatch traces show them up to 1 MiB apart), whose union then likely
# misses the cache.  With the cache off (cache_kb=0) every read costs a
# rotation either way: 1.77 vs 1.79 MiB/s.)
# The bound for tests/t/36-eqm-interleaved-throughput.sh: with their
# queues merged, four interleaved readers on hddsim get at least twice the
# aggregate throughput of bfq-ng with queue_merging=0.
EQM_WANT_2X=1
source "$BFQNG_TESTS/t/36-eqm-interleaved-throughput.sh"
