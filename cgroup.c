// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng groups: hierarchical scheduling by cgroup.
 *
 * The module registers a blkcg policy.  Every (cgroup, device) pair on which
 * bfq-ng runs gets a struct bq_group: an entity in its parent's trees and a
 * struct bq_sched for its children, queues and groups alike.  The root
 * cgroup's group is never scheduled: bqd->root stands for it, and a NULL
 * group pointer means the root everywhere else in the module.  A request
 * goes to the group of its bio's blkg; a process's sync queue follows it at
 * its next request (queue.c).  Each group has its own async queues.  Groups
 * are BE entities: I/O classes apply inside a group, not between groups.
 *
 * Weights: a cgroup has a default weight and may override it per device.
 * A change reaches the entity's new_weight at once and the engine applies it
 * at the entity's next activation or slot end.
 *
 * Lifetime: a group is referenced by the blkcg core (pd_alloc to pd_free),
 * by each child group, by each queue in it and by the engine while its
 * entity is on a tree; the last put frees it, possibly well after its
 * cgroup is gone, so queued I/O drains where it is.  Offline, a group drops
 * its async queues and takes no new queue: its blkg's requests go to the
 * nearest online ancestor.  A group whose entity leaves the engine forgets
 * its idle children, so that no loop (group -> idle queue -> group) stays.
 *
 * Locking: bqd->lock guards every group field.  The blkcg callbacks run
 * under q->queue_lock and/or blkcg->lock; bqd->lock nests inside both:
 * q->queue_lock -> blkcg->lock -> bqd->lock, never the other way round.
 * The cgroup's default weight is written under blkcg->lock.
 */
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "blk-cgroup.h"
#include "blk-cgroup-rwstat.h"
#include "elevator.h"
#include "bfq-ng.h"

#define BQ_CG_WEIGHT_MIN	1
#define BQ_CG_WEIGHT_MAX	1000
#define BQ_CG_WEIGHT_DEFAULT	100

struct bq_group {
	struct blkg_policy_data pd;	/* first: rwstat files use offsets */
	struct bq_entity entity;	/* in the parent's trees */
	struct bq_sched sched;		/* the children */
	struct bqd *bqd;		/* set by pd_online */
	struct bq_group *parent;	/* referenced; NULL: the root */
	struct list_head node;		/* on bqd->groups */
	u64 cgroup_id;			/* for debugfs: the cgroup's inode */
	int ref;
	bool online;			/* takes new queues */
	bool root;			/* the root cgroup's, never scheduled */
	unsigned int default_weight;	/* the cgroup's, copied */
	unsigned int dev_weight;	/* override on this device, 0: none */
	unsigned int pending;		/* own queues with I/O queued/in flight */
	struct bq_async_table async;
	struct rb_root pos_tree;	/* its sync queues by position, merge.c */
	struct blkg_rwstat bytes;	/* dispatched, lockless per-cpu */
	struct blkg_rwstat ios;
};

/* Per cgroup: the weight of its groups without a device override. */
struct bq_cgroup {
	struct blkcg_policy_data cpd;
	unsigned int weight;		/* written under blkcg->lock */
};

static struct blkcg_policy bq_blkcg_policy;

static struct bq_group *bq_pd_group(struct blkg_policy_data *pd)
{
	return pd ? container_of(pd, struct bq_group, pd) : NULL;
}

static struct bq_group *bq_blkg_pd_group(struct blkcg_gq *blkg)
{
	return bq_pd_group(blkg_to_pd(blkg, &bq_blkcg_policy));
}

static struct bq_cgroup *bq_blkcg_data(struct blkcg *blkcg)
{
	struct blkcg_policy_data *cpd = blkcg_to_cpd(blkcg, &bq_blkcg_policy);

	return cpd ? container_of(cpd, struct bq_cgroup, cpd) : NULL;
}

