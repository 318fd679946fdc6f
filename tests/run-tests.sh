#!/usr/bin/env bash
# Host side of `make check`: boots a test VM running tests/guest/run-all.sh,
# streams its TAP, and accounts for what the guest cannot report itself:
# a kernel splat in the console log, a VM that died or hung before every
# selected file finished, a failed module build (tests/out/build.failed).
# Then runs the host-side tests (tests/run-host.sh) and counts them too.
# Writes tests/out/results.tap; the last line printed is
#   N passed, N failed[, N skipped]
# and the exit status is non-zero on any failure.
#   TESTS='1*' | 'name1,name2'   select test files (see tests/guest/run-all.sh)
#   VM_MEM (default 4096), VM_DISKS (default "1G"), VM_TIMEOUT (default: the
#   sum of the selected files' limits + 300 s, at most CHECK_BUDGET=4500 s)
#   and the other run-vm.sh knobs.
#   VM_RESUMES (default 2)       new boots allowed after a guest death
# A guest kernel that dies part-way (run-vm exit 2) fails the file that was
# running, and the files it did not reach run in a new VM (booted with
# BFQNG_BOOT=2, 3, ... in the guest's environment), so that one crash does
# not hide the verdicts of everything after it.  One death per run is
# excused, when the log shows one of three emulator faults and nothing else
# (tests/vm/console-scan.sh, emulator_fault):
#  - the kernel's own warning about a single-step trap taken in kernel mode
#    (exc_debug_kernel, arch/x86/kernel/traps.c).  Nothing in the kernel
#    sets the trap flag outside kprobes and kgdb, which the test kernel does
#    not use (seen once under multi-threaded TCG, in test 13);
#  - an int3 Oops in the core kernel, with no module in its RIP or trace:
#    multi-threaded TCG running code from before a text patch (a static key
#    flip) ended.  Seen once mid-run (the clocksource watchdog's
#    sched_clock key; the guest now boots with tsc=reliable) and twice at
#    boot, where run-vm.sh retries;
#  - a double fault in the core kernel, with no module in its RIP or trace:
#    QEMU 7.2's TCG raised two in kmem_cache_alloc's cmpxchg16b (garbage
#    EFLAGS) in eight icount boots, one at boot before any module loaded.
#    Also one whose RIP is in the core kernel and whose saved EFLAGS has a
#    bit no x86-64 CPU can hold (a reserved bit set, or bit 1 clear), with
#    in-tree modules in its trace but no out-of-tree one: multi-threaded
#    TCG raised two at kmem_cache_alloc_noprof+0x6b on 2026-12-07 (EFLAGS
#    4ea2c282 under aio, c0478f02 under ext4's fsync).
#    A stack overflow says "stack guard page", not this, and is counted.
# The file that was running then runs again, in full, in the new VM; its
# failures from the first attempt still count.  A double fault whose
# EFLAGS no CPU can hold is proof rather than likelihood: it is excused
# even after another fault was (within VM_RESUMES new boots).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${VM_OUT:-$top/tests/out}	# VM_OUT=dir keeps concurrent runs apart
mkdir -p "$out"
export TESTS=${TESTS:-*}
pattern=$TESTS	# each boot's TESTS names the files still to run

