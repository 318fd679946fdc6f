// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng latency heuristics, all decided when a queue becomes busy:
 *
 * Weight raising.  A sync queue that is new, or busy again after a long idle
 * period, belongs to an application starting or waking up: its weight is
 * multiplied by BQ_WR_COEFF for a time derived from the device's speed, or
 * until it has moved a cap of sectors (a greedy reader does not stay raised).
 * A queue that comes back in batches at under BQ_SOFTRT_RATE sectors/s on
 * average, having waited for its previous batch to complete, behaves like a
 * player or recorder: it is raised far more (BQ_WR_SOFTRT_COEFF) for a short
 * period, renewed at each batch that keeps that rate.
 *
 * Bursts.  Queues created within BQ_BURST_GAP_NS of one another form a burst
 * (a shell script, a make -j, a service manager starting units).  A burst of
 * BQ_LARGE_BURST queues is large: its members are neither raised nor idled
 * for, since raising everyone is raising no one.  The burst ends when
 * creations stop for longer than the gap.
 *
 * Symmetry.  The weights of queues with I/O queued or in flight are counted
 * in a small table, so that whether all active queues weigh the same is known
 * in O(1).  Idling for a queue that gains nothing from it (a seeky one) is
 * only needed when weights differ, or when queues of more than one group
 * have I/O: a group's share is lost when its queues are not waited for.
 * Groups are counted by cgroup.c, as their queues are counted here.  The
 * weights counted are those without raising: a raised queue is waited for
 * whenever an unraised one has I/O (dispatch.c), but it does not make the
 * others worth waiting for, which would only delay it.
 *
 * All of this runs under bqd->lock.
 */
#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/math64.h>

#include "bfq-ng.h"
#include "trace.h"

#define BQ_WR_COEFF			30
#define BQ_WR_SOFTRT_COEFF		(BQ_WR_COEFF * 100)
/* Idle this long, a queue counts as a new application when it returns. */
#define BQ_WR_MIN_IDLE_NS		(2000 * NSEC_PER_MSEC)
/* Raising lasts ref_ms * ref_rate / peak_rate, within [min, max]. */
#define BQ_WR_MIN_MS			3000
#define BQ_WR_MAX_MS			25000
#define BQ_WR_REF_MS_ROT		7000
#define BQ_WR_REF_MS_NONROT		2500
#define BQ_WR_REF_RATE_ROT		200000	/* sectors/s: a ~100 MB/s disk */
#define BQ_WR_REF_RATE_NONROT		1000000	/* sectors/s: a ~500 MB/s SSD */
/*
 * Interactive raising also ends after peak_rate * duration / BQ_WR_CAP_DIV
 * sectors, and in any case after BQ_WR_MAX_SERVED: an application's start-up
 * reads are tens of MiB, and a greedy reader started at the default priority
 * must not hold a 30x weight for the whole raising period (on a disk that
 * was seconds of near-exclusive service, and the weights of the others lost).
 */
#define BQ_WR_CAP_DIV			2
#define BQ_WR_MAX_SERVED		(64 * 2048)	/* sectors: 64 MiB */
#define BQ_SOFTRT_RATE			7000	/* sectors/s */
#define BQ_SOFTRT_NS			(300 * NSEC_PER_MSEC)
#define BQ_SOFTRT_MIN_CYCLES		2

const char *const bq_wr_names[BQ_NR_WR_KINDS] = {
	[BQ_WR_NONE] = "none", [BQ_WR_INTERACTIVE] = "interactive",
	[BQ_WR_SOFTRT] = "soft-rt",
};

/* How long interactive raising lasts on this device, in ms. */
unsigned int bq_wr_duration_ms(const struct bqd *bqd)
{
	u64 ref_ms = bqd->rotational ? BQ_WR_REF_MS_ROT : BQ_WR_REF_MS_NONROT;
	u64 ref_rate = bqd->rotational ? BQ_WR_REF_RATE_ROT :
					 BQ_WR_REF_RATE_NONROT;

	if (!bqd->peak_rate)
		return ref_ms;
	return clamp_t(u64, div64_u64(ref_ms * ref_rate, bqd->peak_rate),
		       BQ_WR_MIN_MS, BQ_WR_MAX_MS);
}

/* ---------------------------------------------------------- symmetry */

static struct bq_weight_slot *bq_weight_slot(struct bqd *bqd,
					     unsigned int weight)
{
	struct bq_weight_slot *slot, *free = NULL;

	for (slot = bqd->weights.slot;
	     slot < bqd->weights.slot + BQ_WEIGHT_SLOTS; slot++) {
		if (slot->weight == weight)
			return slot;
		if (!slot->count && !free)
			free = slot;
	}
	if (free)
		free->weight = weight;
	return free;
}

