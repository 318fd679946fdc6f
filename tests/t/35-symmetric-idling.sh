#!/bin/bash
# timeout: 300
# Idling only where guarantees need it: two seeky readers of equal weight
# (symmetric) are not idled for; at weights 1:3 (asymmetric) they are, and
# the 1:3 share holds (+-20%).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
ROTATIONAL=1 sched_nullb sy0 || die "null_blk"
# run LEVEL_A LEVEL_B: two random 4 KiB readers, one request at a time;
# prints reader a's and b's IOPS and the idling periods started.
run() {
	local before after
	before=$(bfqng_stat sy0 idle_started)
	fio --output-format=json --output=/tmp/sy.json --filename=/dev/sy0 \
		--direct=1 --ioengine=psync --rw=randread --bs=4k --time_based \
		--runtime=10 --size=1g \
		--name=a --prioclass=2 --prio="$1" --offset=0 \
		--name=b --prioclass=2 --prio="$2" --offset=2g >/dev/null || return 1
	after=$(bfqng_stat sy0 idle_started)
	echo "$(fio_json_iops /tmp/sy.json a) $(fio_json_iops /tmp/sy.json b) $((after - before))"
}
read -r a b idles < <(run 3 3)
diag "equal weights: $a / $b IOPS, $idles idling periods"
check_le "symmetric seeky readers: idling periods started" "$idles" 20
read -r a b idles < <(run 6 2)
diag "weights 20:60: $a / $b IOPS, $idles idling periods"
check_gt "asymmetric seeky readers: idling periods started" "$idles" 100
check_ratio "asymmetric seeky readers share 1:3" "$(ratio "$b" "$a")" 3 0.20
check_eq "engine invariants hold" "$(bfqng_check sy0)" ok
