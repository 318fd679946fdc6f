/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of the engine: the tools/ copy of the augmented rbtree (from
 * the kernel source, extracted at build time), plus the one helper it lacks.
 */
#ifndef BQ_HOST_RBTREE_AUGMENTED_H
#define BQ_HOST_RBTREE_AUGMENTED_H

#include_next <linux/rbtree_augmented.h>

/*
 * Insert @node in order of @less, keep the augmented values of its new
 * ancestors right (before the rebalancing rotations move them), and the
 * cached leftmost.  Returns @node when it became the leftmost, else NULL.
 */
static inline struct rb_node *
rb_add_augmented_cached(struct rb_node *node, struct rb_root_cached *tree,
			bool (*less)(struct rb_node *, const struct rb_node *),
			const struct rb_augment_callbacks *augment)
{
	struct rb_node **slot = &tree->rb_root.rb_node, *up = NULL;
	bool first = true;

	for (; *slot; slot = less(node, up) ? &up->rb_left : &up->rb_right) {
		up = *slot;
		if (!less(node, up))
			first = false;
	}
	rb_link_node(node, up, slot);
	augment->propagate(up, NULL);
	rb_insert_augmented_cached(node, tree, first, augment);
	return first ? node : NULL;
}

#endif
