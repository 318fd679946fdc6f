// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng cooperating processes: queues merged and split.
 *
 * Processes that read one region in interleaved pieces (a pool of I/O
 * threads each taking the next chunk, readers walking a file in strides)
 * look random one by one and sequential together.  When a process's request
 * lands within BQ_COOP_DIST_SECTORS of where another queue of the same group
 * and ioprio goes next (its next request, kept in the group's position tree)
 * or has just been (the queue in service), the process moves into that
 * queue, which then serves the union lowest request first (queue.c): early
 * queue merge, tried at each request insertion and bio merge.  Processes that still use
 * the queue being left follow at their next request: the queue points to
 * where they go (merge_into).  Links only ever point to a queue without one,
 * so following a chain ends, and no chain loops.
 *
 * A shared queue that turns seeky no longer gains from sharing: its
 * processes went random, or drifted apart, and their union is no longer
 * sequential (its seeks are counted against the distance that made its
 * processes cooperate, not the usual one).  Each process leaves it at its
 * next request for a queue of its own, with the state its queue had when
 * it joined (think time, idle window, I/O-boundness, raising, burst
 * membership), saved in its icq.  A process that changes group or
 * ioprio leaves a shared queue the same way: no queue is shared across
 * groups.  Only queues created less than BQ_COOP_WINDOW_NS ago join others:
 * cooperating threads start together, and two unrelated readers that pass
 * close to each other later are not worth tying together.
 *
 * Stable merge: queues created within BQ_STABLE_GAP_NS of one another by the
 * same group at the same ioprio are likely the threads of one task.  After
 * BQ_STABLE_OBSERVE_NS the later one joins the earlier one, unless idling is
 * what it needs (a sequential reader with a short think time), or either
 * goes its own sequential way away from the other.  A stably merged process
 * is not split when the shared queue turns seeky.
 *
 * A shared queue that stays sequential can still leave a process behind:
 * one whose requests land away from where the queue goes is served last,
 * on its FIFO deadlines.  It leaves after BQ_APART_REQUESTS such requests
 * in a row, stably merged or not (bq_coop_apart()).  A seeky queue of
 * stably merged processes has no stream to keep together: it serves in
 * arrival order (bq_next_request()).
 *
 * Where: early merging pays where the device does not reorder requests by
 * itself, that is on rotational devices and on devices without internal
 * queueing (hw_tag); a fast device with a deep queue of its own already
 * turns interleaved requests into a sequential pattern, and a shared queue
 * that is rarely empty would only make the workload look uneven.  Stable
 * merge, which saves idling and per-queue work, applies to every device.
 * The queue_merging tunable turns both off.
 *
 * References: merge_into and stable_with each hold one on their target; a
 * queue left by its last process drops both, so no loop of references can
 * outlive the processes.  owner is a plain pointer, cleared when that icq
 * detaches; last_created holds none and is cleared when its queue is freed.
 * Requests hold references to their own queue, never to an icq's.
 *
 * Locking: bqd->lock guards the position trees, the links, procs and owner,
 * and the icq fields used here.
 */
#include <linux/blkdev.h>
#include <linux/rbtree.h>

#include "elevator.h"
#include "bfq-ng.h"
#include "trace.h"

/* Queues created this close together are candidates for a stable merge, */
#define BQ_STABLE_GAP_NS	(180 * NSEC_PER_MSEC)
/* decided at the later queue's first request after this long. */
#define BQ_STABLE_OBSERVE_NS	(600 * NSEC_PER_MSEC)

/* Queue flags a process takes with it through a shared queue. */
#define BQ_SAVED_FLAGS	(BIT(BQ_IDLE_WINDOW) | BIT(BQ_IO_BOUND) | \
			 BIT(BQ_IN_LARGE_BURST))

static bool bq_eqm_on(const struct bqd *bqd)
{
	return bqd->tun.queue_merging &&
	       (!blk_queue_nonrot(bqd->queue) || !bqd->hw_tag);
}

/* ------------------------------------------------------ position tree */

static bool bq_pos_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct bq_queue, pos_node)->pos_key <
	       rb_entry(b, struct bq_queue, pos_node)->pos_key;
}

/*
 * A queue others may join is on its group's position tree.  A seeky one
 * may not (bq_coop_fits()): it is left out, saving a tree update at each
 * of its requests, until it is sequential again at a later update.
 */
