#!/bin/bash
# timeout: 300
# io.bfq-ng.weight exists in non-root cgroups only and reads "default 100";
# it takes "W", "default W", "MAJ:MIN W" and "MAJ:MIN default", refuses
# weights outside 1..1000 with ERANGE and other input with EINVAL; device
# overrides read back as "MAJ:MIN W" lines, survive a new default and go at
# once when removed; the group of a cgroup on the device gets the weight.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
sched_nullb cf0 || die "null_blk"
dev=$(cat /sys/block/cf0/dev)
cg_make cf || die "cgroup"
cg_make nest && cg_make nest/sub || die "cgroups"
f=$CG/cf/io.bfq-ng.weight

check_eq "the root cgroup has no io.bfq-ng.weight" "$(test -e "$CG/io.bfq-ng.weight" && echo yes || echo no)" no
check_eq "a new cgroup reads the default weight" "$(cat "$f")" "default 100"
check_eq "a nested cgroup reads the default weight" "$(cat "$CG/nest/sub/io.bfq-ng.weight")" "default 100"

echo 300 >"$f"
check_eq "\"W\" sets the default weight" "$(head -n1 "$f")" "default 300"
echo "default 250" >"$f"
check_eq "\"default W\" sets the default weight" "$(head -n1 "$f")" "default 250"
echo "$dev 500" >"$f"
check_eq "\"MAJ:MIN W\" reads back as an override line" "$(cat "$f" | tr '\n' ';')" "default 250;$dev 500;"
echo "default 120" >"$f"
check_eq "a new default keeps the device override" "$(cat "$f" | tr '\n' ';')" "default 120;$dev 500;"

# The group takes the override at its first activation.
(cg_move "$BASHPID" cf && dd if=/dev/cf0 of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null)
check_eq "the group's entity weighs the device override" "$(cg_group_field cf0 cf weight)" 500
echo "$dev default" >"$f"
check_eq "\"MAJ:MIN default\" removes the override line" "$(cat "$f" | tr '\n' ';')" "default 120;"
check_eq "a removed override stops applying at once" "$(cg_group_field cf0 cf new_weight)" 120
(cg_move "$BASHPID" cf && dd if=/dev/cf0 of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null)
check_eq "the group's entity weighs the default after its next activation" "$(cg_group_field cf0 cf weight)" 120

# write_errno INPUT: the error a write of INPUT gets ("ok" if none).
write_errno() {
	local err
	err=$( { echo "$1" >"$f"; } 2>&1 ) && { echo ok; return; }
	case $err in
	*"out of range"*) echo ERANGE ;;
	*"Invalid argument"*) echo EINVAL ;;
	*) echo "$err" ;;
	esac
}
for bad in "0:ERANGE" "1001:ERANGE" "default 0:ERANGE" "default 5000:ERANGE" \
	"$dev 0:ERANGE" "$dev 1001:ERANGE" "abc:EINVAL" "default:EINVAL" \
	"default x:EINVAL" "$dev x:EINVAL" "-5:EINVAL" "12abc:EINVAL"; do
	input=${bad%:*} want=${bad##*:}
	check_eq "writing \"$input\" is refused with $want" "$(write_errno "$input")" "$want"
done
check_eq "refused writes change nothing" "$(cat "$f" | tr '\n' ';')" "default 120;"
check_eq "bounds 1 and 1000 are accepted" "$(write_errno 1)$(write_errno "default 1000")$(write_errno "$dev 1")" okokok
check_eq "engine invariants hold" "$(bfqng_check cf0)" ok
select_sched cf0 none
