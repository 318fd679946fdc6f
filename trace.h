/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bfq-ng tracepoints (tracefs events/bfq_ng/): a queue's activation, each
 * dispatch, the end of its slot with the reason and the budget feedback,
 * raising starting and ending, idling starting and timing out, request
 * merges (bfq_ng_merge: a bio grew a request) and cooperating processes
 * (bfq_ng_coop: a process joined or left a shared queue).  Queues are
 * named by the pid that created them (0: async and the OOM queue), devices
 * by MAJ:MIN.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bfq_ng

#if !defined(BFQNG_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define BFQNG_TRACE_H

#include <linux/tracepoint.h>

#include "bfq-ng.h"

#define BQ_TRACE_DEV(bqd)	disk_devt((bqd)->queue->disk)

TRACE_DEFINE_ENUM(BQ_EXP_BUDGET);
TRACE_DEFINE_ENUM(BQ_EXP_TIMEOUT);
TRACE_DEFINE_ENUM(BQ_EXP_TOO_IDLE);
TRACE_DEFINE_ENUM(BQ_EXP_EMPTY);
TRACE_DEFINE_ENUM(BQ_EXP_PREEMPTED);
TRACE_DEFINE_ENUM(BQ_WR_NONE);
TRACE_DEFINE_ENUM(BQ_WR_INTERACTIVE);
TRACE_DEFINE_ENUM(BQ_WR_SOFTRT);
TRACE_DEFINE_ENUM(BQ_COOP_MERGE);
TRACE_DEFINE_ENUM(BQ_COOP_STABLE);
TRACE_DEFINE_ENUM(BQ_COOP_SPLIT);
TRACE_DEFINE_ENUM(BQ_COOP_LEAVE);

#define bq_show_reason(r)						\
	__print_symbolic(r, { BQ_EXP_BUDGET, "budget" },		\
			 { BQ_EXP_TIMEOUT, "timeout" },			\
			 { BQ_EXP_TOO_IDLE, "too_idle" },		\
			 { BQ_EXP_EMPTY, "empty" },			\
			 { BQ_EXP_PREEMPTED, "preempted" })
#define bq_show_coop(e)							\
	__print_symbolic(e, { BQ_COOP_MERGE, "merge" },			\
			 { BQ_COOP_STABLE, "stable merge" },		\
			 { BQ_COOP_SPLIT, "split" },			\
			 { BQ_COOP_LEAVE, "leave" })
#define bq_show_wr(k)							\
	__print_symbolic(k, { BQ_WR_NONE, "none" },			\
			 { BQ_WR_INTERACTIVE, "interactive" },		\
			 { BQ_WR_SOFTRT, "soft-rt" })

TRACE_EVENT(bfq_ng_activate,
	TP_PROTO(dev_t dev, pid_t pid, unsigned int weight, u64 budget,
		 bool preempt),
	TP_ARGS(dev, pid, weight, budget, preempt),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(unsigned int, weight)
		__field(u64, budget)
		__field(bool, preempt)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->weight = weight;
		__entry->budget = budget;
		__entry->preempt = preempt;
	),
	TP_printk("%d:%d pid %d weight %u budget %llu%s",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  __entry->weight, __entry->budget,
		  __entry->preempt ? " preempts" : "")
);

TRACE_EVENT(bfq_ng_dispatch,
	TP_PROTO(dev_t dev, pid_t pid, sector_t sector, unsigned int sectors,
		 u64 service, u64 budget),
	TP_ARGS(dev, pid, sector, sectors, service, budget),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(sector_t, sector)
		__field(unsigned int, sectors)
		__field(u64, service)
		__field(u64, budget)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->sector = sector;
		__entry->sectors = sectors;
		__entry->service = service;
		__entry->budget = budget;
	),
	TP_printk("%d:%d pid %d %llu + %u service %llu/%llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  (unsigned long long)__entry->sector, __entry->sectors,
		  __entry->service, __entry->budget)
);

