/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bfq-ng: Budget Fair Queueing for blk-mq, shared types.
 *
 * A request's path through the files:
 *   main.c      ops table; bio merge, insert, dispatch and completion entry
 *   queue.c     per-process queues: lookup/creation, ioprio, sorting, merges
 *   dispatch.c  which queue serves, for how long: budgets, expiry, idling,
 *               think time, seekiness, peak rate
 *   heuristics.c  weight raising (interactive, soft real-time), bursts of
 *               queue creations, the symmetry of active weights
 *   merge.c     cooperating processes: queues merged and split
 *   wf2q.c      the B-WF2Q+ engine, free of block-layer types
 *   cgroup.c    groups: the blkcg policy, cgroup files, group lifetime
 *   sysfs.c     tunables;  debugfs.c  state dumps and the invariant check
 *
 * Locking: one spinlock per device, bqd->lock, taken with interrupts off
 * (completions arrive in interrupt context).  It guards every field below
 * unless the field's comment says otherwise.
 */
#ifndef BFQNG_H
#define BFQNG_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/cgroup.h>
#include <linux/hrtimer.h>
#include <linux/ioprio.h>
#include <linux/iocontext.h>
#include <linux/spinlock.h>

#include "elevator.h"
#include "blk-mq-debugfs.h"
#include "wf2q.h"
#include "policy.h"

#define BQ_NAME			"bfq-ng"
#define BQ_COMPAT_NAME		"bfq"	/* drop-in mode (compat=1) */

static_assert(BQ_NR_LEVELS == IOPRIO_NR_LEVELS);

/*
 * rq->elv.priv[1]: BQ_RQ_LONE or nothing while the request is queued here;
 * flags in the low bits once the request is in the driver, the completion
 * time (ns) above them once it completed.  rq->fifo_time,
 * the FIFO deadline while the request is queued here, holds its size in
 * sectors (blk_rq_sectors() is 0 at completion) and a flag once it is in
 * the driver (dispatch.c: bq_rate_dispatch()).
 */
#define BQ_RQ_IN_DRIVER		1UL
#define BQ_RQ_INJECTED		2UL	/* dispatched while idling for another */
/* Queued, its queue's only request, in no sort tree, FIFO or hash (queue.c). */
#define BQ_RQ_LONE		4UL
#define BQ_RQ_FLAGS		(BQ_RQ_IN_DRIVER | BQ_RQ_INJECTED | BQ_RQ_LONE)

/* A kept slot goes on at its queue's next request within at least this. */
#define BQ_KEPT_MIN_NS			(2 * NSEC_PER_MSEC)

/* Budgets, in sectors. */
#define BQ_DEFAULT_MAX_BUDGET_SECTORS	(16 * 1024)
#define BQ_MIN_BUDGET_SECTORS		32

/* A queue with more than this many seeks in its last 32 requests is seeky. */
#define BQ_SEEKY_REQUESTS	4
/*
 * A request this close to where another queue goes makes them cooperate
 * (merge.c); a shared queue's dispatches seek when they jump further.
 */
#define BQ_COOP_DIST_SECTORS	8192
/*
 * A process leaves a shared queue after this many requests in a row this
 * far from where it goes: further than a pool of cooperating threads
 * spreads, near enough that one catches up with the other soon.
 */
#define BQ_APART_REQUESTS	4
#define BQ_APART_SECTORS	(4 * BQ_COOP_DIST_SECTORS)
/* A queue joins another only this soon after its first request (merge.c). */
#define BQ_COOP_WINDOW_NS	(200 * NSEC_PER_MSEC)

/* The IDLE class waits at most this long behind busy RT/BE queues. */
#define BQ_IDLE_CLASS_WAIT_NS		(200 * NSEC_PER_MSEC)

struct bqd;
struct bq_group;

enum bq_queue_flag {
	BQ_SYNC,		/* serves one process's synchronous I/O */
	BQ_IDLE_WINDOW,		/* think time short enough to idle for */
	BQ_IO_BOUND,		/* issues back to back (see bq_queue_got_request) */
	BQ_OOM,			/* the fallback queue, never freed */
	BQ_JUST_CREATED,	/* not activated yet: burst detection pending */
	BQ_IN_LARGE_BURST,	/* created in a large burst: not raised */
	BQ_SLOT_CLOCK_WAIT,	/* in service, no request completed yet */
	BQ_IDLED_IN_VAIN,	/* its last slot ended waiting for it */
	BQ_RESTORED,		/* got a process's state back after a split */
	BQ_STABLY_SHARED,	/* processes joined it by a stable merge */
};

