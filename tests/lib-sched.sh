# shellcheck shell=bash
# Guest helpers for scheduler tests (sourced after lib.sh).

# select_sched DEV NAME: select NAME on DEV; fails if it does not read back.
select_sched() { set_sched "$@"; }

# use_sched DEV NAME [NR_REQUESTS]: select NAME, then give it NR_REQUESTS
# (default 64) scheduler tags.  A device with one hardware tag (hddsim
# without NCQ, null_blk hw_queue_depth=1) gets only 2 after each switch, too
# few for any scheduler to hold requests of several processes.
use_sched() {
	set_sched "$1" "$2" || return 1
	echo "${3:-64}" >"/sys/block/$1/queue/nr_requests"
}

# bfqng_dbg DEV FILE: a bfq-ng debugfs file of DEV.
bfqng_dbg() {
	cat "/sys/kernel/debug/block/$1/sched/$2"
}

# bfqng_stat DEV KEY: one value from the debugfs stats/state files.
bfqng_stat() {
	cat "/sys/kernel/debug/block/$1/sched/stats" \
		"/sys/kernel/debug/block/$1/sched/state" 2>/dev/null |
		awk -v k="$2" '$1 == k { print $2; exit }'
}

# bfqng_check DEV: the engine invariant check; prints "ok" when it holds.
bfqng_check() {
	bfqng_dbg "$1" check
}

# nullb NAME SIZE_MB attr=val...: a null_blk device through configfs,
# removed when the test file exits (lib.sh's nullb_create).
nullb() {
	local name=$1 size=$2
	shift 2
	nullb_create "$name" size="$size" "$@"
}

# nullb_del NAME: power off and remove a null_blk device now.
nullb_del() { nullb_remove "$@"; }

# fio_bw_kib JSONFILE: summed read+write bandwidth (KiB/s) over all jobs.
fio_bw_kib() {
	jq '[.jobs[] | .read.bw + .write.bw] | add | floor' "$1"
}

# fio_job_bw_kib JSONFILE JOBNAME: read+write bandwidth (KiB/s) of one job.
fio_job_bw_kib() { fio_json_bw "$1" "$2"; }

# fio_errors JSONFILE: total error count over all jobs.
fio_errors() {
	jq '[.jobs[] | .error] | add' "$1"
}

# ratio A B: A / B with two decimals (B = 0 gives "inf").
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f\n", a / b }'
}

# in_range X LO HI: true when LO <= X <= HI (decimals allowed).
in_range() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "inf" && x >= lo && x <= hi) }'
}

# check_ratio DESC MEASURED IDEAL TOL: MEASURED within IDEAL * (1 +- TOL).
check_ratio() {
	local lo hi
	lo=$(awk -v i="$3" -v t="$4" 'BEGIN { printf "%.4f", i * (1 - t) }')
	hi=$(awk -v i="$3" -v t="$4" 'BEGIN { printf "%.4f", i * (1 + t) }')
	if in_range "$2" "$lo" "$hi"; then
		tap_ok "$1 (measured $2, ideal $3)"
	else
		tap_fail "$1" "measured $2, bound [$lo, $hi] (ideal $3)"
		return 1
	fi
}

# check_gain DESC WITH WITHOUT MIN [UNIT]: WITH / WITHOUT >= MIN; both
# figures and the ratio are in the message.
check_gain() {
	local r
	r=$(ratio "$2" "$3")
	if in_range "$r" "$4" 1000; then
		tap_ok "$1: $2 vs $3${5:+ $5} (x$r)"
	else
		tap_fail "$1" "with / without = $r ($2 / $3${5:+ $5}), bound >= $4"
	fi
}

# sched_nullb NAME [SCHED]: the standard fairness device: null_blk, timer
# completions after 250 us (COMPLETION_NS overrides), one hardware tag;
# SCHED (default bfq-ng) is selected, then nr_requests raised to 64 (a
# switch resets it to 2 tags).
sched_nullb() {
	nullb "$1" 4096 irqmode=2 completion_nsec="${COMPLETION_NS:-250000}" \
		hw_queue_depth=1 || return 1
	[ -z "${ROTATIONAL:-}" ] || echo "$ROTATIONAL" >"/sys/block/$1/queue/rotational"
	select_sched "$1" "${2:-bfq-ng}" || return 1
	echo 64 >"/sys/block/$1/queue/nr_requests"
}

# read_queues DEV: the debugfs "queues" lines of DEV into the array QUEUES,
# from one pass of the file.  Not `while read ... <file`: bash's read seeks
# back after each line of a seekable file, and a seek on a debugfs (seq_file)
# file prints it all again and cuts the new text at the old offset, so a
# line can be skipped or split when the queues changed in between (test 33
# once missed a queue that was there).  mapfile reads to the end, no seek.
# Bash builtins only: tests poll it, and a fork costs tens of ms under TCG.
read_queues() {
	mapfile -t QUEUES <"/sys/kernel/debug/block/$1/sched/queues"
}

