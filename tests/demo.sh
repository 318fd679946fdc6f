#!/bin/bash
# The demo (make demo): a simulated 7200 rpm disk, two greedy sequential
# readers and one reader of small scattered blocks (an "application" with
# think time), under bfq-ng and under mq-deadline; prints what each
# scheduler gave them and what bfq-ng did.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

RUNTIME=${DEMO_RUNTIME:-15}
modprobe bfq-ng || { echo "demo: cannot load bfq-ng" >&2; exit 1; }
dev=$(make_hdd) || { echo "demo: cannot create hddsim" >&2; exit 1; }
echo "demo: /dev/$dev, $(cat /sys/block/$dev/size) sectors, rotational=$(cat /sys/block/$dev/queue/rotational)"

run() {
	use_sched "$dev" "$1" || return 1
	fio --output-format=json --output=/tmp/demo-$1.json --filename=/dev/$dev \
		--direct=1 --time_based --runtime="$RUNTIME" --size=1g \
		--name=seq1 --rw=read --bs=128k --ioengine=libaio --iodepth=8 --offset=0 \
		--name=seq2 --rw=read --bs=128k --ioengine=libaio --iodepth=8 --offset=2g \
		--name=app --rw=randread --bs=4k --ioengine=psync --thinktime=2000 \
		--offset=5g >/dev/null
}

printf '\n%-12s %14s %14s %12s %16s\n' scheduler "seq1 KiB/s" "seq2 KiB/s" "app IOPS" "app mean lat ms"
for s in bfq-ng mq-deadline; do
	run "$s" || { echo "demo: run under $s failed" >&2; exit 1; }
	j=/tmp/demo-$s.json
	printf '%-12s %14s %14s %12s %16s\n' "$s" \
		"$(fio_json_bw "$j" seq1)" "$(fio_json_bw "$j" seq2)" \
		"$(fio_json_iops "$j" app)" \
		"$(jq '[.jobs[] | select(.jobname == "app") | .read.clat_ns.mean] | add / 1000000 * 100 | floor / 100' "$j")"
	if [ "$s" = bfq-ng ]; then
		echo "--- what bfq-ng did (debugfs) ---"
		cat "/sys/kernel/debug/block/$dev/sched/stats" "/sys/kernel/debug/block/$dev/sched/state" | sed 's/^/  /'
		echo "  engine invariant check: $(bfqng_check "$dev")"
	fi
done
select_sched "$dev" none
remove_hdd
