// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng tunables: /sys/block/<dev>/queue/iosched/.
 *
 * Names, units and defaults follow mainline bfq so that existing scripts
 * work.  A value that is not a number, or is out of the range given with
 * each tunable below, is refused with -EINVAL and changes nothing.
 */
#include <linux/blkdev.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "elevator.h"
#include "bfq-ng.h"

static const unsigned int bq_default_back_seek_max_kib = 16 * 1024;
static const unsigned int bq_default_back_seek_penalty = 2;
static const unsigned int bq_default_fifo_expire_async_ms = 250;
static const unsigned int bq_default_fifo_expire_sync_ms = 125;
static const unsigned int bq_default_slice_idle_ms = 8;
/* timeout_sync: HZ / 8, i.e. 125 ms rounded down to whole jiffies. */
static const unsigned int bq_default_timeout_sync_div = 8;

void bq_tunables_init(struct bq_tunables *tun)
{
	tun->back_seek_max_kib = bq_default_back_seek_max_kib;
	tun->back_seek_penalty = bq_default_back_seek_penalty;
	tun->fifo_expire_ms[0] = bq_default_fifo_expire_async_ms;
	tun->fifo_expire_ms[1] = bq_default_fifo_expire_sync_ms;
	tun->fifo_expire_jiffies[0] = msecs_to_jiffies(tun->fifo_expire_ms[0]);
	tun->fifo_expire_jiffies[1] = msecs_to_jiffies(tun->fifo_expire_ms[1]);
	tun->low_latency = 1;
	tun->max_budget_sectors = 0;
	tun->slice_idle_ns = (u64)bq_default_slice_idle_ms * NSEC_PER_MSEC;
	tun->strict_guarantees = 0;
	tun->timeout_sync_jiffies = HZ / bq_default_timeout_sync_div;
	tun->injection = 1;
	tun->queue_merging = 1;
}

static struct bqd *bq_of_eq(struct elevator_queue *e)
{
	return e->elevator_data;
}

/* Parse an unsigned number within [min, max]. */
static int bq_parse(const char *page, unsigned int min, unsigned int max,
		    unsigned int *val)
{
	int ret = kstrtouint(page, 10, val);

	if (ret)
		return -EINVAL;
	if (*val < min || *val > max)
		return -EINVAL;
	return 0;
}

/* Setters, called under the scheduler lock with a value already in range. */
static int bq_set_back_seek_max(struct bqd *bqd, unsigned int val)
{
	bqd->tun.back_seek_max_kib = val;
	return 0;
}

static int bq_set_back_seek_penalty(struct bqd *bqd, unsigned int val)
{
	bqd->tun.back_seek_penalty = val;
	return 0;
}

static int bq_set_fifo_expire_async(struct bqd *bqd, unsigned int val)
{
	bqd->tun.fifo_expire_ms[0] = val;
	bqd->tun.fifo_expire_jiffies[0] = msecs_to_jiffies(val);
	return 0;
}

static int bq_set_fifo_expire_sync(struct bqd *bqd, unsigned int val)
{
	bqd->tun.fifo_expire_ms[1] = val;
	bqd->tun.fifo_expire_jiffies[1] = msecs_to_jiffies(val);
	return 0;
}

/* Turning it off ends all raising now; weights follow at each slot end. */
static int bq_set_low_latency(struct bqd *bqd, unsigned int val)
{
	bqd->tun.low_latency = val;
	if (!val)
		bq_wr_end_all(bqd);
	return 0;
}

/* 0 selects the automatic budget; below the minimum budget is refused. */
static int bq_set_max_budget(struct bqd *bqd, unsigned int val)
{
	if (val && val < BQ_MIN_BUDGET_SECTORS)
		return -EINVAL;
	bqd->tun.max_budget_sectors = val;
	bq_update_max_budget(bqd);
	return 0;
}

static int bq_set_slice_idle(struct bqd *bqd, unsigned int val)
{
	bqd->tun.slice_idle_ns = (u64)val * NSEC_PER_MSEC;
	return 0;
}

static int bq_set_slice_idle_us(struct bqd *bqd, unsigned int val)
{
	bqd->tun.slice_idle_ns = (u64)val * NSEC_PER_USEC;
	return 0;
}

static int bq_set_strict_guarantees(struct bqd *bqd, unsigned int val)
{
	bqd->tun.strict_guarantees = val;
	bqd->max_in_driver = bqd->in_driver;
	return 0;
}

static int bq_set_injection(struct bqd *bqd, unsigned int val)
{
	bqd->tun.injection = val;
	return 0;
}

/*
 * 0 stops new queue merges (merge.c); shared queues split as usual.  Not a
 * mainline tunable: a debug knob to measure what merging gives.
 */