static void bq_weight_add(struct bqd *bqd, unsigned int weight, int delta)
{
	struct bq_weight_slot *slot = bq_weight_slot(bqd, weight);

	bqd->weights.queues += delta;
	if (!slot) {
		/* Table full: counted as "asymmetric" until it drains. */
		bqd->weights.overflow += delta;
		return;
	}
	if (!slot->count)
		bqd->weights.distinct++;
	slot->count += delta;
	if (!slot->count)
		bqd->weights.distinct--;
}

/* A counted queue's raising started or ended. */
static void bq_weight_raised(struct bqd *bqd, struct bq_queue *bqq,
			     bool raised)
{
	if (bqq->counted_raised == raised)
		return;
	bqq->counted_raised = raised;
	/* Read without the lock by bq_limit_depth(). */
	WRITE_ONCE(bqd->weights.raised, bqd->weights.raised + (raised ? 1 : -1));
}

/* The slow path of bq_weight_count(): something to count or recount. */
void __bq_weight_count(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	bq_weight_raised(bqd, bqq, bqq->wr_kind != BQ_WR_NONE);
	if (bqq->counted_weight == bqq->base_weight)
		return;
	if (bqq->counted_weight)
		bq_weight_add(bqd, bqq->counted_weight, -1);
	else
		bq_group_pending(bqd, bqq->group, 1);
	bqq->counted_weight = bqq->base_weight;
	bq_weight_add(bqd, bqq->counted_weight, 1);
}

void bq_weight_uncount(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	if (!bqq->counted_weight)
		return;
	bq_weight_raised(bqd, bqq, false);
	bq_weight_add(bqd, bqq->counted_weight, -1);
	bqq->counted_weight = 0;
	bq_group_pending(bqd, bqq->group, -1);
}

/*
 * debugfs "check": a queue is counted while it has I/O queued or in the
 * driver, or is in service, and only then; the totals are the queues'.
 */
static int bq_weight_check_one(struct bqd *bqd, struct bq_queue *bqq,
			       unsigned int *queues, unsigned int *raised,
			       char *why, size_t len)
{
	bool busy = bqq->queued || bqq->dispatched || bqq == bqd->serving;

	if (bqq->counted_weight && !busy) {
		snprintf(why, len, "queue %d counted in the weights with no I/O",
			 bqq->pid);
		return -EINVAL;
	}
	if (!bqq->counted_weight && (bqq->queued || bqq->dispatched)) {
		snprintf(why, len, "queue %d with I/O not counted in the weights",
			 bqq->pid);
		return -EINVAL;
	}
	*queues += !!bqq->counted_weight;
	*raised += bqq->counted_weight && bqq->counted_raised;
	return 0;
}

