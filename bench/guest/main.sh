#!/bin/bash
# bfq-ng benchmark suite, guest side: run by bench/run.sh through the test
# VM (tests/vm/run-vm.sh) with bench/ shared at /mnt/host.  Runs the
# scenarios named in $BENCH (comma list; default all) for every scheduler in
# $BENCH_SCHEDS on the same device in this boot, $BENCH_RUNS times, and
# writes $BFQNG_OUT/results.tsv, env.tsv and bench.log.
BENCH_DIR=${BFQNG_HOST:-/mnt/host}
source "$BENCH_DIR/guest/lib.sh"
for f in "$BENCH_DIR"/guest/s-*.sh; do source "$f"; done

: "${BENCH:=cpu,tput,startup,fair,srt,interleave,scale}"
: "${BENCH_RT_CPU:=5}" "${BENCH_SRT_RT:=20}" "${BENCH_WARMUP:=3}"
: "${BENCH_STARTUP_BG:=idle seq10 rand10 rw5}" "${BENCH_TPUT_CASES:=seq1 seq10 rand10 rw5seq rw5rand}" "${BENCH_SCALE_N:=1 16 256 1024}"

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
modprobe bfq-ng || { say "cannot load bfq-ng"; exit 1; }
modprobe bfq || say "cannot load mainline bfq"
modprobe kyber-iosched || say "cannot load kyber"

: >"$RES"
{
	printf 'guest_kernel\t%s\n' "$(uname -r)"
	printf 'guest_cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	printf 'guest_vcpus\t%s\n' "$(nproc)"
	printf 'guest_mem_mib\t%s\n' "$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)"
	printf 'fio\t%s\n' "$(fio --version)"
	printf 'schedulers\t%s\n' "$BENCH_SCHEDS"
	printf 'runs\t%s\n' "$BENCH_RUNS"
	printf 'scenarios\t%s\n' "$BENCH"
	printf 'runtime_s\t%s (cpu/scale %s, srt %s), ramp %s s, warm-up %s s\n' \
		"$BENCH_RT" "$BENCH_RT_CPU" "$BENCH_SRT_RT" "$BENCH_RAMP" "$BENCH_WARMUP"
	printf 'startup_app\t%s: %s\n' "$BENCH_APP" "$(head -n 1 "$BENCH_DIR/traces/$BENCH_APP.trace" | sed 's/^# //')"
	printf 'startup_app_size\t%s\n' "$(tail -n 1 "$BENCH_DIR/traces/$BENCH_APP.trace" | sed 's/^# //')"
	printf 'nr_requests\t%s\n' "64 on every device after each switch to a scheduler (1024 in the scalability scenario); none: the tag depth"
	printf 'startup_timeout_s\t%s\n' "$BENCH_STARTUP_TIMEOUT"
	printf 'bfq_ng_ko_md5\t%s\n' "$(md5sum "/lib/modules/$(uname -r)/extra/bfq-ng.ko" | cut -c1-12)"
	dev=$(make_hdd) && {
		printf 'hddsim\t%s\n' "$(cd /sys/module/hddsim/parameters && for p in *; do printf '%s=%s ' "$p" "$(cat "$p")"; done)"
		printf 'hddsim_queue\t%s\n' "rotational=$(cat /sys/block/$dev/queue/rotational), write_cache=$(cat /sys/block/$dev/queue/write_cache)"
		remove_hdd
	}
	dev=$(make_ssd ssd0) && {
		printf 'ssd\t%s\n' "$(cd /sys/kernel/config/nullb/ssd0 && for p in size blocksize submit_queues hw_queue_depth irqmode completion_nsec memory_backed; do printf '%s=%s ' "$p" "$(cat "$p")"; done)"
		remove_nullb ssd0
	}
	dev=$(make_nullb_fast fast0) && {
		printf 'nullb_fast\t%s\n' "$(cd /sys/kernel/config/nullb/fast0 && for p in size blocksize submit_queues hw_queue_depth irqmode memory_backed; do printf '%s=%s ' "$p" "$(cat "$p")"; done)"
		remove_nullb fast0
	}
} >"$BFQNG_OUT/env.tsv"
cat "$BFQNG_OUT/env.tsv"

rc=0
IFS=, read -r -a list <<<"$BENCH"
for b in "${list[@]}"; do
	if ! declare -F "scenario_$b" >/dev/null; then
		say "unknown scenario '$b' (cpu tput startup fair srt interleave scale)"
		rc=1
		continue
	fi
	say "=== $b"
	t0=$SECONDS
	"scenario_$b" || { say "scenario $b failed"; rc=1; }
	say "=== $b done in $((SECONDS - t0)) s"
	printf '%s\t%s\n' "$b" "$((SECONDS - t0))" >>"$BFQNG_OUT/durations.tsv"
done
exit $rc
