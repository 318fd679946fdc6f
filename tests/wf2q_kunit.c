// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the bfq-ng B-WF2Q+ engine (wf2q.c) and of the policy
 * arithmetic beside it (policy.h: ioprio mapping, budget feedback, burst
 * state), built as its own module (bfq-ng-kunit.ko, tests/kunit/Kbuild) and
 * only against kernels with KUnit.  The engine source is compiled into this
 * object, so the module needs nothing from bfq-ng.ko and does not share an
 * object file with it.  How dispatch.c and heuristics.c use the policy
 * functions (which queues they call them for, and when) is tested through
 * the module in the stock lane (tests/t/21-ioprio-weights.sh,
 * tests/t/33-bursts.sh).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "../wf2q.c"
#include "../policy.h"

#define NR_LEAVES	16
#define NR_GROUPS	3
#define STEPS		4000
#define IDLE_WAIT_NS	1000000ULL

struct wq_env {
	struct bq_sched root;
	struct bq_entity group[NR_GROUPS];
	struct bq_sched gsd[NR_GROUPS];
	struct bq_entity leaf[NR_LEAVES];
	unsigned int released[NR_LEAVES + NR_GROUPS];
	struct rnd_state rnd;
};

static struct wq_env *cur_env;

static void wq_released(struct bq_entity *e)
{
	struct wq_env *env = cur_env;

	if (e >= env->leaf && e < env->leaf + NR_LEAVES)
		env->released[e - env->leaf]++;
	else if (e >= env->group && e < env->group + NR_GROUPS)
		env->released[NR_LEAVES + (e - env->group)]++;
}

static const struct bq_engine_ops wq_ops = { .released = wq_released };

static u32 wq_rand(struct wq_env *env, u32 n)
{
	return prandom_u32_state(&env->rnd) % n;
}

static struct wq_env *wq_env_new(struct kunit *test, u64 seed)
{
	struct wq_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	bq_sched_init(&env->root, NULL, &wq_ops, IDLE_WAIT_NS);
	prandom_seed_state(&env->rnd, seed);
	cur_env = env;
	return env;
}

/* bq_check() on every sched data of the environment. */
static void wq_check(struct kunit *test, struct wq_env *env, int ngroups,
		     const char *step)
{
	char why[128] = "";
	int g;

	KUNIT_ASSERT_EQ_MSG(test, bq_check(&env->root, why, sizeof(why)), 0,
			    "root after %s: %s", step, why);
	for (g = 0; g < ngroups; g++)
		KUNIT_ASSERT_EQ_MSG(test, bq_check(&env->gsd[g], why, sizeof(why)), 0,
				    "group %d after %s: %s", g, step, why);
}

static u64 wq_delta(u64 sectors, u64 weight)
{
	return div64_u64(sectors << BQ_VT_SHIFT, weight);
}

/* --- timestamps and virtual time --------------------------------------- */

static void wf2q_test_timestamps(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 1);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_tree *tree = &env->root.tree[BQ_CLASS_BE];
	u64 f_a, v0;

	bq_entity_init(a, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->root, 300, BQ_CLASS_BE);
	a->budget = 1024;
	b->budget = 2048;
	bq_activate(a, false, false);
	bq_activate(b, false, false);
	wq_check(test, env, 0, "activate");
	KUNIT_EXPECT_EQ(test, a->start, 0ULL);
	KUNIT_EXPECT_EQ(test, a->finish, (1024ULL << BQ_VT_SHIFT) / 100);
	KUNIT_EXPECT_EQ(test, b->finish, (2048ULL << BQ_VT_SHIFT) / 300);
	KUNIT_EXPECT_EQ(test, tree->wsum, 400ULL);
	KUNIT_EXPECT_EQ(test, tree->nr_active, 2U);

	/* b finishes first (smaller F) and both are eligible at V = 0. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	KUNIT_EXPECT_EQ(test, (int)b->where, (int)BQ_SERVING);
	v0 = tree->vtime;
	bq_charge(b, 1000);
	KUNIT_EXPECT_EQ(test, tree->vtime, v0 + wq_delta(1000, 400));
	KUNIT_EXPECT_EQ(test, b->service, 1000ULL);
	/* Charged what it received: F = S + service / w, then S' = F. */
	b->budget = 512;
	bq_expire(b, true);
	wq_check(test, env, 0, "expire");
	KUNIT_EXPECT_EQ(test, b->start, wq_delta(1000, 300));
	KUNIT_EXPECT_EQ(test, b->finish, b->start + wq_delta(512, 300));

	/* a is served next; its finish time did not move while it waited. */
	f_a = a->finish;
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	KUNIT_EXPECT_EQ(test, a->finish, f_a);
	bq_charge(a, 1024);
	bq_deactivate(a);
	wq_check(test, env, 0, "deactivate");
}

/* V jumps to the smallest start time when no entity is eligible. */
static void wf2q_test_vtime_jump(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 2);
	struct bq_entity *a = &env->leaf[0];
	struct bq_tree *tree = &env->root.tree[BQ_CLASS_BE];

	bq_entity_init(a, &env->root, 10, BQ_CLASS_BE);
	a->budget = 100;
	bq_activate(a, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_charge(a, 100);
	/* Alone in its tree: V advanced by service / wsum = F - S. */
	KUNIT_EXPECT_EQ(test, tree->vtime, wq_delta(100, 10));
	bq_expire(a, true);
	KUNIT_EXPECT_EQ(test, a->start, wq_delta(100, 10));
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	KUNIT_EXPECT_FALSE(test, bq_vt_before(tree->vtime, a->start));
	bq_expire(a, false);
	wq_check(test, env, 0, "expire");
}

/* --- random workloads against an O(N) reference ------------------------- */

