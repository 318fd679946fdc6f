// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng queues: one sync queue per process (io_context) and device, async
 * queues shared per group and ioprio; how requests enter, leave and merge in
 * them.
 *
 * References to a queue are held by: the icqs of its processes (sync queues;
 * more than one when merged, see merge.c), the async table (async queues),
 * each request bound to it, the engine while the queue's entity is on a tree
 * or in service, and merge.c's links to it.  The last put frees it.
 * A queue holds a reference to its group (cgroup.c).
 * The OOM queue lives inside struct bqd and is never freed: it takes the
 * requests of processes whose queue could not be allocated.
 */
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/rbtree.h>

#include "elevator.h"
#include "blk.h"
#include "bfq-ng.h"
#include "trace.h"

static struct kmem_cache *bq_queue_cache;

int __init bq_queue_cache_init(void)
{
	/* Type-stable under RCU for bq_icq_may_merge()'s lockless read. */
	bq_queue_cache = KMEM_CACHE(bq_queue, SLAB_TYPESAFE_BY_RCU);
	return bq_queue_cache ? 0 : -ENOMEM;
}

void bq_queue_cache_exit(void)
{
	kmem_cache_destroy(bq_queue_cache);
}

/* A new ioprio takes effect at the queue's next activation. */
static void bq_set_ioprio(struct bq_queue *bqq, unsigned short ioprio)
{
	bqq->ioprio = ioprio;
	bqq->base_weight = bq_ioprio_weight(ioprio);
	bqq->entity.new_weight = bqq->base_weight * bqq->wr_coeff;
	bqq->entity.new_class = bq_ioprio_class(ioprio);
	if (bqq->counted_weight)
		bq_weight_count(bqq->bqd, bqq);
}

static void bq_queue_setup(struct bqd *bqd, struct bq_queue *bqq,
			   struct bq_group *bqg, unsigned short ioprio,
			   bool sync)
{
	bq_entity_init(&bqq->entity, bq_group_sched(bqd, bqg),
		       bq_ioprio_weight(ioprio), bq_ioprio_class(ioprio));
	bqq->bqd = bqd;
	bqq->group = bqg;
	bq_group_get(bqg);
	bqq->ioprio = ioprio;
	bqq->base_weight = bqq->entity.weight;
	bqq->wr_coeff = 1;
	bqq->sort_list = RB_ROOT;
	INIT_LIST_HEAD(&bqq->fifo);
	INIT_LIST_HEAD(&bqq->burst_node);
	INIT_LIST_HEAD(&bqq->wr_node);
	bqq->max_budget = max_t(u64, bqd->max_budget / 2, BQ_MIN_BUDGET_SECTORS);
	bqq->pid = current->pid;
	bqq->flags = BIT(BQ_JUST_CREATED);
	if (sync)
		bqq->flags |= BIT(BQ_SYNC) | BIT(BQ_IDLE_WINDOW);
}

/* Never fails: the OOM queue (root group) stands in when memory is short. */
static struct bq_queue *bq_queue_alloc(struct bqd *bqd, struct bq_group *bqg,
				       unsigned short ioprio, bool sync)
{
	struct bq_queue *bqq;

	lockdep_assert_held(&bqd->lock);
	bqq = kmem_cache_alloc_node(bq_queue_cache,
				    GFP_NOWAIT | __GFP_NOWARN | __GFP_ZERO,
				     bqd->queue->node);
	if (!bqq) {
		bqd->oom_fallbacks++;
		return &bqd->oom_queue;
	}
	bq_queue_setup(bqd, bqq, bqg, ioprio, sync);
	list_add_tail(&bqq->all_node, &bqd->all_queues);
	bqd->live_queues++;
	return bqq;
}

/* The last reference to @bqq went (bq_put_queue()): free it. */
void bq_free_queue(struct bq_queue *bqq)
{
	struct bqd *bqd = bqq->bqd;

	lockdep_assert_held(&bqd->lock);
	bq_heuristics_forget(bqd, bqq);
	bq_coop_forget(bqd, bqq);
	list_del(&bqq->all_node);
	bqd->live_queues--;
	bq_group_put(bqd, bqq->group);
	kmem_cache_free(bq_queue_cache, bqq);
}

