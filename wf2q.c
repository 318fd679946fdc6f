// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng engine: hierarchical B-WF2Q+.
 *
 * Each group (the root included) holds one tree set per class.  A tree keeps
 * a virtual time V that advances, while its entities are served, by the
 * service given divided by the sum of their weights.  An entity entering a
 * tree is stamped S = max(V, F_old) for an entity back from the idle tree,
 * S = V for a new one, and F = S + budget / weight.  It is eligible while
 * S <= V, and the scheduler serves the eligible entity with the smallest F.
 * When its slot ends the entity is charged what it really received
 * (F = S + service / weight) and, if still busy, restamped from S = F.
 *
 * The active tree is ordered by F and each node carries the minimum S of its
 * subtree, so "smallest F among S <= V" is one descent: go left while the
 * left subtree holds an eligible entity, else take the node if eligible, else
 * go right.  The leftmost node, when eligible, answers at once.  When nothing
 * is eligible V jumps to the smallest S.
 *
 * An entity that empties keeps its weight in the tree's sum and waits on the
 * idle tree until V passes its F, so going briefly idle earns no credit.
 *
 * Called only under the owner's scheduler lock; no function here sleeps.
 */
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/kernel.h>

#include "wf2q.h"

static inline struct bq_entity *bq_of(struct rb_node *node)
{
	return rb_entry(node, struct bq_entity, node);
}

static inline struct bq_tree *bq_tree_of(struct bq_entity *entity)
{
	return &entity->sd->tree[entity->class];
}

/* Virtual time taken by @sectors of service at @weight. */
static inline u64 bq_delta(u64 sectors, u64 weight)
{
	return div64_u64(sectors << BQ_VT_SHIFT, weight ? weight : 1);
}

static inline u64 bq_vt_min(u64 a, u64 b)
{
	return bq_vt_before(a, b) ? a : b;
}

static bool bq_finish_less(struct rb_node *a, const struct rb_node *b)
{
	return bq_vt_before(bq_of(a)->finish,
			    rb_entry(b, struct bq_entity, node)->finish);
}

/* Recompute a node's subtree minimum of S; true when it did not change. */
static inline bool bq_min_start_update(struct bq_entity *entity, bool exit)
{
	u64 old = entity->min_start;
	u64 min = entity->start;

	if (entity->node.rb_left)
		min = bq_vt_min(min, bq_of(entity->node.rb_left)->min_start);
	if (entity->node.rb_right)
		min = bq_vt_min(min, bq_of(entity->node.rb_right)->min_start);
	entity->min_start = min;
	return min == old;
}

RB_DECLARE_CALLBACKS(static, bq_min_start_cb, struct bq_entity, node,
		     min_start, bq_min_start_update);

static void bq_active_add(struct bq_tree *tree, struct bq_entity *entity)
{
	entity->min_start = entity->start;
	rb_add_augmented_cached(&entity->node, &tree->active, bq_finish_less,
				&bq_min_start_cb);
	tree->nr_active++;
	entity->where = BQ_ACTIVE;
}

static void bq_active_del(struct bq_tree *tree, struct bq_entity *entity)
{
	rb_erase_augmented_cached(&entity->node, &tree->active,
				  &bq_min_start_cb);
	RB_CLEAR_NODE(&entity->node);
	tree->nr_active--;
}

static void bq_idle_add(struct bq_tree *tree, struct bq_entity *entity)
{
	rb_add_cached(&entity->node, &tree->idle, bq_finish_less);
	entity->where = BQ_IDLE;
}

static void bq_idle_del(struct bq_tree *tree, struct bq_entity *entity)
{
	rb_erase_cached(&entity->node, &tree->idle);
	RB_CLEAR_NODE(&entity->node);
}

/* The entity leaves its tree's weight sum and the engine altogether. */
static void bq_release(struct bq_entity *entity)
{
	bq_tree_of(entity)->wsum -= entity->weight;
	entity->where = BQ_OFF;
	if (entity->sd->ops && entity->sd->ops->released)
		entity->sd->ops->released(entity);
}