mapfile -t files < <(bash "$here/guest/run-all.sh" --list)
# Host-side tests (tests/host/, selected by the same TESTS) run after the VM
# (with shards, after the first shard; see below).
mapfile -t hfiles < <(TEST_DIR=host bash "$here/run-host.sh" --list)
[ "${TEST_DIR:-t}" = t ] || hfiles=()
[ -n "${CHECK_SHARD:-}" ] && hfiles=()	# a shard runs VM files only
if [ ${#files[@]} = 0 ] && [ ${#hfiles[@]} = 0 ]; then
	echo "run-tests: no test file matches TESTS='$TESTS'" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
budget=${CHECK_BUDGET:-4500}
user_timeout=${VM_TIMEOUT:-}
export VM_MEM=${VM_MEM:-4096}
# Tests that replay recorded start-up traces read them from bench/.
export VM_SHARE=${VM_SHARE:-$top/bench}
export VM_DISKS=${VM_DISKS:-1G}	# "none" for no extra disk
export TEST_DIR=${TEST_DIR:-t}
export VM_PASS_ENV="TESTS TEST_DIR BFQNG_BOOT ${VM_PASS_ENV:-}"
# shellcheck source=tests/vm/console-scan.sh
. "$here/vm/console-scan.sh"
# shellcheck source=tests/vm/tap-report.sh
. "$here/vm/tap-report.sh"

rm -rf "$out"/boot-[0-9]*	# an earlier run's
[ -n "${CHECK_SHARD:-}" ] || rm -rf "$out"/shard-[0-9]*
tap=() cur_tap=()
todo=("${files[@]}")

# tap_add FILE: FILE's test points, unnumbered, onto the results.
tap_add() {
	local line
	while IFS= read -r line; do
		[[ $line =~ ^(not )?ok\ [0-9]+(.*)$ ]] && tap+=("${BASH_REMATCH[1]}ok${BASH_REMATCH[2]}")
	done <"$1"
}

# keep_log LOG WHAT: a copy of a dead or splatted guest's console log in
# the cache, outside the (possibly throw-away) checkout, where the next
# session can read it after CI: the newest 20 are kept (CONSOLE_KEEP=dir
# to keep them elsewhere).
keep_log() {
	local dir=${CONSOLE_KEEP:-${BFQNG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bfq-ng}/console-logs} kept
	mkdir -p "$dir" 2>/dev/null || return 0
	kept=$dir/$(date -u +%Y%m%dT%H%M%S)-${2//[^A-Za-z0-9._-]/_}.log
	cp "$1" "$kept" 2>/dev/null || return 0
	echo "run-tests: console log kept as $kept" >&2
	ls -1t "$dir"/*.log | tail -n +21 | xargs -r rm -f
}

# splat_tap LOG: the failure that a splat in LOG is.
splat_tap() {
	tap+=("not ok - kernel splat in the VM console log ($1): $(splat_lines "$1") || $(oops_brief "$1")")
}

host_pin=()
run_host_tests() {
	[ ${#hfiles[@]} -gt 0 ] || return 0
	echo "run-tests: ${#hfiles[@]} host-side test file(s)" >&2
	VM_OUT=$out TESTS=$pattern "${host_pin[@]}" "$here/run-host.sh" --tap | tee "$out/host.tap"
	tap_add "$out/host.tap"
	hfiles=()
}

# --- shards: the VM files split over VMs that run side by side ------------
# One VM per two host cores by default (CHECK_SHARDS=N to choose), each on
# two cores of its own: the timing tests were calibrated on a 2-vCPU guest
# with two idle host cores, and see that in every shard.  Each shard is this
# script again, with CHECK_SHARD=k and VM_OUT=$out/shard-k, on its share of
# the files (tests/vm/deal.sh), and keeps its own resume-after-death logic;
# the host-side tests run here on shard 1's cores once it is done, and
# count against it when the files are dealt.  Forced onto fewer cores, two
# VMs slow each other's timing tests: on a 2-core TCG host, CHECK_SHARDS=2
# took a warm run from 27 to 18-19 min but failed one or two tests that
# pass alone (README.md, "Test").
ncpu=$(nproc)
shards=${CHECK_SHARDS:-$((ncpu / 2))}
{ [ -n "${CHECK_SHARD:-}" ] || [ ${#files[@]} -lt 2 ] || [ "$shards" -lt 1 ]; } && shards=1
if [ "$shards" -gt 1 ]; then
	# shellcheck source=tests/vm/deal.sh
	. "$here/vm/deal.sh"
	hload=$(printf '%s\n' "${hfiles[@]}" | timed | awk '{ s += $1 } END { print s + 0 }')
	plan=$(printf '%s\n' "${files[@]}" | deal "$shards" "$hload")
	per=$((ncpu / shards))
	pids=()
	for ((k = 1; k <= shards; k++)); do
		list=$(awk -v k=$k '$1 == k { printf "%s%s", s, $2; s = "," }' <<<"$plan")
		[ -n "$list" ] || continue
		mkdir -p "$out/shard-$k"
		echo "run-tests: shard $k: $(tr , ' ' <<<"$list" | wc -w) file(s) in a VM of its own, output prefixed [vm$k]" >&2
		(
			export CHECK_SHARD=$k VM_OUT=$out/shard-$k TESTS=$list
			[ "$per" -ge 1 ] && export VM_HOST_CPUS=$(((k - 1) * per))-$((k * per - 1))
			export CHECK_BUDGET=$((budget - SECONDS))
			"$here/run-tests.sh" 2>&1 | sed -u "s/^/[vm$k] /"
		) &
		pids[k]=$!
	done
	for k in "${!pids[@]}"; do
		wait "${pids[k]}"
		if [ "$k" = 1 ]; then
			[ "$per" -ge 1 ] && host_pin=(taskset -c "0-$((per - 1))")
			run_host_tests
		fi
	done
	for k in "${!pids[@]}"; do
		if [ ! -s "$out/shard-$k/results.tap" ]; then
			tap+=("not ok - shard $k: no results (see $out/shard-$k/)")
			continue
		fi
		tap_add "$out/shard-$k/results.tap"
	done
	todo=()
fi
boot_no=0 excused=0 resumes=${VM_RESUMES:-2}
[ ${#files[@]} -gt 0 ] || rm -f "$out/splat"
while [ ${#todo[@]} -gt 0 ]; do
	boot_no=$((boot_no + 1))
	# The first boot writes to $out, as it always has; later ones beside it.
	if [ $boot_no = 1 ]; then bout=$out; else bout=$out/boot-$boot_no; fi
	mkdir -p "$bout"
	export VM_OUT=$bout BFQNG_BOOT=$boot_no
	TESTS=$(IFS=,; echo "${todo[*]}")
	export TESTS
	if [ -n "$user_timeout" ]; then
		VM_TIMEOUT=$user_timeout
	else
		# The files' limits plus boot margin, capped so that a CI run
		# (90 min in all) still ends with a verdict: files not reached
		# count as failed.
		VM_TIMEOUT=$(bash "$here/guest/run-all.sh" --timeouts |
			awk -v cap=$((budget - SECONDS)) '{ s += $2 + 20 } END { s += 300; print (s < cap ? s : cap) }')
	fi
	export VM_TIMEOUT
	stream=$bout/stream.tap
	echo "run-tests: ${#todo[@]} test file(s), VM timeout ${VM_TIMEOUT}s, boot $boot_no" >&2
	"$here/vm/run-vm.sh" "$here/guest/run-all.sh" | tee "$stream"
	vmrc=${PIPESTATUS[0]}

	# (A guest kernel that dies while booting, before any of our modules
	# is loaded, is booted once more by run-vm.sh itself.)

	# Collect the guest's test points, file by file.
	cur='' running='' ended=() btap=() cur_fail=()
	while IFS= read -r line; do
		if [[ $line =~ ^#\ BEGIN\ ([^ ]+)\  ]]; then
			cur=${BASH_REMATCH[1]} running=$cur cur_fail=()
		elif [[ $line =~ ^#\ END\ ([^ ]+)\  ]]; then
			ended+=("${BASH_REMATCH[1]}")
			btap+=("${cur_tap[@]}")
			cur='' running='' cur_tap=()
		elif [[ $line =~ ^(not )?ok\ [0-9]+(.*)$ ]]; then
			t="${BASH_REMATCH[1]}ok${BASH_REMATCH[2]}"
			if [ -n "$cur" ]; then cur_tap+=("$t"); else btap+=("$t"); fi
			[ -n "$cur" ] && [ -n "${BASH_REMATCH[1]}" ] && cur_fail+=("$t")
		fi
	done <"$stream"
	left=()
	for b in "${todo[@]}"; do
		[ "$b" = "$running" ] && continue
		printf '%s\n' "${ended[@]}" | grep -qxF -- "$b" || left+=("$b")
	done
	todo=()

	died=0
	[ "$vmrc" = 2 ] && { [ -n "$running" ] || [ ${#left[@]} -gt 0 ]; } && died=1
	{ [ $died = 1 ] || [ -e "$bout/splat" ]; } && keep_log "$bout/console.log" "${running:-boot-$boot_no}"
	if [ $died = 1 ] && [ "$resumes" -gt 0 ] && [ $((budget - SECONDS)) -gt 600 ]; then
		resumes=$((resumes - 1))
		if { [ $excused = 0 ] || proven_emulator_fault "$bout/console.log"; } &&
			[ -e "$bout/splat" ] && why=$(emulator_fault "$bout/console.log"); then
			excused=$((excused + 1))
			echo "run-tests: the guest kernel died of $why: the emulator's ($bout/console.log); ${running:-no file} runs again in a new VM" >&2
			# Its passes are dropped (it runs again), its failures kept.
			tap+=("${btap[@]}" "${cur_fail[@]}")
			[ -n "$running" ] && todo=("$running")
		else
			tap+=("${btap[@]}" "${cur_tap[@]}")
			[ -e "$bout/splat" ] && splat_tap "$bout/console.log"
			[ -n "$running" ] &&
				tap+=("not ok - $running: the VM died while it ran (run-vm exit $vmrc; see $bout/console.log)")
			[ ${#left[@]} -gt 0 ] &&
				echo "run-tests: the guest kernel died; the ${#left[@]} file(s) it did not reach run in a new VM" >&2
		fi
		todo+=("${left[@]}")
		cur_tap=()
		continue
	fi

	tap+=("${btap[@]}" "${cur_tap[@]}")
	cur_tap=()
	[ -e "$bout/splat" ] && splat_tap "$bout/console.log"
	[ -n "$running" ] &&
		tap+=("not ok - $running: the VM died or hung while it ran (run-vm exit $vmrc; see $bout/console.log)")
	for b in "${left[@]}"; do
		tap+=("not ok - $b: not run, the VM died or hung before it (run-vm exit $vmrc)")
	done
	if [ "$vmrc" != 0 ] && [ "$vmrc" != 1 ] && ! printf '%s\n' "${tap[@]}" | grep -q '^not ok'; then
		tap+=("not ok - test VM: run-vm.sh exited with status $vmrc")
	fi
done
export VM_OUT=$out TESTS=$pattern

if [ -z "${CHECK_SHARD:-}" ] && [ -s "$top/tests/out/build.failed" ]; then
	while read -r what; do
		tap+=("not ok - build: make $what failed (see tests/out/build.log); tests ran with whatever .ko files existed")
	done <"$top/tests/out/build.failed"
fi
run_host_tests

note=
[ "$shards" -gt 1 ] && note="shards' logs in $out/shard-*/; "
tap_report run-tests "$out" "$note"
