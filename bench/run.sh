#!/usr/bin/env bash
# bfq-ng benchmark suite, host side (make bench / make bench-quick).
#   bench/run.sh [--quick]
# Boots the test VM once (tests/vm/run-vm.sh, bench/ shared read-only at
# /mnt/host), runs bench/guest/main.sh there, then writes the report
# (bench/report.sh): bench/results/<date>/report.md, *.png, results.tsv.
# Environment (all optional):
#   BENCH=cpu,tput,startup,fair,srt,interleave,scale   scenarios (default all)
#   BENCH_SCHEDS=bfq-ng,bfq,mq-deadline,kyber,none       schedulers
#   BENCH_RUNS=3            repetitions (median and min-max are reported)
#   BENCH_RT=10             seconds per throughput/fairness/interleave run
#   BENCH_RT_CPU=5          seconds per CPU-cost / scalability run
#   BENCH_SRT_RT=20         seconds per soft real-time run
#   BENCH_APP=perl          start-up trace (bench/traces/NAME.trace)
#   BENCH_STARTUP_TIMEOUT=60
#   BENCH_RESULTS=dir       where the report goes (default bench/results/<date>)
#   BENCH_README=1          update the README table (default 1 for make
#                           bench of all scenarios; 0 otherwise, and for
#                           make bench-quick, whose figures would replace
#                           a full run's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
cd "$top"

mode=full
if [ "${1:-}" = --quick ]; then
	mode=quick
	: "${BENCH_RUNS:=1}" "${BENCH_RT:=2}" "${BENCH_RAMP:=1}" "${BENCH_RT_CPU:=2}"
	: "${BENCH_SRT_RT:=8}" "${BENCH_WARMUP:=2}" "${BENCH_STARTUP_TIMEOUT:=20}"
	: "${BENCH_SCHEDS:=bfq-ng,bfq,mq-deadline}"
	: "${BENCH_STARTUP_BG:=idle seq10}" "${BENCH_SCALE_N:=1 256}"
	: "${BENCH_TPUT_CASES:=seq10 rand10 rw5seq}"
	: "${BENCH_APP:=bash}"
	: "${BENCH_VM_TIMEOUT:=1200}"
fi
: "${BENCH:=cpu,tput,startup,fair,srt,interleave,scale}"
: "${BENCH_RUNS:=3}" "${BENCH_RT:=10}" "${BENCH_RAMP:=2}" "${BENCH_RT_CPU:=5}"
: "${BENCH_SRT_RT:=20}" "${BENCH_WARMUP:=3}" "${BENCH_STARTUP_TIMEOUT:=60}"
: "${BENCH_SCHEDS:=bfq-ng,bfq,mq-deadline,kyber,none}"
: "${BENCH_STARTUP_BG:=idle seq10 rand10 rw5}" "${BENCH_SCALE_N:=1 16 256 1024}"
: "${BENCH_TPUT_CASES:=seq1 seq10 rand10 rw5seq rw5rand}"
: "${BENCH_APP:=perl}"
: "${BENCH_VM_TIMEOUT:=14400}"
export BENCH BENCH_RUNS BENCH_RT BENCH_RAMP BENCH_RT_CPU BENCH_SRT_RT BENCH_WARMUP \
	BENCH_STARTUP_TIMEOUT BENCH_SCHEDS BENCH_STARTUP_BG BENCH_SCALE_N BENCH_TPUT_CASES BENCH_APP
[ -f "bench/traces/$BENCH_APP.trace" ] || { echo "bench: no trace bench/traces/$BENCH_APP.trace" >&2; exit 2; }

date=$(date -u +%Y-%m-%d)
res=${BENCH_RESULTS:-bench/results/$date}
work=bench/work/vm
mkdir -p "$res" "$work"
if [ -z "${BENCH_README:-}" ]; then
	BENCH_README=0
	[ "$mode" = full ] && [ "$BENCH" = cpu,tput,startup,fair,srt,interleave,scale ] && BENCH_README=1
fi

# What ran, where: recorded in the report.
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'mode\t%s\n' "$mode"
	printf 'command\t%s\n' "${BENCH_CMDLINE:-bench/run.sh $*}"
	printf 'settings\t%s\n' "$(for v in BENCH BENCH_SCHEDS BENCH_RUNS BENCH_RT BENCH_RAMP BENCH_RT_CPU BENCH_SRT_RT BENCH_WARMUP BENCH_STARTUP_TIMEOUT BENCH_STARTUP_BG BENCH_SCALE_N BENCH_TPUT_CASES BENCH_APP; do printf '%s="%s" ' "$v" "${!v}"; done)"
	printf 'commit\t%s\n' "$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- '*.c' '*.h' Kbuild 2>/dev/null || echo ' (+ uncommitted module source changes)')"
	printf 'host_cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	printf 'host_cpus\t%s\n' "$(nproc)"
	printf 'host_kernel\t%s\n' "$(uname -r)"
	printf 'host_load_before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'qemu\t%s\n' "$(qemu-system-x86_64 --version | head -n 1)"
} >"$res/host.tsv"

# The guest reads a snapshot of the scripts and traces, not the live tree.
share=bench/work/share
rm -rf "$share"
mkdir -p "$share"
cp -a bench/guest bench/traces "$share/"
export VM_SHARE=$top/$share VM_OUT=$top/$work VM_MEM=${VM_MEM:-3072}
export VM_TIMEOUT=${VM_TIMEOUT:-$BENCH_VM_TIMEOUT}
export VM_PASS_ENV="BENCH BENCH_RUNS BENCH_RT BENCH_RAMP BENCH_RT_CPU BENCH_SRT_RT BENCH_WARMUP BENCH_STARTUP_TIMEOUT BENCH_SCHEDS BENCH_STARTUP_BG BENCH_SCALE_N BENCH_TPUT_CASES BENCH_APP"
t0=$(date +%s)
rc=0
tests/vm/run-vm.sh bench/guest/main.sh 2> >(tee "$work/run-vm.err" >&2) || rc=$?
t1=$(date +%s)
sleep 0.2
{
	printf 'accel\t%s\n' "$(sed -n 's/^run-vm: booting (\([^ ]*\) \([0-9]*M\) \([0-9]*cpu\).*/\1, \2, \3/p' "$work/run-vm.err" | head -n 1)"
	printf 'wall_s\t%s\n' $((t1 - t0))
	printf 'vm_exit\t%s\n' "$rc"
	printf 'host_load_after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$res/host.tsv"

for f in results.tsv env.tsv durations.tsv bench.log; do
	if [ -f "$work/guest-out/$f" ]; then cp "$work/guest-out/$f" "$res/$f"; else : >"$res/$f"; fi
done
if [ -f "$work/splat" ]; then
	echo "bench: kernel splat during the run (see $work/console.log)" >&2
	printf 'splat\t%s\n' "yes (console log in $work/console.log)" >>"$res/host.tsv"
fi
"$here/report.sh" "$res" "$BENCH_README"
echo "bench: report in $res/report.md (VM exit $rc, $((t1 - t0)) s)"
exit "$rc"
