# bench/prof/report.awk: prof.txt (guest-prof.sh) to the per-case report.
# Input lines: "build case IOPS n" and "build case span calls mean"
# ("build case SYS ..." lines, context switches and interrupts, are not
# parsed: grep them from prof.txt).
# One vCPU under icount: 10^9 / IOPS is the guest instructions per request.
$3 == "IOPS" { iops[$1, $2] = $4; if (!($2 in seen)) { seen[$2] = 1; cases[++nc] = $2 }; next }
$3 == "empty-span" { empty[$1, $2] = $5; next }
$3 == "SYS" { next }
{
	calls[$1, $2, $3] = $4; mean[$1, $2, $3] = $5
	if (!(($1, $3) in known)) { known[$1, $3] = 1; spans[$1, ++ns[$1]] = $3 }
}
function per_rq(b, c, s) {
	return calls[b, c, "H_PREPARE"] ? mean[b, c, s] * calls[b, c, s] / calls[b, c, "H_PREPARE"] : 0
}
function ipr(b, c) { return iops[b, c] ? 1e9 / iops[b, c] : 0 }
END {
	for (k = 1; k <= nc; k++) {
		c = cases[k]
		printf "\n== %s: guest instructions per request (10^9 / IOPS)\n", c
		printf "none %.0f; bfq-ng %.0f (+%.0f above none); mq-deadline %.0f (+%.0f)\n",
			ipr("none", c), ipr("bfq0", c), ipr("bfq0", c) - ipr("none", c),
			ipr("dd0", c), ipr("dd0", c) - ipr("none", c)
		printf "\nEach hook, whole, per request (an empty span, %d, taken off):\n", empty["hooks", c]
		printf "%-14s %8s %8s\n", "hook", "bfq-ng", "mq-dl"
		th = td = 0
		for (i = 1; i <= ns["hooks"]; i++) {
			s = spans["hooks", i]
			h = per_rq("hooks", c, s); d = per_rq("dd", c, s)
			th += h; td += d
			printf "%-14s %8.0f %8.0f\n", s, h, d
		}
		for (i = 1; i <= ns["dd"]; i++) {
			s = spans["dd", i]
			if (!(("hooks", s) in known)) {
				d = per_rq("dd", c, s); td += d
				printf "%-14s %8.0f %8.0f\n", s, 0, d
			}
		}
		printf "%-14s %8.0f %8.0f\n", "hooks, total", th, td
		printf "%-14s %8.0f %8.0f   (above none, less the hooks)\n", "elsewhere",
			ipr("bfq0", c) - ipr("none", c) - th, ipr("dd0", c) - ipr("none", c) - td
		printf "\nSteps inside bfq-ng's hooks, per request:\n"
		printf "%-14s %8s %8s %8s\n", "step", "calls/rq", "instr", "instr/rq"
		for (i = 1; i <= ns["fine"]; i++) {
			s = spans["fine", i]
			if (s == "H_PREPARE")
				continue
			printf "%-14s %8.2f %8d %8.0f\n", s, calls["fine", c, s] / calls["fine", c, "H_PREPARE"],
				mean["fine", c, s], per_rq("fine", c, s)
		}
	}
}