/* Forget idle entities whose finish time virtual time has reached. */
static void bq_idle_expire(struct bq_tree *tree)
{
	struct rb_node *first;

	while ((first = rb_first_cached(&tree->idle))) {
		struct bq_entity *entity = bq_of(first);

		if (bq_vt_before(tree->vtime, entity->finish))
			break;
		bq_idle_del(tree, entity);
		bq_release(entity);
	}
}

/*
 * With nothing active or in service in a tree, no one competes with the idle
 * entities: virtual time may jump past all their finish times, so they can
 * be forgotten now instead of holding memory until some later service.
 */
static void bq_idle_flush(struct bq_sched *sd, struct bq_tree *tree)
{
	struct rb_node *last = rb_last(&tree->idle.rb_root);

	if (tree->nr_active || (sd->serving && bq_tree_of(sd->serving) == tree) ||
	    !last)
		return;
	tree->vtime = bq_of(last)->finish;
	bq_idle_expire(tree);
}

/*
 * @entity leaves its tree for good.  Its idle neighbours may be the last
 * entities there: flush first, as the release may free the entity's group.
 */
static void bq_leave(struct bq_entity *entity)
{
	bq_idle_flush(entity->sd, bq_tree_of(entity));
	bq_release(entity);
}

/*
 * Apply a pending weight or class change to an entity about to be stamped.
 * Returns true when the class changed (old timestamps mean nothing then).
 */
static bool bq_apply_changes(struct bq_entity *entity, bool counted)
{
	struct bq_tree *old = bq_tree_of(entity);
	bool moved = entity->new_class != entity->class;

	if (!moved && entity->new_weight == entity->weight)
		return false;
	if (counted)
		bq_tree_of(entity)->wsum -= entity->weight;
	entity->weight = entity->new_weight;
	entity->class = entity->new_class;
	if (counted)
		bq_tree_of(entity)->wsum += entity->weight;
	if (moved)
		bq_idle_flush(entity->sd, old);
	return moved;
}

/*
 * Stamp and queue an entity.  An urgent one (it has just preempted the
 * entity in service) is the one served next: it starts no later than the
 * virtual time, so it is eligible (a start still ahead, from a slot that
 * ended moments ago, would hand the device to another entity for a whole
 * slot instead), and it finishes before every other entity of its tree.
 */
static void bq_stamp(struct bq_entity *entity, u64 start, bool urgent)
{
	struct bq_tree *tree = bq_tree_of(entity);
	struct rb_node *first = rb_first_cached(&tree->active);

	if (urgent && bq_vt_before(tree->vtime, start))
		start = tree->vtime;
	entity->start = start;
	entity->finish = start + bq_delta(entity->budget, entity->weight);
	if (urgent && first &&
	    !bq_vt_before(entity->finish, bq_of(first)->finish))
		entity->finish = bq_of(first)->finish - 1;
	bq_active_add(tree, entity);
}

/*
 * Start of an entity back after its tree's virtual time passed its finish:
 * the virtual time, unless the entity resumes after a short hole in its
 * service.  Then it keeps its old finish as its start, if that is at most
 * one budget behind: the hole costs it nothing and gains it one slot at most.
 */
static u64 bq_restart(const struct bq_entity *entity, u64 vtime, bool resume)
{
	if (resume && bq_vt_before(entity->finish, vtime) &&
	    vtime - entity->finish <= bq_delta(entity->budget, entity->weight))
		return entity->finish;
	return vtime;
}

/**
 * bq_activate - an idle entity has work: queue it and its idle ancestors
 * @entity: a leaf whose budget is set
 * @urgent: to be served next (see bq_stamp)
 * @resume: the leaf comes back after a short hole in its service (see
 *	bq_restart); ignored if its class changed
 *
 * Stops at the first ancestor already scheduled.  Groups inherit the
 * budget of the child that woke them.
 */