int bq_weights_check(struct bqd *bqd, char *why, size_t len)
{
	unsigned int queues = 0, raised = 0;
	struct bq_queue *bqq;
	int ret;

	lockdep_assert_held(&bqd->lock);
	ret = bq_weight_check_one(bqd, &bqd->oom_queue, &queues, &raised,
				  why, len);
	list_for_each_entry(bqq, &bqd->all_queues, all_node) {
		if (ret)
			return ret;
		ret = bq_weight_check_one(bqd, bqq, &queues, &raised, why, len);
	}
	if (ret)
		return ret;
	if (queues != bqd->weights.queues || raised != bqd->weights.raised) {
		snprintf(why, len, "weights count %u queues, %u raised; the queues say %u, %u",
			 bqd->weights.queues, bqd->weights.raised, queues,
			 raised);
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------ raising */

static void bq_wr_set(struct bqd *bqd, struct bq_queue *bqq,
		      enum bq_wr_kind kind, unsigned int coeff, u64 now_ns,
		      u64 duration_ns)
{
	if (!bqq->wr_kind && kind) {
		WRITE_ONCE(bqd->wr_queues, bqd->wr_queues + 1);
		list_add_tail(&bqq->wr_node, &bqd->wr_list);
	} else if (bqq->wr_kind && !kind) {
		WRITE_ONCE(bqd->wr_queues, bqd->wr_queues - 1);
		list_del_init(&bqq->wr_node);
	}
	if (kind)
		bqq->wr_starts++;
	bqq->wr_kind = kind;
	bqq->wr_coeff = coeff;
	bqq->wr_start_ns = now_ns;
	bqq->wr_duration_ns = duration_ns;
	bqq->wr_served = 0;
	bqq->entity.new_weight = bqq->base_weight * coeff;
	if (bqq->counted_weight)
		bq_weight_raised(bqd, bqq, kind != BQ_WR_NONE);
	trace_bfq_ng_raise(BQ_TRACE_DEV(bqd), bqq->pid, kind,
			   bqq->entity.new_weight, duration_ns);
}

void bq_wr_end(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	bqq->wr_interactive_end_ns = 0;
	if (bqq->wr_kind)
		bq_wr_set(bqd, bqq, BQ_WR_NONE, 1, 0, 0);
}

/*
 * A process left a shared queue (merge.c): its own queue resumes the
 * raising period it had when it joined, unless that period is over by now.
 * A resumed period is not a new start.
 */
void bq_wr_restore(struct bqd *bqd, struct bq_queue *bqq,
		   const struct bq_saved_state *saved, u64 now_ns)
{
	lockdep_assert_held(&bqd->lock);
	if (saved->wr_kind == BQ_WR_NONE) {
		bq_wr_end(bqd, bqq);
		return;
	}
	bq_wr_set(bqd, bqq, saved->wr_kind, saved->wr_coeff,
		  saved->wr_start_ns, saved->wr_duration_ns);
	bqq->wr_starts--;
	bqq->wr_interactive_end_ns = saved->wr_interactive_end_ns;
	bqq->wr_served = saved->wr_served;
	bq_wr_check(bqd, bqq, now_ns);
}

/* low_latency was turned off: no queue stays raised. */
void bq_wr_end_all(struct bqd *bqd)
{
	struct bq_queue *bqq, *tmp;

	lockdep_assert_held(&bqd->lock);
	list_for_each_entry_safe(bqq, tmp, &bqd->wr_list, wr_node)
		bq_wr_end(bqd, bqq);
}

/*
 * Only queues left at the default priority are raised: explicit ioprios
 * are the user's word on what a queue deserves.
 */
static bool bq_may_raise(const struct bqd *bqd, const struct bq_queue *bqq)
{
	return bqd->tun.low_latency && bq_sync(bqq) &&
	       bqq->ioprio == IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE,
						BQ_DEFAULT_LEVEL) &&
	       !test_bit(BQ_IN_LARGE_BURST, &bqq->flags) &&
	       !test_bit(BQ_OOM, &bqq->flags);
}

/* Raising is over: time spent, cap reached, or no longer allowed. */
static bool bq_wr_over(const struct bqd *bqd, const struct bq_queue *bqq,
		       u64 now_ns)
{
	u64 cap;

	if (!bq_may_raise(bqd, bqq) ||
	    !bq_ns_after(bqq->wr_start_ns + bqq->wr_duration_ns, now_ns, 0))
		return true;
	if (bqq->wr_kind != BQ_WR_INTERACTIVE || !bqd->peak_rate)
		return false;
	cap = div64_u64(bqd->peak_rate * div_u64(bqq->wr_duration_ns,
						 NSEC_PER_MSEC),
			MSEC_PER_SEC * BQ_WR_CAP_DIV);
	return bqq->wr_served >= min_t(u64, cap, BQ_WR_MAX_SERVED);
}

/*
 * At the end of each slot and at activation: end raising that is over.  A
 * soft real-time period that ends inside an interactive one goes back to it.
 */
void bq_wr_check(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns)
{
	bool was_softrt = bqq->wr_kind == BQ_WR_SOFTRT;
	u64 back_until = bqq->wr_interactive_end_ns;
	u64 served = bqq->wr_served;

	lockdep_assert_held(&bqd->lock);
	if (!bqq->wr_kind || !bq_wr_over(bqd, bqq, now_ns))
		return;
	bq_wr_end(bqd, bqq);
	/*
	 * Only soft real-time goes back: interactive raising that ran out of
	 * time or service is over, or the cap would restart with every slot.
	 */
	if (!was_softrt || back_until <= now_ns || !bq_may_raise(bqd, bqq))
		return;
	bq_wr_set(bqd, bqq, BQ_WR_INTERACTIVE, BQ_WR_COEFF, now_ns,
		  back_until - now_ns);
	bqq->wr_interactive_end_ns = back_until;
	bqq->wr_served = served;
}

/*
 * At an idle-to-busy switch: the rate of the cycle that just ended (busy
 * period then idle gap), averaged over cycles so that one late batch does
 * not make a fast queue look isochronous.
 */
static void bq_cycle_sample(struct bq_queue *bqq, u64 now_ns)
{
	u64 cycle = now_ns - bqq->busy_start_ns, rate;

	if (!bqq->busy_start_ns || !bq_ns_after(now_ns, bqq->busy_start_ns, 0))
		return;
	rate = div64_u64(bqq->busy_service * NSEC_PER_SEC, cycle);
	bqq->cycle_rate = bqq->cycle_samples ?
		(3 * bqq->cycle_rate + rate) / 4 : rate;
	bqq->cycle_samples++;
}

/*
 * Soft real-time: nothing in flight, not issuing back to back, and a cycle
 * rate under the threshold.  Called only after a real gap.
 */
static bool bq_softrt(const struct bq_queue *bqq)
{
	return !bqq->dispatched && !test_bit(BQ_IO_BOUND, &bqq->flags) &&
	       bqq->cycle_samples >= BQ_SOFTRT_MIN_CYCLES &&
	       bqq->cycle_rate < BQ_SOFTRT_RATE;
}

/* ------------------------------------------------------------- bursts */

/* The burst ended: its members are no longer listed. */
static void bq_burst_forget(struct bqd *bqd)
{
	struct bq_queue *bqq, *tmp;

	list_for_each_entry_safe(bqq, tmp, &bqd->burst_list, burst_node)
		list_del_init(&bqq->burst_node);
}

/* A queue was just created: does it join a burst, and is the burst large? */
static void bq_burst_track(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns)
{
	struct bq_queue *member, *tmp;

	if (bq_burst_new(&bqd->burst, now_ns))
		bq_burst_forget(bqd);
	if (bqd->burst.large) {
		set_bit(BQ_IN_LARGE_BURST, &bqq->flags);
		return;
	}
	list_add_tail(&bqq->burst_node, &bqd->burst_list);
	if (!bq_burst_grow(&bqd->burst))
		return;
	bqd->large_bursts++;
	trace_bfq_ng_burst(BQ_TRACE_DEV(bqd), bqq->pid, bqd->burst.size);
	list_for_each_entry_safe(member, tmp, &bqd->burst_list, burst_node) {
		set_bit(BQ_IN_LARGE_BURST, &member->flags);
		bq_wr_end(bqd, member);
		list_del_init(&member->burst_node);
	}
}

/* The queue is freed: it must not stay on the burst list or in the counts. */
void bq_heuristics_forget(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	if (!list_empty(&bqq->burst_node)) {
		list_del_init(&bqq->burst_node);
		bqd->burst.size--;
	}
	bq_weight_uncount(bqd, bqq);
	bq_wr_end(bqd, bqq);
	bq_waker_forget(bqd, bqq);
}

/**
 * bq_wr_activation - a queue with nothing queued got a request
 * @bqd: scheduler data, locked
 * @bqq: the queue
 * @now_ns: the request's arrival time
 *
 * Decides bursts and raising before the queue is timestamped, so a new
 * weight applies to this activation.
 */
void bq_wr_activation(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns)
{
	bool created = test_and_clear_bit(BQ_JUST_CREATED, &bqq->flags);
	bool long_idle, soft_rt, gap;

	lockdep_assert_held(&bqd->lock);
	if (created && bq_sync(bqq))
		bq_burst_track(bqd, bqq, now_ns);
	bq_wr_check(bqd, bqq, now_ns);
	long_idle = created || (bqq->last_idle_ns &&
				bq_ns_after(now_ns, bqq->last_idle_ns,
					    BQ_WR_MIN_IDLE_NS));
	/*
	 * Back within slice_idle of emptying (think time, the rest of a split
	 * request) is the same busy period; a longer gap ends a cycle.
	 */
	gap = !bqq->last_idle_ns ||
	      bq_ns_after(now_ns, bqq->last_idle_ns, bqd->tun.slice_idle_ns);
	soft_rt = false;
	if (gap) {
		bq_cycle_sample(bqq, now_ns);
		soft_rt = !created && bq_softrt(bqq);
		bqq->busy_start_ns = now_ns;
		bqq->busy_service = 0;
	}
	if (!bq_may_raise(bqd, bqq))
		return;
	if (long_idle) {
		u64 duration = (u64)bq_wr_duration_ms(bqd) * NSEC_PER_MSEC;

		bq_wr_set(bqd, bqq, BQ_WR_INTERACTIVE, BQ_WR_COEFF, now_ns,
			  duration);
		bqq->wr_interactive_end_ns = now_ns + duration;
	} else if (soft_rt) {
		if (bqq->wr_kind != BQ_WR_INTERACTIVE)
			bqq->wr_interactive_end_ns = 0;
		bq_wr_set(bqd, bqq, BQ_WR_SOFTRT, BQ_WR_SOFTRT_COEFF, now_ns,
			  BQ_SOFTRT_NS);
	}
}

void bq_heuristics_init(struct bqd *bqd)
{
	INIT_LIST_HEAD(&bqd->burst_list);
	INIT_LIST_HEAD(&bqd->wr_list);
}
