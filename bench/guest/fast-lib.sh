# shellcheck shell=bash
# Sourced by the guest sides of bench/ab and bench/prof (their host sides
# ship it in VM_SHARE), which measure the per-request cost on no-latency
# null_blk: the setup they share, and their fio cases (4 KiB random reads).
# shellcheck disable=SC2034 # out, dev and args are the caller's

# fast_setup: into the tree, with the test libraries; sets out (created)
# and dev (a no-latency null_blk), or exits.
fast_setup() {
	cd /mnt/run || exit 1
	. tests/lib.sh
	. tests/lib-devices.sh
	out=$BFQNG_OUT
	mkdir -p "$out"
	dev=$(make_nullb_fast fast0) || exit 1
}

# fast_case_args CASE: the fio options of CASE into the array args; false
# for an unknown case.
fast_case_args() {
	case $1 in
	uring1x32) args=(--ioengine=io_uring --iodepth=32 --numjobs=1) ;;
	uring2x32) args=(--ioengine=io_uring --iodepth=32 --numjobs=2) ;;
	psync1x1) args=(--ioengine=psync --iodepth=1 --numjobs=1) ;;
	psync2x1) args=(--ioengine=psync --iodepth=1 --numjobs=2) ;;
	*) return 1 ;;
	esac
}
