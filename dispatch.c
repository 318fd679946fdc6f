// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng dispatch: which queue is in service and for how long.
 *
 * One queue at a time is in service.  It is served until it has used its
 * budget (sectors), its slot has lasted timeout_sync, or it has emptied.
 * When it empties and is likely to issue again soon (short think time),
 * the device is held for it for up to slice_idle, counted from the
 * completion of its last request, so that a process issuing synchronous
 * I/O one request at a time is not preempted between two requests.
 *
 * At expiry the queue's next budget is adjusted by the reason it left, and
 * a queue that is seeky or slow (it held the device but moved sectors at
 * under half the peak rate) is charged for the time it held the device
 * rather than the sectors it moved.
 *
 * While the device is held for the queue in service, requests of another
 * busy queue may be dispatched ("injected") to use the time, as long as
 * the queue waited for does not pay for them in latency: see bq_inject().
 *
 * A queue that empties when not worth idling for, with nothing else
 * queued, is "kept" in service rather than expired: if its next request
 * comes within slice_idle (at least BQ_KEPT_MIN_NS, slice_idle=0 included)
 * and before any other queue's, its slot goes on, as if idled for, without
 * the expiry, activation and selection that would otherwise cost every
 * request of a lone process issuing one request at a time.  Anything else
 * ends the slot as if it had ended when the queue emptied (bq_end_kept()).
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>

#include "elevator.h"
#include "bfq-ng.h"
#include "trace.h"

/*
 * Device-side queueing is assumed when, over 32 dispatches made with enough
 * requests at hand, the driver held 4 or more at once (the one dispatched
 * included).
 */
#define BQ_HW_TAG_SAMPLES		32
#define BQ_HW_TAG_DEPTH			4
/* A backlogged slot moving sectors at under 1/this of the peak rate is slow. */
#define BQ_SLOW_RATE_DIV		2
#define BQ_SLOW_MIN_NS			(20 * NSEC_PER_MSEC)
/* Longest wait for a slot's first completion, in timeout_sync beyond grace. */
#define BQ_SLOT_WAITS			4
/*
 * A queue whose last 16 requests each came within 3 slice_idle of its
 * previous completion, or while it still had I/O pending, is I/O-bound.
 */
#define BQ_IO_BOUND_ARRIVALS		16
#define BQ_QUICK_ARRIVAL_IDLES		3
/* Think time known (samples) and this many slice_idle long: idling is vain. */
#define BQ_TTIME_MIN_SAMPLES		8
#define BQ_TTIME_HOPELESS		2
/* A raised queue is waited for at least this long (bq_arm_idle_timer). */
#define BQ_WR_IDLE_NS			(20 * NSEC_PER_MSEC)
/* A request further than this from the previous one is a seek. */
#define BQ_SEEK_DIST_SECTORS		800
/* Peak rate observation window: at least this long and this many requests. */
#define BQ_RATE_WINDOW_NS		(100 * NSEC_PER_MSEC)
#define BQ_RATE_WINDOW_REQUESTS		32
#define BQ_RATE_WINDOW_MAX_NS		(1000 * NSEC_PER_MSEC)
#define BQ_RATE_WINDOW_MIN_REQUESTS	4
/* A window in which the device was empty this long is not a peak sample. */
#define BQ_RATE_GAP_NS			(20 * NSEC_PER_MSEC)
/* A direction's estimate without a sequential window this long is stale. */
#define BQ_RATE_STALE_NS		(2000 * NSEC_PER_MSEC)
/*
 * Injection: at most this many injected requests in the driver; a limit
 * lowered to zero is tried again at one after a second; a base service
 * time older than two seconds is measured again before more injection.
 */
/*
 * Waker detection: a sync queue that, three times in a row, was waited for
 * in vain (its slot ended with the idling timeout) and then got its next
 * request within 4 ms of a completion that left one same other queue with
 * nothing to do, that queue still quiet, is that queue's wakee: it was
 * waiting for that queue's I/O, which the idling held back.  A busy
 * neighbour, whose completions leave it with more to do, is not a waker.
 */
#define BQ_WAKER_HITS			3
#define BQ_WAKER_WINDOW_NS		(4 * NSEC_PER_MSEC)
/* A queue back within this many slice_idle of its last completion resumes. */
#define BQ_HOLE_IDLES			3
#define BQ_INJECT_MAX			16
#define BQ_INJECT_RETRY_MS		1000
#define BQ_INJECT_BASE_AGE_MS		2000

const char *const bq_expire_names[BQ_NR_EXPIRE_REASONS] = {
	[BQ_EXP_BUDGET]		= "budget",
	[BQ_EXP_TIMEOUT]	= "timeout",
	[BQ_EXP_TOO_IDLE]	= "too_idle",
	[BQ_EXP_EMPTY]		= "empty",
	[BQ_EXP_PREEMPTED]	= "preempted",
};

/*
 * Waiting for @bqq's next request pays in throughput: a sequential reader
 * with a short think time, whose locality a disk or a device without
 * internal queueing rewards.
 */
static bool bq_idling_boosts_throughput(const struct bqd *bqd,
					const struct bq_queue *bqq)
{
	bool nonrot = blk_queue_nonrot(bqd->queue);

	return test_bit(BQ_IDLE_WINDOW, &bqq->flags) && !bq_seeky(bqq) &&
	       !(bqd->hw_tag && nonrot) &&
	       !(test_bit(BQ_IN_LARGE_BURST, &bqq->flags) &&
		 (bqd->hw_tag || nonrot));
}

/*
 * Whether to hold the device for the in-service queue once it empties:
 * because it pays in throughput (a sequential reader with a short think
 * time, whose locality a disk or a device without internal queueing
 * rewards), or because the queue's share needs it (the active weights
 * differ) and its think time leaves hope.  Queues of a large burst are not
 * idled for on devices that queue internally or do not seek: there, serving
 * many parallel readers at once is what gives throughput.  On a disk that
 * seeks and does not queue, a sequential reader is worth waiting for.
 */
