/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bfq-ng policy arithmetic: how an ioprio maps to a class and a weight, how
 * a queue's budget follows the way its slots end, and when new queues form
 * a large burst.  Pure functions of numbers, apart from the block layer
 * (no block-layer include), so that the engine's KUnit suite tests them
 * directly (tests/wf2q_kunit.c).
 */
#ifndef BFQ_NG_POLICY_H
#define BFQ_NG_POLICY_H

#include <linux/kernel.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <uapi/linux/ioprio.h>

#include "wf2q.h"

/* ioprio levels map to weights as mainline: (8 - level) * 10. */
#define BQ_NR_LEVELS		8
#define BQ_WEIGHT_PER_LEVEL	10
#define BQ_DEFAULT_LEVEL	4

/* Why a queue left service. */
enum bq_expire_reason {
	BQ_EXP_BUDGET,		/* used its budget: grow it */
	BQ_EXP_TIMEOUT,		/* slot lasted timeout_sync: grow it */
	BQ_EXP_TOO_IDLE,	/* idled in vain: shrink */
	BQ_EXP_EMPTY,		/* emptied, no idling: budget = what it used */
	BQ_EXP_PREEMPTED,	/* made way for another queue */
	BQ_NR_EXPIRE_REASONS,
};

/* Class and level actually used: NONE means BE at the default level. */
static inline unsigned short bq_effective_ioprio(unsigned short ioprio)
{
	unsigned int level = IOPRIO_PRIO_LEVEL(ioprio);

	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		return IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, level);
	case IOPRIO_CLASS_BE:
		return IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, level);
	case IOPRIO_CLASS_IDLE:
		return IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, BQ_NR_LEVELS - 1);
	default:
		return IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, BQ_DEFAULT_LEVEL);
	}
}

/* Weight of an effective ioprio (see bq_effective_ioprio()). */
static inline unsigned int bq_ioprio_weight(unsigned short ioprio)
{
	return (BQ_NR_LEVELS - IOPRIO_PRIO_LEVEL(ioprio)) * BQ_WEIGHT_PER_LEVEL;
}

static inline enum bq_class bq_ioprio_class(unsigned short ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		return BQ_CLASS_RT;
	case IOPRIO_CLASS_IDLE:
		return BQ_CLASS_IDLE;
	default:
		return BQ_CLASS_BE;
	}
}

/**
 * bq_budget_feedback - a sync queue's next budget, by why its slot ended
 * @budget: its budget so far
 * @reason: why it left service
 * @served: sectors it moved in the slot
 * @io_bound: it used to keep requests queued (a too-idle slot is a pause)
 * @lo: smallest budget
 * @hi: largest budget (max_budget)
 *
 * A queue that used its budget, or ran out of time with requests left, gets
 * twice as much; one that idled in vain gets half (at least what it used),
 * unless it is I/O-bound; one that emptied gets what it used.
 */
static inline u64 bq_budget_feedback(u64 budget, enum bq_expire_reason reason,
				     u64 served, bool io_bound, u64 lo, u64 hi)
{
	switch (reason) {
	case BQ_EXP_BUDGET:
	case BQ_EXP_TIMEOUT:
		budget *= 2;
		break;
	case BQ_EXP_TOO_IDLE:
		if (!io_bound)
			budget = max(served, budget / 2);
		break;
	case BQ_EXP_EMPTY:
		budget = served;
		break;
	default:
		break;
	}
	return min_t(u64, max_t(u64, budget, lo), hi);
}

/*
 * Bursts: queues created within BQ_BURST_GAP_NS of one another form a
 * burst; one of BQ_LARGE_BURST queues is large (see heuristics.c).
 */
#define BQ_BURST_GAP_NS		(180 * NSEC_PER_MSEC)
#define BQ_LARGE_BURST		8

struct bq_burst {
	u64 last_ns;		/* creation of the burst's latest queue */
	unsigned int size;	/* members counted (the caller lists them) */
	bool large;
};

/*
 * A queue is created at @now_ns.  Returns true if it starts a new burst:
 * the caller then forgets the old one's members.
 */
static inline bool bq_burst_new(struct bq_burst *burst, u64 now_ns)
{
	bool ended = (s64)(now_ns - burst->last_ns) > (s64)BQ_BURST_GAP_NS;

	if (ended) {
		burst->size = 0;
		burst->large = false;
	}
	if ((s64)(now_ns - burst->last_ns) > 0)
		burst->last_ns = now_ns;
	return ended;
}

/*
 * Count a new member of a burst that is not large yet.  Returns true if it
 * makes the burst large: the caller then marks every member.
 */
static inline bool bq_burst_grow(struct bq_burst *burst)
{
	if (++burst->size < BQ_LARGE_BURST)
		return false;
	burst->large = true;
	return true;
}

#endif /* BFQ_NG_POLICY_H */
