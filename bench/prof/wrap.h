/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/prof: wrappers that time an elevator's hooks whole, the same way
 * for bfq-ng and for mq-deadline.  The includer defines PW_<HOOK> as its
 * own function for each hook it has, includes this before its
 * elevator_type, and points the type's hooks at prof_<hook>.
 */
#include "prof.h"

#ifdef PW_LIMIT_DEPTH
static void prof_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	SPAN(H_LIMIT_DEPTH, PW_LIMIT_DEPTH(opf, data));
}
#endif

#ifdef PW_BIO_MERGE
static bool prof_bio_merge(struct request_queue *q, struct bio *bio,
			   unsigned int nr_segs)
{
	bool ret;

	SPAN(H_BIO_MERGE, ret = PW_BIO_MERGE(q, bio, nr_segs));
	return ret;
}
#endif

#ifdef PW_PREPARE
static void prof_prepare_request(struct request *rq)
{
	SPAN(H_PREPARE, PW_PREPARE(rq));
}
#endif

#ifdef PW_INSERT
static void prof_insert_requests(struct blk_mq_hw_ctx *hctx,
				 struct list_head *list, blk_insert_t flags)
{
	SPAN(H_INSERT, PW_INSERT(hctx, list, flags));
}
#endif

#ifdef PW_HAS_WORK
static bool prof_has_work(struct blk_mq_hw_ctx *hctx)
{
	bool ret;

	SPAN(H_HAS_WORK, ret = PW_HAS_WORK(hctx));
	return ret;
}
#endif

#ifdef PW_DISPATCH
static struct request *prof_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct request *rq;

	SPAN(H_DISPATCH, rq = PW_DISPATCH(hctx));
	return rq;
}
#endif

#ifdef PW_COMPLETED
static void prof_completed_request(struct request *rq, u64 now)
{
	SPAN(H_COMPLETED, PW_COMPLETED(rq, now));
}
#endif

#ifdef PW_FINISH
static void prof_finish_request(struct request *rq)
{
	SPAN(H_FINISH, PW_FINISH(rq));
}
#endif