static bool bq_pos_wanted(const struct bqd *bqd, const struct bq_queue *bqq)
{
	return bqq->next_rq && bq_sync(bqq) && bqq->procs &&
	       !bqq->merge_into && !test_bit(BQ_OOM, &bqq->flags) &&
	       !bq_seeky(bqq) && bq_eqm_on(bqd);
}

/**
 * __bq_pos_update - re-key @bqq after its next request changed
 * @bqd: scheduler data, locked
 * @bqq: the queue; also called when it may no longer be joined
 *
 * Called through bq_pos_update(), which skips the queues that stay off.
 */
void __bq_pos_update(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	if (bqq->pos_root) {
		if (bq_pos_wanted(bqd, bqq) &&
		    bqq->pos_key == blk_rq_pos(bqq->next_rq))
			return;
		rb_erase(&bqq->pos_node, bqq->pos_root);
		bqq->pos_root = NULL;
	}
	if (!bq_pos_wanted(bqd, bqq))
		return;
	bqq->pos_key = blk_rq_pos(bqq->next_rq);
	bqq->pos_root = bq_group_pos_tree(bqd, bqq->group);
	rb_add(&bqq->pos_node, bqq->pos_root, bq_pos_less);
}

/* @cand may take @bqq's process: same group and ioprio, sync, sequential. */
static bool bq_coop_fits(const struct bq_queue *bqq,
			 const struct bq_queue *cand)
{
	return cand != bqq && bq_sync(cand) && cand->procs &&
	       !cand->merge_into && !test_bit(BQ_OOM, &cand->flags) &&
	       cand->group == bqq->group && cand->ioprio == bqq->ioprio &&
	       !bq_seeky(cand);
}

static struct bq_queue *bq_pos_queue(struct rb_node *node)
{
	return node ? rb_entry(node, struct bq_queue, pos_node) : NULL;
}

/* Of @a and @b, the one fit for @bqq and within reach of @sector. */
static struct bq_queue *bq_pos_pick(struct bq_queue *bqq, sector_t sector,
				    struct bq_queue *a, struct bq_queue *b)
{
	if (a && (bq_dist(a->pos_key, sector) > BQ_COOP_DIST_SECTORS ||
		  !bq_coop_fits(bqq, a)))
		a = NULL;
	if (b && (bq_dist(b->pos_key, sector) > BQ_COOP_DIST_SECTORS ||
		  !bq_coop_fits(bqq, b)))
		b = NULL;
	if (!a || !b)
		return a ? a : b;
	return bq_dist(a->pos_key, sector) <= bq_dist(b->pos_key, sector) ?
	       a : b;
}

/* The queue of @bqq's group whose next request is nearest to @sector. */
static struct bq_queue *bq_pos_nearest(struct bqd *bqd, struct bq_queue *bqq,
				       sector_t sector)
{
	struct rb_node *node = bq_group_pos_tree(bqd, bqq->group)->rb_node;
	struct rb_node *below = NULL, *above = NULL;

	while (node) {
		if (bq_pos_queue(node)->pos_key <= sector) {
			below = node;
			node = node->rb_right;
		} else {
			above = node;
			node = node->rb_left;
		}
	}
	if (below == &bqq->pos_node)
		below = rb_prev(below);
	if (above == &bqq->pos_node)
		above = rb_next(above);
	return bq_pos_pick(bqq, sector, bq_pos_queue(below),
			   bq_pos_queue(above));
}

/*
 * May @bqq's process join another queue at all?  Not in the IDLE class:
 * it is served only when nothing else is, and sharing would lend it a
 * queue that is served more.
 */
static bool bq_coop_may_join(const struct bqd *bqd, const struct bq_queue *bqq)
{
	return bq_eqm_on(bqd) && bq_sync(bqq) && bqq->procs &&
	       !test_bit(BQ_OOM, &bqq->flags) && !bq_seeky(bqq) &&
	       IOPRIO_PRIO_CLASS(bqq->ioprio) != IOPRIO_CLASS_IDLE;
}

/* A queue @bqq's process should join for I/O at @sector, or NULL. */
static struct bq_queue *bq_coop_close(struct bqd *bqd, struct bq_queue *bqq,
				      sector_t sector, u64 now_ns)
{
	struct bq_queue *serving = bqd->serving;

	if (bq_ns_after(now_ns, bqq->created_ns, BQ_COOP_WINDOW_NS))
		return NULL;
	/* The queue in service usually has nothing queued: where it was. */
	if (serving && bq_dist(serving->last_pos, sector) <=
		       BQ_COOP_DIST_SECTORS && bq_coop_fits(bqq, serving))
		return serving;
	return bq_pos_nearest(bqd, bqq, sector);
}