enum bq_wr_kind {
	BQ_WR_NONE,
	BQ_WR_INTERACTIVE,	/* new or back after a long idle period */
	BQ_WR_SOFTRT,		/* periodic batches under the soft-rt rate */
	BQ_NR_WR_KINDS,
};

/* What a process did with a shared queue, for the coop tracepoint. */
enum bq_coop_event {
	BQ_COOP_MERGE,		/* joined a queue whose I/O is close */
	BQ_COOP_STABLE,		/* joined the queue created just before its own */
	BQ_COOP_SPLIT,		/* left a shared queue that turned seeky */
	BQ_COOP_LEAVE,		/* left it for another group or ioprio */
};

/*
 * Why a queue left service; drives budget feedback.  Kept in one table so
 * debugfs and tracepoints print the same names.
 */
/* A per-process (sync) or shared (async) queue of requests. */
struct bq_queue {
	struct bq_entity entity;
	struct bqd *bqd;
	struct bq_group *group;		/* holds a reference; NULL: the root */
	int ref;			/* requests, icq, engine, async table */
	unsigned long flags;		/* enum bq_queue_flag bits */
	unsigned short ioprio;		/* class and level in effect */
	pid_t pid;			/* creator, for debugfs */

	struct rb_root sort_list;	/* queued requests by sector */
	struct list_head fifo;		/* queued requests by arrival */
	struct request *next_rq;	/* what this queue would serve next */
	unsigned int queued;		/* requests in sort_list */
	unsigned int dispatched;	/* requests in the driver */

	u64 max_budget;			/* budget of the next slot, sectors */
	u64 slot_start_ns;		/* when the current slot started */
	unsigned long slot_deadline;	/* jiffies: budget timeout */

	sector_t last_pos;		/* end of the last request dispatched */
	u32 seek_history;		/* 1 bit per request: was it a seek */
	u64 last_completion_ns;		/* for think time */
	u64 ttime_mean_ns;
	u32 ttime_samples;
	u32 quick_arrivals;		/* requests in a row that came quickly */

	/* Heuristics (heuristics.c). */
	unsigned int base_weight;	/* from the ioprio */
	unsigned int wr_coeff;		/* weight = base_weight * wr_coeff */
	enum bq_wr_kind wr_kind;
	u64 wr_start_ns;
	u64 wr_duration_ns;
	u64 wr_interactive_end_ns;	/* interactive period under soft-rt */
	struct list_head wr_node;	/* on bqd->wr_list while raised */
	u64 wr_served;			/* sectors dispatched while raised */
	u64 last_idle_ns;		/* emptied with nothing in flight */
	u64 busy_start_ns;		/* last idle-to-busy switch */
	u64 busy_service;		/* sectors dispatched since then */
	u64 cycle_rate;			/* sectors/s over busy+idle cycles, avg */
	u32 cycle_samples;
	struct list_head burst_node;	/* on bqd->burst_list */
	struct list_head all_node;	/* on bqd->all_queues, for debugfs */
	unsigned int counted_weight;	/* in bqd->weights, 0 when not */
	bool counted_raised;		/* counted in bqd->weights.raised */

	/* Injection (dispatch.c): while idling for this queue, and for it. */
	unsigned int inject_limit;	/* injected requests in the driver, max */
	u64 inject_base_ns;		/* service time of a lone request */
	unsigned long inject_base_at;	/* jiffies: when it was last measured */
	unsigned long inject_lowered_at; /* jiffies: limit last lowered */
	u64 inject_debt;		/* sectors injected, charged at next slot */
	struct bq_queue *waker;		/* whose I/O wakes this one; a reference */
	const struct bq_queue *waker_candidate;	/* identity only, no reference */
	unsigned int waker_hits;	/* wake-ups in a row by the candidate */
	unsigned int wr_starts;		/* raising periods started, debugfs */

