/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bfq-ng scheduling engine: hierarchical B-WF2Q+ over entities.
 *
 * This header and wf2q.c know nothing of the block layer, so the engine can
 * be unit-tested on its own.  Every function here runs under the owner's
 * scheduler lock; the engine itself takes no lock.
 */
#ifndef BFQNG_WF2Q_H
#define BFQNG_WF2Q_H

#include <linux/rbtree_augmented.h>
#include <linux/types.h>

/* Service classes, served strictly in this order (IDLE with a bounded wait). */
enum bq_class {
	BQ_CLASS_RT,
	BQ_CLASS_BE,
	BQ_CLASS_IDLE,
	BQ_NR_CLASSES,
};

/*
 * Virtual time is service (sectors) scaled by 2^BQ_VT_SHIFT and divided by a
 * weight: finish = start + (budget << BQ_VT_SHIFT) / weight.
 */
#define BQ_VT_SHIFT	22

/* Where an entity is: nowhere, in its parent's active or idle tree, in service. */
enum bq_where {
	BQ_OFF,
	BQ_ACTIVE,
	BQ_IDLE,
	BQ_SERVING,
};

struct bq_sched;

/*
 * A schedulable entity: a queue (leaf) or a group (owns a struct bq_sched).
 * All fields are guarded by the owner's scheduler lock.
 */
struct bq_entity {
	struct rb_node node;		/* in the parent tree's active or idle tree */
	u64 start;			/* virtual start time */
	u64 finish;			/* virtual finish time */
	u64 min_start;			/* min start over this node's active subtree */
	u64 budget;			/* sectors the next slot is timestamped for */
	u64 service;			/* sectors received in the current slot */
	unsigned int weight;		/* weight counted in the parent tree's wsum */
	unsigned int new_weight;	/* applied at the next (re)activation */
	enum bq_class class;		/* class counted in the parent */
	enum bq_class new_class;	/* applied at the next (re)activation */
	enum bq_where where;
	struct bq_entity *parent;	/* NULL for entities of the root */
	struct bq_sched *sd;		/* the sched data this entity is queued in */
	struct bq_sched *my_sd;		/* groups only: their children */
};

/* One class at one level: eligible-first tree, idle tree and virtual time. */
struct bq_tree {
	struct rb_root_cached active;	/* by finish; min_start augmented */
	struct rb_root_cached idle;	/* by finish; waiting for vtime to pass it */
	u64 vtime;
	u64 wsum;			/* weights of active, idle and in-service */
	unsigned int nr_active;		/* entities in the active tree */
	u64 vtime_checked;		/* vtime at the last bq_check() */
};

struct bq_engine_ops {
	/* An entity entered the engine (from nowhere onto a tree); optional. */
	void (*acquired)(struct bq_entity *entity);
	/* An entity left the engine (off every tree): drop what holds it. */
	void (*released)(struct bq_entity *entity);
};

/* The scheduling data of a group: one tree per class and the entity served. */
struct bq_sched {
	struct bq_tree tree[BQ_NR_CLASSES];
	struct bq_entity *serving;	/* child in service, or NULL */
	struct bq_entity *owner;	/* the group's own entity; NULL at root */
	const struct bq_engine_ops *ops;
	u64 idle_class_served_ns;	/* last time the IDLE class was served */
	u64 idle_class_wait_ns;		/* max wait of IDLE while others are busy */
};

/* Wrap-safe virtual time comparison: is a before b? */
static inline bool bq_vt_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

void bq_sched_init(struct bq_sched *sd, struct bq_entity *owner,
		   const struct bq_engine_ops *ops, u64 idle_wait_ns);
void bq_entity_init(struct bq_entity *entity, struct bq_sched *sd,
		    unsigned int weight, enum bq_class class);
bool bq_sched_busy(const struct bq_sched *sd);

void bq_activate(struct bq_entity *entity, bool urgent, bool resume);
void bq_charge(struct bq_entity *entity, u64 sectors);
struct bq_entity *bq_select(struct bq_sched *root, u64 now_ns);
struct bq_entity *bq_peek_near(struct bq_entity *serving);
void bq_expire(struct bq_entity *entity, bool busy);
void bq_expire_leaf(struct bq_entity *entity, bool busy);
void bq_deactivate(struct bq_entity *entity);
void bq_forget_idle(struct bq_sched *sd);

int bq_check(struct bq_sched *sd, char *why, size_t len);

#endif /* BFQNG_WF2Q_H */
