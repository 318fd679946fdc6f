#!/bin/bash
# Record application start-up read traces in the test VM (run once, by
# `make bench-traces`; the results are committed under bench/traces/).
# For each program: drop caches, run it under strace, keep the raw log
# (openat/read/pread64/mmap/lseek with fd paths) and the size of every
# file it touched.  bench/trace-convert.awk turns them into replay traces.
out=$BFQNG_OUT/traces
mkdir -p "$out"
progs=(
	"bash:bash -c exit"
	"perl:perl -e 1"
	"jq:jq --version"
	"fio:fio --version"
	"strace:strace -V"
	"trace-cmd:trace-cmd list -o"
	"blkparse:blkparse --version"
	"python3:python3 -c pass"
	"gcc:gcc --version"
	"man:man ls"
)
echo "guest: $(uname -r); perl $(perl -e 'print $^V'); $(perl -MTime::HiRes -e 'print "Time::HiRes ok"' 2>&1 | head -1)"
for p in "${progs[@]}"; do
	name=${p%%:*} cmd=${p#*:}
	if ! command -v "${cmd%% *}" >/dev/null; then
		echo "record: ${cmd%% *} not in the guest image; skipped"
		continue
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	t0=$(date +%s%N)
	strace -f -qq -y -s 0 -e trace=execve,openat,open,read,pread64,mmap,lseek \
		-o "$out/$name.strace" $cmd >/dev/null 2>&1 </dev/null
	t1=$(date +%s%N)
	# Sizes of every regular file named in the log (fd paths and execve/openat args).
	grep -o -E '</[^>]*>|"/[^"]*"' "$out/$name.strace" | tr -d '<>"' | sort -u |
		while read -r f; do
			[ -f "$f" ] && stat -L -c '%s %n' "$f"
		done >"$out/$name.sizes"
	# Page-cache residency right after the start-up (cold cache before it):
	# what the run actually brought in, per file; caps the mmap ranges.
	cut -d' ' -f2- "$out/$name.sizes" | xargs -r -d '\n' fincore -b -n -r -o RES,FILE >"$out/$name.fincore" 2>/dev/null
	printf '%s\n' "$cmd" >"$out/$name.cmd"
	echo "record: $name ($cmd): $(wc -l <"$out/$name.strace") syscalls, $(wc -l <"$out/$name.sizes") files, $(((t1 - t0) / 1000000)) ms under strace"
done
readelf -l /bin/bash 2>/dev/null | grep -o 'interpreter: [^]]*' || ls -la /lib64/ld-linux-x86-64.so.2