/* The engine let go of an entity: drop the reference it held. */
static void bq_entity_released(struct bq_entity *entity)
{
	if (!entity->my_sd)
		bq_put_queue(bq_queue_of(entity));
	else
		bq_group_released(entity);
}

const struct bq_engine_ops bq_engine_ops = {
	.acquired = bq_group_acquired,
	.released = bq_entity_released,
};

static struct bq_queue **bq_async_slot(struct bq_async_table *table,
				       unsigned short ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		return &table->queue[0][IOPRIO_PRIO_LEVEL(ioprio)];
	case IOPRIO_CLASS_IDLE:
		return &table->idle;
	default:
		return &table->queue[1][IOPRIO_PRIO_LEVEL(ioprio)];
	}
}

static struct bq_queue *bq_async_queue(struct bqd *bqd, struct bq_group *bqg,
				       unsigned short ioprio)
{
	struct bq_queue **slot = bq_async_slot(bq_group_async(bqd, bqg), ioprio);

	if (!*slot) {
		struct bq_queue *bqq = bq_queue_alloc(bqd, bqg, ioprio, false);

		if (test_bit(BQ_OOM, &bqq->flags))
			return bqq;
		bq_get_queue(bqq);
		*slot = bqq;
	}
	return *slot;
}

/*
 * Move an idle queue to another group; false when it is scheduled (on a tree
 * or in service), since its timestamps belong to its group's trees.
 */
static bool bq_queue_move(struct bqd *bqd, struct bq_queue *bqq,
			  struct bq_group *bqg)
{
	struct bq_group *old = bqq->group;
	bool counted = bqq->counted_weight;

	if (bqq->entity.where != BQ_OFF || bqq == bqd->serving)
		return false;
	if (counted)
		bq_weight_uncount(bqd, bqq);
	bq_group_get(bqg);
	bqq->group = bqg;
	bqq->entity.sd = bq_group_sched(bqd, bqg);
	bqq->entity.parent = bqq->entity.sd->owner;
	if (counted)
		bq_weight_count(bqd, bqq);
	bq_group_put(bqd, old);
	return true;
}

/*
 * A process whose queue is in another group than its request (it changed
 * cgroup, or its group went offline) moves with it: the queue itself when it
 * is idle, else a new queue while the old one drains.  The new queue takes
 * the process's state from the old one, which is returned (a reference for
 * bq_coop_created() to drop): a move is not a new process.  Shared queues
 * do not get here: their processes leave them (merge.c).
 */
static struct bq_queue *bq_sync_queue_follow(struct bqd *bqd,
					     struct bq_io_cq *bic,
					     struct bq_group *bqg)
{
	struct bq_queue *bqq = bic->sync_queue;

	if (bqq->group == bqg || bq_queue_move(bqd, bqq, bqg))
		return NULL;
	return bq_coop_move_out(bqd, bic);
}

/*
 * The process's sync queue, created on its first request, or when it leaves
 * a shared queue.  A process left on the OOM queue tries again for a queue
 * of its own at each request.
 */
static struct bq_queue *bq_sync_queue(struct bqd *bqd, struct bq_io_cq *bic,
				      struct bq_group *bqg,
				      unsigned short ioprio, sector_t pos,
				      u64 now_ns)
{
	struct bq_queue *bqq = bic->sync_queue, *left = NULL;

	/*
	 * The usual cases, in the same group and class, on a queue that
	 * merges into none: alone on its own queue with nothing to restore,
	 * or sharing one that is not to be split (stable, or sequential) and
	 * not left behind by it.  What the steps below keep.
	 */
	if (bqq && !bqq->merge_into && bqq->group == bqg &&
	    bqq->ioprio == ioprio && !test_bit(BQ_OOM, &bqq->flags) &&
	    (bqq->procs == 1 ? bqq->owner == bic && !bic->saved_valid :
			       (bic->stable || !bq_seeky(bqq)) &&
			       !bq_coop_apart(bqq, bic, pos)))
		return bqq;
	if (bqq && !test_bit(BQ_OOM, &bqq->flags)) {
		bqq = bq_coop_follow(bqd, bic, bqg, ioprio, now_ns, &left);
		if (bqq)
			left = bq_sync_queue_follow(bqd, bic, bqg);
		bqq = bic->sync_queue;
	}
	if (bqq && !test_bit(BQ_OOM, &bqq->flags)) {
		if (bqq->ioprio != ioprio)
			bq_set_ioprio(bqq, ioprio);
		return bqq;
	}
	bqq = bq_queue_alloc(bqd, bqg, ioprio, true);
	if (!test_bit(BQ_OOM, &bqq->flags) || !bic->sync_queue) {
		bq_icq_detach(bqd, bic);
		bq_icq_attach(bqd, bic, bqq);
	}
	bq_coop_created(bqd, bic, bqq, left, now_ns);
	return bqq;
}

