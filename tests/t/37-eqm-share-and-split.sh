#!/bin/bash
# timeout: 300
# Early queue merge and split on hddsim at 32 MB/s.  Four processes replay
# an I/O log:
# first interleaved 16 KiB strides of one region (reader k takes blocks k,
# k+4, k+8...), then 16 KiB reads at random offsets elsewhere.
#  - In the strided phase they end up in one shared queue (debugfs shows a
#    queue with "procs 4") within a second of the first queue's activation.
#  - Once the reads turn random, the shared queue is split within a few
#    requests: it dispatches at most a few random reads per process before
#    the last process has left it.
#  - Each process then has a queue of its own with its saved state restored
#    ("restored 1"), and no queue is shared.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

# The disk runs at 32 MB/s so that the readers wait on it, as they would on
# real hardware.  On the default model they wait on the emulated CPU, and
# under TCG they progress unequally: one that runs alone for ~10 ms while
# the others wait for a vCPU goes 4 MiB ahead (its read-ahead cache hits at
# interface speed), further than the merge distance, and the shared queue
# splits in the strided phase; one that starts that late never joins.
# Requests per process in the strided phase: ~3 s unloaded under TCG.
STRIDED=600
RANDOM_RQ=100	# then random ones
RAND_BASE=$((1 << 30))	# random reads in [1 GiB, 7 GiB)
modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd rate_outer_mbps=32 rate_inner_mbps=32) || die "make_hdd"
at_exit remove_hdd
use_sched "$dev" bfq-ng || die "select bfq-ng"
for k in 0 1 2 3; do
	awk -v dev="/dev/$dev" -v k=$k -v n=$STRIDED -v r=$RANDOM_RQ -v base=$RAND_BASE 'BEGIN {
		srand(k + 1)
		print "fio version 2 iolog"; print dev " add"; print dev " open"
		for (i = 0; i < n; i++) print dev " read " (i * 4 + k) * 16384 " 16384"
		for (i = 0; i < r; i++) print dev " read " base + int(rand() * 393216) * 16384 " 16384"
		print dev " close" }' >/tmp/eqm-log$k
done

trace_start -b 16384 bfq_ng_coop bfq_ng_activate bfq_ng_dispatch || die "tracefs"
args=()
for k in 0 1 2 3; do
	args+=("--name=r$k" "--read_iolog=/tmp/eqm-log$k")
done
fio --ioengine=psync --direct=1 --replay_no_stall=1 "${args[@]}" --output=/tmp/eqm-fio.log >/dev/null 2>&1 &
fp=$!
# While the strided phase runs: one queue shared by the four.
shared_line=""
for ((i = 0; i < 50; i++)); do
	shared_line=$(grep -m1 ' procs 4 ' "/sys/kernel/debug/block/$dev/sched/queues")
	[ -n "$shared_line" ] && break
	sleep 0.1
done
diag "shared: ${shared_line:-none}"
check_eq "debugfs shows a queue shared by the four processes" "${shared_line:+yes}" yes
check_eq "debugfs counts one shared queue" "$(bfqng_stat "$dev" shared_queues)" 1
# Random phase: wait for the splits, then look at each process's queue.  A
# process leaves for the shared queue turning seeky (coop_splits), or for
# its own random requests landing away from where the queue goes while it
# is still sequential (coop_aparts), whichever comes first.
splits() { echo $(($(bfqng_stat "$dev" coop_splits) + $(bfqng_stat "$dev" coop_aparts))); }
splits_reach() { [ "$(splits)" -ge "$1" ] 2>/dev/null; }
restored_reach() {
	[ "$(grep -c ' procs 1 .* restored 1$' "/sys/kernel/debug/block/$dev/sched/queues")" -ge "$1" ]
}
wait_for 120 splits_reach 3
wait_for 5 restored_reach 4
q=$(cat "/sys/kernel/debug/block/$dev/sched/queues")
diag "after the splits: $(bfqng_stat "$dev" coop_splits) splits, $(bfqng_stat "$dev" coop_aparts) apart"
while read -r line; do diag "$line"; done <<<"$q"
check_eq "no queue is shared once the reads are random" "$(bfqng_stat "$dev" shared_queues)" 0
check_eq "each process has its own queue with its state restored" \
	"$(grep -c ' sync .* procs 1 .* restored 1$' <<<"$q")" 4
wait "$fp"
check_eq "fio replayed the logs without error" "$?" 0
trace_stop /tmp/eqm.trace
# What happened, for a failure: the first merges and splits.
grep -m 8 'bfq_ng_coop:' /tmp/eqm.trace | while read -r line; do diag "$line"; done
grep -B 40 -m 1 'split from' /tmp/eqm.trace >"$BFQNG_OUT/37-eqm-split.trace" 2>/dev/null || true
grep -v bfq_ng_dispatch /tmp/eqm.trace >"$BFQNG_OUT/37-eqm-coop.trace" 2>/dev/null || true
# Seconds from the first activation to the fourth process joining.
join_s=$(awk '/bfq_ng_activate:/ && !t0 { sub(":", "", $4); t0 = $4 }
	/bfq_ng_coop: .* merge from .* procs 4/ && !t4 { sub(":", "", $4); t4 = $4 }
	END { if (t0 && t4) printf "%.3f\n", t4 - t0 }' /tmp/eqm.trace)
check_le "seconds from the first activation until the four share a queue" "$join_s" 1
# Random reads the shared queue dispatched before its first and its last
# split: none before the first would mean it split in the strided phase.
read -r rand_first rand_last < <(awk -v base=$((RAND_BASE / 512)) '
	/bfq_ng_coop:/ {
		for (i = 1; i < NF; i++) { if ($i == "to") to = $(i + 1); if ($i == "procs") procs = $(i + 1) }
		if (/ merge from / && procs == 4 && spid == "") spid = to
		if (/ split from / && spid != "") {
			if (++splits == 1) first = n + 0
			if (splits == 3) { print first, n + 0; done = 1; exit }
		}
	}
	/bfq_ng_dispatch:/ && spid != "" {
		for (i = 1; i < NF; i++) if ($i == "pid") break
		if ($(i + 1) == spid && $(i + 2) + 0 >= base) n++
	}
	END { if (!done) print "none", "none" }' /tmp/eqm.trace)
check_ge "random reads the shared queue dispatched before its first split" "$rand_first" 1
check_le "random reads the shared queue dispatched until its last split" "$rand_last" 16
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
set_sched "$dev" none
