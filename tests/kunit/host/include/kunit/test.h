/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of KUnit's API to run tests/wf2q_kunit.c as a host program
 * (tests/kunit/host/main.c): a failed assertion ends its case through
 * longjmp, a failed expectation marks it failed and goes on.
 */
#ifndef BQ_HOST_KUNIT_TEST_H
#define BQ_HOST_KUNIT_TEST_H

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>

struct kunit {
	const char *name;
	int failures;
	jmp_buf bail;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }

/* main.c walks this list. */
#define kunit_test_suites(...) \
	struct kunit_suite *host_suites[] = { __VA_ARGS__, NULL }

void *kunit_kzalloc(struct kunit *test, size_t size, unsigned int gfp);
void host_kunit_failed(struct kunit *test, const char *file, int line,
		       const char *what, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#define HOST_KUNIT_CHECK(test, ok, assert, what, ...)			\
	do {								\
		if (!(ok)) {						\
			host_kunit_failed(test, __FILE__, __LINE__, what, \
					  "" __VA_ARGS__);		\
			if (assert)					\
				longjmp((test)->bail, 1);		\
		}							\
	} while (0)

#define HOST_KUNIT_OP(test, a, op, b, assert, ...)			\
	HOST_KUNIT_CHECK(test, (a) op (b), assert, #a " " #op " " #b,	\
			 __VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, a, b)	HOST_KUNIT_OP(t, a, ==, b, 0)
#define KUNIT_EXPECT_NE(t, a, b)	HOST_KUNIT_OP(t, a, !=, b, 0)
#define KUNIT_EXPECT_LT(t, a, b)	HOST_KUNIT_OP(t, a, <, b, 0)
#define KUNIT_EXPECT_GT(t, a, b)	HOST_KUNIT_OP(t, a, >, b, 0)
#define KUNIT_EXPECT_PTR_EQ(t, a, b)	HOST_KUNIT_OP(t, (const void *)(a), ==, (const void *)(b), 0)
#define KUNIT_EXPECT_NULL(t, p)		HOST_KUNIT_OP(t, (const void *)(p), ==, NULL, 0)
#define KUNIT_EXPECT_TRUE(t, c)		HOST_KUNIT_CHECK(t, c, 0, #c)
#define KUNIT_EXPECT_FALSE(t, c)	HOST_KUNIT_CHECK(t, !(c), 0, "!(" #c ")")
#define KUNIT_EXPECT_EQ_MSG(t, a, b, ...) HOST_KUNIT_OP(t, a, ==, b, 0, __VA_ARGS__)

#define KUNIT_ASSERT_EQ(t, a, b)	HOST_KUNIT_OP(t, a, ==, b, 1)
#define KUNIT_ASSERT_PTR_EQ(t, a, b)	HOST_KUNIT_OP(t, (const void *)(a), ==, (const void *)(b), 1)
#define KUNIT_ASSERT_TRUE(t, c)		HOST_KUNIT_CHECK(t, c, 1, #c)
#define KUNIT_ASSERT_NOT_NULL(t, p)	HOST_KUNIT_OP(t, (const void *)(p), !=, NULL, 1)
#define KUNIT_ASSERT_EQ_MSG(t, a, b, ...) HOST_KUNIT_OP(t, a, ==, b, 1, __VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(t, p, ...) \
	HOST_KUNIT_OP(t, (const void *)(p), ==, NULL, 1, __VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, ...) \
	HOST_KUNIT_OP(t, (const void *)(p), !=, NULL, 1, __VA_ARGS__)

#endif
