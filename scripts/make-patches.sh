#!/usr/bin/env bash
# `make patches`: a git format-patch series that adds bfq-ng to the pinned
# linux-source tree (linux-source-6.12 of the pinned Debian version) under
# block/bfq-ng/, with its Kconfig and Makefile entries, a MAINTAINERS entry
# and the admin guide as Documentation/block/bfq-ng.rst.
#   scripts/make-patches.sh [OUTDIR]     default out/patches
# The series is built in a scratch git repository holding only the tree's
# files it changes, taken from the tarball, so it applies with `git am` or
# `patch -p1` to the whole tree.  block/bfq-ng/Makefile is the module's own
# Kbuild with the private-header path pointed at block/.
#   LINUX_SOURCE_TARBALL=path   another linux-source-6.12 tarball
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/config.sh"

out=${1:-$top/out/patches}
src=linux-source-6.12
# Files of the tree the series modifies (all others it adds).
touched=(block/Kconfig.iosched block/Makefile Documentation/block/index.rst MAINTAINERS)

[ -r "$KSRC_TARBALL" ] || { echo "patches: $KSRC_TARBALL missing: run 'make deps'" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-patches.XXXXXX")
trap 'rm -rf "$work"' EXIT
g() { git -C "$work/tree" "$@"; }

mkdir -p "$work/tree"
tar -xJf "$KSRC_TARBALL" -C "$work/tree" --strip-components=1 "${touched[@]/#/$src/}"
# One fixed identity and date (the repository's HEAD) make the series reproducible.
who=$(git -C "$top" log -1 --format='%an <%ae>' 2>/dev/null || echo 'bfq-ng developers <bfq-ng@example.invalid>')
when=$(git -C "$top" log -1 --format='%ad' --date=rfc 2>/dev/null || date -R)
export GIT_AUTHOR_NAME=${who% <*} GIT_AUTHOR_EMAIL=${who##*<}
GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when
g init -q -b bfq-ng
g add -A
g commit -q -m "linux-source $KPKGVER (the files this series changes)"
base=$(g rev-parse HEAD)

# commit SUBJECT BODY: commit everything staged, signed off.
commit() {
	g commit -q -s -m "$1" -m "$2"
}

# --- 1: the engine ------------------------------------------------------------
dst=$work/tree/block/bfq-ng
mkdir -p "$dst"
engine=(wf2q.c wf2q.h)
cp "${engine[@]/#/$top/}" "$dst/"
g add block/bfq-ng
commit "block/bfq-ng: add the B-WF2Q+ scheduling engine" \
"The engine of the bfq-ng I/O scheduler: hierarchical B-WF2Q+ over
entities (queues and groups) with per-class service trees.  Each tree is
an rbtree ordered by virtual finish time whose nodes carry the minimum
virtual start time of their subtree (an augmented rbtree maintained with
RB_DECLARE_CALLBACKS, as in EEVDF), so that the eligible entity with the
earliest finish is found in O(log N).

The engine has no block-layer dependencies; it is built with the
scheduler in a later patch."

# --- 2: the scheduler ---------------------------------------------------------
shopt -s nullglob
rest=()
for f in "$top"/*.c "$top"/*.h; do
	b=${f##*/}
	[[ $b == *.mod.c ]] && continue
	[[ " ${engine[*]} " == *" $b "* ]] && continue
	rest+=("$f")
done
shopt -u nullglob
cp "${rest[@]}" "$dst/"
g add block/bfq-ng
commit "block/bfq-ng: add the bfq-ng I/O scheduler" \
"bfq-ng is a Budget Fair Queueing scheduler for blk-mq written from
scratch: one queue per process and device, served for budgets of sectors
in the order B-WF2Q+ gives, with idling for synchronous queues, budget
feedback, the ioprio classes and weights, and the low-latency heuristics
(interactive and soft real-time weight raising, burst detection).
With CONFIG_BLK_CGROUP it registers a blkcg policy: each cgroup gets a
group per device, scheduled by weight at any depth (io.bfq-ng.weight,
and blkio.bfq-ng.* on cgroup v1).

It registers the elevator \"bfq-ng\" so that it can run beside mainline
bfq for comparison; its tunables have mainline bfq's names and defaults.
State is in debugfs: state, queues, groups, stats, and check (the
engine's invariant check)."

# --- 3: build it ----------------------------------------------------------------
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "#"
	echo "# Makefile for the bfq-ng I/O scheduler."
	echo "#"
	sed -e 's/^obj-m[[:space:]]*+\{0,1\}=/obj-$(CONFIG_IOSCHED_BFQ_NG) +=/' \
		-e 's#\$(KPRIV)/block#$(srctree)/block#g' "$top/Kbuild"
} >"$dst/Makefile"
if grep -q 'KPRIV\|obj-m' "$dst/Makefile"; then
	echo "patches: Kbuild has out-of-tree settings this script cannot translate:" >&2
	grep -n 'KPRIV\|obj-m' "$dst/Makefile" >&2
	exit 1
fi
insert_after() { # insert_after FILE AFTER-REGEX TEXT-FILE: insert after the first match
	awk -v re="$2" -v add="$3" '
		{ print }
		!done && $0 ~ re { while ((getline l < add) > 0) print l; done = 1 }
		END { if (!done) exit 1 }' "$1" >"$1.new" && mv "$1.new" "$1"
}
cat >"$work/kconfig" <<'EOT'
config IOSCHED_BFQ_NG
	tristate "BFQ-NG I/O scheduler"
	select BLK_ICQ
	help
	  bfq-ng shares a device among processes and cgroups in proportion
	  to their weights (ioprio, io.bfq-ng.weight), in sectors rather
	  than in time, with the
	  hierarchical B-WF2Q+ algorithm of BFQ, and keeps the start-up
	  latency of interactive and soft real-time applications low.  It
	  registers as "bfq-ng" and can be built beside IOSCHED_BFQ.

	  Good for rotational disks and slow flash shared by several
	  processes; see Documentation/block/bfq-ng.rst.

	  If unsure, say N.
EOT
# After the BFQ entries, before "endmenu" (which follows a blank line).
awk -v add="$work/kconfig" '
	/^endmenu/ && !done { while ((getline l < add) > 0) print l; print ""; done = 1 }
	{ print }' "$work/tree/block/Kconfig.iosched" >"$work/k.new"
mv "$work/k.new" "$work/tree/block/Kconfig.iosched"
printf 'obj-$(CONFIG_IOSCHED_BFQ_NG)\t+= bfq-ng/\n' >"$work/mk"
insert_after "$work/tree/block/Makefile" '^obj-\$\(CONFIG_IOSCHED_BFQ\)' "$work/mk" || {
	echo "patches: no IOSCHED_BFQ line in block/Makefile to add ours after" >&2
	exit 1
}
cat >"$work/maint" <<'EOT'
BFQ-NG I/O SCHEDULER
L:	linux-block@vger.kernel.org
S:	Maintained
F:	Documentation/block/bfq-ng.rst
F:	block/bfq-ng/

EOT
# MAINTAINERS is sorted: ours goes before the first entry that sorts after it.
awk -v add="$work/maint" '
	!done && /^[A-Z0-9][^a-z]*$/ && prev == "" && $0 > "BFQ-NG I/O SCHEDULER" &&
	seen { while ((getline l < add) > 0) print l; done = 1 }
	/^BFQ I\/O SCHEDULER$/ { seen = 1 }
	{ print; prev = $0 }' "$work/tree/MAINTAINERS" >"$work/m.new"
mv "$work/m.new" "$work/tree/MAINTAINERS"
g add -A
commit "block: build bfq-ng (CONFIG_IOSCHED_BFQ_NG)" \
"Add the Kconfig option, the block/ Makefile entry and a MAINTAINERS
entry for the bfq-ng I/O scheduler.  It can be built as a module or
into the kernel, beside mainline bfq."

# --- 4: documentation --------------------------------------------------------------
doc=$work/tree/Documentation/block/bfq-ng.rst
{
	head -n 1 "$top/Documentation/admin-guide.rst" | grep -q SPDX ||
		printf '.. SPDX-License-Identifier: GPL-2.0\n\n'
	cat "$top/Documentation/admin-guide.rst"
} >"$doc"
printf '   bfq-ng\n' >"$work/doc"
insert_after "$work/tree/Documentation/block/index.rst" '^   bfq-iosched$' "$work/doc" || {
	echo "patches: no bfq-iosched entry in Documentation/block/index.rst" >&2
	exit 1
}
g add -A
commit "Documentation/block: add the bfq-ng admin guide" \
"How bfq-ng schedules, when to choose it, its tunables with their
defaults and ranges, ioprio and weights, debugfs, and troubleshooting."

# --- the series ---------------------------------------------------------------------
g config branch.bfq-ng.description "block: add the bfq-ng I/O scheduler

bfq-ng is a Budget Fair Queueing I/O scheduler for blk-mq written from
scratch, with the goals of mainline bfq (fair shares of bandwidth by
weight, low latency for interactive and soft real-time applications)
and a cheaper hot path.  It registers as \"bfq-ng\" and can run beside
bfq, mq-deadline and kyber.

Against linux-source $KPKGVER; the out-of-tree module, its tests and
benchmarks are in the bfq-ng repository."
rm -rf "$out"
mkdir -p "$out"
g format-patch -q --cover-letter --cover-from-description=auto --thread=shallow \
	-o "$out" "$base..HEAD"
n=$(find "$out" -name '*.patch' | wc -l)
echo "patches: $n files in $out (apply to a $src tree with 'git am' or 'patch -p1')"
