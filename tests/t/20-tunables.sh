#!/bin/bash
# timeout: 300
# The ten tunables exist with mainline's defaults, and bfq-ng's own
# queue_merging defaults to 1; non-numbers and values out of range are
# refused with EINVAL; slice_idle and slice_idle_us agree.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
nullb tu0 64 || die "null_blk"
select_sched tu0 bfq-ng || die "select"
dir=/sys/block/tu0/queue/iosched
declare -A want=([back_seek_max]=16384 [back_seek_penalty]=2
	[fifo_expire_async]=250 [fifo_expire_sync]=125 [injection]=1 [low_latency]=1
	[max_budget]=0 [slice_idle]=8 [slice_idle_us]=8000
	[strict_guarantees]=0 [timeout_sync]=124 [queue_merging]=1)
# timeout_sync is HZ/8 jiffies, as mainline: 124 ms at HZ=250 (Debian's
# kernel, 31 jiffies), 125 at HZ=1000 (the debug lane's).  A jiffy's length
# is what a write of 1 ms reads back as (one jiffy); the default is read
# first and put back.
ts_default=$(cat "$dir/timeout_sync")
echo 1 >"$dir/timeout_sync" || die "timeout_sync=1"
jiffy_ms=$(cat "$dir/timeout_sync")
echo "$ts_default" >"$dir/timeout_sync" || die "timeout_sync back"
hz=$((1000 / jiffy_ms))
for t in "${!want[@]}"; do
	if [ "$t" = timeout_sync ]; then
		got=$ts_default
		exp=$(( (hz / 8) * 1000 / hz ))
	else
		got=$(cat "$dir/$t" 2>/dev/null)
		exp=${want[$t]}
	fi
	check_eq "tunable $t defaults to $exp" "${got:-missing}" "$exp"
done

# refused WRITE FILE: the write fails with EINVAL and the value is unchanged.
refused() {
	local before after err
	before=$(cat "$dir/$2")
	err=$( (echo "$1" >"$dir/$2") 2>&1)
	after=$(cat "$dir/$2")
	if [[ $err == *"Invalid argument"* ]] && [ "$before" = "$after" ]; then
		tap_ok "writing '$1' to $2 is refused with EINVAL"
	else
		tap_fail "writing '$1' to $2 is refused with EINVAL" "error '$err', value $before -> $after"
	fi
}
refused abc slice_idle
refused -1 fifo_expire_sync
refused 2 low_latency
refused 0 back_seek_penalty
refused 5 max_budget
refused 1001 slice_idle
refused 0 timeout_sync
refused "" strict_guarantees
refused 2 injection
refused 2 queue_merging
refused on queue_merging

echo 3 >"$dir/slice_idle"
check_eq "slice_idle_us follows slice_idle" "$(cat "$dir/slice_idle_us")" 3000
echo 2500 >"$dir/slice_idle_us"
check_eq "slice_idle follows slice_idle_us (rounded down)" "$(cat "$dir/slice_idle")" 2
echo 4096 >"$dir/max_budget"
check_eq "max_budget accepts a value in range" "$(cat "$dir/max_budget")" 4096
echo 0 >"$dir/queue_merging"
check_eq "queue_merging accepts 0" "$(cat "$dir/queue_merging")" 0
select_sched tu0 none
nullb_del tu0