/* -------------------------------------------------- per-process state */

static void bq_state_save(struct bq_io_cq *bic, const struct bq_queue *bqq)
{
	struct bq_saved_state *s = &bic->saved;

	if (bic->saved_valid)
		return;
	s->flags = bqq->flags & BQ_SAVED_FLAGS;
	s->ttime_mean_ns = bqq->ttime_mean_ns;
	s->ttime_samples = bqq->ttime_samples;
	s->quick_arrivals = bqq->quick_arrivals;
	s->wr_kind = bqq->wr_kind;
	s->wr_coeff = bqq->wr_coeff;
	s->wr_start_ns = bqq->wr_start_ns;
	s->wr_duration_ns = bqq->wr_duration_ns;
	s->wr_interactive_end_ns = bqq->wr_interactive_end_ns;
	s->wr_served = bqq->wr_served;
	bic->saved_valid = true;
}

/*
 * @bqq is @bic's process's own queue again: give it its state back.
 * @shared is the queue the process shared until now (@bqq itself when the
 * others left it): a large burst found while it was shared is the
 * process's burst too, all sharers having started within the merge window,
 * and is kept (the state saved before would raise the process again).
 */
static void bq_state_restore(struct bqd *bqd, struct bq_io_cq *bic,
			     struct bq_queue *bqq,
			     const struct bq_queue *shared, u64 now_ns)
{
	const struct bq_saved_state *s = &bic->saved;
	unsigned long burst = shared->flags & BIT(BQ_IN_LARGE_BURST);

	if (!bic->saved_valid)
		return;
	bqq->flags = (bqq->flags & ~BQ_SAVED_FLAGS) | s->flags | burst;
	bqq->ttime_mean_ns = s->ttime_mean_ns;
	bqq->ttime_samples = s->ttime_samples;
	bqq->quick_arrivals = s->quick_arrivals;
	bq_wr_restore(bqd, bqq, s, now_ns);
	set_bit(BQ_RESTORED, &bqq->flags);
	bic->saved_valid = false;
}

/* ------------------------------------------------------ icq and links */

/* Drop @bqq's links: nobody is left to follow them. */
static void bq_coop_unlink(struct bqd *bqd, struct bq_queue *bqq)
{
	struct bq_queue *into = bqq->merge_into, *with = bqq->stable_with;

	bqq->merge_into = NULL;
	bqq->stable_with = NULL;
	if (into)
		bq_put_queue(into);
	if (with)
		bq_put_queue(with);
}

/* @bic's process uses @bqq as its sync queue from now on. */
void bq_icq_attach(struct bqd *bqd, struct bq_io_cq *bic,
		   struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	bq_get_queue(bqq);
	WRITE_ONCE(bic->sync_queue, bqq);
	bic->apart = 0;
	bqq->procs++;
	bqq->owner = bqq->procs == 1 ? bic : NULL;
	if (bqq->procs == 2 && !test_bit(BQ_OOM, &bqq->flags))
		bqd->shared_queues++;
	/* A shared queue serves its lowest request first (queue.c). */
	if (bqq->procs == 2 && bqq->queued > 1)
		bqq->next_rq = rb_entry_rq(rb_first(&bqq->sort_list));
	bq_pos_update(bqd, bqq);
}

/*
 * @bic's process stops using its sync queue (exit, move, merge, split).
 * The last process out lets the queue go: no idling for it, no links.
 */
void bq_icq_detach(struct bqd *bqd, struct bq_io_cq *bic)
{
	struct bq_queue *bqq = bic->sync_queue;

	lockdep_assert_held(&bqd->lock);
	if (!bqq)
		return;
	WRITE_ONCE(bic->sync_queue, NULL);
	if (bqq->owner == bic)
		bqq->owner = NULL;
	if (bqq->procs == 2 && !test_bit(BQ_OOM, &bqq->flags))
		bqd->shared_queues--;
	if (--bqq->procs == 0) {
		bq_queue_exited(bqd, bqq);
		bq_coop_unlink(bqd, bqq);
	}
	bq_pos_update(bqd, bqq);
	bq_put_queue(bqq);
}

