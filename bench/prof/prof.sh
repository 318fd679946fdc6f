#!/bin/bash
# Where bfq-ng's per-request instructions go, against mq-deadline's
# (bench/prof/prof.sh, from the top of the tree).  Three profiling builds:
#  - hooks: the working tree, each elevator hook timed whole (wrap.h);
#  - fine: the working tree, the steps inside the hooks (fine.patch; no span
#    inside another, so each figure is exact);
#  - dd: mq-deadline from the pinned kernel's source (block/mq-deadline.c
#    of linux-source-6.12, extracted into the cache, never into the tree),
#    registered as "dd-prof", its hooks timed by the same wrap.h.
# All run in one boot of the VM under QEMU's icount with one vCPU, where
# local_clock() counts guest instructions, on no-latency null_blk (4 KiB
# random reads, CASES, default uring1x32; see guest-prof.sh) for RT seconds
# each.  Prints, per span: calls per request and mean instructions per
# call, an empty span's taken off.  If a patch no longer applies, refresh
# it against the code it times.  PROF_ACCEL=tcg runs plain TCG instead,
# where local_clock() is time: the figures are then nanoseconds of the
# emulation, in which some instructions (interrupt flags, clock and timer
# access) cost far more than others.  PROF_SMP=2 gives the VM two vCPUs,
# for the two-job cases: under plain TCG they then run in parallel and
# their queues are busy at once, which icount (vCPUs in turn) never shows.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/prof
work=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-prof.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/share"
cp "$top/bench/guest/fast-lib.sh" "$work/share/"
for v in bfq0 hooks fine; do
	mkdir "$work/$v"
	git -C "$top" ls-files -z | tar -C "$top" --null -T - -c | tar -x -C "$work/$v"
	if [ $v != bfq0 ]; then
		patch -d "$work/$v" -p1 -s --no-backup-if-mismatch <"$here/$v.patch" ||
			{ echo "prof: $v.patch does not apply to this tree" >&2; exit 1; }
		cp "$here/prof.h" "$here/prof.c" "$here/wrap.h" "$work/$v/"
		echo 'bfq-ng-y += prof.o' >>"$work/$v/Kbuild"
	fi
	make -s -C "$work/$v" modules KCFLAGS=-Wno-declaration-after-statement >"$work/$v.log" 2>&1 ||
		{ cat "$work/$v.log" >&2; exit 1; }
	cp "$work/$v/bfq-ng.ko" "$work/share/$v.ko"
done
# mq-deadline: the pinned source, its hooks pointed at wrap.h's wrappers.
source "$top/scripts/config.sh"
dd_src=$BFQNG_CACHE/prof/mq-deadline.c
if [ ! -s "$dd_src" ]; then
	mkdir -p "$(dirname "$dd_src")"
	tar -xJOf "$KSRC_TARBALL" linux-source-6.12/block/mq-deadline.c >"$dd_src.tmp"
	mv "$dd_src.tmp" "$dd_src"
fi
for v in dd0 dd; do
	mkdir "$work/$v"
	cp "$here/prof.h" "$here/prof.c" "$here/wrap.h" "$work/$v/"
	wrap=0
	[ $v = dd ] && wrap=1
	awk -v wrap=$wrap '
	wrap && /^static struct elevator_type mq_deadline = \{/ {
		n = split("LIMIT_DEPTH dd_limit_depth BIO_MERGE dd_bio_merge PREPARE dd_prepare_request INSERT dd_insert_requests HAS_WORK dd_has_work DISPATCH dd_dispatch_request FINISH dd_finish_request", w, " ")
		for (i = 1; i < n; i += 2) print "#define PW_" w[i] " " w[i + 1]
		print "#include \"wrap.h\""
	}
	/^\t\t\.(limit_depth|bio_merge|prepare_request|insert_requests|has_work|dispatch_request|finish_request)\t/ {
		if (wrap)
			sub(/= dd_[a-z_]+,/, "= prof_" substr($1, 2) ",")
		hooked++
	}
	/\.elevator_name = "mq-deadline",/ { sub(/"mq-deadline"/, "\"dd-prof\""); named++ }
	/\.elevator_alias = / { next }
	/^static void __exit deadline_exit\(void\)/ {
		print; getline; print
		if (wrap)
			print "\tbq_prof_report();"
		ended++; next
	}
	{ print }
	END { if (hooked != 7 || named != 1 || ended != 1) exit 1 }' "$dd_src" >"$work/$v/mq-deadline.c" ||
		{ echo "prof: block/mq-deadline.c is not as expected" >&2; exit 1; }
	printf '%s\n' 'obj-m += mq-deadline-prof.o' \
		"mq-deadline-prof-y := mq-deadline.o$([ $wrap = 1 ] && echo ' prof.o')" \
		"ccflags-y += -I$KPRIV_DIR/block" >"$work/$v/Kbuild"
	make -s -C "$KDIR_DEFAULT" M="$work/$v" modules >"$work/$v.log" 2>&1 ||
		{ cat "$work/$v.log" >&2; exit 1; }
	cp "$work/$v/mq-deadline-prof.ko" "$work/share/$v.ko"
done

out=$work/out
VM_SMP=${PROF_SMP:-1} VM_ACCEL=${PROF_ACCEL:-icount} VM_SHARE=$work/share VM_OUT=$out VM_PASS_ENV="RT CASES" \
	RT=${RT:-3} CASES=${CASES:-uring1x32} VM_TIMEOUT=${VM_TIMEOUT:-1200} \
	"$top/tests/vm/run-vm.sh" "$here/guest-prof.sh" >"$work/vm.log" 2>&1 ||
	{ tail -n 20 "$work/vm.log" >&2; exit 1; }
awk -f "$here/report.awk" "$out/guest-out/prof.txt"
cp "$out/guest-out/prof.txt" "${PROF_OUT:-/dev/null}"
