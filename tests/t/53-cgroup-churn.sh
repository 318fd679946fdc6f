#!/bin/bash
# timeout: 300
# Cgroup churn under I/O: up to 200 cgroups are created, populated with
# writers that verify what they wrote, see them move to a neighbour, and are
# removed with I/O pending, beside a greedy reader.  Every write verifies,
# the engine invariants hold, and the live group and queue counts return to
# idle.  (Ten long-lived writers are moved around: under TCG a process start
# costs as much as a cgroup.  Each mkdir and rmdir takes ~0.2 s of emulated
# CPU, so creation stops after MAX_S once at least 80 cgroups churned, or
# after MAX_S_SLOW whatever the count: on the debug lane's KASAN kernel 40 s
# made 60.)
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

NR_CGROUPS=200
MIN_CGROUPS=80
NR_WRITERS=10
MAX_S=40		# stop creating after this long: the test stays short
MAX_S_SLOW=150		# ... unless under MIN_CGROUPS were made by then

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
nullb cc0 1024 memory_backed=1 irqmode=2 completion_nsec=100000 hw_queue_depth=1 ||
	die "null_blk"
use_sched cc0 bfq-ng || die "select bfq-ng"
base_groups=$(bfqng_stat cc0 live_groups)
base_queues=$(bfqng_stat cc0 live_queues)
cg_make park || die "cgroup"

# all_ok CMD ARG...: CMD ARG for every ARG at once (each mkdir and rmdir
# takes ~0.2 s of emulated CPU); prints the failures on stderr, returns
# how many there were.
all_ok() {
	local cmd=$1 i failed=0 pids=() args=()
	shift
	for i in "$@"; do
		$cmd "$i" &
		pids+=($!) args+=("$i")
	done
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || { diag "$cmd ${args[i]} failed"; failed=$((failed + 1)); }
	done
	return $failed
}

# Rate-limited writers (fio jobs, one process each, 16 MiB regions) that
# read back and check what they wrote as they go.
fio --name=churn --filename=/dev/cc0 --direct=1 --ioengine=psync --rw=write \
	--bs=64k --size=16m --offset_increment=16m --time_based --runtime=600 \
	--rate=4m --verify=crc32c --verify_backlog=16 --verify_fatal=1 \
	--numjobs=$NR_WRITERS --output=/tmp/churn.out >/dev/null 2>&1 &
fio_pid=$!
at_exit "kill $fio_pid"
writers_up() { [ "$(pgrep -P $fio_pid | wc -l)" -ge $NR_WRITERS ]; }
wait_for 20 writers_up || die "writers"
writers=($(pgrep -P $fio_pid))
bg=$(start_reader cc0 256) || die "background reader"

errors=0 made=0 start=$SECONDS
while [ $made -lt $NR_CGROUPS ] && [ $((SECONDS - start)) -lt $MAX_S_SLOW ] &&
	{ [ $((SECONDS - start)) -lt $MAX_S ] || [ $made -lt $MIN_CGROUPS ]; }; do
	even=() odd=()
	for ((i = 0; i < NR_WRITERS; i++)); do
		even+=("$CG/ch$((made + 2 * i))") odd+=("$CG/ch$((made + 2 * i + 1))")
	done
	all_ok mkdir "${even[@]}" "${odd[@]}" || errors=$((errors + $?))
	for i in "${!writers[@]}"; do
		echo "${writers[i]}" >"${even[i]}/cgroup.procs" || errors=$((errors + 1))
	done
	sleep 0.2
	# Each writer joins its odd neighbour; even cgroups go, I/O pending.
	for i in "${!writers[@]}"; do
		echo "${writers[i]}" >"${odd[i]}/cgroup.procs" || errors=$((errors + 1))
	done
	all_ok rmdir "${even[@]}" || errors=$((errors + $?))
	sleep 0.2
	for p in "${writers[@]}"; do cg_move "$p" park || errors=$((errors + 1)); done
	all_ok rmdir "${odd[@]}" || errors=$((errors + $?))
	made=$((made + 2 * NR_WRITERS))
done
kill $fio_pid
wait $fio_pid
fio_rc=$?
wait_gone 20 "${writers[@]}"
stop_readers "$bg"
check_eq "writers' fio ends when told (status 0, 128 or 143)" \
	"$(case $fio_rc in 0 | 128 | 143) echo ok ;; *) echo $fio_rc ;; esac)" ok
check_eq "writers' jobs with an I/O or verify error" "$(grep -c 'err= *[1-9]' /tmp/churn.out)" 0
check_gt "writers' jobs reported" "$(grep -c 'err= *0' /tmp/churn.out)" 0
diag "churned $made cgroups in $((SECONDS - start)) s"
check_ge "cgroups churned" "$made" $MIN_CGROUPS
check_eq "cgroup operations that failed" "$errors" 0
check_eq "engine invariants hold after the churn" "$(bfqng_check cc0)" ok
cg_remove park
for d in "$CG"/ch*; do [ -d "$d" ] && cg_remove "${d#"$CG"/}"; done

# Removed groups are freed once the core lets them go (RCU, a work item);
# a small read lets the root's virtual time pass ones still remembered.  The
# counts are read for a while after each read, not right after it: the
# reader's own queue goes when its last request is freed, which can come
# just after the reader has exited.
settled() {
	[ "$(bfqng_stat cc0 live_groups)" -le "$base_groups" ] &&
		[ "$(bfqng_stat cc0 live_queues)" -le "$base_queues" ]
}
for ((i = 0; i < 5; i++)); do
	dd if=/dev/cc0 of=/dev/null bs=64k count=4 iflag=direct 2>/dev/null
	wait_for 3 settled && break
done
settled || diag_queues cc0
check_eq "live groups return to idle" "$(bfqng_stat cc0 live_groups)" "$base_groups"
check_eq "live queues return to idle" "$(bfqng_stat cc0 live_queues)" "$base_queues"
select_sched cc0 none
