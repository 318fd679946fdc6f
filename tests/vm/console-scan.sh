# shellcheck shell=bash
# Reading a test VM's console log: sourced by run-vm.sh, run-tests.sh and
# check-debug.sh (and tests/host/h05-harness-resume.sh), never run.
#   splat_hits LOG    the lines that are kernel splats (BUG, WARNING, lockdep,
#                     KASAN, panic...), minus those VM_SCAN_IGNORE matches
#   splat_lines LOG   the first five of them, timestamps cut, joined by '|'
#   stray_step LOG    true when the kernel's only splat is its warning about
#                     a single-step trap taken in kernel mode (and the trace
#                     and panic_on_warn panic that follow it); see run-tests.sh
#   stray_oops LOG KIND  true when the kernel's only splat is an "Oops: KIND"
#                     (int3, double fault) in kernel mode with no module code
#                     in it, RIP or trace (and the panic that follows), or a
#                     double fault in the core kernel whose EFLAGS no CPU can
#                     hold, with no out-of-tree module in its trace; see
#                     run-tests.sh
#   emulator_fault LOG  says which of the three the log holds, or fails
#   proven_emulator_fault LOG  true when it is that double fault, with an
#                     EFLAGS no CPU can hold
#   oops_brief LOG    the first splat's RIP and call trace on one line
#                     ("RIP: 0010:f+0x1/0x2 | trace: g+0x3/0x4 [mod] < ..."),
#                     for a CI log that keeps only the last lines of output
SPLAT_RE='BUG:|WARNING:|Oops|Call Trace|general protection fault|possible recursive locking|circular locking|INFO: |KASAN|UBSAN|kmemleak|Kernel panic'
VM_SCAN_IGNORE=${VM_SCAN_IGNORE:-'RETBleed: WARNING|MMIO Stale Data: WARNING|Spectre.*WARNING'}
STEP_WARN_RE='WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/kernel/traps\.c:[0-9]+ exc_debug_kernel\+'
STEP_TAIL_RE='Call Trace|Kernel panic - not syncing: kernel: panic_on_warn set'
OOPS_TAIL_RE='Call Trace|Kernel panic - not syncing: Fatal exception'
MODULE_SYM_RE='\+0x[0-9a-f]+/0x[0-9a-f]+ \[[A-Za-z0-9_]+\]'

splat_hits() {
	grep -a -E "$SPLAT_RE" "$1" | grep -a -v -E "$VM_SCAN_IGNORE"
}

splat_lines() {
	splat_hits "$1" | head -n 5 | sed 's/^\[[ 0-9.]*\] //' | paste -sd'|'
}

stray_step() {
	local hits
	hits=$(splat_hits "$1") || return 1
	head -n 1 <<<"$hits" | grep -q -E "$STEP_WARN_RE" &&
		! tail -n +2 <<<"$hits" | grep -q -v -E "$STEP_TAIL_RE"
}

stray_oops() {
	local hits oops
	hits=$(splat_hits "$1") || return 1
	head -n 1 <<<"$hits" | grep -q -E "Oops: $2: [0-9a-f]+ \[#1\]" &&
		! tail -n +2 <<<"$hits" | grep -q -v -E "$OOPS_TAIL_RE" || return 1
	oops=$(sed -n "/Oops: $2: /,\$p" "$1")
	grep -a -q 'RIP: 0010:' <<<"$oops" || return 1
	! grep -a -q -E "$MODULE_SYM_RE" <<<"$oops" && return 0
	[ "$2" = 'double fault' ] && impossible_eflags "$oops" &&
		! grep -a 'RIP: 0010:' <<<"$oops" | grep -a -q -E "$MODULE_SYM_RE" &&
		trace_modules_in_tree "$oops"
}

# impossible_eflags OOPS: true when the first EFLAGS the Oops text shows
# has a bit set that an x86-64 CPU in long mode always holds clear
# (reserved bits 3, 5, 15 and 22-31, or VM, bit 17) or bit 1 clear.  The
# CPU itself writes that word into the exception frame, so such a value is
# proof that the emulator's state was wrong, whatever code was running.
impossible_eflags() {
	local fl
	fl=$(grep -a -o -m 1 -E 'EFLAGS: [0-9a-f]+' <<<"$1" | cut -d' ' -f2)
	[ -n "$fl" ] || return 1
	fl=$((16#$fl))
	((fl & 0xffffffffffc28028 || !(fl & 2)))
}

# trace_modules_in_tree OOPS: true when every module named in the Oops'
# RIP or trace is listed in its "Modules linked in" line with no O flag
# (out of tree: ours, or a test module; "OE+" and "OE-" while loading and
# unloading count too), and none is one of ours by name; false when that
# line is missing (a dropped or interleaved console line).
trace_modules_in_tree() {
	local m list
	list=$(grep -a -m 1 'Modules linked in:' <<<"$1" | sed -e 's/.*Modules linked in://' -e 's/\[last unloaded:.*//')
	[ -n "$list" ] || return 1
	for m in $(grep -a -o -E "$MODULE_SYM_RE" <<<"$1" | sed -E 's/.*\[([A-Za-z0-9_]+)\]$/\1/' | sort -u); do
		case $m in bfq_ng | bfqng_fault | bfq_ng_kunit | hddsim) return 1 ;; esac
		grep -q -E "(^| )$m(\([A-NP-Z+-]*\))?( |\$)" <<<"$list" || return 1
	done
}

# proven_emulator_fault LOG: the log's only splat is a double fault in the
# core kernel that stray_oops excuses and whose EFLAGS no CPU can hold:
# proof, not likelihood, so run-tests.sh excuses more than one per run.
proven_emulator_fault() {
	stray_oops "$1" 'double fault' &&
		impossible_eflags "$(sed -n '/Oops: double fault: /,$p' "$1")"
}

emulator_fault() {
	if stray_step "$1"; then
		echo "a single-step trap in kernel mode, which nothing in the test kernel sets"
	elif stray_oops "$1" int3; then
		echo "an int3 trap in the core kernel's text, away from any module (text patching the emulator missed)"
	elif stray_oops "$1" 'double fault'; then
		echo "a double fault in the core kernel, away from any module or with an EFLAGS no CPU can hold (as QEMU 7.2's TCG raised in kmem_cache_alloc, once before any module was loaded)"
	else
		return 1
	fi
}

oops_brief() {
	local at
	at=$(grep -a -n -E "$SPLAT_RE" "$1" | grep -a -v -E "$VM_SCAN_IGNORE" | head -n 1 | cut -d: -f1)
	[ -n "$at" ] || return 0
	tail -n "+$at" "$1" | head -n 120 | sed 's/^\[[ 0-9.]*\] //' | awk '
		/^RIP: / && !rip { rip = $0; next }
		/Call Trace:/ { intrace = 1; next }
		intrace && /^ *(\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?$/ {
			sub(/^ +/, ""); if (n < 16) f[++n] = $0; next }
		intrace && /^ *<\/?[A-Z#]+>$/ { next }
		intrace { intrace = 0 }
		END {
			printf "%s | trace:", (rip ? rip : "RIP: ?")
			for (i = 1; i <= n; i++) printf "%s %s", (i > 1 ? " <" : ""), f[i]
			print ""
		}'
}