struct wq_ref {
	struct bq_entity *want;	/* an entity with the reference's min finish */
};

/*
 * The reference: the class strict priority picks (IDLE's wait bound is kept
 * out of reach here), virtual time raised to the smallest start if nothing
 * is eligible, then the eligible entity with the smallest finish, by a scan
 * of every candidate entity.
 */
static struct bq_entity *wq_reference(struct bq_entity *cands, int n,
				      struct bq_sched *sd)
{
	struct bq_entity *best = NULL;
	int class, i;
	u64 v, min_s = 0;
	bool any = false;

	for (class = 0; class < BQ_NR_CLASSES; class++)
		if (sd->tree[class].nr_active)
			break;
	if (class == BQ_NR_CLASSES)
		return NULL;
	v = sd->tree[class].vtime;
	for (i = 0; i < n; i++) {
		struct bq_entity *e = &cands[i];

		if (e->sd != sd || e->where != BQ_ACTIVE || e->class != class)
			continue;
		if (!any || bq_vt_before(e->start, min_s))
			min_s = e->start;
		any = true;
	}
	if (!any)
		return NULL;
	if (bq_vt_before(v, min_s))
		v = min_s;
	for (i = 0; i < n; i++) {
		struct bq_entity *e = &cands[i];

		if (e->sd != sd || e->where != BQ_ACTIVE || e->class != class)
			continue;
		if (bq_vt_before(v, e->start))
			continue;
		if (!best || bq_vt_before(e->finish, best->finish))
			best = e;
	}
	return best;
}

static void wq_expect_choice(struct kunit *test, struct bq_entity *got,
			     struct bq_entity *want, int step)
{
	if (!want) {
		KUNIT_ASSERT_NULL_MSG(test, got, "step %d: selected from nothing", step);
		return;
	}
	KUNIT_ASSERT_NOT_NULL_MSG(test, got, "step %d: nothing selected", step);
	/* Ties in finish time may go either way. */
	KUNIT_ASSERT_EQ_MSG(test, got->finish, want->finish,
			    "step %d: picked finish %llu, reference %llu", step,
			    got->finish, want->finish);
	KUNIT_ASSERT_EQ_MSG(test, (int)got->class, (int)want->class,
			    "step %d: wrong class", step);
}

static struct bq_entity *wq_leaf_in_service(struct wq_env *env, int ngroups)
{
	struct bq_entity *e = env->root.serving;

	while (e && e->my_sd)
		e = e->my_sd->serving;
	return e;
}

/*
 * One random run.  ngroups = 0: all leaves at the root; otherwise leaves
 * are spread over ngroups groups.  @classes: draw leaf classes at random.
 * @v0: initial virtual time of every tree (wrap-around tests).
 */
