// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng: Budget Fair Queueing I/O scheduler for blk-mq.
 *
 * The elevator glue: setup and teardown, and the entry points a request
 * passes through in order: bio merge, prepare, insert, dispatch, completion
 * (or requeue), finish.  The policy lives in queue.c, dispatch.c and wf2q.c.
 *
 * Per request, insert and dispatch take bqd->lock once per call and the
 * completion once per request; has_work reads a flag without it, and a bio
 * merge only tries it, when something is queued.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/slab.h>
#include <linux/sbitmap.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-sched.h"
#include "bfq-ng.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/*
 * The elevator is registered before the cgroup policy: elv_register()
 * refusing a taken name is how a loaded mainline bfq is detected in drop-in
 * mode, before its cgroup files could clash with ours.  Until the policy
 * is registered, init_sched turns devices away.
 */
static bool bq_ready;

/* Async requests and sync writes may use this share of the tags (in 1/4). */
#define BQ_ASYNC_DEPTH_QUARTERS		3

/*
 * A bio merge is an optimisation: with nothing queued there is nothing to
 * merge with (read without the lock: a request inserted meanwhile only
 * misses a merge), nor for a sync bio whose process's queue holds nothing
 * (bq_icq_may_merge()), and under lock contention the bio goes its own way
 * rather than wait.
 */
static bool bq_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct bqd *bqd = q->elevator->elevator_data;
	struct request *free = NULL;
	struct io_cq *icq;
	bool merged;

	if (!READ_ONCE(bqd->queued))
		return false;
	icq = bq_bio_icq(bqd, bio);
	if (icq && !bq_icq_may_merge(icq))
		return false;
	if (!spin_trylock_irq(&bqd->lock))
		return false;
	bqd->merge_queue = bq_queue_for_bio(bqd, icq, bio);
	if (bqd->merge_queue)
		bq_file_lone(bqd->merge_queue);
	merged = bqd->merge_queue &&
		 blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	bqd->merge_queue = NULL;
	spin_unlock_irq(&bqd->lock);

	if (free)
		blk_mq_free_request(free);
	return merged;
}

static void bq_prepare_request(struct request *rq)
{
	rq->elv.icq = bq_get_icq(rq->q);
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
}

static void __bq_insert_request(struct bqd *bqd, struct request *rq,
				blk_insert_t flags)
{
	struct bq_queue *bqq;

	lockdep_assert_held(&bqd->lock);
	bqd->queued++;
	rq->elv.priv[1] = NULL;
	if ((flags & BLK_MQ_INSERT_AT_HEAD) || blk_rq_is_passthrough(rq)) {
		rq->elv.priv[0] = NULL;
		if (flags & BLK_MQ_INSERT_AT_HEAD)
			list_add(&rq->queuelist, &bqd->dispatch);
		else
			list_add_tail(&rq->queuelist, &bqd->dispatch);
		return;
	}
	bqq = bq_queue_for_rq(bqd, rq);
	bq_get_queue(bqq);
	rq->elv.priv[0] = bqq;
	bq_queue_will_get(bqd, bqq, rq);
	bq_add_request(bqq, rq);
	bq_queue_got_request(bqd, bqq, rq);
}

static void bq_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, blk_insert_t flags)
{
	struct bqd *bqd = hctx->queue->elevator->elevator_data;

	spin_lock_irq(&bqd->lock);
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		__bq_insert_request(bqd, rq, flags);
	}
	bq_decide_idling(bqd);
	bq_update_work_ready(bqd);
	spin_unlock_irq(&bqd->lock);
}

static struct request *bq_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct bqd *bqd = hctx->queue->elevator->elevator_data;
	struct request *rq;

	if (!READ_ONCE(bqd->work_ready))
		return NULL;
	/* The plug's cached time when there is one, as blk-mq's own stamps. */
	spin_lock_irq(&bqd->lock);
	rq = bq_dispatch(bqd, blk_time_get_ns());
	/* blk-mq runs the queue again in 3 ms when none is given. */
	if (!rq)
		bqd->empty_dispatches++;
	bq_update_work_ready(bqd);
	spin_unlock_irq(&bqd->lock);
	return rq;
}

