# shellcheck shell=bash
# Test library for bfq-ng tests (tests/t/*.sh); sourced in the guest:
#   source "$BFQNG_TESTS/lib.sh"
# Reporting is TAP: print "ok - ..." / "not ok - ..." lines; the guest runner
# (tests/guest/run-all.sh) numbers them across all files and adds a failure
# for a file that exits non-zero or times out without reporting one.

: "${BFQNG_TESTS:=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"
: "${BFQNG_OUT:=/tmp}"
: "${BFQNG_MODULE:=bfq-ng}"	# module name (modprobe)
: "${BFQNG_ELV:=bfq-ng}"	# elevator name (queue/scheduler)
export BFQNG_TESTS BFQNG_OUT BFQNG_MODULE BFQNG_ELV
TAP_FILE=$(basename "${BASH_SOURCE[1]:-$0}")
TAP_FAILS=0

# ---------------------------------------------------------------- reporting
diag() { printf '# %s\n' "$*"; }

# tap_ok DESC
tap_ok() { printf 'ok - %s\n' "$1"; }

# tap_fail DESC [DETAIL...]   DETAIL should give the measured value and the bound
tap_fail() {
	local d=$1
	shift
	TAP_FAILS=$((TAP_FAILS + 1))
	if [ -n "$*" ]; then printf 'not ok - %s: %s\n' "$d" "$*"; else printf 'not ok - %s\n' "$d"; fi
}

# tap_skip DESC REASON
tap_skip() { printf 'ok - %s # SKIP %s\n' "$1" "${2:-skipped}"; }

# die MSG: report a failure naming the test file and end it (exit 1).
die() {
	tap_fail "$TAP_FILE" "$*"
	exit 1
}

# skip_all REASON: skip the whole file.
skip_all() {
	tap_skip "$TAP_FILE" "$*"
	exit 0
}

