#!/bin/bash
# timeout: 600
# A sequential reader whose think time is shorter than slice_idle keeps its
# queue in service across think times (the device idles for it), and with
# slice_idle=0 it does not.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
ROTATIONAL=1 sched_nullb id0 || die "null_blk"
# Without raising: a raised thinker would preempt the greedy reader at each
# request and so regain, without idling, much of what idling gives it (this
# test is about idling).  CI saw x1.49 with raising on.
echo 0 >/sys/block/id0/queue/iosched/low_latency

# run SLICE_IDLE_MS: thinker (psync, 1 ms think time) beside a greedy reader;
# prints the thinker's KiB/s and how many idling periods started.
run() {
	echo "$1" >/sys/block/id0/queue/iosched/slice_idle
	local before after
	before=$(bfqng_stat id0 idle_started)
	fio_readers /tmp/idle.json id0 10 "greedy:2:4" \
		"thinker:2:4:--ioengine=psync --iodepth=1 --thinktime=1000" || die "fio"
	after=$(bfqng_stat id0 idle_started)
	echo "$(fio_job_bw_kib /tmp/idle.json thinker) $((after - before))"
}
read -r with idles_with < <(run 8)
read -r without idles_without < <(run 0)
check_gt "slice_idle=8: the device idles for the thinking reader (idling periods)" "$idles_with" 100
check_eq "slice_idle=0: the device never idles (idling periods)" "$idles_without" 0
check_gain "idling keeps the thinking reader in service" "$with" "$without" 1.5 KiB/s
check_eq "engine invariants hold after the idling runs" "$(bfqng_check id0)" ok
select_sched id0 none
nullb_del id0