static bool bq_should_idle(const struct bqd *bqd, const struct bq_queue *bqq)
{
	bool for_throughput, for_share, hopeless;

	if (!bq_sync(bqq) || bqq->entity.class == BQ_CLASS_IDLE ||
	    !bqd->tun.slice_idle_ns || test_bit(BQ_OOM, &bqq->flags) ||
	    !bqq->procs)
		return false;
	if (bqd->tun.strict_guarantees)
		return true;
	/*
	 * The process waited for needs a scheduler tag for its next request;
	 * with every other tag held by requests here, it may well not get one
	 * before the wait ends (a disk without NCQ has only two).
	 */
	if (bqd->queued + bqd->in_driver + 1 >= bqd->queue->nr_requests)
		return false;
	for_throughput = bq_idling_boosts_throughput(bqd, bqq);
	/*
	 * A raised queue is never hopeless: its think time is an application's
	 * CPU work between reads, long on average on a slow or busy CPU but
	 * short between most reads, and each read not waited for waits behind
	 * another queue's request and a seek back instead.
	 */
	hopeless = !bqq->wr_kind &&
		   bqq->ttime_samples >= BQ_TTIME_MIN_SAMPLES &&
		   bqq->ttime_mean_ns > BQ_TTIME_HOPELESS * bqd->tun.slice_idle_ns;
	/*
	 * A raised queue's share needs idling as soon as an unraised queue
	 * has I/O; beside raised ones only, idling would favour none of them.
	 * Raising does not count in the symmetry (heuristics.c): random
	 * readers waited for because an application is raised beside them
	 * would each hold the device for a whole slot, and the application,
	 * once its budget is used, would wait for those slots.
	 */
	for_share = !hopeless &&
		    (!bq_symmetric(bqd) ||
		     (bqq->wr_kind &&
		      bqd->weights.raised < bqd->weights.queues));
	return for_throughput || for_share;
}

/*
 * Whether another queue's request may be injected now: the device is held
 * for the queue in service, something else is queued, fewer injected
 * requests are in the driver than the queue's limit, and its base service
 * time is fresh enough to tell whether they delay it.  Only on devices
 * that queue internally: with one request at a time, an injected request
 * is always in front of the next one of the queue waited for.
 *
 * Never for the only raised queue while its think time is short: it is an
 * application starting (or a player), raised for the latency of reads that
 * come one after the other, and each of them would find the injected
 * requests ahead of it in the device (on the SSD profile under 10 random
 * readers, start-up took 1.3-3.7x as long as with injection=0).  With other
 * raised queues busy, injection goes on as for any queue.
 */
static bool bq_may_inject(const struct bqd *bqd)
{
	const struct bq_queue *serving = bqd->serving;

	if (!bqd->idling || !bqd->queued || !bqd->tun.injection ||
	    !bqd->hw_tag || bqd->tun.strict_guarantees)
		return false;
	if (serving->wr_kind && bqd->weights.raised <= 1 &&
	    test_bit(BQ_IDLE_WINDOW, &serving->flags))
		return false;
	return serving->inject_base_ns &&
	       bqd->injected_in_driver < serving->inject_limit &&
	       time_before(jiffies, serving->inject_base_at +
			   msecs_to_jiffies(BQ_INJECT_BASE_AGE_MS));
}

/*
 * While the device is held for a queue, its waker's requests go first,
 * on any device: they are what the queue waits for (a process in fsync
 * waits for the journal thread's commit; a pipeline stage for the one
 * before).  Without this, each of them would wait out the idling.
 */
static struct bq_queue *bq_waker_ready(const struct bqd *bqd)
{
	struct bq_queue *waker = bqd->serving->waker;

	if (!waker || !waker->queued || !bqd->tun.injection ||
	    bqd->tun.strict_guarantees)
		return NULL;
	return waker;
}

/* A queue bq_inject() may take a request from now, other than a waker. */
static struct bq_entity *bq_injectable(const struct bqd *bqd)
{
	return bq_may_inject(bqd) ? bq_peek_near(&bqd->serving->entity) : NULL;
}

/*
 * has_work must not let in a call for a request that gets none: blk-mq
 * then runs the queue again 3 ms later, and again, for as long as the
 * device is held idle (with only IDLE-class requests queued, say, which
 * are never injected).
 */
void __bq_update_work_ready(struct bqd *bqd)
{
	bool ready;

	lockdep_assert_held(&bqd->lock);
	ready = !list_empty(&bqd->dispatch) ||
		(bqd->queued &&
		 (!bqd->idling || bq_waker_ready(bqd) || bq_injectable(bqd)) &&
		 !(bqd->tun.strict_guarantees && bqd->in_driver));
	WRITE_ONCE(bqd->work_ready, ready);
}

/* The slow half of bq_decide_idling(), which see. */
void __bq_decide_idling(struct bqd *bqd)
{
	struct bq_queue *bqq = bqd->serving;

	lockdep_assert_held(&bqd->lock);
	if (bqq->dispatched && bq_should_idle(bqd, bqq))
		bqd->idling = true;
}

/* max_budget in effect: the tunable, or peak rate times timeout_sync. */
void bq_update_max_budget(struct bqd *bqd)
{
	u64 budget;

	if (bqd->tun.max_budget_sectors) {
		budget = bqd->tun.max_budget_sectors;
	} else if (bqd->peak_rate) {
		budget = div_u64(bqd->peak_rate *
				 jiffies_to_msecs(bqd->tun.timeout_sync_jiffies),
				 MSEC_PER_SEC);
		budget = clamp_t(u64, budget, 4 * BQ_MIN_BUDGET_SECTORS,
				 16 * BQ_DEFAULT_MAX_BUDGET_SECTORS);
	} else {
		budget = BQ_DEFAULT_MAX_BUDGET_SECTORS;
	}
	bqd->max_budget = budget;
}

