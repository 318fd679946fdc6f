#!/bin/bash
# timeout: 300
# Early queue merge stays within its limits, on hddsim, with two readers in
# interleaved 16 KiB strides (reader k takes blocks k, k+2, k+4...):
#  - in one cgroup at the default priority they are merged (the control);
#  - in two cgroups (each job moved before its first I/O) they are not:
#    no queue is shared across groups (37-eqm-churn moves processes that
#    are in a shared queue: they leave it);
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
T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs nodev "$T"

# pair CG0 CG1 [FIO-OPTION...]: the two strided readers, one fio with two
# jobs, job k in cgroup CGk ("-" for the root), on a fresh bfq-ng.  fio
# forks both jobs at once; each moves itself before its first I/O (its
# exec_prerun moves its parent, the job: ": " takes the redirection fio
# appends to the command).  Prints the most processes a queue had (from
# the trace of merges: no sampling to miss a short one), how many
# processes joined a queue, how many left one for their cgroup, and how
# many jobs were in their cgroup 1 s in.
pair() {
	local cg=("$1" "$2") k f jobs=() args=() most moved=0
	shift 2
	for k in 0 1; do
		args+=("--name=s$k" "--offset=$((k * 16))k")
		[ "${cg[k]}" = - ] ||
			args+=("--exec_prerun=echo \$PPID >$CG/${cg[k]}/cgroup.procs; :")
	done
	set_sched "$dev" none && use_sched "$dev" bfq-ng || return 1
	echo >"$T/trace"
	echo 1 >"$T/events/bfq_ng/bfq_ng_coop/enable"
	# In /tmp: fio writes each prerun's output to JOB.prerun.txt there.
	(cd /tmp && exec fio --filename="/dev/$dev" --bs=16k --ioengine=psync \
		--size=1g --runtime=$RT --time_based "$@" "${args[@]}" \
		--output=/dev/null >/dev/null 2>&1) &
	f=$!
	for ((k = 0; k < 100 && ${#jobs[@]} < 2; k++)); do
		sleep 0.1
		mapfile -t jobs < <(pgrep -P $f)
	done
	sleep 1
	# (Whichever job is which: pids may wrap.)
	for k in "${jobs[@]}"; do
		grep -qxE "0::/(${cg[0]}|${cg[1]})" "/proc/$k/cgroup" && moved=$((moved + 1))
	done
	wait $f
	echo 0 >"$T/events/bfq_ng/bfq_ng_coop/enable"
	grep bfq_ng_coop "$T/trace" | head -n 5 | while read -r l; do diag "$l"; done >&2
	# "... bfq_ng_coop: 259:0 merge from 306 to 305 procs 2"
	most=$(awk '$7 == "merge" || $7 == "stable" {
			for (i = 8; i < NF; i++) if ($i == "procs" && $(i + 1) > m) m = $(i + 1) }
		END { print (m > 1 ? m : 1) }' "$T/trace")
	echo "$most $(bfqng_stat "$dev" coop_merges) $(bfqng_stat "$dev" coop_leaves) $moved"
}

read -r most joins _ < <(pair - - --rw=read:16k --direct=1)
check_eq "control: readers in one group share a queue (most processes in a queue)" "$most" 2
check_ge "control: processes that joined a queue" "$joins" 1
if cg_init && cg_make eqa && cg_make eqb; then
	read -r most joins _ moved < <(pair eqa eqb --rw=read:16k --direct=1)
	check_eq "readers in two cgroups: jobs in their cgroup" "$moved" 2
	check_eq "readers in two cgroups: most processes in a queue" "$most" 1
	check_eq "readers in two cgroups: processes that joined a queue" "$joins" 0
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
