#!/bin/bash
# timeout: 300
# Two greedy readers of one priority started together by one fio, each in
# its own 256 MiB region, on a null_blk without internal queueing, get half
# the bandwidth each.  A shared queue serves its lowest request first, so a
# stable merge of the two would serve the reader further out on its FIFO
# deadlines only (measured before the fix: 0.05 of the bandwidth).
#  - Sequential readers with slice_idle=0 (idling would not pay for them, so
#    only their distance keeps them apart): never stably merged.
#  - Readers skipping 1 MiB after each 64 KiB (seeky one by one, so stably
#    merged; sequential together, so the shared queue is not split for
#    seeking): the one left behind leaves the shared queue (coop_aparts).
#  - 4 KiB random readers (stably merged, and staying so): the seeky shared
#    queue serves in arrival order (before: b got 0.05).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"

# halves TAG: fio of two readers (extra options in $2), then the checks.
halves() {
	local tag=$1 total a b
	fio_readers /tmp/sa.json sa0 10 "a:2:4${2:-}" "b:2:4${2:-}" || die "fio"
	total=$(fio_bw_kib /tmp/sa.json)
	a=$(fio_job_bw_kib /tmp/sa.json a)
	b=$(fio_job_bw_kib /tmp/sa.json b)
	diag "$tag: a $a KiB/s, b $b KiB/s, stable_merges $(bfqng_stat sa0 stable_merges), coop_aparts $(bfqng_stat sa0 coop_aparts)"
	check_ratio "$tag: reader a gets half" \
		"$(awk -v b="$a" -v t="$total" 'BEGIN { printf "%.4f", b / t }')" 0.5 0.15
	check_ratio "$tag: reader b gets half" \
		"$(awk -v b="$b" -v t="$total" 'BEGIN { printf "%.4f", b / t }')" 0.5 0.15
}

sched_nullb sa0 || die "null_blk"
echo 0 >/sys/block/sa0/queue/iosched/low_latency
echo 0 >/sys/block/sa0/queue/iosched/slice_idle
halves "sequential, slice_idle=0"
check_eq "sequential readers far apart are not stably merged" \
	"$(bfqng_stat sa0 stable_merges)" 0
check_eq "engine invariants hold" "$(bfqng_check sa0)" ok
select_sched sa0 none
nullb_del sa0

sched_nullb sa0 || die "null_blk"
echo 0 >/sys/block/sa0/queue/iosched/low_latency
halves "strided" ":--rw=read:1m"
check_ge "strided readers were stably merged" "$(bfqng_stat sa0 stable_merges)" 1
check_ge "and the one left behind left the shared queue" \
	"$(bfqng_stat sa0 coop_aparts)" 1
check_eq "engine invariants hold" "$(bfqng_check sa0)" ok
select_sched sa0 none
nullb_del sa0

sched_nullb sa0 || die "null_blk"
echo 0 >/sys/block/sa0/queue/iosched/low_latency
halves "random" ":--rw=randread --bs=4k"
check_ge "random readers were stably merged" "$(bfqng_stat sa0 stable_merges)" 1
check_eq "engine invariants hold" "$(bfqng_check sa0)" ok
select_sched sa0 none
nullb_del sa0