/*
 * Peak rate: sectors completed over a window of at least 100 ms and 32
 * requests (or 1 s and 4 requests) in which the device never stayed
 * empty.  Counted at completion, not dispatch: a window closed by the
 * dispatch of a 512 KiB read would count sectors that take the device half
 * a second more on a slow disk.  Faster samples pull the estimate up
 * quickly, slower ones pull it down by a quarter of the difference, so a
 * burst of hits in the disk's read-ahead cache (a reader starting where the
 * partition scan left the disk reading) is forgotten within a few
 * windows.  A window of mostly seeking requests (under 3/4 of them near
 * the one before) measures the workload, not the device: it may raise an
 * estimate, never lower it, nor make the first one, or random readers would
 * shrink max_budget to its floor and every queue's slots with it.  (With
 * max_budget that small, a seeky queue charged for its device time would
 * pay next to nothing: on a disk kept busy by random readers from the
 * scheduler's start, a raised application waited for a quarter of a second
 * behind them at each of its reads.)
 *
 * Reads and writes are measured apart, each completion's request taking
 * the time since the completion before (or since the window opened), and
 * the peak rate is the faster of the two.  A disk's sync writes may move
 * a fraction of what its reads do (on hddsim a sequential O_DIRECT writer
 * alone gets 14 MiB/s, a reader 137): one estimate for both came down in
 * the windows of a writer's slots, and max_budget with it, and the readers
 * beside the writer, whose slots end on their budgets, then got less of
 * the device's time than the writer, whose slots end on the timeout.  A
 * direction counts in a window with 4 requests and 25 ms of it.  An
 * estimate left over from a workload gone should not stay: once a
 * direction has had no sequential window for two seconds, each sample of
 * the other takes a sixteenth of the difference off it.  (Taken at every
 * sample, as first written, that pulled the reads' estimate down to 0.77
 * of a reader's rate while a writer's slots alternated with the reader's.)
 */
static void bq_rate_window_open(struct bqd *bqd, u64 start_ns)
{
	bqd->window_start_ns = start_ns;
	memset(bqd->window, 0, sizeof(bqd->window));
}

/*
 * rq->fifo_time once @rq is in the driver: its size, whether it was near,
 * and whether it writes.
 */
#define BQ_RQ_NEAR		BIT_ULL(63)
#define BQ_RQ_WRITE		BIT_ULL(62)

/*
 * @rq goes to the driver.  Whether it is near the one dispatched before is
 * judged here, in dispatch order, as a device with internal queueing may
 * complete them in another.  A dispatch to an empty driver starts a busy
 * period: a new window, unless the device was empty only briefly (the gap
 * then counts as busy time).
 */
static void bq_rate_dispatch(struct bqd *bqd, struct request *rq, u64 now_ns)
{
	sector_t pos = blk_rq_pos(rq);
	sector_t dist = pos > bqd->window_last_pos ?
			pos - bqd->window_last_pos : bqd->window_last_pos - pos;

	bqd->window_last_pos = pos + blk_rq_sectors(rq);
	rq->fifo_time = blk_rq_sectors(rq) |
			(dist <= BQ_SEEK_DIST_SECTORS ? BQ_RQ_NEAR : 0) |
			(op_is_write(req_op(rq)) ? BQ_RQ_WRITE : 0);
	if (bqd->in_driver)
		return;
	if (!bqd->window_start_ns ||
	    now_ns > bqd->window_last_ns + BQ_RATE_GAP_NS)
		bq_rate_window_open(bqd, now_ns);
}

/* One direction's part of a closed window, for its estimate. */
static void bq_rate_part_sample(struct bqd *bqd, int dir, u64 now_ns)
{
	const struct bq_rate_part *part = &bqd->window[dir];
	u64 *own = &bqd->dir_rate[dir], *other = &bqd->dir_rate[!dir];
	u64 rate;

	if (part->requests < BQ_RATE_WINDOW_MIN_REQUESTS ||
	    part->ns < BQ_RATE_WINDOW_NS / 4)
		return;
	rate = div64_u64(part->sectors * NSEC_PER_SEC, part->ns);
	if (4 * part->seq < 3 * part->requests) {
		/* Seeking: may raise the estimate, nothing else. */
		if (*own && rate > *own)
			*own = (*own + 3 * rate) / 4;
		return;
	}
	if (rate > *own)
		*own = (*own + 3 * rate) / 4;
	else
		*own = (3 * *own + rate) / 4;
	bqd->dir_sampled_ns[dir] = now_ns;
	if (rate < *other &&
	    now_ns - bqd->dir_sampled_ns[!dir] > BQ_RATE_STALE_NS)
		*other -= (*other - rate) / 16;
}

/* A request dispatched by bq_rate_dispatch() completed at @now_ns. */
static void bq_rate_sample(struct bqd *bqd, const struct request *rq,
			   u64 now_ns)
{
	struct bq_rate_part *part;
	unsigned int requests;
	u64 elapsed;

	if (!bqd->window_start_ns)
		return;
	/*
	 * A completion in the submitting task may carry its plug's cached
	 * time, older than the dispatch that opened the window.
	 */
	now_ns = max3(now_ns, bqd->window_start_ns, bqd->window_last_ns);
	part = &bqd->window[!!(rq->fifo_time & BQ_RQ_WRITE)];
	part->ns += now_ns - max(bqd->window_start_ns, bqd->window_last_ns);
	bqd->window_last_ns = now_ns;
	part->sectors += (u32)rq->fifo_time;
	part->requests++;
	if (rq->fifo_time & BQ_RQ_NEAR)
		part->seq++;
	elapsed = now_ns - bqd->window_start_ns;
	if (elapsed < BQ_RATE_WINDOW_NS)
		return;
	requests = bqd->window[0].requests + bqd->window[1].requests;
	/* A slow device with large requests closes the window by time. */
	if (requests < BQ_RATE_WINDOW_REQUESTS &&
	    (elapsed < BQ_RATE_WINDOW_MAX_NS ||
	     requests < BQ_RATE_WINDOW_MIN_REQUESTS))
		return;
	bq_rate_part_sample(bqd, READ, now_ns);
	bq_rate_part_sample(bqd, WRITE, now_ns);
	/* The next window starts now if the device is still busy. */
	bq_rate_window_open(bqd, bqd->in_driver ? now_ns : 0);
	if (bqd->peak_rate != max(bqd->dir_rate[READ], bqd->dir_rate[WRITE])) {
		bqd->peak_rate = max(bqd->dir_rate[READ], bqd->dir_rate[WRITE]);
		bq_update_max_budget(bqd);
	}
}

/*
 * A dispatch tells whether the device queues internally only if enough was
 * at hand to fill it: requests held anywhere, and, unless the driver already
 * holds enough, in the queue in service (idling or a thinking queue keeps
 * the others' requests out of the driver).
 */
static void bq_hw_tag_sample(struct bqd *bqd, const struct bq_queue *bqq)
{
	if (bqd->in_driver + bqd->queued < BQ_HW_TAG_DEPTH)
		return;
	if (bqd->in_driver < BQ_HW_TAG_DEPTH &&
	    bqq->queued + bqq->dispatched < BQ_HW_TAG_DEPTH)
		return;
	bqd->hw_tag_max = max(bqd->hw_tag_max, bqd->in_driver);
	if (++bqd->hw_tag_samples < BQ_HW_TAG_SAMPLES)
		return;
	bqd->hw_tag = bqd->hw_tag_max >= BQ_HW_TAG_DEPTH;
	bqd->hw_tag_samples = 0;
	bqd->hw_tag_max = 0;
}

