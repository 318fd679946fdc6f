# shellcheck shell=bash
# Helpers shared by the debug lane's stress scenarios (tests/stress/*.sh);
# sourced after lib.sh and lib-sched.sh.  Not a test itself: debug-stage.sh
# only copies files named NN-*.sh.

# verify_loop DEV TAG [FIO-OPTION...]: in the background, run fio write +
# crc32c verify passes over DEV until /tmp/TAG.stop exists.  Every failed
# pass appends a line to /tmp/TAG.fail, every good one to /tmp/TAG.ok.
verify_loop() {
	local dev=$1 tag=$2
	shift 2
	rm -f "/tmp/$tag.stop" "/tmp/$tag.fail" "/tmp/$tag.ok"
	(
		n=0
		while [ ! -e "/tmp/$tag.stop" ]; do
			if fio --name="$tag" --filename="/dev/$dev" --direct=1 --verify=crc32c \
				--verify_fatal=1 --randseed=$n --output=/dev/null "$@" >/dev/null 2>"/tmp/$tag.err"; then
				echo "$n" >>"/tmp/$tag.ok"
			else
				echo "pass $n: $(tail -n 3 "/tmp/$tag.err" | paste -sd' ')" >>"/tmp/$tag.fail"
			fi
			n=$((n + 1))
		done
	) &
}

# verify_loop_stop TAG PID MINPASSES: stop the loop, wait for it (at most
# 120 s) and report: no failed pass, at least MINPASSES good ones.
verify_loop_stop() {
	local tag=$1 pid=$2 min=${3:-1} i ok
	touch "/tmp/$tag.stop"
	for ((i = 0; i < 1200; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		tap_fail "$tag: verify loop ends" "still running 120 s after the stop"
		pkill -9 -P "$pid"
		return 1
	fi
	wait "$pid"
	ok=$(cat "/tmp/$tag.ok" 2>/dev/null | wc -l)
	if [ -s "/tmp/$tag.fail" ]; then
		tap_fail "$tag: every fio verify pass succeeds" "$(head -n 3 "/tmp/$tag.fail" | paste -sd'|')"
		return 1
	fi
	check_ge "$tag: fio verify passes completed, all good" "$ok" "$min"
}

# fault_quiet: fault injection prints no stack traces (they look like splats).
fault_quiet() {
	local d
	for d in /sys/kernel/debug/fail_make_request /sys/kernel/debug/failslab \
		/sys/kernel/debug/fail_io_timeout; do
		[ -d "$d" ] && echo 0 >"$d/verbose"
	done
}
