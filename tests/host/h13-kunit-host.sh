#!/bin/bash
# timeout: 300
# Host side, no VM: the engine's KUnit suite (tests/wf2q_kunit.c, which
# compiles wf2q.c into itself) built as a host program and run, one test
# point per case.  The pinned stock kernel has no KUnit; the debug lane runs
# the same cases in the kernel.  The host build uses the kernel source's
# userspace rbtree (tools/lib/rbtree.c, tools/include), extracted into the
# cache once, and the shims in tests/kunit/host/.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TOP/scripts/config.sh"

tools=$BFQNG_CACHE/ktools/$KPKGVER
if [ ! -e "$tools/.done" ]; then
	[ -r "$KSRC_TARBALL" ] || die "$KSRC_TARBALL missing: run 'make deps'"
	rm -rf "$tools"
	mkdir -p "$tools"
	tar -xJf "$KSRC_TARBALL" -C "$tools" --strip-components=1 --wildcards \
		'linux-source-6.12/tools/include/*' \
		'linux-source-6.12/tools/arch/x86/include/*' \
		'linux-source-6.12/tools/lib/rbtree.c' || die "extracting tools/ from $KSRC_TARBALL"
	touch "$tools/.done"
fi

bin=$BFQNG_OUT/wf2q-kunit-host
log=$BFQNG_OUT/h13-kunit-host-build.log
# -Wno-format: tools/ types u64 as unsigned long, the kernel (and the
# engine's printf formats) as unsigned long long; same width on x86-64.
cc -O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-format \
	-Wno-format-zero-length -D__SANE_USERSPACE_TYPES__ \
	-I"$BFQNG_TOP/tests/kunit/host/include" -I"$tools/tools/include" \
	-I"$tools/tools/arch/x86/include" -o "$bin" \
	"$BFQNG_TOP/tests/kunit/host/main.c" "$BFQNG_TOP/tests/wf2q_kunit.c" \
	"$tools/tools/lib/rbtree.c" >"$log" 2>&1
check_eq "the engine's KUnit suite builds as a host program (cc status; see $log)" "$?" 0
check_eq "no compiler warning" "$(grep -c 'warning:' "$log")" 0
[ -x "$bin" ] || exit 0

out=$("$bin")
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*) tap_ok "KUnit on the host: ${line#ok * - }" ;;
	"not ok "*) tap_fail "KUnit on the host: ${line#not ok * - }" \
		"$(grep "^# ${line##*: }:" <<<"$out" | sed 's/^# //' | paste -sd';')" ;;
	esac
done <<<"$out"
check_eq "every case the suite lists ran to its end (cases reported)" \
	"$(grep -cE '^(not )?ok ' <<<"$out")" \
	"$(grep -c '^[[:space:]]*KUNIT_CASE(' "$BFQNG_TOP/tests/wf2q_kunit.c")"
check_eq "the host run's exit status" "$rc" 0