static void wq_random_run(struct kunit *test, u64 seed, int ngroups,
			  bool classes, u64 v0)
{
	struct wq_env *env = wq_env_new(test, seed);
	struct bq_entity *serving = NULL;
	unsigned int selections = 0;
	int i, g, c, step;

	for (c = 0; c < BQ_NR_CLASSES; c++) {
		env->root.tree[c].vtime = v0;
		env->root.tree[c].vtime_checked = v0;
	}
	/* The IDLE class wait bound never triggers: time stays at 0. */
	env->root.idle_class_wait_ns = U64_MAX;
	for (g = 0; g < ngroups; g++) {
		bq_entity_init(&env->group[g], &env->root, 100 + 100 * g, BQ_CLASS_BE);
		bq_sched_init(&env->gsd[g], &env->group[g], &wq_ops, U64_MAX);
		for (c = 0; c < BQ_NR_CLASSES; c++) {
			env->gsd[g].tree[c].vtime = v0;
			env->gsd[g].tree[c].vtime_checked = v0;
		}
	}
	for (i = 0; i < NR_LEAVES; i++) {
		struct bq_sched *sd = ngroups ? &env->gsd[i % ngroups] : &env->root;
		enum bq_class class = classes ? wq_rand(env, 6) / 2 : BQ_CLASS_BE;

		/* Mostly BE: draws 0-5 give RT, RT?, BE, BE, IDLE, IDLE; thin RT out. */
		if (class == BQ_CLASS_RT && wq_rand(env, 3))
			class = BQ_CLASS_BE;
		bq_entity_init(&env->leaf[i], sd, 1 + wq_rand(env, 1000), class);
	}

	for (step = 0; step < STEPS; step++) {
		struct bq_entity *e = &env->leaf[wq_rand(env, NR_LEAVES)];
		u32 op = wq_rand(env, 10);

		if (op < 4) {
			/* Wake an entity that has no work (off or idle). */
			if (e->where == BQ_OFF || e->where == BQ_IDLE) {
				u64 start_v;
				bool from_idle = e->where == BQ_IDLE;
				u64 old_f = e->finish;

				e->budget = 1 + wq_rand(env, 4096);
				if (!wq_rand(env, 8))
					e->new_weight = 1 + wq_rand(env, 1000);
				start_v = bq_tree_of(e)->vtime;
				bq_activate(e, false, false);
				KUNIT_ASSERT_EQ(test, (int)e->where, (int)BQ_ACTIVE);
				KUNIT_ASSERT_EQ(test, e->weight, e->new_weight);
				KUNIT_ASSERT_EQ(test, e->finish,
						e->start + wq_delta(e->budget, e->weight));
				if (from_idle && e->class == e->new_class &&
				    bq_vt_before(start_v, old_f))
					KUNIT_ASSERT_EQ(test, e->start, old_f);
				else
					KUNIT_ASSERT_EQ(test, e->start, start_v);
			}
		} else if (op < 5) {
			if (e->where == BQ_ACTIVE)
				bq_deactivate(e);
		} else if (op < 6) {
			/* A weight change waits for the next activation. */
			unsigned int w = e->weight;

			e->new_weight = 1 + wq_rand(env, 1000);
			if (e->where == BQ_ACTIVE || e->where == BQ_SERVING)
				KUNIT_ASSERT_EQ(test, e->weight, w);
		} else if (!serving) {
			struct bq_entity *want[NR_GROUPS + 1];
			struct bq_entity *got;

			want[0] = wq_reference(ngroups ? env->group : env->leaf,
					       ngroups ? ngroups : NR_LEAVES, &env->root);
			for (g = 0; g < ngroups; g++)
				want[g + 1] = wq_reference(env->leaf, NR_LEAVES, &env->gsd[g]);
			got = bq_select(&env->root, 0);
			if (ngroups) {
				wq_expect_choice(test, env->root.serving, want[0], step);
				if (got) {
					g = env->root.serving - env->group;
					wq_expect_choice(test, got, want[g + 1], step);
				}
			} else {
				wq_expect_choice(test, got, want[0], step);
			}
			if (got) {
				KUNIT_ASSERT_EQ(test, (int)got->where, (int)BQ_SERVING);
				KUNIT_ASSERT_PTR_EQ(test, wq_leaf_in_service(env, ngroups), got);
				selections++;
			}
			serving = got;
		} else {
			/* Serve part or all of the budget, then end the slot. */
			u64 s = 1 + wq_rand(env, serving->budget);
			u64 v = bq_tree_of(serving)->vtime;
			u64 wsum = bq_tree_of(serving)->wsum;
			u64 start = serving->start;
			bool busy = wq_rand(env, 4);
			/* A weight change alone keeps S' = F (old weight). */
			bool changes = serving->new_class != serving->class;
			unsigned int w = serving->weight;

			bq_charge(serving, s);
			/* Charging advances V by service / wsum, nothing more. */
			KUNIT_ASSERT_EQ(test, bq_tree_of(serving)->vtime, v + wq_delta(s, wsum));
			serving->budget = 1 + wq_rand(env, 4096);
			bq_expire(serving, busy);
			if (busy) {
				KUNIT_ASSERT_EQ(test, (int)serving->where, (int)BQ_ACTIVE);
				if (!changes)
					KUNIT_ASSERT_EQ(test, serving->start,
							start + wq_delta(s, w));
				KUNIT_ASSERT_EQ(test, serving->weight, serving->new_weight);
			}
			serving = NULL;
		}
		wq_check(test, env, ngroups, "step");
	}
	/* Drain: everything must come out and be released. */
	if (serving)
		bq_expire(serving, false);
	for (i = 0; i < NR_LEAVES; i++)
		if (env->leaf[i].where == BQ_ACTIVE)
			bq_deactivate(&env->leaf[i]);
	for (g = 0; g < ngroups; g++)
		bq_forget_idle(&env->gsd[g]);
	bq_forget_idle(&env->root);
	wq_check(test, env, ngroups, "drain");
	for (i = 0; i < NR_LEAVES; i++)
		KUNIT_EXPECT_EQ_MSG(test, (int)env->leaf[i].where, (int)BQ_OFF,
				    "leaf %d still queued after the drain", i);
	for (g = 0; g < ngroups; g++)
		KUNIT_EXPECT_EQ(test, (int)env->group[g].where, (int)BQ_OFF);
	for (c = 0; c < BQ_NR_CLASSES; c++)
		KUNIT_EXPECT_EQ(test, env->root.tree[c].wsum, 0ULL);
	KUNIT_EXPECT_GT(test, selections, STEPS / 20);
}

static void wf2q_test_random_flat(struct kunit *test)
{
	u64 seed;

	for (seed = 10; seed < 16; seed++)
		wq_random_run(test, seed, 0, false, 0);
}

static void wf2q_test_random_classes(struct kunit *test)
{
	u64 seed;

	for (seed = 20; seed < 26; seed++)
		wq_random_run(test, seed, 0, true, 0);
}

static void wf2q_test_random_hier(struct kunit *test)
{
	u64 seed;

	for (seed = 30; seed < 34; seed++)
		wq_random_run(test, seed, NR_GROUPS, false, 0);
}

/* Virtual time starting just below U64_MAX wraps during the run. */
static void wf2q_test_wraparound(struct kunit *test)
{
	u64 seed;

	for (seed = 40; seed < 44; seed++)
		wq_random_run(test, seed, 0, true, U64_MAX - (200ULL << BQ_VT_SHIFT));
	wq_random_run(test, 44, NR_GROUPS, false, U64_MAX - (50ULL << BQ_VT_SHIFT));
}

/* The wrap itself: an entity stamped across U64_MAX still orders right. */
static void wf2q_test_wrap_order(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 3);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_tree *tree = &env->root.tree[BQ_CLASS_BE];

	tree->vtime = U64_MAX - wq_delta(10, 1);
	tree->vtime_checked = tree->vtime;
	bq_entity_init(a, &env->root, 1, BQ_CLASS_BE);
	bq_entity_init(b, &env->root, 1, BQ_CLASS_BE);
	a->budget = 100;	/* finish wraps past 0 */
	b->budget = 5;		/* finish stays below U64_MAX */
	bq_activate(a, false, false);
	bq_activate(b, false, false);
	KUNIT_EXPECT_LT(test, a->finish, a->start);	/* numerically wrapped */
	KUNIT_EXPECT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_charge(b, 40);	/* V itself wraps now */
	KUNIT_EXPECT_LT(test, tree->vtime, a->start);
	bq_expire(b, true);
	wq_check(test, env, 0, "wrap");
	/* b restarts ahead of V, a is the only eligible one. */
	KUNIT_EXPECT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_expire(a, false);
	KUNIT_EXPECT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_expire(b, false);
	wq_check(test, env, 0, "wrap end");
}