	/* Cooperation (merge.c). */
	struct rb_node pos_node;	/* on *pos_root, keyed by pos_key */
	struct rb_root *pos_root;	/* its group's position tree, or NULL */
	sector_t pos_key;		/* next_rq's sector when inserted */
	unsigned int procs;		/* icqs whose sync_queue this is */
	struct bq_io_cq *owner;		/* the icq, while procs == 1 and known */
	struct bq_queue *merge_into;	/* its processes move there; ref held */
	struct bq_queue *stable_with;	/* stable merge candidate; ref held */
	u64 created_ns;			/* first request's arrival */
};

/*
 * What a process takes back from a shared queue when it leaves it: the
 * state of the queue it had before it joined (merge.c).
 */
struct bq_saved_state {
	unsigned long flags;		/* BQ_IDLE_WINDOW, BQ_IO_BOUND, burst */
	u64 ttime_mean_ns;
	u32 ttime_samples;
	u32 quick_arrivals;
	enum bq_wr_kind wr_kind;
	unsigned int wr_coeff;
	u64 wr_start_ns;
	u64 wr_duration_ns;
	u64 wr_interactive_end_ns;
	u64 wr_served;
};

/*
 * Per process and device state, allocated zeroed by the core (icq_size).
 * Guarded by bqd->lock.
 */
struct bq_io_cq {
	struct io_cq icq;		/* must be first */
	struct bq_queue *sync_queue;	/* holds a reference */
	bool exited;			/* exit_icq ran: attach nothing more */
	bool stable;			/* stably merged: not split */
	bool saved_valid;		/* @saved holds a state to restore */
	u8 apart;			/* requests in a row away from it */
	/* Left a queue for the OOM queue: that queue's age, else 0. */
	u64 oom_left_created_ns;
	struct bq_saved_state saved;
};

struct bq_tunables {
	unsigned int back_seek_max_kib;
	unsigned int back_seek_penalty;
	unsigned int fifo_expire_ms[2];	/* [0] async, [1] sync */
	unsigned long fifo_expire_jiffies[2];	/* the same, in jiffies */
	unsigned int low_latency;
	unsigned int max_budget_sectors;	/* 0: auto */
	u64 slice_idle_ns;
	unsigned int strict_guarantees;
	unsigned int timeout_sync_jiffies;
	unsigned int injection;
	unsigned int queue_merging;		/* 0 disables merge.c */
};

/* Shared async queues of one group, by class and level. */
struct bq_async_table {
	struct bq_queue *queue[2][BQ_NR_LEVELS];	/* RT, BE */
	struct bq_queue *idle;
};

/* Weights (without raising) of the queues with I/O queued or in flight. */
#define BQ_WEIGHT_SLOTS		16
struct bq_weight_slot {
	unsigned int weight;
	unsigned int count;
};

struct bq_weight_counts {
	struct bq_weight_slot slot[BQ_WEIGHT_SLOTS];
	unsigned int distinct;		/* slots with a non-zero count */
	unsigned int overflow;		/* queues that found no slot */
	unsigned int queues;		/* queues counted, in all */
	unsigned int raised;		/* of which raised; read lockless */
};

/* Per device scheduler data: elevator_queue->elevator_data. */
struct bqd {
	spinlock_t lock;			/* guards this struct, see top */
	struct request_queue *queue;

	struct bq_sched root;			/* the root group's trees */
	struct bq_async_table async;		/* the root group's async queues */
	struct bq_queue oom_queue;		/* used when allocation fails */

	struct bq_queue *serving;		/* queue in service, or NULL */
	struct list_head dispatch;		/* at-head requests, served first */
	struct bq_queue *merge_queue;		/* bio_merge's queue, during it */
	struct rb_root pos_tree;		/* the root group's, see merge.c */
	struct bq_queue *last_created;		/* no reference: cleared at free */
	unsigned int queued;			/* requests held by the scheduler */
	unsigned int in_driver;			/* dispatched, not completed */
	unsigned int max_in_driver;		/* highest in_driver seen */
	bool idling;				/* waiting for @serving's next I/O */
	bool kept;				/* @serving empty, kept: see dispatch.c */
	u64 kept_ns;				/* when it emptied */
	bool work_ready;			/* read locklessly by has_work */
	struct hrtimer idle_timer;

	/* Injection while idling, see dispatch.c. */
	unsigned int injected_in_driver;	/* injected requests in the driver */
	struct request *probe_rq;		/* timed request of @serving */
	u64 probe_ns;				/* its dispatch time */
	unsigned int probe_injected;		/* injected requests in the driver then */
	struct bq_queue *last_completed;	/* sync; no reference: cleared when freed */
	u64 last_completed_ns;

