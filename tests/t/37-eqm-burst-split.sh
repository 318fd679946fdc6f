#!/bin/bash
# timeout: 300
# A large burst of which a shared queue is part.  Eleven processes start
# together (one fio) on hddsim:
#  - three replay an I/O log of interleaved 16 KiB strides of one region:
#    they merge into one shared queue, then read at random offsets
#    elsewhere, and the shared queue splits;
#  - eight read at random offsets from the start.
# Their queues' creations make a large burst (bfq_ng_burst).  The two
# strided readers that joined the first never had an active queue of their
# own, so were never counted in the burst, and the first one may have saved
# its state (raised, as every new queue is) before the burst was large.
# Once the shared queue has split, every queue is marked as in the large
# burst and none is raised: what was learnt while a process shared a queue
# is not undone by giving it back the state it saved before.
# (The random readers of the start-up benchmark did this: one of them was
# raised 30x again for 7 s, against the application starting.)
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

STRIDED=150	# strided requests per strided reader
RANDOM_RQ=400	# then random ones (seconds of them)
RAND_BASE=$((1 << 30))	# random reads in [1 GiB, 7 GiB)
N=3	# strided readers
modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd) || die "make_hdd"
at_exit remove_hdd
use_sched "$dev" bfq-ng || die "select bfq-ng"
check_eq "low_latency is on (the default)" "$(cat "/sys/block/$dev/queue/iosched/low_latency")" 1
trace_start -b 16384 bfq_ng_coop bfq_ng_raise bfq_ng_burst || die "tracefs"

# All eleven replay a log, so that they start alike (a log is read before
# its job starts).
args=()
for ((k = 0; k < N + 8; k++)); do
	awk -v dev="/dev/$dev" -v k=$k -v N=$N -v n=$((k < N ? STRIDED : 0)) -v r=$RANDOM_RQ -v base=$RAND_BASE 'BEGIN {
		srand(k + 1)
		print "fio version 2 iolog"; print dev " add"; print dev " open"
		for (i = 0; i < n; i++) print dev " read " (i * N + k) * 16384 " 16384"
		for (i = 0; i < r; i++) print dev " read " base + int(rand() * 393216) * 16384 " 16384"
		print dev " close" }' >/tmp/eb-log$k
	args=("--name=r$k" "--read_iolog=/tmp/eb-log$k" "${args[@]}")
done
fio --ioengine=psync --direct=1 --replay_no_stall=1 "${args[@]}" --output=/tmp/eb-fio.log >/dev/null 2>&1 &
fp=$!
# A strided reader leaves the shared queue when it turns seeky (coop_splits),
# or when its own random requests land away from the queue's strided
# region while the queue is still sequential (coop_aparts).
splits() { echo $(($(bfqng_stat "$dev" coop_splits) + $(bfqng_stat "$dev" coop_aparts))); }
splits_done() { [ "$(splits)" -ge $((N - 1)) ] 2>/dev/null; }
wait_for 120 splits_done
# Give the restored queues a little service, then read every job's queue.
sleep 1
q=$(cat "/sys/kernel/debug/block/$dev/sched/queues")
while read -r line; do diag "$line"; done <<<"$q"
diag "coop merges $(bfqng_stat "$dev" coop_merges), splits $(bfqng_stat "$dev" coop_splits), apart $(bfqng_stat "$dev" coop_aparts), stable merges $(bfqng_stat "$dev" stable_merges)"
# Every sync queue on the disk is the fio jobs'.  A queue is listed under
# the pid of the process that created it, which may have left it for
# another process to keep: count lines, not pids.
have=0 raised=0 outside=0
while read -r line; do
	[[ $line == "pid "*" sync "* ]] || continue
	have=$((have + 1))
	[[ $line == *" raising none "* ]] || raised=$((raised + 1))
	[[ $line == *" large_burst 1 "* ]] || outside=$((outside + 1))
done <<<"$q"
check_ge "sync queues after the splits" "$have" $N
check_ge "queues given back a saved state" "$(grep -c ' restored 1$' <<<"$q")" 1
check_eq "queues of the burst outside it after the splits" "$outside" 0
check_eq "queues of the burst raised after the splits" "$raised" 0
kill "$fp" 2>/dev/null
wait "$fp" 2>/dev/null
trace_stop /tmp/eb.trace 37-eqm-burst-split.trace
check_ge "large bursts found (bfq_ng_burst events)" "$(grep -c 'bfq_ng_burst: .* large burst' /tmp/eb.trace)" 1
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
set_sched "$dev" none
