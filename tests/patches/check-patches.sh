#!/usr/bin/env bash
# `make check-patches`: the `make patches` series applies without fuzz to
# the pinned linux-source tree and builds there: CONFIG_IOSCHED_BFQ_NG=m
# with Debian's config, block/bfq-ng/'s objects, and bfq-ng.ko (modpost
# against the pinned kernel's Module.symvers).  Host side, no VM; prints
# TAP and "N passed, N failed".
# The extracted, configured and modules_prepare'd tree is cached in
# $BFQNG_CACHE/ksrc-tree/ (cold: ~5 min and 2 GB; warm: ~1 min); each run
# restores the files the series may touch before and after it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/config.sh"
export BFQNG_TESTS=$top/tests BFQNG_OUT=$top/tests/out/patches
mkdir -p "$BFQNG_OUT"
source "$top/tests/lib.sh"

cache=$BFQNG_CACHE/ksrc-tree/$KPKGVER
tree=$cache/tree
# What the series may change, restored from $cache/pristine at every run.
restore_paths=(block Documentation/block MAINTAINERS .config)
jobs=$(nproc)
log=$BFQNG_OUT/build.log
: >"$log"
pass=0 fail=0
summary() {
	pass=$(grep -c '^ok' "$BFQNG_OUT/tap")
	fail=$(grep -c '^not ok' "$BFQNG_OUT/tap")
	echo "$pass passed, $fail failed"
}

prepare_tree() {
	[ -e "$cache/.prepared" ] && return 0
	diag "preparing $tree (extract, Debian config, modules_prepare): a few minutes, once"
	rm -rf "$cache"
	mkdir -p "$tree" "$cache/pristine"
	tar -xJf "$KSRC_TARBALL" -C "$tree" --strip-components=1 || return 1
	cp "$KDIR_DEFAULT/.config" "$tree/.config" &&
		cp "$KDIR_DEFAULT/Module.symvers" "$tree/Module.symvers" || return 1
	make -C "$tree" olddefconfig >>"$log" 2>&1 &&
		make -C "$tree" -j"$jobs" modules_prepare >>"$log" 2>&1 || return 1
	(cd "$tree" && cp -a --parents "${restore_paths[@]}" "$cache/pristine/") || return 1
	touch "$cache/.prepared"
}

reset_tree() {
	local p
	for p in "${restore_paths[@]}"; do
		rm -rf "${tree:?}/$p"
		cp -a "$cache/pristine/$p" "$tree/$p"
	done
}

exec 9>"$BFQNG_CACHE/.ksrc-tree.lock"
flock 9
{
	start=$SECONDS
	if ! prepare_tree; then
		tap_fail "the pinned linux-source tree is prepared" "see $log: $(tail -n 3 "$log" | paste -sd' ')"
		exit 1
	fi
	diag "tree ready after $((SECONDS - start)) s"
	reset_tree

	series=$BFQNG_OUT/series
	if "$top/scripts/make-patches.sh" "$series" >>"$log" 2>&1; then
		tap_ok "make patches writes a series ($(find "$series" -name '0*.patch' | wc -l) files)"
	else
		tap_fail "make patches writes a series" "see $log"
		exit 1
	fi

	outside=$(grep -h '^+++ b/' "$series"/*.patch | sed 's#^+++ b/##' |
		grep -v -E '^(block/|Documentation/block/|MAINTAINERS$)' | paste -sd' ')
	check_eq "the series touches only block/, Documentation/block/ and MAINTAINERS (others)" "${outside:-none}" none

	bad=
	for p in "$series"/0*.patch; do
		case $p in *0000-cover-letter.patch) continue ;; esac
		out=$(patch -d "$tree" -p1 -N --fuzz=0 <"$p" 2>&1) || bad+=" ${p##*/}"
		printf '%s\n' "$out" >>"$log"
		grep -q -E 'offset|fuzz' <<<"$out" && bad+=" ${p##*/}(offset)"
	done
	check_eq "every patch applies to linux-source $KPKGVER without fuzz or offset (failed)" "${bad:-none}" none

	(cd "$tree" && ./scripts/config --module IOSCHED_BFQ_NG && make olddefconfig) >>"$log" 2>&1
	check_eq "Kconfig offers IOSCHED_BFQ_NG (after olddefconfig)" \
		"$(grep '^CONFIG_IOSCHED_BFQ_NG=' "$tree/.config")" "CONFIG_IOSCHED_BFQ_NG=m"

	t0=$SECONDS
	make -C "$tree" -j"$jobs" block/bfq-ng/ >>"$log" 2>&1
	missing=
	for o in $(sed -n 's/^bfq-ng-y[[:space:]]*:\{0,1\}=//p' "$tree/block/bfq-ng/Makefile"); do
		[ -f "$tree/block/bfq-ng/$o" ] || missing+=" $o"
	done
	check_eq "make block/bfq-ng/ builds every object in the tree (missing)" "${missing:-none}" none
	warnings=$(grep -c -E 'block/bfq-ng/.*(warning|error):' "$log")
	check_eq "no compiler warning in block/bfq-ng/" "$warnings" 0

	# In-tree modpost wants vmlinux.o; as an external build of the same
	# directory it checks the module against the pinned Module.symvers.
	make -C "$tree" -j"$jobs" M="$tree/block/bfq-ng" modules >>"$log" 2>&1
	check_eq "bfq-ng.ko links and passes modpost against $KVER's Module.symvers" \
		"$([ -f "$tree/block/bfq-ng/bfq-ng.ko" ] && ! grep -q 'modpost: .*undefined' "$log" && echo yes)" yes
	diag "build took $((SECONDS - t0)) s"

	cp=$(cd "$tree" && ./scripts/checkpatch.pl --strict --terse --no-signoff \
		"$series"/000[1-9]*.patch 2>&1 | grep -c -E ': (ERROR|WARNING|CHECK):')
	diag "checkpatch --strict on the series: $cp ERROR/WARNING/CHECK lines (informational)"
} 2>&1 | tee "$BFQNG_OUT/tap"
[ -e "$cache/.prepared" ] && reset_tree
summary
[ "$fail" = 0 ]
