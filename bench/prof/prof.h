/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/prof: spans timed with local_clock(), for profiling builds only
 * (bench/prof/prof.sh copies this into a scratch tree; the module proper
 * never includes it).  Under QEMU's icount the clock advances one ns per
 * guest instruction, so a span's time is its instruction count.
 */
#ifndef BQ_PROF_H
#define BQ_PROF_H
#include <linux/sched/clock.h>

/* H_: a hook, whole (wrap.h); I_, D_, C_: steps of insert, dispatch, completion. */
enum bq_prof_span {
	P_H_BIO_MERGE,
	P_H_PREPARE,
	P_H_LIMIT_DEPTH,
	P_H_INSERT,
	P_H_HAS_WORK,
	P_H_DISPATCH,
	P_H_COMPLETED,
	P_H_FINISH,
	P_I_IOPRIO,
	P_I_GROUP,
	P_I_SYNC_QUEUE,
	P_I_COOP,
	P_I_WILL_GET,
	P_I_LONE,
	P_I_FILE,
	P_I_NEXT_RQ,
	P_I_POS_TREE,
	P_I_ARRIVAL,
	P_I_WEIGHT,
	P_D_SELECT,
	P_D_NEXT_RQ,
	P_D_PROBE,
	P_D_REMOVE,
	P_D_RATE,
	P_D_COUNTERS,
	P_D_GROUP,
	P_D_CHARGE,
	P_C_PROBE,
	P_C_RATE,
	P_C_EMPTIED,
	P_C_PUT_IOC,
	P_EMPTY,
	P_NR
};

extern u64 bq_prof_ns[P_NR], bq_prof_n[P_NR];
void bq_prof_report(void);

#define PT(v)		u64 v = local_clock()
#define PA(id, t0)	do {						\
		bq_prof_ns[P_##id] += local_clock() - (t0);		\
		bq_prof_n[P_##id]++;					\
	} while (0)
#define SPAN(id, ...)	do { PT(__t); __VA_ARGS__; PA(id, __t); } while (0)
#endif