	/* Peak rate estimation (sectors/s), see dispatch.c. */
	u64 peak_rate;				/* the larger of the two below */
	u64 dir_rate[2];			/* reads', writes' */
	u64 window_start_ns;
	u64 window_last_ns;			/* last completion */
	struct bq_rate_part {			/* a window's reads, writes */
		u64 sectors;
		u64 ns;				/* time up to their completions */
		unsigned int requests;
		unsigned int seq;		/* near the one before */
	} window[2];
	sector_t window_last_pos;		/* end of the last one dispatched */
	u64 max_budget;				/* in effect, sectors */

	unsigned int async_depth;		/* limit_depth for async/writes */
	unsigned int async_depth_raised;	/* for async while queues raised */
	bool rotational;
	bool hw_tag;				/* the device queues internally */
	unsigned int hw_tag_samples;
	unsigned int hw_tag_max;		/* max in_driver in this sample */

	/* Heuristics (heuristics.c). */
	struct bq_weight_counts weights;
	unsigned int wr_queues;			/* queues being raised */
	struct list_head wr_list;		/* and the list of them */
	struct list_head burst_list;		/* queues of the current burst */
	struct bq_burst burst;
	/* Groups with I/O queued or in flight in their own queues (root too). */
	unsigned int active_groups;
	unsigned int root_pending;		/* the root's such queues */

	/* Groups (cgroup.c). */
	struct list_head groups;		/* every live group */
	unsigned int live_groups;
	struct bq_group *root_group;		/* the root cgroup's, for stats */

	/* Counters, for debugfs and tests. */
	struct list_head all_queues;		/* every live queue but oom_queue */
	u64 large_bursts;
	u64 preemptions;
	unsigned int live_queues;
	unsigned int shared_queues;		/* ... used by two processes or more */
	u64 expirations[BQ_NR_EXPIRE_REASONS];
	u64 idle_started;
	u64 idle_timeouts;
	u64 kept_resumes;			/* kept slots that went on */
	u64 requeues;				/* requests requeued after dispatch */
	u64 empty_dispatches;			/* has_work said yes, none given */
	u64 injections;				/* requests injected */
	u64 inject_samples[2];			/* probes: [0] alone, [1] beside injected */
	u64 inject_lowered;			/* limits lowered by a slow probe */
	u64 wakers_found;			/* waker links made */
	u64 waker_injections;			/* requests injected from a waker */
	u64 coop_merges;			/* processes that joined a queue */
	u64 stable_merges;			/* ... by stable merge */
	u64 coop_splits;			/* left a shared queue gone seeky */
	u64 coop_leaves;			/* ... for another group or ioprio */
	u64 coop_aparts;			/* ... for requests away from it */
	u64 oom_fallbacks;			/* queue allocations that failed */

	struct bq_tunables tun;

	/*
	 * The peak rate's directions' last sequential windows (dispatch.c):
	 * here, not with the rest of the estimate, because 16 more bytes
	 * there put window_last_pos, written at each dispatch, in the line
	 * of async_depth, read at each submission without the lock (SSD
	 * rw5seq under TCG: medians 565 -> 494 MB/s, 16 runs each).
	 */
	u64 dir_sampled_ns[2];
};

static inline struct bq_queue *bq_queue_of(struct bq_entity *entity)
{
	return container_of(entity, struct bq_queue, entity);
}

static inline struct bq_io_cq *bq_icq(struct io_cq *icq)
{
	return container_of(icq, struct bq_io_cq, icq);
}

static inline struct bq_queue *bq_rq_queue(struct request *rq)
{
	return rq->elv.priv[0];
}

/* Only for a request queued here (see BQ_RQ_LONE). */
static inline bool bq_rq_lone(const struct request *rq)
{
	return (uintptr_t)rq->elv.priv[1] & BQ_RQ_LONE;
}

static inline bool bq_sync(const struct bq_queue *bqq)
{
	return test_bit(BQ_SYNC, &bqq->flags);
}

/* A sync queue no process uses any more: its last requests are in flight. */
static inline bool bq_orphaned(const struct bq_queue *bqq)
{
	return bq_sync(bqq) && !bqq->procs && !test_bit(BQ_OOM, &bqq->flags);
}

static inline bool bq_seeky(const struct bq_queue *bqq)
{
	return hweight32(bqq->seek_history) > BQ_SEEKY_REQUESTS;
}

