#!/bin/bash
# timeout: 900
# Stress 6: fault injection under bfq-ng.
#  a) null_blk requeue injection (configfs requeue_inject): requests bounce
#     back through the scheduler's requeue path; fio crc32c verify must pass.
#  b) null_blk timeout injection (configfs timeout_inject, 1 s io_timeout):
#     the issuer sees the errors, nothing hangs, the device stays usable.
#  c) fail_make_request on the device: errors reported to the issuer.
#  d) failslab on bfq-ng's "bq_queue" cache only (cache-filter), for
#     sleeping and non-sleeping allocations: bfq-ng falls back (OOM queue)
#     and I/O from many new processes still verifies.  The injection count
#     must be > 0, so a renamed cache cannot make this pass vacuously.
# Leaks are left to the final kmemleak scan (t-debug/99-kmemleak.sh).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/stress/lib-stress.sh"

modprobe bfq-ng || die "modprobe bfq-ng"
fault_quiet
cfg=/sys/kernel/config/nullb

# fault_set DIR PROB INTERVAL TIMES: arm one fault_attr (configfs or debugfs).
fault_set() {
	echo 0 >"$1/verbose"
	echo "$3" >"$1/interval"
	echo "$4" >"$1/times"
	echo "$2" >"$1/probability"
}

# --- a) requeues ------------------------------------------------------------
mkdir $cfg/fq0 || die "null_blk fq0"
at_exit nullb_remove fq0
for kv in size=128 memory_backed=1 irqmode=2 completion_nsec=30000; do echo "${kv#*=}" >$cfg/fq0/${kv%%=*}; done
[ -d $cfg/fq0/requeue_inject ] || die "no requeue_inject (BLK_DEV_NULL_BLK_FAULT_INJECTION off?)"
fault_set $cfg/fq0/requeue_inject 10 1 -1
echo 1 >$cfg/fq0/power || die "power on fq0"
wait_for 10 test -b /dev/fq0 || die "/dev/fq0"
select_sched fq0 bfq-ng || die "select bfq-ng on fq0"
fio --name=requeue --filename=/dev/fq0 --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randwrite --bs=4k --size=32m --numjobs=2 --offset_increment=32m \
	--verify=crc32c --verify_fatal=1 --output=/dev/null >/tmp/fq0.log 2>&1 &&
	tap_ok "requeue injection: fio crc32c verify passes" ||
	tap_fail "requeue injection: fio crc32c verify passes" "$(tail -n 3 /tmp/fq0.log | paste -sd'|')"
echo 0 >$cfg/fq0/requeue_inject/probability
nullb_remove fq0

# --- b) timeouts ------------------------------------------------------------
mkdir $cfg/fq1 || die "null_blk fq1"
at_exit nullb_remove fq1
for kv in size=64 memory_backed=1 irqmode=2 completion_nsec=30000; do echo "${kv#*=}" >$cfg/fq1/${kv%%=*}; done
fault_set $cfg/fq1/timeout_inject 5 1 200
echo 1 >$cfg/fq1/power || die "power on fq1"
wait_for 10 test -b /dev/fq1 || die "/dev/fq1"
select_sched fq1 bfq-ng || die "select bfq-ng on fq1"
echo 1000 >/sys/block/fq1/queue/io_timeout
t0=$SECONDS
fio --name=timeouts --filename=/dev/fq1 --direct=1 --ioengine=libaio --iodepth=8 \
	--rw=randrw --bs=4k --numjobs=2 --time_based --runtime=15 --continue_on_error=all \
	--output-format=json --output=/tmp/fq1.json >/dev/null 2>&1 &
pid=$!
for ((i = 0; i < 900; i++)); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
	tap_fail "timeout injection: I/O completes" "fio still running after 90 s"
	kill -9 $pid
else
	wait $pid
	frc=$?
	# Errors counted with continue_on_error, or a job that stopped on one.
	errs=$(jq '[.jobs[] | (.total_err // 0) + (if (.error // 0) != 0 then 1 else 0 end)] | add' /tmp/fq1.json 2>/dev/null)
	[ "$frc" -ne 0 ] && errs=$((${errs:-0} + 1))
	check_gt "timeout injection: the issuer got the timed-out I/Os as errors (fio rc $frc)" "${errs:-x}" 0
	cp /tmp/fq1.json "$BFQNG_OUT/fault-timeout-fio.json" 2>/dev/null
	diag "timeout injection: fio ran $((SECONDS - t0)) s, $(cat $cfg/fq1/timeout_inject/times) injections left of 200"
fi
echo 0 >$cfg/fq1/timeout_inject/probability
fio --name=after --filename=/dev/fq1 --direct=1 --ioengine=libaio --iodepth=8 --rw=randwrite \
	--bs=4k --size=16m --verify=crc32c --verify_fatal=1 --output=/dev/null >/dev/null 2>&1 &&
	tap_ok "timeout injection: the device verifies afterwards" ||
	tap_fail "timeout injection: the device verifies afterwards" "fio failed"

# --- c) fail_make_request ----------------------------------------------------
fmr=/sys/kernel/debug/fail_make_request
if [ -d $fmr ] && [ -e /sys/block/fq1/make-it-fail ]; then
	fault_set $fmr 20 1 -1
	echo 1 >/sys/block/fq1/make-it-fail
	n=0 failed=0
	for ((i = 0; i < 200; i++)); do
		dd if=/dev/fq1 of=/dev/null bs=4k count=1 skip=$i iflag=direct status=none 2>/dev/null || failed=$((failed + 1))
		n=$((n + 1))
	done
	echo 0 >/sys/block/fq1/make-it-fail
	echo 0 >$fmr/probability
	check_gt "fail_make_request: reads failed back to the issuer (of $n)" "$failed" 0
	check_lt "fail_make_request: not every read failed (of $n)" "$failed" "$n"
else
	tap_fail "fail_make_request available" "no $fmr or /sys/block/fq1/make-it-fail"
fi
nullb_remove fq1

# --- d) failslab on bq_queue ---------------------------------------------------
fs=/sys/kernel/debug/failslab
nullb fq2 64 memory_backed=1 irqmode=2 completion_nsec=30000 || die "null_blk fq2"
select_sched fq2 bfq-ng || die "select bfq-ng on fq2"
if [ ! -e /sys/kernel/slab/bq_queue/failslab ]; then
	tap_fail "failslab: /sys/kernel/slab/bq_queue/failslab exists" "$(ls -d /sys/kernel/slab/bq* 2>&1 | paste -sd' ')"
else
	echo 1 >/sys/kernel/slab/bq_queue/failslab
	echo Y >$fs/cache-filter
	echo N >$fs/ignore-gfp-wait
	fault_set $fs 50 1 100000
	verify_loop fq2 fs-aio --ioengine=libaio --iodepth=8 --rw=randwrite --bs=4k --size=8m --numjobs=4 --offset_increment=8m
	p1=$!
	# Many new processes: each needs a new bfq-ng queue.
	bad=0
	for ((i = 0; i < 300; i++)); do
		dd if=/dev/fq2 of=/dev/null bs=4k count=2 skip=$((i * 2 % 16384)) iflag=direct status=none || bad=$((bad + 1))
	done
	verify_loop_stop fs-aio $p1 1
	left=$(cat $fs/times)
	echo 0 >$fs/probability
	echo 0 >/sys/kernel/slab/bq_queue/failslab
	echo N >$fs/cache-filter
	check_gt "failslab: allocations of bq_queue failed on purpose" "$((100000 - left))" 0
	check_eq "failslab: short-lived readers' I/O errors" "$bad" 0
fi
exit 0
