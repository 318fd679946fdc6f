#!/bin/bash
# timeout: 600
# Classes are strict: a greedy RT reader keeps a BE reader under 5% of the
# throughput.  An IDLE reader beside a busy BE reader is not starved: it
# completes I/O, each request within a bounded wait.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb cl0 || die "null_blk"

fio_readers /tmp/cl.json cl0 10 "rt:1:4" "be:2:4" || die "fio"
rt=$(fio_job_bw_kib /tmp/cl.json rt)
be=$(fio_job_bw_kib /tmp/cl.json be)
share=$(awk -v a="$be" -v b="$rt" 'BEGIN { printf "%.2f", 100 * a / (a + b) }')
if in_range "$share" 0 5; then
	tap_ok "a BE reader beside a greedy RT reader gets under 5% ($share%)"
else
	tap_fail "a BE reader beside a greedy RT reader gets under 5%" "measured $share%, bound 5%"
fi

fio_readers /tmp/id.json cl0 10 "be:2:4" "idle:3:7" || die "fio"
done_ios=$(jq '[.jobs[] | select(.jobname == "idle") | .read.total_ios] | add' /tmp/id.json)
max_ms=$(jq '[.jobs[] | select(.jobname == "idle") | .read.clat_ns.max] | add / 1000000 | floor' /tmp/id.json)
check_gt "an IDLE reader beside a busy BE reader completes I/O (requests)" "$done_ios" 0
# Bound: the IDLE class waits at most 200 ms, plus the slot of the BE queue
# it follows (timeout_sync 125 ms), for each of its 8 in-flight requests.
check_le "IDLE reader's slowest request waits within its starvation bound (ms)" "$max_ms" 3000
check_eq "engine invariants hold after the class runs" "$(bfqng_check cl0)" ok
select_sched cl0 none
nullb_del cl0