static inline sector_t bq_dist(sector_t a, sector_t b)
{
	return a > b ? a - b : b - a;
}

/* Where @bqq goes next: its next request, or the end of its last one. */
static inline sector_t bq_next_pos(const struct bq_queue *bqq)
{
	return bqq->next_rq ? blk_rq_pos(bqq->next_rq) : bqq->last_pos;
}

/*
 * Whether @bic's process should leave @bqq, the queue it shares, for a
 * request at @pos.  A shared queue serves its lowest request first
 * (queue.c).  While it goes on sequentially, a process whose requests land
 * away from it is no part of that stream: it waits behind it and is served
 * on its FIFO deadlines only.  After BQ_APART_REQUESTS such requests in a
 * row it leaves, stably merged or not.  A seeky shared queue (processes
 * reading at random, stably merged) has no stream to be left behind by.
 */
static inline bool bq_coop_apart(const struct bq_queue *bqq,
				 struct bq_io_cq *bic, sector_t pos)
{
	if (bq_seeky(bqq) ||
	    bq_dist(bq_next_pos(bqq), pos) <= BQ_APART_SECTORS) {
		bic->apart = 0;
		return false;
	}
	return ++bic->apart >= BQ_APART_REQUESTS;
}

/* queue.c */
extern const struct bq_engine_ops bq_engine_ops;
int bq_queue_cache_init(void);
void bq_queue_cache_exit(void);
int bq_queues_init(struct bqd *bqd);
void bq_queues_exit(struct bqd *bqd);
struct bq_queue *bq_queue_for_rq(struct bqd *bqd, struct request *rq);
struct io_cq *bq_bio_icq(struct bqd *bqd, struct bio *bio);
struct io_cq *bq_get_icq(struct request_queue *q);
bool bq_icq_may_merge(struct io_cq *icq);
struct bq_queue *bq_queue_for_bio(struct bqd *bqd, struct io_cq *icq,
				  struct bio *bio);
void bq_free_queue(struct bq_queue *bqq);
void bq_add_request(struct bq_queue *bqq, struct request *rq);
void __bq_remove_request(struct bq_queue *bqq, struct request *rq);
void bq_file_lone(struct bq_queue *bqq);
void bq_exit_icq(struct io_cq *icq);
void bq_async_table_drop(struct bq_async_table *table);
int bq_request_merge(struct request_queue *q, struct request **req,
		     struct bio *bio);
void bq_request_merged(struct request_queue *q, struct request *req,
		       enum elv_merge type);
void bq_requests_merged(struct request_queue *q, struct request *rq,
			struct request *next);
bool bq_allow_merge(struct request_queue *q, struct request *rq,
		    struct bio *bio);

/* dispatch.c */
void bq_dispatch_init(struct bqd *bqd);
void bq_dispatch_exit(struct bqd *bqd);
void bq_end_kept(struct bqd *bqd);
void bq_queue_got_request(struct bqd *bqd, struct bq_queue *bqq,
			  struct request *rq);
struct request *bq_dispatch(struct bqd *bqd, u64 now_ns);
void bq_queue_lost_request(struct bqd *bqd, struct bq_queue *bqq);
void bq_queue_exited(struct bqd *bqd, struct bq_queue *bqq);
int bq_serving_check(struct bqd *bqd, char *why, size_t len);
void bq_waker_forget(struct bqd *bqd, struct bq_queue *bqq);
void bq_release_request(struct request *rq, bool requeue);
void __bq_update_work_ready(struct bqd *bqd);
void __bq_decide_idling(struct bqd *bqd);
void bq_update_max_budget(struct bqd *bqd);
extern const char *const bq_expire_names[BQ_NR_EXPIRE_REASONS];

/*
 * Recompute bqd->work_ready, which has_work reads without the lock.  The
 * usual cases need no call: nothing queued (no work), or requests queued
 * while the device is not held idle for anyone and no strict guarantee
 * applies (work).
 */
static inline void bq_update_work_ready(struct bqd *bqd)
{
	lockdep_assert_held(&bqd->lock);
	if (!bqd->queued && list_empty(&bqd->dispatch))
		WRITE_ONCE(bqd->work_ready, false);
	else if (!bqd->idling && !bqd->tun.strict_guarantees)
		WRITE_ONCE(bqd->work_ready, true);
	else
		__bq_update_work_ready(bqd);
}

