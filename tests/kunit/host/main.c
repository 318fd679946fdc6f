// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the engine's KUnit suite (tests/wf2q_kunit.c, with wf2q.c compiled
 * into it) as a host program: one TAP line per case, exit status 1 when a
 * case failed.  The kernel's KUnit runs the same file in the debug lane.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <kunit/test.h>

extern struct kunit_suite *host_suites[];

/* Every allocation of a case, freed when it ends. */
static void **allocs;
static size_t nr_allocs;

void *kunit_kzalloc(struct kunit *test, size_t size, unsigned int gfp)
{
	void **more = realloc(allocs, (nr_allocs + 1) * sizeof(*allocs));
	void *p = calloc(1, size);

	(void)test;
	(void)gfp;
	if (!more || !p) {
		free(p);
		if (more)
			allocs = more;
		return NULL;
	}
	allocs = more;
	allocs[nr_allocs++] = p;
	return p;
}

void host_kunit_failed(struct kunit *test, const char *file, int line,
		       const char *what, const char *fmt, ...)
{
	va_list ap;

	test->failures++;
	printf("# %s: %s:%d: failed: %s", test->name, file, line, what);
	if (*fmt) {
		printf(": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
}

/* One case; a failed assertion longjmps back here.  Returns its failures. */
static int run_case(const struct kunit_case *c)
{
	struct kunit test = { .name = c->name };

	if (!setjmp(test.bail))
		c->run_case(&test);
	while (nr_allocs)
		free(allocs[--nr_allocs]);
	return test.failures;
}

int main(void)
{
	struct kunit_suite **suite;
	int n = 0, failed = 0;

	for (suite = host_suites; *suite; suite++) {
		struct kunit_case *c;

		for (c = (*suite)->test_cases; c->run_case; c++) {
			int failures = run_case(c);

			printf("%sok %d - %s: %s\n", failures ? "not " : "",
			       ++n, (*suite)->name, c->name);
			failed += !!failures;
		}
	}
	free(allocs);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
