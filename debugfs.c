// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng debugfs: /sys/kernel/debug/block/<dev>/sched/.
 *
 *   state    in-service queue, idling, requests held and in the driver,
 *            peak rate and budget in effect
 *   queues   every live queue: pid, class, weight, budget, requests,
 *            raising and burst state, processes sharing it and merge links
 *   groups   every live group: weight, place in the engine, references
 *   stats    counters: live queues and groups, expirations by reason, idling,
 *            queue merges and splits, shared queues, failed queue allocations
 *   check    the engine invariant check over every group: "ok" or what is
 *            broken
 *
 * Everything is read-only and read under the scheduler lock; "queues"
 * and "groups" take it a page of output at a time.
 */
#include <linux/blkdev.h>
#include <linux/seq_file.h>

#include "elevator.h"
#include "blk-mq-debugfs.h"
#include "bfq-ng.h"

static const char *const bq_class_names[BQ_NR_CLASSES] = {
	[BQ_CLASS_RT] = "rt", [BQ_CLASS_BE] = "be", [BQ_CLASS_IDLE] = "idle",
};

static const char *const bq_where_names[] = {
	[BQ_OFF] = "off", [BQ_ACTIVE] = "active",
	[BQ_IDLE] = "idle", [BQ_SERVING] = "serving",
};

static struct bqd *bq_debug_bqd(void *data)
{
	struct request_queue *q = data;

	return q->elevator->elevator_data;
}

static int bq_state_show(void *data, struct seq_file *m)
{
	struct bqd *bqd = bq_debug_bqd(data);

	spin_lock_irq(&bqd->lock);
	seq_printf(m, "serving %d\nidling %d\nkept %d\nqueued %u\nin_driver %u\nmax_in_driver %u\n",
		   bqd->serving ? bqd->serving->pid : -1, bqd->idling, bqd->kept,
		   bqd->queued, bqd->in_driver, bqd->max_in_driver);
	seq_printf(m, "peak_rate_sectors_per_s %llu\nread_rate_sectors_per_s %llu\nwrite_rate_sectors_per_s %llu\nmax_budget_sectors %llu\n",
		   bqd->peak_rate, bqd->dir_rate[READ], bqd->dir_rate[WRITE],
		   bqd->max_budget);
	seq_printf(m, "async_depth %u\nasync_depth_now %u\nrotational %d\nhw_tag %d\n",
		   bqd->async_depth, bq_async_depth_now(bqd), bqd->rotational,
		   bqd->hw_tag);
	spin_unlock_irq(&bqd->lock);
	return 0;
}

static void bq_show_queue(struct seq_file *m, struct bq_queue *bqq, u64 now)
{
	u64 left_ms = 0, age_ms = 0;

	if (bqq->created_ns && now > bqq->created_ns)
		age_ms = div_u64(now - bqq->created_ns, NSEC_PER_MSEC);
	if (bqq->wr_kind && now - bqq->wr_start_ns < bqq->wr_duration_ns)
		left_ms = div_u64(bqq->wr_start_ns + bqq->wr_duration_ns - now,
				  NSEC_PER_MSEC);
	seq_printf(m, "pid %d %s %s class %s weight %u budget %llu service %llu queued %u dispatched %u seeky %d idle_window %d ttime_us %llu",
		   bqq->pid, bq_sync(bqq) ? "sync" : "async",
		   bq_where_names[bqq->entity.where],
		   bq_class_names[bqq->entity.class], bqq->entity.weight,
		   bqq->entity.budget, bqq->entity.service, bqq->queued,
		   bqq->dispatched, hweight32(bqq->seek_history) > 4,
		   test_bit(BQ_IDLE_WINDOW, &bqq->flags),
		   div_u64(bqq->ttime_mean_ns, NSEC_PER_USEC));
	seq_printf(m, " raising %s wr_left_ms %llu wr_starts %u large_burst %d io_bound %d cycle_rate %llu inject_limit %u inject_base_us %llu waker %d",
		   bq_wr_names[bqq->wr_kind], left_ms, bqq->wr_starts,
		   test_bit(BQ_IN_LARGE_BURST, &bqq->flags),
		   test_bit(BQ_IO_BOUND, &bqq->flags), bqq->cycle_rate,
		   bqq->inject_limit, div_u64(bqq->inject_base_ns, NSEC_PER_USEC),
		   bqq->waker ? bqq->waker->pid : 0);
	seq_printf(m, " age_ms %llu procs %u merge_into %d stable_with %d restored %d\n",
		   age_ms, bqq->procs,
		   bqq->merge_into ? bqq->merge_into->pid : -1,
		   bqq->stable_with ? bqq->stable_with->pid : -1,
		   test_bit(BQ_RESTORED, &bqq->flags));
}

/*
 * "queues" and "groups" are read a page at a time: the lock (irqs off) is
 * held for the lines one read() fills, not for all of them, which may be
 * thousands.  Each read finds its place again by counting from the list
 * head (seq_list_start()): an entry freed between two reads moves the
 * later ones up by one, so that one of them is skipped; new queues and
 * groups join at the end.  Each line is consistent on its own.
 */
static void *bq_seq_start(struct bqd *bqd, struct list_head *head,
			  loff_t *pos)
	__acquires(&bqd->lock)
{
	spin_lock_irq(&bqd->lock);
	return seq_list_start(head, *pos);
}