/**
 * bq_queue_for_rq - the queue a newly inserted request belongs to
 * @bqd: scheduler data, locked
 * @rq: a request with rq->elv.icq set by prepare_request (or NULL on failure)
 */
struct bq_queue *bq_queue_for_rq(struct bqd *bqd, struct request *rq)
{
	unsigned short ioprio = bq_effective_ioprio(req_get_ioprio(rq));
	struct bq_io_cq *bic;
	struct bq_group *bqg;

	lockdep_assert_held(&bqd->lock);
	bqg = bq_group_for_rq(bqd, rq);
	if (!rq_is_sync(rq))
		return bq_async_queue(bqd, bqg, ioprio);
	/* An icq that exit_icq let go of (a requeue after its task exited). */
	if (!rq->elv.icq || bq_icq(rq->elv.icq)->exited)
		return &bqd->oom_queue;
	bic = bq_icq(rq->elv.icq);
	bq_sync_queue(bqd, bic, bqg, ioprio, blk_rq_pos(rq), rq->start_time_ns);
	return bq_coop_rq(bqd, bic, rq);
}

/*
 * The current process's icq on @q if its io_context's hint names it, else
 * NULL.  The icq cannot go away under us: it belongs to the running task's
 * io_context, and it is destroyed only with that (the task holds it) or
 * with the elevator (ioc_clear_queue(), which waits for the queue to be
 * frozen, and so for the request or bio at hand).  Unlike
 * ioc_lookup_icq() it takes no queue_lock.  An icq hinted for another
 * queue may be freed meanwhile (ioc_destroy_icq() frees through
 * call_rcu(), whose grace period also waits for a section with
 * preemption off): the sched flavour costs two inline instructions where
 * rcu_read_lock() costs two calls.
 */
static struct io_cq *bq_hinted_icq(struct io_context *ioc,
				   struct request_queue *q)
{
	struct io_cq *icq;

	rcu_read_lock_sched();
	icq = rcu_dereference_sched(ioc->icq_hint);
	if (icq && icq->q != q)
		icq = NULL;
	rcu_read_unlock_sched();
	return icq;
}

/* The current process's icq on @q, without the queue lock when hinted. */
static struct io_cq *bq_current_icq(struct request_queue *q)
{
	struct io_context *ioc = current->io_context;
	struct io_cq *icq;

	if (!ioc)
		return NULL;
	icq = bq_hinted_icq(ioc, q);
	if (icq)
		return icq;
	spin_lock_irq(&q->queue_lock);
	icq = ioc_lookup_icq(q);
	spin_unlock_irq(&q->queue_lock);
	return icq;
}

/**
 * bq_get_icq - the icq for a new request of the current process
 * @q: the request's queue
 *
 * As ioc_find_get_icq(), which it falls back to (to create the io_context
 * or the icq, or to look past a hint naming another device): the icq, with
 * a reference on its io_context for the request to drop, or NULL.  The
 * hinted case, nearly every request, takes no lock: ioc_find_get_icq()
 * takes q->queue_lock, shared by every CPU, at each request.
 */
struct io_cq *bq_get_icq(struct request_queue *q)
{
	struct io_context *ioc = current->io_context;
	struct io_cq *icq = ioc ? bq_hinted_icq(ioc, q) : NULL;

	if (!icq)
		return ioc_find_get_icq(q);
	/* The task's own reference keeps the count above zero. */
	atomic_long_inc(&ioc->refcount);
	return icq;
}

/*
 * For bio_merge, before it locks bqd: the icq of a sync bio's process.
 * The caller reads the icq's queue under the lock (bq_queue_for_bio); a
 * stale answer only costs a merge.
 */
struct io_cq *bq_bio_icq(struct bqd *bqd, struct bio *bio)
{
	if (!op_is_sync(bio->bi_opf))
		return NULL;
	return bq_current_icq(bqd->queue);
}