# wait_raising_over DEV PID SECS: wait up to SECS for PID's queue on DEV
# to be raised no more (a new queue's raising lasts some seconds:
# wr_max_time, or a duration from the peak rate); the caller checks.
wait_raising_over() {
	local end=$((SECONDS + $3))
	while ((SECONDS < end)) && [ "$(queue_field "$1" "$2" raising)" != none ]; do
		sleep 0.5
	done
}

# queue_lines DEV PID: every debugfs "queues" line of PID on DEV (a process
# moved while busy has two queues for a while) into the array LINES.
queue_lines() {
	local line
	LINES=()
	read_queues "$1"
	for line in "${QUEUES[@]}"; do
		[[ $line == "pid $2 "* ]] && LINES+=("$line")
	done
	return 0
}

# queue_line DEV PID: the debugfs "queues" line of PID's queue on DEV (the
# first, if it has two).
queue_line() {
	queue_lines "$1" "$2"
	[ ${#LINES[@]} -eq 0 ] || echo "${LINES[0]}"
	return 0
}

# line_field FIELD LINE: the value after FIELD in a "queues" line.
line_field() {
	local -a w
	local i
	read -ra w <<<"$2"
	for ((i = 0; i + 1 < ${#w[@]}; i++)); do
		[ "${w[i]}" = "$1" ] && { echo "${w[i + 1]}"; return 0; }
	done
	return 0
}

# queue_field DEV PID FIELD: one "FIELD value" pair of that line.
queue_field() { line_field "$3" "$(queue_line "$1" "$2")"; }

# fio_readers JSON DEV RUNTIME SPEC...: greedy sequential 64 KiB direct
# readers, one per SPEC "name:class:level[:extra-fio-opts]", each in its own
# 256 MiB region, all started together; JSON receives fio's report.
fio_readers() {
	local json=$1 dev=$2 runtime=$3 i=0 spec name class level extra
	shift 3
	local args=(--output-format=json --output="$json" --filename="/dev/$dev"
		--direct=1 --ioengine=libaio --iodepth=8 --rw=read --bs=64k
		--time_based --runtime="$runtime" --size=256m)
	for spec in "$@"; do
		IFS=: read -r name class level extra <<<"$spec"
		args+=(--name="$name" --prioclass="$class" --prio="$level"
			--offset=$((i * 256))m)
		# shellcheck disable=SC2206
		[ -n "$extra" ] && args+=($extra)
		i=$((i + 1))
	done
	fio "${args[@]}" >/dev/null
}

# inject_dev NAME: the device of the injection tests, with bfq-ng on it: a
# null_blk that serves 32 requests at once in 1 ms each, copying no data
# (so that the emulated CPU is not what limits), with 64 scheduler tags
# and low_latency=0 (no raising: weights alone decide whom it idles for).
inject_dev() {
	nullb "$1" 2048 irqmode=2 completion_nsec=1000000 hw_queue_depth=32 \
		memory_backed=0 || return 1
	echo 0 >"/sys/block/$1/queue/rotational" &&
		use_sched "$1" bfq-ng 64 &&
		echo 0 >"/sys/block/$1/queue/iosched/low_latency"
}

# scsi_debug_disk SIZE_MB: load scsi_debug (and sd_mod: no udev here to load
# it) with one disk of SIZE_MB and print its name.
scsi_debug_disk() {
	modprobe sd_mod && modprobe scsi_debug dev_size_mb="$1" || return 1
	local d i
	for ((i = 0; i < 100; i++)); do
		for d in /sys/block/sd*; do
			grep -qs scsi_debug "$d/device/model" && { basename "$d"; return 0; }
		done
		sleep 0.1
	done
	return 1
}

# start_reader DEV OFFSET_MB [FIO-OPTION...]: a greedy sequential 64 KiB
# direct reader (one fio job) in the background; prints the pid of the job
# process, which is the pid bfq-ng's queue shows.
start_reader() {
	local dev=$1 off=$2 parent child i
	shift 2
	fio --name=reader --filename="/dev/$dev" --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=read --bs=64k --offset="${off}m" --size=512m \
		--time_based --runtime=600 "$@" --output=/dev/null >/dev/null 2>&1 &
	parent=$!
	for ((i = 0; i < 100; i++)); do
		child=$(pgrep -P "$parent" | head -n1)
		[ -n "$child" ] && { echo "$child"; return 0; }
		sleep 0.05
	done
	return 1
}

# pids_under PID: every descendant of PID (children, their children...).
pids_under() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		pids_under "$c"
	done
}

# read_bytes PID: bytes the task has read from storage so far.
read_bytes() {
	awk '$1 == "read_bytes:" { print $2 }' "/proc/$1/io"
}

# share_of A B SECONDS: B's share of what A and B read over SECONDS.
share_of() {
	local a0 b0 a1 b1
	a0=$(read_bytes "$1") b0=$(read_bytes "$2")
	sleep "$3"
	a1=$(read_bytes "$1") b1=$(read_bytes "$2")
	awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) 'BEGIN { if (a + b == 0) print 0; else printf "%.3f\n", b / (a + b) }'
}

# diag_queues DEV: a diag line per queue of DEV, each with what its pid
# (the task that created it) is now: a process, or gone.
diag_queues() {
	local l p now
	read_queues "$1"
	for l in "${QUEUES[@]}"; do
		p=$(awk '{ print $2 }' <<<"$l")
		now=$(ps -o ppid=,stat=,etimes=,args= -p "$p" 2>/dev/null | cut -c1-120)
		diag "left: $l"
		diag "  pid $p: ${now:-gone}"
		[ -r "/proc/$p/stack" ] && diag "  in the kernel: $(tr '\n' '|' <"/proc/$p/stack")"
	done
}

# stop_readers PID...: end reader jobs (and their fio parents), and wait for
# them to have exited.  A fio job can miss its SIGTERM for good: it stays in
# io_getevents() with nothing in flight on the device (caught under
# mq-deadline as under bfq-ng, tests/wip/repro-23.sh).  A reader still
# running 10 s after the TERM gets a KILL, which ends it unless it has I/O
# the device never completed (exit waits for its aio): then it stays, and
# the diag says so.
stop_readers() {
	local p pp pids=()
	for p in "$@"; do
		[ -n "$p" ] || continue
		pids+=("$p")
		# Its fio parent, unless it already went (the job is init's then).
		pp=$(ps -o ppid= -p "$p" 2>/dev/null)
		pp=${pp// /}
		[ -n "$pp" ] && [ "$pp" -gt 1 ] && [ "$pp" != $$ ] && pids+=("$pp")
	done
	[ ${#pids[@]} -gt 0 ] || return 0
	kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	wait_gone 10 "$@" && return 0
	diag "readers still running 10 s after SIGTERM: killed"
	kill -KILL "${pids[@]}" 2>/dev/null
	wait_gone 20 "$@"
	return 0
}

# expirations DEV: the device's slot expiration counters, "reason count"
# pairs on one line (debugfs stats).
expirations() {
	awk '/^expired_/ { sub(/^expired_/, ""); printf "%s %s ", $1, $2 }' \
		"/sys/kernel/debug/block/$1/sched/stats"
}

# expirations_since DEV BEFORE: how many slots expired for each reason since
# BEFORE (an expirations line).
expirations_since() {
	awk -v b="$2" -v a="$(expirations "$1")" 'BEGIN {
		n = split(b, x, " "); split(a, y, " ")
		for (i = 1; i < n; i += 2) printf "%s %d%s", x[i], y[i + 1] - x[i + 1], i + 2 < n ? ", " : "\n"
	}'
}

# preempts_next_other TRACE: "N BAD", the activations that preempted in a
# trace of bfq_ng_activate and bfq_ng_dispatch, and how many of them the
# next dispatch was not of the queue that preempted (each one on stderr).
preempts_next_other() {
	awk '
	/bfq_ng_activate: .* preempts/ { for (i = 1; i < NF; i++) if ($i == "pid") p = $(i + 1); n++; want = 1; next }
	/bfq_ng_dispatch:/ && want {
		for (i = 1; i < NF; i++) if ($i == "pid") d = $(i + 1)
		if (d != p) { bad++; print "preempted by " p ", next dispatch from " d >"/dev/stderr" }
		want = 0
	}
	END { print n + 0, bad + 0 }' "$1"
}

# Tracing bfq-ng's events, in tracefs at $T.
T=/sys/kernel/tracing
# trace_start [-b KB] EVENT...: mount tracefs if needed, size the buffer
# (KB per CPU) if asked, clear the trace and enable these bfq_ng events.
# Every bfq_ng event is turned off when the test file exits.
trace_start() {
	local ev
	[ -d "$T/events" ] || mount -t tracefs nodev "$T" || return 1
	if [ -z "${_TRACE_STOP_AT_EXIT:-}" ]; then
		at_exit "echo 0 >$T/events/bfq_ng/enable"
		_TRACE_STOP_AT_EXIT=1
	fi
	if [ "${1:-}" = -b ]; then
		echo "$2" >"$T/buffer_size_kb" || return 1
		shift 2
	fi
	echo >"$T/trace"
	for ev in "$@"; do
		echo 1 >"$T/events/bfq_ng/$ev/enable" || return 1
	done
}
# trace_stop FILE [OUT_NAME]: turn every bfq_ng event off and copy the trace
# to FILE, and to $BFQNG_OUT/OUT_NAME if given (kept with the test's output).
trace_stop() {
	echo 0 >"$T/events/bfq_ng/enable"
	cp "$T/trace" "$1" || return 1
	[ -z "${2:-}" ] || cp "$1" "$BFQNG_OUT/$2" 2>/dev/null || true
}