/* Where @bqq's processes end up: the end of its merge chain. */
static struct bq_queue *bq_chain_end(struct bq_queue *bqq)
{
	while (bqq->merge_into)
		bqq = bqq->merge_into;
	return bqq;
}

/*
 * @bic's process moves into @to.  The state of the queue it leaves is its
 * own only if it was alone there; @to's single process, if known, saves its
 * state now, as it will not be alone any more.
 */
static void bq_coop_join(struct bqd *bqd, struct bq_io_cq *bic,
			 struct bq_queue *to, bool stable)
{
	struct bq_queue *from = bic->sync_queue;

	if (from->procs == 1)
		bq_state_save(bic, from);
	if (to->procs == 1 && to->owner) {
		bq_state_save(to->owner, to);
		to->owner->stable |= stable;
	}
	bic->stable |= stable;
	if (stable) {
		set_bit(BQ_STABLY_SHARED, &to->flags);
		bqd->stable_merges++;
	} else {
		bqd->coop_merges++;
	}
	trace_bfq_ng_coop(BQ_TRACE_DEV(bqd), from->pid, to->pid,
			  stable ? BQ_COOP_STABLE : BQ_COOP_MERGE, to->procs + 1);
	bq_get_queue(to);
	bq_icq_detach(bqd, bic);
	bq_icq_attach(bqd, bic, to);
	bq_put_queue(to);
}

/* @bic's process joins @to, and the other processes of its queue follow. */
static void bq_coop_merge(struct bqd *bqd, struct bq_io_cq *bic,
			  struct bq_queue *to, bool stable)
{
	struct bq_queue *from = bic->sync_queue;

	if (from->procs > 1) {
		bq_get_queue(to);
		from->merge_into = to;
		bq_pos_update(bqd, from);
	}
	bq_coop_join(bqd, bic, to, stable);
}

/**
 * bq_coop_follow - the process's queue, after merges and splits
 * @bqd: scheduler data, locked
 * @bic: the process's icq, with a sync queue other than the OOM queue
 * @bqg: the group of its new request
 * @ioprio: the ioprio of its new request
 * @now_ns: the request's arrival
 * @left: set to a shared queue it just left (referenced), or NULL
 *
 * Returns the queue to use, or NULL when the process must get a queue of its
 * own: it left a shared queue that turned seeky, or that is in another group
 * or at another ioprio than the request.
 */
struct bq_queue *bq_coop_follow(struct bqd *bqd, struct bq_io_cq *bic,
				struct bq_group *bqg, unsigned short ioprio,
				u64 now_ns, struct bq_queue **left)
{
	struct bq_queue *bqq = bic->sync_queue, *to = bq_chain_end(bqq);
	bool seeky, apart;

	lockdep_assert_held(&bqd->lock);
	*left = NULL;
	if (to != bqq && (!to->procs || to->group != bqq->group)) {
		/* Gone away, or moved (idle) to another group: stay. */
		bq_coop_unlink(bqd, bqq);
		bq_pos_update(bqd, bqq);
	} else if (to != bqq && to->group == bqg) {
		bq_coop_join(bqd, bic, to, false);
		bqq = to;
	}
	if (bqq->procs == 1) {
		/* The others left: the queue is this process's own again. */
		bqq->owner = bic;
		bic->apart = 0;
		clear_bit(BQ_STABLY_SHARED, &bqq->flags);
		bq_state_restore(bqd, bic, bqq, bqq, now_ns);
		return bqq;
	}
	apart = bic->apart >= BQ_APART_REQUESTS;
	seeky = bq_seeky(bqq) && !bic->stable;
	if (!seeky && !apart && bqq->group == bqg && bqq->ioprio == ioprio)
		return bqq;
	if (seeky)
		bqd->coop_splits++;
	else if (apart)
		bqd->coop_aparts++;
	else
		bqd->coop_leaves++;
	trace_bfq_ng_coop(BQ_TRACE_DEV(bqd), bqq->pid, 0,
			  seeky || apart ? BQ_COOP_SPLIT : BQ_COOP_LEAVE,
			  bqq->procs - 1);
	bq_get_queue(bqq);
	*left = bqq;
	bq_icq_detach(bqd, bic);
	return NULL;
}