/*
 * The queue in service has requests in the driver and none queued, and
 * others have: decide now, as the next dispatch would (bq_serving_queue()),
 * whether the device waits for it, so that has_work does not let that
 * dispatch in only to get nothing.  Its completion decides again
 * (bq_emptied()).  Called after each dispatch and insert batch: the usual
 * case (the queue in service has requests, or nothing else is queued)
 * costs no call.
 */
static inline void bq_decide_idling(struct bqd *bqd)
{
	lockdep_assert_held(&bqd->lock);
	if (bqd->serving && !bqd->idling && bqd->queued &&
	    !bqd->serving->queued)
		__bq_decide_idling(bqd);
}

/* heuristics.c */
extern const char *const bq_wr_names[BQ_NR_WR_KINDS];
void bq_heuristics_init(struct bqd *bqd);
void bq_heuristics_forget(struct bqd *bqd, struct bq_queue *bqq);
void bq_wr_activation(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns);
void bq_wr_check(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns);
void bq_wr_end(struct bqd *bqd, struct bq_queue *bqq);
void bq_wr_end_all(struct bqd *bqd);
unsigned int bq_wr_duration_ms(const struct bqd *bqd);
void __bq_weight_count(struct bqd *bqd, struct bq_queue *bqq);
void bq_weight_uncount(struct bqd *bqd, struct bq_queue *bqq);
int bq_weights_check(struct bqd *bqd, char *why, size_t len);
void bq_wr_restore(struct bqd *bqd, struct bq_queue *bqq,
		   const struct bq_saved_state *saved, u64 now_ns);

/* The queue emptied with nothing in flight. */
static inline void bq_wr_went_idle(struct bqd *bqd, struct bq_queue *bqq,
				   u64 now_ns)
{
	lockdep_assert_held(&bqd->lock);
	bqq->last_idle_ns = now_ns;
}

/*
 * The queue has I/O queued or in flight: count its weight, and whether it
 * is raised (heuristics.c).  Most calls find both counted already.
 */
static inline void bq_weight_count(struct bqd *bqd, struct bq_queue *bqq)
{
	bool raised = bqq->wr_kind != BQ_WR_NONE;

	lockdep_assert_held(&bqd->lock);
	if (bqq->counted_weight == bqq->base_weight &&
	    bqq->counted_raised == raised)
		return;
	__bq_weight_count(bqd, bqq);
}

/* merge.c */
void __bq_pos_update(struct bqd *bqd, struct bq_queue *bqq);

/*
 * Re-key @bqq on its position tree after its next request changed.  A queue
 * off the tree that has nothing queued or seeks stays off (bq_pos_wanted()):
 * no call for it, which is most requests of a random reader.
 */
static inline void bq_pos_update(struct bqd *bqd, struct bq_queue *bqq)
{
	if (!bqq->pos_root && (!bqq->next_rq || bq_seeky(bqq)))
		return;
	__bq_pos_update(bqd, bqq);
}

/* @rq leaves @bqq: dispatched, merged away, or requeued before dispatch. */
static inline void bq_remove_request(struct bq_queue *bqq, struct request *rq)
{
	lockdep_assert_held(&bqq->bqd->lock);
	if (!bq_rq_lone(rq)) {
		__bq_remove_request(bqq, rq);
		return;
	}
	/* In none of the queue's structures, nor q->last_merge (queue.c). */
	rq->elv.priv[1] = NULL;
	bqq->queued = 0;
	bqq->next_rq = NULL;
	bq_pos_update(bqq->bqd, bqq);
}

void bq_icq_attach(struct bqd *bqd, struct bq_io_cq *bic,
		   struct bq_queue *bqq);
void bq_icq_detach(struct bqd *bqd, struct bq_io_cq *bic);
int bq_coop_check(struct bqd *bqd, char *why, size_t len);
struct bq_queue *bq_coop_follow(struct bqd *bqd, struct bq_io_cq *bic,
				struct bq_group *bqg, unsigned short ioprio,
				u64 now_ns, struct bq_queue **left);
struct bq_queue *bq_coop_move_out(struct bqd *bqd, struct bq_io_cq *bic);
struct bq_queue *__bq_coop_rq(struct bqd *bqd, struct bq_io_cq *bic,
			      struct request *rq);
