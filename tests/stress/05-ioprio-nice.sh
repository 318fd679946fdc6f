#!/bin/bash
# timeout: 900
# Stress 5: ioprio and nice changed at random under load.  Verified fio
# loads (sync and async writers, several processes each) run on bfq-ng
# while a changer gives their processes random I/O classes and levels
# (ionice RT/BE/IDLE 0-7, including a class change to IDLE and back) and
# random nice values, for 30 s and at least 40 changes (on the KASAN debug
# kernel under TCG, spawning ionice and renice is slow: 12 changes in 30 s),
# at most 5 min.  Every fio pass verifies (crc32c); the IDLE class must not
# starve anyone to a hang.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/stress/lib-stress.sh"

modprobe bfq-ng || die "modprobe bfq-ng"
nullb ip0 256 memory_backed=1 irqmode=2 completion_nsec=40000 hw_queue_depth=4 || die "null_blk"
select_sched ip0 bfq-ng || die "select bfq-ng"
echo 64 >/sys/block/ip0/queue/nr_requests

verify_loop ip0 ip-aio --ioengine=libaio --iodepth=8 --rw=randwrite --bs=4k --size=16m --numjobs=3 --offset_increment=16m
p1=$!
verify_loop ip0 ip-sync --ioengine=psync --rw=randwrite --bs=16k --size=16m --numjobs=2 --offset=64m --offset_increment=16m
p2=$!
fio --name=ip-read --filename=/dev/ip0 --direct=1 --ioengine=psync --rw=randread --bs=4k \
	--numjobs=2 --time_based --runtime=35 --output=/dev/null >/dev/null 2>&1 &
p3=$!
sleep 2

end=$((SECONDS + 30)) cap=$((SECONDS + 300))
changes=0 bad=0
while [ $SECONDS -lt $end ] || { [ $changes -lt 40 ] && [ $SECONDS -lt $cap ]; }; do
	for pid in $(pgrep -x fio); do
		c=$((1 + RANDOM % 3))
		ionice -c $c -n $((RANDOM % 8)) -p "$pid" 2>/dev/null || { kill -0 "$pid" 2>/dev/null && bad=$((bad + 1)); }
		renice -n $((RANDOM % 25 - 5)) -p "$pid" >/dev/null 2>&1
		changes=$((changes + 1))
	done
	sleep 0.05
done
diag "$changes ioprio/nice changes ($bad refused for live processes)"
check_ge "ioprio/nice storm: changes made" "$changes" 20
check_eq "ioprio/nice storm: ionice refused for live processes" "$bad" 0
# Back to BE 4 so the loops finish promptly.
for pid in $(pgrep -x fio); do ionice -c 2 -n 4 -p "$pid" 2>/dev/null; renice -n 0 -p "$pid" >/dev/null 2>&1; done
verify_loop_stop ip-aio $p1 1
verify_loop_stop ip-sync $p2 1
wait $p3 || tap_fail "ioprio/nice storm: the random readers fail" "fio rc $?"
exit 0