/* The smallest budget: a 32nd of the largest, and never tiny. */
static u64 bq_min_budget(const struct bqd *bqd)
{
	return max_t(u64, BQ_MIN_BUDGET_SECTORS, bqd->max_budget / 32);
}

/*
 * The budget @bqq gets for a slot whose first request is @sectors long.  A
 * raised queue gets the largest: the feedback would shrink the budget of
 * an application starting, whose reads are few and far between, until
 * each large read used all of it, and a queue that used its budget waits,
 * request queued, for its next start time to come, behind a whole slot of
 * another queue.
 */
static u64 bq_slot_budget(const struct bqd *bqd, const struct bq_queue *bqq,
			  u32 sectors)
{
	return max_t(u64, bqq->wr_kind ? bqd->max_budget : bqq->max_budget,
		     sectors);
}

/* Next budget of a sync queue, by why it left service. */
static u64 bq_next_budget(const struct bqd *bqd, const struct bq_queue *bqq,
			  enum bq_expire_reason reason, u64 served)
{
	return bq_budget_feedback(bqq->max_budget, reason, served,
				  test_bit(BQ_IO_BOUND, &bqq->flags),
				  bq_min_budget(bqd), bqd->max_budget);
}

/*
 * A slot that kept the queue backlogged but moved sectors at a fraction of
 * the device's peak rate: the queue costs the device time, not sectors.
 */
static bool bq_slow(const struct bqd *bqd, u64 served, u64 elapsed)
{
	return elapsed >= BQ_SLOW_MIN_NS && bqd->peak_rate &&
	       div64_u64(served * NSEC_PER_SEC, elapsed) <
	       bqd->peak_rate / BQ_SLOW_RATE_DIV;
}

/*
 * Service to charge a slot: sectors, or the device time the slot took for
 * seeky queues and slow backlogged ones, scaled so that a full timeout_sync
 * costs max_budget.  A queue that timed out while moving sectors at over
 * half the peak rate pays its sectors: a reader of small requests that
 * leaves the device idle between its batches still gets its share of
 * bandwidth, not only of time.
 */
static u64 bq_charge_for_time(const struct bqd *bqd, const struct bq_queue *bqq,
			      enum bq_expire_reason reason, u64 now_ns)
{
	/* A request's arrival time may precede the slot it preempts. */
	u64 elapsed = now_ns > bqq->slot_start_ns ?
		      now_ns - bqq->slot_start_ns : 0;
	u64 timeout_ns = jiffies_to_nsecs(bqd->tun.timeout_sync_jiffies);
	bool by_time = bq_seeky(bqq) ||
		       ((reason == BQ_EXP_TIMEOUT || reason == BQ_EXP_BUDGET) &&
			bq_slow(bqd, bqq->entity.service, elapsed));

	/*
	 * No request of the slot has completed: the device was busy with
	 * another queue's requests all along, and the slot's time is not its.
	 */
	if (!bq_sync(bqq) || !by_time ||
	    test_bit(BQ_SLOT_CLOCK_WAIT, &bqq->flags))
		return 0;
	elapsed = min(elapsed, timeout_ns);
	return div64_u64(bqd->max_budget * elapsed, timeout_ns);
}

/*
 * The queue in service has requests in the driver and none has completed
 * yet: they wait behind the previous queue's (one 512 KiB read takes half a
 * second on a slow disk), and its budget timeout has not started.  A slot
 * that has not dispatched at all (the driver's limits held it back) times
 * out on the grace deadline set when it was selected; one whose requests
 * do not complete (a device retrying, a request timing out) BQ_SLOT_WAITS
 * timeouts after it, so the other queues get the device meanwhile.
 */
static bool bq_slot_clock_waits(const struct bqd *bqd,
				const struct bq_queue *bqq)
{
	return test_bit(BQ_SLOT_CLOCK_WAIT, &bqq->flags) && bqq->dispatched &&
	       time_before(jiffies, bqq->slot_deadline +
			   BQ_SLOT_WAITS * bqd->tun.timeout_sync_jiffies);
}

/* Raised queues get twice the time to use their budget. */
static void bq_start_slot_clock(struct bqd *bqd, struct bq_queue *bqq,
				u64 now_ns)
{
	bqq->slot_start_ns = now_ns;
	bqq->slot_deadline = jiffies + (bqd->tun.timeout_sync_jiffies <<
					!!bqq->wr_kind);
}

static void bq_stop_idling(struct bqd *bqd)
{
	if (!bqd->idling)
		return;
	bqd->idling = false;
	hrtimer_try_to_cancel(&bqd->idle_timer);
}

/*
 * End the in-service queue's slot, and its groups' unless @keep_groups: a
 * queue preempted by another of its group leaves the group in service.
 */
static void __bq_expire_serving(struct bqd *bqd, enum bq_expire_reason reason,
				u64 now_ns, bool keep_groups)
{
	struct bq_queue *bqq = bqd->serving;
	u64 served = bqq->entity.service;
	u64 by_time = bq_charge_for_time(bqd, bqq, reason, now_ns);
	struct request *next;

	lockdep_assert_held(&bqd->lock);
	bq_stop_idling(bqd);
	bqd->kept = false;
	clear_bit(BQ_SLOT_CLOCK_WAIT, &bqq->flags);
	if (by_time > served)
		bq_charge(&bqq->entity, by_time - served);
	if (bq_sync(bqq))
		bqq->max_budget = bq_next_budget(bqd, bqq, reason, served);
	else
		bqq->max_budget = bqd->max_budget;
	trace_bfq_ng_expire(BQ_TRACE_DEV(bqd), bqq->pid, reason, served,
			    max(served, by_time), bqq->entity.budget,
			    bqq->max_budget);
	bq_wr_check(bqd, bqq, now_ns);
	next = bq_next_request(bqq);
	bqq->entity.budget = bq_slot_budget(bqd, bqq,
					    next ? blk_rq_sectors(next) : 0);
	bqd->serving = NULL;
	bqd->expirations[reason]++;
	if (!bqq->queued && !bqq->dispatched)
		bq_weight_uncount(bqd, bqq);
	if (keep_groups)
		bq_expire_leaf(&bqq->entity, bqq->queued > 0);
	else
		bq_expire(&bqq->entity, bqq->queued > 0);
}

