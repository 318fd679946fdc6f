#!/bin/bash
# timeout: 300
# Early queue merge stays within its limits, on hddsim, with two readers in
# interleaved 16 KiB strides (reader k takes blocks k, k+2, k+4...):
#  - in one cgroup at the default priority they are merged (the control);
#  - in two cgroups they are not: no queue is shared across groups (a
#    process that joined one before its move leaves it);
#  - in the IDLE class they are not;
#  - buffered writes in interleaved strides, written back by the flusher,
#    are not (async queues).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

RT=4
modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd) || die "make_hdd"
at_exit remove_hdd

# pair CG0 CG1 [FIO-OPTION...]: the two strided readers, one fio with two
# jobs that wait 2 s before their first I/O (time to move job k to cgroup
# CGk, "-" for the root) so that they start together; prints the most
# processes a queue had at once and how many processes joined a queue, from
# a fresh bfq-ng.
pair() {
	local cg=("$1" "$2") k f jobs=() most=0 n end
	shift 2
	set_sched "$dev" none && use_sched "$dev" bfq-ng || return 1
	fio --filename="/dev/$dev" --bs=16k --ioengine=psync --size=1g \
		--runtime=$RT --time_based --startdelay=2 "$@" \
		--name=s0 --offset=0 --name=s1 --offset=16k --output=/dev/null >/dev/null 2>&1 &
	f=$!
	for ((k = 0; k < 100 && ${#jobs[@]} < 2; k++)); do
		sleep 0.1
		mapfile -t jobs < <(pgrep -P $f)
	done
	for k in 0 1; do
		[ "${cg[k]}" = - ] || cg_move "${jobs[k]}" "${cg[k]}" || return 1
	done
	sleep 2
	# Until fio ends (later than RT on a slow kernel, e.g. under KASAN).
	end=$((SECONDS + RT + 30))
	while [ "$SECONDS" -lt "$end" ] && kill -0 $f 2>/dev/null; do
		n=$(awk '{ for (i = 1; i < NF; i++) if ($i == "procs" && $(i + 1) > m) m = $(i + 1) }
			END { print m + 0 }' "/sys/kernel/debug/block/$dev/sched/queues")
		[ "$n" -gt "$most" ] && most=$n
		sleep 0.1
	done
	wait $f
	echo "$most $(bfqng_stat "$dev" coop_merges) $(bfqng_stat "$dev" coop_leaves)"
}

read -r most joins _ < <(pair - - --rw=read:16k --direct=1)
check_eq "control: readers in one group share a queue (most processes in a queue)" "$most" 2
check_ge "control: processes that joined a queue" "$joins" 1
T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs nodev "$T"
if cg_init && cg_make eqa && cg_make eqb; then
	echo >"$T/trace"
	echo 1 >"$T/events/bfq_ng/bfq_ng_coop/enable"
	read -r most joins leaves < <(pair eqa eqb --rw=read:16k --direct=1)
	echo 0 >"$T/events/bfq_ng/bfq_ng_coop/enable"
	grep bfq_ng_coop "$T/trace" | head -n 5 | while read -r l; do diag "$l"; done
	check_eq "readers in two cgroups: most processes in a queue" "$most" 1
	# fio may issue a job's first I/O before the move (then the two merge
	# in the root group): the process leaves the shared queue at its first
	# request from its cgroup.
	check_eq "readers in two cgroups: processes that joined a queue, less those that left it for their cgroup" \
		"$((joins - leaves))" 0
else
	tap_skip "readers in two cgroups do not share a queue" "no cgroup v2 with the io controller"
fi
read -r most joins _ < <(pair - - --rw=read:16k --direct=1 --prioclass=3)
check_eq "IDLE class readers: most processes in a queue" "$most" 1
check_eq "IDLE class readers: processes that joined a queue" "$joins" 0
# Buffered writes written back by the flusher, no fsync (whose writeback
# runs in the caller's context and is sync I/O).  Not a small region
# rewritten: at each pass fio flushes the device's cache itself, in its own
# context, with sync writes (which may be merged).  Small dirty limits keep
# the flusher writing while they run, and leave little for the sync (with
# the defaults, hundreds of MiB of 16 KiB strides took a minute to sync).
dirty=$(cat /proc/sys/vm/dirty_bytes) dirty_bg=$(cat /proc/sys/vm/dirty_background_bytes)
dirty_ratio=$(cat /proc/sys/vm/dirty_ratio) dirty_bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
echo $((32 << 20)) >/proc/sys/vm/dirty_bytes
echo $((8 << 20)) >/proc/sys/vm/dirty_background_bytes
read -r most _ < <(pair - - --rw=write:16k --direct=0)
sync
joins=$(bfqng_stat "$dev" coop_merges)
# Writing a *_bytes limit zeroes its *_ratio twin and back: restore the one
# that was in use.
if [ "$dirty" != 0 ]; then echo "$dirty" >/proc/sys/vm/dirty_bytes; else echo "$dirty_ratio" >/proc/sys/vm/dirty_ratio; fi
if [ "$dirty_bg" != 0 ]; then echo "$dirty_bg" >/proc/sys/vm/dirty_background_bytes; else echo "$dirty_bg_ratio" >/proc/sys/vm/dirty_background_ratio; fi
check_eq "buffered writes: most processes in a queue" "$most" 1
check_eq "buffered writes: processes that joined a queue" "$joins" 0
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
set_sched "$dev" none
