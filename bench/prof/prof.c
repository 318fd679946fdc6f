// SPDX-License-Identifier: GPL-2.0
/* bench/prof: the spans' counters, printed when the module is unloaded. */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include "prof.h"

u64 bq_prof_ns[P_NR], bq_prof_n[P_NR];

static const char *const bq_prof_names[P_NR] = {
	[P_H_BIO_MERGE] = "H_BIO_MERGE",
	[P_H_PREPARE] = "H_PREPARE",
	[P_H_LIMIT_DEPTH] = "H_LIMIT_DEPTH",
	[P_H_INSERT] = "H_INSERT",
	[P_H_HAS_WORK] = "H_HAS_WORK",
	[P_H_DISPATCH] = "H_DISPATCH",
	[P_H_COMPLETED] = "H_COMPLETED",
	[P_H_FINISH] = "H_FINISH",
	[P_I_IOPRIO] = "I_IOPRIO",
	[P_I_GROUP] = "I_GROUP",
	[P_I_SYNC_QUEUE] = "I_SYNC_QUEUE",
	[P_I_COOP] = "I_COOP",
	[P_I_WILL_GET] = "I_WILL_GET",
	[P_I_LONE] = "I_LONE",
	[P_I_FILE] = "I_FILE",
	[P_I_NEXT_RQ] = "I_NEXT_RQ",
	[P_I_POS_TREE] = "I_POS_TREE",
	[P_I_ARRIVAL] = "I_ARRIVAL",
	[P_I_WEIGHT] = "I_WEIGHT",
	[P_D_SELECT] = "D_SELECT",
	[P_D_NEXT_RQ] = "D_NEXT_RQ",
	[P_D_PROBE] = "D_PROBE",
	[P_D_REMOVE] = "D_REMOVE",
	[P_D_RATE] = "D_RATE",
	[P_D_COUNTERS] = "D_COUNTERS",
	[P_D_GROUP] = "D_GROUP",
	[P_D_CHARGE] = "D_CHARGE",
	[P_C_PROBE] = "C_PROBE",
	[P_C_RATE] = "C_RATE",
	[P_C_EMPTIED] = "C_EMPTIED",
	[P_C_PUT_IOC] = "C_PUT_IOC",
	[P_EMPTY] = "EMPTY",
};

/*
 * "PROF name calls mean" per span that ran: mean instructions per call,
 * less an empty span's (timed here the same way).
 */
void bq_prof_report(void)
{
	s64 empty;
	int i;

	for (i = 0; i < 1000; i++)
		SPAN(EMPTY, barrier());
	empty = div64_u64(bq_prof_ns[P_EMPTY], bq_prof_n[P_EMPTY]);
	pr_info("PROF empty-span 1000 %lld\n", empty);
	for (i = 0; i < P_EMPTY; i++) {
		if (!bq_prof_n[i])
			continue;
		pr_info("PROF %s %llu %lld\n", bq_prof_names[i], bq_prof_n[i],
			(s64)div64_u64(bq_prof_ns[i], bq_prof_n[i]) - empty);
	}
}