static unsigned int bq_cgroup_weight(struct blkcg *blkcg)
{
	struct bq_cgroup *bqc = bq_blkcg_data(blkcg);

	return bqc ? READ_ONCE(bqc->weight) : BQ_CG_WEIGHT_DEFAULT;
}

/* ------------------------------------------------------ group lifetime */

struct bq_sched *bq_group_sched(struct bqd *bqd, struct bq_group *bqg)
{
	return bqg ? &bqg->sched : &bqd->root;
}

struct bq_async_table *bq_group_async(struct bqd *bqd, struct bq_group *bqg)
{
	return bqg ? &bqg->async : &bqd->async;
}

struct rb_root *bq_group_pos_tree(struct bqd *bqd, struct bq_group *bqg)
{
	return bqg ? &bqg->pos_tree : &bqd->pos_tree;
}

void bq_group_get(struct bq_group *bqg)
{
	if (!bqg)
		return;
	lockdep_assert_held(&bqg->bqd->lock);
	bqg->ref++;
}

static void bq_group_free(struct bqd *bqd, struct bq_group *bqg)
{
	list_del(&bqg->node);
	bqd->live_groups--;
	if (bqd->root_group == bqg)
		bqd->root_group = NULL;
	blkg_rwstat_exit(&bqg->bytes);
	blkg_rwstat_exit(&bqg->ios);
	kfree(bqg);
}

/* Drop a reference; the last one frees the group and puts its parent. */
void bq_group_put(struct bqd *bqd, struct bq_group *bqg)
{
	lockdep_assert_held(&bqd->lock);
	while (bqg && --bqg->ref == 0) {
		struct bq_group *parent = bqg->parent;

		WARN_ON_ONCE(bqg->entity.where != BQ_OFF || bqg->pending);
		bq_group_free(bqd, bqg);
		bqg = parent;
	}
}

/* Engine callback: a group's entity went onto its parent's trees. */
void bq_group_acquired(struct bq_entity *entity)
{
	if (entity->my_sd)
		bq_group_get(container_of(entity, struct bq_group, entity));
}

/* Engine callback (via queue.c): a group's entity left the engine. */
void bq_group_released(struct bq_entity *entity)
{
	struct bq_group *bqg = container_of(entity, struct bq_group, entity);

	bq_forget_idle(&bqg->sched);
	bq_group_put(bqg->bqd, bqg);
}

/*
 * Symmetry: the groups (the root included) whose own queues have I/O queued
 * or in flight; heuristics.c calls this as it counts and uncounts queues.
 */
void bq_group_pending(struct bqd *bqd, struct bq_group *bqg, int delta)
{
	unsigned int *pending = bqg ? &bqg->pending : &bqd->root_pending;

	lockdep_assert_held(&bqd->lock);
	if (delta > 0 && (*pending)++ == 0)
		bqd->active_groups++;
	else if (delta < 0 && --(*pending) == 0)
		bqd->active_groups--;
}

/* Service statistics (v1 files): @rq was dispatched from a queue of @bqg. */
void __bq_group_served(struct bqd *bqd, struct bq_group *bqg,
		       struct request *rq)
{
	lockdep_assert_held(&bqd->lock);
	if (!bqg)
		bqg = bqd->root_group;
	if (!bqg)
		return;
	blkg_rwstat_add(&bqg->bytes, rq->cmd_flags, blk_rq_bytes(rq));
	blkg_rwstat_add(&bqg->ios, rq->cmd_flags, 1);
}

/*
 * The group new I/O of @blkg goes to: its own, or its nearest online
 * ancestor's when its cgroup is being removed; NULL for the root.
 */
static struct bq_group *bq_blkg_group(struct bqd *bqd, struct blkcg_gq *blkg)
{
	struct bq_group *bqg = bq_blkg_pd_group(blkg);

	lockdep_assert_held(&bqd->lock);
	while (bqg && !bqg->online)
		bqg = bqg->parent;
	if (!bqg || bqg->root || bqg->bqd != bqd)
		return NULL;
	return bqg;
}

