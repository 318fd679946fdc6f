# Aggregate bench results: input results.tsv lines
#   scenario device case scheduler run metric value
# output, per (scenario device case scheduler metric), in first-seen order:
#   scenario device case scheduler metric n median min max
# Values ">T" (timeouts) sort as just above T and keep their ">" when
# printed; "n/a" and "error" values are not numbers: a key with no number
# prints its first value as median, min and max.
function num(v) { return (v ~ /^>/) ? substr(v, 2) + 1e-9 : v + 0 }
function isval(v) { return v ~ /^>?[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/ }
BEGIN { FS = OFS = "\t" }
{
	k = $1 OFS $2 OFS $3 OFS $4 OFS $6
	if (!(k in n)) { order[++nk] = k; n[k] = 0; first[k] = $7 }
	if (isval($7)) { n[k]++; v[k, n[k]] = $7 }
}
END {
	for (i = 1; i <= nk; i++) {
		k = order[i]; m = n[k]
		if (m == 0) { print k, 0, first[k], first[k], first[k]; continue }
		for (a = 2; a <= m; a++)
			for (b = a; b > 1 && num(v[k, b - 1]) > num(v[k, b]); b--) {
				t = v[k, b]; v[k, b] = v[k, b - 1]; v[k, b - 1] = t
			}
		if (m % 2) med = v[k, (m + 1) / 2]
		else {
			x = v[k, m / 2]; y = v[k, m / 2 + 1]
			if (x ~ /^>/ || y ~ /^>/) med = y
			else med = (x + y) / 2
		}
		print k, m, med, v[k, 1], v[k, m]
	}
}
