#!/bin/bash
# timeout: 300
# Harness self-test: null_blk through configfs, scheduler switching, debugfs
# and fio's JSON report work in the guest.
source "$BFQNG_TESTS/lib.sh"

nullb_create hs0 size=256 blocksize=4096 memory_backed=1 irqmode=2 completion_nsec=20000 \
	hw_queue_depth=32 submit_queues=1 || die "nullb_create hs0 failed"
check_eq "nullb_create makes /dev/hs0 (size, 512 B sectors)" "$(cat /sys/block/hs0/size)" $((256 * 2048))
check_eq "blocksize attribute is applied" "$(cat /sys/block/hs0/queue/logical_block_size)" 4096
set_sched hs0 mq-deadline && tap_ok "set_sched hs0 mq-deadline" || tap_fail "set_sched hs0 mq-deadline" "$(cat /sys/block/hs0/queue/scheduler)"
check_eq "bfqng_debugfs names the sched debugfs dir (mq-deadline has one)" \
	"$([ -d "$(bfqng_debugfs hs0)" ] && echo exists)" exists
need_module bfq
set_sched hs0 bfq && tap_ok "set_sched hs0 bfq (mainline BFQ)" || tap_fail "set_sched hs0 bfq" "$(cat /sys/block/hs0/queue/scheduler)"
if set_sched hs0 no-such-sched 2>/dev/null; then
	tap_fail "set_sched rejects an unknown scheduler" "it returned success"
else
	tap_ok "set_sched rejects an unknown scheduler"
fi

fio --name=rr --filename=/dev/hs0 --rw=randread --bs=4k --direct=1 --ioengine=libaio \
	--iodepth=8 --runtime=3 --time_based --output-format=json --output=/tmp/hs.json >/dev/null 2>&1 ||
	die "fio on /dev/hs0 failed"
check_gt "fio randread on null_blk under bfq moves data (KiB/s)" "$(fio_json_bw /tmp/hs.json rr read)" 0
check_eq "fio_json_bw write side of a read job" "$(fio_json_bw /tmp/hs.json rr write)" 0
check_gt "fio_json_iops" "$(fio_json_iops /tmp/hs.json rr)" 0
check_gt "fio_json_clat_pct p99 (us)" "$(fio_json_clat_pct /tmp/hs.json rr read 99.000000)" 0

nullb_remove hs0
check_eq "nullb_remove removes /dev/hs0" "$([ -e /dev/hs0 ] && echo present || echo gone)" gone

if [ -e "/lib/modules/$(uname -r)/extra/$BFQNG_MODULE.ko" ]; then
	nullb_create hs1 size=64 || die "nullb_create hs1"
	if load_bfqng; then
		tap_ok "load_bfqng"
		set_sched hs1 "$BFQNG_ELV" && tap_ok "set_sched hs1 $BFQNG_ELV" ||
			tap_fail "set_sched hs1 $BFQNG_ELV" "$(cat /sys/block/hs1/queue/scheduler)"
		unload_bfqng && tap_ok "unload_bfqng moves devices off and unloads" ||
			tap_fail "unload_bfqng" "module still loaded: $(lsmod | grep bfq_ng)"
	else
		tap_fail "load_bfqng" "modprobe $BFQNG_MODULE failed"
	fi
else
	tap_skip "load_bfqng / unload_bfqng" "$BFQNG_MODULE.ko was not built"
fi
