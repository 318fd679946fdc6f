#!/bin/bash
# timeout: 300
# A queue that preempts another of its group is the one served next, in a
# child group as at the root: the group's slot goes on, where ending it
# could let a sibling group come first, for a whole slot of its own.
# Cgroups A and B (same weight) have five random readers each on hddsim;
# then an RT-class reader with 40 ms of think time starts in A, which
# preempts A's random reader in service at each of its reads that finds A
# in service.  For each preemption, the next request dispatched must be the
# RT reader's.  Before the fix: 10 of 45 preemptions were followed by a
# dispatch from another queue.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
dev=$(make_hdd) || die "hddsim"
at_exit remove_hdd
use_sched "$dev" bfq-ng || die "select"
cg_make A 100 && cg_make B 100 || die "cgroups"

# in_cg PATH CMD...: run CMD (exec'd) inside cgroup PATH.
in_cg() {
	local path=$1
	shift
	cg_move "$BASHPID" "$path" && exec "$@"
}
rand=()
for g in A B; do
	in_cg "$g" fio --name="rand$g" --filename="/dev/$dev" --rw=randread \
		--bs=4k --ioengine=psync --direct=1 --numjobs=5 --offset=1g \
		--size=6g --time_based --runtime=120 --output=/dev/null \
		>/dev/null 2>&1 &
	rand+=($!)
done
at_exit "kill ${rand[*]} 2>/dev/null"
sleep 4
trace_start -b 16384 || die "tracefs"
echo global >"$T/trace_clock" || die "trace_clock"
at_exit "echo local >$T/trace_clock"
trace_start bfq_ng_activate bfq_ng_dispatch || die "trace events"
(in_cg A fio --name=rt --filename="/dev/$dev" --rw=read --bs=512k \
	--ioengine=psync --direct=1 --prioclass=1 --prio=4 --thinktime=40ms \
	--size=256m --time_based --runtime=5 --output=/dev/null \
	>/dev/null 2>&1) || die "fio rt"
trace_stop /tmp/cp.trace 55-cgroup-preempt-served-next.trace
kill "${rand[@]}" 2>/dev/null
wait "${rand[@]}" 2>/dev/null
read -r preempts next_other < <(preempts_next_other /tmp/cp.trace)
diag "activations that preempted: $preempts"
check_ge "the RT reader preempted A's random readers (activations)" "$preempts" 10
check_eq "preemptions followed by another queue's dispatch" "$next_other" 0
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
set_sched "$dev" none
