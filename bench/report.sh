#!/usr/bin/env bash
# Write the benchmark report from a results directory (bench/run.sh calls it):
#   bench/report.sh DIR [UPDATE_README=0|1]
# DIR has results.tsv, env.tsv, host.tsv (durations.tsv, bench.log); writes
# DIR/summary.tsv, DIR/report.md, DIR/*.png (gnuplot, if installed) and, with
# UPDATE_README=1, the table between <!-- bench:begin --> and <!-- bench:end -->
# in README.md.  Every figure comes from results.tsv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dir=$1
readme=${2:-0}
S=$dir/summary.tsv
awk -f "$here/aggregate.awk" "$dir/results.tsv" >"$S"

kv() { awk -F'\t' -v k="$2" '$1 == k { sub(/^[^\t]*\t/, ""); print; exit }' "$1"; }
scheds=$(kv "$dir/env.tsv" schedulers)
[ -n "$scheds" ] || scheds=$(awk -F'\t' '{ print $4 }' "$S" | awk '!s[$0]++' | paste -sd,)
IFS=, read -r -a SCH <<<"$scheds"

# cell SCEN DEV CASE SCHED METRIC: "median [min-max]" (or median alone)
cell() {
	awk -F'\t' -v s="$1" -v d="$2" -v c="$3" -v x="$4" -v m="$5" '
	function f(v,   p, a) {
		p = ""; if (v ~ /^>/) { p = ">"; v = substr(v, 2) }
		if (v !~ /^[-+]?[0-9.]+/) return v
		if (v ~ /^[-+]?[0-9]+$/) return p v
		a = (v < 0) ? -v : v
		if (a >= 100) return p sprintf("%.0f", v)
		if (a >= 10) return p sprintf("%.1f", v)
		return p sprintf("%.2f", v)
	}
	$1 == s && $2 == d && $3 == c && $4 == x && $5 == m {
		if ($6 > 1 && $8 != $9) printf "%s [%s–%s]", f($7), f($8), f($9)
		else printf "%s", f($7)
		found = 1; exit
	}
	END { if (!found) printf "–" }' "$S"
}
med() { awk -F'\t' -v s="$1" -v d="$2" -v c="$3" -v x="$4" -v m="$5" \
	'$1 == s && $2 == d && $3 == c && $4 == x && $5 == m { print $7; exit }' "$S"; }
cases() { awk -F'\t' -v s="$1" -v d="$2" '$1 == s && $2 == d { print $3 }' "$S" | awk '!seen[$0]++'; }
devs() { awk -F'\t' -v s="$1" '$1 == s { print $2 }' "$S" | awk '!seen[$0]++'; }
has() { awk -F'\t' -v s="$1" '$1 == s { f = 1 } END { exit !f }' "$S"; }
header() {	# header FIRSTCOL
	printf '| %s |' "$1"
	for s in "${SCH[@]}"; do printf ' %s |' "$s"; done
	printf '\n|---|'
	for s in "${SCH[@]}"; do printf -- '---|'; done
	printf '\n'
}
# cpu_vs_none METRIC AWK: a CPU-cost table, rows cases, columns schedulers,
# each cell printed by the awk statements AWK from v (the scheduler's
# median), b (none's) and d (mq-deadline's).
cpu_vs_none() {
	local c s v b d
	header case
	for c in $(cases cpu nullb_fast); do
		printf '| %s |' "$c"
		b=$(med cpu nullb_fast "$c" none "$1")
		d=$(med cpu nullb_fast "$c" mq-deadline "$1")
		for s in "${SCH[@]}"; do
			v=$(med cpu nullb_fast "$c" "$s" "$1")
			printf ' %s |' "$(awk -v v="$v" -v b="$b" -v d="$d" "BEGIN { $2 }")"
		done
		printf '\n'
	done
}

