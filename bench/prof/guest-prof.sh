#!/bin/bash
# Guest side of bench/prof/prof.sh.  For each build in /mnt/host (bfq0.ko:
# bfq-ng as it is; hooks.ko, fine.ko: its profiling builds; dd0.ko, dd.ko:
# mq-deadline as "dd-prof", plain and profiled) and for "none", one fio run
# per case on no-latency null_blk.  To $BFQNG_OUT/prof.txt: "build case
# IOPS iops" per run, and the profiling builds' reports (printed at unload)
# as "build case span calls mean" lines.
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
for v in none bfq0 hooks fine dd0 dd; do
	case $v in
	none) sched=none mod= ;;
	dd*) sched=dd-prof mod=mq_deadline_prof ;;
	*) sched=bfq-ng mod=bfq_ng ;;
	esac
	for c in ${CASES:-uring1x32}; do
		fast_case_args "$c" || { echo "guest-prof: unknown case $c" >&2; exit 1; }
		[ -z "$mod" ] || insmod "/mnt/host/$v.ko" || exit 1
		echo $sched >"/sys/block/$dev/queue/scheduler" || exit 1
		[ $v = none ] || echo 64 >"/sys/block/$dev/queue/nr_requests"
		read -r c0 i0 < <(awk '$1 == "ctxt" { c = $2 } $1 == "intr" { i = $2 } END { print c, i }' /proc/stat)
		fio --name=prof --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
			--time_based --runtime="${RT:-3}" --ramp_time=1 --group_reporting \
			--output-format=json --output=/tmp/prof.json "${args[@]}" >/dev/null 2>&1 || exit 1
		echo "$v $c IOPS $(jq '.jobs[0].read.iops | floor' /tmp/prof.json)" >>"$out/prof.txt"
		# Context switches and interrupts per request, over the whole run.
		awk -v v=$v -v c="$c" -v c0="$c0" -v i0="$i0" -v n="$(jq '.jobs[0].read.total_ios' /tmp/prof.json)" \
			'$1 == "ctxt" { cs = $2 - c0 } $1 == "intr" { in_ = $2 - i0 }
			END { if (n) printf "%s %s SYS ctxt/rq %.3f intr/rq %.3f\n", v, c, cs / n, in_ / n }' /proc/stat >>"$out/prof.txt"
		echo none >"/sys/block/$dev/queue/scheduler"
		[ -n "$mod" ] || continue
		dmesg -C
		rmmod $mod || exit 1
		dmesg | sed -n "s/.*PROF /$v $c /p" >>"$out/prof.txt"
	done
done