static void bq_seq_stop(struct seq_file *m, void *v)
	__releases(&bqd->lock)
{
	struct bqd *bqd = bq_debug_bqd(m->private);

	spin_unlock_irq(&bqd->lock);
}

static void *bq_queues_start(struct seq_file *m, loff_t *pos)
	__acquires(&bqd->lock)
{
	struct bqd *bqd = bq_debug_bqd(m->private);

	return bq_seq_start(bqd, &bqd->all_queues, pos);
}

static void *bq_queues_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &bq_debug_bqd(m->private)->all_queues, pos);
}

static int bq_queues_seq_show(struct seq_file *m, void *v)
{
	lockdep_assert_held(&bq_debug_bqd(m->private)->lock);
	bq_show_queue(m, list_entry(v, struct bq_queue, all_node),
		      ktime_get_ns());
	return 0;
}

static const struct seq_operations bq_queues_seq_ops = {
	.start	= bq_queues_start,
	.next	= bq_queues_next,
	.stop	= bq_seq_stop,
	.show	= bq_queues_seq_show,
};

#if IS_ENABLED(CONFIG_BLK_CGROUP)
static void *bq_groups_start(struct seq_file *m, loff_t *pos)
	__acquires(&bqd->lock)
{
	struct bqd *bqd = bq_debug_bqd(m->private);

	return bq_seq_start(bqd, &bqd->groups, pos);
}

static void *bq_groups_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &bq_debug_bqd(m->private)->groups, pos);
}

static int bq_groups_seq_show(struct seq_file *m, void *v)
{
	lockdep_assert_held(&bq_debug_bqd(m->private)->lock);
	bq_group_show(m, v);
	return 0;
}

static const struct seq_operations bq_groups_seq_ops = {
	.start	= bq_groups_start,
	.next	= bq_groups_next,
	.stop	= bq_seq_stop,
	.show	= bq_groups_seq_show,
};
#endif

static int bq_stats_show(void *data, struct seq_file *m)
{
	struct bqd *bqd = bq_debug_bqd(data);
	int i;

	spin_lock_irq(&bqd->lock);
	seq_printf(m, "live_queues %u\nlive_groups %u\nactive_groups %u\n",
		   bqd->live_queues, bqd->live_groups, bqd->active_groups);
	for (i = 0; i < BQ_NR_EXPIRE_REASONS; i++)
		seq_printf(m, "expired_%s %llu\n", bq_expire_names[i],
			   bqd->expirations[i]);
	seq_printf(m, "idle_started %llu\nidle_timeouts %llu\nkept_resumes %llu\nrequeues %llu\nempty_dispatches %llu\n",
		   bqd->idle_started, bqd->idle_timeouts, bqd->kept_resumes,
		   bqd->requeues, bqd->empty_dispatches);
	seq_printf(m, "preemptions %llu\nraised_queues %u\nraised_busy %u\nlarge_bursts %llu\n",
		   bqd->preemptions, bqd->wr_queues, bqd->weights.raised,
		   bqd->large_bursts);
	seq_printf(m, "active_weights %u\nsymmetric %d\n",
		   bqd->weights.distinct, bq_symmetric(bqd));
	seq_printf(m, "injections %llu\ninjected_in_driver %u\n",
		   bqd->injections, bqd->injected_in_driver);
	seq_printf(m, "wakers_found %llu\nwaker_injections %llu\n",
		   bqd->wakers_found, bqd->waker_injections);
	seq_printf(m, "inject_probes_alone %llu\ninject_probes_beside %llu\ninject_lowered %llu\ninject_probe_pending %d\n",
		   bqd->inject_samples[0], bqd->inject_samples[1],
		   bqd->inject_lowered, !!bqd->probe_rq);
	seq_printf(m, "shared_queues %u\ncoop_merges %llu\nstable_merges %llu\ncoop_splits %llu\ncoop_aparts %llu\ncoop_leaves %llu\n",
		   bqd->shared_queues, bqd->coop_merges, bqd->stable_merges,
		   bqd->coop_splits, bqd->coop_aparts, bqd->coop_leaves);
	seq_printf(m, "oom_fallbacks %llu\n", bqd->oom_fallbacks);
	spin_unlock_irq(&bqd->lock);
	return 0;
}

static int bq_check_show(void *data, struct seq_file *m)
{
	struct bqd *bqd = bq_debug_bqd(data);
	char why[128];
	int ret;

	spin_lock_irq(&bqd->lock);
	ret = bq_check(&bqd->root, why, sizeof(why));
	if (!ret)
		ret = bq_groups_check(bqd, why, sizeof(why));
	if (!ret)
		ret = bq_weights_check(bqd, why, sizeof(why));
	if (!ret)
		ret = bq_serving_check(bqd, why, sizeof(why));
	if (!ret)
		ret = bq_coop_check(bqd, why, sizeof(why));
	spin_unlock_irq(&bqd->lock);
	seq_printf(m, "%s\n", ret ? why : "ok");
	return 0;
}

const struct blk_mq_debugfs_attr bq_queue_debugfs_attrs[] = {
	{"state", 0400, bq_state_show},
	{"queues", 0400, .seq_ops = &bq_queues_seq_ops},
#if IS_ENABLED(CONFIG_BLK_CGROUP)
	{"groups", 0400, .seq_ops = &bq_groups_seq_ops},
#endif
	{"stats", 0400, bq_stats_show},
	{"check", 0400, bq_check_show},
	{},
};
