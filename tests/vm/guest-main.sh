#!/bin/bash
# Runs inside the test VM as PID 1 (exec'd by /sbin/bfqng-init) from the 9p
# share /mnt/run, which the host fills at every boot (tests/vm/run-vm.sh):
#   env          variables from the host (script name, args, passed-through env)
#   script       the user script
#   modules/     every built *.ko (bfq-ng.ko, tests/devices/*/*.ko)
#   tests/       a copy of the repo's tests/ directory
#   udev/, bin/  the repo's udev rules and built tools (if any)
#   out/         writable; copied back to the host's output dir after the run
# The script's stdout/stderr go to ttyS1 (the host streams it); the kernel
# console is ttyS0.  The last line on ttyS1 is the exit marker the host reads.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
R=/mnt/run
OUT=/dev/ttyS1
stty -F "$OUT" raw -echo 2>/dev/null
exec >"$OUT" 2>&1 </dev/null
echo "@@BFQNG-START@@"	# the kernel booted (tests/vm/run-vm.sh)

finish() {
	echo "@@BFQNG-EXIT $1@@"
	sync
	echo o >/proc/sysrq-trigger
	sleep 60
	echo b >/proc/sysrq-trigger
}

# shellcheck disable=SC1091
. "$R/env" || { echo "guest-main: cannot read $R/env"; finish 2; }

kver=$(uname -r)
if compgen -G "$R/modules/*.ko" >/dev/null; then
	mkdir -p "/lib/modules/$kver/extra"
	cp "$R"/modules/*.ko "/lib/modules/$kver/extra/"
	depmod -a || echo "guest-main: depmod failed"
fi

if [ "${BFQNG_HAVE_HOST:-0}" = 1 ]; then
	mkdir -p /mnt/host
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro host /mnt/host ||
		echo "guest-main: mounting the host share at /mnt/host failed"
	export BFQNG_HOST=/mnt/host
fi

export BFQNG_RUN=$R BFQNG_TESTS=$R/tests BFQNG_OUT=$R/out BFQNG_VM=1
[ -d "$R/bin" ] && export PATH=$R/bin:$PATH	# tools/bfq-ng-top and friends
export HOME=/root TMPDIR=/tmp LANG=C.UTF-8
mkdir -p "$BFQNG_OUT"
echo 1 >/proc/sys/kernel/sysrq
# Kernel messages stay on the console (ttyS0) only.
dmesg -n 7 2>/dev/null

# VM_DEVICES: devices the script asked for by name (Documentation/devices.rst).
for d in ${VM_DEVICES:-}; do
	# shellcheck disable=SC1091
	. "$BFQNG_TESTS/lib-devices.sh"
	case $d in
	hdd | hdd:*)
		params=${d#hdd}
		params=${params#:}
		# shellcheck disable=SC2086
		BFQNG_HDD=$(make_hdd ${params//,/ }) && export BFQNG_HDD ;;
	ssd) BFQNG_SSD=$(make_ssd ssd0) && export BFQNG_SSD ;;
	nullb) BFQNG_NULLB=$(make_nullb_fast nullb0) && export BFQNG_NULLB ;;
	*) echo "guest-main: unknown VM_DEVICES entry '$d' (hdd, ssd, nullb)" ;;
	esac || echo "guest-main: could not make the '$d' device"
done

cd "$R" || finish 2
bash "$R/script" "${BFQNG_SCRIPT_ARGS[@]}"
rc=$?
finish "$rc"