static void bq_expire_serving(struct bqd *bqd, enum bq_expire_reason reason,
			      u64 now_ns)
{
	__bq_expire_serving(bqd, reason, now_ns, false);
}

/* The kept queue's slot ends, as of when it emptied. */
void bq_end_kept(struct bqd *bqd)
{
	if (bqd->kept)
		bq_expire_serving(bqd, BQ_EXP_EMPTY, bqd->kept_ns);
}

/* Think time, and whether the queue issues back to back (I/O-bound). */
static void bq_sample_arrival(struct bqd *bqd, struct bq_queue *bqq,
			      struct request *rq)
{
	u64 sample;
	bool quick = true;

	if (bqq->queued == 1 && !bqq->dispatched && bqq->last_completion_ns &&
	    rq->start_time_ns > bqq->last_completion_ns) {
		sample = rq->start_time_ns - bqq->last_completion_ns;
		bqq->ttime_mean_ns = bqq->ttime_samples ?
			(7 * bqq->ttime_mean_ns + sample) / 8 : sample;
		bqq->ttime_samples++;
		if (bqq->ttime_mean_ns > bqd->tun.slice_idle_ns)
			clear_bit(BQ_IDLE_WINDOW, &bqq->flags);
		else
			set_bit(BQ_IDLE_WINDOW, &bqq->flags);
		quick = sample <= BQ_QUICK_ARRIVAL_IDLES * bqd->tun.slice_idle_ns;
	}
	if (!quick) {
		bqq->quick_arrivals = 0;
		clear_bit(BQ_IO_BOUND, &bqq->flags);
	} else if (++bqq->quick_arrivals >= BQ_IO_BOUND_ARRIVALS) {
		set_bit(BQ_IO_BOUND, &bqq->flags);
	}
}

/*
 * Whether @bqq, just activated, should take the device from the queue in
 * service: a higher class, or raising the queue in service lacks (soft
 * real-time over interactive over none).  Only within one group: classes
 * and raising rank queues inside a group, never groups against each other.
 */
static bool bq_may_preempt(const struct bqd *bqd, const struct bq_queue *bqq)
{
	const struct bq_queue *serving = bqd->serving;

	if (!serving || serving == bqq || serving->group != bqq->group)
		return false;
	/* @bqq's class takes effect at this activation. */
	if (bqq->entity.new_class != serving->entity.class)
		return bqq->entity.new_class < serving->entity.class;
	return bqq->wr_kind > serving->wr_kind;
}

/*
 * @bqq had nothing queued or in flight and got a request at @now_ns: was
 * it woken by the last sync queue to complete a request?  The candidate
 * is only compared, never followed; the waker link holds a reference.
 */
static void bq_waker_detect(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns)
{
	struct bq_queue *last = bqd->last_completed;

	if (!test_and_clear_bit(BQ_IDLED_IN_VAIN, &bqq->flags))
		return;
	if (!last || last == bqq || test_bit(BQ_OOM, &bqq->flags) ||
	    last->queued || last->dispatched ||
	    now_ns < bqd->last_completed_ns ||
	    now_ns - bqd->last_completed_ns > BQ_WAKER_WINDOW_NS) {
		bqq->waker_hits = 0;
		return;
	}
	if (bqq->waker_candidate != last || !bqq->waker_hits) {
		bqq->waker_candidate = last;
		bqq->waker_hits = 1;
		return;
	}
	if (++bqq->waker_hits < BQ_WAKER_HITS || bqq->waker == last)
		return;
	/*
	 * @last holds no reference of ours yet: take it before the old waker
	 * is put, whose freeing could drop the last reference to @last.
	 */
	bq_get_queue(last);
	bq_waker_forget(bqd, bqq);
	bqq->waker = last;
	bqd->wakers_found++;
}

/* Drop @bqq's waker link, and any other record of it as a waker. */
void bq_waker_forget(struct bqd *bqd, struct bq_queue *bqq)
{
	struct bq_queue *waker = bqq->waker;

	lockdep_assert_held(&bqd->lock);
	if (bqd->last_completed == bqq)
		bqd->last_completed = NULL;
	bqq->waker = NULL;
	if (waker)
		bq_put_queue(waker);
}

/*
 * A sync queue back with a request within three slice_idle of its last
 * completion had a hole in its service rather than nothing to do: it
 * keeps its place (bq_activate's @resume).
 */
static bool bq_in_hole(const struct bqd *bqd, const struct bq_queue *bqq,
		       const struct request *rq)
{
	return bq_sync(bqq) && bqq->last_completion_ns &&
	       rq->start_time_ns > bqq->last_completion_ns &&
	       rq->start_time_ns - bqq->last_completion_ns <=
	       BQ_HOLE_IDLES * bqd->tun.slice_idle_ns;
}

/* Choose the queue to serve next and start its slot; NULL if none is busy. */
static struct bq_queue *bq_serve_next(struct bqd *bqd, u64 now_ns)
{
	struct bq_entity *entity;
	struct bq_queue *bqq;

	lockdep_assert_held(&bqd->lock);
	entity = bq_select(&bqd->root, now_ns);
	if (!entity)
		return NULL;
	bqq = bq_queue_of(entity);
	/*
	 * What was injected from it is part of this slot's service, up to one
	 * full slot: a waker's injections have no limit, and a debt run up
	 * over a long time would hold its queue back for as long.
	 */
	if (bqq->inject_debt) {
		bq_charge(entity, min(bqq->inject_debt, bqd->max_budget));
		bqq->inject_debt = 0;
	}
	/*
	 * The slot's clock starts at its first completion: until then the
	 * device may still be busy with the previous queue's requests, whose
	 * time this queue must not be charged for.  A grace of one more
	 * timeout bounds a slot that could not dispatch (see
	 * bq_slot_clock_waits()).
	 */
	bq_start_slot_clock(bqd, bqq, now_ns);
	bqq->slot_deadline += bqd->tun.timeout_sync_jiffies;
	set_bit(BQ_SLOT_CLOCK_WAIT, &bqq->flags);
	bqd->serving = bqq;
	return bqq;
}