struct bq_queue *bq_coop_bio(struct bqd *bqd, struct bq_queue *bqq,
			     struct bio *bio);
void bq_coop_created(struct bqd *bqd, struct bq_io_cq *bic,
		     struct bq_queue *bqq, struct bq_queue *from, u64 now_ns);
void bq_coop_forget(struct bqd *bqd, struct bq_queue *bqq);

/* sysfs.c */
extern struct elv_fs_entry bq_sysfs_attrs[];
void bq_tunables_init(struct bq_tunables *tun);

/* cgroup.c; without CONFIG_BLK_CGROUP every queue is in the root group. */
#if IS_ENABLED(CONFIG_BLK_CGROUP)
int bq_cgroup_register(const char *prefix);
void bq_cgroup_unregister(void);
int bq_groups_init(struct bqd *bqd);
void bq_groups_exit(struct bqd *bqd);
struct bq_group *bq_group_for_rq(struct bqd *bqd, struct request *rq);
struct bq_group *bq_group_for_bio(struct bqd *bqd, struct bio *bio);
struct bq_sched *bq_group_sched(struct bqd *bqd, struct bq_group *bqg);
struct bq_async_table *bq_group_async(struct bqd *bqd, struct bq_group *bqg);
struct rb_root *bq_group_pos_tree(struct bqd *bqd, struct bq_group *bqg);
void bq_group_get(struct bq_group *bqg);
void bq_group_put(struct bqd *bqd, struct bq_group *bqg);
void bq_group_acquired(struct bq_entity *entity);
void bq_group_released(struct bq_entity *entity);
void bq_group_pending(struct bqd *bqd, struct bq_group *bqg, int delta);
void __bq_group_served(struct bqd *bqd, struct bq_group *bqg,
		       struct request *rq);

/* Counts for the v1 files; with io on the v2 hierarchy, a patched jump. */
static inline void bq_group_served(struct bqd *bqd, struct bq_group *bqg,
				   struct request *rq)
{
	if (!cgroup_subsys_on_dfl(io_cgrp_subsys))
		__bq_group_served(bqd, bqg, rq);
}

int bq_groups_check(struct bqd *bqd, char *why, size_t len);
void bq_group_show(struct seq_file *m, struct list_head *node);
#else
static inline int bq_cgroup_register(const char *prefix) { return 0; }
static inline void bq_cgroup_unregister(void) { }
static inline int bq_groups_init(struct bqd *bqd) { return 0; }
static inline void bq_groups_exit(struct bqd *bqd) { }
static inline struct bq_group *bq_group_for_rq(struct bqd *bqd,
					       struct request *rq)
{
	return NULL;
}

static inline struct bq_group *bq_group_for_bio(struct bqd *bqd,
						struct bio *bio)
{
	return NULL;
}

static inline struct bq_sched *bq_group_sched(struct bqd *bqd,
					      struct bq_group *bqg)
{
	return &bqd->root;
}

static inline struct bq_async_table *bq_group_async(struct bqd *bqd,
						    struct bq_group *bqg)
{
	return &bqd->async;
}

static inline struct rb_root *bq_group_pos_tree(struct bqd *bqd,
						struct bq_group *bqg)
{
	return &bqd->pos_tree;
}

static inline void bq_group_get(struct bq_group *bqg) { }
static inline void bq_group_put(struct bqd *bqd, struct bq_group *bqg) { }
static inline void bq_group_acquired(struct bq_entity *entity) { }
static inline void bq_group_released(struct bq_entity *entity) { }

static inline void bq_group_pending(struct bqd *bqd, struct bq_group *bqg,
				    int delta)
{
	bqd->root_pending += delta;
	bqd->active_groups = !!bqd->root_pending;
}

static inline void bq_group_served(struct bqd *bqd, struct bq_group *bqg,
				   struct request *rq) { }
static inline int bq_groups_check(struct bqd *bqd, char *why, size_t len)
{
	return 0;
}
#endif

/* debugfs.c */
extern const struct blk_mq_debugfs_attr bq_queue_debugfs_attrs[];

/*
 * Helpers of every request's path, inline: each call out of the hot path
 * costs, and most of these are a test and an increment.
 */
static inline void bq_get_queue(struct bq_queue *bqq)
{
	lockdep_assert_held(&bqq->bqd->lock);
	bqq->ref++;
}