# table SCEN METRIC [LABEL]: rows device/case, columns schedulers
table() {
	local d c s
	header "${3:-device / case}"
	for d in $(devs "$1"); do
		for c in $(cases "$1" "$d"); do
			printf '| %s / %s |' "$d" "$c"
			for s in "${SCH[@]}"; do printf ' %s |' "$(cell "$1" "$d" "$c" "$s" "$2")"; done
			printf '\n'
		done
	done
}

# --- charts: gnuplot clustered bars, median with min-max error bars ---------
gp() { command -v gnuplot >/dev/null; }
# chart SCEN DEV METRIC TITLE YLABEL PNG [logscale]
chart() {
	local scen=$1 dev=$2 metric=$3 title=$4 ylabel=$5 png=$6 dat c s v i plot=
	gp || return 0
	dat=$dir/${png%.png}.dat
	{
		printf '# case'
		for s in "${SCH[@]}"; do printf '\t%s_med\t%s_min\t%s_max' "$s" "$s" "$s"; done
		printf '\n'
		for c in $(cases "$scen" "$dev"); do
			printf '%s' "$c"
			for s in "${SCH[@]}"; do
				awk -F'\t' -v s="$scen" -v d="$dev" -v c="$c" -v x="$s" -v m="$metric" '
				function n(v) { if (v ~ /^>/) v = substr(v, 2); return (v ~ /^[-+]?[0-9.]+/) ? v + 0 : "NaN" }
				$1 == s && $2 == d && $3 == c && $4 == x && $5 == m { printf "\t%s\t%s\t%s", n($7), n($8), n($9); f = 1; exit }
				END { if (!f) printf "\tNaN\tNaN\tNaN" }' "$S"
			done
			printf '\n'
		done
	} >"$dat"
	i=0
	for s in "${SCH[@]}"; do
		plot+="${plot:+, }'$dat' using $((2 + 3 * i)):$((3 + 3 * i)):$((4 + 3 * i))$([ $i != 0 ] || echo ':xtic(1)') title '$s'"
		i=$((i + 1))
	done
	gnuplot <<GP 2>>"$dir/gnuplot.log" || echo "report: gnuplot failed for $png" >&2
set terminal pngcairo size 900,420 noenhanced font ",10"
set output '$dir/$png'
set title "$title"
set ylabel "$ylabel"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set key outside right top
set grid ytics
set yrange [0:*]
${7:+set logscale y; set yrange [*:*]}
plot $plot
GP
	[ -s "$dir/$png" ] && echo "![$title]($png)"
}

host() { kv "$dir/host.tsv" "$1"; }
env_() { kv "$dir/env.tsv" "$1"; }

# --- summary: bfq-ng against the best peer, one primary metric per case ----
# dir_of METRIC: + if higher is better, - if lower is better
summary_rows() {
	awk -F'\t' -v sch="$scheds" '
	function n(v) { if (v ~ /^>/) v = substr(v, 2); return (v ~ /^[-+]?[0-9.]+/) ? v + 0 : "" }
	BEGIN { split("cpu:iops:+ tput:MBps:+ startup:seconds:- fair:err:- srt:missed_pct:- interleave:MBps:+ scale:iops:+", P, " ")
		for (i in P) { split(P[i], q, ":"); pm[q[1]] = q[2]; pd[q[1]] = q[3] }
		ns = split(sch, S, ",") }
	($1 in pm) && $5 == pm[$1] {
		k = $1 "\t" $2 "\t" $3
		if (!(k in seen)) { seen[k] = 1; ord[++nk] = k }
		val[k, $4] = $7
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = ord[i]; split(k, a, "\t"); d = pd[a[1]]
			me = val[k, "bfq-ng"]; if (n(me) == "") continue
			best = ""; bs = ""
			for (j = 1; j <= ns; j++) {
				s = S[j]; if (s == "bfq-ng" || !((k, s) in val) || n(val[k, s]) == "") continue
				if (best == "" || (d == "+" && n(val[k, s]) > n(best)) || (d == "-" && n(val[k, s]) < n(best))) { best = val[k, s]; bs = s }
			}
			if (best == "") continue
			# ratio: bfq-ng relative to the best peer, >1 = bfq-ng better
			if (d == "+") r = n(best) > 0 ? n(me) / n(best) : 0
			else r = n(me) > 0 ? n(best) / n(me) : 0
			behind = (r < 0.95) ? "behind" : ((r > 1.05) ? "ahead" : "par")
			if (me ~ /^>/ && best ~ /^>/) behind = "par"
			print a[1], a[2], a[3], pm[a[1]], d, me, bs, best, sprintf("%.2f", r), behind
		}
	}' OFS='\t' "$S"
}
summary_rows >"$dir/versus.tsv"