TRACE_EVENT(bfq_ng_expire,
	TP_PROTO(dev_t dev, pid_t pid, int reason, u64 service, u64 charged,
		 u64 budget, u64 next_budget),
	TP_ARGS(dev, pid, reason, service, charged, budget, next_budget),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(int, reason)
		__field(u64, service)
		__field(u64, charged)
		__field(u64, budget)
		__field(u64, next_budget)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->reason = reason;
		__entry->service = service;
		__entry->charged = charged;
		__entry->budget = budget;
		__entry->next_budget = next_budget;
	),
	TP_printk("%d:%d pid %d %s served %llu charged %llu budget %llu -> %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  bq_show_reason(__entry->reason), __entry->service,
		  __entry->charged, __entry->budget, __entry->next_budget)
);

TRACE_EVENT(bfq_ng_raise,
	TP_PROTO(dev_t dev, pid_t pid, int kind, unsigned int weight,
		 u64 duration_ns),
	TP_ARGS(dev, pid, kind, weight, duration_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(int, kind)
		__field(unsigned int, weight)
		__field(u64, duration_ns)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->kind = kind;
		__entry->weight = weight;
		__entry->duration_ns = duration_ns;
	),
	TP_printk("%d:%d pid %d %s weight %u for %llu ms",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  bq_show_wr(__entry->kind), __entry->weight,
		  __entry->duration_ns / 1000000)
);

TRACE_EVENT(bfq_ng_burst,
	TP_PROTO(dev_t dev, pid_t pid, unsigned int size),
	TP_ARGS(dev, pid, size),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(unsigned int, size)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->size = size;
	),
	TP_printk("%d:%d pid %d makes a large burst of %u queues",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  __entry->size)
);

TRACE_EVENT(bfq_ng_idle,
	TP_PROTO(dev_t dev, pid_t pid, bool timeout),
	TP_ARGS(dev, pid, timeout),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(bool, timeout)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->timeout = timeout;
	),
	TP_printk("%d:%d pid %d %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  __entry->timeout ? "timed out" : "starts")
);

TRACE_EVENT(bfq_ng_inject,
	TP_PROTO(dev_t dev, pid_t waited, pid_t pid, unsigned int in_driver,
		 unsigned int limit),
	TP_ARGS(dev, waited, pid, in_driver, limit),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, waited)
		__field(pid_t, pid)
		__field(unsigned int, in_driver)
		__field(unsigned int, limit)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->waited = waited;
		__entry->pid = pid;
		__entry->in_driver = in_driver;
		__entry->limit = limit;
	),
	TP_printk("%d:%d pid %d while waiting for pid %d: %u of %u injected in the driver",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  __entry->waited, __entry->in_driver, __entry->limit)
);

TRACE_EVENT(bfq_ng_merge,
	TP_PROTO(dev_t dev, pid_t pid, sector_t sector, unsigned int sectors),
	TP_ARGS(dev, pid, sector, sectors),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, pid)
		__field(sector_t, sector)
		__field(unsigned int, sectors)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->sector = sector;
		__entry->sectors = sectors;
	),
	TP_printk("%d:%d pid %d request now %llu + %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pid,
		  (unsigned long long)__entry->sector, __entry->sectors)
);

/*
 * A process joined queue @to (0 on leaving) from queue @from, which it
 * leaves; @procs is how many processes the queue joined or left has now.
 */
TRACE_EVENT(bfq_ng_coop,
	TP_PROTO(dev_t dev, pid_t from, pid_t to, int event,
		 unsigned int procs),
	TP_ARGS(dev, from, to, event, procs),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(pid_t, from)
		__field(pid_t, to)
		__field(int, event)
		__field(unsigned int, procs)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->from = from;
		__entry->to = to;
		__entry->event = event;
		__entry->procs = procs;
	),
	TP_printk("%d:%d %s from %d to %d procs %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  bq_show_coop(__entry->event), __entry->from, __entry->to,
		  __entry->procs)
);

#endif /* BFQNG_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
