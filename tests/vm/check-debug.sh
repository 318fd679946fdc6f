#!/usr/bin/env bash
# Host side of `make check-debug`: the debug lane.
#  1. builds bfq-ng.ko, hddsim.ko and bfq-ng-kunit.ko against the debug kernel
#     (scripts/debug-kernel.sh) in a copy of the sources under
#     $BFQNG_CACHE/debug-build, so the repo's own objects (stock kernel) are
#     never touched;
#  2. boots ONE VM on the debug kernel running tests/vm/debug-guest.sh: the
#     stock tests (tests/t), then tests/t-debug and tests/stress (see
#     tests/vm/debug-stage.sh), ending with the kmemleak scan;
#  3. prints TAP (tests/out/debug/results.tap) and "N passed, N failed".
# Any KASAN, UBSAN, lockdep, kmemleak, BUG or WARNING in the console fails
# the run (run-vm.sh scans it).
#   TESTS='glob|a,b'       select files (stock or debug names, as run-all.sh)
#   CHECK_DEBUG_BUDGET=s   cap of the VM time (default 10800)
#   VM_OUT (default tests/out/debug), VM_MEM (4096), VM_DISKS (1G), VM_ARGS...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/config.sh"

DK=$BFQNG_CACHE/debug-kernel
KDIR=$DK/src
out=${VM_OUT:-$top/tests/out/debug}
build=$BFQNG_CACHE/debug-build
export TESTS=${TESTS:-*}
mkdir -p "$out"
rm -f "$out/build.failed"
: >"$out/build.log"
t0=$(date +%s)

for f in bzImage initrd.img kver; do
	[ -s "$DK/$f" ] || { echo "check-debug: $DK/$f missing: run 'make debug-kernel'" >&2; exit 2; }
done

# --- 1. modules against the debug tree ---------------------------------------
mkdir -p "$build"
rsync -a --delete --prune-empty-dirs \
	--exclude=/.git --exclude=/tests/out --exclude=/bench \
	--include='*/' --include='*.c' --include='*.h' --include='Kbuild' --exclude='*' \
	"$top/" "$build/"
kos=$BFQNG_CACHE/debug-build-ko
rm -rf "$kos"
mkdir -p "$kos"
low=(nice -n 19)
mod() { # mod WHAT DIR [ARGS]
	local what=$1 dir=$2
	shift 2
	echo "check-debug: building $what against $KDIR" >&2
	if "${low[@]}" make -C "$KDIR" M="$dir" "$@" modules >>"$out/build.log" 2>&1 &&
		compgen -G "$dir/*.ko" >/dev/null; then
		cp "$dir"/*.ko "$kos/"
	else
		echo "$what" >>"$out/build.failed"
		echo "check-debug: WARNING: building $what failed (see $out/build.log)" >&2
	fi
}
mod bfq-ng "$build" KPRIV="$KPRIV_DIR"
[ -f "$build/tests/devices/hddsim/Kbuild" ] && mod hddsim "$build/tests/devices/hddsim"
mod bfq-ng-kunit "$build/tests/kunit"
grep -E 'warning:|error:' "$out/build.log" | sed 's/^/check-debug: build: /' >&2
t1=$(date +%s)

# --- 2. the VM ----------------------------------------------------------------
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
bash "$here/debug-stage.sh" "$top/tests" "$stage/tests"
mapfile -t files < <(BFQNG_TESTS=$stage/tests bash "$top/tests/guest/run-all.sh" --list)
if [ ${#files[@]} = 0 ]; then
	echo "check-debug: no test file matches TESTS='$TESTS'" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
if [ -z "${VM_TIMEOUT:-}" ]; then
	VM_TIMEOUT=$(BFQNG_TESTS=$stage/tests bash "$top/tests/guest/run-all.sh" --timeouts |
		awk -v cap="${CHECK_DEBUG_BUDGET:-10800}" '{ s += $2 + 20 } END { s += 400; print (s < cap ? s : cap) }')
fi
export VM_TIMEOUT VM_OUT=$out
export VM_KERNEL=$DK/bzImage VM_INITRD=$DK/initrd.img VM_MODULES=$kos
export VM_MEM=${VM_MEM:-4096}
export VM_DISKS=${VM_DISKS:-1G}
# bench/ at /mnt/host, as in the stock lane (test 34 replays its traces).
export VM_SHARE=${VM_SHARE:-$top/bench}
# pci=noacpi: under KASAN+lockdep on TCG, evaluating the ACPI _PRT methods
# for PCI interrupt routing hits ACPICA's 30 s AML loop timeout per device
# (no GSI, minutes of boot); the BIOS PIRQ table gives the same routing.
# slab_nomerge: failslab's cache filter must hit bq_queue alone.  The stall
# detectors get the slack a KASAN kernel under TCG needs.
export VM_ARGS="pci=noacpi slab_nomerge rcupdate.rcu_cpu_stall_timeout=120 watchdog_thresh=30 ${VM_ARGS:-}"
export VM_PASS_ENV="TESTS ${VM_PASS_ENV:-}"
# kmemleak announces itself at boot, and every scan that finds suspects says
# so, the baseline scan of boot-time suspects included: 99-kmemleak.sh is the
# judge of leaks (it reads the report after the last scan).
export VM_SCAN_IGNORE="${VM_SCAN_IGNORE:-RETBleed: WARNING|MMIO Stale Data: WARNING|Spectre.*WARNING}|kmemleak: Kernel memory leak detector initialized|kmemleak: Automatic memory scanning thread|kmemleak: [0-9]+ new suspected memory leaks"
# shellcheck source=tests/vm/console-scan.sh
. "$here/console-scan.sh"
# shellcheck source=tests/vm/tap-report.sh
. "$here/tap-report.sh"

stream=$out/stream.tap
echo "check-debug: $(cat "$DK/kver"), ${#files[@]} test file(s), VM timeout ${VM_TIMEOUT}s" >&2
"$here/run-vm.sh" "$here/debug-guest.sh" | tee "$stream"
vmrc=${PIPESTATUS[0]}
t2=$(date +%s)

# --- 3. verdict -----------------------------------------------------------------
tap=()
while IFS= read -r line; do
	if [[ $line =~ ^(not )?ok\ [0-9]+(.*)$ ]]; then
		tap+=("${BASH_REMATCH[1]}ok${BASH_REMATCH[2]}")
	fi
done <"$stream"
if [ -s "$out/build.failed" ]; then
	while read -r what; do
		tap+=("not ok - build: $what against the debug kernel failed (see $out/build.log)")
	done <"$out/build.failed"
fi
if [ -e "$out/splat" ]; then
	lines=$(splat_lines "$out/console.log")
	tap+=("not ok - kernel splat in the VM console log ($out/console.log): $lines")
fi
for b in "${files[@]}"; do
	grep -q "^# END $b " "$stream" && continue
	if grep -q "^# BEGIN $b " "$stream"; then
		tap+=("not ok - $b: the VM died or hung while it ran (run-vm exit $vmrc; see $out/console.log)")
	else
		tap+=("not ok - $b: not run, the VM died or hung before it (run-vm exit $vmrc)")
	fi
done
if [ "$vmrc" != 0 ] && [ "$vmrc" != 1 ] && ! printf '%s\n' "${tap[@]}" | grep -q '^not ok'; then
	tap+=("not ok - test VM: run-vm.sh exited with status $vmrc")
fi

tap_report check-debug "$out" "module build $((t1 - t0))s, VM $((t2 - t1))s; "