{
	echo "# bfq-ng benchmark report"
	echo
	echo "Generated by \`bench/report.sh\` from \`results.tsv\` of this run; every figure below was measured in this run, in one boot of the test VM, all schedulers on the same devices."
	echo
	echo "## Setup"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(host date) |"
	echo "| mode | $(host mode) ($(env_ runs) run(s) per measurement: median [min–max]) |"
	echo "| command | \`$(host command)\` |"
	echo "| settings | \`$(host settings)\` |"
	echo "| commit | $(host commit) (bfq-ng.ko md5 $(env_ bfq_ng_ko_md5)) |"
	echo "| host | $(host host_cpu), $(host host_cpus) CPUs, kernel $(host host_kernel); load average before/after $(host host_load_before) / $(host host_load_after) (shared machine) |"
	echo "| VM | $(host qemu); $(host accel); VM exit status $(host vm_exit); wall time $(host wall_s) s |"
	echo "| guest | kernel $(env_ guest_kernel), $(env_ guest_vcpus) vCPU ($(env_ guest_cpu)), $(env_ guest_mem_mib) MiB; $(env_ fio) |"
	echo "| schedulers | $(env_ schedulers) |"
	echo "| hddsim | \`$(env_ hddsim)\` $(env_ hddsim_queue) |"
	echo "| SSD profile | null_blk \`$(env_ ssd)\` |"
	echo "| no-latency null_blk | \`$(env_ nullb_fast)\` |"
	echo "| nr_requests | $(env_ nr_requests) |"
	echo "| run times | $(env_ runtime_s) |"
	echo "| start-up app | $(env_ startup_app); $(env_ startup_app_size); timeout $(env_ startup_timeout_s) s |"
	[ -n "$(host splat)" ] && echo "| **kernel splat** | $(host splat) |"
	if [ -s "$dir/durations.tsv" ]; then
		echo "| scenario durations | $(awk -F'\t' '{ printf "%s%s %d s", (NR > 1 ? ", " : ""), $1, $2 }' "$dir/durations.tsv") |"
	fi
	echo
	echo "The guest is emulated (TCG on a shared host when KVM is not available): absolute figures are far below real hardware; compare schedulers by their ratios within this run.  Scenario definitions: \`Documentation/benchmarks.rst\`."
	echo
	if [ -s "$dir/versus.tsv" ]; then
		echo "## bfq-ng against the best peer"
		echo
		echo "Per case, the primary metric: bfq-ng's median, the best other scheduler's median, and the ratio (> 1: bfq-ng better; behind = worse by more than 5 %)."
		echo
		echo "| scenario | device | case | metric | bfq-ng | best peer | peer's | ratio | verdict |"
		echo "|---|---|---|---|---|---|---|---|---|"
		awk -F'\t' '{ printf "| %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, ($5 == "+" ? "higher is better" : "lower is better"), $6, $7, $8, $9, ($10 == "behind" ? "**behind**" : $10) }' "$dir/versus.tsv"
		echo
	fi
	if has cpu; then
		# the CPU scenario always measures none (the reference)
		local_sch=("${SCH[@]}")
		[[ " ${SCH[*]} " == *" none "* ]] || SCH+=(none)
		echo "## 1. CPU cost (no-latency null_blk, 4 KiB random reads)"
		echo
		echo "IOPS:"
		echo
		table cpu iops case
		echo
		echo "IOPS relative to \`none\` (medians):"
		echo
		cpu_vs_none iops 'if (b + 0 > 0 && v != "") printf "%.2f", v / b; else printf "n/a"'
		echo
		chart cpu nullb_fast iops "CPU cost: 4 KiB random reads on no-latency null_blk" IOPS cpu.png
		echo
		case $(host accel) in
		icount*)
			echo "Guest instructions per request, 10^9 / IOPS.  The VM ran with QEMU's icount: its clock advances one ns per instruction any vCPU executes (one host thread runs them in turn), so a run's IOPS are requests per 10^9 guest instructions, repeatable to under 1 % whatever the host's load.  (The /proc/stat busy time is not used here: each vCPU's clock also runs while the other one executes.)"
			echo
			cpu_vs_none iops 'if (v + 0 > 0) printf "%d", 1e9 / v; else printf "n/a"'
			echo
			echo "The scheduler's own instructions per request: that figure above \`none\`'s, medians (and relative to mq-deadline's):"
			echo
			cpu_vs_none iops '
				if (v + 0 <= 0 || b + 0 <= 0) { printf "n/a"; exit }
				o = 1e9 / v - 1e9 / b
				printf "%d", o
				if (d + 0 > 0 && 1e9 / d - 1e9 / b > 0) printf " (x%.2f)", o / (1e9 / d - 1e9 / b)'
			echo
			;;
		*)
			if [ -n "$(med cpu nullb_fast "$(cases cpu nullb_fast | head -n1)" none cpu_ns_per_io)" ]; then
				echo "CPU time per request, ns (all vCPUs' busy time over the run, /proc/stat, divided by IOPS x the run's wall time; the requests complete in the submitting task, so each one's whole path is counted; emulated-CPU time under TCG):"
				echo
				table cpu cpu_ns_per_io case
				echo
				echo "The scheduler's own cost per request: ns above \`none\`'s, medians (and that cost relative to mq-deadline's):"
				echo
				cpu_vs_none cpu_ns_per_io '
					if (v == "" || v == "n/a" || b == "" || b == "n/a") { printf "n/a"; exit }
					printf "%d", v - b
					if (d != "" && d != "n/a" && d - b > 0) printf " (x%.2f)", (v - b) / (d - b)'
				echo
			fi
			;;
		esac
		SCH=("${local_sch[@]}")
	fi
	if has tput; then
		echo "## 2. Aggregate throughput (MiB/s, reads + writes)"
		echo
		table tput MBps
		echo
		for d in $(devs tput); do chart tput "$d" MBps "Aggregate throughput on $d" "MiB/s" "tput-$d.png"; echo; done
	fi
	if has startup; then
		echo "## 3. Application start-up time (s, cold cache; lower is better)"
		echo
		table startup seconds "device / background"
		echo
		for d in $(devs startup); do chart startup "$d" seconds "Start-up time on $d ($(env_ startup_app | cut -d: -f1))" "seconds (log)" "startup-$d.png" log; echo; done
	fi
	if has fair; then
		echo "## 4. Fairness: 4 greedy readers with weights 1:2:3:4 on hddsim"
		echo
		echo "Shares of the aggregate bandwidth (%), ideal 10 / 20 / 30 / 40; error = largest |share − ideal| / ideal (%).  n/a: the scheduler has no cgroup weight file."
		echo
		header "variant / reader"
		for c in $(cases fair hdd); do
			for m in share1 share2 share3 share4 err; do
				printf '| %s / %s |' "$c" "$m"
				for s in "${SCH[@]}"; do printf ' %s |' "$(cell fair hdd "$c" "$s" "$m")"; done
				printf '\n'
			done
		done
		echo
		chart fair hdd err "Fairness error (weights 1:2:3:4), lower is better" "max error (%)" fair.png
		echo
	fi
	if has srt; then
		echo "## 5. Soft real-time: 25 frames/s reader (256 KiB per frame, 40 ms deadline) under 5 greedy readers, hddsim"
		echo
		echo "Frames that missed their deadline, % (lower is better):"
		echo
		table srt missed_pct
		echo
		echo "Missed / frames:"
		echo
		header case
		printf '| hdd / 25fps |'
		for s in "${SCH[@]}"; do printf ' %s / %s |' "$(cell srt hdd 25fps "$s" missed)" "$(cell srt hdd 25fps "$s" frames)"; done
		printf '\n\n'
		chart srt hdd missed_pct "Soft real-time: frames missing the 40 ms deadline" "% of frames" srt.png
		echo
	fi
	if has interleave; then
		echo "## 6. Interleaved I/O: 4 readers, 16 KiB strides of one region, hddsim (MiB/s)"
		echo
		table interleave MBps
		echo
		chart interleave hdd MBps "Interleaved readers (4 x 16 KiB strides)" "MiB/s" interleave.png
		echo
	fi
	if has scale; then
		echo "## 7. Scalability: N tasks of 4 KiB random reads, no-latency null_blk (IOPS)"
		echo
		table scale iops tasks
		echo
		chart scale nullb_fast iops "Scalability: random-read IOPS vs number of tasks" IOPS scale.png
		echo
	fi
	echo "## Files"
	echo
	echo "\`results.tsv\` (every measurement: scenario, device, case, scheduler, run, metric, value), \`summary.tsv\` (median, min, max), \`versus.tsv\`, \`env.tsv\`/\`host.tsv\` (setup), \`bench.log\` (guest log), \`*.dat\` (chart data)."
} >"$dir/report.md"

