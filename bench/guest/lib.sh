# shellcheck shell=bash
# Benchmark helpers, sourced in the guest by bench/guest/main.sh.
# Results go to $BFQNG_OUT/results.tsv, one line per measurement:
#   scenario  device  case  scheduler  run  metric  value
# ("n/a" values are kept: the report shows them).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
trap - EXIT

BENCH_DIR=${BENCH_DIR:-/mnt/host}
RES=$BFQNG_OUT/results.tsv
LOG=$BFQNG_OUT/bench.log
WORK=/tmp/bench
mkdir -p "$WORK"

: "${BENCH_RUNS:=3}" "${BENCH_RT:=10}" "${BENCH_RAMP:=2}"
: "${BENCH_SCHEDS:=bfq-ng,bfq,mq-deadline,kyber,none}"
: "${BENCH_STARTUP_TIMEOUT:=60}" "${BENCH_APP:=perl}"
IFS=, read -r -a SCHEDS <<<"$BENCH_SCHEDS"

say() { printf '[%s] %s\n' "$(date +%T)" "$*" | tee -a "$LOG"; }

# result SCEN DEV CASE SCHED RUN METRIC VALUE
result() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RES"
	printf '  %-10s %-8s %-14s %-12s run%s %-10s %s\n' "$@" | tee -a "$LOG"
}

# use_sched DEV SCHED: select it (bfq and kyber are loaded once by main.sh),
# then give the scheduler nr_requests $NR_REQUESTS (default 64) requests: a
# switch resets it to twice the device's tags, which for hddsim (1 tag) is 2
# and would leave nothing to schedule.  With none it stays the tag depth.
use_sched() {
	set_sched "$1" "$2" >/dev/null || { say "cannot select $2 on $1"; return 1; }
	[ "$2" = none ] || echo "${NR_REQUESTS:-64}" >"/sys/block/$1/queue/nr_requests" 2>/dev/null ||
		say "cannot set nr_requests ${NR_REQUESTS:-64} on $1 under $2"
	return 0
}

# dev_bytes DEV: capacity in bytes
dev_bytes() { echo $(($(cat "/sys/block/$1/size") * 512)); }

# The device layout for the scenarios that mix a filesystem and greedy I/O:
# ext4 in the first FS_MB, greedy readers/writers in slices of the rest.
FS_MB=1024
GREEDY_BASE=$((1536 << 20))

# greedy_jobs KIND N DEV [PREFIX]: fio job sections for N greedy jobs of KIND
#   seqr   sequential reader, 128 KiB psync O_DIRECT
#   randr  random reader, 4 KiB psync O_DIRECT
#   seqw   sequential writer, 128 KiB psync O_DIRECT (slice of 128 MiB, wraps)
#   randw  random writer, 4 KiB psync O_DIRECT (slice of 128 MiB)
# slices: the area from GREEDY_BASE to the end is cut in 10 equal slices; job
# i of the whole set gets slice SLICE0+i (set SLICE0 before calling).
greedy_jobs() {
	local kind=$1 n=$2 dev=$3 prefix=${4:-$1} i cap slice off size rw bs
	cap=$(dev_bytes "$dev")
	slice=$(((cap - GREEDY_BASE) / 10 / 1048576 * 1048576))
	for ((i = 0; i < n; i++)); do
		off=$((GREEDY_BASE + (${SLICE0:-0} + i) * slice))
		case $kind in
		seqr) rw=read bs=128k size=$slice ;;
		randr) rw=randread bs=4k size=$slice ;;
		seqw) rw=write bs=128k size=$((128 << 20)) ;;
		randw) rw=randwrite bs=4k size=$((128 << 20)) ;;
		esac
		printf '[%s%d]\nfilename=/dev/%s\nrw=%s\nbs=%s\noffset=%d\nsize=%d\nioengine=psync\ndirect=1\n' \
			"$prefix" "$i" "$dev" "$rw" "$bs" "$off" "$size"
	done
}

# fio_run JSON JOBFILE: run fio, JSON output; the job file's [global] is ours.
fio_run() {
	fio --output-format=json --output="$1" "$2" >>"$LOG" 2>&1
}

# fio_sum JSON [REGEX]: aggregate read+write KiB/s of the jobs matching REGEX
fio_sum_bw() {
	jq --arg r "${2:-.}" '[.jobs[] | select(.jobname | test($r)) | .read.bw + .write.bw] | add // 0 | floor' "$1"
}
fio_sum_iops() {
	jq --arg r "${2:-.}" '[.jobs[] | select(.jobname | test($r)) | .read.iops + .write.iops] | add // 0 | floor' "$1"
}

# cpu_busy: CPU time spent by all CPUs so far, in USER_HZ ticks (user, nice,
# system, irq, softirq and steal of /proc/stat's "cpu" line).
cpu_busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

# global_section RUNTIME [RAMP]
global_section() {
	printf '[global]\ntime_based=1\nruntime=%s\nramp_time=%s\ngroup_reporting=0\n' "$1" "${2:-0}"
}
