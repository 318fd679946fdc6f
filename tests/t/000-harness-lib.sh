#!/bin/bash
# timeout: 60
# Harness self-test: lib.sh's check helpers really report failures (with the
# measured value and the bound) and passes, so that tests can fail.
source "$BFQNG_TESTS/lib.sh"

# expect DESC WANT_RC WANT_PREFIX WANT_TEXT CMD...: run a helper in a subshell
# (so its TAP line is captured, not reported) and check its rc and output.
expect() {
	local desc=$1 want_rc=$2 want_prefix=$3 want_text=$4 out rc
	shift 4
	out=$( ("$@") 2>&1)
	rc=$?
	if [ "$rc" = "$want_rc" ] && [[ $out == "$want_prefix"* ]] && [[ $out == *"$want_text"* ]]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "got rc=$rc output '$out', expected rc=$want_rc '$want_prefix...$want_text...'"
	fi
}
expect "check_le 5 <= 3 fails, naming measured value and bound" 1 "not ok - x" "measured 5, bound <= 3" check_le x 5 3
expect "check_le 3 <= 5 passes" 0 "ok - x" "" check_le x 3 5
expect "check_le 2.5 <= 2.5 passes" 0 "ok - x" "" check_le x 2.5 2.5
expect "check_ge 1 >= 2 fails" 1 "not ok - x" "measured 1, bound >= 2" check_ge x 1 2
expect "check_gt 0 > 0 fails" 1 "not ok - x" "bound > 0" check_gt x 0 0
expect "check_lt 1 < 2 passes" 0 "ok - x" "" check_lt x 1 2
expect "check_range 7 in [1, 5] fails" 1 "not ok - x" "measured 7, bound [1, 5]" check_range x 7 1 5
expect "check_range 3 in [1, 5] passes" 0 "ok - x" "" check_range x 3 1 5
expect "check_eq 1.0 == 1 passes numerically" 0 "ok - x" "" check_eq x 1.0 1
expect "check_eq of strings fails on mismatch" 1 "not ok - x" "measured 'a', expected 'b'" check_eq x a b
expect "a non-number fails a numeric check" 1 "not ok - x" "measured abc" check_le x abc 3
expect "an empty value fails a numeric check" 1 "not ok - x" "measured <empty>" check_ge x "" 3
expect "tap_skip prints a TAP SKIP" 0 "ok - x # SKIP" "why" tap_skip x why
expect "die reports a failure and exits 1" 1 "not ok - " "boom" die boom
expect "a failing fio_json_bw on a missing file is not a number" 1 "not ok - x" "bound" \
	bash -c 'source "$BFQNG_TESTS/lib.sh"; check_ge x "$(fio_json_bw /nonexistent j 2>/dev/null)" 1'

# The runner's own failure accounting: a file exiting non-zero without
# reporting, a file timing out and a file reporting nothing all add failures.
tmp=$(mktemp -d)
mkdir -p "$tmp/t"
cp "$BFQNG_TESTS/lib.sh" "$tmp/"
printf '#!/bin/bash\nsource "$BFQNG_TESTS/lib.sh"\ntap_ok fine\nexit 3\n' >"$tmp/t/a-exit.sh"
printf '#!/bin/bash\n# timeout: 2\nsource "$BFQNG_TESTS/lib.sh"\nsleep 30\n' >"$tmp/t/b-hang.sh"
printf '#!/bin/bash\ntrue\n' >"$tmp/t/c-silent.sh"
printf '#!/bin/bash\nsource "$BFQNG_TESTS/lib.sh"\ntap_ok one\ncheck_le two 5 3\ntap_skip three why\n' >"$tmp/t/d-mixed.sh"
out=$(BFQNG_TESTS=$tmp TESTS='*' bash "$BFQNG_TESTS/guest/run-all.sh" 2>&1)
rc=$?
check_eq "runner exits non-zero when tests fail" "$rc" 1
check_eq "runner plan counts every point" "$(grep -c '^\(not \)\?ok [0-9]' <<<"$out")/$(grep '^1\.\.' <<<"$out")" "7/1..7"
check_eq "a non-zero exit without a reported failure is a failure" \
	"$(grep -c '^not ok [0-9]* - a-exit.sh: exited with status 3' <<<"$out")" 1
check_eq "a timeout is a failure" "$(grep -c '^not ok [0-9]* - b-hang.sh: timed out after 2s' <<<"$out")" 1
check_eq "a file reporting nothing is a failure" "$(grep -c '^not ok [0-9]* - c-silent.sh: reported no' <<<"$out")" 1
check_eq "points are numbered globally" "$(grep -c '^not ok 6 - two: measured 5, bound <= 3' <<<"$out")" 1
check_eq "TESTS selects by glob" "$(BFQNG_TESTS=$tmp TESTS='c*,d-mixed' bash "$BFQNG_TESTS/guest/run-all.sh" --list | paste -sd,)" "c-silent.sh,d-mixed.sh"
rm -rf "$tmp"
