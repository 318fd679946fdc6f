#!/bin/bash
# timeout: 600
# The debugfs "queues" and "groups" files are read a page at a time, the
# lock dropped between pages (debugfs.c, cgroup.c).  With 150 idle
# processes holding a queue each (some 10 pages of "queues"):
#  - one read lists every live queue once: as many lines as live_queues,
#    every line whole, every dd process's queue exactly once;
#  - reading it 1000 bytes at a time gives the same text as in one go;
# and while short-lived processes make and free queues beside them, every
# line of repeated reads is whole and the invariant check holds afterwards.
# With 150 cgroups with a weight on the device (some 3 pages of "groups"):
# one line per live group, every line whole, each cgroup's once, and
# 1000-byte reads give the same text.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

N=150
modprobe bfq-ng || die "bfq-ng"
nullb qf0 256 memory_backed=1 irqmode=2 completion_nsec=20000 || die "null_blk"
select_sched qf0 bfq-ng || die "select"
echo 128 >/sys/block/qf0/queue/nr_requests
# One queue per process, and no raising whose time left would change the
# text between two reads (the queues' ages do: paged() leaves them out).
echo 0 >/sys/block/qf0/queue/iosched/queue_merging
echo 0 >/sys/block/qf0/queue/iosched/low_latency
D=$(bfqng_debugfs qf0)
idle=$(bfqng_stat qf0 live_queues)

# unaged FILE: FILE without the queues' ages, which the clock moves.
unaged() { sed -E 's/ age_ms [0-9]+ / age_ms - /' "$1"; }

# paged FILE STAT PAGES WHOLE: FILE read in one go (into /tmp/qf.FILE) and
# 1000 bytes at a time: at least PAGES pages of text, one line per STAT
# (live_queues, live_groups), every line matching WHOLE, the same text.
paged() {
	local f=$1 n1 n2
	n1=$(bfqng_stat qf0 "$2")
	cat "$D/$f" >"/tmp/qf.$f"
	dd if="$D/$f" bs=1000 status=none >"/tmp/qf.$f.small"
	n2=$(bfqng_stat qf0 "$2")
	diag "$f: $(wc -c <"/tmp/qf.$f") bytes, $(wc -l <"/tmp/qf.$f") lines; $2 $n1, then $n2"
	check_ge "$f: the file spans $3 pages" "$(wc -c <"/tmp/qf.$f")" $(($3 * 4096))
	check_eq "$f: one line per $2" "$(wc -l <"/tmp/qf.$f")" "$n1"
	check_eq "$f: every line whole" "$(grep -cvE "$4" "/tmp/qf.$f")" 0
	if [ "$n1" = "$n2" ]; then
		check_eq "$f: 1000-byte reads give the same text" \
			"$(cmp -s <(unaged "/tmp/qf.$f") <(unaged "/tmp/qf.$f.small") &&
				echo same || echo differs)" same
	else
		tap_fail "$f: 1000-byte reads give the same text" "$2 changed meanwhile: $n1, then $n2"
	fi
}

# once FILE KEYS: how many of KEYS (sorted, one a line) head exactly one
# line of /tmp/qf.FILE (its second word).
once() {
	awk '{ print $2 }' "/tmp/qf.$1" | sort | uniq -c | awk '{ print $2, $1 }' |
		join <(echo "$2") - | awk '$2 == 1' | wc -l
}

# Each dd reads 1 MiB, then blocks writing it into a pipe nobody reads:
# alive, with its queue, until its sleep is killed.
sleepers=()
for ((i = 0; i < N; i++)); do
	# shellcheck disable=SC2216 # the pipe is not to be read
	dd if=/dev/qf0 bs=1M count=1 skip=$((i % 200)) iflag=direct status=none | sleep 600 &
	sleepers+=("$!")
done
at_exit kill "${sleepers[@]}"
all_up() { [ "$(bfqng_stat qf0 live_queues)" -ge $((idle + N)) ]; }
wait_for 120 all_up || diag "live_queues $(bfqng_stat qf0 live_queues) of $((idle + N))"
diag "$N queues up after $SECONDS s"

whole='^pid -?[0-9]+ (sync|async) [a-z]+ class [a-z]+ .* restored [01]$'
paged queues live_queues 8 "$whole"
# The dd processes' pids: each heads one line.
dds=$(for p in /proc/[0-9]*; do
	read -r comm <"$p/comm" 2>/dev/null && [ "$comm" = dd ] && echo "${p#/proc/}"
done | sort)
check_eq "dd processes alive" "$(wc -l <<<"$dds")" "$N"
check_eq "queues: each dd's listed exactly once" "$(once queues "$dds")" "$N"

# Churn: queues made and freed between the pages of each of 5 reads, by
# 32 loops of short-lived dd processes, the 150 still there.
rm -f /tmp/qf.fail /tmp/qf.r.* /tmp/qf.stop
: >/tmp/qf.runs
churners=()
for ((i = 0; i < 32; i++)); do
	(
		while [ ! -e /tmp/qf.stop ]; do
			dd if=/dev/qf0 of=/dev/null bs=4k count=16 skip=$((i * 16)) iflag=direct status=none ||
				echo "$i" >>/tmp/qf.fail
			echo >>/tmp/qf.runs
		done
	) &
	churners+=("$!")
done
sleep 1
runs0=$(wc -l </tmp/qf.runs)
for ((r = 0; r < 5; r++)); do
	cat "$D/queues" >/tmp/qf.r.$r
done
runs1=$(wc -l </tmp/qf.runs)
touch /tmp/qf.stop
wait "${churners[@]}"
kill "${sleepers[@]}" 2>/dev/null
wait
broken=$(cat /tmp/qf.r.* | grep -cvE "$whole")
diag "5 reads during the churn, $(cat /tmp/qf.r.* | wc -l) lines; $SECONDS s so far"
check_ge "short-lived dd processes run during the 5 reads" $((runs1 - runs0)) 32
check_eq "every line whole during the churn" "$broken" 0
check_eq "the short-lived processes' I/O completed (failures)" "$( (cat /tmp/qf.fail 2>/dev/null || true) | wc -l)" 0
check_eq "engine invariants hold afterwards" "$(bfqng_check qf0)" ok

# Groups: a per-device weight makes the cgroup's group on the device, and
# the group lives as long as the cgroup (shell builtins: a fork costs tens
# of ms under TCG).
if cg_init; then
	majmin=$(cat /sys/block/qf0/dev)
	mkdir "$CG"/qg{0..149} && at_exit rmdir "$CG"/qg{0..149}
	for ((i = 0; i < 150; i++)); do
		echo "$majmin 200" >"$CG/qg$i/io.bfq-ng.weight" || break
	done
	paged groups live_groups 2 '^group [0-9]+ parent [0-9]+ (root|child) (online|offline) weight [0-9]+ new_weight [0-9]+ [a-z]+ ref -?[0-9]+ pending [0-9]+$'
	check_eq "groups: each cgroup's listed exactly once" \
		"$(once groups "$(stat -c %i "$CG"/qg{0..149} | sort)")" 150
else
	tap_skip "groups: the file read a page at a time" "no cgroup v2 io controller"
fi
select_sched qf0 none
nullb_del qf0
