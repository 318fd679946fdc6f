#!/usr/bin/env bash
# Boot the bfq-ng test VM and run one script in it as root.
#   tests/vm/run-vm.sh SCRIPT [ARGS...]
# Environment:
#   VM_MEM=2048  VM_SMP=2        guest memory (MiB) and CPUs
#   VM_TIMEOUT=1800              seconds before QEMU is killed and the run fails
#   VM_SHARE=dir                 host dir exported read-only at /mnt/host
#   VM_DISKS="1G 256M"           extra sparse raw virtio disks (vdb, vdc, ...)
#   VM_ARGS="..."                extra kernel command line
#   VM_ACCEL=auto|kvm|tcg|icount default auto: KVM when it works, else TCG;
#                                icount: TCG whose clock counts instructions
#   VM_OUT=tests/out             where console.log, output.log, guest-out/ go
#   VM_HOST_CPUS=0-1             host CPUs QEMU may run on (taskset -c list;
#                                default any): tests/run-tests.sh gives each
#                                of its shards' VMs host cores of its own
#   VM_PASS_ENV="A B"            host variables passed into the guest's env
#   VM_DEVICES="hdd ssd nullb"   simulated devices made before the script runs
#                                (hdd:param=val,... for hddsim parameters); their
#                                names are in $BFQNG_HDD, $BFQNG_SSD, $BFQNG_NULLB
#   VM_SCAN_IGNORE=regex         console lines matching it are not splats
#   VM_KERNEL, VM_INITRD=path    boot another kernel/initramfs (default: the
#                                image's; the debug lane, tests/vm/debug.mk)
#   VM_MODULES=dir               ship dir/*.ko instead of the repo's *.ko
#   VM_ROOTFS=path               boot this root image (snapshot) instead of the
#                                guest's (tests/dkms/check-dkms.sh)
# The script runs with cwd /mnt/run; $BFQNG_TESTS is the copy of tests/,
# udev/ and etc/ are at /mnt/run/udev and /mnt/run/etc, built tools/ binaries
# in /mnt/run/bin (on PATH),
# $BFQNG_OUT (/mnt/run/out) is copied back to $VM_OUT/guest-out.
# Exit status: the script's, or non-zero if the kernel splatted (BUG, WARNING,
# lockdep, panic...), the guest died or hung, or the run timed out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/config.sh"

[ $# -ge 1 ] || { echo "usage: $0 SCRIPT [ARGS...]" >&2; exit 2; }
script=$1
shift
[ -f "$script" ] || { echo "run-vm: no such script: $script" >&2; exit 2; }

VM_MEM=${VM_MEM:-2048}
VM_SMP=${VM_SMP:-2}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
VM_OUT=${VM_OUT:-$top/tests/out}
VM_ACCEL=${VM_ACCEL:-auto}
# shellcheck source=tests/vm/console-scan.sh
. "$here/console-scan.sh"	# sets VM_SCAN_IGNORE's default
guest=$BFQNG_CACHE/guest
VM_KERNEL=${VM_KERNEL:-$guest/vmlinuz}
VM_INITRD=${VM_INITRD:-$guest/initrd.img}

"$here/build-image.sh" >&2
for f in vmlinuz initrd.img rootfs.img; do
	[ -s "$guest/$f" ] || { echo "run-vm: $guest/$f missing" >&2; exit 2; }
done
VM_ROOTFS=${VM_ROOTFS:-$guest/rootfs.img}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-vm.XXXXXX")
qpid= tailpid=
cleanup() {
	local rc=$?
	set +e
	trap - EXIT INT TERM HUP
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null # timeout(1) passes it on to QEMU
		sleep 1
		pkill -9 -P "$qpid" 2>/dev/null
		kill -9 "$qpid" 2>/dev/null
	fi
	[ -n "$tailpid" ] && kill "$tailpid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'echo "run-vm: interrupted" >&2; exit 130' INT TERM HUP

# --- accelerator: KVM if it demonstrably works (probed once per host boot) ---
probe_kvm() {
	local cache=$BFQNG_CACHE/kvm-probe boot res log pid i
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	if [ -r "$cache" ] && [ "$(cut -d' ' -f1 "$cache")" = "$boot" ]; then
		cut -d' ' -f2 "$cache"
		return
	fi
	res=no
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		# Boot the kernel with no root: under working KVM it reaches the
		# "unable to mount root" panic within seconds and QEMU exits.
		log=$tmp/kvm-probe.log
		qemu-system-x86_64 -accel kvm -cpu host -m 256 -nodefaults -display none \
			-no-reboot -kernel "$guest/vmlinuz" \
			-append "console=ttyS0 panic=-1 mitigations=off" \
			-serial "file:$log" </dev/null >"$tmp/kvm-probe.err" 2>&1 &
		pid=$!
		for ((i = 0; i < 50; i++)); do
			sleep 0.5
			if grep -q 'Kernel panic' "$log" 2>/dev/null; then res=yes; break; fi
			grep -qi 'internal error\|failed' "$tmp/kvm-probe.err" 2>/dev/null && break
			kill -0 "$pid" 2>/dev/null || break
		done
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	mkdir -p "$BFQNG_CACHE"
	echo "$boot $res" >"$cache.tmp.$$" && mv "$cache.tmp.$$" "$cache"
	echo "$res"
}
case $VM_ACCEL in
kvm) accel=(-accel kvm -cpu host) ;;
tcg) accel=(-accel tcg,thread=multi -cpu max) ;;
# Guest time counts instructions (1 ns each, one host thread): CPU-cost
# figures free of the host's load, for A/B comparisons of the scheduler.
icount) accel=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off) ;;
auto)
	if [ "$(probe_kvm)" = yes ]; then
		accel=(-accel kvm -cpu host)
	else
		accel=(-accel tcg,thread=multi -cpu max)
	fi ;;
