#!/bin/bash
# Rewrite tests/durations.txt from the "# END name rc=N Ts" lines of a
# run's logs, after a `make check` with one VM:
#   tests/durations.sh tests/out/stream.tap tests/out/host.tap
# (the times of a run with shards, tests/out/shard-*/stream.tap, include
# their neighbours' load).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || { echo "usage: $0 STREAM.tap..." >&2; exit 2; }
new=$(sed -n 's/^\(\[vm[0-9]*\] \)\{0,1\}# END \([^ ]*\) rc=[0-9]* \([0-9]*\)s$/\2 \3/p' "$@" | sort -u -k1,1)
[ -n "$new" ] || { echo "$0: no '# END' lines in $*" >&2; exit 1; }
{
	sed -n '/^#/p' "$here/durations.txt"
	echo "$new"
} >"$here/durations.txt.tmp"
mv "$here/durations.txt.tmp" "$here/durations.txt"
echo "$0: $(wc -l <<<"$new") file(s)"
