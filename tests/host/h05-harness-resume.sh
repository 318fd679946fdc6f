#!/bin/bash
# timeout: 900
# Host side, VMs of its own: the harness (tests/run-tests.sh) after a guest
# kernel death.  The console-log classifier excuses only the kernel's
# warning about a single-step trap in kernel mode and an int3 Oops or a
# double fault in the core kernel with no module in it, or with an EFLAGS
# no CPU can hold and no out-of-tree module in it (emulator faults), each
# alone in the log;
# then, in small VM runs of tests/harness/ (1-first, 2-fault, 3-after) with
# tests/harness/fault/bfqng_fault.ko loaded in the guest:
#  - a stray single-step trap on the first boot: 2-fault runs again in a
#    new VM, and the run passes;
#  - the same trap on the first two boots: only the first is excused; the
#    second fails 2-fault, and 3-after still runs, in a third VM;
#  - the text of a double fault whose EFLAGS no CPU can hold on the first
#    two boots: both are excused (proof, not likelihood), and the run
#    passes; the same on the first boot, then the trap: the trap fails
#    2-fault;
#  - a WARN: 2-fault fails, with the splat, its RIP and trace, the console
#    log is kept, and 3-after runs in a new VM;
#  - the same WARN with the files in two VMs at once (CHECK_SHARDS=2): it
#    fails 2-fault in its VM, and the other VM's files pass.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TOP/scripts/config.sh"
source "$BFQNG_TOP/tests/vm/console-scan.sh"

tmp=$(mktemp -d)
at_exit rm -rf "$tmp"

# --- the classifier, on console logs written here -------------------------
step='[   41.5] WARNING: CPU: 1 PID: 1366 at arch/x86/kernel/traps.c:1120 exc_debug_kernel+0xca/0x160'
tail_='[   41.5] Call Trace:
[   41.5]  <#DB>
[   41.6] Kernel panic - not syncing: kernel: panic_on_warn set ...'
ours='[   40.0] WARNING: CPU: 0 PID: 99 at /work/queue.c:12 bq_insert+0x1/0x2 [bfq_ng]'
classify() { # classify NAME TEXT
	printf '%s\n' "[    0.0] Linux version 6.12" "$2" "[   42.0] reboot: Restarting" >"$tmp/$1.log"
	stray_step "$tmp/$1.log" && echo excused || echo counted
}
check_eq "a single-step trap in kernel mode, then its panic: excused" "$(classify a "$step
$tail_")" excused
check_eq "a WARN in our code: counted" "$(classify b "$ours
$tail_")" counted
check_eq "our WARN, then the trap: counted" "$(classify c "$ours
$step
$tail_")" counted
check_eq "the trap, then a BUG: counted" "$(classify d "$step
[   41.6] BUG: kernel NULL pointer dereference, address: 0000000000000008
$tail_")" counted
check_eq "a clean log: counted (nothing to excuse)" "$(classify e '[    1.0] all well')" counted

# An int3 Oops (the lines CI printed, shortened): excused only in the core
# kernel, with no module in the RIP or the trace.
int3() { # int3 RIP-SYMBOL TRACE-SYMBOL
	printf '%s\n' '[  834.2] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI' \
		'[  834.2] Workqueue: events clocksource_watchdog_work' \
		"[  834.2] RIP: 0010:$1" '[  834.2] Call Trace:' '[  834.2]  <TASK>' \
		'[  834.2]  update_rq_clock+0x35/0x1a0' "[  834.2]  $2" '[  834.2]  </TASK>' \
		'[  834.2] Modules linked in: bfq_ng(OE) null_blk ext4 9p [last unloaded: scsi_debug]' \
		'[  834.2] Kernel panic - not syncing: Fatal exception in interrupt'
}
oops_class() { # oops_class NAME TEXT
	printf '%s\n' "[    0.0] Linux version 6.12" "$2" >"$tmp/$1.log"
	emulator_fault "$tmp/$1.log" >/dev/null && echo excused || echo counted
}
check_eq "an int3 Oops in the core kernel, its trace too: excused" \
	"$(oops_class f "$(int3 sched_clock_cpu+0x9/0x190 process_one_work+0x18d/0x3a0)")" excused
check_eq "an int3 Oops in our module: counted" \
	"$(oops_class g "$(int3 'bq_dispatch+0x9/0x190 [bfq_ng]' process_one_work+0x18d/0x3a0)")" counted
