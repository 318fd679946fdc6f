#!/bin/bash
# timeout: 300
# bfq-ng-top -b lists the devices using bfq-ng (and no other), with a row
# for each running reader's queue, and keeps going when a device is removed
# while it runs.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

command -v bfq-ng-top >/dev/null || die "bfq-ng-top is not in the guest (make tools; run-vm ships tools/bfq-ng-top)"
load_bfqng || die "cannot load bfq-ng"
sched_nullb tp0 || die "cannot make null_blk tp0 with bfq-ng"
nullb tp1 256 || die "cannot make null_blk tp1"
select_sched tp1 mq-deadline || die "cannot select mq-deadline on tp1"

r1=$(start_reader tp0 0) || die "cannot start reader 1"
r2=$(start_reader tp0 1024) || die "cannot start reader 2"
at_exit stop_readers "$r1" "$r2"
sleep 2
out=$BFQNG_OUT/61-top.txt
bfq-ng-top -b -n 2 -d 1 >"$out" 2>&1
rc=$?
stop_readers "$r1" "$r2"
diag "$(sed -n '/refresh 2/,$p' "$out" | head -n 12)"

check_eq "bfq-ng-top -b -n 2 exits 0" "$rc" 0
check_eq "it refreshes twice" "$(grep -c '^bfq-ng-top .* refresh [0-9]' "$out")" 2
check_eq "the bfq-ng device is listed in each refresh" "$(grep -c '^device tp0 scheduler bfq-ng' "$out")" 2
check_eq "a device on another scheduler is not listed" "$(grep -c '^device tp1' "$out")" 0
for p in "$r1" "$r2"; do
	check_eq "reader $p has a row with its name in the last refresh" \
		"$(sed -n '/refresh 2/,$p' "$out" | awk -v p="$p" '$1 == p { print $2; exit }')" fio
done
check_eq "the state line shows the engine's keys" \
	"$(sed -n '/refresh 2/,$p' "$out" | grep -c '^state serving=.* queued=')" 1

# A device removed while the tool runs drops out; the tool goes on.
bfq-ng-top -b -n 6 -d 0.5 tp0 >"$BFQNG_OUT/61-top-remove.txt" 2>&1 &
pid=$!
sleep 1.2
nullb_del tp0
wait "$pid"
rc=$?
check_eq "a device removed while it runs: exit status" "$rc" 0
check_eq "a device removed while it runs: the last refresh says none is left" \
	"$(tail -n 1 "$BFQNG_OUT/61-top-remove.txt")" "no device uses bfq-ng"
nullb_del tp1
