# shellcheck shell=bash
# 3. Application start-up latency: replay of a recorded start-up read trace
#    (bench/traces/$BENCH_APP.trace) on ext4 on the device, cold cache
#    (replay.pl syncs and drops the caches, then times the reads in trace
#    order), with the device idle or under 10 sequential readers, 10 random
#    readers, or 5 sequential readers + 5 sequential writers (raw device
#    slices behind the filesystem).  Seconds; ">T" when it hit the timeout.
# startup_prepare DEV: ext4 + the app's file tree, mounted at /mnt/bfs
startup_prepare() {
	mkdir -p /mnt/bfs
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$1" "${FS_MB}M" >>"$LOG" 2>&1 || return 1
	mount -t ext4 "/dev/$1" /mnt/bfs || return 1
	perl "$BENCH_DIR/guest/replay.pl" --mktree /mnt/bfs/app "$APP_TRACE" || return 1
	sync
	# one unmeasured replay: writeback and journal activity of the tree's
	# creation settle before the first timed run
	perl "$BENCH_DIR/guest/replay.pl" /mnt/bfs/app "$APP_TRACE" "$BENCH_STARTUP_TIMEOUT" >/dev/null
}

# startup_once DEV BG: one timed replay with background BG running; prints the time
startup_once() {
	local dev=$1 bg=$2 pid= t
	if [ "$bg" != idle ]; then
		{
			global_section 3600 0
			case $bg in
			seq10) greedy_jobs seqr 10 "$dev" ;;
			rand10) greedy_jobs randr 10 "$dev" ;;
			rw5) SLICE0=0 greedy_jobs seqr 5 "$dev"; SLICE0=5 greedy_jobs seqw 5 "$dev" ;;
			esac
		} >"$WORK/bg.fio"
		fio --output=/dev/null "$WORK/bg.fio" >/dev/null 2>&1 &
		pid=$!
		sleep "$BENCH_WARMUP"
	fi
	t=$(perl "$BENCH_DIR/guest/replay.pl" /mnt/bfs/app "$APP_TRACE" "$BENCH_STARTUP_TIMEOUT")
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	echo "${t:-error}"
}

scenario_startup() {
	local d dev bg run s
	APP_TRACE=$BENCH_DIR/traces/$BENCH_APP.trace
	[ -f "$APP_TRACE" ] || { say "startup: no trace $APP_TRACE"; return 1; }
	say "startup: application $BENCH_APP: $(tail -n 1 "$APP_TRACE")"
	for d in hdd ssd; do
		case $d in
		hdd) dev=$(make_hdd) || return 1 ;;
		ssd) dev=$(make_ssd ssd0) || return 1 ;;
		esac
		startup_prepare "$dev" || { say "startup: preparing $dev failed"; return 1; }
		for bg in $BENCH_STARTUP_BG; do
			for ((run = 1; run <= BENCH_RUNS; run++)); do
				for s in "${SCHEDS[@]}"; do
					use_sched "$dev" "$s" || continue
					result startup "$d" "$bg" "$s" "$run" seconds "$(startup_once "$dev" "$bg")"
				done
			done
		done
		umount /mnt/bfs
		use_sched "$dev" none
		case $d in hdd) remove_hdd ;; ssd) remove_nullb ssd0 ;; esac
	done
}
