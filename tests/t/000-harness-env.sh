#!/bin/bash
# timeout: 120
# Harness self-test: the guest environment the other tests rely on.
source "$BFQNG_TESTS/lib.sh"

# The debug lane stages its own 001-debug-kernel.sh, which checks its kernel.
if [ -e "$BFQNG_TESTS/t/001-debug-kernel.sh" ]; then
	tap_skip "guest runs the pinned kernel" "debug lane: $(uname -r), checked by 001-debug-kernel"
else
	check_eq "guest runs the pinned kernel" "$(uname -r)" "6.12.118+deb12-amd64"
fi
check_eq "running as root" "$(id -u)" 0
if [ -r /sys/fs/cgroup/cgroup.controllers ]; then
	tap_ok "cgroup2 is mounted at /sys/fs/cgroup"
else
	tap_fail "cgroup2 is mounted at /sys/fs/cgroup" "no /sys/fs/cgroup/cgroup.controllers"
fi
if grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	tap_ok "the io controller is available"
else
	tap_fail "the io controller is available" "controllers: $(cat /sys/fs/cgroup/cgroup.controllers 2>/dev/null)"
fi
for m in /sys/kernel/debug:debugfs /sys/kernel/config:configfs /mnt/run:9p /tmp:tmpfs; do
	check_eq "${m%%:*} is mounted (${m#*:})" "$(findmnt -n -o FSTYPE "${m%%:*}")" "${m#*:}"
done
check_eq "BFQNG_TESTS points at the tests copy" "$([ -r "$BFQNG_TESTS/lib.sh" ] && echo yes)" yes
for t in fio jq blktrace trace-cmd gawk mkfs.ext4 modprobe; do
	check_eq "$t is installed" "$(command -v "$t" >/dev/null && echo yes || echo no)" yes
done
# Every .ko the host built is installed and known to modprobe.
for ko in /mnt/run/modules/*.ko; do
	[ -e "$ko" ] || { tap_skip "built modules are known to modprobe" "no .ko was built"; break; }
	m=$(basename "$ko" .ko)
	if modinfo "$m" >/dev/null 2>&1; then
		tap_ok "module $m is installed in /lib/modules/$(uname -r)/extra"
	else
		tap_fail "module $m is installed in /lib/modules/$(uname -r)/extra" "modinfo $m failed"
	fi
done
