/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of the engine's KUnit suite: a seeded pseudo-random stream
 * (xorshift64*), deterministic per seed like the kernel's prandom state;
 * the sequence differs from the kernel's, the properties tested do not.
 */
#ifndef BQ_HOST_PRANDOM_H
#define BQ_HOST_PRANDOM_H

#include <linux/types.h>

struct rnd_state {
	u64 x;
};

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	state->x = seed * 0x9e3779b97f4a7c15ULL + 1;
}

static inline u32 prandom_u32_state(struct rnd_state *state)
{
	u64 x = state->x;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	state->x = x;
	return (u32)((x * 0x2545f4914f6cdd1dULL) >> 32);
}

#endif
