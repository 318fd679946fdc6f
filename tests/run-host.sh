#!/usr/bin/env bash
# Host-side tests: tests/host/*.sh, selected by TESTS like the VM's tests and
# run by the same runner (tests/guest/run-all.sh), but on the host: quick
# checks that need no VM (install layout, tools on a fake sysfs).  They must
# never load a module or touch the host's /lib/modules.
#   run-host.sh          TAP, then "N passed, N failed"
#   run-host.sh --tap    TAP only (tests/run-tests.sh counts it with the VM's)
#   run-host.sh --list   the selected file names
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
export TEST_DIR=host BFQNG_TESTS=$top/tests BFQNG_TOP=$top
export BFQNG_OUT=${VM_OUT:-$top/tests/out}/host-out
runner=$top/tests/guest/run-all.sh

if [ "${1:-}" = --list ]; then
	bash "$runner" --list
	exit 0
fi
mkdir -p "$BFQNG_OUT"

# The files run in two lanes at once (CHECK_HOST_JOBS=1: one after the
# other): none of them measures time, and each of the slow ones (h05's and
# h31's VMs, h30's kernel build) keeps about one core busy.  Files are dealt
# to the lanes like run-tests.sh's shards (tests/vm/deal.sh); each lane's
# TAP is printed once all are done, lane after lane, numbered across them.
lanes() {
	local jobs=${CHECK_HOST_JOBS:-2} plan k list rc=0 pids=()
	local sel
	mapfile -t sel < <(bash "$runner" --list)
	[ "$jobs" -gt ${#sel[@]} ] && jobs=${#sel[@]}
	if [ "$jobs" -lt 2 ]; then
		bash "$runner"
		return
	fi
	# shellcheck source=tests/vm/deal.sh
	. "$here/vm/deal.sh"
	plan=$(printf '%s\n' "${sel[@]}" | deal "$jobs")
	for ((k = 1; k <= jobs; k++)); do
		list=$(awk -v k=$k '$1 == k { printf "%s%s", s, $2; s = "," }' <<<"$plan")
		TESTS=$list bash "$runner" >"$BFQNG_OUT/lane-$k.tap" 2>&1 &
		pids+=($!)
	done
	for k in "${pids[@]}"; do wait "$k" || rc=1; done
	for ((k = 1; k <= jobs; k++)); do cat "$BFQNG_OUT/lane-$k.tap"; done |
		awk '/^1\.\.[0-9]+$/ { next }
			/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) }
			{ print } END { print "1.." n + 0 }'
	return $rc
}
if [ "${1:-}" = --tap ]; then
	lanes
	exit
fi
tap=$(lanes)
rc=$?
printf '%s\n' "$tap"
pass=$(grep -c '^ok ' <<<"$tap")
fail=$(grep -c '^not ok ' <<<"$tap")
echo "$pass passed, $fail failed"
[ "$rc" = 0 ] && [ "$fail" = 0 ]