/* --- idle tree -------------------------------------------------------- */

/*
 * Two entities of weight 100 and budget 1000 in @class; @a is served for
 * 400 sectors and empties ahead of V (F_a = 4, V = 2): it waits on the idle
 * tree while @b stays active.
 */
static void wq_one_idle(struct kunit *test, struct wq_env *env,
			struct bq_entity *a, struct bq_entity *b,
			enum bq_class class)
{
	bq_entity_init(a, &env->root, 100, class);
	bq_entity_init(b, &env->root, 100, class);
	a->budget = 1000;
	b->budget = 1000;
	bq_activate(a, false, false);
	bq_activate(b, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_charge(a, 400);
	bq_expire(a, false);
	KUNIT_ASSERT_EQ(test, (int)a->where, (int)BQ_IDLE);
}

static void wf2q_test_idle_tree(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 4);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_tree *tree = &env->root.tree[BQ_CLASS_BE];
	u64 f_a;

	wq_one_idle(test, env, a, b, BQ_CLASS_BE);
	f_a = a->finish;
	KUNIT_EXPECT_EQ(test, f_a, wq_delta(400, 100));
	KUNIT_EXPECT_EQ(test, (int)a->where, (int)BQ_IDLE);
	KUNIT_EXPECT_EQ(test, tree->wsum, 200ULL);	/* still counted */
	KUNIT_EXPECT_EQ(test, env->released[0], 0U);
	wq_check(test, env, 0, "idle");

	/* Back before V reaches F: it restarts from its old finish, no credit. */
	a->budget = 100;
	bq_activate(a, false, false);
	KUNIT_EXPECT_EQ(test, a->start, f_a);
	KUNIT_EXPECT_EQ(test, a->finish, f_a + wq_delta(100, 100));
	/*
	 * It loses its work unserved (dispatched by injection): it was charged
	 * nothing, so its finish is its start again, and back once more it
	 * still starts at F_a, not a budget later.
	 */
	bq_deactivate(a);
	KUNIT_EXPECT_EQ(test, (int)a->where, (int)BQ_IDLE);
	KUNIT_EXPECT_EQ(test, a->finish, f_a);
	bq_activate(a, false, false);
	KUNIT_EXPECT_EQ(test, a->start, f_a);
	bq_deactivate(a);
	KUNIT_EXPECT_EQ(test, a->finish, f_a);

	/* V passes F while b is served: a is forgotten and released. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	/* a's finish is F_a = 4 (in units of 1 << BQ_VT_SHIFT). */
	bq_charge(b, 100);	/* V = 2 + 100/200 < 4 */
	KUNIT_EXPECT_EQ(test, (int)a->where, (int)BQ_IDLE);
	bq_charge(b, 900);	/* V = 2.5 + 900/200 >= 4: expired */
	KUNIT_EXPECT_EQ(test, (int)a->where, (int)BQ_OFF);
	KUNIT_EXPECT_EQ(test, env->released[0], 1U);
	KUNIT_EXPECT_EQ(test, tree->wsum, 100ULL);
	wq_check(test, env, 0, "expired");

	/* The last busy entity leaving flushes the idle tree at once. */
	bq_expire(b, false);
	KUNIT_EXPECT_EQ(test, (int)b->where, (int)BQ_OFF);
	KUNIT_EXPECT_EQ(test, tree->wsum, 0ULL);
	KUNIT_EXPECT_EQ(test, env->released[1], 1U);
	KUNIT_EXPECT_FALSE(test, bq_sched_busy(&env->root));
	wq_check(test, env, 0, "flushed");
}

/*
 * Idle entities do not outlive the last busy entity of their tree, however
 * it leaves (released behind V, or moved to another class): nothing would
 * be left to advance V past their finish, and their references would stay.
 */
static void wf2q_test_no_stranding(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 15);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_entity *c = &env->leaf[2], *d = &env->leaf[3];

	wq_one_idle(test, env, a, b, BQ_CLASS_BE);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_charge(b, 100);		/* F_b = 1 <= V = 2.5: b is released */
	bq_expire(b, false);
	KUNIT_EXPECT_EQ(test, (int)b->where, (int)BQ_OFF);
	KUNIT_EXPECT_EQ(test, (int)a->where, (int)BQ_OFF);
	KUNIT_EXPECT_EQ(test, env->released[0], 1U);
	wq_check(test, env, 0, "last one released");

	wq_one_idle(test, env, c, d, BQ_CLASS_RT);
	d->new_class = BQ_CLASS_BE;
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), d);
	bq_charge(d, 100);
	bq_expire(d, true);		/* still busy, restamped in BE */
	KUNIT_EXPECT_EQ(test, (int)d->class, (int)BQ_CLASS_BE);
	KUNIT_EXPECT_EQ(test, (int)c->where, (int)BQ_OFF);
	KUNIT_EXPECT_EQ(test, env->released[2], 1U);
	wq_check(test, env, 0, "last one moved");
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), d);
	bq_expire(d, false);
	KUNIT_EXPECT_FALSE(test, bq_sched_busy(&env->root));
	wq_check(test, env, 0, "end");
}

/* --- weight changes --------------------------------------------------- */