/*
 * For bio_merge, before it locks bqd: false when a sync bio of @icq's
 * process has nothing to merge with.  It may merge only into a request of
 * its process's queue, of the queue that one is merging into, or of a
 * queue close to it that a sequential queue may join at once (merge.c): a
 * seeky queue, not merging, with nothing queued, has none.  Lockless:
 * another task sharing the io_context may switch the icq to another queue
 * and free this one meanwhile, but the queue cache is SLAB_TYPESAFE_BY_RCU,
 * so under rcu_read_lock the read is of some queue's fields, and a wrong
 * answer only costs a merge or a lock.
 */
bool bq_icq_may_merge(struct io_cq *icq)
{
	struct bq_queue *bqq;
	bool may;

	rcu_read_lock();
	bqq = READ_ONCE(bq_icq(icq)->sync_queue);
	may = !bqq || READ_ONCE(bqq->queued) || READ_ONCE(bqq->merge_into) ||
	      !bq_seeky(bqq);
	rcu_read_unlock();
	return may;
}

/* The queue a bio may merge into, or NULL: looks, never creates. */
struct bq_queue *bq_queue_for_bio(struct bqd *bqd, struct io_cq *icq,
				  struct bio *bio)
{
	unsigned short ioprio = bq_effective_ioprio(bio_prio(bio));

	lockdep_assert_held(&bqd->lock);
	if (!op_is_sync(bio->bi_opf))
		return *bq_async_slot(bq_group_async(bqd,
						     bq_group_for_bio(bqd, bio)),
				      ioprio);
	return icq ? bq_coop_bio(bqd, bq_icq(icq)->sync_queue, bio) : NULL;
}

/*
 * The process's io_context leaves the device: drop its sync queue (the
 * queue lives on while requests or other processes use it).  Requests
 * still holding the icq find it marked and go to the OOM queue.
 */
void bq_exit_icq(struct io_cq *icq)
{
	struct bq_io_cq *bic = bq_icq(icq);
	struct bqd *bqd = icq->q->elevator->elevator_data;
	unsigned long flags;
	bool was_ready;

	spin_lock_irqsave(&bqd->lock, flags);
	was_ready = bqd->work_ready;
	bic->exited = true;
	bq_icq_detach(bqd, bic);
	bq_update_work_ready(bqd);
	spin_unlock_irqrestore(&bqd->lock, flags);
	/*
	 * Others' requests waited while the device was held for this one.
	 * We run under the io_context's lock (and, at teardown, under
	 * q->queue_lock too), and blk_mq_run_hw_queues() may take
	 * q->queue_lock, which ioc_create_icq() takes before the io_context's
	 * lock: only queue kblockd's run work, which takes no lock here.
	 */
	if (!was_ready && READ_ONCE(bqd->work_ready))
		blk_mq_delay_run_hw_queues(bqd->queue, 0);
}

/*
 * Cost of moving the head from @last to @pos: forward distance, or the
 * backward distance times back_seek_penalty when within back_seek_max.
 * U64_MAX when too far behind.
 */
static u64 bq_seek_cost(const struct bqd *bqd, sector_t last, sector_t pos)
{
	sector_t back_max = (sector_t)bqd->tun.back_seek_max_kib * 2;

	if (pos >= last)
		return pos - last;
	if (last - pos <= back_max)
		return (u64)(last - pos) * bqd->tun.back_seek_penalty;
	return U64_MAX;
}

/* Of two requests of a queue, the one the head reaches sooner from @last. */
static struct request *bq_closer(const struct bqd *bqd, sector_t last,
				 struct request *a, struct request *b)
{
	u64 cost_a, cost_b;

	if (!a)
		return b;
	if (!b)
		return a;
	cost_a = bq_seek_cost(bqd, last, blk_rq_pos(a));
	cost_b = bq_seek_cost(bqd, last, blk_rq_pos(b));
	if (cost_a == cost_b)	/* both far behind: take the lower sector */
		return blk_rq_pos(a) <= blk_rq_pos(b) ? a : b;
	return cost_a < cost_b ? a : b;
}

static struct request *bq_rb_rq(struct rb_node *node)
{
	return node ? rb_entry_rq(node) : NULL;
}