/* A queue got a request: think time, wake idling, activation. */
void bq_queue_got_request(struct bqd *bqd, struct bq_queue *bqq,
			  struct request *rq)
{
	bool preempt;

	lockdep_assert_held(&bqd->lock);
	if (bq_sync(bqq)) {
		bq_sample_arrival(bqd, bqq, rq);
		if (bqq->queued == 1 && !bqq->dispatched)
			bq_waker_detect(bqd, bqq, rq->start_time_ns);
	}
	bq_weight_count(bqd, bqq);
	if (bqq == bqd->serving) {
		if (bqd->kept) {
			bqd->kept = false;
			bqd->kept_resumes++;
		}
		bq_stop_idling(bqd);
		return;
	}
	if (bqq->entity.where == BQ_ACTIVE)
		return;
	bq_wr_activation(bqd, bqq, rq->start_time_ns);
	bqq->entity.budget = bq_slot_budget(bqd, bqq, blk_rq_sectors(rq));
	preempt = bq_may_preempt(bqd, bqq);
	trace_bfq_ng_activate(BQ_TRACE_DEV(bqd), bqq->pid,
			      bqq->entity.new_weight, bqq->entity.budget,
			      preempt);
	/*
	 * A queue that preempts is the one served next.  Being urgent puts it
	 * first among the queues active when it is stamped: the one it
	 * preempts is put back among them first (its new finish may come
	 * early, after a slot cut short), and its slot starts now, as one
	 * activated before the next dispatch (a random reader whose request
	 * completed meanwhile) could finish earlier and take the device for
	 * a whole slot.  Their group's slot goes on, or another group could
	 * come first.
	 */
	if (preempt) {
		bqd->preemptions++;
		__bq_expire_serving(bqd, BQ_EXP_PREEMPTED, rq->start_time_ns,
				    true);
	}
	/*
	 * The engine's reference, taken for a queue off the trees: also one
	 * the expiry above let go of, idle (the last busy queue leaving
	 * flushes the idle tree).
	 */
	if (bqq->entity.where == BQ_OFF)
		bq_get_queue(bqq);
	bq_activate(&bqq->entity, preempt, bq_in_hole(bqd, bqq, rq));
	if (preempt)
		bq_serve_next(bqd, rq->start_time_ns);
}

/* A queued request went away without dispatch (merged into another). */
void bq_queue_lost_request(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	if (!bqq->queued && !bqq->dispatched && bqq != bqd->serving)
		bq_weight_uncount(bqd, bqq);
	if (!bqq->queued && bqq != bqd->serving &&
	    bqq->entity.where == BQ_ACTIVE)
		bq_deactivate(&bqq->entity);
}

/*
 * Start the wait for @bqq's next request: slice_idle, or at least
 * BQ_WR_IDLE_NS for an interactive-raised queue, whose process is an
 * application starting, its next read often after some CPU work (a request
 * not waited for lets another queue's in, and a seek, first).  A soft
 * real-time queue gets slice_idle: it empties at the end of each batch, and
 * its next batch, a period later, preempts whoever is served then.
 */
static void bq_arm_idle_timer(struct bqd *bqd, struct bq_queue *bqq)
{
	u64 wait = bqd->tun.slice_idle_ns;

	lockdep_assert_held(&bqd->lock);
	if (bqq->wr_kind == BQ_WR_INTERACTIVE)
		wait = max_t(u64, wait, BQ_WR_IDLE_NS);
	bqd->idle_started++;
	trace_bfq_ng_idle(BQ_TRACE_DEV(bqd), bqq->pid, false);
	hrtimer_start(&bqd->idle_timer, ns_to_ktime(wait), HRTIMER_MODE_REL);
}

/*
 * The queue to dispatch from, expiring and selecting as needed; NULL when
 * nothing is busy or the device is held for the in-service queue.
 */
static struct bq_queue *bq_serving_queue(struct bqd *bqd, u64 now_ns)
{
	struct bq_queue *bqq = bqd->serving;

	if (bqq) {
		struct request *next = bq_next_request(bqq);

		if (bqd->idling)
			return NULL;
		if (!next && bqd->kept) {
			bq_end_kept(bqd);
		} else if (!next) {
			if (bq_should_idle(bqd, bqq)) {
				bqd->idling = true;
				if (!bqq->dispatched)
					bq_arm_idle_timer(bqd, bqq);
				return NULL;
			}
			bq_expire_serving(bqd, BQ_EXP_EMPTY, now_ns);
		} else if (time_after(jiffies, bqq->slot_deadline) &&
			   !bq_slot_clock_waits(bqd, bqq)) {
			bq_expire_serving(bqd, BQ_EXP_TIMEOUT, now_ns);
		} else if (bqq->entity.service + blk_rq_sectors(next) >
			   bqq->entity.budget) {
			bq_expire_serving(bqd, BQ_EXP_BUDGET, now_ns);
		} else {
			return bqq;
		}
	}
	return bq_serve_next(bqd, now_ns);
}

/*
 * Time the first request the queue in service dispatches after nothing of
 * it was in the driver: with nothing else in the driver either, it gives
 * the queue's base service time; with only injected requests there, it
 * tells whether they delayed it.  Not where bq_may_inject() never allows
 * injection: a base found stale once it may (after two seconds) is
 * measured again before any.
 */
static void bq_inject_probe(struct bqd *bqd, struct bq_queue *bqq,
			    struct request *rq, u64 now_ns)
{
	if (!bqd->hw_tag || !bqd->tun.injection ||
	    bqd->tun.strict_guarantees || bqd->probe_rq || bqq->dispatched ||
	    !bq_sync(bqq) || bqd->in_driver != bqd->injected_in_driver)
		return;
	bqd->probe_rq = rq;
	bqd->probe_ns = now_ns;
	bqd->probe_injected = bqd->injected_in_driver;
}

/* The probe of @bqq completed after @sample_ns: adjust its limit. */
static void bq_inject_learn(struct bqd *bqd, struct bq_queue *bqq,
			    u64 sample_ns)
{
	unsigned int injected = bqd->probe_injected;

	bqd->inject_samples[!!injected]++;
	if (!injected) {
		bool first = !bqq->inject_base_ns;

		bqq->inject_base_ns = first ? sample_ns :
			(3 * bqq->inject_base_ns + sample_ns) / 4;
		bqq->inject_base_at = jiffies;
		if (!bqq->inject_limit &&
		    (first || time_after(jiffies, bqq->inject_lowered_at +
					 msecs_to_jiffies(BQ_INJECT_RETRY_MS))))
			bqq->inject_limit = 1;
		return;
	}
	if (sample_ns > bqq->inject_base_ns + bqq->inject_base_ns / 2) {
		if (bqq->inject_limit)
			bqq->inject_limit--;
		bqq->inject_lowered_at = jiffies;
		bqd->inject_lowered++;
	} else if (injected >= bqq->inject_limit &&
		   bqq->inject_limit < BQ_INJECT_MAX) {
		bqq->inject_limit++;
	}
}