# --- README: a short table between the markers -------------------------------
if [ "$readme" = 1 ] && grep -q '^<!-- bench:begin -->' "$top/README.md" && grep -q '^<!-- bench:end -->' "$top/README.md"; then
	rows="cpu|nullb_fast|uring1x32|iops|CPU cost: io_uring 1×32 IOPS
cpu|nullb_fast|psync2x1|iops|CPU cost: psync 2 jobs IOPS
tput|hdd|seq10|MBps|hddsim 10 seq. readers MiB/s
tput|hdd|rw5seq|MBps|hddsim 5 readers + 5 writers MiB/s
tput|ssd|rand10|MBps|SSD 10 random readers MiB/s
startup|hdd|idle|seconds|hddsim start-up, idle (s)
startup|hdd|seq10|seconds|hddsim start-up, 10 seq. readers (s)
startup|ssd|seq10|seconds|SSD start-up, 10 seq. readers (s)
fair|hdd|ioprio|err|fairness error, ioprio 1:2:3:4 (%)
fair|hdd|cgroup|err|fairness error, cgroups 1:2:3:4 (%)
srt|hdd|25fps|missed_pct|25 fps frames late (%)
interleave|hdd|4x16k|MBps|4 interleaved readers MiB/s
scale|nullb_fast|1024|iops|1024 tasks random-read IOPS"
	tbl=$(mktemp)
	{
		echo "<!-- bench:begin -->"
		echo "## Benchmark summary"
		echo
		echo "Generated by \`$(host command)\` ($(host mode) run of $(host date), commit $(host commit); medians of $(env_ runs) run(s), all schedulers in one boot of the TCG test VM — compare ratios, not absolute figures). Full report: [$dir/report.md]($dir/report.md)."
		echo
		header measure
		while IFS='|' read -r sc dv cs mt label; do
			printf '| %s |' "$label"
			for s in "${SCH[@]}"; do
				v=$(med "$sc" "$dv" "$cs" "$s" "$mt")
				printf ' %s |' "${v:-–}"
			done
			printf '\n'
		done <<<"$rows"
		echo "<!-- bench:end -->"
	} | sed "s|$top/||g" >"$tbl"
	awk -v f="$tbl" '
		/^<!-- bench:begin -->/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/^<!-- bench:end -->/ { skip = 0; next }
		!skip' "$top/README.md" >"$top/README.md.bench.tmp" && mv "$top/README.md.bench.tmp" "$top/README.md"
	rm -f "$tbl"
fi
echo "report: $dir/report.md"