static int bq_set_queue_merging(struct bqd *bqd, unsigned int val)
{
	bqd->tun.queue_merging = val;
	return 0;
}

/* Rounded to jiffies, at least one. */
static int bq_set_timeout_sync(struct bqd *bqd, unsigned int val)
{
	bqd->tun.timeout_sync_jiffies = max(1UL, msecs_to_jiffies(val));
	bq_update_max_budget(bqd);
	return 0;
}

/*
 * A tunable may change whether a dispatch would get a request (injection,
 * strict_guarantees, the end of raising): has_work is told at once, and
 * the queue run if it now has work, rather than at the next request,
 * completion or idle timer.
 */
static void bq_tunable_changed(struct bqd *bqd, bool was_ready)
{
	if (!was_ready && READ_ONCE(bqd->work_ready))
		blk_mq_run_hw_queues(bqd->queue, true);
}

/*
 * show and store for one tunable: the value shown, the accepted range, and
 * the setter above.
 */
#define BQ_TUNABLE(name, min, max, shown)					\
static ssize_t bq_##name##_show(struct elevator_queue *e, char *page)		\
{										\
	struct bqd *bqd = bq_of_eq(e);						\
										\
	return sysfs_emit(page, "%llu\n", (unsigned long long)(shown));	\
}										\
static ssize_t bq_##name##_store(struct elevator_queue *e, const char *page,	\
				 size_t count)					\
{										\
	struct bqd *bqd = bq_of_eq(e);						\
	unsigned int val;							\
	bool was_ready;								\
	int ret = bq_parse(page, min, max, &val);				\
										\
	if (ret)								\
		return ret;							\
	spin_lock_irq(&bqd->lock);						\
	was_ready = bqd->work_ready;						\
	ret = bq_set_##name(bqd, val);						\
	bq_update_work_ready(bqd);						\
	spin_unlock_irq(&bqd->lock);						\
	bq_tunable_changed(bqd, was_ready);					\
	return ret ? ret : count;						\
}

BQ_TUNABLE(back_seek_max, 0, INT_MAX, bqd->tun.back_seek_max_kib)
BQ_TUNABLE(back_seek_penalty, 1, 1024, bqd->tun.back_seek_penalty)
BQ_TUNABLE(fifo_expire_async, 1, 60000, bqd->tun.fifo_expire_ms[0])
BQ_TUNABLE(fifo_expire_sync, 1, 60000, bqd->tun.fifo_expire_ms[1])
BQ_TUNABLE(injection, 0, 1, bqd->tun.injection)
BQ_TUNABLE(low_latency, 0, 1, bqd->tun.low_latency)
BQ_TUNABLE(max_budget, 0, 1U << 22, bqd->tun.max_budget_sectors)
BQ_TUNABLE(queue_merging, 0, 1, bqd->tun.queue_merging)
BQ_TUNABLE(slice_idle, 0, 1000, div_u64(bqd->tun.slice_idle_ns, NSEC_PER_MSEC))
BQ_TUNABLE(slice_idle_us, 0, 1000000,
	   div_u64(bqd->tun.slice_idle_ns, NSEC_PER_USEC))
BQ_TUNABLE(strict_guarantees, 0, 1, bqd->tun.strict_guarantees)
BQ_TUNABLE(timeout_sync, 1, 60000,
	   jiffies_to_msecs(bqd->tun.timeout_sync_jiffies))
#undef BQ_TUNABLE

/* Read-only: how long interactive weight raising lasts on this device. */
static ssize_t bq_wr_max_time_show(struct elevator_queue *e, char *page)
{
	struct bqd *bqd = bq_of_eq(e);
	unsigned int ms;

	spin_lock_irq(&bqd->lock);
	ms = bq_wr_duration_ms(bqd);
	spin_unlock_irq(&bqd->lock);
	return sysfs_emit(page, "%u\n", ms);
}

#define BQ_ATTR(name) \
	__ATTR(name, 0644, bq_##name##_show, bq_##name##_store)

struct elv_fs_entry bq_sysfs_attrs[] = {
	BQ_ATTR(back_seek_max),
	BQ_ATTR(back_seek_penalty),
	BQ_ATTR(fifo_expire_async),
	BQ_ATTR(fifo_expire_sync),
	BQ_ATTR(injection),
	BQ_ATTR(low_latency),
	BQ_ATTR(max_budget),
	BQ_ATTR(queue_merging),
	BQ_ATTR(slice_idle),
	BQ_ATTR(slice_idle_us),
	BQ_ATTR(strict_guarantees),
	BQ_ATTR(timeout_sync),
	__ATTR(wr_max_time, 0444, bq_wr_max_time_show, NULL),
	__ATTR_NULL
};

#undef BQ_ATTR