/*
 * Hand @rq of @bqq to the driver: the in-service queue's, or another's
 * injected while the device is held for the queue in service.  Injected
 * sectors are charged when their queue next enters service.
 */
static void bq_serve(struct bqd *bqd, struct bq_queue *bqq, struct request *rq,
		     u64 now_ns, bool injected)
{
	sector_t pos = blk_rq_pos(rq);
	unsigned int sectors = blk_rq_sectors(rq);
	sector_t dist = pos > bqq->last_pos ? pos - bqq->last_pos :
					      bqq->last_pos - pos;
	sector_t seek = bqq->procs > 1 ? BQ_COOP_DIST_SECTORS :
					 BQ_SEEK_DIST_SECTORS;

	if (!injected)
		bq_inject_probe(bqd, bqq, rq, now_ns);
	bq_remove_request(bqq, rq);
	bqd->queued--;
	bq_rate_dispatch(bqd, rq, now_ns);
	bqq->dispatched++;
	if (++bqd->in_driver > bqd->max_in_driver)
		bqd->max_in_driver = bqd->in_driver;
	if (!injected)
		bq_hw_tag_sample(bqd, bqq);
	bqq->seek_history = (bqq->seek_history << 1) |
			    (dist > seek);
	bqq->last_pos = pos + sectors;
	rq->elv.priv[1] = (void *)(BQ_RQ_IN_DRIVER |
				   (injected ? BQ_RQ_INJECTED : 0));
	bqq->busy_service += sectors;
	bq_group_served(bqd, bqq->group, rq);
	if (bqq->wr_kind)
		bqq->wr_served += sectors;
	if (injected)
		bqq->inject_debt += sectors;
	else
		bq_charge(&bqq->entity, sectors);
	trace_bfq_ng_dispatch(BQ_TRACE_DEV(bqd), bqq->pid, pos, sectors,
			      bqq->entity.service, bqq->entity.budget);
}

/*
 * A request of the waker of the queue in service, which is waited for, or
 * of a queue near it when bq_may_inject() allows.  A queue emptied by
 * injection leaves the trees like one whose last request was merged away.
 */
static struct request *bq_inject(struct bqd *bqd, u64 now_ns)
{
	struct bq_entity *entity;
	struct bq_queue *bqq;
	struct request *rq;

	bqq = bq_waker_ready(bqd);
	if (bqq) {
		bqd->waker_injections++;
	} else {
		entity = bq_injectable(bqd);
		if (!entity)
			return NULL;
		bqq = bq_queue_of(entity);
	}
	rq = bq_next_request(bqq);
	if (WARN_ON_ONCE(!rq))
		return NULL;
	bq_serve(bqd, bqq, rq, now_ns, true);
	bqd->injected_in_driver++;
	bqd->injections++;
	trace_bfq_ng_inject(BQ_TRACE_DEV(bqd), bqd->serving->pid, bqq->pid,
			    bqd->injected_in_driver, bqd->serving->inject_limit);
	bq_queue_lost_request(bqd, bqq);
	return rq;
}

/**
 * bq_dispatch - the next request for the driver, or NULL
 * @bqd: scheduler data, locked
 * @now_ns: current time, read once per dispatch by the caller
 */
struct request *bq_dispatch(struct bqd *bqd, u64 now_ns)
{
	struct bq_queue *bqq;
	struct request *rq;

	lockdep_assert_held(&bqd->lock);
	if (!list_empty(&bqd->dispatch)) {
		rq = list_first_entry(&bqd->dispatch, struct request, queuelist);
		list_del_init(&rq->queuelist);
		bqd->queued--;
		return rq;
	}
	/*
	 * Nothing queued: a dispatch let in by a stale work_ready, as when
	 * two CPUs run the hardware queue at once and the other took the last
	 * request.  The queue in service may have emptied with requests still
	 * in the driver: its completion decides, as for any (bq_completed());
	 * expired here, it would be charged a slot cut short, and activated
	 * and selected again at its next request.
	 */
	if (!bqd->queued)
		return NULL;
	if (bqd->tun.strict_guarantees && bqd->in_driver)
		return NULL;
	bqq = bq_serving_queue(bqd, now_ns);
	if (!bqq)
		return bqd->idling ? bq_inject(bqd, now_ns) : NULL;
	rq = bq_next_request(bqq);
	bq_serve(bqd, bqq, rq, now_ns, false);
	bq_decide_idling(bqd);
	return rq;
}

/*
 * @bqq has nothing queued or in the driver any more: its last request
 * completed, or was requeued (it comes back at the head of the dispatch
 * list, in no queue, and no completion of @bqq's follows).
 */
static void bq_emptied(struct bqd *bqd, struct bq_queue *bqq, u64 now_ns)
{
	lockdep_assert_held(&bqd->lock);
	bq_wr_went_idle(bqd, bqq, now_ns);
	/* The queue in service stays counted until it leaves service. */
	if (bqq != bqd->serving) {
		bq_weight_uncount(bqd, bqq);
		return;
	}
	/*
	 * The queue in service: wait for its next request (bq_serving_queue()
	 * arms no timer while it has requests in the driver); or, alone, keep
	 * it until the next request of any queue decides
	 * (bq_queue_will_get()), its exit or teardown; or let it go now, the
	 * others' requests waiting, or its process gone.
	 */
	if (bq_should_idle(bqd, bqq)) {
		bqd->idling = true;
		bq_arm_idle_timer(bqd, bqq);
	} else if (!bqd->queued && !bq_orphaned(bqq)) {
		bq_stop_idling(bqd);	/* started with requests in the driver */
		bqd->kept = true;
		bqd->kept_ns = now_ns;
	} else {
		bq_expire_serving(bqd, BQ_EXP_EMPTY, now_ns);
	}
}

