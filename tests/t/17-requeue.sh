#!/bin/bash
# timeout: 400
# Requests the driver hands back after dispatch (blk_mq_requeue_request()):
# scsi_debug fails every 8th command with a transport error (ABORTED
# COMMAND), which the SCSI midlayer retries through a requeue; the request
# comes back at the head of the dispatch list, in no queue.  Four processes
# write and verify with pauses between their writes, one queue each (each
# has one request at a time, so a requeued request is its queue's last in
# the driver): no write is lost or corrupted, the requeues are counted, and
# the engine's invariants hold whenever they are read.  Among them: a queue
# with no I/O left is not counted in the weights (or the device looks
# asymmetric, and is idled for), and one in service is waited for or kept.
# Twice: without idling (most requeues are of queues not in service), and
# with it, the four at different priorities (asymmetric: waited for).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

SD=/sys/bus/pseudo/drivers/scsi_debug
modprobe bfq-ng || die "bfq-ng"
sd=$(scsi_debug_disk 256) || die "cannot create a scsi_debug disk"
use_sched "$sd" bfq-ng 64 || die "select bfq-ng"
# A queue each: started together, the jobs would share one (stable merge).
echo 0 >"/sys/block/$sd/queue/iosched/queue_merging"

# run_phase NAME FIO-JOB-OPTIONS...: the write + verify run with errors
# injected, the invariants read during it; checks named after NAME.
run_phase() {
	local name=$1 before f rc polls=0 bad=0 first='' c
	shift
	before=$(bfqng_stat "$sd" requeues)
	echo 16 >$SD/opts	# SDEBUG_OPT_TRANSPORT_ERR
	echo 8 >$SD/every_nth
	fio --ioengine=psync --direct=1 --filename="/dev/$sd" --rw=randwrite \
		--bs=4k --size=2m --thinktime=20ms --verify=crc32c --do_verify=1 \
		--verify_fatal=1 "$@" --output=/tmp/rq-fio.log >/dev/null 2>&1 &
	f=$!
	while kill -0 $f 2>/dev/null; do
		c=$(bfqng_check "$sd")
		polls=$((polls + 1))
		if [ "$c" != ok ]; then
			bad=$((bad + 1))
			[ -n "$first" ] || first=$c
		fi
		sleep 0.05
	done
	wait $f
	rc=$?
	echo 0 >$SD/every_nth
	echo 0 >$SD/opts
	diag "$name: $polls checks during the run, $bad failed${first:+ (first: $first)}"
	check_eq "$name: fio write + verify through requeues exits 0" "$rc" 0
	check_eq "$name: no verify error" \
		"$(grep -ci 'verify.*fail\|bad magic\|crc32c.*wanted' /tmp/rq-fio.log)" 0
	check_ge "$name: requests requeued after dispatch" \
		$(($(bfqng_stat "$sd" requeues) - before)) 20
	check_ge "$name: the invariants were read during the run" "$polls" 20
	check_eq "$name: the invariants held at every read during the run" "$bad" 0
	check_eq "$name: nothing left queued or in the driver" \
		"$(bfqng_stat "$sd" queued)/$(bfqng_stat "$sd" in_driver)" 0/0
	check_eq "$name: engine invariants hold after the run" "$(bfqng_check "$sd")" ok
}

echo 0 >"/sys/block/$sd/queue/iosched/slice_idle"
run_phase "no idling" --name=rq --offset_increment=32m --numjobs=4
echo 8 >"/sys/block/$sd/queue/iosched/slice_idle"
jobs=()
for k in 0 1 2 3; do
	jobs+=("--name=p$k" "--offset=$((k * 32 + 128))m" --prioclass=2 "--prio=$((k * 2))")
done
run_phase "idling, weights apart" "${jobs[@]}"
check_ge "idling, weights apart: idling periods started" \
	"$(bfqng_stat "$sd" idle_started)" 1
select_sched "$sd" none
modprobe -r scsi_debug 2>/dev/null
exit 0