check_eq "an int3 Oops with our module in its trace: counted" \
	"$(oops_class h "$(int3 sched_clock_cpu+0x9/0x190 'bq_insert+0x1/0x2 [bfq_ng]')")" counted
check_eq "an int3 Oops after our WARN: counted" "$(oops_class i "$ours
$(int3 sched_clock_cpu+0x9/0x190 process_one_work+0x18d/0x3a0)")" counted
check_eq "an int3 Oops in user mode (RIP 0033): counted" \
	"$(oops_class j "$(int3 sched_clock_cpu+0x9/0x190 x+0x1/0x2 | sed 's/RIP: 0010/RIP: 0033/')")" counted
check_eq "the single-step trap, through the same gate: excused" "$(oops_class k "$step
$tail_")" excused
# A double fault (QEMU 7.2's TCG raised them in kmem_cache_alloc, once at
# boot): the same rule as the int3 Oops.
df() { int3 "$@" | sed 's/Oops: int3:/Oops: double fault:/'; }
check_eq "a double fault in the core kernel, its trace too: excused" \
	"$(oops_class l "$(df kmem_cache_alloc_noprof+0x9a/0x2f0 mempool_alloc_noprof+0x6e/0x180)")" excused
check_eq "a double fault with a module in its trace (null_blk's timer): counted" \
	"$(oops_class m "$(df kmem_cache_free+0x3c/0x2f0 'null_cmd_timer_expired+0x1/0x2 [null_blk]')")" counted
check_eq "a double fault in our module: counted" \
	"$(oops_class n "$(df 'bq_insert+0x9/0x190 [bfq_ng]' process_one_work+0x18d/0x3a0)")" counted
check_eq "a double fault after our WARN: counted" "$(oops_class o "$ours
$(df kmem_cache_alloc_noprof+0x9a/0x2f0 mempool_alloc_noprof+0x6e/0x180)")" counted
# A double fault whose EFLAGS no CPU can hold (reserved bits set; CI's,
# shortened, with ext4 in the trace): excused with in-tree modules in the
# trace, counted with a sane EFLAGS or with an out-of-tree module (ours).
dfl() { # dfl EFLAGS TRACE-SYMBOL
	df kmem_cache_alloc_noprof+0x6b/0x2f0 "$2" |
		sed "/RIP: 0010:/a [  181.5] RSP: 0018:ff676c5e0159b7b0 EFLAGS: $1"
}
check_eq "a double fault, EFLAGS c0478f02, ext4 in its trace: excused" \
	"$(oops_class p "$(dfl c0478f02 'ext4_init_io_end+0x1f/0x50 [ext4]')")" excused
check_eq "the same with EFLAGS 00010246: counted" \
	"$(oops_class q "$(dfl 00010246 'ext4_init_io_end+0x1f/0x50 [ext4]')")" counted
check_eq "the same with EFLAGS 00000000 (bit 1 clear, also impossible): excused" \
	"$(oops_class q2 "$(dfl 00000000 'ext4_init_io_end+0x1f/0x50 [ext4]')")" excused
check_eq "EFLAGS c0478f02 with bfq_ng(OE) in its trace: counted" \
	"$(oops_class r "$(dfl c0478f02 'bq_insert+0x1/0x2 [bfq_ng]')")" counted
check_eq "EFLAGS c0478f02 in our module: counted" \
	"$(oops_class s "$(dfl c0478f02 x+0x1/0x2 | sed 's/kmem_cache_alloc_noprof+0x6b\/0x2f0/bq_insert+0x1\/0x2 [bfq_ng]/')")" counted
check_eq "EFLAGS c0478f02, an out-of-tree module unloading (OE-) in its trace: counted" \
	"$(oops_class u "$(dfl c0478f02 'foo_exit+0x1/0x2 [foo_test]' | sed 's/ ext4 9p/ ext4 foo_test(OE-) 9p/')")" counted
check_eq "EFLAGS c0478f02, ext4 in its trace, no 'Modules linked in' line: counted" \
	"$(oops_class v "$(dfl c0478f02 'ext4_init_io_end+0x1f/0x50 [ext4]' | grep -v 'Modules linked in')")" counted
check_eq "EFLAGS c0478f02, a module in its trace that is not in the list: counted" \
	"$(oops_class w "$(dfl c0478f02 'xfs_end_io+0x1/0x2 [xfs]')")" counted
check_eq "EFLAGS c0478f02 with its RIP in an in-tree module (ext4): counted" \
	"$(oops_class t "$(dfl c0478f02 x+0x1/0x2 | sed 's/kmem_cache_alloc_noprof+0x6b\/0x2f0/ext4_bio_write_folio+0x1\/0x2 [ext4]/')")" counted