/* @rq of @bqq left the driver (completed, or requeued when !now_ns). */
static void bq_completed(struct bqd *bqd, struct bq_queue *bqq,
			 struct request *rq, u64 now_ns)
{
	lockdep_assert_held(&bqd->lock);
	bqq->dispatched--;
	bqd->in_driver--;
	if (rq == bqd->probe_rq) {
		bqd->probe_rq = NULL;
		if (now_ns && now_ns > bqd->probe_ns)
			bq_inject_learn(bqd, bqq, now_ns - bqd->probe_ns);
	}
	if (!now_ns) {
		bqd->requeues++;
		if (!bqq->queued && !bqq->dispatched)
			bq_emptied(bqd, bqq, ktime_get_ns());
		return;
	}
	bq_rate_sample(bqd, rq, now_ns);
	bqq->last_completion_ns = now_ns;
	/*
	 * A completion that left its queue with nothing to do may wake, if a
	 * process still uses the queue (a waker holds a reference).
	 */
	if (bq_sync(bqq) && !test_bit(BQ_OOM, &bqq->flags) && bqq->procs &&
	    !bqq->queued && !bqq->dispatched) {
		bqd->last_completed = bqq;
		bqd->last_completed_ns = now_ns;
	}
	if (bqq == bqd->serving &&
	    test_and_clear_bit(BQ_SLOT_CLOCK_WAIT, &bqq->flags))
		bq_start_slot_clock(bqd, bqq, now_ns);
	if (bqq->queued || bqq->dispatched)
		return;
	bq_emptied(bqd, bqq, now_ns);
}

/*
 * The scheduler is done with @rq: completed, freed after a merge, or
 * requeued (@requeue; it will come back through insert).  Here, beside
 * bq_completed(), which the compiler folds into it.
 */
void bq_release_request(struct request *rq, bool requeue)
{
	struct bq_queue *bqq = bq_rq_queue(rq);
	uintptr_t state = (uintptr_t)rq->elv.priv[1];
	struct bqd *bqd;
	unsigned long flags;
	bool was_ready;

	if (!bqq)
		return;
	bqd = bqq->bqd;
	spin_lock_irqsave(&bqd->lock, flags);
	was_ready = bqd->work_ready;
	if (state & BQ_RQ_IN_DRIVER) {
		u64 now = state & ~(uintptr_t)BQ_RQ_FLAGS;

		if (!requeue && !now)
			now = ktime_get_ns();
		if (state & BQ_RQ_INJECTED)
			bqd->injected_in_driver--;
		bq_completed(bqd, bqq, rq, requeue ? 0 : now);
	} else if (!RB_EMPTY_NODE(&rq->rb_node) || bq_rq_lone(rq)) {
		/* Requeued before dispatch: still queued here. */
		bq_remove_request(bqq, rq);
		bqd->queued--;
		bq_queue_lost_request(bqd, bqq);
	}
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
	bq_put_queue(bqq);
	bq_update_work_ready(bqd);
	spin_unlock_irqrestore(&bqd->lock, flags);
	if (!was_ready && READ_ONCE(bqd->work_ready))
		blk_mq_run_hw_queues(bqd->queue, true);
}

/*
 * debugfs "check": a queue in service with nothing queued or in the driver
 * is waited for, with the timer set, or kept; else nothing would end its
 * slot but the next request, and the device could sit held for it.
 */
int bq_serving_check(struct bqd *bqd, char *why, size_t len)
{
	struct bq_queue *bqq = bqd->serving;

	lockdep_assert_held(&bqd->lock);
	if (!bqq || bqq->queued || bqq->dispatched)
		return 0;
	if (bqd->idling && !hrtimer_active(&bqd->idle_timer))
		snprintf(why, len, "queue %d waited for with no I/O and no timer",
			 bqq->pid);
	else if (!bqd->idling && !bqd->kept)
		snprintf(why, len, "queue %d in service with no I/O, neither waited for nor kept",
			 bqq->pid);
	else
		return 0;
	return -EINVAL;
}

/* The process of @bqq is gone: do not hold the device for it. */
void bq_queue_exited(struct bqd *bqd, struct bq_queue *bqq)
{
	lockdep_assert_held(&bqd->lock);
	clear_bit(BQ_IDLE_WINDOW, &bqq->flags);
	bq_waker_forget(bqd, bqq);
	if (bqd->serving != bqq || bqq->queued || bqq->dispatched)
		return;
	if (bqd->kept)
		bq_end_kept(bqd);
	else
		bq_expire_serving(bqd, BQ_EXP_EMPTY, ktime_get_ns());
}

static enum hrtimer_restart bq_idle_timer_fn(struct hrtimer *timer)
{
	struct bqd *bqd = container_of(timer, struct bqd, idle_timer);
	unsigned long flags;
	bool run = false;

	spin_lock_irqsave(&bqd->lock, flags);
	/*
	 * Queued again: while this run waited for the lock, the wait it was
	 * for ended (bq_stop_idling() cannot cancel a running timer) and a
	 * new one began, which the new expiry ends.
	 */
	if (!hrtimer_is_queued(timer) && bqd->idling && bqd->serving &&
	    !bqd->serving->queued && !bqd->serving->dispatched) {
		bqd->idle_timeouts++;
		set_bit(BQ_IDLED_IN_VAIN, &bqd->serving->flags);
		trace_bfq_ng_idle(BQ_TRACE_DEV(bqd), bqd->serving->pid, true);
		bq_expire_serving(bqd, BQ_EXP_TOO_IDLE, ktime_get_ns());
		bq_update_work_ready(bqd);
		run = bqd->work_ready;
	}
	spin_unlock_irqrestore(&bqd->lock, flags);
	if (run)
		blk_mq_run_hw_queues(bqd->queue, true);
	return HRTIMER_NORESTART;
}

void bq_dispatch_init(struct bqd *bqd)
{
	hrtimer_init(&bqd->idle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	bqd->idle_timer.function = bq_idle_timer_fn;
	bq_update_max_budget(bqd);
}

/* Teardown: no request is left; release the in-service queue. */
void bq_dispatch_exit(struct bqd *bqd)
{
	hrtimer_cancel(&bqd->idle_timer);
	spin_lock_irq(&bqd->lock);
	bqd->idling = false;
	if (bqd->serving)
		bq_expire_serving(bqd, BQ_EXP_PREEMPTED, ktime_get_ns());
	spin_unlock_irq(&bqd->lock);
}