static bool bq_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct bqd *bqd = hctx->queue->elevator->elevator_data;

	return READ_ONCE(bqd->work_ready);
}

/* Runs lockless at completion; finish_request picks the time up. */
static void bq_completed_request(struct request *rq, u64 now)
{
	uintptr_t state = (uintptr_t)rq->elv.priv[1];

	/* The time loses its low bits to the flags. */
	if (state & BQ_RQ_IN_DRIVER)
		rq->elv.priv[1] = (void *)(uintptr_t)((now & ~BQ_RQ_FLAGS) | state);
}

static void bq_requeue_request(struct request *rq)
{
	bq_release_request(rq, true);
}

static void bq_finish_request(struct request *rq)
{
	bq_release_request(rq, false);
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}

static struct request *bq_former_request(struct request_queue *q,
					 struct request *rq)
{
	return elv_rb_former_request(q, rq);
}

static struct request *bq_next_request_hook(struct request_queue *q,
					    struct request *rq)
{
	return elv_rb_latter_request(q, rq);
}

/*
 * Async requests and sync writes get a share of each tag word so that sync
 * reads always find a tag.  Words of under four tags are not shared out:
 * a one-tag limit would serialize writes on small queues.
 */
static void bq_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct bqd *bqd = data->q->elevator->elevator_data;

	if (op_is_sync(opf) && !op_is_write(opf))
		return;
	data->shallow_depth = op_is_sync(opf) ? READ_ONCE(bqd->async_depth) :
						bq_async_depth_now(bqd);
}

static void bq_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct bqd *bqd = hctx->queue->elevator->elevator_data;
	struct sbitmap_queue *tags = &hctx->sched_tags->bitmap_tags;
	unsigned int word = 1U << tags->sb.shift;
	unsigned int depth = word < 4 ? word : word * BQ_ASYNC_DEPTH_QUARTERS / 4;

	WRITE_ONCE(bqd->async_depth, depth);
	WRITE_ONCE(bqd->async_depth_raised, max(1U, depth / 2));
	/*
	 * The core warns on any shallow depth below this one.  An allocation
	 * may still use a depth read before this update (the depths change
	 * with nr_requests, under way), so give the least there can be.
	 */
	sbitmap_queue_min_shallow_depth(tags, 1);
}

static int bq_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	bq_depth_updated(hctx);
	return 0;
}

static int bq_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	struct bqd *bqd;
	int ret;

	/* Pairs with bq_init()'s release: the policy is registered. */
	if (!smp_load_acquire(&bq_ready))
		return -EAGAIN;
	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;
	bqd = kzalloc_node(sizeof(*bqd), GFP_KERNEL, q->node);
	if (!bqd) {
		kobject_put(&eq->kobj);
		return -ENOMEM;
	}
	eq->elevator_data = bqd;
	bqd->queue = q;
	spin_lock_init(&bqd->lock);
	INIT_LIST_HEAD(&bqd->dispatch);
	INIT_LIST_HEAD(&bqd->groups);
	bqd->rotational = !blk_queue_nonrot(q);
	bq_tunables_init(&bqd->tun);
	bq_heuristics_init(bqd);
	bq_sched_init(&bqd->root, NULL, &bq_engine_ops, BQ_IDLE_CLASS_WAIT_NS);
	bq_dispatch_init(bqd);
	bq_queues_init(bqd);
	/* The policy's group constructors find bqd through q->elevator. */
	q->elevator = eq;
	ret = bq_groups_init(bqd);
	if (ret) {
		kfree(bqd);
		kobject_put(&eq->kobj);
		return ret;
	}
	return 0;
}

