# shellcheck shell=bash
# Guest helpers that give a test "an HDD" or "an SSD" (Documentation/devices.rst).
#   source "$BFQNG_TESTS/lib-devices.sh"
#   dev=$(make_hdd)                        # hddsim0, default 7200 rpm model
#   dev=$(make_hdd ncq_depth=8 write_cache=0)
#   dev=$(make_ssd ssd0)                   # null_blk, 100 us, depth 32
#   dev=$(make_nullb_fast fast0)           # null_blk, no latency, no memory
# Each prints the device name (the node is /dev/NAME, sysfs /sys/block/NAME).
# Only for use inside the test VM: they load kernel modules.

NULLB_CONFIGFS=/sys/kernel/config/nullb

# _devices_wait_node NAME: wait (up to ~10 s) for /dev/NAME to appear.
_devices_wait_node() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -b "/dev/$1" ] && return 0
		sleep 0.1
	done
	echo "lib-devices: /dev/$1 did not appear" >&2
	return 1
}

# make_hdd [NAME] [param=val...]: (re)load hddsim with the given module
# parameters (see `modinfo hddsim`) and print the first device's name.
# NAME, if given, must be hddsimN (N < nr_devices); it selects the device
# printed.  Any previously loaded hddsim is removed first (it must be unused).
make_hdd() {
	local name=hddsim0
	if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
		name=$1
		shift
	fi
	remove_hdd || return 1
	modprobe hddsim "$@" || { echo "lib-devices: modprobe hddsim $* failed" >&2; return 1; }
	_devices_wait_node "$name" || return 1
	echo "$name"
}

# remove_hdd: unload hddsim (all its devices); no-op if not loaded.
remove_hdd() {
	[ -d /sys/module/hddsim ] || return 0
	udevadm settle 2>/dev/null || true
	local i
	for ((i = 0; i < 50; i++)); do
		modprobe -r hddsim 2>/dev/null && return 0
		sleep 0.1
	done
	echo "lib-devices: cannot unload hddsim (in use?)" >&2
	return 1
}

# _nullb_create NAME SIZE_MB attr=val...: configure and power on a null_blk
# device through configfs.
_nullb_create() {
	local name=$1 size=$2 kv dir
	shift 2
	[ -d "$NULLB_CONFIGFS" ] || modprobe null_blk nr_devices=0 || return 1
	if [ ! -d "$NULLB_CONFIGFS" ]; then
		mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	fi
	dir=$NULLB_CONFIGFS/$name
	[ -d "$dir" ] && remove_nullb "$name"
	mkdir "$dir" || return 1
	echo "$size" >"$dir/size" || return 1
	echo 4096 >"$dir/blocksize"
	for kv in "$@"; do
		echo "${kv#*=}" >"$dir/${kv%%=*}" || {
			echo "lib-devices: cannot set $kv on $name" >&2
			return 1
		}
	done
	echo 1 >"$dir/power" || return 1
	_devices_wait_node "$name"
}

# make_ssd NAME [SIZE_MB]: an SSD-like null_blk: completions by timer after
# 100 us, 32 tags, memory backed, non-rotational, nr_requests 64.
make_ssd() {
	local name=${1:-ssd0} size=${2:-4096}
	_nullb_create "$name" "$size" submit_queues=1 hw_queue_depth=32 \
		irqmode=2 completion_nsec=100000 memory_backed=1 || return 1
	echo 0 >"/sys/block/$name/queue/rotational"
	echo 64 >"/sys/block/$name/queue/nr_requests" 2>/dev/null || true
	echo "$name"
}

# make_nullb_fast NAME [SIZE_MB]: a no-latency null_blk (inline completion,
# no backing memory) to measure the CPU cost of a scheduler.
make_nullb_fast() {
	local name=${1:-fast0} size=${2:-4096}
	_nullb_create "$name" "$size" submit_queues=1 hw_queue_depth=64 \
		irqmode=0 memory_backed=0 || return 1
	echo 0 >"/sys/block/$name/queue/rotational"
	echo 64 >"/sys/block/$name/queue/nr_requests" 2>/dev/null || true
	echo "$name"
}

# remove_nullb NAME: power off and delete a configfs null_blk device.
remove_nullb() {
	local dir=$NULLB_CONFIGFS/$1
	[ -d "$dir" ] || return 0
	echo 0 >"$dir/power" 2>/dev/null || true
	rmdir "$dir"
}

# hdd_stat NAME FIELD: one counter from /sys/kernel/debug/hddsim/NAME/stats.
hdd_stat() {
	local d=/sys/kernel/debug
	mountpoint -q "$d" || mount -t debugfs none "$d" 2>/dev/null
	awk -v f="$2" '$1 == f { print $2 }' "$d/hddsim/$1/stats"
}

# dev_fio FIO_ARGS...: run fio with terse output and print, summed over the
# jobs, "READ_KiB/s READ_IOPS WRITE_KiB/s WRITE_IOPS" (nothing if fio failed).
dev_fio() {
	fio --output-format=terse --terse-version=3 --group_reporting "$@" |
		awk -F';' 'NF > 50 { print $7, $8, $48, $49 }'
}

# dev_sched NAME SCHED: select the I/O scheduler of /dev/NAME.
dev_sched() {
	echo "$2" >"/sys/block/$1/queue/scheduler"
}

# dev_within LO X HI: true if LO <= X <= HI (decimal numbers).
dev_within() {
	awk -v lo="$1" -v x="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x + 0 >= lo + 0 && x + 0 <= hi + 0) }'
}