/*
 * @bqq's next request once @rq is queued or moved.  A shared queue serves
 * its lowest request first: its processes read one region together, and
 * one left behind must catch up, or the leaders draw away and the union
 * stops being sequential (merge.c).
 */
static struct request *bq_next_with(const struct bqd *bqd,
				    const struct bq_queue *bqq,
				    struct request *rq)
{
	if (bqq->procs < 2)
		return bq_closer(bqd, bqq->last_pos, bqq->next_rq, rq);
	if (bqq->next_rq && blk_rq_pos(bqq->next_rq) <= blk_rq_pos(rq))
		return bqq->next_rq;
	return rq;
}

/* Put @rq of @bqq in the sort tree, the FIFO and, mergeable, the hash. */
static void bq_file(struct bq_queue *bqq, struct request *rq)
{
	struct request_queue *q = bqq->bqd->queue;

	elv_rb_add(&bqq->sort_list, rq);
	list_add_tail(&rq->queuelist, &bqq->fifo);
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
}

/*
 * A queue's only request is in none of the three: it is the next one to
 * serve, it has no order to keep and nothing to expire before, and it is
 * most often dispatched before anything else comes (a process reading
 * one block at a time; every request on a fast device).  It is filed when
 * a second request comes, or before a bio looks for a request of its
 * queue to merge into: a lone request is never a merge target.
 */
void bq_file_lone(struct bq_queue *bqq)
{
	struct request *rq = bqq->next_rq;

	lockdep_assert_held(&bqq->bqd->lock);
	if (bqq->queued != 1 || !bq_rq_lone(rq))
		return;
	rq->elv.priv[1] = NULL;
	bq_file(bqq, rq);
}

void bq_add_request(struct bq_queue *bqq, struct request *rq)
{
	struct bqd *bqd = bqq->bqd;
	bool sync = rq_is_sync(rq);

	lockdep_assert_held(&bqd->lock);
	rq->fifo_time = jiffies + bqd->tun.fifo_expire_jiffies[sync];
	if (!bqq->queued) {
		rq->elv.priv[1] = (void *)BQ_RQ_LONE;
		bqq->queued = 1;
		bqq->next_rq = rq;
		bq_pos_update(bqd, bqq);
		return;
	}
	bq_file_lone(bqq);
	bq_file(bqq, rq);
	bqq->queued++;
	bqq->next_rq = bq_next_with(bqd, bqq, rq);
	bq_pos_update(bqd, bqq);
}

/* @rq, filed, leaves @bqq; bq_remove_request() takes a lone one off. */
void __bq_remove_request(struct bq_queue *bqq, struct request *rq)
{
	struct bqd *bqd = bqq->bqd;
	struct request_queue *q = bqd->queue;

	lockdep_assert_held(&bqd->lock);
	if (bqq->queued == 1) {
		/* The last one: nothing to choose from, nor to keep a key for. */
		bqq->next_rq = NULL;
		bq_pos_update(bqd, bqq);
	} else if (bqq->next_rq == rq) {
		struct request *prev = bq_rb_rq(rb_prev(&rq->rb_node));
		struct request *next = bq_rb_rq(rb_next(&rq->rb_node));

		if (bqq->procs > 1)	/* the lowest, see bq_next_with() */
			bqq->next_rq = next ? next : prev;
		else
			bqq->next_rq = bq_closer(bqd, blk_rq_pos(rq) +
						 blk_rq_sectors(rq), next, prev);
		bq_pos_update(bqd, bqq);
	}
	list_del_init(&rq->queuelist);
	elv_rb_del(&bqq->sort_list, rq);
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	bqq->queued--;
}

/*
 * Front merge lookup for a bio: only into a request of the queue the bio
 * would join (stashed in bqd->merge_queue by bio_merge, under the lock).
 */
int bq_request_merge(struct request_queue *q, struct request **req,
		     struct bio *bio)
{
	struct bqd *bqd = q->elevator->elevator_data;
	struct request *found;

	lockdep_assert_held(&bqd->lock);
	if (!bqd->merge_queue)
		return ELEVATOR_NO_MERGE;
	found = elv_rb_find(&bqd->merge_queue->sort_list, bio_end_sector(bio));
	if (!found || !elv_bio_merge_ok(found, bio))
		return ELEVATOR_NO_MERGE;
	*req = found;
	return blk_discard_mergable(found) ? ELEVATOR_DISCARD_MERGE :
					     ELEVATOR_FRONT_MERGE;
}

