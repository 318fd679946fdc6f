# shellcheck shell=bash
# Guest helpers for cgroup tests (sourced after lib.sh and lib-sched.sh).
# Paths are relative to the cgroup v2 root, $CG.

CG=/sys/fs/cgroup

# cg_init: cgroup v2 mounted at $CG with the io controller given to the
# root's children, waiting up to 30 s for a v1 hierarchy (test 69's, run
# last for this reason) to let it go: its release is asynchronous, and a
# full run once saw it take more than 10 s under TCG.
cg_init() {
	local start=$SECONDS
	grep -q "^cgroup2 $CG " /proc/mounts || mount -t cgroup2 none "$CG" || return 1
	wait_for 30 _cg_enable_io || return 1
	[ $((SECONDS - start)) -lt 2 ] ||
		diag "cg_init: the io controller was free for cgroup v2 after $((SECONDS - start)) s"
}
_cg_enable_io() {
	grep -qw io "$CG/cgroup.controllers" &&
		echo +io 2>/dev/null >"$CG/cgroup.subtree_control"
}

# cg_make PATH [WEIGHT]: create cgroup PATH (its parent gets the io
# controller for its children) and set its default bfq-ng weight; it is
# removed when the test file exits.
cg_make() {
	local parent
	parent=$(dirname "$CG/$1")
	[ "$parent" = "$CG" ] || echo +io >"$parent/cgroup.subtree_control" || return 1
	mkdir "$CG/$1" || return 1
	at_exit cg_remove "$1"
	[ -z "${2:-}" ] || echo "$2" >"$CG/$1/io.bfq-ng.weight"
}

# cg_remove PATH: move the processes left in PATH to the root, remove it.
cg_remove() {
	local p
	[ -d "$CG/$1" ] || return 0
	for p in $(cat "$CG/$1/cgroup.procs"); do
		echo "$p" >"$CG/cgroup.procs"
	done
	rmdir "$CG/$1"
}

# cg_move PID PATH: move a process to cgroup PATH.
cg_move() { echo "$1" >"$CG/$2/cgroup.procs"; }

# cg_reader PATH DEV OFFSET_MB [FIO-OPTION...]: start_reader inside cgroup
# PATH; prints the reader's pid.
cg_reader() {
	local path=$1
	shift
	(cg_move "$BASHPID" "$path" && start_reader "$@")
}

# shares SECONDS PID...: each PID's share of all they read over SECONDS.
shares() {
	local secs=$1 p before=() after=()
	shift
	for p in "$@"; do before+=("$(read_bytes "$p")"); done
	sleep "$secs"
	for p in "$@"; do after+=("$(read_bytes "$p")"); done
	awk -v b="${before[*]}" -v a="${after[*]}" 'BEGIN {
		n = split(b, x, " "); split(a, y, " "); t = 0
		for (i = 1; i <= n; i++) { d[i] = y[i] - x[i]; t += d[i] }
		for (i = 1; i <= n; i++) printf "%.4f%s", t ? d[i] / t : 0, i < n ? " " : "\n"
	}'
}

# cg_group_line DEV PATH: the debugfs "groups" line of cgroup PATH on DEV
# (PATH relative to $CG, or absolute).
cg_group_line() {
	local id dir=$2
	[ "${dir#/}" != "$dir" ] || dir=$CG/$dir
	id=$(stat -c %i "$dir") || return 1
	grep "^group $id " "/sys/kernel/debug/block/$1/sched/groups" | head -n1
}

# cg_group_field DEV PATH FIELD: one "FIELD value" pair of that line.
cg_group_field() {
	cg_group_line "$1" "$2" | awk -v f="$3" '{ for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}
