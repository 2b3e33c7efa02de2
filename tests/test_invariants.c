/*
 * test_invariants.c - core's lifecycle and counts guard themselves: a host
 * that breaks the rules gets a warning (ANTIC_WARN_ON), never a wrapped
 * count, and the simulator reports it as a violation.
 */
#include "harness.h"
#include "../core/anticipatory.h"
#include "../core/deadline.h"
#include <string.h>

extern unsigned long antic_warnings;

static void mkrq(struct antic_rq *rq, u64 sector, struct antic_proc *p)
{
	memset(rq, 0, sizeof(*rq));
	rq->sector = sector;
	rq->nr_sectors = 8;
	rq->sync = true;
	rq->proc = p;
}

/* The lifecycle a well-behaved host sees, state by state. */
static void test_lifecycle_states(void)
{
	struct as_tunables t;
	struct as_sched as;
	struct antic_proc p;
	struct antic_rq a, b, *out;

	as_default_tunables(&t, false);
	as_init(&as, &t);
	antic_proc_init(&p);
	mkrq(&a, 100, &p);
	mkrq(&b, 108, &p);
	CHECK_EQ(a.state, ANTIC_RQ_NEW);
	as_add(&as, &a, 0);
	CHECK_EQ(a.state, ANTIC_RQ_QUEUED);
	CHECK(as_dispatch(&as, 1, &out) == ANTIC_DISPATCH && out == &a);
	CHECK_EQ(a.state, ANTIC_RQ_DISPATCHED);
	as_requeue(&as, &a);
	CHECK_EQ(a.state, ANTIC_RQ_NEW);
	as_add(&as, &a, 2);
	as_add(&as, &b, 2);
	as_merge_requests(&as, &a, &b);
	CHECK_EQ(b.state, ANTIC_RQ_DONE);
	CHECK(as_dispatch(&as, 3, &out) == ANTIC_DISPATCH && out == &a);
	as_complete(&as, &a, 4);
	CHECK_EQ(a.state, ANTIC_RQ_DONE);
	CHECK_EQ(p.nr_queued, 0);
	CHECK_EQ(p.nr_in_flight, 0);
	CHECK_EQ(as_at_drive(&as), 0);
}

/* A completion the host reports twice: one warning each, no count wraps. */
static void test_double_completion_warns(void)
{
	struct as_tunables t;
	struct as_sched as;
	struct antic_proc p;
	struct antic_rq a, *out;
	unsigned long before = antic_warnings;

	as_default_tunables(&t, false);
	as_init(&as, &t);
	antic_proc_init(&p);
	mkrq(&a, 100, &p);
	as_add(&as, &a, 0);
	CHECK(as_dispatch(&as, 1, &out) == ANTIC_DISPATCH);
	as_complete(&as, &a, 2);
	CHECK_EQ(antic_warnings, before);
	fprintf(stderr, "  (six warnings expected here:)\n");
	as_complete(&as, &a, 3);
	/*
	 * the state, the scheduler's in-flight counts (all, by class, the
	 * favoured reads': P's first read is one), the process's (all, sync)
	 */
	CHECK(a.newcomer);
	CHECK_EQ(antic_warnings, before + 6);
	CHECK_EQ(as_at_drive(&as), 0);
	CHECK_EQ(p.nr_in_flight, 0);
	antic_warnings = before;	/* expected here: not the harness's failure */
}

/* A host that sends a request around the policy, and then adds it anyway. */
static void test_bypass_then_add_warns(void)
{
	struct dl_tunables t;
	struct dl_sched dl;
	struct antic_rq a;
	unsigned long before = antic_warnings;

	dl_default_tunables(&t);
	dl_init(&dl, &t);
	mkrq(&a, 100, NULL);
	antic_rq_bypass(&a);
	CHECK_EQ(a.state, ANTIC_RQ_DONE);
	CHECK_EQ(antic_warnings, before);
	fprintf(stderr, "  (one warning expected here:)\n");
	dl_policy_ops.add(&dl, &a, 0);
	CHECK_EQ(antic_warnings, before + 1);
	antic_warnings = before;
}

void suite_invariants(void)
{
	RUN(test_lifecycle_states);
	RUN(test_double_completion_warns);
	RUN(test_bypass_then_add_warns);
}