proven() { # proven NAME TEXT
	printf '%s\n' "[    0.0] Linux version 6.12" "$2" >"$tmp/$1.log"
	proven_emulator_fault "$tmp/$1.log" && echo proven || echo not
}
check_eq "proof: EFLAGS c0478f02, ext4 in its trace" \
	"$(proven x "$(dfl c0478f02 'ext4_init_io_end+0x1f/0x50 [ext4]')")" proven
check_eq "no proof: EFLAGS 00010246, no module (excused once only)" \
	"$(proven y "$(dfl 00010246 mempool_alloc_noprof+0x6e/0x180)")" not
check_eq "no proof: EFLAGS c0478f02 after our WARN" "$(proven z "$ours
$(dfl c0478f02 mempool_alloc_noprof+0x6e/0x180)")" not
check_eq "no proof: an int3 Oops" \
	"$(proven z2 "$(int3 sched_clock_cpu+0x9/0x190 process_one_work+0x18d/0x3a0)")" not
check_eq "oops_brief: the first splat's RIP and call trace, on one line" "$(oops_brief "$tmp/g.log")" \
	"RIP: 0010:bq_dispatch+0x9/0x190 [bfq_ng] | trace: update_rq_clock+0x35/0x1a0 < process_one_work+0x18d/0x3a0"

# --- the harness, in VMs ---------------------------------------------------
mkdir -p "$tmp/mod" "$tmp/share"
cp "$BFQNG_TOP"/tests/harness/fault/* "$tmp/mod/"
log=$BFQNG_OUT/h05-fault-build.log
if ! make -C "${KDIR:-$KDIR_DEFAULT}" M="$tmp/mod" modules >"$log" 2>&1; then
	die "building tests/harness/fault failed (see $log)"
fi
cp "$tmp/mod/bfqng_fault.ko" "$tmp/share/"

# harness NAME FAULTS [VAR=VALUE...]: run tests/run-tests.sh on
# tests/harness (in one VM unless a VAR says otherwise); sets rc, $o, $res
# (its results.tap) and $err (its stderr).
harness() {
	o=$BFQNG_OUT/h05-$1
	rm -rf "$o"
	mkdir -p "$o"
	env -u VM_TIMEOUT -u CHECK_BUDGET -u CHECK_SHARD CHECK_SHARDS=1 TEST_DIR=harness TESTS='*' VM_OUT="$o" \
		VM_SHARE="$tmp/share" VM_DISKS=none VM_MEM=1024 VM_PASS_ENV=HARNESS_FAULTS CONSOLE_KEEP="$o/kept" \
		HARNESS_FAULTS="$2" "${@:3}" bash "$BFQNG_TOP/tests/run-tests.sh" >"$o/stdout" 2>"$o/stderr"
	rc=$?
	res=$o/results.tap err=$o/stderr
	diag "$1: rc $rc, $(tail -n 1 "$o/stdout"), $(boots) boot(s) of the harness, $(grep -c '^run-vm: booting' "$err") of QEMU"
}
# boots: the VMs the harness booted (run-vm.sh may boot one of them twice
# itself, when the guest kernel dies before any test: not counted here).
boots() { grep -c '^run-tests: .* test file(s), VM timeout' "$err"; }
# points FILE-REGEX: the result lines (ok and not ok) whose text matches.
points() { grep -E "^(not )?ok [0-9]+ - .*$1" "$res" | sed 's/^\(\(not \)\{0,1\}ok\) [0-9]* /\1 /' | paste -sd'|'; }

harness step-once "1:step"
check_eq "step once: the run passes" "$rc" 0
check_eq "step once: two boots" "$(boots)" 2
check_eq "step once: the harness says why it booted again" \
	"$(grep -c 'died of a single-step trap in kernel mode.*2-fault.sh runs again' "$err")" 1
check_eq "step once: the fault file passes on its second run" "$(points 'fault file')" \
	"ok - the fault file runs to its end (boot 2)"
check_eq "step once: every point" "$(grep -c '^ok' "$res") ok, $(grep -c '^not ok' "$res") not ok" "3 ok, 0 not ok"

harness step-twice "1:step 2:step"
check_eq "step twice: the run fails" "$([ "$rc" != 0 ] && echo failed || echo passed)" failed
check_eq "step twice: three boots" "$(boots)" 3
check_eq "step twice: the second trap fails the fault file" "$(points '2-fault.sh: the VM died')" \
	"not ok - 2-fault.sh: the VM died while it ran (run-vm exit 2; see $BFQNG_OUT/h05-step-twice/boot-2/console.log)"
check_eq "step twice: the second trap's splat is counted, the first's is not" \
	"$(grep -c 'kernel splat' "$res") ($(grep -c 'kernel splat.*boot-2/console.log.*exc_debug_kernel' "$res") of boot 2)" "1 (1 of boot 2)"
check_eq "step twice: the file after it runs on boot 3" "$(points 'after the fault')" \
	"ok - the file after the fault runs (boot 3)"

# A double fault with an EFLAGS no CPU can hold (its console text, printed
# by the fault module) is proof: excused again after one was; a trap after
# it is not.
harness proof-twice "1:dfproof 2:dfproof"
check_eq "proof twice: the run passes" "$rc" 0
check_eq "proof twice: three boots" "$(boots)" 3
check_eq "proof twice: the harness says why it booted again, twice" \
	"$(grep -c 'died of a double fault .*2-fault.sh runs again' "$err")" 2
check_eq "proof twice: the fault file passes on its third run" "$(points 'fault file')" \
	"ok - the fault file runs to its end (boot 3)"
harness proof-then-step "1:dfproof 2:step"
check_eq "proof, then a trap: the run fails" "$([ "$rc" != 0 ] && echo failed || echo passed)" failed
check_eq "proof, then a trap: the trap fails the fault file" "$(points '2-fault.sh: the VM died')" \
	"not ok - 2-fault.sh: the VM died while it ran (run-vm exit 2; see $BFQNG_OUT/h05-proof-then-step/boot-2/console.log)"
check_eq "proof, then a trap: the file after it runs on boot 3" "$(points 'after the fault')" \
	"ok - the file after the fault runs (boot 3)"

harness warn "1:warn"
check_eq "warn: the run fails" "$([ "$rc" != 0 ] && echo failed || echo passed)" failed
check_eq "warn: two boots" "$(boots)" 2
check_eq "warn: the fault file fails" "$(points '2-fault.sh: the VM died')" \
	"not ok - 2-fault.sh: the VM died while it ran (run-vm exit 2; see $BFQNG_OUT/h05-warn/console.log)"
check_eq "warn: the splat is counted" "$(grep -c 'kernel splat.*WARNING: CPU' "$res")" 1
check_eq "warn: the failure names its RIP (the module's init) and the trace above it" \
	"$(grep -c 'kernel splat.*WARNING: CPU.* || RIP: 0010:bfqng_fault_init+0x[0-9a-f]*/0x[0-9a-f]* \[bfqng_fault\] | trace: .*do_one_initcall' "$res")" 1