/* The OOM queue is part of bqd and never freed. */
static inline void bq_put_queue(struct bq_queue *bqq)
{
	lockdep_assert_held(&bqq->bqd->lock);
	if (--bqq->ref > 0 || test_bit(BQ_OOM, &bqq->flags))
		return;
	bq_free_queue(bqq);
}

/*
 * The request @bqq serves next: an expired FIFO head, else the nearest.
 * A seeky queue of stably merged processes (reading at random: they stay
 * together) has no stream to keep together, and nearest or lowest first
 * would serve a process reading further out on its FIFO deadlines only:
 * it serves in arrival order.  The processes of a seeky queue shared by
 * early merge leave it at their next request.
 */
static inline struct request *bq_next_request(struct bq_queue *bqq)
{
	struct request *oldest;

	lockdep_assert_held(&bqq->bqd->lock);
	/* Nothing queued, or one request, kept off the FIFO (queue.c). */
	if (list_empty(&bqq->fifo))
		return bqq->next_rq;
	oldest = list_first_entry(&bqq->fifo, struct request, queuelist);
	if (time_after_eq(jiffies, (unsigned long)oldest->fifo_time) ||
	    (bqq->procs > 1 && test_bit(BQ_STABLY_SHARED, &bqq->flags) &&
	     bq_seeky(bqq)))
		return oldest;
	return bqq->next_rq;
}

/**
 * bq_queue_will_get - @rq is about to be added to @bqq
 * @bqd: scheduler data, locked
 * @bqq: the request's queue
 * @rq: the request, not yet added
 *
 * The kept queue's slot goes on if @rq is its own and came within
 * slice_idle of its emptying, or BQ_KEPT_MIN_NS when slice_idle is shorter
 * (a plug's cached time may precede it); else it ends, before @rq is
 * added, as it would have when the queue emptied (dispatch.c).  Keeping
 * holds nothing back, so it goes on with slice_idle=0 too, which turns
 * off idling, not the keeping of a lone process's slot between two of its
 * requests.
 */
static inline void bq_queue_will_get(struct bqd *bqd, struct bq_queue *bqq,
				     const struct request *rq)
{
	u64 window = max_t(u64, bqd->tun.slice_idle_ns, BQ_KEPT_MIN_NS);

	lockdep_assert_held(&bqd->lock);
	if (bqd->kept && (bqq != bqd->serving ||
			  rq->start_time_ns > bqd->kept_ns + window))
		bq_end_kept(bqd);
}

/*
 * Is @a more than @d ns after @b?  Arrival times come from the requests'
 * allocation and may precede a completion recorded later: such a "negative"
 * interval is no interval at all.
 */
static inline bool bq_ns_after(u64 a, u64 b, u64 d)
{
	return (s64)(a - b) > (s64)d;
}

/**
 * bq_coop_rq - the queue a process's new request goes to
 * @bqd: scheduler data, locked
 * @bic: the process's icq, with its sync queue resolved (bq_coop_follow)
 * @rq: the request
 *
 * The process may join another queue here (merge.c).  Most are past the
 * window for an early merge and have no stable candidate: they stay, with
 * no call.
 */
static inline struct bq_queue *bq_coop_rq(struct bqd *bqd,
					  struct bq_io_cq *bic,
					  struct request *rq)
{
	struct bq_queue *bqq = bic->sync_queue;

	lockdep_assert_held(&bqd->lock);
	if (!bqq->stable_with &&
	    bq_ns_after(rq->start_time_ns, bqq->created_ns, BQ_COOP_WINDOW_NS))
		return bqq;
	return __bq_coop_rq(bqd, bic, rq);
}

/* Whether every active queue has one weight and one group (heuristics.c). */
static inline bool bq_symmetric(const struct bqd *bqd)
{
	return bqd->weights.distinct <= 1 && !bqd->weights.overflow &&
	       bqd->active_groups <= 1;
}

/*
 * The share of each tag word async requests may take now (limit_depth,
 * lockless): half of it while a raised queue has I/O queued or in flight,
 * or is in service.  A raised queue gone idle does not count: its raising
 * ends only at its next activation, and its process may live on idle.
 */
static inline unsigned int bq_async_depth_now(const struct bqd *bqd)
{
	return READ_ONCE(bqd->weights.raised) ?
	       READ_ONCE(bqd->async_depth_raised) : READ_ONCE(bqd->async_depth);
}

#endif /* BFQNG_H */
