#!/bin/bash
# timeout: 240
# No injection while an application starting is waited for.  On the SSD
# profile (null_blk, 100 us, 32 tags, not rotational: a device that queues
# internally, where injection is on), ten random readers run, their burst
# long over and none raised.  Then an application-like reader starts, a new
# queue raised as an application starting, reading 16 MiB in 128 KiB reads
# back to back.  The device is held for it whenever it empties (its share
# needs it), and no reader's request is injected meanwhile: each would be
# ahead of the application's next read in the device.  Before the fix:
# 10 requests injected here; in a start-up probe under 10 random readers,
# 25 to 661 per start-up, and start-up 1.3-3.7x slower than injection=0.
# Control: the same reader, not raised (low_latency=0) but of a higher
# weight (ionice -n0 beside -n4), is waited for and does get requests
# injected while it is; so the first count can fail.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
dev=$(make_ssd nisd0) || die "null_blk"
at_exit remove_nullb nisd0
use_sched "$dev" bfq-ng || die "select"
check_eq "low_latency is on (the default)" "$(cat "/sys/block/$dev/queue/iosched/low_latency")" 1
trace_start || die "tracefs"

ionice -c2 -n4 fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k \
	--ioengine=psync --direct=1 --numjobs=10 --offset=1g --size=2g \
	--time_based --runtime=120 --output=/dev/null >/dev/null 2>&1 &
fp=$!
at_exit "kill $fp 2>/dev/null"
sleep 5
check_eq "the device is seen to queue internally (hw_tag)" "$(bfqng_stat "$dev" hw_tag)" 1

# app_phase NAME [IONICE...]: one 16 MiB application read; prints the
# idling periods started for it and the requests injected while it was
# waited for.
app_phase() {
	local name=$1 pid
	shift
	trace_start bfq_ng_idle bfq_ng_inject || die "trace events"
	"$@" dd if="/dev/$dev" of=/dev/null bs=128k count=128 iflag=direct \
		skip=$((RANDOM % 64 * 128)) 2>/dev/null &
	pid=$!
	wait "$pid" || die "dd ($name)"
	trace_stop "/tmp/ni-$name.trace" "30-wr-no-inject-app.$name.trace"
	awk -v app="$pid" '
		/bfq_ng_idle: .* starts/ { for (i = 1; i < NF; i++) if ($i == "pid" && $(i + 1) == app) idle++ }
		/bfq_ng_inject: .* while waiting for pid/ { for (i = 1; i < NF; i++) if ($i == "pid" && $(i + 1) == app ":") inj++ }
		END { print idle + 0, inj + 0 }' "/tmp/ni-$name.trace"
}

read -r idle inj < <(app_phase raised ionice -c2 -n4)
diag "raised application: idling periods $idle, requests injected meanwhile $inj"
check_gt "the raised application is waited for (idling periods)" "$idle" 10
check_eq "requests injected while it is waited for" "$inj" 0

echo 0 >"/sys/block/$dev/queue/iosched/low_latency"
read -r idle inj < <(app_phase heavier ionice -c2 -n0)
diag "heavier application, low_latency=0: idling periods $idle, requests injected meanwhile $inj"
check_gt "control: the heavier application is waited for (idling periods)" "$idle" 10
check_gt "control: requests are injected while it is" "$inj" 0
echo 1 >"/sys/block/$dev/queue/iosched/low_latency"
kill "$fp" 2>/dev/null
wait "$fp" 2>/dev/null
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
set_sched "$dev" none
