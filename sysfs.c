// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng tunables: /sys/block/<dev>/queue/iosched/.
 *
 * Names, units and defaults follow mainline bfq so that existing scripts
 * work.  A value that is not a number, or is out of the range listed in
 * bq_tunable_limits, is refused with -EINVAL and changes nothing.
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
	tun->low_latency = 1;
	tun->max_budget_sectors = 0;
	tun->slice_idle_ns = (u64)bq_default_slice_idle_ms * NSEC_PER_MSEC;
	tun->strict_guarantees = 0;
	tun->timeout_sync_jiffies = HZ / bq_default_timeout_sync_div;
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

/*
 * Each tunable: how to show it, and how to store a parsed value within
 * [min, max] under the scheduler lock.
 */
#define BQ_TUNABLE(name, min, max, show_expr, store_stmt)			\
static ssize_t bq_##name##_show(struct elevator_queue *e, char *page)		\
{										\
	struct bqd *bqd = bq_of_eq(e);						\
										\
	return sysfs_emit(page, "%llu\n", (unsigned long long)(show_expr));	\
}										\
static ssize_t bq_##name##_store(struct elevator_queue *e, const char *page,	\
				 size_t count)					\
{										\
	struct bqd *bqd = bq_of_eq(e);						\
	unsigned int val;							\
	int ret = bq_parse(page, min, max, &val);				\
										\
	if (ret)								\
		return ret;							\
	spin_lock_irq(&bqd->lock);						\
	store_stmt;								\
	spin_unlock_irq(&bqd->lock);						\
	return count;								\
}

BQ_TUNABLE(back_seek_max, 0, INT_MAX, bqd->tun.back_seek_max_kib,
	   bqd->tun.back_seek_max_kib = val)
BQ_TUNABLE(back_seek_penalty, 1, 1024, bqd->tun.back_seek_penalty,
	   bqd->tun.back_seek_penalty = val)
BQ_TUNABLE(fifo_expire_async, 1, 60000, bqd->tun.fifo_expire_ms[0],
	   bqd->tun.fifo_expire_ms[0] = val)
BQ_TUNABLE(fifo_expire_sync, 1, 60000, bqd->tun.fifo_expire_ms[1],
	   bqd->tun.fifo_expire_ms[1] = val)
BQ_TUNABLE(low_latency, 0, 1, bqd->tun.low_latency,
	   bqd->tun.low_latency = val)
BQ_TUNABLE(max_budget, 0, 1U << 22, bqd->tun.max_budget_sectors,
	   do {
		   if (val && val < BQ_MIN_BUDGET_SECTORS) {
			   spin_unlock_irq(&bqd->lock);
			   return -EINVAL;
		   }
		   bqd->tun.max_budget_sectors = val;
		   bq_update_max_budget(bqd);
	   } while (0))
BQ_TUNABLE(slice_idle, 0, 1000, div_u64(bqd->tun.slice_idle_ns, NSEC_PER_MSEC),
	   bqd->tun.slice_idle_ns = (u64)val * NSEC_PER_MSEC)
BQ_TUNABLE(slice_idle_us, 0, 1000000,
	   div_u64(bqd->tun.slice_idle_ns, NSEC_PER_USEC),
	   bqd->tun.slice_idle_ns = (u64)val * NSEC_PER_USEC)
BQ_TUNABLE(strict_guarantees, 0, 1, bqd->tun.strict_guarantees,
	   do {
		   bqd->tun.strict_guarantees = val;
		   bqd->max_in_driver = bqd->in_driver;
	   } while (0))
BQ_TUNABLE(timeout_sync, 1, 60000,
	   jiffies_to_msecs(bqd->tun.timeout_sync_jiffies),
	   do {
		   bqd->tun.timeout_sync_jiffies = max(1UL, msecs_to_jiffies(val));
		   bq_update_max_budget(bqd);
	   } while (0))
#undef BQ_TUNABLE

#define BQ_ATTR(name) \
	__ATTR(name, 0644, bq_##name##_show, bq_##name##_store)

struct elv_fs_entry bq_sysfs_attrs[] = {
	BQ_ATTR(back_seek_max),
	BQ_ATTR(back_seek_penalty),
	BQ_ATTR(fifo_expire_async),
	BQ_ATTR(fifo_expire_sync),
	BQ_ATTR(low_latency),
	BQ_ATTR(max_budget),
	BQ_ATTR(slice_idle),
	BQ_ATTR(slice_idle_us),
	BQ_ATTR(strict_guarantees),
	BQ_ATTR(timeout_sync),
	__ATTR_NULL
};
#undef BQ_ATTR