static void wf2q_test_weight_change(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 5);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_tree *tree = &env->root.tree[BQ_CLASS_BE];

	bq_entity_init(a, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->root, 100, BQ_CLASS_BE);
	a->budget = 100;
	b->budget = 100;
	bq_activate(a, false, false);
	bq_activate(b, false, false);
	a->new_weight = 400;
	/* Nothing changes while queued. */
	KUNIT_EXPECT_EQ(test, a->weight, 100U);
	KUNIT_EXPECT_EQ(test, tree->wsum, 200ULL);
	wq_check(test, env, 0, "pending");
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	KUNIT_EXPECT_EQ(test, a->weight, 100U);
	bq_charge(a, 100);
	bq_expire(a, true);	/* re-stamped: the new weight applies now */
	KUNIT_EXPECT_EQ(test, a->weight, 400U);
	KUNIT_EXPECT_EQ(test, tree->wsum, 500ULL);
	KUNIT_EXPECT_EQ(test, a->finish, a->start + wq_delta(100, 400));
	wq_check(test, env, 0, "applied");

	/* Applied at activation from the idle tree as well. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_charge(b, 10);
	bq_expire(b, false);
	b->new_weight = 50;
	b->budget = 100;
	bq_activate(b, false, false);
	KUNIT_EXPECT_EQ(test, b->weight, 50U);
	KUNIT_EXPECT_EQ(test, tree->wsum, 450ULL);
	KUNIT_EXPECT_EQ(test, b->finish, b->start + wq_delta(100, 50));
	wq_check(test, env, 0, "idle reactivation");
}

/* --- classes ---------------------------------------------------------- */

static void wf2q_test_class_priority(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 6);
	struct bq_entity *rt = &env->leaf[0], *be = &env->leaf[1];
	struct bq_entity *idle = &env->leaf[2];
	int i;

	env->root.idle_class_wait_ns = 1000;
	bq_entity_init(rt, &env->root, 10, BQ_CLASS_RT);
	bq_entity_init(be, &env->root, 1000, BQ_CLASS_BE);
	bq_entity_init(idle, &env->root, 1000, BQ_CLASS_IDLE);
	rt->budget = be->budget = idle->budget = 64;
	bq_activate(idle, false, false);
	bq_activate(be, false, false);
	bq_activate(rt, false, false);

	/* RT always wins while busy, however small its weight. */
	for (i = 0; i < 5; i++) {
		KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 100 * i), rt);
		bq_charge(rt, 64);
		bq_expire(rt, true);
		wq_check(test, env, 0, "rt");
	}
	/* IDLE has waited past its bound: it gets one slot, then RT again. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 1500), idle);
	bq_charge(idle, 64);
	bq_expire(idle, true);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 1600), rt);
	bq_expire(rt, false);
	/* BE before IDLE, within the bound. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 1700), be);
	bq_charge(be, 64);
	bq_expire(be, true);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 1800), be);
	bq_expire(be, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 1900), idle);
	bq_expire(idle, false);
	KUNIT_EXPECT_NULL(test, bq_select(&env->root, 2000));
	wq_check(test, env, 0, "classes");
}

/*
 * A time earlier than the last the IDLE class was stamped at (a preempting
 * request's start time, a plug's cached clock) has not waited past the
 * bound: BE is served, and the bound still counts from the later stamp.
 */
static void wf2q_test_idle_bound_stale_time(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 11);
	struct bq_entity *be = &env->leaf[0], *idle = &env->leaf[1];

	env->root.idle_class_wait_ns = 1000;
	bq_entity_init(be, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(idle, &env->root, 100, BQ_CLASS_IDLE);
	be->budget = idle->budget = 64;
	bq_activate(be, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 50000), be);
	bq_expire(be, true);
	/* With IDLE inactive, an earlier time does not move the stamp back. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 49000), be);
	bq_expire(be, true);
	bq_activate(idle, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 49990), be);
	bq_expire(be, true);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 50900), be);
	bq_expire(be, true);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 51001), idle);
	bq_expire(idle, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 51100), be);
	bq_expire(be, false);
	KUNIT_EXPECT_NULL(test, bq_select(&env->root, 51200));
	wq_check(test, env, 0, "idle bound, stale time");
}

/* A class change applies at the next activation, in the new class's tree. */
static void wf2q_test_class_change(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 7);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];

	bq_entity_init(a, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->root, 100, BQ_CLASS_BE);
	a->budget = b->budget = 100;
	bq_activate(a, false, false);
	bq_activate(b, false, false);
	b->new_class = BQ_CLASS_RT;
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_charge(a, 100);
	bq_expire(a, true);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	KUNIT_EXPECT_EQ(test, (int)b->class, (int)BQ_CLASS_BE);
	bq_charge(b, 50);
	bq_expire(b, true);
	KUNIT_EXPECT_EQ(test, (int)b->class, (int)BQ_CLASS_RT);
	KUNIT_EXPECT_EQ(test, env->root.tree[BQ_CLASS_RT].wsum, 100ULL);
	KUNIT_EXPECT_EQ(test, env->root.tree[BQ_CLASS_BE].wsum, 100ULL);
	wq_check(test, env, 0, "class change");
	/* Now RT: served before a even though a was waiting. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_expire(b, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_expire(a, false);
	wq_check(test, env, 0, "end");
}

/* --- hierarchy -------------------------------------------------------- */

static void wf2q_test_hier_activation(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 8);
	struct bq_entity *g = &env->group[0], *a = &env->leaf[0];

	bq_entity_init(g, &env->root, 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[0], g, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(a, &env->gsd[0], 100, BQ_CLASS_BE);
	KUNIT_EXPECT_PTR_EQ(test, a->parent, g);
	a->budget = 256;
	bq_activate(a, false, false);
	/* The group is activated with the budget of the child that woke it. */
	KUNIT_EXPECT_EQ(test, (int)g->where, (int)BQ_ACTIVE);
	KUNIT_EXPECT_EQ(test, g->budget, 256ULL);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	KUNIT_EXPECT_PTR_EQ(test, env->root.serving, g);
	bq_charge(a, 100);
	KUNIT_EXPECT_EQ(test, g->service, 100ULL);
	bq_deactivate(a);
	/* The group had nothing else: it leaves too. */
	KUNIT_EXPECT_NE(test, (int)g->where, (int)BQ_ACTIVE);
	KUNIT_EXPECT_NE(test, (int)g->where, (int)BQ_SERVING);
	KUNIT_EXPECT_NULL(test, env->root.serving);
	wq_check(test, env, 1, "hier");
}