void bq_activate(struct bq_entity *entity, bool urgent, bool resume)
{
	u64 budget = entity->budget;

	for (; entity; entity = entity->parent, resume = false) {
		struct bq_tree *tree;
		u64 start;

		if (entity->where == BQ_ACTIVE || entity->where == BQ_SERVING)
			return;
		if (entity->my_sd)
			entity->budget = budget;
		if (entity->where == BQ_IDLE) {
			bq_idle_del(bq_tree_of(entity), entity);
			if (bq_apply_changes(entity, true))
				start = bq_tree_of(entity)->vtime;
			else if (bq_vt_before(bq_tree_of(entity)->vtime,
					      entity->finish))
				start = entity->finish;
			else
				start = bq_restart(entity,
						   bq_tree_of(entity)->vtime,
						   resume);
		} else {
			bool moved;

			if (entity->sd->ops && entity->sd->ops->acquired)
				entity->sd->ops->acquired(entity);
			moved = bq_apply_changes(entity, false);
			tree = bq_tree_of(entity);
			tree->wsum += entity->weight;
			start = bq_restart(entity, tree->vtime, resume && !moved);
		}
		bq_stamp(entity, start, urgent);
	}
}

/**
 * bq_charge - account service given to the entity in service
 * @entity: the leaf in service
 * @sectors: service given
 *
 * Charges the whole in-service chain and advances each level's virtual time.
 */
void bq_charge(struct bq_entity *entity, u64 sectors)
{
	for (; entity; entity = entity->parent) {
		struct bq_tree *tree = bq_tree_of(entity);

		entity->service += sectors;
		tree->vtime += bq_delta(sectors, tree->wsum);
		bq_idle_expire(tree);
	}
}

/* The eligible entity with the smallest finish time of a non-empty tree. */
static struct bq_entity *bq_first_eligible(struct bq_tree *tree)
{
	struct rb_node *node = tree->active.rb_root.rb_node;
	struct bq_entity *first;

	if (bq_vt_before(tree->vtime, bq_of(node)->min_start)) {
		tree->vtime = bq_of(node)->min_start;
		bq_idle_expire(tree);
	}
	first = bq_of(rb_first_cached(&tree->active));
	if (!bq_vt_before(tree->vtime, first->start))
		return first;

	while (node) {
		struct rb_node *left = node->rb_left;

		if (left && !bq_vt_before(tree->vtime, bq_of(left)->min_start))
			node = left;
		else if (bq_vt_before(tree->vtime, bq_of(node)->start))
			node = node->rb_right;
		else
			return bq_of(node);
	}
	return NULL;
}

/*
 * Pick the class to serve: strict priority, but IDLE waits a bounded time.
 * The times come slightly out of order (a preempting request's own start
 * time, a plug's cached clock): one earlier than the last stamp has waited
 * for nothing, and does not move the stamp back.
 */
static int bq_pick_class(struct bq_sched *sd, u64 now_ns)
{
	s64 waited = now_ns - sd->idle_class_served_ns;
	int class;

	if (!sd->tree[BQ_CLASS_IDLE].nr_active) {
		if (waited > 0)
			sd->idle_class_served_ns = now_ns;
	} else if (waited > 0 && (u64)waited > sd->idle_class_wait_ns) {
		sd->idle_class_served_ns = now_ns;
		return BQ_CLASS_IDLE;
	}
	for (class = 0; class < BQ_NR_CLASSES; class++)
		if (sd->tree[class].nr_active)
			return class;
	return -1;
}

static struct bq_entity *bq_pick(struct bq_sched *sd, u64 now_ns)
{
	int class = bq_pick_class(sd, now_ns);
	struct bq_tree *tree;
	struct bq_entity *entity;

	if (class < 0)
		return NULL;
	tree = &sd->tree[class];
	entity = bq_first_eligible(tree);
	if (WARN_ON_ONCE(!entity))
		return NULL;
	bq_active_del(tree, entity);
	entity->where = BQ_SERVING;
	entity->service = 0;
	sd->serving = entity;
	return entity;
}

