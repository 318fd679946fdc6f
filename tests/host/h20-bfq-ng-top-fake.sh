#!/bin/bash
# timeout: 120
# Host side, no VM: bfq-ng-top on a fake sysfs/debugfs/proc tree (-r ROOT)
# lists only the devices using bfq-ng, shows every queue with its process
# name, keeps lines and keys it does not know from breaking it, computes
# counter rates, and survives a device that vanishes between refreshes.
source "$BFQNG_TESTS/lib.sh"

make -C "$BFQNG_TOP" --no-print-directory tools >/dev/null 2>&1 || die "make tools failed"
top=$BFQNG_TOP/tools/bfq-ng-top
r=$(mktemp -d)
at_exit rm -rf "$r"

# fake_dev NAME SCHEDULER: a device; bfq-ng ones get debugfs files.
fake_dev() {
	mkdir -p "$r/sys/block/$1/queue"
	echo "mq-deadline kyber [$2] none" >"$r/sys/block/$1/queue/scheduler"
	[ "$2" = bfq-ng ] || return 0
	local d=$r/sys/kernel/debug/block/$1/sched
	mkdir -p "$d"
	printf 'serving 4242\nidling 1\nqueued 9\nin_driver 2\nfuture_key 7 extra words\nlonely\n' >"$d/state"
	printf 'live_queues 2\nexpired_budget 100\nidle_started 5\n' >"$d/stats"
	{
		echo "pid 4242 sync serving class be weight 40 budget 2048 service 512 queued 8 dispatched 2 seeky 0 idle_window 1 ttime_us 12 raising none wr_left_ms 0 new_flag newkey 3"
		echo "pid 4343 async active class idle weight 10 budget 512 service 0 queued 1 dispatched 0 raising soft_rt"
		echo "group /sys/fs/cgroup/a weight 100"
		echo "garbage line that means nothing"
	} >"$d/queues"
}
fake_proc() {
	mkdir -p "$r/proc/$1"
	echo "$2" >"$r/proc/$1/comm"
	printf 'rchar: 1\nread_bytes: %s\nwrite_bytes: 0\n' "$3" >"$r/proc/$1/io"
}
fake_dev sda bfq-ng
fake_dev sdb mq-deadline
fake_dev sdc bfq-ng
fake_dev sdd bfq-ng
fake_proc 4242 reader-one 1048576

out=$("$top" -r "$r" -b -n 1 2>&1)
rc=$?
printf '%s\n' "$out" >"$BFQNG_OUT/h20-once.txt"
check_eq "one batch refresh exits 0" "$rc" 0
check_eq "devices using bfq-ng are listed, others not" \
	"$(grep '^device ' <<<"$out" | awk '{print $2}' | paste -sd' ')" "sda sdc sdd"
check_eq "the serving queue comes first, with its process name" \
	"$(grep -A1 '^ *PID ' <<<"$out" | sed -n 2p | awk '{print $1, $2, $3, $4}')" "4242 reader-one sync serving"
check_eq "a queue whose process is gone shows '?' as its name" \
	"$(awk '$1 == 4343 {print $2; exit}' <<<"$out")" "?"
check_eq "unknown state keys are shown as they are" \
	"$(grep -c 'future_key=7 extra words' <<<"$out")" 3
check_eq "lines not understood are counted, not shown as queues (sda)" \
	"$(grep -m1 'lines not understood' <<<"$out")" "(3 lines not understood)"
check_eq "string-valued keys (class, raising) are columns" \
	"$(awk '$1 == 4343 {print $5, $11; exit}' <<<"$out")" "idle soft_rt"

# Two refreshes: counters and the process's I/O move in between; sdc
# vanishes.
(
	sleep 0.5
	printf 'live_queues 2\nexpired_budget 150\nidle_started 5\n' >"$r/sys/kernel/debug/block/sda/sched/stats"
	printf 'rchar: 1\nread_bytes: %s\nwrite_bytes: 0\n' $((1048576 + 4 * 1048576)) >"$r/proc/4242/io"
	rm -rf "$r/sys/block/sdd" "$r/sys/kernel/debug/block/sdd"
) &
out=$("$top" -r "$r" -b -n 2 -d 1 2>&1)
rc=$?
wait
printf '%s\n' "$out" >"$BFQNG_OUT/h20-twice.txt"
check_eq "two refreshes with a device vanishing exit 0" "$rc" 0
check_eq "two refreshes are printed" "$(grep -c '^bfq-ng-top .* refresh' <<<"$out")" 2
check_eq "the vanished device is gone from the second refresh" \
	"$(sed -n '/refresh 2/,$p' <<<"$out" | grep -c '^device sdd')" 0
rate=$(sed -n '/refresh 2/,$p' <<<"$out" | grep -o 'expired_budget=150([^)]*)' | grep -o '[0-9.]*/s' | tr -d /s)
check_range "counter rate per second (50 in ~1 s)" "${rate:-}" 30 60
kib=$(sed -n '/refresh 2/,$p' <<<"$out" | awk '$1 == 4242 {print $NF; exit}')
check_range "process I/O rate in KiB/s (4 MiB in ~1 s)" "${kib:-}" 2500 4200
check_eq "a process on two devices gets its rate on both" \
	"$(sed -n '/refresh 2/,$p' <<<"$out" | awk '$1 == 4242 {print ($NF > 0) ? "rate" : $NF}' | paste -sd' ')" "rate rate"

# A debugfs file that cannot be read (a directory in its place: even root
# cannot read that) makes the device drop out, with a hint when none is left.
for d in sda sdc; do
	q=$r/sys/kernel/debug/block/$d/sched/queues
	rm -f "$q" && mkdir "$q"
done
out=$("$top" -r "$r" -b -n 1 2>&1)
check_eq "unreadable debugfs files: exit status" "$?" 0
check_eq "unreadable debugfs files: the devices drop out, with a hint" \
	"$(grep -c '^device \|unreadable: root? debugfs mounted?' <<<"$out")" 1
rm -rf "$r/sys/block/sda" "$r/sys/block/sdc"
check_eq "no device at all: a message, exit 0" \
	"$("$top" -r "$r" -b -n 1 | grep -c '^no device uses bfq-ng')" 1
if "$top" -n 0 >/dev/null 2>&1 || "$top" -d x >/dev/null 2>&1; then
	tap_fail "bad options are refused" "-n 0 or -d x accepted"
else
	tap_ok "bad options are refused"
fi
