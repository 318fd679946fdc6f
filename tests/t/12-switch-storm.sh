#!/bin/bash
# timeout: 1200
# 50 rounds of switching from bfq-ng to none, mq-deadline, kyber or bfq and
# back (100 switches) under verified fio load: no I/O error, no hang (the
# host checks the log).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng && modprobe kyber-iosched && modprobe bfq || die "schedulers"
nullb sw0 256 memory_backed=1 irqmode=2 completion_nsec=20000 || die "null_blk"
select_sched sw0 bfq-ng || die "select bfq-ng"
rm -f /tmp/switch.done /tmp/fio.fail
(
	n=0
	while [ ! -e /tmp/switch.done ]; do
		fio --name=load --filename=/dev/sw0 --direct=1 --ioengine=libaio \
			--iodepth=8 --rw=randwrite --bs=4k --size=16m --numjobs=4 \
			--offset_increment=32m --verify=crc32c --verify_fatal=1 \
			--randseed=$n --output=/dev/null || echo "run $n" >>/tmp/fio.fail
		n=$((n + 1))
	done
) &
loader=$!
sleep 2
bad=0
others=(none mq-deadline kyber bfq)
for ((i = 0; i < 50; i++)); do
	select_sched sw0 "${others[i % 4]}" || bad=$((bad + 1))
	select_sched sw0 bfq-ng || bad=$((bad + 1))
done
touch /tmp/switch.done
wait "$loader"
check_eq "100 scheduler writes all read back (failures)" "$bad" 0
check_eq "verified fio runs during the switches (failed runs)" "$( (cat /tmp/fio.fail 2>/dev/null || true) | wc -l)" 0
check_eq "engine invariants hold after the switch storm" "$(bfqng_check sw0)" ok
select_sched sw0 none
nullb_del sw0
