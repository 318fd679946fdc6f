#!/bin/bash
# timeout: 300
# Host side, no VM: the engine's KUnit suite (tests/wf2q_kunit.c) still
# compiles against the engine (wf2q.[ch]) and policy.h as they are.  The
# pinned stock kernel has no KUnit, so the suite runs in the kernel only in
# the debug lane (make check-debug); here it is built with CONFIG_KUNIT=m
# forced, in a copy of the sources, and only KUnit's own symbols may be
# missing at link time.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TOP/scripts/config.sh"

tmp=$(mktemp -d)
at_exit rm -rf "$tmp"
mkdir -p "$tmp/tests/kunit"
cp "$BFQNG_TOP"/wf2q.[ch] "$BFQNG_TOP/policy.h" "$tmp/"
cp "$BFQNG_TOP/tests/wf2q_kunit.c" "$tmp/tests/"
cp "$BFQNG_TOP/tests/kunit/Kbuild" "$tmp/tests/kunit/"
log=$BFQNG_OUT/h12-kunit-build.log
make -C "${KDIR:-$KDIR_DEFAULT}" M="$tmp/tests/kunit" CONFIG_KUNIT=m \
	KBUILD_MODPOST_WARN=1 modules >"$log" 2>&1
rc=$?
check_eq "the KUnit suite compiles against the engine (make status; see $log)" "$rc" 0
check_eq "no compiler warning or error" "$(grep -cE '(warning|error):' "$log")" 0
missing=$(sed -n 's/.*modpost: "\([^"]*\)".*undefined!.*/\1/p' "$log" | grep -v '^_\{0,2\}kunit_' | paste -sd' ')
check_eq "only KUnit's symbols are missing at link time" "${missing:-none}" none
check_eq "the suite lists every test case it defines" \
	"$(grep -cE '^static void [a-z0-9]+_test_' "$BFQNG_TOP/tests/wf2q_kunit.c")" \
	"$(grep -c '^[[:space:]]*KUNIT_CASE(' "$BFQNG_TOP/tests/wf2q_kunit.c")"
