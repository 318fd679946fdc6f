#!/bin/bash
# Guest side of `make check-debug` (run by run-vm.sh on the debug kernel):
# stage the stock tests plus the debug lane's (tests/vm/debug-stage.sh),
# set the kmemleak baseline, then run them all with tests/guest/run-all.sh.
T=$BFQNG_TESTS
D=/tmp/dtests
bash "$T/vm/debug-stage.sh" "$T" "$D" || { echo "not ok - debug-stage failed"; exit 2; }
# Suspects that exist before any test ran are the kernel's own (boot): scan
# once and mark them, so that 99-kmemleak reports only what the run leaked.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	n=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	echo "# kmemleak baseline: $n boot-time suspect(s) set aside"
	grep -A12 '^unreferenced object' /sys/kernel/debug/kmemleak >"$BFQNG_OUT/kmemleak-boot.txt"
	echo clear >/sys/kernel/debug/kmemleak
fi
export BFQNG_TESTS=$D
exec bash "$D/guest/run-all.sh"
