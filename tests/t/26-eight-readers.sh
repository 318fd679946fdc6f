#!/bin/bash
# timeout: 600
# Eight greedy readers of four weights (BE levels 0, 2, 4, 6: weights 80,
# 60, 40, 20; two readers each) get shares within +-15% of the ideal.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb er0 || die "null_blk"
# Weight raising of new queues at the default level would skew the shares.
echo 0 >/sys/block/er0/queue/iosched/low_latency
fio_readers /tmp/er.json er0 25 "be0a:2:0" "be0b:2:0" "be2a:2:2" "be2b:2:2" \
	"be4a:2:4" "be4b:2:4" "be6a:2:6" "be6b:2:6" || die "fio"
total=$(fio_bw_kib /tmp/er.json)
for lvl in 0 2 4 6; do
	w=$(((8 - lvl) * 10))
	for j in a b; do
		bw=$(fio_job_bw_kib /tmp/er.json "be$lvl$j")
		share=$(awk -v b="$bw" -v t="$total" 'BEGIN { printf "%.4f", b / t }')
		ideal=$(awk -v w="$w" 'BEGIN { printf "%.4f", w / 400 }')
		check_ratio "reader be$lvl$j (weight $w) gets its share of 8 readers" "$share" "$ideal" 0.15
	done
done
check_eq "engine invariants hold after eight readers" "$(bfqng_check er0)" ok
select_sched er0 none
nullb_del er0
