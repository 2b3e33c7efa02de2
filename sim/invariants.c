/*
 * invariants.c - what core's ANTIC_WARN_ON does in userspace: count each
 * broken invariant and name the first few. sim_run adds the count to a
 * run's violations; the tests and the fuzzers fail on any.
 */
#include "engine.h"

unsigned long antic_warnings;

void antic_warn(const char *file, int line, const char *cond)
{
	if (antic_warnings++ < 10)
		fprintf(stderr, "antic: invariant broken at %s:%d: %s\n", file, line, cond);
}