*) echo "run-vm: VM_ACCEL must be auto, kvm, tcg or icount" >&2; exit 2 ;;
esac

# --- the run share -----------------------------------------------------------
run=$tmp/run
mkdir -p "$run/modules" "$run/out"
cp "$here/guest-main.sh" "$run/guest-main.sh"
cp "$script" "$run/script"
cp -a "$top/tests" "$run/tests"
rm -rf "$run/tests/out"
# The udev rule, the drop-in mode's modprobe.d file and the user tools
# (tools/bfq-ng-top, built by `make tools`).
[ -d "$top/udev" ] && cp -a "$top/udev" "$run/udev"
[ -d "$top/etc" ] && cp -a "$top/etc" "$run/etc"
[ -x "$top/tools/bfq-ng-top" ] && mkdir -p "$run/bin" && cp "$top/tools/bfq-ng-top" "$run/bin/"
shopt -s nullglob
if [ -n "${VM_MODULES:-}" ]; then kos=("$VM_MODULES"/*.ko); else kos=("$top"/*.ko "$top"/tests/devices/*/*.ko); fi
shopt -u nullglob
[ ${#kos[@]} -gt 0 ] && cp "${kos[@]}" "$run/modules/"
{
	printf 'export BFQNG_SCRIPT=%q\n' "$(basename "$script")"
	printf 'BFQNG_SCRIPT_ARGS=('
	[ $# -gt 0 ] && printf '%q ' "$@"
	printf ')\n'
	echo "export BFQNG_HAVE_HOST=$([ -n "${VM_SHARE:-}" ] && echo 1 || echo 0)"
	for v in VM_DEVICES ${VM_PASS_ENV:-}; do
		[ -n "${!v+x}" ] && printf 'export %s=%q\n' "$v" "${!v}"
	done
} >"$run/env"
chmod -R a+rX "$run"

# tsc=reliable: no clocksource watchdog on the TSC.  Under TCG the HPET it
# is checked against runs on QEMU's clock, the TSC on the host's, and a
# 0.3 % skew over one interval once marked the TSC unstable mid-run: the
# guest then moved to a slower clocksource, and the sched_clock key flip
# that follows is text patching, which multi-threaded TCG can get wrong
# (an int3 Oops in sched_clock_cpu ended that CI run).
qemu=(qemu-system-x86_64 -name bfqng-test "${accel[@]}" -m "$VM_MEM" -smp "$VM_SMP"
	-nodefaults -display none -vga none -no-reboot -monitor none
	-kernel "$VM_KERNEL" -initrd "$VM_INITRD"
	-append "root=/dev/vda rw rootfstype=ext4 console=ttyS0 panic_on_warn=1 oops=panic panic=-1 init=/sbin/bfqng-init net.ifnames=0 loglevel=7 fsck.mode=skip mitigations=off tsc=reliable ${VM_ARGS:-}"
	-drive "file=$VM_ROOTFS,if=virtio,format=raw,snapshot=on"
	-chardev "file,id=con,path=$tmp/console.log" -serial chardev:con
	-chardev "file,id=out,path=$tmp/output.log" -serial chardev:out
	-fsdev "local,id=runfs,path=$run,security_model=none"
	-device virtio-9p-pci,fsdev=runfs,mount_tag=run)
if [ -n "${VM_SHARE:-}" ]; then
	[ -d "$VM_SHARE" ] || { echo "run-vm: VM_SHARE=$VM_SHARE is not a directory" >&2; exit 2; }
	qemu+=(-fsdev "local,id=hostfs,path=$(cd "$VM_SHARE" && pwd),security_model=none,readonly=on"
		-device virtio-9p-pci,fsdev=hostfs,mount_tag=host)
fi
i=0
for size in ${VM_DISKS:-}; do
	[ "$size" = none ] && continue
	truncate -s "$size" "$tmp/disk$i.img"
	qemu+=(-drive "file=$tmp/disk$i.img,if=virtio,format=raw")
	i=$((i + 1))
done

pin=()
[ -n "${VM_HOST_CPUS:-}" ] && pin=(taskset -c "$VM_HOST_CPUS")

accel_name=${accel[1]}
[ "$VM_ACCEL" = icount ] && accel_name="icount(tcg,shift=0)"

# A guest kernel that dies before guest-main.sh starts (its first line on
# ttyS1 is @@BFQNG-START@@), not by timeout and with none of our modules
# loaded, died of the emulator, not of anything under test: multi-threaded
# TCG occasionally misses the kernel's int3 text patching ("Oops: int3" in
# sched_clock_cpu, then in default_idle, each at boot in a CI run).
# Such a boot is retried once; its console log is kept as
# console.boot-failure.log and the retry is said on stderr.
boot_died_early() {
	[ ! -e "$tmp/timedout" ] &&
		! grep -a -q '^@@BFQNG-START@@' "$tmp/output.log" &&
		! grep -a 'Modules linked in:' "$tmp/console.log" |
			grep -q -E 'bfq|hddsim|null_blk|scsi_debug'
}
boot() {
	: >"$tmp/console.log"
	: >"$tmp/output.log"
	rm -f "$tmp/timedout"
	echo "run-vm: booting ($accel_name ${VM_MEM}M ${VM_SMP}cpu${VM_HOST_CPUS:+ on host CPUs $VM_HOST_CPUS}, timeout ${VM_TIMEOUT}s): $script $*" >&2
	t0=$(date +%s.%N)
	# timeout(1) kills QEMU at VM_TIMEOUT and forwards our TERM/INT/HUP to it.
	timeout -k 10 "$VM_TIMEOUT" "${pin[@]}" "${qemu[@]}" </dev/null >"$tmp/qemu.log" 2>&1 &
	qpid=$!

	# Stream the script's channel live, hiding the markers.
	tail -n +1 -s 0.2 -f --pid="$qpid" "$tmp/output.log" |
		grep --line-buffered -v -E '^@@BFQNG-(EXIT [0-9]*|START)@@' &
	tailpid=$!
	qrc=0
	wait "$qpid" || qrc=$?
	qpid=
	[ "$qrc" = 124 ] || [ "$qrc" = 137 ] && touch "$tmp/timedout"
	wait "$tailpid" 2>/dev/null || true
	tailpid=
	t1=$(date +%s.%N)
}
rm -f "$VM_OUT/console.boot-failure.log"	# an earlier run's
boot "$@"
if boot_died_early; then
	mkdir -p "$VM_OUT"
	tr -d '\r' <"$tmp/console.log" >"$VM_OUT/console.boot-failure.log"
	echo "run-vm: the guest kernel died while booting, before the script started and with none of our modules loaded (QEMU status $qrc; $VM_OUT/console.boot-failure.log): booting once more" >&2
	grep -a -E 'Oops|RIP:|Kernel panic' "$VM_OUT/console.boot-failure.log" | head -n 3 | sed 's/^/run-vm:   /' >&2
	boot "$@"
fi

mkdir -p "$VM_OUT"
tr -d '\r' <"$tmp/console.log" >"$VM_OUT/console.log"
cp "$tmp/output.log" "$VM_OUT/output.log"
rm -rf "$VM_OUT/guest-out"
if [ -n "$(ls -A "$run/out" 2>/dev/null)" ]; then
	cp -a "$run/out" "$VM_OUT/guest-out"
fi

rc=0
marker=$(grep -a -o '^@@BFQNG-EXIT [0-9]*@@' "$tmp/output.log" | tail -n 1 || true)
if [ -e "$tmp/timedout" ]; then
	echo "run-vm: FAIL: timed out after ${VM_TIMEOUT}s; QEMU killed" >&2
	rc=124
elif [ -z "$marker" ]; then
	echo "run-vm: FAIL: the guest died before the script finished (no exit marker; QEMU status $qrc)" >&2
	[ -s "$tmp/qemu.log" ] && sed 's/^/run-vm: qemu: /' "$tmp/qemu.log" >&2
	tail -n 25 "$VM_OUT/console.log" | sed 's/^/run-vm: console: /' >&2
	rc=2
else
	rc=${marker#@@BFQNG-EXIT }
	rc=${rc%@@}
fi

# Kernel splats anywhere in the console log fail the run.
if splat_hits "$VM_OUT/console.log" >/dev/null; then
	echo "run-vm: FAIL: kernel splat in the console log ($VM_OUT/console.log):" >&2
	# The first hit with context (3 lines before, 40 after), then every hit.
	n=$(grep -a -n -E "$SPLAT_RE" "$VM_OUT/console.log" | grep -a -v -E "$VM_SCAN_IGNORE" |
		head -n 1 | cut -d: -f1)
	echo "run-vm:   ----- console.log from line $((n > 3 ? n - 3 : 1)) -----" >&2
	sed -n "$((n > 3 ? n - 3 : 1)),$((n + 40))p" "$VM_OUT/console.log" | sed 's/^/run-vm:   /' >&2
	echo "run-vm: all splat lines:" >&2
	grep -a -n -E "$SPLAT_RE" "$VM_OUT/console.log" | grep -a -v -E "$VM_SCAN_IGNORE" |
		head -n 40 | sed 's/^/run-vm:   /' >&2
	[ "$rc" != 0 ] || rc=3
	touch "$VM_OUT/splat"
else
	rm -f "$VM_OUT/splat"
fi

echo "run-vm: exit $rc after $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')s; console log: $VM_OUT/console.log" >&2
exit "$rc"