/**
 * bq_coop_move_out - @bic's process leaves its busy queue for another group
 * @bqd: scheduler data, locked
 * @bic: the process's icq, on a queue of its own that cannot move now
 *
 * Its state is saved, as when it joins a shared queue, for the queue it
 * gets next to take back (bq_coop_created()).  The raising goes with the
 * state: the queue left, which only drains now, is raised no more.
 * Returns the queue left, with a reference for that.
 */
struct bq_queue *bq_coop_move_out(struct bqd *bqd, struct bq_io_cq *bic)
{
	struct bq_queue *bqq = bic->sync_queue;

	lockdep_assert_held(&bqd->lock);
	bic->saved_valid = false;	/* this queue's state is the latest */
	bq_state_save(bic, bqq);
	bq_wr_end(bqd, bqq);
	bq_get_queue(bqq);
	bq_icq_detach(bqd, bic);
	return bqq;
}

/**
 * bq_coop_created - a process got a new sync queue
 * @bqd: scheduler data, locked
 * @bic: the process's icq, now pointing to @bqq
 * @bqq: the new queue (possibly the OOM queue)
 * @left: the queue the process left for it, shared or in another group (a
 *	reference to drop), or NULL for a process's first queue or its first
 *	after the OOM queue
 * @now_ns: the arrival of the request that needed the queue
 *
 * A queue split off a shared one, or made for a process that changed group,
 * takes back the process's saved state, and the left queue's age: it is
 * past the time to join another queue, so it is not merged again at once.
 * So does one that follows the OOM queue, with the age of the queue left
 * for it (kept in @bic meanwhile) and the state saved before it.
 * A first queue may be a stable merge candidate.
 */
void bq_coop_created(struct bqd *bqd, struct bq_io_cq *bic,
		     struct bq_queue *bqq, struct bq_queue *left, u64 now_ns)
{
	struct bq_queue *last = bqd->last_created;

	lockdep_assert_held(&bqd->lock);
	bqq->created_ns = now_ns;
	bic->stable = false;
	if (left) {
		if (test_bit(BQ_OOM, &bqq->flags)) {
			bic->oom_left_created_ns = left->created_ns;
		} else {
			bqq->created_ns = left->created_ns;
			clear_bit(BQ_JUST_CREATED, &bqq->flags);
			bq_state_restore(bqd, bic, bqq, left, now_ns);
		}
		bq_put_queue(left);
		return;
	}
	if (test_bit(BQ_OOM, &bqq->flags))
		return;
	/*
	 * Back from the OOM queue: the process went there when the queue it
	 * needed on leaving another (a split, a cgroup move) could not be
	 * allocated; this queue takes the left one's age, and the state saved
	 * then.  It is no new process.
	 */
	if (bic->oom_left_created_ns || bic->saved_valid) {
		if (bic->oom_left_created_ns)
			bqq->created_ns = bic->oom_left_created_ns;
		bic->oom_left_created_ns = 0;
		clear_bit(BQ_JUST_CREATED, &bqq->flags);
		bq_state_restore(bqd, bic, bqq, bqq, now_ns);
		return;
	}
	/* A candidate whose processes are gone would only be held. */
	if (last && last->procs && last->group == bqq->group &&
	    last->ioprio == bqq->ioprio &&
	    !bq_ns_after(now_ns, last->created_ns, BQ_STABLE_GAP_NS)) {
		bq_get_queue(last);
		bqq->stable_with = last;
	} else {
		bqd->last_created = bqq;
	}
}

/*
 * Idling for @bqq is what it needs: a sequential reader with a short think
 * time, on a device that does not reorder by itself.  Unlike the idling
 * decision (dispatch.c) this ignores bursts: a large burst of such readers
 * is not idled for, but it is better served apart all the same.
 */
static bool bq_stable_needs_idling(const struct bqd *bqd,
				   const struct bq_queue *bqq)
{
	return test_bit(BQ_IDLE_WINDOW, &bqq->flags) && !bq_seeky(bqq) &&
	       !(bqd->hw_tag && blk_queue_nonrot(bqd->queue));
}

/*
 * The queue @bqq should stably merge into, now that it has been observed
 * at a request for @pos: none if idling is what it needs (then it is
 * better alone), nor if either goes its own sequential way away from the
 * other.  A sequential reader gains nothing from sharing, and the one of
 * the two further out would wait behind the other (bq_coop_apart()).  The
 * candidate is dropped either way.
 */
