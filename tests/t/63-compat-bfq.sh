#!/bin/bash
# timeout: 240
# Drop-in mode: with compat=1 the module registers as "bfq" with the
# io.bfq.weight cgroup file, so what was written for mainline bfq drives
# bfq-ng: "echo bfq > scheduler" selects ours (its debugfs files show it)
# and io.bfq.weight sets the shares.  With mainline bfq loaded, compat=1 is
# refused with a message and mainline's cgroup files stay intact; without
# compat the two schedulers live side by side.  With the shipped modprobe.d
# file installed, "echo bfq > scheduler" loads bfq-ng in drop-in mode and
# mainline bfq no longer loads.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

WARMUP_S=2
MEASURE_S=8

modinfo bfq >/dev/null 2>&1 || skip_all "no mainline bfq module in the guest"
cg_init || skip_all "no cgroup v2 with the io controller"
unload_bfqng || die "unload bfq-ng"
# Whatever happens, leave bfq-ng unloaded and mainline bfq gone.
cleanup() {
	local s
	for s in /sys/block/*/queue/scheduler; do
		grep -q '\[bfq' "$s" && echo none >"$s"
	done
	modprobe -r bfq-ng 2>/dev/null
	modprobe -r bfq 2>/dev/null
	rm -f /etc/modprobe.d/bfq-ng-compat.conf
}
at_exit cleanup
cg_make probe || die "cgroup"

# Mainline first: compat is refused, nothing of mainline's is disturbed.
modprobe bfq || die "mainline bfq"
marker="bfq-ng compat test $RANDOM"
echo "$marker" >/dev/kmsg
if modprobe bfq-ng compat=1 2>/dev/null; then
	tap_fail "compat=1 is refused while mainline bfq is loaded" "it loaded"
	modprobe -r bfq-ng
else
	tap_ok "compat=1 is refused while mainline bfq is loaded"
fi
said=$(dmesg | sed -n "/$marker/,\$p" | grep -c 'compat=1: an I/O scheduler named "bfq" is already registered')
check_eq "the refusal says why in the kernel log" "$said" 1
check_eq "mainline's io.bfq.weight is still there" "$([ -e "$CG/probe/io.bfq.weight" ] && echo yes)" yes
check_eq "no io.bfq-ng.weight was left behind" "$([ -e "$CG/probe/io.bfq-ng.weight" ] || echo no)" no
modprobe bfq-ng || die "bfq-ng without compat"
sched_list=$(cat /sys/block/*/queue/scheduler | head -n1)
check_eq "without compat both are offered" \
	"$(grep -qw bfq <<<"$sched_list" && grep -qw bfq-ng <<<"$sched_list" && echo both)" both
modprobe -r bfq-ng && modprobe -r bfq || die "unload both"

# Drop-in mode.
modprobe bfq-ng compat=1 || die "bfq-ng compat=1"
check_eq "mainline bfq is not what got loaded" "$([ -d /sys/module/bfq ] || echo absent)" absent
# 1 ms per request, as in test 51: on the debug lane's KASAN kernel, at
# sched_nullb's 250 us the two readers were CPU-bound and shared 1.20:1
# whatever the weights.
COMPLETION_NS=1000000 sched_nullb cp0 bfq || die "null_blk with \"bfq\" selected"
check_eq "\"echo bfq > scheduler\" selects bfq" "$(sched_get cp0)" bfq
check_eq "and it is bfq-ng (its invariant check answers)" "$(bfqng_check cp0)" ok
echo 0 >/sys/block/cp0/queue/iosched/low_latency
cg_make lo && cg_make hi || die "cgroups"
check_eq "cgroups get io.bfq.weight" "$(cat "$CG/hi/io.bfq.weight" 2>&1)" "default 100"
check_eq "and no io.bfq-ng.weight" "$([ -e "$CG/hi/io.bfq-ng.weight" ] || echo no)" no
echo 300 >"$CG/hi/io.bfq.weight" || tap_fail "io.bfq.weight takes 300"
if echo 0 >"$CG/hi/io.bfq.weight" 2>/dev/null; then
	tap_fail "io.bfq.weight refuses 0"
else
	tap_ok "io.bfq.weight refuses 0"
fi
lo=$(cg_reader lo cp0 0) && hi=$(cg_reader hi cp0 1024) || die "readers"
sleep $WARMUP_S
read -r s_lo s_hi <<<"$(shares $MEASURE_S "$lo" "$hi")"
check_ratio "io.bfq.weight 300 against 100 shares 3:1" "$(ratio "$s_hi" "$s_lo")" 3 0.15
echo "default 300" >"$CG/lo/io.bfq.weight" || tap_fail "io.bfq.weight takes \"default 300\""
sleep $WARMUP_S
read -r s_lo s_hi <<<"$(shares $MEASURE_S "$lo" "$hi")"
check_ratio "after writing 300 to the other, 1:1" "$(ratio "$s_hi" "$s_lo")" 1 0.15
stop_readers "$lo" "$hi"

# The sysadmin's way: the modprobe.d file, then only what udev would write.
select_sched cp0 none && modprobe -r bfq-ng || die "unload bfq-ng"
cp "$BFQNG_RUN/etc/modprobe.d/bfq-ng-compat.conf" /etc/modprobe.d/ || die "modprobe.d file"
echo bfq >/sys/block/cp0/queue/scheduler
check_eq "with the modprobe.d file, \"echo bfq\" alone selects bfq" "$(sched_get cp0)" bfq
check_eq "and loads bfq-ng in drop-in mode" "$(cat /sys/module/bfq_ng/parameters/compat 2>&1)" Y
check_eq "and mainline bfq stays out" "$([ -d /sys/module/bfq ] || echo absent)" absent
if modprobe bfq 2>/dev/null; then tap_fail "modprobe bfq is refused" "it loaded"
else tap_ok "modprobe bfq is refused"; fi
