#!/bin/bash
# timeout: 300
# Early queue merge on hddsim: four processes read one region in interleaved
# 16 KiB strides (reader k takes blocks k, k+4, k+8...; psync O_DIRECT), so
# their union is sequential.  bfq-ng merges their queues (and does not with
# queue_merging=0), and its aggregate throughput is at least mq-deadline's.
# The issue's other bound, twice bfq-ng's with queue_merging=0, does not
# hold under TCG: tests/wip/36-eqm-interleaved-2x.sh.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

RT=6
modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd) || die "make_hdd"
at_exit remove_hdd
for k in 0 1 2 3; do
	printf '[strided%d]\nfilename=/dev/%s\nrw=read:48k\nbs=16k\nioengine=psync\ndirect=1\noffset=%d\nsize=2g\nruntime=%d\ntime_based\n' \
		"$k" "$dev" $((k * 16384)) "$RT"
done >/tmp/eqm-il.fio

# run SCHED [QUEUE_MERGING]: aggregate KiB/s of the four readers.
run() {
	set_sched "$dev" none || return 1	# a fresh bfq-ng: counters at 0
	use_sched "$dev" "$1" || return 1
	[ -z "${2:-}" ] || echo "$2" >"/sys/block/$dev/queue/iosched/queue_merging"
	read -r bw _ < <(dev_fio /tmp/eqm-il.fio)
	echo "$bw"
}
on=$(run bfq-ng 1)
merges=$(bfqng_stat "$dev" coop_merges)
splits=$(bfqng_stat "$dev" coop_splits)
off=$(run bfq-ng 0)
off_merges=$(bfqng_stat "$dev" coop_merges)
dl=$(run mq-deadline)
diag "aggregate KiB/s: bfq-ng $on (processes merged: $merges, split: $splits), queue_merging=0 $off (merged: $off_merges), mq-deadline $dl"
check_ge "processes joined a shared queue with merging on" "$merges" 3
check_eq "no process joined a queue with queue_merging=0" "$off_merges" 0
check_ge "bfq-ng with merging / mq-deadline (aggregate throughput)" "$(ratio "$on" "$dl")" 1
# tests/wip/36-eqm-interleaved-2x.sh sets this.
[ -z "${EQM_WANT_2X:-}" ] ||
	check_ge "bfq-ng with merging / bfq-ng with queue_merging=0 (aggregate throughput)" \
		"$(ratio "$on" "$off")" 2
