#!/bin/bash
# The demo (make demo): a simulated 7200 rpm disk (hddsim) with ext4 on it,
# ten greedy sequential readers, and the cold-cache start-up of a small
# application (the replay of a recorded start-up read trace, bench/traces/)
# timed under bfq-ng, mainline bfq and mq-deadline; the idle-disk start-up
# time is shown for reference.  `make demo` shares bench/ at /mnt/host.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
trap - EXIT

APP=${DEMO_APP:-bash}
TIMEOUT=${DEMO_TIMEOUT:-60}
B=${BFQNG_HOST:-/mnt/host}
REPLAY=$B/guest/replay.pl
TRACE=$B/traces/$APP.trace
[ -f "$REPLAY" ] && [ -f "$TRACE" ] || {
	echo "demo: $REPLAY or $TRACE missing: run it with 'make demo' (it shares bench/ with the VM)" >&2
	exit 1
}
modprobe bfq-ng || { echo "demo: cannot load bfq-ng" >&2; exit 1; }
modprobe bfq || echo "demo: cannot load mainline bfq" >&2
dev=$(make_hdd) || { echo "demo: cannot create hddsim" >&2; exit 1; }
echo "demo: /dev/$dev: simulated 7200 rpm disk, $(($(cat /sys/block/$dev/size) / 2097152)) GiB"
mkdir -p /mnt/demo
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$dev" 1024M &&
	mount "/dev/$dev" /mnt/demo &&
	perl "$REPLAY" --mktree /mnt/demo/app "$TRACE" && sync ||
	{ echo "demo: cannot prepare ext4 on /dev/$dev" >&2; exit 1; }
echo "demo: application: $(head -n 1 "$TRACE" | sed 's/^# bfq-ng //'); $(tail -n 1 "$TRACE" | sed 's/^# //')"

# ten sequential readers, 128 KiB O_DIRECT each, in slices of the raw disk
# behind the filesystem
cap=$(($(cat /sys/block/$dev/size) * 512))
base=$((1536 << 20))
slice=$(((cap - base) / 10 / 1048576 * 1048576))
{
	printf '[global]\nfilename=/dev/%s\nrw=read\nbs=128k\nioengine=psync\ndirect=1\ntime_based=1\nruntime=3600\nsize=%d\n' "$dev" "$slice"
	for i in $(seq 0 9); do printf '[reader%d]\noffset=%d\n' "$i" $((base + i * slice)); done
} >/tmp/demo-readers.fio

startup() {	# startup SCHED LOADED(0|1): prints the start-up time in seconds
	local pid= t
	set_sched "$dev" "$1" >/dev/null || { echo "error"; return; }
	# a switch resets nr_requests to 2 x the disk's single tag
	echo 64 >"/sys/block/$dev/queue/nr_requests"
	if [ "$2" = 1 ]; then
		fio --output=/dev/null /tmp/demo-readers.fio >/dev/null 2>&1 &
		pid=$!
		sleep 3
	fi
	t=$(perl "$REPLAY" /mnt/demo/app "$TRACE" "$TIMEOUT")
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	echo "${t:-error}"
}

startup bfq-ng 0 >/dev/null	# unmeasured: the tree's writeback and journal settle
idle=$(startup bfq-ng 0)
printf '\n%-12s %22s %12s\n' scheduler "start-up under load" "vs idle"
for s in bfq-ng bfq mq-deadline; do
	t=$(startup "$s" 1)
	printf '%-12s %20s s %12s\n' "$s" "$t" \
		"$(awk -v t="$t" -v i="$idle" 'BEGIN { sub(/^>/, "", t); if (i + 0 > 0 && t ~ /^[0-9.]+$/) printf "x %.1f", t / i; else print "-" }')"
done
printf '%-12s %20s s   (idle disk, bfq-ng, for reference)\n' "(idle)" "$idle"
echo
echo "start-up: cold cache, the $APP start-up reads replayed in order on ext4;"
echo "load: 10 greedy sequential readers (fio, 128 KiB O_DIRECT) on the same disk."
umount /mnt/demo
set_sched "$dev" none >/dev/null
remove_hdd
