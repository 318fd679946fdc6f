#!/usr/bin/env bash
# Host-side self-test of the VM runner (make vm-selftest): each case boots a
# VM and checks run-vm.sh's verdict.  Prints one line per case and a summary.
#   exit status passes through; VM_SHARE shows up at /mnt/host (read-only);
#   VM_DISKS attaches vdb; a real WARN (panic_on_warn) and a sysrq crash fail
#   the run and are reported; a hung guest is killed at VM_TIMEOUT.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/config.sh"
KDIR=${KDIR:-$KDIR_DEFAULT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VM_OUT=$tmp/out
pass=0 fail=0

# case NAME WANT_RC GREP_STDOUT GREP_STDERR -- run-vm args...
case_() {
	local name=$1 want=$2 out_re=$3 err_re=$4 rc t0 t1
	shift 5
	t0=$(date +%s)
	"$here/run-vm.sh" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	t1=$(date +%s)
	if { [ "$want" = nonzero ] && [ $rc != 0 ] || [ "$rc" = "$want" ]; } &&
		{ [ -z "$out_re" ] || grep -qE "$out_re" "$tmp/stdout"; } &&
		{ [ -z "$err_re" ] || grep -qE "$err_re" "$tmp/stderr"; }; then
		echo "ok - $name (rc $rc, $((t1 - t0))s)"
		pass=$((pass + 1))
	else
		echo "not ok - $name: rc $rc (want $want), stdout/stderr:"
		sed 's/^/    | /' "$tmp/stdout" "$tmp/stderr" | tail -n 40
		fail=$((fail + 1))
	fi
}

printf 'echo hello; exit 7\n' >"$tmp/exit7.sh"
case_ "exit status passes through" 7 '^hello$' '' -- "$tmp/exit7.sh"

mkdir -p "$tmp/share"
echo "payload-$$" >"$tmp/share/file.txt"
cat >"$tmp/share.sh" <<'EOF'
cat /mnt/host/file.txt
touch /mnt/host/x 2>/dev/null && echo share-writable || echo share-readonly
lsblk -dno NAME,SIZE /dev/vdb
echo "args: $*"
EOF
VM_SHARE=$tmp/share VM_DISKS=256M \
	case_ "VM_SHARE at /mnt/host (ro), VM_DISKS, args" 0 "payload-$$" '' -- "$tmp/share.sh" a "b c"
grep -q share-readonly "$tmp/stdout" && grep -qE 'vdb +256M' "$tmp/stdout" && grep -q 'args: a b c' "$tmp/stdout" ||
	{ echo "not ok - share read-only / vdb / args: $(tr '\n' ' ' <"$tmp/stdout")"; fail=$((fail + 1)); }

# A real WARN_ON from a module: panic_on_warn turns it into a panic.
mkdir -p "$tmp/warn"
cat >"$tmp/warn/bfqng_warn.c" <<'EOF'
#include <linux/module.h>
static int __init bfqng_warn_init(void) { WARN_ON(1); return 0; }
static void __exit bfqng_warn_exit(void) { }
module_init(bfqng_warn_init);
module_exit(bfqng_warn_exit);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := bfqng_warn.o' >"$tmp/warn/Kbuild"
if make -s -C "$KDIR" M="$tmp/warn" modules >"$tmp/warn.log" 2>&1; then
	printf 'echo loading; insmod /mnt/host/bfqng_warn.ko; echo survived\n' >"$tmp/warn.sh"
	VM_SHARE=$tmp/warn case_ "a kernel WARN fails the run" nonzero 'loading' 'kernel splat.*|WARNING: CPU' -- "$tmp/warn.sh"
else
	echo "not ok - building the WARN module failed: $(tail -n 5 "$tmp/warn.log")"
	fail=$((fail + 1))
fi

printf 'echo crashing; sync; echo c >/proc/sysrq-trigger; sleep 30\n' >"$tmp/crash.sh"
case_ "a kernel crash (sysrq c) fails the run" nonzero 'crashing' 'no exit marker' -- "$tmp/crash.sh"

printf 'echo "WARNING: CPU: 0 PID: 1 at fake.c:1 fake+0x0/0x0" >/dev/kmsg; exit 0\n' >"$tmp/splat.sh"
case_ "a splat line in the console log fails a script that exits 0" 3 '' 'kernel splat' -- "$tmp/splat.sh"

# init=/bin/false: the kernel panics ("Attempted to kill init") before
# guest-main.sh starts, so run-vm boots once more, and then fails.
printf 'echo never-printed\n' >"$tmp/noboot.sh"
VM_ARGS=init=/bin/false case_ "a guest that dies while booting is booted once more, then fails" 2 '' \
	'booting once more' -- "$tmp/noboot.sh"
grep -c '^run-vm: booting (' "$tmp/stderr" | grep -qx 2 ||
	{ echo "not ok - the boot that died was not retried exactly once: $(grep -c '^run-vm: booting (' "$tmp/stderr") boots"; fail=$((fail + 1)); }

printf 'echo sleeping; sleep 600\n' >"$tmp/hang.sh"
VM_TIMEOUT=45 case_ "a hung guest is killed at VM_TIMEOUT" 124 'sleeping' 'timed out after 45s' -- "$tmp/hang.sh"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
