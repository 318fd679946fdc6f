#!/usr/bin/env bash
# Host side of `make check`: boots ONE test VM running tests/guest/run-all.sh,
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
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${VM_OUT:-$top/tests/out}	# VM_OUT=dir keeps concurrent runs apart
mkdir -p "$out"
export TESTS=${TESTS:-*}

mapfile -t files < <(bash "$here/guest/run-all.sh" --list)
# Host-side tests (tests/host/, selected by the same TESTS) run after the VM.
mapfile -t hfiles < <(TEST_DIR=host bash "$here/run-host.sh" --list)
[ "${TEST_DIR:-t}" = t ] || hfiles=()
if [ ${#files[@]} = 0 ] && [ ${#hfiles[@]} = 0 ]; then
	echo "run-tests: no test file matches TESTS='$TESTS'" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
if [ -z "${VM_TIMEOUT:-}" ]; then
	# The files' limits plus boot margin, capped so that a CI run (90 min in
	# all) still ends with a verdict: files not reached count as failed.
	VM_TIMEOUT=$(bash "$here/guest/run-all.sh" --timeouts |
		awk -v cap="${CHECK_BUDGET:-4500}" '{ s += $2 + 20 } END { s += 300; print (s < cap ? s : cap) }')
fi
export VM_TIMEOUT
export VM_MEM=${VM_MEM:-4096}
# Tests that replay recorded start-up traces read them from bench/.
export VM_SHARE=${VM_SHARE:-$top/bench}
export VM_DISKS=${VM_DISKS:-1G}	# "none" for no extra disk
export VM_OUT=$out
export TEST_DIR=${TEST_DIR:-t}
export VM_PASS_ENV="TESTS TEST_DIR ${VM_PASS_ENV:-}"

stream=$out/stream.tap
echo "run-tests: ${#files[@]} test file(s), VM timeout ${VM_TIMEOUT}s" >&2
if [ ${#files[@]} -gt 0 ]; then
	"$here/vm/run-vm.sh" "$here/guest/run-all.sh" | tee "$stream"
	vmrc=${PIPESTATUS[0]}
else
	: >"$stream"
	rm -f "$out/splat"
	vmrc=0
fi

# (A guest kernel that dies while booting, before any of our modules is
# loaded, is booted once more by run-vm.sh itself.)

# Collect the guest's test points, then add the host-side failures.
tap=()
while IFS= read -r line; do
	if [[ $line =~ ^(not )?ok\ [0-9]+(.*)$ ]]; then
		tap+=("${BASH_REMATCH[1]}ok${BASH_REMATCH[2]}")
	fi
done <"$stream"

if [ -s "$top/tests/out/build.failed" ]; then
	while read -r what; do
		tap+=("not ok - build: make $what failed (see tests/out/build.log); tests ran with whatever .ko files existed")
	done <"$top/tests/out/build.failed"
fi
if [ -e "$out/splat" ]; then
	lines=$(grep -a -E 'BUG:|WARNING:|Oops|Call Trace|general protection fault|possible recursive locking|circular locking|INFO: |KASAN|UBSAN|kmemleak|Kernel panic' \
		"$out/console.log" | grep -a -v -E "${VM_SCAN_IGNORE:-RETBleed: WARNING|MMIO Stale Data: WARNING|Spectre.*WARNING}" |
		head -n 5 | sed 's/^\[[ 0-9.]*\] //' | paste -sd'|')
	tap+=("not ok - kernel splat in the VM console log ($out/console.log): $lines")
fi
for b in "${files[@]}"; do
	if grep -q "^# END $b " "$stream"; then continue; fi
	if grep -q "^# BEGIN $b " "$stream"; then
		tap+=("not ok - $b: the VM died or hung while it ran (run-vm exit $vmrc; see $out/console.log)")
	else
		tap+=("not ok - $b: not run, the VM died or hung before it (run-vm exit $vmrc)")
	fi
done
if [ "$vmrc" != 0 ] && [ "$vmrc" != 1 ] && ! printf '%s\n' "${tap[@]}" | grep -q '^not ok'; then
	tap+=("not ok - test VM: run-vm.sh exited with status $vmrc")
fi

if [ ${#hfiles[@]} -gt 0 ]; then
	echo "run-tests: ${#hfiles[@]} host-side test file(s)" >&2
	"$here/run-host.sh" --tap | tee "$out/host.tap"
	while IFS= read -r line; do
		[[ $line =~ ^(not )?ok\ [0-9]+(.*)$ ]] && tap+=("${BASH_REMATCH[1]}ok${BASH_REMATCH[2]}")
	done <"$out/host.tap"
fi

pass=0 fail=0 skip=0 i=0
{
	for t in "${tap[@]}"; do
		i=$((i + 1))
		if [[ $t == not\ ok* ]]; then
			fail=$((fail + 1))
			echo "not ok $i${t#not ok}"
		else
			if [[ $t =~ \#\ *[Ss][Kk][Ii][Pp] ]]; then skip=$((skip + 1)); else pass=$((pass + 1)); fi
			echo "ok $i${t#ok}"
		fi
	done
	echo "1..$i"
} >"$out/results.tap"

# Repeat the failures (with the host-side ones) just above the summary.
if [ $fail -gt 0 ]; then
	echo "run-tests: failures:"
	grep '^not ok' "$out/results.tap" | sed 's/^/  /'
fi
echo "run-tests: TAP in $out/results.tap, console log in $out/console.log" >&2
summary="$pass passed, $fail failed"
[ $skip -gt 0 ] && summary+=", $skip skipped"
echo "$summary"
[ $fail = 0 ]
