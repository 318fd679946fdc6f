#!/bin/bash
# timeout: 600
# Fairness is in bandwidth, not in requests: at equal weights, a reader of
# 4 KiB requests and a reader of 128 KiB requests on a disk whose service
# time grows with request size (hddsim at 8 MB/s) move equal bytes per
# second (+-15%), although their request rates differ by ~32x (after
# merging, the 4 KiB reader's window of 32 becomes one ~120 KiB request, the
# other's eight 128 KiB reads 512 KiB ones: equal requests would still give
# it a quarter).  Measured after a 4 s ramp: until the first peak-rate
# windows close, max_budget is its 16384-sector default, and fio starts one
# job before the other (a queue not yet backlogged is owed nothing).
# The rate: `make vm SCRIPT=` of this fio, two 20 s runs per hddsim rate,
# 2026-12-05 (small/large): 1 MB/s 0.90 0.88, 2 MB/s 0.93 0.96, 4 MB/s 0.99
# 1.00, 8 MB/s 0.99 1.00, 16 MB/s 0.97 0.99.  Below ~2 MB/s a 512 KiB request
# is four times max_budget (peak rate x timeout_sync) and lasts half a
# second: each such slot moves virtual time by 1024 sectors at once, while
# the 4 KiB reader's queue is empty between its batches (traced; see
# Documentation/admin-guide.rst, Troubleshooting).  This test was in the wip
# lane at 1 MB/s until then.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd rate_outer_mbps=8 rate_inner_mbps=8) || die "hddsim"
use_sched "$dev" bfq-ng || die "select"
fio --output-format=json --output=/tmp/bw.json --filename="/dev/$dev" \
	--direct=1 --ioengine=libaio --iodepth=8 --rw=read --time_based \
	--ramp_time=4 --runtime=20 --size=1g \
	--name=small --bs=4k --iodepth=32 --offset=0 \
	--name=large --bs=128k --offset=2g >/dev/null || die "fio"
small=$(fio_job_bw_kib /tmp/bw.json small)
large=$(fio_job_bw_kib /tmp/bw.json large)
check_ratio "4 KiB and 128 KiB readers get equal bandwidth ($small vs $large KiB/s)" "$(ratio "$small" "$large")" 1 0.15
check_eq "engine invariants hold after the bandwidth run" "$(bfqng_check "$dev")" ok
select_sched "$dev" none
remove_hdd