/* Keep merges inside one queue: the bio's process must own the request. */
bool bq_allow_merge(struct request_queue *q, struct request *rq,
		    struct bio *bio)
{
	struct bqd *bqd = q->elevator->elevator_data;
	struct bq_queue *owner = bq_rq_queue(rq);

	/* Not (yet) ours: a plugged request of the same task. */
	if (!owner)
		return true;
	lockdep_assert_held(&bqd->lock);
	return owner == bqd->merge_queue;
}

/* A bio grew @req; a front merge moved its start sector. */
void bq_request_merged(struct request_queue *q, struct request *req,
		       enum elv_merge type)
{
	struct bq_queue *bqq = bq_rq_queue(req);

	if (!bqq)
		return;
	lockdep_assert_held(&bqq->bqd->lock);
	trace_bfq_ng_merge(BQ_TRACE_DEV(bqq->bqd), bqq->pid, blk_rq_pos(req),
			   blk_rq_sectors(req));
	/*
	 * A lone request is filed before any merge (bq_file_lone()); one
	 * that was not would go on the hash behind our back, and be freed
	 * on it.
	 */
	if (WARN_ON_ONCE(bq_rq_lone(req)))
		bq_file_lone(bqq);
	if (type != ELEVATOR_FRONT_MERGE)
		return;
	elv_rb_del(&bqq->sort_list, req);
	elv_rb_add(&bqq->sort_list, req);
	bqq->next_rq = bq_next_with(bqq->bqd, bqq, req);
	bq_pos_update(bqq->bqd, bqq);
}

/* @next was merged into @rq and is about to be freed by the core. */
void bq_requests_merged(struct request_queue *q, struct request *rq,
			struct request *next)
{
	struct bq_queue *bqq = bq_rq_queue(next);

	if (!bqq)
		return;
	lockdep_assert_held(&bqq->bqd->lock);
	/* @rq inherits @next's place in the FIFO if @next is older. */
	if (bq_rq_queue(rq) == bqq &&
	    time_before((unsigned long)next->fifo_time,
			(unsigned long)rq->fifo_time)) {
		list_del(&rq->queuelist);
		list_add(&rq->queuelist, &next->queuelist);
		rq->fifo_time = next->fifo_time;
	}
	bq_remove_request(bqq, next);
	bqq->bqd->queued--;
	bq_queue_lost_request(bqq->bqd, bqq);
}

int bq_queues_init(struct bqd *bqd)
{
	struct bq_queue *oom = &bqd->oom_queue;
	unsigned short ioprio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE,
						  BQ_DEFAULT_LEVEL);

	INIT_LIST_HEAD(&bqd->all_queues);
	bqd->pos_tree = RB_ROOT;
	bq_queue_setup(bqd, oom, NULL, ioprio, true);
	oom->ref = 1;
	set_bit(BQ_OOM, &oom->flags);
	clear_bit(BQ_IDLE_WINDOW, &oom->flags);
	return 0;
}

/* A group's async queues leave its table (teardown, group offline). */
void bq_async_table_drop(struct bq_async_table *table)
{
	int i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < BQ_NR_LEVELS; j++) {
			if (table->queue[i][j])
				bq_put_queue(table->queue[i][j]);
			table->queue[i][j] = NULL;
		}
	}
	if (table->idle)
		bq_put_queue(table->idle);
	table->idle = NULL;
}

/* Teardown: no request is left; drop the async table and idle entities. */
void bq_queues_exit(struct bqd *bqd)
{
	struct bq_queue *bqq;

	lockdep_assert_held(&bqd->lock);
	/*
	 * Every queue's waker link went when its process left it (exit_icq
	 * runs first); one left would hold its waker forever, so it is a bug
	 * and is dropped.  A dropped link may free any queue of the list:
	 * start over each time.
	 */
restart:
	list_for_each_entry(bqq, &bqd->all_queues, all_node) {
		if (WARN_ON_ONCE(bqq->waker)) {
			bq_waker_forget(bqd, bqq);
			goto restart;
		}
	}
	bq_async_table_drop(&bqd->async);
	bq_forget_idle(&bqd->root);
}