/**
 * bq_select - choose the next leaf to serve, descending from the root
 * @root: the root group's sched data; no leaf may be in service
 * @now_ns: current time, for the IDLE class wait bound
 *
 * Groups still in service (see bq_expire_leaf()) are descended into: the
 * leaf comes from the innermost one.  Returns the leaf now in service, or
 * NULL when no entity is busy.
 */
struct bq_entity *bq_select(struct bq_sched *root, u64 now_ns)
{
	struct bq_sched *sd = root;
	struct bq_entity *entity;

	for (;;) {
		entity = sd->serving;
		if (!entity)
			entity = bq_pick(sd, now_ns);
		else if (WARN_ON_ONCE(!entity->my_sd))
			return entity;		/* a leaf already in service */
		if (!entity) {
			if (sd == root)
				return NULL;
			/*
			 * A group kept in service with nothing left to serve,
			 * which bq_expire_leaf()'s caller must not let happen:
			 * its slot ends, and the choice starts from the root.
			 */
			WARN_ON_ONCE(1);
			bq_expire(sd->owner, false);
			sd = root;
			continue;
		}
		if (!entity->my_sd)
			return entity;
		sd = entity->my_sd;
	}
}

/* The first active entity of @sd's RT and BE trees, from @class on. */
static struct rb_node *bq_first_rtbe(const struct bq_sched *sd, int class)
{
	struct rb_node *first = NULL;

	for (; class < BQ_CLASS_IDLE && !first; class++)
		first = rb_first_cached(&sd->tree[class].active);
	return first;
}

/*
 * The first RT or BE leaf below @top, by class then finish time at each
 * level, with no regard for eligibility and changing nothing.  A group
 * with only IDLE class leaves below it is passed over for the entities
 * after it: a depth-first walk, which in general stops at its first step
 * down.
 */
static struct bq_entity *bq_peek_below(struct bq_sched *top)
{
	struct bq_sched *sd = top;
	struct rb_node *node = bq_first_rtbe(sd, BQ_CLASS_RT);
	struct bq_entity *entity;

	for (;;) {
		if (node) {
			entity = bq_of(node);
			if (!entity->my_sd)
				return entity;
			sd = entity->my_sd;
			node = bq_first_rtbe(sd, BQ_CLASS_RT);
			continue;
		}
		if (sd == top)
			return NULL;
		/* Nothing below this group: on to what follows it. */
		entity = sd->owner;
		sd = entity->sd;
		node = rb_next(&entity->node);
		if (!node)
			node = bq_first_rtbe(sd, entity->class + 1);
	}
}

/**
 * bq_peek_near - a busy leaf near one in service, for extra work
 * @serving: the leaf in service
 *
 * Looks among @serving's siblings first, then among its ancestors'.  The
 * leaf found is not the one bq_select() would choose in general, and
 * nothing changes: its caller may take work from it while @serving is
 * waited for, and charges it later.  IDLE class leaves are never chosen.
 */
struct bq_entity *bq_peek_near(struct bq_entity *serving)
{
	struct bq_entity *entity, *leaf;

	for (entity = serving; entity; entity = entity->parent) {
		leaf = bq_peek_below(entity->sd);
		if (leaf)
			return leaf;
	}
	return NULL;
}

/* End the slot of one in-service entity; returns whether its parent is busy. */
static bool bq_expire_one(struct bq_entity *entity, bool busy)
{
	struct bq_entity *parent = entity->parent;
	struct bq_tree *tree = bq_tree_of(entity);

	entity->sd->serving = NULL;
	entity->finish = entity->start + bq_delta(entity->service,
						  entity->weight);
	entity->service = 0;
	if (busy) {
		u64 start = entity->finish;

		if (bq_apply_changes(entity, true))
			start = bq_tree_of(entity)->vtime;
		bq_stamp(entity, start, false);
	} else if (entity->new_class != entity->class ||
		   !bq_vt_before(tree->vtime, entity->finish)) {
		bq_leave(entity);
	} else {
		bq_idle_add(tree, entity);
		bq_idle_flush(entity->sd, tree);
	}
	return parent && bq_sched_busy(parent->my_sd);
}

