#!/bin/bash
# timeout: 400
# Requests the driver hands back after dispatch (blk_mq_requeue_request()):
# scsi_debug fails every 8th command with a transport error (ABORTED
# COMMAND), which the SCSI midlayer retries through a requeue; the request
# comes back at the head of the dispatch list, in no queue.  While four
# processes write and verify with pauses between their writes (each has
# one request at a time, so a requeued request is its queue's last in the
# driver): no write is lost or corrupted, the requeues are counted, and
# the engine's invariants, the weight counts among them (a queue with no
# I/O left must not stay counted, or the device looks asymmetric and is
# idled for), hold whenever they are read.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

SD=/sys/bus/pseudo/drivers/scsi_debug
modprobe bfq-ng || die "bfq-ng"
sd=$(scsi_debug_disk 256) || die "cannot create a scsi_debug disk"
use_sched "$sd" bfq-ng 64 || die "select bfq-ng"
# No idling: a queue in service whose request is in the driver gives way
# to the next queue with a request, so most requeues are of queues not in
# service.
echo 0 >"/sys/block/$sd/queue/iosched/slice_idle"
# A queue each: started together, the jobs would share one (stable merge).
echo 0 >"/sys/block/$sd/queue/iosched/queue_merging"
echo 16 >$SD/opts		# SDEBUG_OPT_TRANSPORT_ERR
echo 8 >$SD/every_nth

fio --name=rq --filename="/dev/$sd" --ioengine=psync --direct=1 \
	--rw=randwrite --bs=4k --size=2m --offset_increment=32m --numjobs=4 \
	--thinktime=20ms --verify=crc32c --do_verify=1 --verify_fatal=1 \
	--output=/tmp/rq-fio.log >/dev/null 2>&1 &
f=$!
polls=0 bad=0 first=''
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
diag "$polls checks during the run, $bad failed${first:+ (first: $first)}"
check_eq "fio write + verify through requeues exits 0" "$rc" 0
check_eq "no verify error" "$(grep -ci 'verify.*fail\|bad magic\|crc32c.*wanted' /tmp/rq-fio.log)" 0
check_ge "requests requeued after dispatch" "$(bfqng_stat "$sd" requeues)" 20
check_ge "the invariants were read during the run" "$polls" 20
check_eq "the invariants held at every read during the run" "$bad" 0
check_eq "nothing left queued or in the driver" \
	"$(bfqng_stat "$sd" queued)/$(bfqng_stat "$sd" in_driver)" 0/0
check_eq "engine invariants hold after the run" "$(bfqng_check "$sd")" ok
select_sched "$sd" none
modprobe -r scsi_debug 2>/dev/null
exit 0