/*
 * bq_peek_near() finds a busy leaf beside the one in service, its siblings
 * before its groups' siblings, never of the IDLE class, and changes nothing.
 */
static void wf2q_test_peek_near(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 9);
	struct bq_entity *g = &env->group[0], *a = &env->leaf[0];
	struct bq_entity *b = &env->leaf[1], *c = &env->leaf[2];
	struct bq_entity *idle = &env->leaf[3];
	u64 b_start, b_finish, vtime;

	bq_entity_init(g, &env->root, 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[0], g, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(a, &env->gsd[0], 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->gsd[0], 100, BQ_CLASS_BE);
	bq_entity_init(c, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(idle, &env->gsd[0], 100, BQ_CLASS_IDLE);
	a->budget = b->budget = c->budget = idle->budget = 64;
	bq_activate(a, false, false);
	bq_activate(idle, false, false);
	bq_activate(c, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	/* Only an IDLE sibling: the group's sibling c. */
	KUNIT_EXPECT_PTR_EQ(test, bq_peek_near(a), c);
	bq_activate(b, false, false);
	b_start = b->start;
	b_finish = b->finish;
	vtime = env->gsd[0].tree[BQ_CLASS_BE].vtime;
	/* A BE sibling comes first, and peeking moves nothing. */
	KUNIT_EXPECT_PTR_EQ(test, bq_peek_near(a), b);
	KUNIT_EXPECT_EQ(test, (int)b->where, (int)BQ_ACTIVE);
	KUNIT_EXPECT_EQ(test, b->start, b_start);
	KUNIT_EXPECT_EQ(test, b->finish, b_finish);
	KUNIT_EXPECT_EQ(test, env->gsd[0].tree[BQ_CLASS_BE].vtime, vtime);
	KUNIT_EXPECT_PTR_EQ(test, env->gsd[0].serving, a);
	wq_check(test, env, 1, "peek");
	bq_deactivate(b);
	bq_deactivate(c);
	/* Nothing but the IDLE leaf: nothing to peek. */
	KUNIT_EXPECT_NULL(test, bq_peek_near(a));
	wq_check(test, env, 1, "peek end");
}

/*
 * A group with only IDLE class leaves below it hides nothing from
 * bq_peek_near(): the walk goes on past it, and out of a group nested in
 * it, to the entities after it.
 */
static void wf2q_test_peek_past_idle_groups(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 10);
	struct bq_entity *g0 = &env->group[0], *g1 = &env->group[1];
	struct bq_entity *g2 = &env->group[2], *a = &env->leaf[0];
	struct bq_entity *b = &env->leaf[1], *c = &env->leaf[2];
	struct bq_entity *i = &env->leaf[3], *j = &env->leaf[4];

	/* root: g0 { i (IDLE), g1 { j (IDLE), b } }, g2 { a }, c */
	bq_entity_init(g0, &env->root, 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[0], g0, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(g1, &env->gsd[0], 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[1], g1, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(g2, &env->root, 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[2], g2, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(a, &env->gsd[2], 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->gsd[1], 100, BQ_CLASS_BE);
	bq_entity_init(c, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(i, &env->gsd[0], 100, BQ_CLASS_IDLE);
	bq_entity_init(j, &env->gsd[1], 100, BQ_CLASS_IDLE);
	a->budget = b->budget = c->budget = 64;
	i->budget = j->budget = 8;
	bq_activate(a, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	/* g0 comes first at the root (the smaller budget of the leaf that woke it). */
	bq_activate(i, false, false);
	bq_activate(j, false, false);
	bq_activate(c, false, false);
	KUNIT_ASSERT_TRUE(test, bq_vt_before(g0->finish, c->finish));
	KUNIT_EXPECT_PTR_EQ(test, bq_peek_near(a), c);
	/* A BE leaf two levels down in g0 is found first. */
	bq_activate(b, false, false);
	KUNIT_EXPECT_PTR_EQ(test, bq_peek_near(a), b);
	bq_deactivate(b);
	bq_deactivate(c);
	KUNIT_EXPECT_NULL(test, bq_peek_near(a));
	wq_check(test, env, 3, "peek past idle groups");
}

/*
 * bq_expire_leaf() ends a leaf's slot and not its group's: the sibling
 * activated then is served next, although another group would come first
 * after the whole slot ended; and the group is charged for both leaves'
 * service when its slot ends.
 */
static void wf2q_test_expire_leaf(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 11);
	struct bq_entity *g0 = &env->group[0], *g1 = &env->group[1];
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_entity *c = &env->leaf[2];
	u64 g0_start;

	bq_entity_init(g0, &env->root, 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[0], g0, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(g1, &env->root, 100, BQ_CLASS_BE);
	bq_sched_init(&env->gsd[1], g1, &wq_ops, IDLE_WAIT_NS);
	bq_entity_init(a, &env->gsd[0], 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->gsd[0], 100, BQ_CLASS_BE);
	bq_entity_init(c, &env->gsd[1], 100, BQ_CLASS_BE);
	a->budget = b->budget = 64;
	c->budget = 16;
	bq_activate(a, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	g0_start = g0->start;
	bq_activate(c, false, false);
	bq_charge(a, 48);
	/* Ended whole, g0 would finish after g1. */
	KUNIT_ASSERT_TRUE(test, bq_vt_before(g1->finish,
					     g0_start + wq_delta(48, 100)));
	bq_expire_leaf(a, true);
	KUNIT_EXPECT_EQ(test, (int)g0->where, (int)BQ_SERVING);
	KUNIT_EXPECT_PTR_EQ(test, env->root.serving, g0);
	KUNIT_EXPECT_NULL(test, env->gsd[0].serving);
	bq_activate(b, true, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	KUNIT_EXPECT_PTR_EQ(test, env->root.serving, g0);
	wq_check(test, env, 2, "expire leaf");
	bq_charge(b, 16);
	KUNIT_EXPECT_EQ(test, g0->service, 64ULL);
	bq_expire(b, false);
	/* g0's slot was a's 48 sectors and b's 16: a's next one starts after. */
	KUNIT_EXPECT_EQ(test, (int)g0->where, (int)BQ_ACTIVE);
	KUNIT_EXPECT_EQ(test, g0->start, g0_start + wq_delta(64, 100));
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), c);
	bq_expire(c, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_expire(a, false);
	KUNIT_EXPECT_NULL(test, bq_select(&env->root, 0));
	wq_check(test, env, 2, "expire leaf end");
}

/*
 * An entity resuming after a short hole keeps its old finish as its start,
 * however far the virtual time moved, as long as that is within one budget
 * of it; otherwise, or without @resume, it starts at the virtual time.
 */
static void wf2q_test_resume(struct kunit *test)
{
	struct wq_env *env = wq_env_new(test, 10);
	struct bq_entity *a = &env->leaf[0], *b = &env->leaf[1];
	struct bq_tree *tree = &env->root.tree[BQ_CLASS_BE];
	u64 finish;

	bq_entity_init(a, &env->root, 100, BQ_CLASS_BE);
	bq_entity_init(b, &env->root, 100, BQ_CLASS_BE);
	a->budget = b->budget = 100;
	bq_activate(a, false, false);
	bq_activate(b, false, false);
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_charge(a, 50);
	bq_expire(a, false);		/* a empties: a hole in its service */
	finish = a->finish;
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_charge(b, 100);		/* vtime moves past a's finish */
	bq_expire(b, true);
	KUNIT_ASSERT_TRUE(test, bq_vt_before(finish, tree->vtime));
	bq_activate(a, false, true);
	KUNIT_EXPECT_EQ(test, a->start, finish);
	wq_check(test, env, 0, "resume");
	/* Served first: its finish is now the earliest. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), a);
	bq_charge(a, 100);
	bq_expire(a, false);
	finish = a->finish;
	/* Without @resume: the virtual time. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_charge(b, 100);
	bq_expire(b, true);
	KUNIT_ASSERT_TRUE(test, bq_vt_before(finish, tree->vtime));
	bq_activate(a, false, false);
	KUNIT_EXPECT_EQ(test, a->start, tree->vtime);
	bq_deactivate(a);
	/* More than one budget behind: the virtual time, even with @resume. */
	KUNIT_ASSERT_PTR_EQ(test, bq_select(&env->root, 0), b);
	bq_charge(b, 1000);
	bq_expire(b, true);
	KUNIT_ASSERT_TRUE(test, tree->vtime - a->finish > wq_delta(100, 100));
	bq_activate(a, false, true);
	KUNIT_EXPECT_EQ(test, a->start, tree->vtime);
	wq_check(test, env, 0, "resume end");
}

/* ioprio: class and level to entity class and weight, as mainline. */
static void policy_test_ioprio(struct kunit *test)
{
	static const unsigned int weight[BQ_NR_LEVELS] = {
		80, 70, 60, 50, 40, 30, 20, 10 };
	unsigned short p;
	unsigned int level;

	for (level = 0; level < BQ_NR_LEVELS; level++) {
		p = bq_effective_ioprio(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, level));
		KUNIT_EXPECT_EQ(test, bq_ioprio_weight(p), weight[level]);
		KUNIT_EXPECT_EQ(test, bq_ioprio_class(p), BQ_CLASS_BE);
		p = bq_effective_ioprio(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, level));
		KUNIT_EXPECT_EQ(test, bq_ioprio_weight(p), weight[level]);
		KUNIT_EXPECT_EQ(test, bq_ioprio_class(p), BQ_CLASS_RT);
		/* IDLE has one level, the lowest weight. */
		p = bq_effective_ioprio(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE,
							  level));
		KUNIT_EXPECT_EQ(test, bq_ioprio_weight(p), 10U);
		KUNIT_EXPECT_EQ(test, bq_ioprio_class(p), BQ_CLASS_IDLE);
	}
	/* No ioprio set: BE at the default level (weight 40). */
	p = bq_effective_ioprio(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0));
	KUNIT_EXPECT_EQ(test, IOPRIO_PRIO_CLASS(p), IOPRIO_CLASS_BE);
	KUNIT_EXPECT_EQ(test, bq_ioprio_weight(p), 40U);
	KUNIT_EXPECT_EQ(test, bq_ioprio_class(p), BQ_CLASS_BE);
}

/* Budget feedback by expiry reason, within [lo, hi] = [64, 4096]. */
static void policy_test_budget_feedback(struct kunit *test)
{
	static const struct {
		u64 budget;
		enum bq_expire_reason reason;
		u64 served;
		bool io_bound;
		u64 want;
	} c[] = {
		/* Used its budget or timed out: doubles, up to hi. */
		{ 1000, BQ_EXP_BUDGET, 1000, false, 2000 },
		{ 1000, BQ_EXP_TIMEOUT, 300, false, 2000 },
		{ 3000, BQ_EXP_BUDGET, 3000, false, 4096 },
		/* Idled in vain: half, but not under what it used... */
		{ 1000, BQ_EXP_TOO_IDLE, 100, false, 500 },
		{ 1000, BQ_EXP_TOO_IDLE, 700, false, 700 },
		/* ... unless I/O-bound (a pause of a queue that keeps some). */
		{ 1000, BQ_EXP_TOO_IDLE, 100, true, 1000 },
		/* Emptied: what it used, at least lo. */
		{ 1000, BQ_EXP_EMPTY, 256, false, 256 },
		{ 1000, BQ_EXP_EMPTY, 8, false, 64 },
		/* Preempted: unchanged, but a lowered max_budget bounds it. */
		{ 1000, BQ_EXP_PREEMPTED, 10, false, 1000 },
		{ 8192, BQ_EXP_PREEMPTED, 10, false, 4096 },
	};
	const u64 lo = 64, hi = 4096;
	u64 b;
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		KUNIT_EXPECT_EQ_MSG(test, bq_budget_feedback(c[i].budget,
			c[i].reason, c[i].served, c[i].io_bound, lo, hi),
			c[i].want, "case %d", i);
	/* Repeated exhaustion converges on hi; repeated vain idling on lo. */
	for (b = lo, i = 0; i < 16; i++)
		b = bq_budget_feedback(b, BQ_EXP_BUDGET, b, false, lo, hi);
	KUNIT_EXPECT_EQ(test, b, hi);
	for (i = 0; i < 16; i++)
		b = bq_budget_feedback(b, BQ_EXP_TOO_IDLE, 0, false, lo, hi);
	KUNIT_EXPECT_EQ(test, b, lo);
}

/* Burst state: gaps end a burst, the eighth member makes it large. */
static void policy_test_burst(struct kunit *test)
{
	struct bq_burst b = { 0 };
	u64 t = 5 * NSEC_PER_SEC;
	int i;

	/* The first queue ever starts a burst. */
	KUNIT_EXPECT_TRUE(test, bq_burst_new(&b, t));
	KUNIT_EXPECT_FALSE(test, bq_burst_grow(&b));
	/* Six more, each within the gap of the one before: not large yet. */
	for (i = 0; i < BQ_LARGE_BURST - 2; i++) {
		t += BQ_BURST_GAP_NS;
		KUNIT_EXPECT_FALSE(test, bq_burst_new(&b, t));
		KUNIT_EXPECT_FALSE(test, bq_burst_grow(&b));
	}
	KUNIT_EXPECT_EQ(test, b.size, BQ_LARGE_BURST - 1U);
	KUNIT_EXPECT_FALSE(test, b.large);
	/* The eighth makes it large, once. */
	t += BQ_BURST_GAP_NS / 2;
	KUNIT_EXPECT_FALSE(test, bq_burst_new(&b, t));
	KUNIT_EXPECT_TRUE(test, bq_burst_grow(&b));
	KUNIT_EXPECT_TRUE(test, b.large);
	/* A later queue within the gap joins the large burst. */
	t += BQ_BURST_GAP_NS;
	KUNIT_EXPECT_FALSE(test, bq_burst_new(&b, t));
	KUNIT_EXPECT_TRUE(test, b.large);
	/* A creation stamped earlier (another CPU) does not move it back. */
	KUNIT_EXPECT_FALSE(test, bq_burst_new(&b, t - 1000));
	KUNIT_EXPECT_EQ(test, b.last_ns, t);
	/* Over the gap: a new burst, small again. */
	t += BQ_BURST_GAP_NS + 1;
	KUNIT_EXPECT_TRUE(test, bq_burst_new(&b, t));
	KUNIT_EXPECT_FALSE(test, b.large);
	KUNIT_EXPECT_EQ(test, b.size, 0U);
	/* Across the wrap of the clock, the gap still counts. */
	b.last_ns = U64_MAX - BQ_BURST_GAP_NS / 2;
	KUNIT_EXPECT_FALSE(test, bq_burst_new(&b, BQ_BURST_GAP_NS / 4));
	KUNIT_EXPECT_EQ(test, b.last_ns, BQ_BURST_GAP_NS / 4);
}

static struct kunit_case wf2q_cases[] = {
	KUNIT_CASE(wf2q_test_timestamps),
	KUNIT_CASE(wf2q_test_vtime_jump),
	KUNIT_CASE(wf2q_test_idle_tree),
	KUNIT_CASE(wf2q_test_no_stranding),
	KUNIT_CASE(wf2q_test_weight_change),
	KUNIT_CASE(wf2q_test_class_priority),
	KUNIT_CASE(wf2q_test_class_change),
	KUNIT_CASE(wf2q_test_idle_bound_stale_time),
	KUNIT_CASE(wf2q_test_hier_activation),
	KUNIT_CASE(wf2q_test_peek_near),
	KUNIT_CASE(wf2q_test_peek_past_idle_groups),
	KUNIT_CASE(wf2q_test_expire_leaf),
	KUNIT_CASE(wf2q_test_resume),
	KUNIT_CASE(wf2q_test_wrap_order),
	KUNIT_CASE(wf2q_test_random_flat),
	KUNIT_CASE(wf2q_test_random_classes),
	KUNIT_CASE(wf2q_test_random_hier),
	KUNIT_CASE(wf2q_test_wraparound),
	KUNIT_CASE(policy_test_ioprio),
	KUNIT_CASE(policy_test_budget_feedback),
	KUNIT_CASE(policy_test_burst),
	{}
};

static struct kunit_suite wf2q_suite = {
	.name = "bfq-ng-wf2q",
	.test_cases = wf2q_cases,
};
kunit_test_suites(&wf2q_suite);

MODULE_DESCRIPTION("KUnit tests of the bfq-ng B-WF2Q+ engine");
MODULE_LICENSE("GPL");