/**
 * bq_expire - end the service slot of a leaf and of its in-service ancestors
 * @entity: the leaf in service, its budget already set for the next slot
 * @busy: the leaf still has work
 */
void bq_expire(struct bq_entity *entity, bool busy)
{
	u64 budget = entity->budget;

	while (entity) {
		struct bq_entity *parent = entity->parent;

		if (entity->my_sd)
			entity->budget = budget;
		busy = bq_expire_one(entity, busy);
		entity = parent;
	}
}

/**
 * bq_expire_leaf - end the slot of a leaf, its groups staying in service
 * @entity: the leaf in service, its budget already set for the next slot
 * @busy: the leaf still has work
 *
 * For a leaf that makes way for a sibling: its groups' slots go on, and
 * the next bq_select() serves a leaf of the innermost one.  The caller
 * activates that sibling before it calls bq_select(), which otherwise
 * warns and ends the group's slot.
 */
void bq_expire_leaf(struct bq_entity *entity, bool busy)
{
	if (entity->parent)
		bq_expire_one(entity, busy);
	else
		bq_expire(entity, busy);
}

/**
 * bq_deactivate - take an entity that lost its work out of scheduling
 * @entity: a leaf, active or in service
 *
 * An entity in service ends its slot.  Ancestors left without work follow.
 * One that loses its work while waiting (its requests dispatched by
 * injection, which its leaf pays for when next served) received nothing
 * here: its finish goes back to its start, or each such loss would push
 * it one more budget ahead.
 */
void bq_deactivate(struct bq_entity *entity)
{
	if (entity->where == BQ_SERVING) {
		bq_expire(entity, false);
		return;
	}
	while (entity && entity->where == BQ_ACTIVE) {
		struct bq_entity *parent = entity->parent;
		struct bq_tree *tree = bq_tree_of(entity);

		bq_active_del(tree, entity);
		entity->finish = entity->start;
		if (bq_vt_before(tree->vtime, entity->finish)) {
			bq_idle_add(tree, entity);
			bq_idle_flush(entity->sd, tree);
		} else {
			bq_leave(entity);
		}
		if (!parent || bq_sched_busy(parent->my_sd))
			return;
		entity = parent;
	}
}

/* Drop every idle entity of one group, for teardown. */
void bq_forget_idle(struct bq_sched *sd)
{
	int class;

	for (class = 0; class < BQ_NR_CLASSES; class++) {
		struct bq_tree *tree = &sd->tree[class];
		struct rb_node *first;

		while ((first = rb_first_cached(&tree->idle))) {
			bq_idle_del(tree, bq_of(first));
			bq_release(bq_of(first));
		}
	}
}

bool bq_sched_busy(const struct bq_sched *sd)
{
	int class;

	if (sd->serving)
		return true;
	for (class = 0; class < BQ_NR_CLASSES; class++)
		if (sd->tree[class].nr_active)
			return true;
	return false;
}

void bq_sched_init(struct bq_sched *sd, struct bq_entity *owner,
		   const struct bq_engine_ops *ops, u64 idle_wait_ns)
{
	int class;

	memset(sd, 0, sizeof(*sd));
	for (class = 0; class < BQ_NR_CLASSES; class++) {
		sd->tree[class].active = RB_ROOT_CACHED;
		sd->tree[class].idle = RB_ROOT_CACHED;
	}
	sd->owner = owner;
	sd->ops = ops;
	sd->idle_class_wait_ns = idle_wait_ns;
	if (owner)
		owner->my_sd = sd;
}