# ------------------------------------------------------------------- checks
# All check_* take DESC first, print one TAP line, return 0 on pass, 1 on fail.
# Numbers may be decimals; a non-number fails the check.
_is_num() { [[ $1 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]; }
_cmp() { awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
	a += 0; b += 0
	if (op == "le") r = a <= b; else if (op == "lt") r = a < b
	else if (op == "ge") r = a >= b; else if (op == "gt") r = a > b
	else if (op == "eq") r = a == b; else r = 0
	exit !r }'; }
_check() { # _check DESC GOT OP BOUND SYMBOL
	if _is_num "$2" && _is_num "$4" && _cmp "$2" "$3" "$4"; then
		tap_ok "$1 (measured $2, bound $5 $4)"
		return 0
	fi
	tap_fail "$1" "measured ${2:-<empty>}, bound $5 $4"
	return 1
}
# check_eq DESC GOT WANT    numeric if both are numbers, else string equality
check_eq() {
	if _is_num "$2" && _is_num "$3"; then
		_check "$1" "$2" eq "$3" "=="
		return
	fi
	if [ "$2" = "$3" ]; then
		tap_ok "$1 (measured '$2')"
		return 0
	fi
	tap_fail "$1" "measured '${2}', expected '${3}'"
	return 1
}
check_le() { _check "$1" "$2" le "$3" "<="; }	# check_le DESC GOT MAX
check_lt() { _check "$1" "$2" lt "$3" "<"; }
check_ge() { _check "$1" "$2" ge "$3" ">="; }	# check_ge DESC GOT MIN
check_gt() { _check "$1" "$2" gt "$3" ">"; }
# check_range DESC GOT LO HI   LO <= GOT <= HI
check_range() {
	if _is_num "$2" && _is_num "$3" && _is_num "$4" && _cmp "$2" ge "$3" && _cmp "$2" le "$4"; then
		tap_ok "$1 (measured $2, bound [$3, $4])"
		return 0
	fi
	tap_fail "$1" "measured ${2:-<empty>}, bound [$3, $4]"
	return 1
}

# ------------------------------------------------------------------ cleanup
# at_exit CMD...: run CMD when the test file exits (last registered first).
# A test that sets its own EXIT trap should call _run_at_exit from it.
_AT_EXIT=()
at_exit() { _AT_EXIT=("$*" "${_AT_EXIT[@]}"); }
_run_at_exit() {
	local c
	for c in "${_AT_EXIT[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
	_AT_EXIT=()
}
trap _run_at_exit EXIT

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# none_running PID,PID...: no PID of the list runs (zombies do not count).
none_running() { ! ps -o stat= -p "$1" | grep -q -v '^Z'; }

# wait_gone SECS PID...: wait up to SECS for every PID to have exited (a
# zombie counts as exited: it lets its io_context go later in the same exit
# path, without waiting on anything); says which are left, and where they
# are in the kernel, if some are.  Under TCG fio can take seconds to wind
# down after SIGTERM, so a count of queues right after a kill can still see
# its queue.
wait_gone() {
	local secs=$1 list p
	shift
	list=$(echo "$@" | tr -s ' ' ',')
	[ -n "$list" ] || return 0
	wait_for "$secs" none_running "$list" && return 0
	diag "still running $secs s after the stop: $(ps -o pid=,stat=,comm= -p "$list" | tr -s '\n' ' ')"
	for p in "$@"; do
		[ -r "/proc/$p/stack" ] && diag "pid $p in the kernel: $(tr '\n' '|' <"/proc/$p/stack")"
	done
	return 1
}

# ------------------------------------------------------ modules, schedulers
# need_module NAME [PARAM=VAL...]: modprobe or die.
need_module() { modprobe "$@" || die "need_module: modprobe $* failed"; }

# load_bfqng [PARAM=VAL...]: load bfq-ng (from /lib/modules/*/extra).
load_bfqng() {
	[ -d "/sys/module/${BFQNG_MODULE//-/_}" ] && return 0
	modprobe "$BFQNG_MODULE" "$@" || { diag "load_bfqng: modprobe $BFQNG_MODULE failed"; return 1; }
}

# unload_bfqng: move every device off bfq-ng (to none), then rmmod it.
unload_bfqng() {
	local s
	for s in /sys/block/*/queue/scheduler; do
		grep -q "\[$BFQNG_ELV\]" "$s" 2>/dev/null && echo none >"$s"
	done
	[ -d "/sys/module/${BFQNG_MODULE//-/_}" ] || return 0
	modprobe -r "$BFQNG_MODULE" || { diag "unload_bfqng: modprobe -r $BFQNG_MODULE failed"; return 1; }
}

# sched_get DEV: the selected scheduler of DEV.
sched_get() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }

# set_sched DEV NAME: select NAME and verify it reads back as [NAME].
set_sched() {
	local f=/sys/block/$1/queue/scheduler
	[ -e "$f" ] || { diag "set_sched: no $f"; return 1; }
	echo "$2" >"$f" 2>/dev/null
	grep -q "\[$2\]" "$f" && return 0
	diag "set_sched: $1 reads '$(cat "$f")' after writing '$2'"
	return 1
}

# bfqng_debugfs DEV: the scheduler's debugfs directory of DEV.
bfqng_debugfs() { echo "/sys/kernel/debug/block/$1/sched"; }

# ----------------------------------------------------------------- null_blk
# nullb_create NAME [key=val...]: a null_blk device /dev/NAME via configfs.
# Keys are configfs attributes: size (MB), blocksize, memory_backed, irqmode,
# completion_nsec, hw_queue_depth, submit_queues, ...  It is removed again
# when the test file exits.
nullb_create() {
	local name=$1 kv dir=/sys/kernel/config/nullb/$1
	shift
	if [ ! -d /sys/kernel/config/nullb ]; then
		modprobe null_blk nr_devices=0 || { diag "nullb_create: modprobe null_blk failed"; return 1; }
	fi
	[ -d "$dir" ] && nullb_remove "$name"
	mkdir "$dir" || return 1
	for kv in "$@"; do
		echo "${kv#*=}" >"$dir/${kv%%=*}" || {
			diag "nullb_create: cannot set ${kv%%=*}=${kv#*=} on $name"
			rmdir "$dir"
			return 1
		}
	done
	echo 1 >"$dir/power" || { rmdir "$dir"; return 1; }
	at_exit nullb_remove "$name"
	wait_for 10 test -b "/dev/$name" || { diag "nullb_create: /dev/$name did not appear"; return 1; }
}

# nullb_remove NAME
nullb_remove() {
	local dir=/sys/kernel/config/nullb/$1
	[ -d "$dir" ] || return 0
	echo 0 >"$dir/power" 2>/dev/null
	rmdir "$dir"
}

# ---------------------------------------------------------------------- fio
# fio_json FILE JQ-EXPR: any value from a fio --output-format=json report.
fio_json() { jq -r "$2" "$1"; }

# fio_json_bw FILE JOBNAME [read|write|both]: bandwidth in KiB/s (integer),
# summed over jobs of that name (group_reporting gives one).  Default both.
fio_json_bw() {
	local dir=${3:-both} expr
	case $dir in
	read | write) expr=".$dir.bw" ;;
	*) expr='.read.bw + .write.bw' ;;
	esac
	jq --arg n "$2" "[.jobs[] | select(.jobname == \$n) | $expr] | add // 0 | floor" "$1"
}

# fio_json_iops FILE JOBNAME [read|write|both]
fio_json_iops() {
	local dir=${3:-both} expr
	case $dir in
	read | write) expr=".$dir.iops" ;;
	*) expr='.read.iops + .write.iops' ;;
	esac
	jq --arg n "$2" "[.jobs[] | select(.jobname == \$n) | $expr] | add // 0 | floor" "$1"
}

# fio_json_clat_pct FILE JOBNAME read|write PCT: completion latency
# percentile in microseconds (PCT as fio prints it, e.g. 99.000000).
fio_json_clat_pct() {
	jq --arg n "$2" --arg p "$4" \
		"[.jobs[] | select(.jobname == \$n) | .$3.clat_ns.percentile[\$p] // 0] | max / 1000 | floor" "$1"
}

# ms_since T0: milliseconds elapsed since T0, a value of $EPOCHREALTIME
# (bash builtins, no fork: polling loops time themselves with it).
ms_since() {
	local now=${EPOCHREALTIME/./} t0=${1/./}
	echo $(((10#$now - 10#$t0) / 1000))
}