check_eq "warn: the dead guest's console log is kept, the WARN in it" \
	"$(grep -l 'WARNING: CPU' "$o"/kept/*-2-fault.sh.log 2>/dev/null | wc -l)" 1
check_eq "warn: the file before it passed on boot 1" "$(points 'before the fault')" \
	"ok - the file before the fault runs (boot 1)"
check_eq "warn: the file after it runs on boot 2" "$(points 'after the fault')" \
	"ok - the file after the fault runs (boot 2)"

# Two shards (two VMs at once, run-tests.sh's CHECK_SHARDS), the fault in
# one: the files are dealt 1-first and 3-after to shard 1, 2-fault to shard
# 2 (equal times, by name; tests/vm/deal.sh); shard 2's death stays there.
harness shards "1:warn" CHECK_SHARDS=2
check_eq "shards: the run fails" "$([ "$rc" != 0 ] && echo failed || echo passed)" failed
check_eq "shards: each file ran once, in one of two VMs" \
	"$(grep -c '^# BEGIN' "$o/shard-1/stream.tap") + $(grep -c '^# BEGIN' "$o/shard-2/stream.tap")" "2 + 1"
check_eq "shards: the fault file fails, in shard 2" "$(points '2-fault.sh: the VM died')" \
	"not ok - 2-fault.sh: the VM died while it ran (run-vm exit 2; see $o/shard-2/console.log)"
check_eq "shards: the splat is counted once" "$(grep -c 'kernel splat.*shard-2/console.log.*WARNING: CPU' "$res")" 1
check_eq "shards: shard 1's files pass on its first boot" "$(points 'file .* the fault runs')" \
	"ok - the file before the fault runs (boot 1)|ok - the file after the fault runs (boot 1)"
check_eq "shards: the summary counts both" "$(tail -n 1 "$o/stdout")" "2 passed, 2 failed"