void bq_entity_init(struct bq_entity *entity, struct bq_sched *sd,
		    unsigned int weight, enum bq_class class)
{
	memset(entity, 0, sizeof(*entity));
	RB_CLEAR_NODE(&entity->node);
	entity->weight = weight;
	entity->new_weight = weight;
	entity->class = class;
	entity->new_class = class;
	entity->sd = sd;
	entity->parent = sd->owner;
	entity->where = BQ_OFF;
}

/*
 * Invariant check, for tests and debugfs: active trees ordered by finish with
 * correct subtree minima, entity counts and weight sums equal to what the
 * trees hold, virtual time never going backwards since the previous check.
 */
static int bq_check_node(const struct rb_node *node, u64 *min_start)
{
	const struct bq_entity *entity = rb_entry(node, struct bq_entity, node);
	u64 min = entity->start, sub;
	int ret;

	if (node->rb_left) {
		ret = bq_check_node(node->rb_left, &sub);
		if (ret)
			return ret;
		min = bq_vt_min(min, sub);
	}
	if (node->rb_right) {
		ret = bq_check_node(node->rb_right, &sub);
		if (ret)
			return ret;
		min = bq_vt_min(min, sub);
	}
	*min_start = min;
	return min == entity->min_start ? 0 : -EUCLEAN;
}

static int bq_check_tree(const struct bq_sched *sd, int class, char *why,
			 size_t len)
{
	const struct bq_tree *tree = &sd->tree[class];
	const struct bq_entity *prev = NULL;
	struct rb_node *stranded = NULL;
	unsigned int nr = 0;
	u64 wsum = 0, min;
	struct rb_node *node;

	for (node = rb_first_cached(&tree->active); node; node = rb_next(node)) {
		const struct bq_entity *e = bq_of(node);

		if (prev && bq_vt_before(e->finish, prev->finish)) {
			snprintf(why, len, "class %d: active tree out of order", class);
			return -EUCLEAN;
		}
		if (e->where != BQ_ACTIVE || e->class != class) {
			snprintf(why, len, "class %d: active entity misfiled", class);
			return -EUCLEAN;
		}
		wsum += e->weight;
		nr++;
		prev = e;
	}
	for (node = rb_first_cached(&tree->idle); node; node = rb_next(node)) {
		if (bq_of(node)->where != BQ_IDLE) {
			snprintf(why, len, "class %d: idle entity misfiled", class);
			return -EUCLEAN;
		}
		wsum += bq_of(node)->weight;
	}
	if (sd->serving && sd->serving->class == class)
		wsum += sd->serving->weight;
	else if (!nr)
		stranded = rb_first_cached(&tree->idle);
	if (nr != tree->nr_active || wsum != tree->wsum) {
		snprintf(why, len, "class %d: %u active (counted %u), wsum %llu (counted %llu)",
			 class, nr, tree->nr_active, wsum, tree->wsum);
		return -EUCLEAN;
	}
	if (stranded) {
		/* Nothing left to advance V: they would never be released. */
		snprintf(why, len, "class %d: idle entities stranded", class);
		return -EUCLEAN;
	}
	if (tree->active.rb_root.rb_node &&
	    bq_check_node(tree->active.rb_root.rb_node, &min)) {
		snprintf(why, len, "class %d: stale subtree minimum", class);
		return -EUCLEAN;
	}
	return 0;
}

int bq_check(struct bq_sched *sd, char *why, size_t len)
{
	int class, ret;

	for (class = 0; class < BQ_NR_CLASSES; class++) {
		struct bq_tree *tree = &sd->tree[class];

		ret = bq_check_tree(sd, class, why, len);
		if (ret)
			return ret;
		if (bq_vt_before(tree->vtime, tree->vtime_checked)) {
			snprintf(why, len, "class %d: virtual time went back", class);
			return -EUCLEAN;
		}
		tree->vtime_checked = tree->vtime;
	}
	if (sd->serving && sd->serving->where != BQ_SERVING) {
		snprintf(why, len, "entity in service not marked so");
		return -EUCLEAN;
	}
	return 0;
}
