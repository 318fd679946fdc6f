#!/bin/bash
# timeout: 300
# I/O injection: while the device is held for a reader that thinks between
# requests (idled for because it has the larger weight), a greedy random
# reader's requests fill the device.  On a device that serves requests in
# parallel (null_blk, 1 ms, 32 tags; no data copied, so that the emulated
# CPU is not what limits), total throughput with injection is higher than
# with `injection=0`, and the thinking reader keeps its throughput.  Two
# rounds of each, alternated; the figures are sums over the rounds.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

RUNTIME_S=6

modprobe bfq-ng || die "bfq-ng"
# Without raising: the thinker's weight (BE 0 against BE 7) is what makes
# the device idle for it.
inject_dev ij0 || die "null_blk with bfq-ng"

T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs nodev "$T" || die "tracefs"
echo >"$T/trace"
echo 1 >"$T/events/bfq_ng/bfq_ng_inject/enable" || die "inject event"
declare -A thinker greedy
thinker=([0]=0 [1]=0) greedy=([0]=0 [1]=0)
for inj in 1 0 1 0; do
	echo $inj >/sys/block/ij0/queue/iosched/injection || die "injection=$inj"
	fio_readers /tmp/inj.json ij0 $RUNTIME_S \
		"thinker:2:0:--ioengine=psync --iodepth=1 --thinktime=2000" \
		"greedy:2:7:--rw=randread --bs=16k --iodepth=4" || die "fio"
	t=$(fio_job_bw_kib /tmp/inj.json thinker) g=$(fio_job_bw_kib /tmp/inj.json greedy)
	diag "injection=$inj: thinker $t KiB/s, greedy $g KiB/s"
	thinker[$inj]=$((thinker[$inj] + t)) greedy[$inj]=$((greedy[$inj] + g))
done
echo 0 >"$T/events/bfq_ng/bfq_ng_inject/enable"
check_gt "requests were injected" "$(bfqng_stat ij0 injections)" 0
check_gt "bfq_ng_inject events recorded" "$(grep -c 'bfq_ng_inject: .* while waiting for pid' "$T/trace")" 0
with=$((thinker[1] + greedy[1])) without=$((thinker[0] + greedy[0]))
check_gain "injection raises total throughput" "$with" "$without" 1.3 KiB/s
check_gain "the idled-for reader keeps its throughput" "${thinker[1]}" "${thinker[0]}" 0.8 KiB/s
check_eq "no injected request left in the driver" "$(bfqng_stat ij0 injected_in_driver)" 0
check_eq "engine invariants hold" "$(bfqng_check ij0)" ok
select_sched ij0 none