/* The request's bio holds its blkg, hence the group's pd, alive. */
struct bq_group *bq_group_for_rq(struct bqd *bqd, struct request *rq)
{
	return rq->bio ? bq_blkg_group(bqd, rq->bio->bi_blkg) : NULL;
}

struct bq_group *bq_group_for_bio(struct bqd *bqd, struct bio *bio)
{
	return bq_blkg_group(bqd, bio->bi_blkg);
}

/* debugfs: the engine invariants of every group's trees. */
int bq_groups_check(struct bqd *bqd, char *why, size_t len)
{
	struct bq_group *bqg;
	int ret;

	lockdep_assert_held(&bqd->lock);
	list_for_each_entry(bqg, &bqd->groups, node) {
		if (bqg->root)
			continue;
		ret = bq_check(&bqg->sched, why, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* debugfs "groups": the line of the group whose node on bqd->groups is @node. */
void bq_group_show(struct seq_file *m, struct list_head *node)
{
	static const char *const where[] = {
		[BQ_OFF] = "off", [BQ_ACTIVE] = "active",
		[BQ_IDLE] = "idle", [BQ_SERVING] = "serving",
	};
	struct bq_group *bqg = list_entry(node, struct bq_group, node);

	seq_printf(m, "group %llu parent %llu %s %s weight %u new_weight %u %s ref %d pending %u\n",
		   bqg->cgroup_id, bqg->parent ? bqg->parent->cgroup_id : 0,
		   bqg->root ? "root" : "child",
		   bqg->online ? "online" : "offline", bqg->entity.weight,
		   bqg->entity.new_weight, where[bqg->entity.where],
		   bqg->ref, bqg->pending);
}

/* --------------------------------------------------- policy callbacks */

static struct blkcg_policy_data *bq_cpd_alloc(gfp_t gfp)
{
	struct bq_cgroup *bqc = kzalloc(sizeof(*bqc), gfp);

	if (!bqc)
		return NULL;
	bqc->weight = BQ_CG_WEIGHT_DEFAULT;
	return &bqc->cpd;
}

static void bq_cpd_free(struct blkcg_policy_data *cpd)
{
	kfree(container_of(cpd, struct bq_cgroup, cpd));
}

static struct blkg_policy_data *bq_pd_alloc(struct gendisk *disk,
					    struct blkcg *blkcg, gfp_t gfp)
{
	struct bq_group *bqg = kzalloc_node(sizeof(*bqg), gfp, disk->node_id);

	if (!bqg)
		return NULL;
	if (blkg_rwstat_init(&bqg->bytes, gfp) ||
	    blkg_rwstat_init(&bqg->ios, gfp)) {
		blkg_rwstat_exit(&bqg->bytes);
		kfree(bqg);
		return NULL;
	}
	bqg->ref = 1;		/* the blkcg core's, dropped by pd_free */
	return &bqg->pd;
}

/*
 * Link a new group under its parent's (online first: the core creates and
 * onlines blkgs parents first).  Not at pd_init: the core may fail to
 * insert a blkg after its pd_init, and free it through a work item that
 * elevator teardown does not wait for; only a blkg it inserted goes online,
 * and is reached by teardown (blkcg_deactivate_policy()).  Runs under
 * q->queue_lock and blkcg->lock.
 */
static void bq_group_link(struct bqd *bqd, struct bq_group *bqg,
			  struct blkcg_gq *blkg)
{
	struct bq_group *parent = NULL;

	lockdep_assert_held(&bqd->lock);
	bqg->bqd = bqd;
	bqg->cgroup_id = cgroup_id(blkg->blkcg->css.cgroup);
	bqg->root = !blkg->parent;
	if (blkg->parent)
		parent = bq_blkg_pd_group(blkg->parent);
	if (parent && (parent->root || parent->bqd != bqd))
		parent = NULL;
	bqg->parent = parent;
	bq_group_get(parent);
	bqg->default_weight = BQ_CG_WEIGHT_DEFAULT;
	bqg->pos_tree = RB_ROOT;
	bq_entity_init(&bqg->entity, bq_group_sched(bqd, parent),
		       bqg->default_weight, BQ_CLASS_BE);
	bq_sched_init(&bqg->sched, &bqg->entity, &bq_engine_ops,
		      BQ_IDLE_CLASS_WAIT_NS);
	list_add_tail(&bqg->node, &bqd->groups);
	bqd->live_groups++;
	if (bqg->root)
		bqd->root_group = bqg;
}

static void bq_group_set_weights(struct bq_group *bqg, unsigned int dflt,
				 unsigned int dev)
{
	lockdep_assert_held(&bqg->bqd->lock);
	WRITE_ONCE(bqg->default_weight, dflt);
	WRITE_ONCE(bqg->dev_weight, dev);
	bqg->entity.new_weight = dev ? dev : dflt;
}

/*
 * The blkg is on its cgroup's list now (blkcg->lock held): the cgroup's
 * weight read here cannot miss a concurrent write of it.
 */
static void bq_pd_online(struct blkg_policy_data *pd)
{
	struct blkcg_gq *blkg = pd_to_blkg(pd);
	struct bqd *bqd = blkg->q->elevator->elevator_data;
	struct bq_group *bqg = bq_pd_group(pd);
	unsigned long flags;

	spin_lock_irqsave(&bqd->lock, flags);
	bq_group_link(bqd, bqg, blkg);
	bqg->online = true;
	bq_group_set_weights(bqg, bq_cgroup_weight(blkg->blkcg),
			     bqg->dev_weight);
	spin_unlock_irqrestore(&bqd->lock, flags);
}

/* The cgroup is going away, or the scheduler: no new queue joins. */
static void bq_pd_offline(struct blkg_policy_data *pd)
{
	struct bq_group *bqg = bq_pd_group(pd);
	unsigned long flags;

	spin_lock_irqsave(&bqg->bqd->lock, flags);
	bqg->online = false;
	bq_async_table_drop(&bqg->async);
	spin_unlock_irqrestore(&bqg->bqd->lock, flags);
}

static void bq_pd_free(struct blkg_policy_data *pd)
{
	struct bq_group *bqg = bq_pd_group(pd);
	struct bqd *bqd = bqg->bqd;
	unsigned long flags;

	if (!bqd) {		/* allocated, never online */
		blkg_rwstat_exit(&bqg->bytes);
		blkg_rwstat_exit(&bqg->ios);
		kfree(bqg);
		return;
	}
	spin_lock_irqsave(&bqd->lock, flags);
	bqg->online = false;
	bq_async_table_drop(&bqg->async);
	bq_group_put(bqd, bqg);
	spin_unlock_irqrestore(&bqd->lock, flags);
}

/* ---------------------------------------------------------- cgroup files */

static int bq_parse_weight(const char *s, unsigned int *weight)
{
	unsigned int val;

	if (kstrtouint(s, 10, &val))
		return -EINVAL;
	if (val < BQ_CG_WEIGHT_MIN || val > BQ_CG_WEIGHT_MAX)
		return -ERANGE;
	*weight = val;
	return 0;
}

/* A cgroup's default weight: every group of it without an override. */
static int bq_set_cgroup_weight(struct blkcg *blkcg, unsigned int weight)
{
	struct bq_cgroup *bqc = bq_blkcg_data(blkcg);
	struct blkcg_gq *blkg;

	if (!bqc)
		return -ENODEV;
	spin_lock_irq(&blkcg->lock);
	WRITE_ONCE(bqc->weight, weight);
	hlist_for_each_entry(blkg, &blkcg->blkg_list, blkcg_node) {
		struct bq_group *bqg = bq_blkg_pd_group(blkg);

		if (!bqg || !bqg->bqd)
			continue;
		spin_lock(&bqg->bqd->lock);
		bq_group_set_weights(bqg, weight, bqg->dev_weight);
		spin_unlock(&bqg->bqd->lock);
	}
	spin_unlock_irq(&blkcg->lock);
	return 0;
}

/*
 * "MAJ:MIN W" sets a device override, "MAJ:MIN default" (or, in v1,
 * "MAJ:MIN 0") removes it.
 */
static int bq_set_dev_weight(struct kernfs_open_file *of, char *buf, bool v1)
{
	struct blkcg *blkcg = css_to_blkcg(of_css(of));
	struct blkg_conf_ctx ctx;
	unsigned int weight = 0;
	struct bq_group *bqg;
	char *body;
	int ret;

	blkg_conf_init(&ctx, buf);
	ret = blkg_conf_prep(blkcg, &bq_blkcg_policy, &ctx);
	if (ret)
		goto out;
	body = strim(ctx.body);
	if (strcmp(body, "default") && !(v1 && !strcmp(body, "0")))
		ret = bq_parse_weight(body, &weight);
	bqg = bq_blkg_pd_group(ctx.blkg);
	if (!ret && bqg && bqg->bqd) {
		spin_lock(&bqg->bqd->lock);
		bq_group_set_weights(bqg, bqg->default_weight, weight);
		spin_unlock(&bqg->bqd->lock);
	}
out:
	blkg_conf_exit(&ctx);
	return ret;
}

static u64 bq_prfill_dev_weight(struct seq_file *sf,
				struct blkg_policy_data *pd, int off)
{
	unsigned int weight = READ_ONCE(bq_pd_group(pd)->dev_weight);

	if (weight)
		__blkg_prfill_u64(sf, pd, weight);
	return 0;
}

static void bq_print_dev_weights(struct seq_file *sf)
{
	blkcg_print_blkgs(sf, css_to_blkcg(seq_css(sf)), bq_prfill_dev_weight,
			  &bq_blkcg_policy, 0, false);
}

/* io.bfq-ng.weight: "default W", then one "MAJ:MIN W" line per override. */
static int bq_weight_show(struct seq_file *sf, void *v)
{
	seq_printf(sf, "default %u\n",
		   bq_cgroup_weight(css_to_blkcg(seq_css(sf))));
	bq_print_dev_weights(sf);
	return 0;
}

/* Takes "W", "default W", "MAJ:MIN W" and "MAJ:MIN default". */
static ssize_t bq_weight_write(struct kernfs_open_file *of, char *buf,
			       size_t nbytes, loff_t off)
{
	char *body = strim(buf);
	unsigned int weight;
	int ret;

	if (str_has_prefix(body, "default") && (!body[7] || isspace(body[7])))
		body = skip_spaces(body + 7);
	else if (strchr(body, ':'))
		return bq_set_dev_weight(of, body, false) ?: nbytes;
	ret = bq_parse_weight(body, &weight);
	if (!ret)
		ret = bq_set_cgroup_weight(css_to_blkcg(of_css(of)), weight);
	return ret ?: nbytes;
}

/* v1 blkio.bfq-ng.weight: the cgroup's default weight, a bare number. */
static u64 bq_v1_weight_read(struct cgroup_subsys_state *css,
			     struct cftype *cft)
{
	return bq_cgroup_weight(css_to_blkcg(css));
}

static int bq_v1_weight_write(struct cgroup_subsys_state *css,
			      struct cftype *cft, u64 val)
{
	if (val < BQ_CG_WEIGHT_MIN || val > BQ_CG_WEIGHT_MAX)
		return -ERANGE;
	return bq_set_cgroup_weight(css_to_blkcg(css), val);
}

static int bq_v1_weight_device_show(struct seq_file *sf, void *v)
{
	bq_print_dev_weights(sf);
	return 0;
}

static ssize_t bq_v1_weight_device_write(struct kernfs_open_file *of,
					 char *buf, size_t nbytes, loff_t off)
{
	return bq_set_dev_weight(of, strim(buf), true) ?: nbytes;
}

static int bq_rwstat_show(struct seq_file *sf, void *v)
{
	blkcg_print_blkgs(sf, css_to_blkcg(seq_css(sf)), blkg_prfill_rwstat,
			  &bq_blkcg_policy, seq_cft(sf)->private, true);
	return 0;
}

static_assert(offsetof(struct bq_group, pd) == 0);

/*
 * The files, "io." (v2) or "blkio." (v1) in front of their names; the
 * "bfq-ng." part is what bq_cgroup_register() replaces in drop-in mode.
 */
#define BQ_FILE(file)		.name = BQ_NAME "." file
#define BQ_RWSTAT_FILE(file, field) \
	{ BQ_FILE(file), .seq_show = bq_rwstat_show, \
	  .private = offsetof(struct bq_group, field) }

static struct cftype bq_dfl_files[] = {
	{ BQ_FILE("weight"), .seq_show = bq_weight_show,
	  .write = bq_weight_write, .flags = CFTYPE_NOT_ON_ROOT },
	{}
};

static struct cftype bq_legacy_files[] = {
	BQ_RWSTAT_FILE("io_service_bytes", bytes),
	BQ_RWSTAT_FILE("io_serviced", ios),
	{ BQ_FILE("weight"), .read_u64 = bq_v1_weight_read,
	  .write_u64 = bq_v1_weight_write, .flags = CFTYPE_NOT_ON_ROOT },
	{ BQ_FILE("weight_device"), .seq_show = bq_v1_weight_device_show,
	  .write = bq_v1_weight_device_write, .flags = CFTYPE_NOT_ON_ROOT },
	{}
};

#undef BQ_RWSTAT_FILE
#undef BQ_FILE

static struct blkcg_policy bq_blkcg_policy = {
	.dfl_cftypes	= bq_dfl_files,
	.legacy_cftypes	= bq_legacy_files,
	.cpd_alloc_fn	= bq_cpd_alloc,
	.cpd_free_fn	= bq_cpd_free,
	.pd_alloc_fn	= bq_pd_alloc,
	.pd_online_fn	= bq_pd_online,
	.pd_offline_fn	= bq_pd_offline,
	.pd_free_fn	= bq_pd_free,
};

/* ------------------------------------------------------ setup, teardown */

/* Called from init_sched with q->elevator set: groups for existing blkgs. */
int bq_groups_init(struct bqd *bqd)
{
	return blkcg_activate_policy(bqd->queue->disk, &bq_blkcg_policy);
}

/*
 * Teardown, no request left: every group goes offline and loses the core's
 * reference; groups still on the root's idle trees go with bq_queues_exit.
 */
void bq_groups_exit(struct bqd *bqd)
{
	blkcg_deactivate_policy(bqd->queue->disk, &bq_blkcg_policy);
}

/* FILES' names become PREFIX.FILE (io.PREFIX.FILE once the core adds io.). */
static void __init bq_cftypes_prefix(struct cftype *files, const char *prefix)
{
	char file[MAX_CFTYPE_NAME];

	for (; files->name[0]; files++) {
		strscpy(file, strchr(files->name, '.') + 1);
		scnprintf(files->name, sizeof(files->name), "%s.%s", prefix, file);
	}
}

/* PREFIX: "bfq-ng", or "bfq" in drop-in mode; files are renamed once. */
int __init bq_cgroup_register(const char *prefix)
{
	bq_cftypes_prefix(bq_dfl_files, prefix);
	bq_cftypes_prefix(bq_legacy_files, prefix);
	return blkcg_policy_register(&bq_blkcg_policy);
}

void bq_cgroup_unregister(void)
{
	blkcg_policy_unregister(&bq_blkcg_policy);
}
