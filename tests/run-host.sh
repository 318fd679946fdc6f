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
if [ "${1:-}" = --tap ]; then
	bash "$runner"
	exit
fi
tap=$(bash "$runner")
rc=$?
printf '%s\n' "$tap"
pass=$(grep -c '^ok ' <<<"$tap")
fail=$(grep -c '^not ok ' <<<"$tap")
echo "$pass passed, $fail failed"
[ "$rc" = 0 ] && [ "$fail" = 0 ]