static void bq_exit_sched(struct elevator_queue *e)
{
	struct bqd *bqd = e->elevator_data;

	bq_dispatch_exit(bqd);
	/* Groups go first: their async queues and pd references. */
	bq_groups_exit(bqd);
	spin_lock_irq(&bqd->lock);
	bq_queues_exit(bqd);
	spin_unlock_irq(&bqd->lock);
	if (bqd->live_queues || bqd->queued || bqd->live_groups)
		pr_err("%s: exit with %u queues, %u groups and %u requests left\n",
		       BQ_NAME, bqd->live_queues, bqd->live_groups, bqd->queued);
	kfree(bqd);
}

static struct elevator_type bq_iosched = {
	.ops = {
		.init_sched		= bq_init_sched,
		.exit_sched		= bq_exit_sched,
		.init_hctx		= bq_init_hctx,
		.depth_updated		= bq_depth_updated,
		.limit_depth		= bq_limit_depth,
		.allow_merge		= bq_allow_merge,
		.bio_merge		= bq_bio_merge,
		.request_merge		= bq_request_merge,
		.request_merged		= bq_request_merged,
		.requests_merged	= bq_requests_merged,
		.prepare_request	= bq_prepare_request,
		.insert_requests	= bq_insert_requests,
		.dispatch_request	= bq_dispatch_request,
		.has_work		= bq_has_work,
		.completed_request	= bq_completed_request,
		.requeue_request	= bq_requeue_request,
		.finish_request		= bq_finish_request,
		.former_request		= bq_former_request,
		.next_request		= bq_next_request_hook,
		.exit_icq		= bq_exit_icq,
	},
	.icq_size	= sizeof(struct bq_io_cq),
	.icq_align	= __alignof__(struct bq_io_cq),
	.elevator_attrs	= bq_sysfs_attrs,
	.elevator_name	= BQ_NAME,
	.elevator_owner	= THIS_MODULE,
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = bq_queue_debugfs_attrs,
#endif
};
MODULE_ALIAS("bfq-ng-iosched");

/*
 * Drop-in mode: the scheduler is called "bfq" and its cgroup files
 * io.bfq.weight and blkio.bfq.*, so that udev rules, systemd's IOWeight=
 * and container runtimes written for mainline bfq drive bfq-ng unchanged.
 * The names are fixed at load time; mainline bfq must not be loaded.
 */
static bool compat;
module_param(compat, bool, 0444);
MODULE_PARM_DESC(compat, "register as \"bfq\" with io.bfq.* cgroup files (drop-in for mainline bfq)");

static int __init bq_init(void)
{
	int ret;

	if (compat)
		bq_iosched.elevator_name = BQ_COMPAT_NAME;
	ret = bq_queue_cache_init();
	if (ret)
		return ret;
	ret = elv_register(&bq_iosched);
	if (ret == -EBUSY && compat)
		pr_err("%s: compat=1: an I/O scheduler named \"%s\" is already registered (mainline bfq?); unload it or load %s without compat\n",
		       BQ_NAME, BQ_COMPAT_NAME, BQ_NAME);
	if (ret)
		goto err_cache;
	ret = bq_cgroup_register(compat ? BQ_COMPAT_NAME : BQ_NAME);
	if (ret)
		goto err_elv;
	/* Pairs with bq_init_sched()'s acquire. */
	smp_store_release(&bq_ready, true);
	return 0;

err_elv:
	elv_unregister(&bq_iosched);
err_cache:
	bq_queue_cache_exit();
	return ret;
}

static void __exit bq_exit(void)
{
	elv_unregister(&bq_iosched);
	bq_cgroup_unregister();
	bq_queue_cache_exit();
}

module_init(bq_init);
module_exit(bq_exit);

MODULE_AUTHOR("bfq-ng developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bfq-ng: Budget Fair Queueing I/O scheduler for blk-mq");
