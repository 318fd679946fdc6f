#!/usr/bin/awk -f
# Turn a raw start-up strace log (bench/guest/record-traces.sh) into a replay
# trace.  Usage:
#   awk -f trace-convert.awk -v cmd="perl -e 1" NAME.sizes NAME.fincore NAME.strace
# Output lines, in the order the program issued them:
#   f ID SIZE PATH     a regular file the program opened (first time only)
#   r ID OFFSET LEN    read LEN bytes at OFFSET (read/pread64 as returned;
#                      a file mmap as the mapped range clipped to the file size
#                      and to what earlier mmaps of that file already covered,
#                      and, in total per file, to the bytes that were resident
#                      in the page cache after the recorded cold start: the
#                      program faults in only part of what it maps)
#   l PATH             a failed lookup (openat -> ENOENT): a stat in the replay
# execve(PATH) counts as an mmap of the whole executable.
function fileid(path) {
	if (!(path in size)) return 0
	if (!(path in id)) {
		id[path] = ++nfiles
		printf "f %d %d %s\n", nfiles, size[path], path
		nf++; bytes_total += 0
	}
	return id[path]
}
# emit a mapped range [off, end) minus what is already covered (per-file list)
function maprange(path, off, len,    fid, end, i, n, a, b, s, e, cur) {
	fid = fileid(path)
	if (!fid) return
	end = off + len
	if (end > size[path]) end = size[path]
	if (end <= off) return
	# walk the covered intervals (kept sorted, disjoint) and emit the gaps
	n = ncov[fid]; cur = off
	for (i = 1; i <= n && cur < end; i++) {
		a = cs[fid, i]; b = ce[fid, i]
		if (b <= cur) continue
		if (a >= end) break
		if (a > cur) emitm(fid, path, cur, a - cur)
		if (b > cur) cur = b
	}
	if (cur < end) emitm(fid, path, cur, end - cur)
	addcov(fid, off, end)
}
function addcov(fid, s, e,    i, n, j, ns, ne, k) {
	n = ncov[fid]; k = 0
	# merge [s,e) into the list
	for (i = 1; i <= n; i++) {
		if (ce[fid, i] < s || cs[fid, i] > e) { k++; ts[k] = cs[fid, i]; te[k] = ce[fid, i]; continue }
		if (cs[fid, i] < s) s = cs[fid, i]
		if (ce[fid, i] > e) e = ce[fid, i]
	}
	k++; ts[k] = s; te[k] = e
	# insertion sort by start
	for (i = 2; i <= k; i++) for (j = i; j > 1 && ts[j - 1] > ts[j]; j--) {
		ns = ts[j]; ts[j] = ts[j - 1]; ts[j - 1] = ns
		ne = te[j]; te[j] = te[j - 1]; te[j - 1] = ne
	}
	for (i = 1; i <= k; i++) { cs[fid, i] = ts[i]; ce[fid, i] = te[i] }
	ncov[fid] = k
}
function hex(s,    i, v, c) {
	v = 0
	s = tolower(substr(s, 3))
	for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
	return v
}
function emitm(fid, path, off, len) {	# a mapped range, within the budget
	if ((path in budget) && len > budget[path]) len = budget[path]
	if (len <= 0) return
	emit(fid, off, len)
	if (path in budget) budget[path] -= len
}
function emit(fid, off, len) {
	printf "r %d %d %d\n", fid, off, len
	nreads++; bytes_total += len
}
function fdpath(s,    m) {	# "3</usr/lib/x.so>" -> /usr/lib/x.so
	if (match(s, /<[^>]*>/)) return substr(s, RSTART + 1, RLENGTH - 2)
	return ""
}
BEGIN { print "# bfq-ng start-up read trace of `" cmd "` (strace in the test VM)" }
FILENAME == ARGV[1] { p = $2; for (i = 3; i <= NF; i++) p = p " " $i; size[p] = $1; next }
FILENAME == ARGV[2] { p = $2; for (i = 3; i <= NF; i++) p = p " " $i; budget[p] = $1; next }
{
	pid = $1
	line = $0
	sub(/^[0-9]+ +/, "", line)
	if (line ~ /^execve\(/ && line ~ /= 0$/) {
		split(line, q, "\"")
		if (q[2] in size) maprange(q[2], 0, size[q[2]])
	} else if (line ~ /^openat\(/) {
		split(line, q, "\"")
		if (line ~ /= -1 ENOENT/) { if (q[2] ~ /^\//) { print "l " q[2]; nlook++ }; next }
		n = split(line, parts, "= ")
		ret = parts[n]
		fd = ret; sub(/<.*/, "", fd)
		path = fdpath(ret)
		off[pid, fd] = 0
		if (path in size) fileid(path)
	} else if (line ~ /^read\(/) {
		path = fdpath(line); fd = line; sub(/^read\(/, "", fd); sub(/<.*/, "", fd)
		n = split(line, parts, "= "); ret = parts[n] + 0
		if (ret > 0 && (path in size)) { emit(fileid(path), off[pid, fd] + 0, ret); if (path in budget) budget[path] -= ret }
		if (ret > 0) off[pid, fd] += ret
	} else if (line ~ /^pread64\(/) {
		path = fdpath(line)
		n = split(line, parts, "= "); ret = parts[n] + 0
		a = line; sub(/\) *= .*/, "", a); m = split(a, args, ", ")
		if (ret > 0 && (path in size)) { emit(fileid(path), args[m] + 0, ret); if (path in budget) budget[path] -= ret }
	} else if (line ~ /^lseek\(/) {
		fd = line; sub(/^lseek\(/, "", fd); sub(/<.*/, "", fd)
		n = split(line, parts, "= "); ret = parts[n] + 0
		if (ret >= 0) off[pid, fd] = ret
	} else if (line ~ /^mmap\(/) {
		path = fdpath(line)
		if (path == "" || !(path in size)) next
		a = line; sub(/\) *= .*/, "", a); sub(/^mmap\(/, "", a)
		m = split(a, args, ", ")
		o = args[m]; o = (o ~ /^0x/) ? hex(o) : o + 0
		maprange(path, o, args[2] + 0)
	}
}
END {
	printf "# %d files, %d reads, %d bytes, %d failed lookups\n", nfiles, nreads, bytes_total, nlook
}
