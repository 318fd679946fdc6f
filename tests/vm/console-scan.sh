# shellcheck shell=bash
# Reading a test VM's console log: sourced by run-vm.sh, run-tests.sh and
# check-debug.sh (and tests/host/h05-harness-resume.sh), never run.
#   splat_hits LOG    the lines that are kernel splats (BUG, WARNING, lockdep,
#                     KASAN, panic...), minus those VM_SCAN_IGNORE matches
#   splat_lines LOG   the first five of them, timestamps cut, joined by '|'
#   stray_step LOG    true when the kernel's only splat is its warning about
#                     a single-step trap taken in kernel mode (and the trace
#                     and panic_on_warn panic that follow it); see run-tests.sh
SPLAT_RE='BUG:|WARNING:|Oops|Call Trace|general protection fault|possible recursive locking|circular locking|INFO: |KASAN|UBSAN|kmemleak|Kernel panic'
VM_SCAN_IGNORE=${VM_SCAN_IGNORE:-'RETBleed: WARNING|MMIO Stale Data: WARNING|Spectre.*WARNING'}
STEP_WARN_RE='WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/kernel/traps\.c:[0-9]+ exc_debug_kernel\+'
STEP_TAIL_RE='Call Trace|Kernel panic - not syncing: kernel: panic_on_warn set'

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
