#!/bin/bash
# timeout: 600
# KUnit suites of the engine (tests/wf2q_kunit.c, module bfq-ng-kunit): load
# the module, which runs them, and turn every case of the debugfs KTAP
# results into a TAP line.  The expected cases are counted, so a suite that
# runs nothing, or fewer cases than the source defines, fails.
source "$BFQNG_TESTS/lib.sh"

suite=bfq-ng-wf2q
res=/sys/kernel/debug/kunit/$suite/results
[ -d /sys/kernel/debug/kunit ] || die "no /sys/kernel/debug/kunit (kernel without KUNIT_DEBUGFS?)"
want=$(grep -c '^[[:space:]]*KUNIT_CASE(' "$BFQNG_TESTS/wf2q_kunit.c")
[ "$want" -gt 0 ] || die "cannot count the cases in wf2q_kunit.c"

modprobe -r bfq-ng-kunit 2>/dev/null
t0=$SECONDS
modprobe bfq-ng-kunit || die "modprobe bfq-ng-kunit failed"
diag "suite ran in $((SECONDS - t0)) s"
[ -r "$res" ] || die "no $res after loading the module"
cp "$res" "$BFQNG_OUT/kunit-$suite.ktap" 2>/dev/null

seen=0
detail=()
while IFS= read -r line; do
	if [[ $line =~ ^[[:space:]]+#[[:space:]](.*)$ ]]; then
		detail+=("${BASH_REMATCH[1]}")
	elif [[ $line =~ ^[[:space:]]+(not\ )?ok\ [0-9]+\ ([A-Za-z0-9_]+)(.*)$ ]]; then
		seen=$((seen + 1))
		name="kunit $suite: ${BASH_REMATCH[2]}"
		if [ -z "${BASH_REMATCH[1]}" ]; then
			if [[ ${BASH_REMATCH[3]} =~ SKIP ]]; then tap_skip "$name" "${BASH_REMATCH[3]}"
			else tap_ok "$name"; fi
		else
			tap_fail "$name" "$(printf '%s | ' "${detail[@]}" | head -c 1500)"
		fi
		detail=()
	fi
done <"$res"
check_eq "kunit $suite: every case of wf2q_kunit.c ran" "$seen" "$want"
if grep -q "^ok [0-9]* $suite" "$res"; then tap_ok "kunit $suite: suite result ok"
else tap_fail "kunit $suite: suite result" "$(grep -E '^(not )?ok [0-9]+ ' "$res" | tail -n1)"; fi
modprobe -r bfq-ng-kunit || tap_fail "unload bfq-ng-kunit"
exit 0
