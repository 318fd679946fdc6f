#!/bin/bash
# One psync 4 KiB random reader, mq-deadline and bfq-ng in turn, 4 rounds.
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
insmod /mnt/host/b.ko || exit 1
S=/sys/kernel/debug/block/$dev/sched
fast_case_args psync1x1
for round in 1 2 3 4; do
for s in mq-deadline bfq-ng; do
	echo $s >"/sys/block/$dev/queue/scheduler" || exit 1
	echo 1024 > /sys/block/$dev/queue/nr_requests 2>/dev/null
	a=$(awk '{print $1}' /sys/block/$dev/stat)
	fio --filename=/dev/$dev --rw=randread --bs=4k --direct=1 --name=x \
		--time_based --runtime=5 "${args[@]}" >/dev/null
	b=$(awk '{print $1}' /sys/block/$dev/stat)
	line="$round $s ios $((b - a))"
	[ $s = bfq-ng ] && line="$line $(awk '$1 ~ /^(expired_|idle_started|idle_timeouts|kept_resumes|hw_tag|peak_rate)/ {printf "%s %s ", $1, $2}' $S/stats $S/state)"
	echo "$line" | tee -a "$out/r.txt"
done
done