static struct bq_queue *bq_stable_target(struct bqd *bqd,
					 struct bq_queue *bqq, sector_t pos,
					 u64 now_ns)
{
	struct bq_queue *cand = bqq->stable_with, *to;
	bool ok;

	if (!cand || !bq_ns_after(now_ns, bqq->created_ns,
				  BQ_STABLE_OBSERVE_NS))
		return NULL;
	bqq->stable_with = NULL;
	to = bq_chain_end(cand);
	ok = to != bqq && to->procs && to->group == bqq->group &&
	     to->ioprio == bqq->ioprio &&
	     IOPRIO_PRIO_CLASS(bqq->ioprio) != IOPRIO_CLASS_IDLE &&
	     !bq_stable_needs_idling(bqd, bqq) &&
	     ((bq_seeky(bqq) && bq_seeky(to)) ||
	      bq_dist(bq_next_pos(to), pos) <= BQ_COOP_DIST_SECTORS);
	/* @to, when ok, is alive through its processes' icqs. */
	bq_put_queue(cand);
	return ok ? to : NULL;
}

/*
 * bq_coop_rq()'s slow path: the process may join another queue stably
 * after observation, or early because the request is close to where that
 * queue goes.
 */
struct bq_queue *__bq_coop_rq(struct bqd *bqd, struct bq_io_cq *bic,
			      struct request *rq)
{
	struct bq_queue *bqq = bic->sync_queue, *to;
	bool stable = true;

	lockdep_assert_held(&bqd->lock);
	if (!bqd->tun.queue_merging || test_bit(BQ_OOM, &bqq->flags))
		return bqq;
	to = bq_stable_target(bqd, bqq, blk_rq_pos(rq), rq->start_time_ns);
	/* Most processes are past their window: test that first. */
	if (!to && !bq_ns_after(rq->start_time_ns, bqq->created_ns,
				BQ_COOP_WINDOW_NS) &&
	    bq_coop_may_join(bqd, bqq)) {
		stable = false;
		to = bq_coop_close(bqd, bqq, blk_rq_pos(rq), rq->start_time_ns);
	}
	if (!to)
		return bqq;
	bq_coop_merge(bqd, bic, to, stable);
	return to;
}

/**
 * bq_coop_bio - the queue a process's bio may merge into
 * @bqd: scheduler data, locked
 * @bqq: the process's sync queue (or any queue, or NULL)
 * @bio: the bio
 *
 * A queue its processes are leaving stands for the queue they go to.  A bio
 * close to another queue schedules the merge at once, so that the bio may
 * join that queue's request; the process follows at its next request.
 */
struct bq_queue *bq_coop_bio(struct bqd *bqd, struct bq_queue *bqq,
			     struct bio *bio)
{
	struct bq_queue *to;

	lockdep_assert_held(&bqd->lock);
	/* A process that changed group leaves its queue at its next request. */
	if (!bqq || !bqd->tun.queue_merging ||
	    bqq->group != bq_group_for_bio(bqd, bio))
		return bqq;
	to = bq_chain_end(bqq);
	if (to != bqq)
		return to->procs && to->group == bqq->group ? to : bqq;
	if (!bq_coop_may_join(bqd, bqq))
		return bqq;
	to = bq_coop_close(bqd, bqq, bio->bi_iter.bi_sector, ktime_get_ns());
	if (!to)
		return bqq;
	bq_get_queue(to);
	bqq->merge_into = to;
	bq_pos_update(bqd, bqq);
	return to;
}

/* @bqq is being freed. */
void bq_coop_forget(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	if (bqd->last_created == bqq)
		bqd->last_created = NULL;
	if (bqq->pos_root) {
		rb_erase(&bqq->pos_node, bqq->pos_root);
		bqq->pos_root = NULL;
	}
	bq_coop_unlink(bqd, bqq);
}

/* debugfs "check": the count of shared queues is what the queues say. */
int bq_coop_check(struct bqd *bqd, char *why, size_t len)
{
	unsigned int shared = 0;
	struct bq_queue *bqq;

	lockdep_assert_held(&bqd->lock);
	list_for_each_entry(bqq, &bqd->all_queues, all_node)
		shared += bqq->procs > 1;
	if (shared == bqd->shared_queues)
		return 0;
	snprintf(why, len, "%u shared queues counted; the queues say %u",
		 bqd->shared_queues, shared);
	return -EINVAL;
}
