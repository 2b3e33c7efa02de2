/*
 * test_core.c - each decision of the policies in core/, fed events by hand.
 */
#include "harness.h"
#include "../core/anticipatory.h"
#include "../core/deadline.h"
#include <string.h>

#define MS ANTIC_NSEC_PER_MSEC

static struct antic_rq pool[256];
static int used;

static struct antic_rq *mk(u64 sector, bool sync, struct antic_proc *p)
{
	struct antic_rq *rq = &pool[used++];

	memset(rq, 0, sizeof(*rq));
	rq->sector = sector;
	rq->nr_sectors = 8;
	rq->sync = sync;
	rq->write = !sync;
	rq->proc = p;
	return rq;
}

static void fresh(struct as_sched *as)
{
	struct as_tunables t;

	used = 0;
	as_default_tunables(&t, true);
	/* the tests time the favour's end from 3 s, whatever the default */
	t.newcomer_expire = 3000 * MS;
	as_init(as, &t);
}

static struct antic_rq *next(struct as_sched *as, u64 now)
{
	struct antic_rq *rq;

	if (as_dispatch(as, now, &rq) != ANTIC_DISPATCH)
		return NULL;
	return rq;
}

static void test_elevator_order(void)
{
	struct as_sched as;
	struct antic_rq *a, *b, *c;

	fresh(&as);
	a = mk(1000, true, NULL);
	b = mk(500, true, NULL);
	c = mk(3000, true, NULL);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_add(&as, c, 0);
	CHECK(next(&as, 1) == b);
	CHECK(next(&as, 2) == a);
	CHECK(next(&as, 3) == c);
	CHECK(next(&as, 4) == NULL);
}

/* Put the head at @pos by serving one request that ends there. */
static void head_at(struct as_sched *as, u64 pos)
{
	struct antic_rq *h = mk(pos - 8, true, NULL);

	as_add(as, h, 0);
	CHECK(next(as, 0) == h);
	as_complete(as, h, 0);
}

static void test_back_seek_penalty(void)
{
	struct as_sched as;
	struct antic_rq *back, *ahead;

	/* 1000 back costs 2000: the one 1500 ahead wins */
	fresh(&as);
	head_at(&as, 10000);
	back = mk(9000, true, NULL);
	ahead = mk(11500, true, NULL);
	as_add(&as, back, 1);
	as_add(&as, ahead, 1);
	CHECK(next(&as, 2) == ahead);

	/* 500 back costs 1000: it beats 1500 ahead */
	fresh(&as);
	head_at(&as, 10000);
	back = mk(9500, true, NULL);
	ahead = mk(11500, true, NULL);
	as_add(&as, back, 1);
	as_add(&as, ahead, 1);
	CHECK(next(&as, 2) == back);

	/* beyond MAXBACK a request counts as wrapped: anything ahead wins */
	fresh(&as);
	head_at(&as, 3 * AS_MAXBACK);
	back = mk(3 * AS_MAXBACK - AS_MAXBACK - 100, true, NULL);
	ahead = mk(3 * AS_MAXBACK + 50 * AS_MAXBACK, true, NULL);
	as_add(&as, back, 1);
	as_add(&as, ahead, 1);
	CHECK(next(&as, 2) == ahead);
	CHECK(next(&as, 3) == back);	/* then the wrap */

	/* only wrapped requests: the lowest first */
	fresh(&as);
	head_at(&as, 10 * AS_MAXBACK);
	ahead = mk(5 * AS_MAXBACK, true, NULL);
	back = mk(2 * AS_MAXBACK, true, NULL);
	as_add(&as, ahead, 1);
	as_add(&as, back, 1);
	CHECK(next(&as, 2) == back);
	CHECK(as.cnt.back_seeks >= 1);
}

static void test_fifo_expiry(void)
{
	struct as_sched as;
	struct antic_rq *far, *near;

	/* before read_expire the elevator decides */
	fresh(&as);
	far = mk(500000000, true, NULL);
	near = mk(100, true, NULL);
	as_add(&as, far, 0);
	as_add(&as, near, 50 * MS);
	CHECK(next(&as, 60 * MS) == near);

	/* after it, the expired request goes first */
	fresh(&as);
	far = mk(500000000, true, NULL);
	near = mk(100, true, NULL);
	as_add(&as, far, 0);
	as_add(&as, near, 200 * MS);
	CHECK(next(&as, 200 * MS) == far);
	CHECK_EQ(as.cnt.fifo_expired[ANTIC_SYNC], 1);
	as_complete(&as, far, 201 * MS);

	/* serve the near one so that only the new requests are queued */
	CHECK(next(&as, 202 * MS) == near);
	as_complete(&as, near, 203 * MS);

	/* and the FIFO is not looked at again within read_expire */
	far = mk(400000000, true, NULL);
	as_add(&as, far, 0);		/* already expired */
	near = mk(200, true, NULL);
	as_add(&as, near, 250 * MS);
	CHECK(next(&as, 250 * MS) == near);	/* 50 ms since the last look */
	as_complete(&as, near, 251 * MS);
	near = mk(300, true, NULL);
	as_add(&as, near, 330 * MS);
	CHECK(next(&as, 330 * MS) == far);	/* 130 ms passed: looked again */
}

static void test_batch_turnaround_drains(void)
{
	struct as_sched as;
	struct antic_rq *r1, *r2, *w1, *w2;

	fresh(&as);
	/* AS's own full drain: rule 2 lets reads start beside K writes */
	as.tun.write_bound = 0;
	w1 = mk(900000, false, NULL);
	w2 = mk(800000, false, NULL);	/* nearer, but later in the FIFO */
	as_add(&as, w1, 0);
	as_add(&as, w2, 1);
	r1 = mk(100, true, NULL);
	r2 = mk(200, true, NULL);
	as_add(&as, r1, 2);
	/* reads and writes, the initial batch long expired: switch to writes */
	CHECK(next(&as, 10) == w1);	/* from the FIFO head */
	CHECK_EQ(as.batch_dir, ANTIC_ASYNC);
	as_complete(&as, w1, 20 * MS);
	CHECK(next(&as, 20 * MS) == w2);
	/* write batch over after write_batch_expire: back to reads, but drain first */
	as_add(&as, r2, 30 * MS);
	{
		struct antic_rq *rq;
		struct antic_rq *w3 = mk(700000, false, NULL);

		as_add(&as, w3, 31 * MS);
		CHECK(as_dispatch(&as, 200 * MS, &rq) == ANTIC_IDLE);
		CHECK(rq == NULL);
		CHECK_EQ(as.batch_dir, ANTIC_SYNC);
		as_complete(&as, w2, 201 * MS);
		CHECK(next(&as, 201 * MS) == r1);	/* FIFO head of reads */
	}
	CHECK_EQ(as.cnt.batches[ANTIC_ASYNC], 1);
	CHECK_EQ(as.cnt.batches[ANTIC_SYNC], 1);
}

static void test_write_batch_tunes_itself(void)
{
	struct as_sched as;
	struct antic_rq *w1, *w2, *r;
	u32 before;

	fresh(&as);
	before = as.write_batch_count;
	w1 = mk(900000, false, NULL);
	w2 = mk(900008, false, NULL);
	as_add(&as, w1, 0);
	as_add(&as, w2, 0);
	r = mk(100, true, NULL);
	as_add(&as, r, 0);
	CHECK(next(&as, 1) == w1);
	/* one write took 4x the batch's budget, with writes still queued: the count halves */
	as_complete(&as, w1, 500 * MS);
	CHECK(next(&as, 500 * MS) == r);
	as_complete(&as, r, 505 * MS);
	CHECK_EQ(as.write_batch_count, before / 2);
}

/*
 * Anticipation scenarios share this start: P's read at 1000 is dispatched
 * while Q's far read waits; then P's read completes at 5 ms.
 */
struct scene {
	struct as_sched as;
	struct antic_proc p, q, r;
	struct antic_rq *prq, *qrq;
};

static void scene_start(struct scene *s)
{
	struct antic_rq *rq;

	fresh(&s->as);
	antic_proc_init(&s->p);
	antic_proc_init(&s->q);
	antic_proc_init(&s->r);
	s->prq = mk(1000, true, &s->p);
	s->qrq = mk(400000000, true, &s->q);
	as_add(&s->as, s->prq, 0);
	CHECK(next(&s->as, 0) == s->prq);
	as_add(&s->as, s->qrq, 1 * MS);
	/* P's request is still at the drive: wait for it, no timer yet */
	CHECK(as_dispatch(&s->as, 1 * MS, &rq) == ANTIC_IDLE);
	CHECK_EQ(s->as.antic_state, AS_ANTIC_WAIT_REQ);
	CHECK_EQ(s->as.cnt.antic_started, 1);
	CHECK(!as_has_work(&s->as));
	as_complete(&s->as, s->prq, 5 * MS);
	CHECK_EQ(s->as.antic_state, AS_ANTIC_WAIT_NEXT);
	CHECK(as_dispatch(&s->as, 5 * MS, &rq) == ANTIC_IDLE);
	CHECK_EQ(as_get_expiry(&s->as), 11 * MS);
}

static void test_antic_ends_on_own_request(void)
{
	struct scene s;
	struct antic_rq *own;

	scene_start(&s);
	own = mk(1008, true, &s.p);
	as_add(&s.as, own, 6 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_OWN], 1);
	CHECK(as_has_work(&s.as));
	CHECK(next(&s.as, 6 * MS) == own);
}

static void test_antic_ends_on_timeout(void)
{
	struct scene s;

	scene_start(&s);
	as_handle_expiry(&s.as, 10 * MS);
	CHECK_EQ(s.as.antic_state, AS_ANTIC_WAIT_NEXT);
	as_handle_expiry(&s.as, 11 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_TIMEOUT], 1);
	CHECK(next(&s.as, 11 * MS) == s.qrq);
}

static void test_antic_close_radius_grows(void)
{
	struct scene s;
	struct antic_rq *c;

	/* at the start of the wait, 8192 sectors is close */
	scene_start(&s);
	c = mk(1008 + 8000, true, &s.r);
	as_add(&s.as, c, 5 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_CLOSE], 1);
	CHECK(next(&s.as, 5 * MS) == c);

	/* 60000 away is not close at once ... */
	scene_start(&s);
	c = mk(1008 + 60000, true, &s.r);
	as_add(&s.as, c, 5 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_CLOSE], 0);
	CHECK_EQ(s.as.antic_state, AS_ANTIC_WAIT_NEXT);
	/* ... but is after 3 ms of waiting (8192 << 3 = 65536) */
	scene_start(&s);
	c = mk(1008 + 60000, true, &s.r);
	as_add(&s.as, c, 8 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_CLOSE], 1);
	/* an async request is never "close" */
	scene_start(&s);
	c = mk(1008 + 8, false, &s.r);
	as_add(&s.as, c, 6 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_CLOSE], 0);
}

static void test_antic_not_started_for_long_thinker(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *rq, *qrq;
	u64 t = 0;
	int i;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	/* P thinks 15 ms between reads: longer than antic_expire */
	for (i = 0; i < 8; i++) {
		rq = mk(1000 + 8 * i, true, &p);
		as_add(&as, rq, t);
		CHECK(next(&as, t) == rq);
		as_complete(&as, rq, t + MS);
		t += 16 * MS;
	}
	CHECK(p.ttime_mean > as.tun.antic_expire);
	rq = mk(2000, true, &p);
	as_add(&as, rq, t);
	CHECK(next(&as, t) == rq);
	qrq = mk(500000000, true, &q);
	as_add(&as, qrq, t);
	CHECK(as_dispatch(&as, t, &rq) == ANTIC_DISPATCH && rq == qrq);
	CHECK_EQ(as.cnt.antic_started, 0);
}

static void test_antic_not_started_when_busy(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *a, *b, *qrq, *rq;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = mk(1000, true, &p);
	b = mk(300000000, true, &p);	/* P has more queued, far away */
	qrq = mk(200000000, true, &q);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_add(&as, qrq, 0);
	CHECK(next(&as, 0) == a);
	CHECK(as_dispatch(&as, 0, &rq) == ANTIC_DISPATCH && rq == qrq);
	CHECK_EQ(as.cnt.antic_started, 0);
}

static void test_antic_exit(void)
{
	struct scene s;

	/* exited, and exits have not been followed by cooperators: stop */
	scene_start(&s);
	s.as.exit_no_coop = 200;
	as_proc_exit(&s.as, &s.p, 6 * MS);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_EXIT], 1);
	CHECK(next(&s.as, 6 * MS) == s.qrq);

	/* cooperators have come before: keep waiting for one */
	scene_start(&s);
	s.as.exit_no_coop = 0;
	as_proc_exit(&s.as, &s.p, 6 * MS);
	CHECK_EQ(s.as.antic_state, AS_ANTIC_WAIT_NEXT);
	CHECK(s.as.antic_proc == &s.as.ghost);
	/* and a timeout now counts as "no cooperator" */
	as_handle_expiry(&s.as, 11 * MS);
	CHECK(s.as.exit_no_coop > 0);
	CHECK(s.as.exit_prob > 0);
}

/*
 * antic_declined counts the waits not started, by the reason that would
 * have ended them. Each test below sets up one situation at the moment a
 * wait could start (P's sync read just dispatched) and checks that the
 * counter for its reason, and no other, moved, and that the wait did not
 * start; the "not" cases change one thing and check that nothing is
 * declined and the wait starts instead.
 */
static void check_declined_delta(const struct as_counters *before,
				 const struct as_counters *after, int reason)
{
	int r;

	for (r = 0; r < AS_END_NR; r++) {
		u64 want = r == reason ? 1 : 0;
		u64 got = after->antic_declined[r] - before->antic_declined[r];

		if (got != want)
			fprintf(stderr, "  declined[%d] moved by %llu, expected %llu\n",
				r, (unsigned long long)got,
				(unsigned long long)want);
		CHECK_EQ(got, want);
	}
	CHECK_EQ(after->antic_started, before->antic_started);
}

static u64 declined_total(const struct as_sched *as)
{
	u64 n = 0;
	int r;

	for (r = 0; r < AS_END_NR; r++)
		n += as->cnt.antic_declined[r];
	return n;
}

/* The wait was started (the dispatch at @now answered "idle"), nothing declined. */
static void check_wait_started(struct as_sched *as, u64 now)
{
	struct antic_rq *rq;

	CHECK(as_dispatch(as, now, &rq) != ANTIC_DISPATCH);
	CHECK(as->antic_state == AS_ANTIC_WAIT_REQ ||
	      as->antic_state == AS_ANTIC_WAIT_NEXT);
	CHECK_EQ(as->cnt.antic_started, 1);
	CHECK_EQ(declined_total(as), 0);
}

static void test_declined_own(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *a, *b, *far;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = mk(1000, true, &p);
	b = mk(1008, true, &p);
	far = mk(400000000, true, &q);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_add(&as, far, 0);
	CHECK(next(&as, 0) == a);
	/* P's own next request is what the elevator picks: serve it, no wait */
	CHECK(next(&as, 1 * MS) == b);
	{
		struct as_counters zero = { 0 };

		/* OWN, not BUSY, though P still has a request at the drive */
		check_declined_delta(&zero, &as.cnt, AS_END_OWN);
	}
}

static void test_declined_busy(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *a, *b, *qrq;
	struct as_counters zero = { 0 };

	/* P has a far request queued besides the one at the drive */
	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = mk(1000, true, &p);
	b = mk(300000000, true, &p);
	qrq = mk(200000000, true, &q);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_add(&as, qrq, 0);
	CHECK(next(&as, 0) == a);
	CHECK(next(&as, 1 * MS) == qrq);
	check_declined_delta(&zero, &as.cnt, AS_END_BUSY);

	/* not: the request at the drive is the one the wait is for */
	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = mk(1000, true, &p);
	qrq = mk(200000000, true, &q);
	as_add(&as, a, 0);
	as_add(&as, qrq, 0);
	CHECK(next(&as, 0) == a);
	check_wait_started(&as, 1 * MS);
}

/* P's read at 1000 (ending at 1008) is at the drive; R's read at @sector is queued. */
static void close_setup(struct as_sched *as, struct antic_proc *p,
			struct antic_proc *r, u64 sector, bool sync)
{
	struct antic_rq *prq;

	fresh(as);
	antic_proc_init(p);
	antic_proc_init(r);
	prq = mk(1000, true, p);
	as_add(as, prq, 0);
	CHECK(next(as, 0) == prq);
	as_add(as, mk(sector, sync, r), 1 * MS);
}

static void test_declined_close(void)
{
	struct as_sched as;
	struct antic_proc p, r;
	struct as_counters zero = { 0 };

	/* another process's read right behind P's: serve it */
	close_setup(&as, &p, &r, 1008 + 100, true);
	CHECK(next(&as, 1 * MS) != NULL);
	check_declined_delta(&zero, &as.cnt, AS_END_CLOSE);

	/* the radius at the start of a wait is AS_CLOSE_START, inclusive */
	close_setup(&as, &p, &r, 1008 + AS_CLOSE_START, true);
	CHECK(next(&as, 1 * MS) != NULL);
	check_declined_delta(&zero, &as.cnt, AS_END_CLOSE);
	close_setup(&as, &p, &r, 1008 + AS_CLOSE_START + 1, true);
	check_wait_started(&as, 1 * MS);

	/* not: far away */
	close_setup(&as, &p, &r, 1008 + 100000, true);
	check_wait_started(&as, 1 * MS);

	/* not: a write next door is no reason to give up on P */
	close_setup(&as, &p, &r, 1008, false);
	check_wait_started(&as, 1 * MS);
}

/* P's read at 1000 completed at 2 ms and P exited at 3 ms; Q's far read waits. */
static void exit_setup(struct as_sched *as, struct antic_proc *p,
		       struct antic_proc *q, u32 exit_no_coop, bool exits)
{
	struct antic_rq *prq;

	fresh(as);
	antic_proc_init(p);
	antic_proc_init(q);
	prq = mk(1000, true, p);
	as_add(as, prq, 0);
	CHECK(next(as, 0) == prq);
	as_complete(as, prq, 2 * MS);
	as->exit_no_coop = exit_no_coop;
	if (exits)
		as_proc_exit(as, p, 3 * MS);
	as_add(as, mk(400000000, true, q), 3 * MS);
}

static void test_declined_exit(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct as_counters zero = { 0 };

	/* exits have mostly not been followed by a cooperator: do not wait */
	exit_setup(&as, &p, &q, 200, true);
	CHECK(next(&as, 3 * MS) != NULL);
	check_declined_delta(&zero, &as.cnt, AS_END_EXIT);

	/* not: at 128 of 256 a cooperator is still worth waiting for */
	exit_setup(&as, &p, &q, 128, true);
	check_wait_started(&as, 3 * MS);

	/* not: the same statistics, but P is still there */
	exit_setup(&as, &p, &q, 200, false);
	check_wait_started(&as, 3 * MS);
}

/* @p reads at @sector, is served at @t, completes 1 ms later; returns then. */
static u64 read_once(struct as_sched *as, struct antic_proc *p, u64 sector,
		     u64 t)
{
	struct antic_rq *rq = mk(sector, true, p);

	as_add(as, rq, t);
	CHECK(next(as, t) == rq);
	as_complete(as, rq, t + 1 * MS);
	return t + 1 * MS;
}

/*
 * P reads at 1000 at @t, and Q's far read is queued behind it: the moment
 * a wait on P could start. Returns Q's read.
 */
static struct antic_rq *think_finish(struct as_sched *as, struct antic_proc *p,
				     struct antic_proc *q, u64 t)
{
	struct antic_rq *rq = mk(1000, true, p), *qrq = mk(400000000, true, q);

	antic_proc_init(q);
	as_add(as, rq, t);
	CHECK(next(as, t) == rq);
	as_add(as, qrq, t);
	return qrq;
}

/*
 * A process P that has thought @think_ms between each of eight reads,
 * then reads again at @t; Q's read is queued. Returns Q's read.
 */
static struct antic_rq *thinker(struct as_sched *as, struct antic_proc *p,
				struct antic_proc *q, u64 think_ms, u64 *t)
{
	int i;

	fresh(as);
	antic_proc_init(p);
	*t = 0;
	for (i = 0; i < 8; i++)
		*t = read_once(as, p, 1000 + 8 * i, *t) + think_ms * MS;
	return think_finish(as, p, q, *t);
}

/* @n processes, each teaching the prior one think time of 20 ms. */
static u64 teach_new_ttime(struct as_sched *as, struct antic_proc *x, int n)
{
	u64 t = 0;
	int i;

	for (i = 0; i < n; i++) {
		u64 sector = 5000000 * (u64)(i + 1);

		antic_proc_init(&x[i]);
		t = read_once(as, &x[i], sector, t);
		t = read_once(as, &x[i], sector + 8, t + 20 * MS);
	}
	return t + 100 * MS;
}

/* Counted as started, not declined, from @before on. */
static void check_started_since(const struct as_counters *before,
				const struct as_sched *as)
{
	int r;

	CHECK_EQ(as->cnt.antic_started, before->antic_started + 1);
	for (r = 0; r < AS_END_NR; r++)
		CHECK_EQ(as->cnt.antic_declined[r], before->antic_declined[r]);
}

/* The priors for a new process, as the policy reads them. */
static struct as_estimates priors(const struct as_sched *as)
{
	struct as_estimates e;

	as_estimates(as, &e);
	return e;
}

static void test_declined_think(void)
{
	struct as_sched as;
	struct antic_proc p, q, x[3];
	struct as_counters before;
	struct antic_rq *qrq, *rq;
	u64 t;

	/* P's own history: 15 ms between reads, more than antic_expire */
	qrq = thinker(&as, &p, &q, 15, &t);
	before = as.cnt;
	CHECK(next(&as, t) == qrq);
	check_declined_delta(&before, &as.cnt, AS_END_THINK);

	/* not: 1 ms between reads */
	thinker(&as, &p, &q, 1, &t);
	before = as.cnt;
	CHECK(as_dispatch(&as, t, &rq) != ANTIC_DISPATCH);
	check_started_since(&before, &as);

	/* a new P, after three new processes thought 20 ms: the prior is 6.6 ms */
	fresh(&as);
	t = teach_new_ttime(&as, x, 3);
	CHECK(priors(&as).new_ttime_mean > as.tun.antic_expire);
	antic_proc_init(&p);
	qrq = think_finish(&as, &p, &q, t);
	before = as.cnt;
	CHECK(next(&as, t) == qrq);
	check_declined_delta(&before, &as.cnt, AS_END_THINK);

	/* not: after two of them the prior is 4.7 ms */
	fresh(&as);
	t = teach_new_ttime(&as, x, 2);
	CHECK(priors(&as).new_ttime_mean <= as.tun.antic_expire);
	antic_proc_init(&p);
	think_finish(&as, &p, &q, t);
	before = as.cnt;
	CHECK(as_dispatch(&as, t, &rq) != ANTIC_DISPATCH);
	check_started_since(&before, &as);

	/* a new P when new processes tend to exit without cooperators */
	fresh(&as);
	as.exit_prob = 200;
	as.exit_no_coop = 200;	/* 200 * 200 > 128 * 256 */
	antic_proc_init(&p);
	qrq = think_finish(&as, &p, &q, 0);
	CHECK(next(&as, 1 * MS) == qrq);
	{
		struct as_counters zero = { 0 };

		check_declined_delta(&zero, &as.cnt, AS_END_THINK);
	}

	/* not: 180 * 180 < 128 * 256 */
	fresh(&as);
	as.exit_prob = 180;
	as.exit_no_coop = 180;
	antic_proc_init(&p);
	think_finish(&as, &p, &q, 0);
	check_wait_started(&as, 1 * MS);
}

/*
 * Nothing is declined where no wait could start: a wait that started and
 * ended is counted in antic_end alone, and no wait is considered with
 * anticipation off, after a wait has been decided, or for a request that
 * no process owns.
 */
static void test_declined_only_when_a_wait_could_start(void)
{
	struct scene s;
	struct as_sched as;
	struct as_tunables t;
	struct antic_proc p, q;
	struct antic_rq *a, *b, *qrq;

	/* waits that ended, each way */
	scene_start(&s);
	as_add(&s.as, mk(1008, true, &s.p), 6 * MS);		/* own */
	CHECK(next(&s.as, 6 * MS) != NULL);
	CHECK_EQ(declined_total(&s.as), 0);
	scene_start(&s);
	as_add(&s.as, mk(1100, true, &s.r), 6 * MS);		/* close */
	CHECK(next(&s.as, 6 * MS) != NULL);
	CHECK_EQ(declined_total(&s.as), 0);
	scene_start(&s);
	as_handle_expiry(&s.as, 11 * MS);				/* timeout */
	/* decided: the next dispatch serves Q without weighing P again */
	CHECK(next(&s.as, 11 * MS) == s.qrq);
	CHECK_EQ(declined_total(&s.as), 0);
	/* ended by dispatch itself: the timer not yet run ... */
	scene_start(&s);
	CHECK(next(&s.as, 11 * MS) == s.qrq);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_TIMEOUT], 1);
	CHECK_EQ(declined_total(&s.as), 0);
	/* ... or a request queued earlier that the grown radius now takes in */
	scene_start(&s);
	as_add(&s.as, mk(1008 + 60000, true, &s.r), 5 * MS);
	CHECK(next(&s.as, 8 * MS) != NULL);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_CLOSE], 1);
	CHECK_EQ(declined_total(&s.as), 0);
	scene_start(&s);
	s.as.exit_no_coop = 200;
	as_proc_exit(&s.as, &s.p, 6 * MS);			/* exit */
	CHECK(next(&s.as, 6 * MS) == s.qrq);
	CHECK_EQ(declined_total(&s.as), 0);
	CHECK_EQ(s.as.cnt.antic_end[AS_END_EXIT], 1);

	/* anticipation off: the busy situation of test_declined_busy */
	used = 0;
	as_default_tunables(&t, true);
	t.antic_expire = 0;
	as_init(&as, &t);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = mk(1000, true, &p);
	b = mk(300000000, true, &p);
	qrq = mk(200000000, true, &q);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_add(&as, qrq, 0);
	CHECK(next(&as, 0) == a);
	CHECK(next(&as, 1 * MS) == qrq);
	CHECK_EQ(declined_total(&as), 0);

	/* requests with no process: no history to anticipate on */
	fresh(&as);
	as_add(&as, mk(1000, true, NULL), 0);
	as_add(&as, mk(1008, true, NULL), 0);
	as_add(&as, mk(400000000, true, NULL), 0);
	CHECK(next(&as, 0) != NULL);
	CHECK(next(&as, 1 * MS) != NULL);
	CHECK(next(&as, 2 * MS) != NULL);
	CHECK_EQ(declined_total(&as), 0);
	CHECK_EQ(as.cnt.antic_started, 0);
}

static void test_antic_ends_on_deadline(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *prq, *qrq, *rq;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	qrq = mk(400000000, true, &q);
	as_add(&as, qrq, 0);
	prq = mk(1000, true, &p);
	as_add(&as, prq, 0);
	CHECK(next(&as, 0) == prq);
	CHECK(as_dispatch(&as, 0, &rq) == ANTIC_IDLE);
	/* P's request takes long; Q's read expires meanwhile */
	CHECK(as_dispatch(&as, 130 * MS, &rq) == ANTIC_DISPATCH);
	CHECK(rq == qrq);
	CHECK_EQ(as.cnt.antic_end[AS_END_DEADLINE], 1);
}

static void test_antic_off_when_zero(void)
{
	struct as_sched as;
	struct as_tunables t;
	struct antic_proc p, q;
	struct antic_rq *prq, *qrq;

	used = 0;
	as_default_tunables(&t, true);
	t.antic_expire = 0;
	as_init(&as, &t);
	antic_proc_init(&p);
	antic_proc_init(&q);
	prq = mk(1000, true, &p);
	qrq = mk(400000000, true, &q);
	as_add(&as, prq, 0);
	as_add(&as, qrq, 0);
	CHECK(next(&as, 0) == prq);
	CHECK(next(&as, 0) == qrq);
	CHECK_EQ(as.cnt.antic_started, 0);
}

static void test_statistics(void)
{
	struct as_sched as;
	struct antic_proc p;
	struct antic_rq *a, *b;

	fresh(&as);
	antic_proc_init(&p);
	a = mk(1000, true, &p);
	as_add(&as, a, 0);
	CHECK_EQ(p.ttime_samples, 0);	/* no completion yet */
	CHECK_EQ(p.seek_samples, 0);
	CHECK(next(&as, 0) == a);
	as_complete(&as, a, 1 * MS);
	/* 4 ms of thinking, then a read 10M sectors away */
	b = mk(1008 + 10000000, true, &p);
	as_add(&as, b, 5 * MS);
	CHECK_EQ(p.ttime_samples, 32);
	CHECK_EQ(p.ttime_total, 32 * 4 * MS);
	CHECK_EQ(p.ttime_mean, (32 * 4 * MS + 128) / 32);
	/* the seek is clamped to 4*mean + 2M while samples <= 60 */
	CHECK_EQ(p.seek_samples, 32);
	CHECK_EQ(p.seek_total, 32ULL * 2048 * 1024);
	CHECK_EQ(p.seek_mean, (32ULL * 2048 * 1024 + 128) / 32);
	/* first samples also teach the priors for new processes */
	CHECK_EQ(priors(&as).new_ttime_mean, 4 * MS * 32 / 256);
	CHECK_EQ(priors(&as).new_seek_mean, 2048ULL * 1024 * 32 / 256);
	/* think time caps at 20 ms */
	CHECK(next(&as, 5 * MS) == b);
	as_complete(&as, b, 6 * MS);
	a = mk(0, true, &p);
	as_add(&as, a, 1000 * MS);
	CHECK_EQ(p.ttime_samples, (7 * 32 + 256) / 8);
	CHECK_EQ(p.ttime_total, (7 * 32 * 4 * MS + 256 * 20 * MS) / 8);
}

static void test_nonrotational_default(void)
{
	struct as_tunables t;

	as_default_tunables(&t, false);
	CHECK_EQ(t.antic_expire, 0);
	CHECK_EQ(t.start_read_expire, 0);
	as_default_tunables(&t, true);
	CHECK_EQ(t.start_read_expire, 1000 * MS);
	CHECK_EQ(t.antic_expire, 6 * MS);
	CHECK_EQ(t.read_expire, 125 * MS);
	CHECK_EQ(t.write_expire, 250 * MS);
	CHECK_EQ(t.read_batch_expire, 500 * MS);
	CHECK_EQ(t.write_batch_expire, 125 * MS);
	CHECK_EQ(t.newcomer_expire, 8000 * MS);
}

/* Each tunable is found by its name and points at its own field. */
static void test_tunable_find_by_name(void)
{
	const struct as_tunable_desc *d;
	size_t i;

	d = as_tunable_find("write_batch_expire");
	CHECK(d && d->off == offsetof(struct as_tunables, write_batch_expire));
	d = as_tunable_find("antic_expire");
	CHECK(d && d->off == offsetof(struct as_tunables, antic_expire) && d->min_ms == 0);
	CHECK(!as_tunable_find("antic_expir"));
	CHECK(!as_tunable_find("antic_expire_"));
	CHECK(!as_tunable_find(""));
	for (i = 0; i < AS_NR_TUNABLES; i++)
		CHECK(as_tunable_find(as_tunable_descs[i].name) == &as_tunable_descs[i]);
}

static void test_merges_keep_earlier_time(void)
{
	struct as_sched as;
	struct antic_rq *a, *b, *c;

	fresh(&as);
	a = mk(1000, true, NULL);
	b = mk(1008, true, NULL);
	c = mk(5000, true, NULL);
	as_add(&as, c, 0);
	as_add(&as, b, 10 * MS);
	as_add(&as, a, 20 * MS);
	/* b was queued first: a absorbs it and takes its earlier deadline */
	as_merge_requests(&as, a, b);
	CHECK_EQ(a->fifo_time, 10 * MS + as.tun.read_expire);
	CHECK_EQ(a->nr_sectors, 16);
	CHECK_EQ(as_queued(&as), 2);
	CHECK(as.q[ANTIC_CLASS_BE][ANTIC_SYNC].fifo_head == c && c->fifo_next == a);
	/* a front merge moves the start and keeps the FIFO time */
	as_front_merged(&as, a, 992);
	CHECK_EQ(a->sector, 992);
	CHECK_EQ(a->nr_sectors, 24);
	CHECK_EQ(a->fifo_time, 10 * MS + as.tun.read_expire);
	CHECK(as_find_starting_at(&as, true, ANTIC_CLASS_BE, 992) == a);
	CHECK(as_find_starting_at(&as, true, ANTIC_CLASS_RT, 992) == NULL);
	CHECK(as_find_starting_at(&as, true, ANTIC_CLASS_BE, 1000) == NULL);
}

static void test_deadline_writes_starved(void)
{
	struct dl_sched dl;
	struct dl_tunables t;
	struct antic_rq *w, *rq;
	int i, pos = -1;

	used = 0;
	dl_default_tunables(&t);
	dl_init(&dl, &t);
	w = mk(900000000, false, NULL);
	dl_policy_ops.add(&dl, w, 0);
	for (i = 0; i < 40; i++)
		dl_policy_ops.add(&dl, mk(1000 + 8 * i, true, NULL), 0);
	for (i = 0; i < 41; i++) {
		CHECK(dl_policy_ops.dispatch(&dl, 1, &rq) == ANTIC_DISPATCH);
		if (rq == w)
			pos = i;
	}
	/* two read batches of fifo_batch, then the starved write */
	CHECK_EQ(pos, 32);
}

/*
 * The mq-deadline model's classes: real-time first; a lower class waits
 * while a higher one has a request at the drive; with two classes at
 * work, a lower one's request past prio_aging_expire goes first.
 */
static void test_deadline_classes(void)
{
	struct dl_sched dl;
	struct dl_tunables t;
	struct antic_rq *be, *rt, *idle, *rq;

	used = 0;
	dl_default_tunables(&t);
	dl_init(&dl, &t);
	be = mk(1000, true, NULL);
	rt = mk(900000000, true, NULL);
	rt->prio_class = ANTIC_CLASS_RT;
	idle = mk(2000, true, NULL);
	idle->prio_class = ANTIC_CLASS_IDLE;
	dl_policy_ops.add(&dl, idle, 0);
	dl_policy_ops.add(&dl, be, 0);
	dl_policy_ops.add(&dl, rt, 0);
	CHECK(dl_policy_ops.dispatch(&dl, 1, &rq) == ANTIC_DISPATCH && rq == rt);
	/* the real-time read at the drive: best effort waits for it */
	CHECK(dl_policy_ops.dispatch(&dl, 2, &rq) == ANTIC_IDLE);
	dl_policy_ops.complete(&dl, rt, 3);
	CHECK(dl_policy_ops.dispatch(&dl, 4, &rq) == ANTIC_DISPATCH && rq == be);
	CHECK(dl_policy_ops.dispatch(&dl, 5, &rq) == ANTIC_IDLE);
	dl_policy_ops.complete(&dl, be, 6);
	CHECK(dl_policy_ops.dispatch(&dl, 7, &rq) == ANTIC_DISPATCH && rq == idle);
	dl_policy_ops.complete(&dl, idle, 8);
	CHECK(dl_policy_ops.dispatch(&dl, 9, &rq) == ANTIC_EMPTY);
	/* aging: an idle request 10 s old goes before best effort's */
	idle = mk(3000, true, NULL);
	idle->prio_class = ANTIC_CLASS_IDLE;
	dl_policy_ops.add(&dl, idle, 10);
	be = mk(4000, true, NULL);
	dl_policy_ops.add(&dl, be, t.prio_aging_expire);
	CHECK(dl_policy_ops.dispatch(&dl, t.prio_aging_expire + 10, &rq) ==
	      ANTIC_DISPATCH && rq == idle);
}

static void test_deadline_fifo(void)
{
	struct dl_sched dl;
	struct dl_tunables t;
	struct antic_rq *far, *near, *rq;

	used = 0;
	dl_default_tunables(&t);
	dl_init(&dl, &t);
	far = mk(900000000, true, NULL);
	dl_policy_ops.add(&dl, far, 0);
	near = mk(100, true, NULL);
	dl_policy_ops.add(&dl, near, 0);
	CHECK(dl_policy_ops.dispatch(&dl, 1, &rq) == ANTIC_DISPATCH && rq == far);
	/* new batch, nothing expired: continues in sector order, not wrapping */
	CHECK(dl_policy_ops.dispatch(&dl, 2, &rq) == ANTIC_DISPATCH && rq == near);
}

static void test_noop_fifo(void)
{
	struct noop_sched n;
	struct antic_rq *a, *b, *rq;

	used = 0;
	noop_init(&n);
	a = mk(9000, true, NULL);
	b = mk(10, true, NULL);
	noop_policy_ops.add(&n, a, 0);
	noop_policy_ops.add(&n, b, 0);
	CHECK(noop_policy_ops.dispatch(&n, 0, &rq) == ANTIC_DISPATCH && rq == a);
	CHECK(noop_policy_ops.dispatch(&n, 0, &rq) == ANTIC_DISPATCH && rq == b);
	CHECK(noop_policy_ops.dispatch(&n, 0, &rq) == ANTIC_EMPTY);
}

/* A wait on a request the drive gives back must not outlive it. */
static void test_requeue_ends_wait(void)
{
	struct antic_proc p, q;
	struct antic_rq *a, *b, *far, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	/* give P a history of short think times and close seeks */
	a = mk(1000, true, &p);
	as_add(&as, a, 0);
	CHECK(next(&as, 0) == a);
	as_complete(&as, a, 100000);
	b = mk(1008, true, &p);
	as_add(&as, b, 150000);
	CHECK(next(&as, 150000) == b);
	far = mk(3000000, true, &q);
	as_add(&as, far, 160000);
	/* b is still at the drive: the scheduler waits for it */
	CHECK(as_dispatch(&as, 170000, &out) != ANTIC_DISPATCH);
	CHECK(as.antic_state == AS_ANTIC_WAIT_REQ && !as_has_work(&as));
	/* the drive gives b back; the host will send it around the scheduler */
	as_requeue(&as, b);
	CHECK(as.antic_state != AS_ANTIC_WAIT_REQ);
	CHECK(as_has_work(&as) || as_get_expiry(&as));
}

/*
 * The host's promise after any event: a wait is ended by a completion
 * still to come (P has a request at the drive), or by a time the host is
 * told (as_get_expiry); and with work queued and nothing at the drive,
 * the host is told to dispatch or when to look again.
 */
static bool wait_is_bounded(const struct as_sched *as)
{
	if (as->antic_state == AS_ANTIC_WAIT_NEXT)
		return as_get_expiry(as) != 0;
	if (as->antic_state == AS_ANTIC_WAIT_REQ)
		return as_get_expiry(as) ||
		       (as->antic_proc && as->antic_proc->nr_in_flight);
	return true;
}

/* P has a history of short think times and close seeks; its read @at is dispatched at @t. */
static struct antic_rq *close_reader(struct as_sched *as, struct antic_proc *p,
				     u64 at, u64 t)
{
	struct antic_rq *a, *b;

	a = mk(at, true, p);
	as_add(as, a, t);
	CHECK(next(as, t) == a);
	as_complete(as, a, t + 100000);
	b = mk(at + 8, true, p);
	as_add(as, b, t + 150000);
	CHECK(next(as, t + 150000) == b);
	return b;
}

/*
 * A requeue before any wait started (OFF): the read the next wait would
 * be timed from is gone (blk-mq sends it around the scheduler, and no
 * completion of it is reported), so no wait on P may start. Another
 * process's far read is served, or the host is told when to look.
 */
static void test_requeue_off(void)
{
	struct antic_proc p, q;
	struct antic_rq *b, *far, *out;
	struct as_sched as;
	enum antic_verdict v;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	b = close_reader(&as, &p, 1000, 0);
	CHECK(as.antic_state == AS_ANTIC_OFF && as.antic_proc == &p);
	as_requeue(&as, b);	/* bypassed: never added again */
	far = mk(3000000, true, &q);
	as_add(&as, far, 160000);
	v = as_dispatch(&as, 170000, &out);
	CHECK(wait_is_bounded(&as));
	CHECK(v == ANTIC_DISPATCH || as_has_work(&as) || as_get_expiry(&as));
	/* and the far read goes before long */
	if (v != ANTIC_DISPATCH)
		CHECK(next(&as, 170000 + 20 * MS) == far);
	CHECK(!as_at_drive(&as) || as_at_drive(&as) == 1);
}

/*
 * A requeue while a wait waits for P's request at the drive (WAIT_REQ),
 * that request being P's O_DIRECT write sent after its read: the wait
 * cannot be ended by that completion any more, so it ends now.
 */
static void test_requeue_wait_req_write(void)
{
	struct antic_proc p, q;
	struct antic_rq *b, *w, *far, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	b = close_reader(&as, &p, 1000, 0);
	w = mk(50000, true, &p);	/* an O_DIRECT write of P's */
	w->write = true;
	as_add(&as, w, 160000);
	CHECK(next(&as, 160000) == w);
	as_complete(&as, b, 200000);
	far = mk(3000000, true, &q);
	as_add(&as, far, 210000);
	CHECK(as_dispatch(&as, 210000, &out) == ANTIC_IDLE);
	CHECK(as.antic_state == AS_ANTIC_WAIT_REQ && !as_get_expiry(&as));
	as_requeue(&as, w);
	CHECK(wait_is_bounded(&as) && as.antic_state != AS_ANTIC_WAIT_REQ);
	CHECK(as_has_work(&as) && next(&as, 210000) != NULL);
}

/*
 * A requeue of another process's request while the wait for P's next
 * read runs (WAIT_NEXT, its timer set): the wait keeps its deadline.
 */
static void test_requeue_wait_next(void)
{
	struct antic_proc p, q;
	struct antic_rq *b, *qw, *far, *out;
	struct as_sched as;
	u64 t;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	qw = mk(9000000, true, &q);	/* Q's O_DIRECT write, at the drive */
	qw->write = true;
	as_add(&as, qw, 0);
	CHECK(next(&as, 0) == qw);
	b = close_reader(&as, &p, 1000, 1000);
	as_complete(&as, b, 200000);
	far = mk(3000000, true, &q);
	as_add(&as, far, 210000);
	CHECK(as_dispatch(&as, 210000, &out) == ANTIC_IDLE);
	CHECK(as.antic_state == AS_ANTIC_WAIT_NEXT);
	t = as_get_expiry(&as);
	CHECK(t > 210000);
	as_requeue(&as, qw);
	CHECK(as.antic_state == AS_ANTIC_WAIT_NEXT && as_get_expiry(&as) == t);
	CHECK(as.antic_proc == &p && q.nr_in_flight == 0);
	as_add(&as, qw, 220000);	/* added again (6.1) */
	as_handle_expiry(&as, t);
	CHECK(as.antic_state != AS_ANTIC_WAIT_NEXT);
	CHECK(next(&as, t) != NULL && next(&as, t) != NULL);
	CHECK(!as_queued(&as));
}

/*
 * A process that exited (the kernel's exit_icq comes at the task's exit,
 * with its requests still queued) has its read dispatched, then requeued:
 * the host frees P once that request finishes, so nothing in core may
 * point at P after the requeue, and no wait may be kept on it.
 */
static void test_requeue_exited(void)
{
	struct antic_proc p, q;
	struct antic_rq *a, *b, *far, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = close_reader(&as, &p, 1000, 0);
	as_complete(&as, a, 200000);
	b = mk(1016, true, &p);
	as_add(&as, b, 250000);
	as_proc_exit(&as, &p, 260000);	/* P exits with b queued */
	CHECK(next(&as, 260000) == b);	/* its own read goes first */
	as_requeue(&as, b);	/* bypassed */
	CHECK(as.antic_proc != &p && as.newcomer != &p);
	far = mk(3000000, true, &q);
	as_add(&as, far, 270000);
	(void)as_dispatch(&as, 270000, &out);
	CHECK(wait_is_bounded(&as));
	CHECK(as.antic_proc != &p);
	/* the same, with P's requeued read added again and completed */
	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = close_reader(&as, &p, 1000, 0);
	as_complete(&as, a, 200000);
	b = mk(1016, true, &p);
	as_add(&as, b, 250000);
	as_proc_exit(&as, &p, 260000);
	CHECK(next(&as, 260000) == b);
	as_requeue(&as, b);
	as_add(&as, b, 261000);
	CHECK(next(&as, 261000) == b);
	as_complete(&as, b, 262000);
	CHECK(as.antic_proc != &p && p.nr_queued == 0 && p.nr_in_flight == 0);
}

/* A merged request requeued, added again and completed: every count back to 0. */
static void test_requeue_merged(void)
{
	struct antic_proc p;
	struct antic_rq *a, *b, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	a = mk(1000, true, &p);
	b = mk(1008, true, &p);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_merge_requests(&as, a, b);
	CHECK(a->nr_sectors == 16 && p.nr_queued == 1);
	CHECK(next(&as, 1000) == a);
	as_requeue(&as, a);
	CHECK(p.nr_in_flight == 0 && p.nr_sync_in_flight == 0 && as_at_drive(&as) == 0);
	CHECK(wait_is_bounded(&as) && as.antic_proc != &p);
	as_add(&as, a, 2000);
	CHECK(as_dispatch(&as, 3000, &out) == ANTIC_DISPATCH && out == a);
	as_complete(&as, a, 4000);
	CHECK(p.nr_queued == 0 && p.nr_in_flight == 0 && as_at_drive(&as) == 0);
	CHECK(!as_queued(&as));
}

/* ---- I/O priority classes ---- */

static struct antic_rq *mk_class(u64 sector, bool sync, struct antic_proc *p,
				 int class)
{
	struct antic_rq *rq = mk(sector, sync, p);

	rq->prio_class = (u8)class;
	return rq;
}

/*
 * A real-time read goes before best-effort reads queued earlier and
 * closer to the head, and ends a wait on a best-effort process at once.
 */
static void test_class_rt_first(void)
{
	struct antic_proc p, q, r;
	struct antic_rq *b, *near, *rt, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	antic_proc_init(&r);
	b = close_reader(&as, &p, 1000, 0);
	as_complete(&as, b, 200000);
	near = mk(60000000, true, &q);
	as_add(&as, near, 210000);
	/* P's wait: its next read is likely close; Q's read must wait */
	CHECK(as_dispatch(&as, 210000, &out) == ANTIC_IDLE);
	CHECK(as.antic_state == AS_ANTIC_WAIT_NEXT);
	rt = mk_class(90000000, true, &r, ANTIC_CLASS_RT);
	as_add(&as, rt, 220000);
	CHECK(as.antic_state == AS_ANTIC_FINISHED);
	CHECK_EQ(as.cnt.antic_end[AS_END_CLASS], 1);
	CHECK(as_has_work(&as));
	CHECK(next(&as, 220000) == rt);
	CHECK_EQ(as.cnt.rt_dispatched, 1);
	/* R's read at the drive: a wait on R may hold Q's, as on anyone */
	as_complete(&as, rt, 230000);
	as_handle_expiry(&as, 230000 + 20 * MS);
	CHECK(next(&as, 230000 + 20 * MS) == near);
	CHECK(!as_queued(&as));
}

/*
 * A wait after a real-time process's read holds best-effort reads, as
 * a wait on a best-effort one does: its next read, close, comes first.
 */
static void test_class_rt_anticipated(void)
{
	struct antic_proc p, q;
	struct antic_rq *a, *b, *c, *far, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	a = mk_class(1000, true, &p, ANTIC_CLASS_RT);
	as_add(&as, a, 0);
	CHECK(next(&as, 0) == a);
	as_complete(&as, a, 100000);
	b = mk_class(1008, true, &p, ANTIC_CLASS_RT);
	as_add(&as, b, 150000);
	CHECK(next(&as, 150000) == b);
	as_complete(&as, b, 250000);
	far = mk(50000000, true, &q);
	as_add(&as, far, 260000);
	CHECK(as_dispatch(&as, 260000, &out) == ANTIC_IDLE);
	CHECK(as.antic_state == AS_ANTIC_WAIT_NEXT && as.antic_proc == &p);
	c = mk_class(1016, true, &p, ANTIC_CLASS_RT);
	as_add(&as, c, 300000);
	CHECK(next(&as, 300000) == c);
	CHECK_EQ(as.cnt.antic_end[AS_END_OWN], 1);
}

/*
 * The idle class goes only once the disk has had nothing else for
 * AS_IDLE_GRACE: not beside a best-effort reader, not in the gaps
 * between its reads, and the host is told when to look (get_expiry).
 */
static void test_class_idle_waits_for_grace(void)
{
	struct antic_proc p, b;
	struct antic_rq *idle, *r, *out;
	struct as_sched as;
	u64 t = 0;
	int i;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&b);
	idle = mk_class(80000000, true, &b, ANTIC_CLASS_IDLE);
	as_add(&as, idle, 0);
	for (i = 0; i < 20; i++, t += 30 * MS) {
		r = mk(1000 + 8 * (u64)i, true, &p);
		as_add(&as, r, t);
		CHECK(next(&as, t) == r);
		as_complete(&as, r, t + 5 * MS);
		/* a reader thinking 25 ms: the backup waits through its gaps */
		CHECK(as_dispatch(&as, t + 20 * MS, &out) != ANTIC_DISPATCH);
		CHECK(!as_has_work(&as));
		CHECK(as_get_expiry(&as) != 0);
	}
	CHECK_EQ(as.cnt.idle_dispatched, 0);
	/* the reader stops: the gate opens 200 ms after its last read */
	t -= 30 * MS;
	CHECK(as_dispatch(&as, t + 150 * MS, &out) != ANTIC_DISPATCH);
	CHECK_EQ(as_get_expiry(&as), t + 5 * MS + AS_IDLE_GRACE);
	as_handle_expiry(&as, t + 5 * MS + AS_IDLE_GRACE);
	CHECK(as_has_work(&as));
	CHECK(next(&as, t + 5 * MS + AS_IDLE_GRACE) == idle);
	CHECK_EQ(as.cnt.idle_dispatched, 1);
	as_complete(&as, idle, t + 300 * MS);
	CHECK_EQ(as.class_in_flight[ANTIC_CLASS_IDLE], 0);
	/* a best-effort read shuts the gate again */
	idle = mk_class(80000008, true, &b, ANTIC_CLASS_IDLE);
	as_add(&as, idle, t + 301 * MS);
	r = mk(5000, true, &p);
	as_add(&as, r, t + 301 * MS);
	CHECK(next(&as, t + 301 * MS) == r);
	CHECK(!as.idle_open && !as_has_work(&as));
}

/*
 * The starvation bound between classes: an idle request beside a reader
 * that never pauses, and a best-effort one beside a real-time flood, go
 * once they have waited prio_aging_expire.
 */
static void test_class_aging(void)
{
	struct antic_proc p, q, b;
	struct antic_rq *idle, *be, *r, *out;
	struct as_sched as;
	u64 t, idle_at = 0, be_at = 0;
	int i;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	antic_proc_init(&b);
	idle = mk_class(80000000, true, &b, ANTIC_CLASS_IDLE);
	as_add(&as, idle, 0);
	for (i = 0, t = 0; i < 2000 && !idle_at; i++, t += 10 * MS) {
		used = 1;	/* the pool is reused but for idle: r is done */
		r = mk(1000 + 8 * (u64)i, true, &p);
		as_add(&as, r, t);
		out = next(&as, t);
		if (out == idle) {
			idle_at = t;
			as_complete(&as, idle, t + 5 * MS);
			out = next(&as, t + 5 * MS);
		}
		CHECK(out == r);
		as_complete(&as, r, t + 10 * MS);
	}
	CHECK(idle_at >= as.tun.prio_aging_expire &&
	      idle_at <= as.tun.prio_aging_expire + 20 * MS);
	CHECK_EQ(as.cnt.aged_dispatched, 1);

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	be = mk(80000000, true, &q);
	as_add(&as, be, 0);
	for (i = 0, t = 0; i < 2000 && !be_at; i++, t += 10 * MS) {
		struct antic_rq rtq;

		memset(&rtq, 0, sizeof(rtq));
		rtq.sector = 1000 + 8 * (u64)i;
		rtq.nr_sectors = 8;
		rtq.sync = true;
		rtq.proc = &p;
		rtq.prio_class = ANTIC_CLASS_RT;
		as_add(&as, &rtq, t);
		out = next(&as, t);
		if (out == be) {
			be_at = t;
			as_complete(&as, be, t + 5 * MS);
			out = next(&as, t + 5 * MS);
		}
		CHECK(out == &rtq);
		as_complete(&as, &rtq, t + 10 * MS);
	}
	CHECK(be_at >= as.tun.prio_aging_expire &&
	      be_at <= as.tun.prio_aging_expire + 20 * MS);
}

/*
 * While a real-time request is at the drive no other class's is sent: a
 * drive that queues chooses among the commands it holds, and could serve
 * the real-time one behind all the others. A requeued real-time request
 * gives the drive back as a completed one does.
 */
static void test_class_rt_has_drive_alone(void)
{
	struct antic_proc p, q;
	struct antic_rq *rt, *be, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	as.drive_queues = true;
	as.tun.antic_expire = 0;	/* no wait: the drive's reserve alone holds */
	rt = mk_class(1000, true, &p, ANTIC_CLASS_RT);
	be = mk(90000000, true, &q);
	as_add(&as, rt, 0);
	as_add(&as, be, 0);
	CHECK(next(&as, 0) == rt);
	CHECK(as_dispatch(&as, 1 * MS, &out) == ANTIC_IDLE && !out);
	CHECK(!as_has_work(&as) && as.class_in_flight[ANTIC_CLASS_RT] == 1);
	as_complete(&as, rt, 5 * MS);
	CHECK_EQ(as.class_in_flight[ANTIC_CLASS_RT], 0);
	as_handle_expiry(&as, 50 * MS);	/* a wait on P, if any, is over */
	CHECK(next(&as, 50 * MS) == be);
	/* a requeued real-time request gives the drive back too */
	rt = mk_class(2000, true, &p, ANTIC_CLASS_RT);
	as_add(&as, rt, 60 * MS);
	as_complete(&as, be, 61 * MS);
	CHECK(next(&as, 61 * MS) == rt);
	as_requeue(&as, rt);
	CHECK_EQ(as.class_in_flight[ANTIC_CLASS_RT], 0);
}

/*
 * The idle gate's timer names a time that can open it: not the grace's
 * end while a best-effort request is still at the drive past it, nor
 * while a wait longer than the grace holds the disk. A time already past
 * that opens nothing would have a timer armed for it fire at once, again
 * and again.
 */
static void test_class_idle_gate_time(void)
{
	struct antic_proc p, q;
	struct antic_rq *b, *i, *out;
	struct as_sched as;
	u64 now, w;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	b = mk(1000, true, &p);
	as_add(&as, b, 0);
	CHECK(next(&as, 0) == b);
	i = mk_class(900000, true, &q, ANTIC_CLASS_IDLE);
	as_add(&as, i, 1000);
	now = 300 * MS;		/* b still at the drive: spin-up, error recovery */
	as_handle_expiry(&as, now);
	w = as_get_expiry(&as);
	CHECK(!w || w > now);
	as_complete(&as, b, now);
	CHECK_EQ(as_get_expiry(&as), now + AS_IDLE_GRACE);

	fresh(&as);
	as.tun.antic_expire = 500 * MS;	/* sysfs allows up to 1000 */
	antic_proc_init(&p);
	antic_proc_init(&q);
	b = close_reader(&as, &p, 1000, 0);
	as_complete(&as, b, 200000);
	i = mk_class(900000, true, &q, ANTIC_CLASS_IDLE);
	as_add(&as, i, 210000);
	as_add(&as, mk(50000000, true, NULL), 215000);	/* a far read: the wait holds it */
	CHECK(as_dispatch(&as, 220000, &out) == ANTIC_IDLE);
	CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_NEXT);
	now = 250 * MS;
	as_handle_expiry(&as, now);
	w = as_get_expiry(&as);
	CHECK(!w || w > now);
}

/* Classes' own queues: merges, removal and the front-merge lookup stay in them. */
static void test_class_queues(void)
{
	struct antic_proc p;
	struct antic_rq *a, *b, *c, *out;
	struct as_sched as;

	fresh(&as);
	antic_proc_init(&p);
	a = mk_class(1000, true, &p, ANTIC_CLASS_IDLE);
	b = mk_class(1008, true, &p, ANTIC_CLASS_IDLE);
	c = mk(1016, true, &p);
	as_add(&as, a, 0);
	as_add(&as, b, 0);
	as_add(&as, c, 0);
	CHECK_EQ(as_queued(&as), 3);
	CHECK(as_find_starting_at(&as, true, ANTIC_CLASS_IDLE, 1008) == b);
	CHECK(as_find_starting_at(&as, true, ANTIC_CLASS_BE, 1008) == NULL);
	as_merge_requests(&as, a, b);
	CHECK_EQ(as_queued(&as), 2);
	CHECK_EQ(p.nr_queued, 2);
	as_front_merged(&as, a, 992);
	CHECK(as_find_starting_at(&as, true, ANTIC_CLASS_IDLE, 992) == a);
	CHECK(next(&as, 0) == c);
	as_complete(&as, c, 1 * MS);
	CHECK(as_dispatch(&as, 2 * MS, &out) == ANTIC_IDLE);
	as_remove(&as, a);
	CHECK(!as_queued(&as) && !p.nr_queued);
	CHECK(as_dispatch(&as, 300 * MS, &out) == ANTIC_EMPTY);
	CHECK(!as_get_expiry(&as));
}

/*
 * A host as hostile as blk-mq can be, driven at random: adds from a few
 * processes, dispatches to a drive of depth 1-4, completions in any
 * order, requeues, process exits, timer firings and tunable changes.
 * After every step: the core's in-flight count matches the drive, and
 * the queue can never stall (requests queued, nothing at the drive, no
 * wait with a timer, and has_work saying no).
 */
#define CHAOS_PROCS 6
/* ---- the rules for a drive that queues (docs/design.md, NCQ depth 32) ---- */

/*
 * A read batch that has run once, with its time counted from 10 ms: the
 * state every rule below starts from (the initial batch counts as long
 * expired).
 */
static void read_batch_at_10ms(struct as_sched *as)
{
	struct antic_rq *w0 = mk(900000000, false, NULL);
	struct antic_rq *r0 = mk(100, true, NULL);

	as_add(as, w0, 0);
	as_add(as, r0, 0);
	CHECK(next(as, 1) == w0);	/* the initial batch is over: writes */
	as_complete(as, w0, 1 * MS);
	CHECK(next(as, 1 * MS) == r0);	/* nothing more to write: reads */
	CHECK_EQ(as->batch_dir, ANTIC_SYNC);
	as_complete(as, r0, 10 * MS);	/* the read batch runs to 510 ms */
}

/* Rule 1: P's reads at the drive keep the read batch; off, writes take over. */
static void test_in_flight_reads_keep_batch(void)
{
	int on;

	for (on = 0; on <= 1; on++) {
		struct as_sched as;
		struct antic_proc p;
		struct antic_rq *r1, *r2, *r3, *w, *rq;

		fresh(&as);
		as.tun.antic_in_flight = (u64)on;
		read_batch_at_10ms(&as);
		antic_proc_init(&p);
		r1 = mk(1000, true, &p);
		r2 = mk(1008, true, &p);	/* read-ahead: two at the drive */
		as_add(&as, r1, 11 * MS);
		as_add(&as, r2, 11 * MS);
		CHECK(next(&as, 11 * MS) == r1);
		CHECK(next(&as, 11 * MS) == r2);
		w = mk(500000000, false, NULL);
		as_add(&as, w, 12 * MS);
		CHECK(as_dispatch(&as, 12 * MS, &rq) == ANTIC_IDLE && !rq);
		if (!on) {
			/* AS's rule: P is busy, the batch goes to the writes */
			CHECK_EQ(as.cnt.antic_declined[AS_END_BUSY], 1);
			CHECK_EQ(as.batch_dir, ANTIC_ASYNC);
			continue;
		}
		CHECK_EQ(as.batch_dir, ANTIC_SYNC);
		CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_REQ);
		CHECK_EQ(as.cnt.waits_in_flight, 1);
		CHECK(!as_has_work(&as));
		/* bounded by the read batch: the timer is set for its end */
		CHECK_EQ(as_get_expiry(&as), 510 * MS + 1);
		as_complete(&as, r1, 20 * MS);
		CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_REQ);	/* r2 still out */
		r3 = mk(1016, true, &p);
		as_add(&as, r3, 21 * MS);	/* its completion brought the next */
		CHECK(next(&as, 21 * MS) == r3);
		CHECK_EQ(as.cnt.antic_end[AS_END_OWN], 1);
		/* past the batch's end the timer ends the wait; writes go */
		CHECK(as_dispatch(&as, 22 * MS, &rq) == ANTIC_IDLE);
		as_handle_expiry(&as, 511 * MS);
		CHECK_EQ(as.cnt.antic_end[AS_END_DEADLINE], 1);
		CHECK(as_dispatch(&as, 511 * MS, &rq) == ANTIC_IDLE);
		CHECK_EQ(as.batch_dir, ANTIC_ASYNC);	/* draining P's reads */
		as_complete(&as, r2, 512 * MS);
		as_complete(&as, r3, 513 * MS);
		CHECK(next(&as, 513 * MS) == w);
	}
}

/*
 * Rule 2: a write batch sends its writes at full depth even with reads
 * queued (they wait for the batch's end either way); the read batch then
 * starts only once at most K writes are left at the drive, and no write
 * joins reads there. Off: reads wait for a full drain.
 */
static void test_write_bound_at_switch(void)
{
	struct as_sched as;
	struct antic_rq *r0, *r1, *w[8], *rq;
	int bound, i;
	u32 k;

	for (bound = 1; bound >= 0; bound--) {
		fresh(&as);
		if (!bound)
			as.tun.write_bound = 0;
		k = bound ? as.write_k : 0;
		CHECK(k < 6);
		for (i = 0; i < 8; i++) {
			w[i] = mk(1000000 + 1000 * (u64)i, false, NULL);
			as_add(&as, w[i], 0);
		}
		CHECK(next(&as, 1 * MS) == w[0]);	/* a write batch starts */
		r0 = mk(100, true, NULL);
		as_add(&as, r0, 1 * MS);
		/* a read is queued, and all eight go all the same */
		for (i = 1; i < 8; i++)
			CHECK(next(&as, 1 * MS) == w[i]);
		CHECK_EQ(as.in_flight[ANTIC_ASYNC], 8);
		CHECK_EQ(as.cnt.writes_kept, 0);
		/* its time is up: the reads wait for the drain down to K */
		CHECK(as_dispatch(&as, 200 * MS, &rq) == ANTIC_IDLE && !rq);
		CHECK_EQ(as.cnt.drains_to_k, bound ? 1U : 0U);	/* counted with K */
		CHECK(!as_has_work(&as));	/* no busy loop: completions rerun */
		for (i = 0; i < 8 - (int)k; i++) {
			CHECK(next(&as, 201 * MS) == NULL);
			as_complete(&as, w[i], 201 * MS);
		}
		CHECK(as_has_work(&as));
		CHECK(next(&as, 202 * MS) == r0);
		CHECK_EQ(as.in_flight[ANTIC_ASYNC], k);
		/* a write arriving now does not join the read at the drive */
		r1 = mk(200, true, NULL);
		as_add(&as, r1, 203 * MS);
		as_add(&as, mk(2000000, false, NULL), 203 * MS);
		CHECK(next(&as, 203 * MS) == r1);
	}
}

/*
 * Rule 1's write half: a write batch whose writes are all at the drive
 * is kept while they are there (the flusher sends more as they complete);
 * it ends at its time, or when the last completes with none queued. Off:
 * it ends as soon as its queue is empty.
 */
/*
 * A write batch of @n (1 or 2) writes started, its first at the drive,
 * and a read queued behind it: test_write_batch_kept's starting point.
 */
static struct antic_rq *batch_then_read(struct as_sched *as, int n,
					struct antic_rq **w0,
					struct antic_rq **w1)
{
	struct antic_rq *r0;

	*w0 = mk(1000000, false, NULL);
	as_add(as, *w0, 0);
	if (n > 1) {
		*w1 = mk(1001000, false, NULL);
		as_add(as, *w1, 0);
	}
	CHECK(next(as, 1 * MS) == *w0);	/* a write batch starts */
	r0 = mk(100, true, NULL);
	as_add(as, r0, 1 * MS);
	return r0;
}

static void test_write_batch_kept(void)
{
	struct as_sched as;
	struct antic_rq *r0, *w0, *w1, *w2, *rq;

	fresh(&as);
	r0 = batch_then_read(&as, 2, &w0, &w1);
	CHECK(next(&as, 1 * MS) == w1);
	CHECK(as_dispatch(&as, 2 * MS, &rq) == ANTIC_IDLE && !rq);
	CHECK_EQ(as.cnt.writes_kept, 1);
	CHECK(!as_has_work(&as));
	CHECK(as_dispatch(&as, 2 * MS, &rq) == ANTIC_IDLE);
	CHECK_EQ(as.cnt.writes_kept, 1);	/* one hold, counted once */
	/* the flusher's next write goes at once */
	w2 = mk(1002000, false, NULL);
	as_add(&as, w2, 3 * MS);
	CHECK(as_has_work(&as));
	CHECK(next(&as, 3 * MS) == w2);
	as_complete(&as, w0, 4 * MS);
	CHECK(as_dispatch(&as, 4 * MS, &rq) == ANTIC_IDLE);
	CHECK_EQ(as.cnt.writes_kept, 2);
	/* a completion with a write left and time to go keeps it quietly */
	as_complete(&as, w2, 5 * MS);
	CHECK(!as_has_work(&as));
	CHECK_EQ(as.cnt.writes_kept, 2);
	/* its last write completes past the batch's time: the read goes */
	as_complete(&as, w1, 200 * MS);
	CHECK(as_has_work(&as));
	CHECK(next(&as, 200 * MS) == r0);
	CHECK_EQ(as.cnt.drains_to_k, 0);

	/* past its time, the first completion ends it, a write still out */
	fresh(&as);
	r0 = batch_then_read(&as, 2, &w0, &w1);
	CHECK(next(&as, 1 * MS) == w1);
	CHECK(next(&as, 2 * MS) == NULL);
	as_complete(&as, w0, 200 * MS);
	CHECK(as_has_work(&as));
	CHECK(next(&as, 200 * MS) == r0);
	CHECK_EQ(as.in_flight[ANTIC_ASYNC], 1);

	/* the last write done with none queued: the batch is over */
	fresh(&as);
	r0 = batch_then_read(&as, 1, &w0, NULL);
	CHECK(next(&as, 1 * MS) == NULL);
	as_complete(&as, w0, 5 * MS);
	CHECK(next(&as, 5 * MS) == r0);

	/* off: the empty queue ends the batch, beside the write at the drive */
	fresh(&as);
	as.tun.antic_in_flight = 0;
	r0 = batch_then_read(&as, 1, &w0, NULL);
	CHECK(next(&as, 1 * MS) == r0);
	CHECK_EQ(as.cnt.writes_kept, 0);
}

/*
 * Rule 2's tuning: reads that start beside writes (a read batch begins
 * while up to K writes are still at the drive) and take much longer than
 * reads alone lower K; when they take about as long, K rises.
 */
static void test_write_k_falls_and_rises(void)
{
	struct as_sched as;
	struct antic_rq *r, *w1, *w2, *rq;
	u64 now;
	u32 k0;
	int i;

	fresh(&as);
	k0 = as.write_k;
	/* the base: reads alone take 10 ms */
	for (i = 0, now = 0; i < 4; i++) {
		r = mk(100 + 8 * (u64)i, true, NULL);
		as_add(&as, r, now);
		CHECK(next(&as, now) == r);
		now += 10 * MS;
		as_complete(&as, r, now);
	}
	CHECK(as.base_samples > 0);
	w1 = mk(800000000, false, NULL);
	w2 = mk(800001000, false, NULL);
	as_add(&as, w1, now);
	as_add(&as, w2, now);
	CHECK(next(&as, now) == w1);
	CHECK(next(&as, now) == w2);
	/* a read arrives; the write batch ends; it starts beside w1 and w2 */
	r = mk(5000, true, NULL);
	as_add(&as, r, now + 1 * MS);
	now += 200 * MS;
	CHECK(as_dispatch(&as, now, &rq) == ANTIC_DISPATCH && rq == r);
	CHECK(r->loaded);
	now += 40 * MS;		/* four times the base */
	as_complete(&as, r, now);
	CHECK_EQ(as.cnt.k_lowered, 1);
	CHECK_EQ(as.write_k, k0 - 1);
	CHECK_EQ(as.cnt.write_k_min, k0 - 1);
	/* then reads beside the writes as fast as alone: K climbs back */
	for (i = 0; i < 40 && as.write_k < k0; i++) {
		r = mk(6000 + 8 * (u64)i, true, NULL);
		as_add(&as, r, now);
		CHECK(next(&as, now) == r);
		CHECK(r->loaded);
		now += 10 * MS;
		as_complete(&as, r, now);
	}
	CHECK(as.cnt.k_raised > 0);
	CHECK_EQ(as.write_k, k0);
	CHECK_EQ(as.cnt.write_k, k0);
}

/* The streamer P of the sync write scenes: two reads queued at 0. */
static void streamer_start(struct as_sched *as, struct antic_proc *p, u64 *sector)
{
	antic_proc_init(p);
	*sector = 1000;
	as_add(as, mk(*sector, true, p), 0);
	*sector += 8;
	as_add(as, mk(*sector, true, p), 0);
	*sector += 8;
}

/* P's next read queued (always one ahead), then @rq completes 2 ms on. */
static void streamer_step(struct as_sched *as, struct antic_proc *p, u64 *sector,
			  u64 *now, struct antic_rq *rq)
{
	as_add(as, mk(*sector, true, p), *now);
	*sector += 8;
	*now += 2 * MS;
	as_complete(as, rq, *now);
}

/*
 * The scene of rule 3's tests: P streams, always one read ahead; Q's sync
 * write (O_DIRECT's if @direct) waits far away. Returns when Q's write was
 * sent, 0 for never; *as is left as it ended (its processes static, so
 * that it points at none gone).
 */
static u64 sync_write_served(struct as_sched *as, bool rule3, bool direct)
{
	static struct antic_proc p, q;
	struct antic_rq *sw, *rq;
	u64 now, served = 0;
	u64 sector;
	int i;

	fresh(as);
	if (!rule3)
		as->tun.sync_write_expire = 0;
	antic_proc_init(&q);
	streamer_start(as, &p, &sector);
	sw = mk(300000000, true, &q);
	sw->write = true;
	sw->direct = direct;
	as_add(as, sw, 0);
	for (i = 0, now = 0; i < 120; i++) {
		CHECK(as_dispatch(as, now, &rq) == ANTIC_DISPATCH);
		if (rq == sw) {
			served = now;
			break;
		}
		streamer_step(as, &p, &sector, &now, rq);
	}
	used = 0;
	return served;
}

/*
 * Rule 3: another process's sync write (fsync) is served within
 * sync_write_expire plus one request, not when the FIFO expires, beside a
 * streamer that always has its next request queued.
 */
static void test_sync_write_bounded_wait(void)
{
	int on;

	for (on = 0; on <= 1; on++) {
		struct as_sched as;
		u64 served = sync_write_served(&as, on, false);

		CHECK(served > 0);
		if (on) {
			CHECK(served <= as.tun.sync_write_expire + 2 * MS);
			CHECK_EQ(as.cnt.sync_writes_early, 1);
		} else {
			CHECK(served >= as.tun.read_expire);
			CHECK_EQ(as.cnt.sync_writes_early, 0);
		}
	}
}

/*
 * Rule 3 sends another process's overdue sync write early at most once
 * per sync_write_expire: Q's and R's fsync writes wait far from a
 * streamer P from the start. Q's goes early; R's, as overdue, goes no
 * sooner than sync_write_expire after Q's, though P's stream would let
 * it go at once. @retune: sync_write_expire doubled right after Q's went,
 * which moves R's turn with it. Returns R's time after Q's, 0 for never.
 */
static u64 sync_write_spacing(bool retune)
{
	static struct antic_proc p, q, r;
	struct antic_rq *qw, *rw, *rq;
	struct as_sched as;
	u64 now, sector, q_at = 0, r_at = 0;
	int i;

	fresh(&as);
	as.tun.antic_expire = 0;	/* no wait on Q or R after their writes */
	antic_proc_init(&q);
	antic_proc_init(&r);
	streamer_start(&as, &p, &sector);
	qw = mk(300000000, true, &q);
	qw->write = true;
	as_add(&as, qw, 0);
	/* behind Q's, beyond AS_MAXBACK: only rule 3 or the FIFO sends it */
	rw = mk(100000000, true, &r);
	rw->write = true;
	as_add(&as, rw, 0);
	for (i = 0, now = 0; i < 120 && !r_at; i++) {
		CHECK(as_dispatch(&as, now, &rq) == ANTIC_DISPATCH);
		if (rq == qw) {
			q_at = now;
			if (retune) {
				struct as_tunables t = as.tun;

				t.sync_write_expire *= 2;
				as_set_tunables(&as, &t);
			}
		}
		if (rq == rw)
			r_at = now;
		streamer_step(&as, &p, &sector, &now, rq);
	}
	CHECK(q_at > 0 && r_at > q_at);
	CHECK_EQ(as.cnt.sync_writes_early, 2);
	used = 0;
	return r_at > q_at ? r_at - q_at : 0;
}

static void test_sync_write_early_spacing(void)
{
	struct as_tunables t;
	u64 gap = sync_write_spacing(false), gap2 = sync_write_spacing(true);

	as_default_tunables(&t, true);
	/* not before, and at the first dispatch after (2 ms apart) */
	CHECK(gap >= t.sync_write_expire && gap <= t.sync_write_expire + 2 * MS);
	CHECK(gap2 >= 2 * t.sync_write_expire &&
	      gap2 <= 2 * t.sync_write_expire + 2 * MS);
}

/*
 * No wait follows an O_DIRECT write. P writes with O_DIRECT, one write at
 * a time, a stream; Q's read waits far away. After P's write completes
 * Q's read goes, though P's next write comes 1 ms later. The same P
 * writing back (an fsync's sync writes) or reading is waited for.
 */
static void test_no_wait_after_direct_write(void)
{
	int kind;

	for (kind = 0; kind < 3; kind++) {	/* 0 read, 1 writeback, 2 O_DIRECT */
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *pr, *qr, *rq;
		u64 now = 0, sector = 1000;
		int i;

		fresh(&as);
		as.tun.newcomer_expire = 0;	/* Q's read is no newcomer's */
		as.tun.sync_write_expire = 0;	/* rule 3 has its own tests */
		antic_proc_init(&p);
		antic_proc_init(&q);
		/* P's history: a stream that sends its next as the last completes */
		for (i = 0; i <= 8; i++, sector += 8, now += 2 * MS) {
			pr = mk(sector, true, &p);
			pr->write = kind > 0;
			pr->direct = kind == 2;
			as_add(&as, pr, now);
			if (i == 8) {
				qr = mk(300000000, true, &q);
				as_add(&as, qr, now);
			}
			CHECK(next(&as, now) == pr);
			as_complete(&as, pr, now + MS);
		}
		now += MS - 2 * MS;
		rq = next(&as, now);
		if (kind == 2) {
			CHECK(rq == qr);
			CHECK_EQ(as.cnt.antic_started, 0);
			CHECK_EQ(as.cnt.direct_writes, 9);
		} else {
			CHECK(rq == NULL && as.antic_state == AS_ANTIC_WAIT_NEXT);
			pr = mk(sector, true, &p);
			pr->write = kind > 0;
			as_add(&as, pr, now + MS);
			CHECK(next(&as, now + MS) == pr);
			CHECK_EQ(as.cnt.direct_writes, 0);
		}
		used = 0;
	}
}

/*
 * An O_DIRECT writer's allowance. P streams O_DIRECT writes, one at a
 * time, each 10 ms at the drive, sent as the last completes, so that P's
 * next is always the elevator's nearest; Q keeps four random reads queued
 * far ahead, each 8 ms. Over two periods (read_batch_expire plus
 * write_batch_expire each) P's disk time is at most its allowance
 * (write_batch_expire a period) plus the write in progress when it runs
 * out and those its FIFO sends (one per read_expire look), and P is not
 * starved: it gets at least its allowance. With O_DIRECT off (buffered
 * sync writes, the FIFO alone) P keeps more.
 */
static void test_direct_write_allowance(void)
{
	int direct;

	for (direct = 1; direct >= 0; direct--) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *rq, *pw;
		u64 now = 0, period, end, bound, p_time = 0, qsec = 200000000;
		u64 pos = 1000;
		int i, q_done = 0;

		fresh(&as);
		as.tun.newcomer_expire = 0;
		as.tun.sync_write_expire = 0;	/* rule 3 has its own tests */
		antic_proc_init(&p);
		antic_proc_init(&q);
		period = as.tun.read_batch_expire + as.tun.write_batch_expire;
		end = 2 * period;
		pw = mk(pos, true, &p);
		pw->write = true;
		pw->direct = direct;
		pw->nr_sectors = 2048;
		as_add(&as, pw, now);
		for (i = 0; i < 4; i++, qsec += 3000000)
			as_add(&as, mk(qsec, true, &q), now);
		while (now < end && used < 250) {
			u64 took;

			rq = next(&as, now);
			if (!rq) {
				now += MS;
				continue;
			}
			took = rq->write ? 10 * MS : 8 * MS;
			now += took;
			as_complete(&as, rq, now);
			if (rq->proc == &p) {
				p_time += took;
				pos += 2048;
				pw = mk(pos, true, &p);
				pw->write = true;
				pw->direct = direct;
				pw->nr_sectors = 2048;
				as_add(&as, pw, now);
			} else {
				q_done++;
				as_add(&as, mk(qsec, true, &q), now);
				qsec += 3000000;
			}
		}
		CHECK(used < 250);
		bound = 2 * (as.tun.write_batch_expire + 10 * MS) +
			antic_div64(end, as.tun.read_expire) * 10 * MS;
		if (direct) {
			CHECK(p_time >= 2 * as.tun.write_batch_expire);
			CHECK(p_time <= bound);
			CHECK(as.cnt.direct_deferred > 0);
			CHECK(q_done * 8 * MS >= end - bound);
		} else {
			CHECK(p_time > bound);
			CHECK_EQ(as.cnt.direct_deferred, 0);
		}
		used = 0;
	}
	{
		/*
		 * The charge where writes overlap at the drive: each from
		 * its dispatch or the completion before it, whichever is
		 * later, so two at once cost the time they took together;
		 * a completion reported before the last one's time adds 0.
		 */
		struct as_sched as;
		struct antic_proc p;
		struct antic_rq *w[3];
		int i;

		fresh(&as);
		antic_proc_init(&p);
		for (i = 0; i < 3; i++) {
			w[i] = mk(1000 + 2048 * (u64)i, true, &p);
			w[i]->write = true;
			w[i]->direct = true;
			as_add(&as, w[i], 0);
		}
		for (i = 0; i < 3; i++)
			CHECK(next(&as, 0) == w[i]);
		as_complete(&as, w[0], 10 * MS);
		as_complete(&as, w[1], 20 * MS);
		CHECK_EQ(as.direct_used, 20 * MS);
		as_complete(&as, w[2], 19 * MS);
		CHECK_EQ(as.direct_used, 20 * MS);
		used = 0;
	}
}

/*
 * Rule 3 sends writeback's sync write early, not an O_DIRECT write: beside
 * a streamer that always has its next request queued, the O_DIRECT write
 * waits for the FIFO.
 */
static void test_direct_write_not_early(void)
{
	int direct;

	for (direct = 0; direct <= 1; direct++) {
		struct as_sched as;
		u64 served = sync_write_served(&as, true, direct);

		CHECK(served > 0);
		if (direct) {
			CHECK(served >= as.tun.read_expire);
			CHECK_EQ(as.cnt.sync_writes_early, 0);
		} else {
			CHECK(served <= as.tun.sync_write_expire + 2 * MS);
			CHECK_EQ(as.cnt.sync_writes_early, 1);
		}
	}
}

/*
 * Rule 3 only turns the disk from P: when the elevator already leaves P
 * for another process's request, that one goes first, in sector order.
 */
static void test_sync_write_waits_when_disk_moves_on(void)
{
	struct as_sched as;
	struct antic_proc p, q, r;
	struct antic_rq *pr, *qr, *sw;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	antic_proc_init(&r);
	sw = mk(300000000, true, &r);
	sw->write = true;
	as_add(&as, sw, 0);
	pr = mk(1000, true, &p);
	as_add(&as, pr, 0);
	CHECK(next(&as, 0) == pr);	/* P is being served */
	qr = mk(1100, true, &q);	/* Q's read next to it */
	as_add(&as, qr, 25 * MS);
	as_complete(&as, pr, 25 * MS);
	/* the write is overdue, but the elevator goes to Q anyway */
	CHECK(next(&as, 30 * MS) == qr);
	CHECK_EQ(as.cnt.sync_writes_early, 0);
}

/*
 * The share rule. A streamer has had the disk for 2.6 s when writes come:
 * the write batch that follows runs read_batch_expire long (writes had
 * less of the disk) if a writer waits on writeback, and AS's short one
 * otherwise, or with share_window 0. @mode: 0 throttled, 1 not, 2 off.
 */
static void share_scene(struct as_sched *as, int mode, struct antic_rq **r2)
{
	struct antic_rq *r1;

	fresh(as);
	if (mode == 2)
		as->tun.share_window = 0;
	r1 = mk(1000, true, NULL);
	as_add(as, r1, 0);
	CHECK(next(as, 0) == r1);
	as_complete(as, r1, 2000 * MS);	/* the read batch is timed from here */
	as_add(as, mk(900000, false, NULL), 2000 * MS);
	as_add(as, mk(900008, false, NULL), 2000 * MS);
	*r2 = mk(1008, true, NULL);
	as_add(as, *r2, 2001 * MS);
	as_dirty_throttled(as, mode == 0);
}

static void test_share_writes_owed(void)
{
	int mode;

	for (mode = 0; mode < 3; mode++) {
		struct as_sched as;
		struct antic_rq *r2, *w;

		share_scene(&as, mode, &r2);
		/* the read batch ran out at 2.5 s: writes, and how long */
		w = next(&as, 2600 * MS);
		CHECK(w && !w->sync);
		CHECK_EQ(as.batch_dir, ANTIC_ASYNC);
		if (mode == 0) {
			CHECK(as.write_batch_owed);
			CHECK_EQ(as.batch_expires, 2600 * MS + as.tun.read_batch_expire);
			CHECK_EQ(as.cnt.write_batches_long, 1);
		} else {
			CHECK(!as.write_batch_owed);
			CHECK_EQ(as.batch_expires, 2600 * MS + as.tun.write_batch_expire);
			CHECK_EQ(as.cnt.write_batches_long, 0);
		}
		/* the reads' 2.6 s were charged to reads, not to writes */
		if (mode != 2)
			CHECK(as.served_us[ANTIC_SYNC] > 2000000 &&
			      as.served_us[ANTIC_ASYNC] == 0);
	}
}

/*
 * Then the read batch after that write batch: reads have still had more
 * of the disk, so while the writer waits it gets a write batch's length.
 * A long write batch is not judged by tune_write_batch (its count would
 * halve for a batch that ran to another budget).
 */
static void test_share_read_batch_cut(void)
{
	struct as_sched as;
	struct antic_rq *r2, *w1, *w2;
	u32 count;

	share_scene(&as, 0, &r2);
	count = as.write_batch_count;
	w1 = next(&as, 2600 * MS);
	w2 = next(&as, 2600 * MS);
	CHECK(w1 && w2 && !w1->sync && !w2->sync);
	as_complete(&as, w1, 2700 * MS);
	as_complete(&as, w2, 2800 * MS);
	/* more writes: past the count AS would have given, the batch goes on */
	as_add(&as, mk(900016, false, NULL), 2800 * MS);
	w1 = next(&as, 2800 * MS);
	CHECK(w1 && !w1->sync);
	as_complete(&as, w1, 3200 * MS);
	as_add(&as, mk(900024, false, NULL), 3200 * MS);	/* writes still wait */
	/* the long batch ran out at 3.1 s: reads, for a write batch's length */
	CHECK(next(&as, 3200 * MS) == r2);
	CHECK(as.read_batch_short);
	CHECK_EQ(as.cnt.read_batches_short, 1);
	as_complete(&as, r2, 3210 * MS);
	CHECK_EQ(as.batch_expires, 3210 * MS + as.tun.write_batch_expire);
	CHECK_EQ(as.write_batch_count, count);
}

/* History fades: after ten windows idle, neither direction is owed much. */
static void test_share_history_decays(void)
{
	struct as_sched as;
	struct antic_rq *r2, *w1, *w2;
	u64 later;

	share_scene(&as, 0, &r2);
	w1 = next(&as, 2600 * MS);	/* charges the reads' 2.6 s */
	w2 = next(&as, 2600 * MS);
	CHECK(w1 && w2);
	CHECK(as.served_us[ANTIC_SYNC] > 2000000);
	/* the writes complete, and nothing happens for ten windows */
	as_complete(&as, w1, 2700 * MS);
	as_complete(&as, w2, 2700 * MS);
	later = 2700 * MS + 10 * as.tun.share_window;
	CHECK(next(&as, later) == r2);
	/* the reads' 2.6 s are down by ten windows' decay: below a tenth */
	CHECK(as.served_us[ANTIC_SYNC] < 260000);
	/* and the write batch's idle stretch counted one window, no more */
	CHECK(as.served_us[ANTIC_ASYNC] <= as.tun.share_window / 1000);
}

/*
 * A write batch while readers are owed their turn: bounded by its count,
 * unless a writer is dirty-throttled and the drive has been seen to queue
 * (3 requests at once), where only its time bounds it. @queues: the
 * three first writes go to the drive together; @throttled: the host's word.
 */
static void test_share_write_batch_by_time(void)
{
	int queues, throttled;

	for (queues = 0; queues <= 1; queues++) {
		for (throttled = 0; throttled <= 1; throttled++) {
			struct as_sched as;
			struct antic_rq *w[3], *r, *rq;
			int i;

			fresh(&as);
			as_dirty_throttled(&as, throttled);
			for (i = 0; i < 3; i++) {
				w[i] = mk(900000 + 8 * (u64)i, false, NULL);
				as_add(&as, w[i], 0);
			}
			for (i = 0; i < 3; i++) {
				CHECK(next(&as, 0) == w[i]);
				if (!queues)
					as_complete(&as, w[i], 1 * MS);
			}
			if (queues)
				for (i = 0; i < 3; i++)
					as_complete(&as, w[i], 1 * MS);
			CHECK_EQ(as.drive_queues, queues);
			r = mk(100, true, NULL);
			as_add(&as, r, 1 * MS);
			CHECK(next(&as, 1 * MS) == r);	/* the write queue ran dry */
			as_complete(&as, r, 2 * MS);
			as_add(&as, mk(900100, false, NULL), 2 * MS);
			as_add(&as, mk(900108, false, NULL), 2 * MS);
			rq = next(&as, 2 * MS);		/* reads ran dry: writes */
			CHECK(rq && !rq->sync);
			CHECK(!as.write_batch_owed);	/* no read waits */
			if (queues && throttled)
				CHECK(as.current_write_count > 1000000);
			else
				CHECK_EQ(as.current_write_count,
					 as.write_batch_count - 1);
		}
	}
}

/*
 * A wait is timed from P's last completion, as 2.6's was: a read of
 * another process arriving antic_expire or more after it (exactly then,
 * or much later) is served at once (declined_timeout), one arriving
 * sooner waits only the rest.
 */
static void test_wait_from_completion(void)
{
	static const u64 arrive[] = { 4 * MS, 7 * MS, 50 * MS };
	int i;

	for (i = 0; i < 3; i++) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *pr, *qr, *rq;
		u64 t = arrive[i];
		bool late = i > 0;

		fresh(&as);
		antic_proc_init(&p);
		antic_proc_init(&q);
		as.tun.newcomer_expire = 0;	/* plain AS */
		as.tun.antic_expire = 6 * MS;
		pr = mk(1000, true, &p);
		as_add(&as, pr, 0);
		CHECK(next(&as, 0) == pr);
		as_complete(&as, pr, 1 * MS);
		CHECK_EQ(as_dispatch(&as, 1 * MS, &rq), ANTIC_EMPTY);
		qr = mk(300000000, true, &q);
		as_add(&as, qr, t);
		if (late) {
			CHECK(next(&as, t) == qr);
			CHECK_EQ(as.cnt.antic_declined[AS_END_TIMEOUT], 1);
			CHECK_EQ(as.cnt.antic_started, 0);
		} else {
			CHECK_EQ(as_dispatch(&as, t, &rq), ANTIC_IDLE);
			CHECK_EQ(as_get_expiry(&as), 1 * MS + as.tun.antic_expire);
			as_handle_expiry(&as, 7 * MS);
			CHECK(next(&as, 7 * MS) == qr);
			CHECK_EQ(as.cnt.antic_end[AS_END_TIMEOUT], 1);
		}
	}
}

/*
 * P exits with its read at the drive: the wait on it is timed from the
 * exit (its record's last completion is older), not from before that
 * read was even sent.
 */
static void test_wait_from_exit(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *r1, *r2, *qr, *rq;

	fresh(&as);
	antic_proc_init(&p);
	antic_proc_init(&q);
	as.tun.newcomer_expire = 0;
	as.tun.antic_expire = 6 * MS;
	as.exit_no_coop = 0;	/* cooperators expected: an exited P is waited on */
	r1 = mk(1000, true, &p);
	as_add(&as, r1, 0);
	CHECK(next(&as, 0) == r1);
	as_complete(&as, r1, 1 * MS);
	r2 = mk(1008, true, &p);
	as_add(&as, r2, 1500 * MS / 1000);
	CHECK(next(&as, 1500 * MS / 1000) == r2);
	as_proc_exit(&as, &p, 2 * MS);
	qr = mk(300000000, true, &q);
	as_add(&as, qr, 4 * MS);
	CHECK_EQ(as_dispatch(&as, 4 * MS, &rq), ANTIC_IDLE);
	CHECK_EQ(as_get_expiry(&as), 2 * MS + as.tun.antic_expire);
	CHECK_EQ(as.cnt.antic_declined[AS_END_TIMEOUT], 0);
}

/* ---- the newcomer favour ---- */

/*
 * P reads every 3 ms from 0 until @until, each read done in 1 ms: a short
 * thinker, busy all along, so by then no newcomer. Returns when it stopped.
 */
static u64 grow_old(struct as_sched *as, struct antic_proc *p, u64 sector,
		    u64 until)
{
	struct antic_rq rq;
	u64 t;

	for (t = 0; t < until; t += 3 * MS) {
		memset(&rq, 0, sizeof(rq));
		rq.sector = sector;
		rq.nr_sectors = 8;
		rq.sync = true;
		rq.proc = p;
		sector += 8;
		as_add(as, &rq, t);
		CHECK(next(as, t) == &rq);
		as_complete(as, &rq, t + 1 * MS);
		as_handle_expiry(as, t + 2 * MS);
	}
	return t;
}

/* A fresh scheduler, the favour on or off, and two new processes. */
static void two_procs(struct as_sched *as, struct antic_proc *p,
		      struct antic_proc *q, int favour)
{
	fresh(as);
	if (!favour)
		as->tun.newcomer_expire = 0;
	antic_proc_init(p);
	antic_proc_init(q);
}

/*
 * A new process's far read goes before an old process's near one, and
 * ends a wait on the old one; off, AS's elevator and wait decide.
 */
static void test_newcomer_goes_first(void)
{
	int on;

	for (on = 0; on <= 1; on++) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *near, *far, *rq;
		u64 t;

		two_procs(&as, &p, &q, on);
		t = grow_old(&as, &p, 1000, 3500 * MS);
		near = mk(1000 + 8 * 1167, true, &p);
		far = mk(300000000, true, &q);
		as_add(&as, near, t);
		as_add(&as, far, t);
		CHECK(next(&as, t) == (on ? far : near));
		CHECK_EQ(as.cnt.newcomer_reads, (u64)on);

		/* a wait on old P, and Q's first read comes */
		two_procs(&as, &p, &q, on);
		t = grow_old(&as, &p, 1000, 3500 * MS);
		near = mk(1000 + 8 * 1167, true, &p);
		as_add(&as, near, t);
		CHECK(next(&as, t) == near);
		/* a far sync request of no process: P is waited for */
		as_add(&as, mk(200000000, true, NULL), t);
		CHECK(as_dispatch(&as, t, &rq) == ANTIC_IDLE);
		as_complete(&as, near, t + 1 * MS);
		CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_NEXT);
		far = mk(300000000, true, &q);
		as_add(&as, far, t + 2 * MS);
		CHECK_EQ(as.cnt.antic_end[AS_END_NEWCOMER], (u64)on);
		CHECK_EQ(as_has_work(&as), on);
		if (on)
			CHECK(next(&as, t + 2 * MS) == far);
	}
}

/* Favour lasts newcomer_expire from the first read, and comes back after idle. */
static void test_newcomer_expires(void)
{
	struct as_sched as;
	struct antic_proc p;
	struct antic_rq *a, *b, *c;

	fresh(&as);
	antic_proc_init(&p);
	grow_old(&as, &p, 1000, 2900 * MS);	/* last read at 2.8 s */
	a = mk(5000, true, &p);
	as_add(&as, a, 2950 * MS);
	CHECK(a->newcomer);
	CHECK(next(&as, 2950 * MS) == a);
	as_complete(&as, a, 2951 * MS);
	b = mk(5008, true, &p);
	as_add(&as, b, 3050 * MS);	/* 3 s after its first read */
	CHECK(!b->newcomer);
	CHECK(next(&as, 3050 * MS) == b);
	as_complete(&as, b, 3051 * MS);
	/* stamped a little before that completion (another CPU): not afresh */
	c = mk(5012, true, &p);
	as_add(&as, c, 3051 * MS - 1000);
	CHECK(!c->newcomer);
	CHECK(next(&as, 3051 * MS) == c);
	as_complete(&as, c, 3051 * MS);
	c = mk(5016, true, &p);
	as_add(&as, c, 5100 * MS);	/* silent for over 2 s: afresh */
	CHECK(c->newcomer);
	CHECK_EQ(as.new_queued, 1);
	as_remove(&as, c);	/* merged into another, say */
	CHECK_EQ(as.new_queued, 0);
	c = mk(5016, true, &p);
	as_add(&as, c, 5101 * MS);
	CHECK(c->newcomer && as.new_queued == 1);
	CHECK(next(&as, 5101 * MS) == c);
	CHECK_EQ(as.new_queued, 0);
}

/*
 * A favour's service budget: P, new, is served AS_BOOST_BUDGET sectors
 * of reads (64 of them, 1 ms apart, well inside newcomer_expire) and its
 * next read is favoured no more: an old process's near read goes before
 * its far one, and the start is over (no newcomer for the plug); one
 * sector less and it still is. Back after 2 s silent, P has a full
 * budget again.
 */
static void test_newcomer_budget(void)
{
	int spent;

	for (spent = 0; spent <= 1; spent++) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *rq, *near, *far;
		u64 t, chunk = AS_BOOST_BUDGET / 64, sector = 100000000;
		int i;

		two_procs(&as, &p, &q, 1);
		t = grow_old(&as, &q, 1000, 3500 * MS);
		for (i = 0; i < 64; i++) {
			rq = mk(sector, true, &p);
			rq->nr_sectors = (u32)(chunk - (i == 63 && !spent));
			sector += chunk;
			as_add(&as, rq, t);
			CHECK(rq->newcomer);
			CHECK(next(&as, t) == rq);
			as_complete(&as, rq, t + 1 * MS);
			t += 1 * MS;
		}
		CHECK_EQ(p.boost_left, spent ? 0 : 1);
		CHECK(t < p.first_seen + as.tun.newcomer_expire);
		as_handle_expiry(&as, t + 10 * MS);	/* no wait on P is left */
		t += 10 * MS;
		near = mk(sector + 1000, true, &q);	/* where P's ended */
		far = mk(900000000, true, &p);
		as_add(&as, near, t);
		as_add(&as, far, t);
		CHECK_EQ(far->newcomer, !spent);
		CHECK_EQ(as.newcomer == &p, !spent);
		rq = next(&as, t);
		CHECK(rq == (spent ? near : far));
		as_remove(&as, rq == near ? far : near);
		as_complete(&as, rq, t + 1 * MS);
		/* silent 2 s: a new favour, with a full budget */
		t += 2100 * MS;
		rq = mk(400000000, true, &p);
		as_add(&as, rq, t);
		CHECK(rq->newcomer && p.boost_left == AS_BOOST_BUDGET);
	}
}

/*
 * A newcomer with reads at the drive and none queued keeps the drive from
 * another process's read (rule 1 keeps it only from writes).
 */
static void test_newcomer_keeps_drive(void)
{
	int on;

	/* 0: off; 1: on; 2: on, and the other request is a sync write */
	for (on = 0; on <= 2; on++) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *r1, *r2, *other, *rq;
		u64 t;

		two_procs(&as, &p, &q, on);
		t = grow_old(&as, &q, 300000000, 3500 * MS);
		r1 = mk(1000, true, &p);
		r2 = mk(1008, true, &p);	/* read-ahead: two at the drive */
		as_add(&as, r1, t);
		as_add(&as, r2, t);
		if (!on) {
			/* AS waits for Q first, its last read just done */
			CHECK(as_dispatch(&as, t, &rq) == ANTIC_IDLE);
			t += 7 * MS;
			as_handle_expiry(&as, t);
		}
		CHECK(next(&as, t) == r1);
		CHECK(next(&as, t) == r2);
		other = mk(300000000 + 8 * 1167, true, &q);
		other->write = on == 2;	/* a journal commit, say */
		as_add(&as, other, t + 1 * MS);
		if (on == 1) {
			CHECK(as_dispatch(&as, t + 1 * MS, &rq) == ANTIC_IDLE);
			CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_REQ);
			as_complete(&as, r1, t + 5 * MS);
			CHECK(as_dispatch(&as, t + 5 * MS, &rq) == ANTIC_IDLE);
		} else {
			CHECK(next(&as, t + 1 * MS) == other);
			CHECK_EQ(as.cnt.antic_declined[AS_END_BUSY], 1);
		}
	}
}

/*
 * The newcomer plug: while a newcomer is active (here thinking between
 * reads, its wait on it over), another process's reads reach the drive
 * at most newcomer_plug at a time, each completion letting one more go;
 * the newcomer's own read is never held; 20 ms after its last completion
 * it is no longer active and the rest go. Off (0), all go at once.
 */
/*
 * The plug's scene, on a drive that queues: @q, at work for 3.5 s, then
 * @p, new, reads once, and @q queues four reads (@qr) while AS waits
 * for @p; the wait's timer runs out at the time returned plus 8 ms.
 */
static u64 plug_scene(struct as_sched *as, struct antic_proc *p,
		      struct antic_proc *q, struct antic_rq *qr[4])
{
	struct antic_rq *r1, *rq;
	u64 t;
	int i;

	as->drive_queues = true;	/* as after three requests at once */
	t = grow_old(as, q, 300000000, 3500 * MS);
	r1 = mk(1000, true, p);
	as_add(as, r1, t);
	CHECK(next(as, t) == r1);
	as_complete(as, r1, t + 1 * MS);
	for (i = 0; i < 4; i++) {
		qr[i] = mk(300000000 + 8 * (1167 + (u64)i), true, q);
		as_add(as, qr[i], t + 1 * MS);
	}
	/* AS waits for P first; then its wait runs out */
	CHECK(as_dispatch(as, t + 1 * MS, &rq) == ANTIC_IDLE);
	return t;
}

static void test_newcomer_plug(void)
{
	int on;

	for (on = 0; on <= 1; on++) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *r2, *qr[4], *rq;
		u64 t;

		two_procs(&as, &p, &q, 1);
		as.tun.newcomer_plug = on ? 2 : 0;
		t = plug_scene(&as, &p, &q, qr);
		t += 8 * MS;
		as_handle_expiry(&as, t);
		CHECK(next(&as, t) == qr[0]);
		CHECK(next(&as, t) == qr[1]);
		if (!on) {
			CHECK(next(&as, t) == qr[2]);
			CHECK(next(&as, t) == qr[3]);
			CHECK_EQ(as.cnt.newcomer_plugs, 0);
			continue;
		}
		CHECK(as_dispatch(&as, t, &rq) == ANTIC_IDLE);
		CHECK(!as_has_work(&as));
		CHECK_EQ(as.cnt.newcomer_plugs, 1);
		/* a completion lets one more go */
		as_complete(&as, qr[0], t + 1 * MS);
		CHECK(as_has_work(&as));
		CHECK(next(&as, t + 1 * MS) == qr[2]);
		CHECK(as_dispatch(&as, t + 1 * MS, &rq) == ANTIC_IDLE);
		/* the newcomer's next read is not held */
		r2 = mk(1008 + 8 * 1167, true, &p);
		as_add(&as, r2, t + 2 * MS);
		CHECK(as_has_work(&as));
		CHECK(next(&as, t + 2 * MS) == r2);
		as_complete(&as, r2, t + 3 * MS);
		as_handle_expiry(&as, t + 10 * MS);	/* any wait on P is over */
		CHECK_EQ(as_dispatch(&as, t + 10 * MS, &rq), ANTIC_IDLE);
		CHECK_EQ(as.cnt.newcomer_plugs, 3);
		/* 20 ms after its last completion P is not waited for */
		CHECK(next(&as, t + 23 * MS + 1) == qr[3]);
	}
}

/*
 * The newcomer's tags: while a newcomer's favour runs, a process that is
 * none (here one reading for 3.5 s) is told to take part of the tags;
 * newcomers and a process yet to read are not; the favour over (or the
 * plug off) nobody is.
 */
static void test_newcomer_tags(void)
{
	struct as_sched as;
	struct antic_proc old, np, peer, unborn;
	u64 t;

	fresh(&as);
	antic_proc_init(&old);
	antic_proc_init(&np);
	antic_proc_init(&peer);
	antic_proc_init(&unborn);
	t = grow_old(&as, &old, 1000, 3500 * MS);
	as.drive_queues = true;
	as_add(&as, mk(900000, true, &np), t);
	as_add(&as, mk(800000, true, &peer), t + 50 * MS);
	/* the one that began the start; peer, 50 ms later, is of it */
	CHECK(as.newcomer == &np);
	CHECK(as_newcomer_limits_tags(&as, &old, 64, t + 100 * MS));
	CHECK(!as_newcomer_limits_tags(&as, &np, 64, t + 100 * MS));
	CHECK(!as_newcomer_limits_tags(&as, &peer, 64, t + 100 * MS));
	CHECK(!as_newcomer_limits_tags(&as, &unborn, 64, t + 100 * MS));
	CHECK(!as_newcomer_limits_tags(&as, NULL, 64, t + 100 * MS));
	CHECK_EQ(as.cnt.newcomer_tags, 1);
	/* its favour ends 3 s after its first read */
	CHECK_EQ(as.newcomer_until, t + 3000 * MS);
	CHECK(!as_newcomer_limits_tags(&as, &old, 64, t + 3000 * MS));
	as.tun.newcomer_plug = 0;
	CHECK(!as_newcomer_limits_tags(&as, &old, 64, t + 100 * MS));
	as.tun.newcomer_plug = 2;
	/* the start's process exits: nothing to hold tags for */
	as_proc_exit(&as, &np, t + 200 * MS);
	CHECK(!as.newcomer);
	CHECK(!as_newcomer_limits_tags(&as, &old, 64, t + 200 * MS));
}

/*
 * A newcomer whose favour began AS_NEWCOMER_SETTLE before B's yields to
 * B, which begins a start: its queued read loses its turn, its next read
 * has none, B's far read goes before its near one, and it is told to
 * take part of the tags; a millisecond later than that B is of A's start
 * and A keeps its favour (its read is the older, and goes first). Once
 * B exits, A is favoured again.
 */
static void test_newcomer_outrank(void)
{
	int yields;

	for (yields = 0; yields <= 1; yields++) {
		struct as_sched as;
		struct antic_proc a, b;
		struct antic_rq *ar, *ar2, *br;
		u64 tb = AS_NEWCOMER_SETTLE - (yields ? 0 : 1 * MS);

		two_procs(&as, &a, &b, 1);
		as.drive_queues = true;	/* as after three requests at once */
		grow_old(&as, &a, 1000, tb - 6 * MS);
		CHECK(a.have_first && a.first_seen == 0);
		ar = mk(1000 + 8 * 1000, true, &a);
		as_add(&as, ar, tb - 1 * MS);
		CHECK(ar->newcomer);
		br = mk(300000000, true, &b);
		as_add(&as, br, tb);
		/* B begins a start of its own, or is of A's */
		CHECK(as.newcomer == (yields ? &b : &a));
		CHECK_EQ(ar->newcomer, !yields);
		CHECK_EQ(as.new_queued, yields ? 1 : 2);
		ar2 = mk(1000 + 8 * 1001, true, &a);
		as_add(&as, ar2, tb);
		CHECK_EQ(ar2->newcomer, !yields);
		CHECK_EQ(as.cnt.newcomer_yields, (u64)yields);
		CHECK_EQ(as_newcomer_limits_tags(&as, &a, 64, tb), yields);
		CHECK(!as_newcomer_limits_tags(&as, &b, 64, tb));
		CHECK(next(&as, tb) == (yields ? br : ar));
		/* the latest exits: the earlier one, still new, is favoured */
		as_proc_exit(&as, &b, tb + 1 * MS);
		ar = mk(1000 + 8 * 1002, true, &a);
		as_add(&as, ar, tb + 1 * MS);
		CHECK(ar->newcomer);
		/*
		 * its reads queued before keep their lot; B's, gone, lose
		 * theirs when B began the start (a new one then begins),
		 * and keep it as a worker of A's
		 */
		CHECK_EQ(as.new_queued, yields ? 1 : 3);
		CHECK(!as_newcomer_limits_tags(&as, &a, 64, tb + 1 * MS));
	}
}

/*
 * @p reads at @t, served at once or after a wait on another process (AS
 * may start one however long ago that one's last read was), done 1 ms
 * after it is sent.
 */
/*
 * @rq added at @t and dispatched, after any wait on another process has
 * run out; returns its completion time.
 */
static u64 serve(struct as_sched *as, struct antic_rq *rq, u64 t)
{
	struct antic_rq *got;

	as_add(as, rq, t);
	got = next(as, t);
	if (!got) {
		t += 7 * MS;
		as_handle_expiry(as, t);
		got = next(as, t);
	}
	CHECK(got == rq);
	as_complete(as, rq, t + 1 * MS);
	return t + 1 * MS;
}

static void read_at(struct as_sched *as, struct antic_proc *p, u64 sector,
		    u64 t)
{
	serve(as, mk(sector, true, p), t);
}

/*
 * A newcomer back from idle starts afresh, and begins a start that
 * outranks one it was part of before: the favour's end the kernel reads
 * (newcomer_until) moves, and the earlier one's queued read loses its
 * turn.
 */
static void test_newcomer_outrank_again(void)
{
	struct as_sched as;
	struct antic_proc a, c;
	struct antic_rq *ar, *cr;

	fresh(&as);
	antic_proc_init(&a);
	antic_proc_init(&c);
	as.drive_queues = true;
	read_at(&as, &a, 1000, 0);
	read_at(&as, &c, 300000000, 500 * MS);
	/* C, 500 ms after A, is of A's start */
	CHECK(as.newcomer == &a && as.newcomer_until == 3000 * MS);
	read_at(&as, &a, 1008, 1500 * MS);	/* not silent long: no new start */
	ar = mk(1016, true, &a);
	as_add(&as, ar, 2599 * MS);
	CHECK(ar->newcomer);	/* started 500 ms before C: no yield */
	cr = mk(300000008, true, &c);
	as_add(&as, cr, 2600 * MS);	/* C silent 2.1 s: a new start */
	CHECK(as.newcomer == &c && as.newcomer_until == 5600 * MS);
	CHECK(!ar->newcomer && cr->newcomer && as.new_queued == 1);
	CHECK(as_newcomer_limits_tags(&as, &a, 64, 2700 * MS));
	CHECK(next(&as, 2600 * MS) == cr);
}

/*
 * A start and its worker. A's favour begins at 0 (a load); S's begins
 * AS_NEWCOMER_SETTLE later, a start that outranks A. Cases: W's favour
 * begins a millisecond less than SETTLE after S's: W is of S's start,
 * favoured, and S stays the start; then S exits (0) or is served its
 * budget (1), and A is favoured again, W still. W's begins SETTLE after
 * S's (2): W begins a start of its own, which outranks S and A.
 */
static void test_newcomer_start_worker(void)
{
	int c;

	for (c = 0; c <= 2; c++) {
		struct as_sched as;
		struct antic_proc a, s, w;
		struct antic_rq *ar, *sr, *wr, *rq;
		u64 ts = AS_NEWCOMER_SETTLE;
		u64 tw = ts + AS_NEWCOMER_SETTLE - (c == 2 ? 0 : 1 * MS);
		u64 t;

		fresh(&as);
		antic_proc_init(&a);
		antic_proc_init(&s);
		antic_proc_init(&w);
		as.drive_queues = true;
		read_at(&as, &a, 1000, 0);
		read_at(&as, &s, 300000000, ts);
		CHECK(as.newcomer == &s);
		read_at(&as, &w, 600000000, tw);
		CHECK(as.newcomer == (c == 2 ? &w : &s));
		t = tw + 20 * MS;
		as_handle_expiry(&as, t);	/* no wait is left */
		/* A's read near the head, W's far: W's goes first */
		ar = mk(600000100, true, &a);
		wr = mk(900000000, true, &w);
		sr = mk(300000008, true, &s);
		as_add(&as, ar, t);
		as_add(&as, wr, t);
		as_add(&as, sr, t);
		CHECK(!ar->newcomer && wr->newcomer);
		CHECK_EQ(sr->newcomer, c != 2);
		CHECK_EQ(as.cnt.newcomer_yields, c == 2 ? 2 : 1);
		CHECK(as.newcomer == (c == 2 ? &w : &s));
		rq = next(&as, t);
		CHECK(rq == wr);	/* the older of the favoured */
		as_remove(&as, ar);
		as_remove(&as, rq == wr ? sr : wr);
		as_complete(&as, rq, t + 1 * MS);
		if (c == 2)
			continue;
		t += 10 * MS;
		as_handle_expiry(&as, t);
		if (c == 0) {
			as_proc_exit(&as, &s, t);
		} else {
			rq = mk(300000016, true, &s);
			rq->nr_sectors = AS_BOOST_BUDGET;
			t = serve(&as, rq, t) + 10 * MS;
			as_handle_expiry(&as, t);
			CHECK(!s.boost_left);
		}
		ar = mk(600000200, true, &a);
		as_add(&as, ar, t);
		CHECK(ar->newcomer);
		wr = mk(900000008, true, &w);
		as_add(&as, wr, t);
		CHECK(wr->newcomer);
	}
}

/*
 * The plug acts while any process of the start is at work, not only the
 * one that began it: S's last completion is 30 ms old (past
 * AS_MAX_THINKTIME) and W, its worker, has two favoured reads at the
 * drive (@worker): Q's next read is held. With no worker it goes. Rule 1
 * (antic_in_flight) is off here, so that no wait on W keeps the drive
 * (W's second read at the drive ends it): on, it holds Q's read for W's
 * anyway.
 */
static void test_newcomer_plug_worker(void)
{
	int worker;

	for (worker = 0; worker <= 1; worker++) {
		struct as_sched as;
		struct antic_proc s, q, w;
		struct antic_rq *wr, *qr[4], *rq;
		u64 t;
		int i;

		two_procs(&as, &s, &q, 1);
		antic_proc_init(&w);
		/* rule 1 off: it would keep the drive for W's read itself */
		as.tun.antic_in_flight = 0;
		t = plug_scene(&as, &s, &q, qr);
		as_handle_expiry(&as, t + 8 * MS);
		CHECK(next(&as, t + 8 * MS) == qr[0]);
		CHECK(next(&as, t + 8 * MS) == qr[1]);
		CHECK(as_dispatch(&as, t + 8 * MS, &rq) == ANTIC_IDLE);
		CHECK_EQ(as.cnt.newcomer_plugs, 1);
		/* S idle 30 ms: W's first read, of S's start, to the drive */
		t += 31 * MS;
		if (worker) {
			for (i = 0; i < 2; i++) {
				wr = mk(600000000 + 8 * (u64)i, true, &w);
				as_add(&as, wr, t);
				CHECK(wr->newcomer && as.newcomer == &s);
				CHECK(next(&as, t) == wr);
			}
			CHECK_EQ(as.new_in_flight, 2);
		}
		as_complete(&as, qr[0], t + 1 * MS);
		rq = next(&as, t + 1 * MS);
		CHECK(rq == (worker ? NULL : qr[2]));
		CHECK_EQ(as.cnt.newcomer_plugs, (u64)(1 + worker));
	}
}

/*
 * A favoured read given back by the drive: it is no longer at the drive
 * (new_in_flight) nor a favoured read until added again, when it is one
 * again; its completion then balances the counts (a second decrement
 * would warn, and the harness fail).
 */
/*
 * The favour's budget is best effort's: a real-time read of a newcomer is
 * not charged to it, a best-effort read is.
 */
static void test_newcomer_budget_best_effort(void)
{
	struct as_sched as;
	struct antic_proc p;
	struct antic_rq *a, *rt;

	fresh(&as);
	antic_proc_init(&p);
	a = mk(1000, true, &p);
	as_add(&as, a, 0);
	CHECK(next(&as, 0) == a);
	as_complete(&as, a, 1 * MS);
	CHECK_EQ(p.boost_left, AS_BOOST_BUDGET - a->nr_sectors);
	rt = mk_class(5000, true, &p, ANTIC_CLASS_RT);
	rt->nr_sectors = 2048;
	as_add(&as, rt, 2 * MS);
	CHECK(next(&as, 2 * MS) == rt);
	CHECK_EQ(p.boost_left, AS_BOOST_BUDGET - a->nr_sectors);
	as_complete(&as, rt, 3 * MS);
}

/*
 * A reader the tag rule held while a program started, its read arriving
 * 2.7 s later: it was waiting, not silent, so it begins no start and the
 * program keeps its favour; a reader truly silent that long begins one.
 */
static void test_newcomer_tag_held(void)
{
	int held;

	for (held = 0; held <= 1; held++) {
		struct as_sched as;
		struct antic_proc old, np;
		struct antic_rq *nr, *nr2, *r;
		u64 t;

		fresh(&as);
		antic_proc_init(&old);
		antic_proc_init(&np);
		t = grow_old(&as, &old, 1000, 3500 * MS);
		as.drive_queues = true;
		nr = mk(900000, true, &np);
		as_add(&as, nr, t + 1 * MS);
		CHECK(as.newcomer == &np);
		if (held)
			CHECK(as_newcomer_limits_tags(&as, &old, 64, t + 100 * MS));
		nr2 = mk(901000, true, &np);
		as_add(&as, nr2, t + 2600 * MS);
		r = mk(3000, true, &old);
		as_add(&as, r, t + 2700 * MS);
		CHECK_EQ(r->newcomer, !held);
		CHECK(as.newcomer == (held ? &np : &old));
		CHECK_EQ(nr2->newcomer, held);
	}
}

static void test_requeue_favoured(void)
{
	struct as_sched as;
	struct antic_proc p;
	struct antic_rq *r;

	fresh(&as);
	antic_proc_init(&p);
	r = mk(1000, true, &p);
	as_add(&as, r, 0);
	CHECK(r->newcomer && as.new_queued == 1);
	CHECK(next(&as, 0) == r);
	CHECK(as.new_queued == 0 && as.new_in_flight == 1);
	CHECK_EQ(p.boost_left, AS_BOOST_BUDGET - r->nr_sectors);
	as_requeue(&as, r);
	CHECK(!r->newcomer);
	CHECK_EQ(as.new_in_flight, 0);
	/* the host sends it to the drive again around the policy: charged */
	CHECK_EQ(p.boost_left, AS_BOOST_BUDGET - r->nr_sectors);
	as_add(&as, r, 1 * MS);
	CHECK(r->newcomer && as.new_queued == 1);
	CHECK(next(&as, 1 * MS) == r);
	CHECK(as.new_queued == 0 && as.new_in_flight == 1);
	as_complete(&as, r, 2 * MS);
	CHECK_EQ(as.new_in_flight, 0);
	/* given back and sent around the policy: nothing of it stays */
	r = mk(1008, true, &p);
	as_add(&as, r, 3 * MS);
	CHECK(r->newcomer && next(&as, 3 * MS) == r);
	as_requeue(&as, r);
	CHECK(!r->newcomer && as.new_in_flight == 0 && as.new_queued == 0);
}

/*
 * The newcomer plug at its edges: the newcomer's own async writes at the
 * drive are not others' reads; a newcomer that exits is forgotten, and its
 * read requeued after that does not make it one again (the host frees
 * its record); at depth 1 (a drive never seen to queue) it does nothing.
 */
static void test_newcomer_plug_edges(void)
{
	struct as_sched as;
	struct antic_proc p, q;
	struct antic_rq *w[3], *r, *qr[3], *rq;
	u64 t;
	int i;

	two_procs(&as, &p, &q, 1);
	t = grow_old(&as, &q, 300000000, 3500 * MS);
	as.drive_queues = true;	/* as after three requests at once */
	/* rule 1 off: P's writes at the drive would keep it for P */
	as.tun.antic_in_flight = 0;
	for (i = 0; i < 3; i++) {	/* P's buffered writes, in a write batch */
		w[i] = mk(5000000 + 8 * (u64)i, false, &p);
		as_add(&as, w[i], t);
	}
	as_handle_expiry(&as, t + 10 * MS);	/* no wait on Q is left */
	t += 10 * MS;
	for (i = 0; i < 3; i++)
		CHECK(next(&as, t) == w[i]);
	/* P's first read, served beside its writes (rule 2), done */
	r = mk(1000, true, &p);
	as_add(&as, r, t);
	CHECK(next(&as, t) == r);
	as_complete(&as, r, t + 1 * MS);
	for (i = 0; i < 3; i++) {
		qr[i] = mk(300000000 + 8 * (1167 + (u64)i), true, &q);
		as_add(&as, qr[i], t + 1 * MS);
	}
	as_handle_expiry(&as, t + 9 * MS);	/* the wait on P is over */
	CHECK_EQ(as.in_flight[ANTIC_ASYNC], 3);
	CHECK(next(&as, t + 9 * MS) == qr[0]);
	CHECK(next(&as, t + 9 * MS) == qr[1]);
	CHECK(as_dispatch(&as, t + 9 * MS, &rq) == ANTIC_IDLE);
	CHECK(as.plugged);

	/* P exits with a read at the drive; the read comes back */
	two_procs(&as, &p, &q, 1);
	t = grow_old(&as, &q, 300000000, 3500 * MS);
	r = mk(1000, true, &p);
	as_add(&as, r, t);
	CHECK(as.newcomer == &p);
	CHECK(next(&as, t) == r);
	as_proc_exit(&as, &p, t + 1 * MS);
	CHECK(!as.newcomer);
	as_requeue(&as, r);
	as_add(&as, r, t + 2 * MS);
	CHECK(!as.newcomer && !r->newcomer);
	CHECK(next(&as, t + 2 * MS) == r);
	as_complete(&as, r, t + 3 * MS);
	CHECK(as.antic_proc != &p);	/* a wait keeps a copy, not P */

	/* depth 1: nothing held */
	two_procs(&as, &p, &q, 1);
	t = grow_old(&as, &q, 300000000, 3500 * MS);
	CHECK(!as.drive_queues);
	r = mk(1000, true, &p);
	as_add(&as, r, t);
	CHECK(!as_newcomer_limits_tags(&as, &q, 2, t));
	/* unless the host has many tags to share (hddsim at depth 1: 64) */
	CHECK(as_newcomer_limits_tags(&as, &q, AS_TAGS_SHARED, t));
	CHECK(!as_newcomer_limits_tags(&as, &q, AS_TAGS_SHARED - 1, t));
}

/*
 * Newcomer favour at its edges: a newcomer's sync write is no read; a
 * read of no process is never a newcomer's; a merge keeps the turn; off,
 * queued newcomer reads lose their turn.
 */
static void test_newcomer_edges(void)
{
	struct as_sched as;
	struct antic_proc w;
	struct antic_rq *r[2], *sw;

	/* a newcomer's sync write is not a read; a merge keeps the turn */
	fresh(&as);
	antic_proc_init(&w);
	sw = mk(5000, true, &w);
	sw->write = true;
	as_add(&as, sw, 0);
	CHECK(!sw->newcomer && as.new_queued == 0);
	r[0] = mk(9000, true, NULL);	/* no process: never a newcomer */
	r[1] = mk(9008, true, &w);
	as_add(&as, r[0], 1 * MS);
	as_add(&as, r[1], 1 * MS);
	CHECK(!r[0]->newcomer && r[1]->newcomer && as.new_queued == 1);
	as_merge_requests(&as, r[0], r[1]);	/* r[1] merged into r[0] */
	CHECK(r[0]->newcomer && as.new_queued == 1);

	/* switched off while a newcomer's read waits: the elevator decides */
	as.tun.newcomer_expire = 0;
	CHECK(next(&as, 2 * MS) == sw);
	CHECK_EQ(as.cnt.newcomer_reads, 0);
}

/*
 * A program starting holds the writes' claims back where the drive
 * queues, a stream starting as much, until it has spent its budget. P has
 * streamed for 3.5 s; Q (unless !c->q) starts with two reads c->gap apart
 * (0: a stream, its second read where its first ended; with c->spent the
 * second is so long that Q has been served AS_BOOST_BUDGET), a writer is
 * dirty-throttled, writes and P's next read wait, and Q's next read too
 * if c->q_reads (Q at work; without it Q's last completion is 30 ms old).
 */
struct cut_case {
	bool q, queues, q_reads, spent, cut;
	u64 gap, seek_mean;	/* Q's mean seek after the two reads */
	const char *what;
};

static const struct cut_case cut_cases[] = {
	{ false, true, false, false, false, 0, 0, "no newcomer" },
	{ true, true, true, false, true, 200000, 200004, "a program starting" },
	{ true, true, true, false, true, 0, 4, "a stream starting" },
	{ true, false, true, false, true, 200000, 200004, "depth 1: the rule acts too" },
	{ true, true, false, false, false, 200000, 200004, "the program idle (a poller)" },
	{ true, true, true, true, false, 0, 4, "a stream past its budget" },
	{ true, true, true, true, false, 200000, 200004, "a program past its budget" },
};

static struct antic_rq *newcomer_cut_scene(struct as_sched *as,
					   struct antic_proc *p,
					   struct antic_proc *q,
					   const struct cut_case *c, u64 *t)
{
	struct antic_rq *q1, *q2 = NULL, *q3 = NULL;

	two_procs(as, p, q, 1);
	*t = grow_old(as, p, 1000, 3500 * MS);
	as->drive_queues = c->queues;	/* as after three requests at once */
	if (c->q) {
		q1 = mk(300000000, true, q);
		as_add(as, q1, *t);
		CHECK(next(as, *t) == q1);
		as_complete(as, q1, *t + 1 * MS);
		q2 = mk(300000008 + c->gap, true, q);
		if (c->spent)
			q2->nr_sectors = AS_BOOST_BUDGET - 8;
		as_add(as, q2, *t + 2 * MS);
		CHECK(next(as, *t + 2 * MS) == q2);
		as_complete(as, q2, *t + 3 * MS);
		CHECK_EQ(q->seek_mean, c->seek_mean);
	}
	as_handle_expiry(as, *t + 30 * MS);	/* no wait on Q is left */
	*t += 30 * MS;
	as_dirty_throttled(as, true);
	as_add(as, mk(900000, false, NULL), *t);
	as_add(as, mk(900008, false, NULL), *t);
	as_add(as, mk(1000 + 8 * 1167, true, p), *t);
	if (c->q && c->q_reads) {
		/* on from where Q's last read ended, by the same gap */
		q3 = mk(antic_rq_end(q2) + c->gap, true, q);
		as_add(as, q3, *t);
	}
	return q3;
}

static void test_newcomer_cuts_owed_batch(void)
{
	size_t i;

	for (i = 0; i < sizeof(cut_cases) / sizeof(cut_cases[0]); i++) {
		const struct cut_case *c = &cut_cases[i];
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *w;
		u64 t;

		newcomer_cut_scene(&as, &p, &q, c, &t);
		/* P's read batch ran out long ago: writes, and how long */
		w = next(&as, t);
		CHECK(w && !w->sync);
		CHECK_EQ(as.write_batch_owed, !c->cut);
		CHECK_EQ(as.cnt.write_batches_long, (u64)!c->cut);
		CHECK_EQ(as.cnt.newcomer_cuts, (u64)c->cut);
		CHECK_EQ(as.batch_expires, t + (c->cut ? as.tun.write_batch_expire :
							as.tun.read_batch_expire));
		/* the batch runs out with writes still waiting: reads, how long */
		w = next(&as, t);
		CHECK(w && !w->sync);
		as_add(&as, mk(900016, false, NULL), t + 1 * MS);
		as_complete(&as, w, t + 2 * MS);
		w = next(&as, t + 600 * MS);
		CHECK(w && w->sync && w->proc == &p);
		CHECK_EQ(as.read_batch_short, !c->cut);
		if (as.cnt.newcomer_cuts != (u64)c->cut)
			fprintf(stderr, "  (case: %s)\n", c->what);
	}
}

/*
 * A start outranked is the load of the latest: R, a stream, starts a
 * second after Q, a program, and outranks it. Q reading on (its reads
 * yielded) is no start at work: with R idle (its last completion 30 ms
 * old) the write batch owed goes; with a read of R's queued (@r_reads) R
 * is at work, and its start cuts the batch.
 */
static void test_newcomer_cuts_outranked(void)
{
	int r_reads;

	for (r_reads = 0; r_reads <= 1; r_reads++) {
		struct as_sched as;
		struct antic_proc p, q, r;
		struct antic_rq *q1, *q2, *r1, *qr, *rr, *w;
		u64 t;

		two_procs(&as, &p, &q, 1);
		antic_proc_init(&r);
		t = grow_old(&as, &p, 1000, 3500 * MS);
		as.drive_queues = true;
		q1 = mk(300000000, true, &q);
		as_add(&as, q1, t);
		CHECK(next(&as, t) == q1);
		as_complete(&as, q1, t + 1 * MS);
		q2 = mk(300200008, true, &q);
		as_add(&as, q2, t + 2 * MS);
		CHECK(next(&as, t + 2 * MS) == q2);
		as_complete(&as, q2, t + 3 * MS);
		CHECK(as.newcomer == &q);
		/* R, a stream, starts a second later */
		t += 1000 * MS;
		r1 = mk(400000000, true, &r);
		as_add(&as, r1, t);
		CHECK(as.newcomer == &r);
		CHECK(next(&as, t) == r1);
		as_complete(&as, r1, t + 1 * MS);
		as_handle_expiry(&as, t + 30 * MS);
		t += 30 * MS;
		as_dirty_throttled(&as, true);
		as_add(&as, mk(900000, false, NULL), t);
		as_add(&as, mk(1000 + 8 * 1167, true, &p), t);
		qr = mk(300400016, true, &q);	/* the program reads on, yielded */
		as_add(&as, qr, t);
		CHECK(!qr->newcomer && as.new_queued == 0);
		if (r_reads) {
			rr = mk(400000008, true, &r);
			as_add(&as, rr, t);
			CHECK(rr->newcomer);
		}
		w = next(&as, t);
		CHECK(w && !w->sync);
		CHECK_EQ(as.write_batch_owed, !r_reads);
		CHECK_EQ(as.cnt.newcomer_cuts, (u64)r_reads);
	}
}

/*
 * A start's steps, 10 ms apart: Q's next read comes as its last completes
 * (start_feed; *@qs on by @gap each time), then one request is sent and
 * completes 10 ms on (start_send, which returns it). The reads come from
 * a ring, each slot taken again once its read is done: a start outlasts
 * the pool.
 */
static void start_feed_n(struct as_sched *as, struct antic_proc *q,
			 struct antic_rq **qr, u64 *qs, u64 gap, u32 size,
			 u64 t)
{
	static struct antic_rq ring[16];
	static unsigned int k;
	struct antic_rq *rq;
	unsigned int tries;

	if (*qr)
		return;
	for (tries = 0; tries < 16; tries++, k++) {
		rq = &ring[k % 16];
		if (rq->state != ANTIC_RQ_QUEUED &&
		    rq->state != ANTIC_RQ_DISPATCHED)
			break;
	}
	CHECK(tries < 16);
	k++;
	memset(rq, 0, sizeof(*rq));
	rq->sector = *qs;
	rq->nr_sectors = size;
	rq->sync = true;
	rq->proc = q;
	*qr = rq;
	*qs += gap;
	as_add(as, rq, t);
}

static void start_feed(struct as_sched *as, struct antic_proc *q,
		       struct antic_rq **qr, u64 *qs, u64 gap, u64 t)
{
	start_feed_n(as, q, qr, qs, gap, 8, t);
}

static struct antic_rq *start_send(struct as_sched *as, struct antic_rq **qr,
				   u64 t)
{
	struct antic_rq *rq = next(as, t);

	if (!rq)
		return NULL;
	if (rq == *qr)
		*qr = NULL;
	as_complete(as, rq, t + 10 * MS);
	return rq;
}

/*
 * How a start goes in start_fifo_scene: Q reads far apart (a program) or
 * each read on from the last (a stream), in 4 MiB reads that spend its
 * budget in 640 ms, or a program relayed by R, another, that starts
 * 1.5 s after Q as Q stops (the start's favour then lasts past Q's).
 */
enum { START_PROGRAM, START_STREAM, START_SPENT, START_RELAY };

struct start_fifo_out {
	bool sent1, sent2;	/* P's reads were sent */
	u64 first, second;	/* when, in ns after t0 */
	u64 waits;		/* the FIFO's looks that held the load's read */
};

/*
 * While a program starts, an old process's read past read_expire waits
 * until start_read_expire old, and a second one start_read_expire after
 * the first, or newcomer_expire old (the FIFO's looks counted). P has
 * read for @p_age from 0; Q starts at t0, when P stops, and reads every
 * 10 ms at depth 1 (@how); P's two reads come at t0, far apart. With
 * @sync_write P's first is an fsync's write instead.
 */
static struct start_fifo_out start_fifo_scene(u64 sre, int how,
					      bool sync_write, u64 p_age)
{
	struct start_fifo_out out = { false, false, 0, 0, 0 };
	struct as_sched as;
	struct antic_proc p, q, r;
	struct antic_rq *p1, *p2, *qr = NULL, *rr = NULL, *rq;
	u64 t0, t, qs = 300000000, rs = 500000000;
	u64 gap = how == START_STREAM ? 8 : how == START_SPENT ? 8192 : 200000;

	two_procs(&as, &p, &q, 1);
	antic_proc_init(&r);
	as.tun.start_read_expire = sre;
	t0 = grow_old(&as, &p, 1000, p_age);
	p1 = mk(1000 + 8 * 1167, true, &p);
	p2 = mk(900000000, true, &p);
	if (sync_write) {
		/* an fsync's write is no read of the load's: rule 3 off */
		p1->write = true;
		p1->sector = 800000000;	/* not the elevator's next */
		as.tun.sync_write_expire = 0;
	}
	for (t = t0; t < t0 + 5000 * MS && !out.sent2; t += 10 * MS) {
		if (how == START_RELAY && t >= t0 + 1500 * MS) {
			start_feed(&as, &r, &rr, &rs, gap, t);
		} else {
			/* START_SPENT's: 4 MiB, each on from the last */
			start_feed_n(&as, &q, &qr, &qs, gap,
				     how == START_SPENT ? (u32)gap : 8, t);
		}
		if (t == t0) {
			as_add(&as, p1, t0);
			as_add(&as, p2, t0);
		}
		rq = next(&as, t);
		if (rq) {
			if (rq == qr)
				qr = NULL;
			if (rq == rr)
				rr = NULL;
			as_complete(&as, rq, t + 10 * MS);
		}
		if (rq == p1) {
			out.sent1 = true;
			out.first = t - t0;
		}
		if (rq == p2) {
			out.sent2 = true;
			out.second = t - t0;
		}
	}
	out.waits = as.cnt.start_fifo_waits;
	return out;
}

static void test_start_fifo_wait(void)
{
	struct start_fifo_out o;

	o = start_fifo_scene(1000 * MS, START_PROGRAM, false, 3500 * MS);
	/* past read_expire at 125 ms, sent at the first look after 1 s */
	CHECK(o.first > 1000 * MS && o.first <= 1150 * MS);
	CHECK(o.second >= o.first + 1000 * MS && o.second <= o.first + 1150 * MS);
	CHECK(o.waits > 0);
	o = start_fifo_scene(125 * MS, START_PROGRAM, false, 3500 * MS);	/* off */
	CHECK(o.first > 125 * MS && o.first <= 300 * MS);
	CHECK(o.sent2 && o.second <= o.first + 300 * MS);
	CHECK_EQ(o.waits, 0);
	/* a stream starting is a start as well */
	o = start_fifo_scene(1000 * MS, START_STREAM, false, 3500 * MS);
	CHECK(o.first > 1000 * MS && o.first <= 1150 * MS);
	CHECK(o.second >= o.first + 1000 * MS && o.second <= o.first + 1150 * MS);
	/* until it has spent its budget (a read of 4 MiB every 10 ms) */
	o = start_fifo_scene(1000 * MS, START_SPENT, false, 3500 * MS);
	CHECK(o.first > AS_BOOST_BUDGET / 8192 * 10 * MS &&
	      o.first <= AS_BOOST_BUDGET / 8192 * 10 * MS + 160 * MS);
	CHECK(o.sent2 && o.second <= o.first + 300 * MS);
	CHECK(o.waits > 0);
	/* P's first a sync write: sent at read_expire, its read after 1 s */
	o = start_fifo_scene(1000 * MS, START_PROGRAM, true, 3500 * MS);
	CHECK(o.first > 125 * MS && o.first <= 300 * MS);
	CHECK(o.second > 1000 * MS && o.second <= 1150 * MS);
	/*
	 * P a newcomer still (its favour began at 0 and lasts 3 s), but
	 * begun AS_NEWCOMER_SETTLE or more before Q's: outranked, the load
	 * all the same; 3 ms less and it is part of Q's start, not held
	 */
	o = start_fifo_scene(1000 * MS, START_PROGRAM, false, AS_NEWCOMER_SETTLE);
	CHECK(o.first > 1000 * MS && o.first <= 1150 * MS);
	CHECK(o.second >= o.first + 1000 * MS && o.second <= o.first + 1150 * MS);
	o = start_fifo_scene(1000 * MS, START_PROGRAM, false,
			     AS_NEWCOMER_SETTLE - 3 * MS);
	CHECK(o.sent1 && o.first <= 300 * MS);
	CHECK(o.sent2 && o.second <= 300 * MS);
	CHECK_EQ(o.waits, 0);
	/*
	 * The bound: start_read_expire at 2 s, R's start relaying Q's. P's
	 * second read is 3 s old (newcomer_expire) a second after its first
	 * went, and goes then, the FIFO's interval notwithstanding.
	 */
	o = start_fifo_scene(2000 * MS, START_RELAY, false, 3500 * MS);
	CHECK(o.first > 2000 * MS && o.first <= 2150 * MS);
	CHECK(o.second > 3000 * MS && o.second <= 3150 * MS);
}

/*
 * A load is what the latest start outranks, however the starts before it
 * ended. E, a program, starts at 0; P streams from 100 ms for 1.5 s,
 * favoured; then Q starts. @e_exit: E exits at 10 ms, before P reads (P
 * begins the next start), or at 202 ms (P part of E's start, which began
 * it), or never. @f_exits: F, part of E's start 50 ms after it, exits at
 * 80 ms. Returns when P's read past read_expire was sent, measured from
 * Q's start: P's favour began 750 ms or more before Q's, so it waits.
 */
static u64 start_fifo_exit_scene(int e_exit, bool f_exits)
{
	struct as_sched as;
	struct antic_proc e, f, p, q;
	struct antic_rq *p1, *qr = NULL, *rq;
	u64 t0, t, sent = 0, qs = 300000000;

	two_procs(&as, &p, &q, 1);
	antic_proc_init(&e);
	antic_proc_init(&f);
	rq = mk(600000000, true, &e);
	as_add(&as, rq, 0);
	CHECK(next(&as, 0) == rq);
	as_complete(&as, rq, 1 * MS);
	rq = mk(650000000, true, &e);
	as_add(&as, rq, 2 * MS);
	CHECK(next(&as, 2 * MS) == rq);
	as_complete(&as, rq, 3 * MS);
	CHECK(as.newcomer == &e);
	as_handle_expiry(&as, 10 * MS);
	if (e_exit == 1)
		as_proc_exit(&as, &e, 10 * MS);
	if (f_exits) {
		rq = mk(700000000, true, &f);
		as_add(&as, rq, 50 * MS);
		CHECK(next(&as, 50 * MS) == rq);
		as_complete(&as, rq, 51 * MS);
		CHECK(rq->newcomer && as.newcomer == &e);	/* E's start's */
		as_handle_expiry(&as, 60 * MS);
		as_proc_exit(&as, &f, 80 * MS);
	}
	/* P from 100 ms on: grow_old's steps, later */
	for (t = 100 * MS; t < 1600 * MS; t += 3 * MS) {
		struct antic_rq prq;

		if (e_exit == 2 && t == 202 * MS) {
			CHECK(as.newcomer == &e);	/* P is of E's start */
			as_proc_exit(&as, &e, t);
		}
		memset(&prq, 0, sizeof(prq));
		prq.sector = 1000 + t / (3 * MS) * 8;
		prq.nr_sectors = 8;
		prq.sync = true;
		prq.proc = &p;
		as_add(&as, &prq, t);
		CHECK(prq.newcomer);
		CHECK(next(&as, t) == &prq);
		as_complete(&as, &prq, t + 1 * MS);
		as_handle_expiry(&as, t + 2 * MS);
	}
	CHECK(as.newcomer == (e_exit ? &p : &e));
	t0 = t;
	p1 = mk(900000000, true, &p);
	for (; t < t0 + 2000 * MS && !sent; t += 10 * MS) {
		start_feed(&as, &q, &qr, &qs, 200000, t);
		if (t == t0) {
			as_add(&as, p1, t0);
			CHECK(as.newcomer == &q && !p1->newcomer);
		}
		rq = start_send(&as, &qr, t);
		if (rq == p1)
			sent = t - t0;
	}
	CHECK(as.cnt.start_fifo_waits > 0);
	return sent;
}

static void test_start_fifo_after_exit(void)
{
	int e_exit;

	for (e_exit = 0; e_exit <= 2; e_exit++) {
		u64 sent = start_fifo_exit_scene(e_exit, false);

		CHECK(sent > 1000 * MS && sent <= 1150 * MS);
	}
	CHECK(start_fifo_exit_scene(0, true) > 1000 * MS);
}

/*
 * The FIFO holds the load's read back, not a read of the start's behind
 * it or ahead of it: R, Q's worker (its favour begun with Q's), has a
 * read far beyond Q's, which the elevator passes over for Q's next ones
 * (both favoured); it is served at the first look after its read_expire,
 * P's read a second old (R's being sent does not count as a load's).
 * @r_first: R's read queued before P's.
 */
static void start_fifo_skip_scene(bool r_first)
{
	struct as_sched as;
	struct antic_proc p, q, r;
	struct antic_rq *p1, *r1, *qr = NULL, *rq;
	u64 t0, t, qs = 300000000, pt = 0, rt = 0;

	two_procs(&as, &p, &q, 1);
	antic_proc_init(&r);
	t0 = grow_old(&as, &p, 1000, 3500 * MS);
	p1 = mk(1000 + 8 * 1167, true, &p);
	r1 = mk(700000000, true, &r);
	for (t = t0; t < t0 + 2000 * MS && !(pt && rt); t += 10 * MS) {
		start_feed(&as, &q, &qr, &qs, 200000, t);
		if (t == t0)
			as_add(&as, r_first ? r1 : p1, t0);
		if (t == t0 + 10 * MS) {
			as_add(&as, r_first ? p1 : r1, t);
			CHECK(r1->newcomer && !p1->newcomer);
			CHECK(as.newcomer == &q);	/* R is of Q's start */
		}
		rq = start_send(&as, &qr, t);
		if (rq == p1)
			pt = t - t0;
		if (rq == r1)
			rt = t - t0;
	}
	CHECK(rt > 125 * MS && rt <= 300 * MS);
	CHECK(pt > 1000 * MS && pt <= 1160 * MS);
	CHECK(as.cnt.start_fifo_waits > 0);
}

static void test_start_fifo_skips_load(void)
{
	start_fifo_skip_scene(false);
	start_fifo_skip_scene(true);
}


/*
 * A kept write batch (rule 1's other half) ends when a newcomer's read
 * arrives while a program starts, drained to K as any turn to reads, and
 * the read makes the queue worth dispatching again (blk-mq asks has_work
 * first); a read after the program's favour leaves it kept. Modes: 0 no
 * Q, 1 a program, 2 a stream, 3 the program's favour over when its read
 * comes (newcomer_expire 100 ms here), 4 the program idle (its last
 * completion 127 ms old) and the read its worker's, W's, whose favour
 * began 130 ms after Q's: the start's, though not the process that began
 * it.
 */
static void test_newcomer_cuts_kept_batch(void)
{
	int mode;

	for (mode = 0; mode <= 4; mode++) {
		struct cut_case c = cut_cases[mode == 3 || mode == 4 ? 1 : mode];
		struct as_sched as;
		struct antic_proc p, q, w;
		struct antic_rq *w1, *w2, *pr, *qr, *rq;
		u64 t;

		c.q_reads = false;
		newcomer_cut_scene(&as, &p, &q, &c, &t);
		antic_proc_init(&w);
		if (mode == 3)
			as.tun.newcomer_expire = 100 * MS;
		as_dirty_throttled(&as, false);	/* AS's short write batches */
		w1 = next(&as, t);
		w2 = next(&as, t);
		CHECK(w1 && w2 && !w1->sync && !w2->sync);
		pr = as.q[ANTIC_CLASS_BE][ANTIC_SYNC].fifo_head;
		CHECK(pr && pr->proc == &p);
		/* both writes at the drive, none queued: kept, P's read waits */
		CHECK(as_dispatch(&as, t, &rq) == ANTIC_IDLE);
		CHECK_EQ(as.cnt.writes_kept, 1);
		CHECK(!as_has_work(&as));
		if (!mode)
			continue;
		/* Q's next read: the program's far on, the stream's where it was */
		qr = mk(mode == 2 ? 300000016 : 300400000, true,
			mode == 4 ? &w : &q);
		as_add(&as, qr, t + 100 * MS);
		CHECK_EQ(qr->newcomer, mode != 3);
		CHECK_EQ(as.newcomer == &q, mode != 3);
		CHECK_EQ(as_has_work(&as), mode != 3);
		rq = next(&as, t + 100 * MS);
		if (mode == 3) {
			CHECK(rq == NULL);	/* still kept */
			CHECK_EQ(as.cnt.newcomer_cuts, 0);
			continue;
		}
		/* cut: the reads' turn (the FIFO's head first), the writes
		 * (2 <= K) left at the drive */
		CHECK(rq == pr);
		CHECK_EQ(as.cnt.newcomer_cuts, 1);
		CHECK_EQ(as.batch_dir, ANTIC_SYNC);
		CHECK_EQ(as.in_flight[ANTIC_ASYNC], 2);
		CHECK(next(&as, t + 100 * MS) == qr);
	}
}

/*
 * The far-seeker rule: where the drive queues, a wait on P, whose reads
 * land far apart, ends for another process's read (ended_far), or is not
 * started when one is queued (declined_far); not at depth 1, not for a
 * near seeker, not for a write, and not where it would jump a favour.
 */
struct far_case {
	bool queues;		/* the drive queues */
	u64 gap;		/* sectors between P's reads */
	bool q_write;		/* Q's request is a write */
	bool p_new, q_new;	/* favoured newcomers (else older than 3 s) */
	int r;			/* a third process's favour runs (2: R exits) */
	bool ends;
	int why;		/* the end's reason */
};

static const struct far_case far_cases[] = {
	{ true, 200000000, false, false, false, 0, true, AS_END_FAR },
	{ false, 200000000, false, false, false, 0, false, AS_END_FAR },
	/* 98 MiB apart: AS_FAR_SEEK is 128 MiB */
	{ true, 200000, false, false, false, 0, false, AS_END_FAR },
	{ true, 300000, false, false, false, 0, true, AS_END_FAR },
	{ true, 200000000, true, false, false, 0, false, AS_END_FAR },
	{ true, 200000000, false, true, false, 0, false, AS_END_FAR },
	{ true, 200000000, false, true, true, 0, true, AS_END_FAR },
	{ true, 200000000, false, false, false, 1, false, AS_END_FAR },
	/* the latest newcomer's exit does not end its favour here */
	{ true, 200000000, false, false, false, 2, false, AS_END_FAR },
	/* 3: R's favour over, its budget spent: none runs */
	{ true, 200000000, false, false, false, 3, true, AS_END_FAR },
	/* a newcomer's read ends an old P's wait by the favour's rule first */
	{ true, 200000000, false, false, true, 0, true, AS_END_NEWCOMER },
};

/* P's reads alternate between 0 and @gap, 3 ms apart, until @until. */
static u64 far_p(struct as_sched *as, struct antic_proc *p, u64 gap, u64 t,
		 u64 until, u64 *pos)
{
	for (; t < until; t += 3 * MS) {
		used = 0;
		*pos = *pos ? 0 : gap;
		serve(as, mk(*pos, true, p), t);
		as_handle_expiry(as, t + 2 * MS);
	}
	return t;
}

/*
 * Up to P's last read, completed; returns its completion time. An old
 * Q reads every 1.5 s (never idle 2 s, so never new again).
 */
static u64 far_scene(struct as_sched *as, const struct far_case *c,
		     struct antic_proc *p, struct antic_proc *q,
		     struct antic_proc *r)
{
	u64 t = 0, pos = 0;
	int i;

	fresh(as);
	antic_proc_init(p);
	antic_proc_init(q);
	antic_proc_init(r);
	as->drive_queues = c->queues;
	if (!c->p_new || !c->q_new) {
		for (i = 0; i < 3; i++) {
			if (!c->q_new) {
				used = 0;
				t = serve(as, mk(4000000000ULL + i * 8, true,
						     q), t) + 2 * MS;
			}
			t = c->p_new ? t + 1500 * MS :
				       far_p(as, p, c->gap, t, t + 1500 * MS,
					     &pos);
		}
	}
	used = 0;
	if (c->r == 1 || c->r == 2)
		t = serve(as, mk(5000000000ULL, true, r), t) + 30 * MS;
	if (c->r == 3) {
		struct antic_rq *big = mk(5000000000ULL, true, r);

		big->nr_sectors = AS_BOOST_BUDGET;
		t = serve(as, big, t);
		CHECK(as->newcomer == r && !r->boost_left);
		t += 30 * MS;
	}
	if (c->q_new)
		t = serve(as, mk(4000000000ULL, true, q), t) + 30 * MS;
	if (c->p_new)
		t = far_p(as, p, c->gap, t, t + 30 * MS, &pos);
	CHECK(p->seek_samples > 0);
	CHECK((p->seek_mean > AS_FAR_SEEK) == (c->gap > AS_FAR_SEEK));
	used = 0;
	/* a write batch first, so that P's last read starts a fresh batch */
	t = serve(as, mk(6000000000ULL, false, NULL), t);
	pos = pos ? 0 : c->gap;
	t = serve(as, mk(pos, true, p), t + 1 * MS);
	if (c->r == 2) {
		CHECK(as->newcomer == r);
		as_proc_exit(as, r, t);
	}
	return t;
}

static void check_far(const struct as_counters *before,
		      const struct as_counters *after, bool waited, bool ends,
		      int why)
{
	int r;

	for (r = 0; r < AS_END_NR; r++) {
		u64 want = ends && r == why;

		CHECK_EQ(after->antic_end[r] - before->antic_end[r],
			 waited ? want : 0);
		CHECK_EQ(after->antic_declined[r] - before->antic_declined[r],
			 waited ? 0 : want);
	}
}

static void test_far_seeker_yields(void)
{
	size_t i;

	for (i = 0; i < sizeof(far_cases) / sizeof(far_cases[0]); i++) {
		const struct far_case *c = &far_cases[i];
		struct as_sched as;
		struct antic_proc p, q, r;
		struct as_counters before;
		struct antic_rq *qr, *got;
		u64 t;

		/* a wait on P (against a write) runs when Q's request comes */
		t = far_scene(&as, c, &p, &q, &r);
		as_add(&as, mk(6000000000ULL, false, NULL), t);
		CHECK(next(&as, t) == NULL);
		CHECK(as.antic_state == AS_ANTIC_WAIT_NEXT);
		before = as.cnt;
		qr = mk(3000000000ULL, !c->q_write, &q);
		as_add(&as, qr, t + 1 * MS);
		check_far(&before, &as.cnt, true, c->ends, c->why);
		got = next(&as, t + 1 * MS);
		CHECK(c->ends ? got == qr : got == NULL);

		/* Q's request is queued when dispatch first looks */
		t = far_scene(&as, c, &p, &q, &r);
		before = as.cnt;
		as_add(&as, mk(6000000000ULL, false, NULL), t);
		qr = mk(3000000000ULL, !c->q_write, &q);
		as_add(&as, qr, t);
		got = next(&as, t);
		check_far(&before, &as.cnt, false, c->ends, c->why);
		CHECK(c->ends ? got == qr : got == NULL);
		CHECK_EQ(as.cnt.antic_started - before.antic_started,
			 c->ends ? 0 : 1);
	}
}

/*
 * Newcomer P's read and P's buffered write at the drive (the write left
 * from the write batch: rule 2 lets reads start beside K writes), Q's
 * read queued: the wait on P's read ends its WAIT_REQ when P's last
 * request completes, whichever class. Were only a sync completion to end
 * it, the write completing last would leave Q's read queued with nothing
 * at the drive and no timer.
 */
static void test_wait_req_ends_on_any_completion(void)
{
	int favour;

	for (favour = 0; favour <= 1; favour++) {
		struct as_sched as;
		struct antic_proc p, q;
		struct antic_rq *rd, *wr, *other, *rq;

		two_procs(&as, &p, &q, favour);
		wr = mk(500000, false, &p);
		rd = mk(1000, true, &p);
		other = mk(300000000, true, &q);
		as_add(&as, wr, 0);
		as_add(&as, rd, 0);
		CHECK(next(&as, 1) == wr);	/* the first batch is over: writes */
		/* past the write batch's time, reads start beside it (K 4) */
		CHECK(next(&as, 200 * MS) == rd);
		as_add(&as, other, 201 * MS);
		if (!favour) {
			/* AS's rule: P is busy, Q's read goes */
			CHECK(next(&as, 201 * MS) == other);
			continue;
		}
		/* a newcomer's read-ahead keeps the drive from Q's read */
		CHECK(as_dispatch(&as, 201 * MS, &rq) == ANTIC_IDLE);
		CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_REQ);
		as_complete(&as, rd, 202 * MS);
		CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_REQ);	/* P's write is out */
		as_complete(&as, wr, 203 * MS);
		/* not stalled: the wait is on P's next request, with a timer */
		CHECK_EQ(as.antic_state, AS_ANTIC_WAIT_NEXT);
		CHECK_EQ(as_get_expiry(&as), 203 * MS + as.tun.antic_expire);
		as_handle_expiry(&as, 210 * MS);
		CHECK(next(&as, 210 * MS) == other);
	}
}

static void chaos_host(bool classes)
{
	static struct antic_rq rqs[64];
	struct antic_proc procs[CHAOS_PROCS];
	int where[64];	/* 0 free, 1 queued, 2 at the drive */
	u64 quiet[CHAOS_PROCS] = { 0 };	/* no requests of its own until */
	u64 x = 88172645463325252ULL, now = 0;
	struct as_tunables t;
	struct as_sched as;
	int step, i, nq, bad_count = 0, stalls = 0, over_bound = 0, bounded = 0;
	int freed_used = 0, unbounded = 0, forgets = 0, last_sent = 64, ni, nl, nf;
	int refires = 0, new_requeues = 0;
	bool last_async = false;	/* the last request sent was a write */

	as_default_tunables(&t, true);
	as_init(&as, &t);
	for (i = 0; i < CHAOS_PROCS; i++)
		antic_proc_init(&procs[i]);
	memset(where, 0, sizeof(where));
	for (step = 0; step < 200000; step++) {
		int op, n = 0, depth;
		struct antic_rq *out;
		u64 wake;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		op = (int)(x % 100);
		now += x % 3000000;	/* up to 3 ms between events */
		depth = 1 + (int)((x >> 20) % 4);
		if (op < 35) {		/* a new request */
			for (i = 0; i < 64 && where[i]; i++)
				;
			if (i < 64) {
				int pi = (int)((x >> 8) % CHAOS_PROCS);

				memset(&rqs[i], 0, sizeof(rqs[i]));
				rqs[i].sector = (x >> 16) % 4000000;
				rqs[i].nr_sectors = 8 + (u32)((x >> 40) % 256);
				rqs[i].sync = (x >> 30) % 3 != 0;
				rqs[i].write = !rqs[i].sync || (x >> 33) % 4 == 0;
				/* half the sync writes O_DIRECT's, half writeback's */
				rqs[i].direct = rqs[i].sync && rqs[i].write && (x >> 58) % 2;
				/* ionice: mostly best effort, some real-time, some idle */
				if (classes)
					rqs[i].prio_class =
						(x >> 53) % 8 == 0 ? ANTIC_CLASS_RT :
						(x >> 53) % 8 == 1 ? ANTIC_CLASS_IDLE :
								      ANTIC_CLASS_BE;
				rqs[i].proc = (x >> 35) % 8 && now >= quiet[pi] ?
					      &procs[pi] : NULL;
				if (rqs[i].proc && rqs[i].proc->exited) {
					if (rqs[i].proc->nr_queued ||
					    rqs[i].proc->nr_in_flight)
						rqs[i].proc = NULL;	/* not freed yet */
					else	/* freed: a new process there */
						antic_proc_init(rqs[i].proc);
				}
				as_add(&as, &rqs[i], now);
				where[i] = 1;
			}
		} else if (op < 65) {	/* the drive asks for work */
			for (i = 0; i < 64; i++)
				n += where[i] == 2;
			/* a writer sleeps on dirty pages, or not, as the host says */
			as_dirty_throttled(&as, (x >> 45) % 4 != 0);
			if (n < depth && as_dispatch(&as, now, &out) == ANTIC_DISPATCH) {
				bool sync_there = false;
				int writes = 0;

				/*
				 * Rule 2, judged from the host's own view: no write
				 * is sent while a sync request is at the drive, and
				 * the first sync request after writes finds at most
				 * K of them there.
				 */
				for (i = 0; i < 64; i++) {
					if (where[i] == 2 && rqs[i].sync)
						sync_there = true;
					if (where[i] == 2 && !rqs[i].sync)
						writes++;
				}
				if (!out->sync && sync_there)
					over_bound++;
				if (out->sync && last_async) {
					bounded++;
					if ((u64)writes > antic_min64(as.write_k, t.write_bound))
						over_bound++;
				}
				last_async = !out->sync;
				where[out - rqs] = 2;
				last_sent = (int)(out - rqs);
			}
		} else if (op < 85) {	/* a completion */
			for (i = (int)(x % 64); i < 64 && where[i] != 2; i++)
				;
			if (i < 64) {
				as_complete(&as, &rqs[i], now);
				where[i] = 0;
			}
		} else if (op < 88) {	/* a requeue: given back, added again */
			/* often the command just sent, as a failing disk's */
			i = (x >> 52) & 1 ? last_sent : 64;
			if (i == 64 || where[i] != 2)
				for (i = (int)(x % 64); i < 64 && where[i] != 2; i++)
					;
			if (i < 64) {
				forgets += rqs[i].proc && rqs[i].proc == as.antic_proc &&
					   rqs[i].proc->nr_in_flight == 1 &&
					   !as.antic_rq_done;
				new_requeues += rqs[i].newcomer;
				as_requeue(&as, &rqs[i]);
				if (x >> 50 & 1) {
					as_add(&as, &rqs[i], now);
					where[i] = 1;
				} else {
					/* blk-mq re-inserts at the head: bypass */
					where[i] = 0;
				}
			}
		} else if (op < 91) {
			/*
			 * A process exits, with requests queued and at the
			 * drive or not: the kernel's exit_icq comes at the
			 * task's exit, its requests finish afterwards.
			 */
			int pi = (int)((x >> 8) % CHAOS_PROCS);

			if (!procs[pi].exited &&
			    ((!procs[pi].nr_queued && !procs[pi].nr_in_flight) ||
			     (x >> 50) % 8 == 0))
				as_proc_exit(&as, &procs[pi], now);
		} else if (op < 92) {
			/*
			 * A process pauses: back, it is new. A quarter of
			 * these only: each process reads for seconds between
			 * pauses, so that favours overlap and later starts
			 * outrank earlier ones.
			 */
			if ((x >> 60) % 4 == 0)
				quiet[(x >> 8) % CHAOS_PROCS] =
					now + (2100 + (x >> 40) % 1000) *
					      ANTIC_NSEC_PER_MSEC;
		} else if (op < 97) {	/* the timer */
			wake = as_get_expiry(&as);
			if (wake && now >= wake) {
				as_handle_expiry(&as, now);
				/* a timer that changed nothing would fire for ever */
				wake = as_get_expiry(&as);
				if (wake && wake <= now)
					refires++;
			}
		} else {		/* sysfs */
			t.antic_expire = (x >> 12) % 4 * 3 * ANTIC_NSEC_PER_MSEC;
			t.read_batch_expire = (1 + (x >> 14) % 600) * ANTIC_NSEC_PER_MSEC;
			t.write_bound = (x >> 24) % 4;	/* 0: rule 2 off */
			t.antic_in_flight = (x >> 26) & 1;
			t.sync_write_expire = (x >> 27) % 3 * 10 * ANTIC_NSEC_PER_MSEC;
			t.share_window = (x >> 29) % 3 * 500 * ANTIC_NSEC_PER_MSEC;
			t.newcomer_expire = (x >> 31) % 3 * 1000 * ANTIC_NSEC_PER_MSEC;
			t.newcomer_plug = (x >> 33) % 3;
			as_set_tunables(&as, &t);
		}
		for (i = 0, n = 0, nq = 0, nf = 0, ni = 0, nl = 0; i < 64; i++) {
			n += where[i] == 2;
			nq += where[i] == 1 && rqs[i].newcomer;
			nf += where[i] == 2 && rqs[i].newcomer;
			ni += where[i] == 2 && rqs[i].prio_class == ANTIC_CLASS_IDLE;
			nl += where[i] == 1 && rqs[i].prio_class != ANTIC_CLASS_BE;
		}
		if ((int)as_at_drive(&as) != n || (int)as.new_queued != nq ||
		    (int)as.new_in_flight != nf ||
		    (int)as.class_in_flight[ANTIC_CLASS_IDLE] != ni || (int)as.other_class_queued != nl)
			bad_count++;
		/* the host frees an exited process: the plug may not point at one */
		if (as.newcomer && as.newcomer->exited)
			bad_count++;
		/* nor anything else, once its last request is done */
		for (i = 0; i < CHAOS_PROCS; i++)
			if (procs[i].exited && !procs[i].nr_queued &&
			    !procs[i].nr_in_flight &&
			    as.antic_proc == &procs[i])
				freed_used++;
		if (!wait_is_bounded(&as))
			unbounded++;
		if (as_queued(&as) && !n && !as_has_work(&as) &&
		    !as_get_expiry(&as))
			stalls++;
	}
	CHECK_EQ(bad_count, 0);
	CHECK_EQ(stalls, 0);
	CHECK_EQ(freed_used, 0);
	CHECK_EQ(unbounded, 0);
	CHECK_EQ(refires, 0);
	/*
	 * requeues came, of the request a wait would be timed from too, and
	 * of favoured reads (new_in_flight checked above)
	 */
	CHECK(as.cnt.requeues > 1000 && forgets > 20 && new_requeues > 20);
	if (classes) {
		/* every class was served, the lower ones past a higher one too */
		CHECK(as.cnt.rt_dispatched > 100 && as.cnt.idle_dispatched > 100);
		CHECK(as.cnt.aged_dispatched > 0);
		return;	/* the rules below are best effort's */
	}
	CHECK(!as.cnt.rt_dispatched && !as.cnt.idle_dispatched);
	CHECK_EQ(over_bound, 0);
	CHECK(bounded > 100);	/* the bound was put to the test */
	/* and the share rule acted, both ways */
	CHECK(as.cnt.write_batches_long > 0);
	CHECK(as.cnt.read_batches_short > 0);
	/* and newcomers went first, and others were held for them */
	CHECK(as.cnt.newcomer_reads > 0);
	CHECK(as.cnt.newcomer_plugs > 0);
	/* and newcomers back from a pause yielded to later ones */
	CHECK(as.cnt.newcomer_yields > 0);
	CHECK(as.cnt.direct_writes > 0);
}

static void test_chaos_host(void)
{
	chaos_host(false);
}

/* The same host, with requests of every I/O priority class (ionice). */
static void test_chaos_host_classes(void)
{
	chaos_host(true);
}

/* ---- the starvation bound ---- */

/*
 * The starvation bound (docs/design.md, "Starvation bound"): randomized
 * scenes of processes that keep several requests queued each, served by
 * a drive of depth 1 or 32 with a simple service-time model. Every best
 * effort request's wait, add to dispatch, is held to
 *
 *   expire + B + (ahead + depth + 2) * (S + antic_expire)
 *
 * expire: its FIFO's (read_expire for sync, write_expire for async);
 * B: the longest batch of the other direction (write_batch_expire, or
 * read_batch_expire for a write batch the share rule owes, which it may
 * only while a writer is throttled; read_batch_expire for a write);
 * ahead: requests of its direction queued when it came, which FIFO
 * order may serve first; depth: the drive's, drained at a change of
 * direction; S: the model's longest service time. Two more of (S +
 * antic_expire): the dispatch that finds it expired, and its own.
 */
#define SC_PROCS 8
#define SC_RQS 256
#define SC_SECTORS (1ULL << 31)		/* a 1 TiB disk */
#define SC_HORIZON (6000 * MS)		/* processes issue for this long */

enum sc_kind {
	SC_AIO_RAND,		/* libaio: random 4 KiB sync reads, 16 queued */
	SC_AIO_SEQ,		/* libaio: sequential sync reads, 4 queued */
	SC_DIRECT_WRITER,	/* O_DIRECT sequential writes, 1-4 queued */
	SC_BUF_WRITER,		/* writeback of a buffered writer, 8 queued */
	SC_PSYNC_READER,	/* sequential reads at depth 1 */
	SC_THINKER,		/* reads near its last, thinking between them */
	SC_NR_KINDS,
};

struct sc_proc {
	int kind;
	int depth;		/* requests it keeps queued or at the drive */
	u64 pos;		/* sector of its next request */
	u32 size;		/* sectors per request */
	u64 think;		/* ns from a completion to the next request */
	u64 due[16];		/* issue times owed, unordered */
	int ndue;
	struct antic_proc ap;
};

struct sc_rq {
	struct antic_rq rq;	/* first: the policy's pointer is ours */
	int proc;
	u64 add;
	u32 ahead;		/* of its direction queued when it came */
	u64 done_at;		/* at the drive: its completion time */
	int where;		/* 0 free, 1 queued, 2 at the drive */
};

struct sc_worst {
	u64 wait, bound, at;
	u32 ahead;
	int kind, sync;
};

struct sc_result {
	u64 requests;
	u32 over;		/* requests past their bound */
	u32 stalls;		/* work queued, nothing to wake the host */
	u64 loops;		/* host steps: a timer that moves nothing never ends */
	struct sc_worst worst;		/* the largest wait over its bound */
	u64 worst_by_kind[SC_NR_KINDS];	/* the longest wait by shape */
	u64 bound_by_kind[SC_NR_KINDS];	/* and its bound */
	struct as_counters cnt;
};

static u64 sc_rnd(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The longest service time sc_service gives: a full seek, a turn, 1 MiB. */
#define SC_S_MAX ((500 + 7500 + 8333) * ANTIC_NSEC_PER_USEC + 2048 * 3413)

/* Seek linear in distance, a random part of a turn, 150 MB/s. */
static u64 sc_service(u64 head, const struct antic_rq *rq, u64 *x)
{
	u64 t = (u64)rq->nr_sectors * 3413;
	u64 dist = antic_absdiff(head, rq->sector);

	if (dist)
		t += 500 * ANTIC_NSEC_PER_USEC +
		     7500 * ANTIC_NSEC_PER_USEC * dist / SC_SECTORS +
		     sc_rnd(x) % (8333 * ANTIC_NSEC_PER_USEC);
	return t;
}

static void sc_proc_init(struct sc_proc *p, int kind, u64 *x)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	antic_proc_init(&p->ap);
	p->pos = sc_rnd(x) % (SC_SECTORS - (1 << 22));
	switch (kind) {
	case SC_AIO_RAND:
		p->depth = 16;
		p->size = 8;
		break;
	case SC_AIO_SEQ:
		p->depth = 4;
		p->size = 256 << (sc_rnd(x) % 2);
		break;
	case SC_DIRECT_WRITER:
		p->depth = 1 + (int)(sc_rnd(x) % 2) * 3;
		p->size = 512 << (sc_rnd(x) % 3);
		break;
	case SC_BUF_WRITER:
		p->depth = 8;
		p->size = 128 << (sc_rnd(x) % 3);
		break;
	case SC_PSYNC_READER:
		p->depth = 1;
		p->size = 256;
		p->think = sc_rnd(x) % (2 * MS);
		break;
	default:
		p->depth = 1;
		p->size = 8 << (sc_rnd(x) % 4);
		p->think = (3 + sc_rnd(x) % 25) * MS;
		break;
	}
	/* all start within the first 100 ms */
	for (i = 0; i < p->depth; i++)
		p->due[p->ndue++] = sc_rnd(x) % (100 * MS);
}

/* The next request of @p: where its shape sends it. */
static void sc_fill(struct sc_proc *p, struct antic_rq *rq, u64 *x)
{
	memset(rq, 0, sizeof(*rq));
	rq->nr_sectors = p->size;
	rq->proc = &p->ap;
	switch (p->kind) {
	case SC_AIO_RAND:
		rq->sector = sc_rnd(x) % (SC_SECTORS - 8) & ~7ULL;
		rq->sync = true;
		return;
	case SC_THINKER:
		/* near its last one: within 64 MiB */
		p->pos = (p->pos + sc_rnd(x) % (1 << 17)) % (SC_SECTORS - 4096);
		rq->sector = p->pos;
		rq->sync = true;
		return;
	case SC_DIRECT_WRITER:
		rq->write = rq->direct = true;
		/* fall through */
	default:
		rq->sync = p->kind != SC_BUF_WRITER;
		rq->write = rq->write || p->kind == SC_BUF_WRITER;
		rq->sector = p->pos;
		p->pos += p->size;
		if (p->pos + p->size >= SC_SECTORS)
			p->pos = 0;
		return;
	}
}

/*
 * One scene: @seed chooses the processes, @depth is the drive's; the
 * policy is anticipatory at its defaults.
 */
static void sc_run(u64 seed, int depth, struct sc_result *res)
{
	static struct sc_rq rqs[SC_RQS];
	struct sc_proc procs[SC_PROCS];
	u64 x = seed * 0x9e3779b97f4a7c15ULL + 1, now = 0, busy_until = 0;
	u64 drive_tail = 0, b_sync, b_async, per;
	const struct antic_policy_ops *ops;
	struct as_tunables t;
	struct as_sched as;
	void *s = &as;
	int np = 0, i, at_drive = 0, queued[2] = { 0, 0 };
	bool throttled = false;

	memset(res, 0, sizeof(*res));
	memset(rqs, 0, sizeof(rqs));
	as_default_tunables(&t, true);
	/*
	 * No program starts: the newcomer favour's start FIFO holds a
	 * load's reads for up to start_read_expire, a longer bound of its
	 * own (test_properties_program_starts in test_sim.c).
	 */
	t.newcomer_expire = 0;
	as_init(&as, &t);
	ops = &as_policy_ops;
	/* the scene: always the deep random reader, then a random mix */
	sc_proc_init(&procs[np++], SC_AIO_RAND, &x);
	for (i = 0; i < 5; i++) {
		int kind = (int)(sc_rnd(&x) % (SC_NR_KINDS + 1));

		if (kind < SC_NR_KINDS && kind != SC_AIO_RAND)
			sc_proc_init(&procs[np++], kind, &x);
	}
	/* a writer waits on its dirty pages in half the scenes with one */
	for (i = 0; i < np; i++)
		if (procs[i].kind == SC_BUF_WRITER && seed % 2)
			throttled = true;
	/* the other direction's longest batch: an owed write batch runs read_batch_expire */
	b_sync = throttled ? t.read_batch_expire : t.write_batch_expire;
	b_async = t.read_batch_expire;
	per = SC_S_MAX + t.antic_expire;

	for (;;) {
		u64 next = ~0ULL, wake = 0;

		if (++res->loops > 10000000) {
			res->stalls++;	/* a timer that moves nothing */
			break;
		}
		int p, k;

		/* the drive has room: the host dispatches while there is work */
		while (at_drive < depth) {
			struct antic_rq *out;
			struct sc_rq *r;
			u64 wait, bound;

			as_dirty_throttled(&as, throttled);
			if (!as_has_work(&as))
				break;
			if (ops->dispatch(s, now, &out) != ANTIC_DISPATCH)
				break;
			r = (struct sc_rq *)out;
			r->where = 2;
			queued[!out->sync]--;
			at_drive++;
			busy_until = antic_max64(busy_until, now) +
				     sc_service(drive_tail, out, &x);
			drive_tail = antic_rq_end(out);
			r->done_at = busy_until;
			wait = now - r->add;
			bound = (out->sync ? t.read_expire + b_sync :
					     t.write_expire + b_async) +
				(r->ahead + (u64)depth + 2) * per;
			res->requests++;
			k = procs[r->proc].kind;
			if (wait > res->worst_by_kind[k]) {
				res->worst_by_kind[k] = wait;
				res->bound_by_kind[k] = bound;
			}
			if (wait > bound) {
				res->over++;
				if (wait - bound > res->worst.wait - res->worst.bound ||
				    !res->worst.wait) {
					res->worst = (struct sc_worst){
						wait, bound, now, r->ahead, k, out->sync };
				}
			}
		}
		/* the next event: a completion, a process's issue, the timer */
		for (i = 0; i < SC_RQS; i++)
			if (rqs[i].where == 2 && rqs[i].done_at < next)
				next = rqs[i].done_at;
		for (p = 0; p < np; p++)
			for (k = 0; k < procs[p].ndue; k++)
				if (procs[p].due[k] < next)
					next = procs[p].due[k];
		if (ops->get_expiry)
			wake = ops->get_expiry(s);
		if (wake && wake < next)
			next = antic_max64(wake, now);
		if (next == ~0ULL) {
			res->stalls += queued[0] + queued[1] > 0;
			break;
		}
		if (next > now)
			now = next;
		for (i = 0; i < SC_RQS; i++) {
			struct sc_proc *pr;

			if (rqs[i].where != 2 || rqs[i].done_at > now)
				continue;
			rqs[i].where = 0;
			at_drive--;
			ops->complete(s, &rqs[i].rq, now);
			pr = &procs[rqs[i].proc];
			if (now < SC_HORIZON)
				pr->due[pr->ndue++] = now + pr->think;
		}
		if (wake && wake <= now)
			ops->handle_expiry(s, now);
		for (p = 0; p < np; p++) {
			struct sc_proc *pr = &procs[p];

			for (k = 0; k < pr->ndue;) {
				struct sc_rq *r;
				int d;

				if (pr->due[k] > now) {
					k++;
					continue;
				}
				pr->due[k] = pr->due[--pr->ndue];
				for (i = 0; i < SC_RQS && rqs[i].where; i++)
					;
				if (i == SC_RQS) {
					res->stalls++;	/* the pool is sized for the scene */
					continue;
				}
				r = &rqs[i];
				sc_fill(pr, &r->rq, &x);
				r->proc = p;
				r->add = now;
				r->where = 1;
				d = !r->rq.sync;
				r->ahead = (u32)queued[d];
				queued[d]++;
				ops->add(s, &r->rq, now);
			}
		}
	}
	res->cnt = as.cnt;
}

/*
 * The property: every best-effort request of every scene within its
 * bound. The scenes: the deep random reader and a random mix beside it,
 * each on a drive of depth 1 (where the scheduler orders every request)
 * and of depth 32. Without the favour (newcomer_expire 0: the start
 * FIFO's longer bound is test_properties_program_starts'), the other
 * rules at their defaults.
 */
static void test_properties_starvation_bound(void)
{
	static const int depths[] = { 1, 32 };
	u64 seed, fifo_expired = 0, long_batches = 0, past_expire = 0;
	u32 over[2] = { 0, 0 }, stalls = 0;
	struct as_tunables def;	/* the defaults the scenes run at */
	u64 total[2] = { 0, 0 };
	struct sc_worst worst = { 0 };
	size_t d;

	as_default_tunables(&def, true);
	for (seed = 1; seed <= 24; seed++) {
		for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
			struct sc_result r;
			int k;

			sc_run(seed, depths[d], &r);
			stalls += r.stalls;
			over[d] += r.over;
			total[d] += r.requests;
			fifo_expired += r.cnt.fifo_expired[ANTIC_SYNC] +
					r.cnt.fifo_expired[ANTIC_ASYNC];
			long_batches += r.cnt.write_batches_long;
			for (k = 0; k < SC_NR_KINDS; k++)
				past_expire += r.worst_by_kind[k] > def.read_expire;
			if (r.over && r.worst.wait - r.worst.bound >
					      worst.wait - worst.bound)
				worst = r.worst;
		}
	}
	CHECK_EQ(stalls, 0);
	/* where the drive queues, every request within its bound */
	CHECK_EQ(over[1], 0);
	/*
	 * At depth 1 the policy does not meet it: check_fifo sends one
	 * overdue request per expire period, and the elevator goes back to
	 * a stream that keeps requests queued ahead of the head (a libaio
	 * reader's, an O_DIRECT writer's at iodepth 4, a buffered writer's
	 * writeback), so the last of a deep queue's overdue requests waits a
	 * period for each one ahead. Printed, not asserted: the bound is the
	 * target of a change to that rule, which must be judged on the
	 * benchmarks first (it costs streams beside each other throughput).
	 */
	if (over[0])
		printf("  (known: at depth 1, %u of %llu requests past the bound; "
		       "worst %llu ms against %llu)\n", over[0],
		       (unsigned long long)total[0],
		       (unsigned long long)(worst.wait / MS),
		       (unsigned long long)(worst.bound / MS));
	/* and no more of them than the rule lets through (328): a ratchet */
	CHECK(over[0] <= 328);
	/* the property is not empty: FIFOs expired, owed write batches ran */
	CHECK(fifo_expired > 100 && long_batches > 10 && past_expire > 10);
}

void suite_core(void)
{
	RUN(test_elevator_order);
	RUN(test_back_seek_penalty);
	RUN(test_fifo_expiry);
	RUN(test_batch_turnaround_drains);
	RUN(test_write_batch_tunes_itself);
	RUN(test_antic_ends_on_own_request);
	RUN(test_antic_ends_on_timeout);
	RUN(test_antic_close_radius_grows);
	RUN(test_antic_not_started_for_long_thinker);
	RUN(test_antic_not_started_when_busy);
	RUN(test_antic_exit);
	RUN(test_antic_ends_on_deadline);
	RUN(test_declined_own);
	RUN(test_declined_busy);
	RUN(test_declined_close);
	RUN(test_declined_exit);
	RUN(test_declined_think);
	RUN(test_declined_only_when_a_wait_could_start);
	RUN(test_antic_off_when_zero);
	RUN(test_statistics);
	RUN(test_nonrotational_default);
	RUN(test_tunable_find_by_name);
	RUN(test_merges_keep_earlier_time);
	RUN(test_deadline_writes_starved);
	RUN(test_deadline_classes);
	RUN(test_deadline_fifo);
	RUN(test_noop_fifo);
	RUN(test_chaos_host);
	RUN(test_chaos_host_classes);
	RUN(test_requeue_ends_wait);
	RUN(test_requeue_off);
	RUN(test_requeue_wait_req_write);
	RUN(test_requeue_wait_next);
	RUN(test_requeue_exited);
	RUN(test_requeue_merged);
	RUN(test_class_rt_first);
	RUN(test_class_rt_anticipated);
	RUN(test_class_idle_waits_for_grace);
	RUN(test_class_aging);
	RUN(test_class_rt_has_drive_alone);
	RUN(test_class_idle_gate_time);
	RUN(test_class_queues);
	RUN(test_in_flight_reads_keep_batch);
	RUN(test_write_bound_at_switch);
	RUN(test_write_batch_kept);
	RUN(test_write_k_falls_and_rises);
	RUN(test_sync_write_bounded_wait);
	RUN(test_sync_write_early_spacing);
	RUN(test_sync_write_waits_when_disk_moves_on);
	RUN(test_no_wait_after_direct_write);
	RUN(test_direct_write_allowance);
	RUN(test_direct_write_not_early);
	RUN(test_share_writes_owed);
	RUN(test_share_read_batch_cut);
	RUN(test_share_history_decays);
	RUN(test_share_write_batch_by_time);
	RUN(test_wait_from_completion);
	RUN(test_wait_from_exit);
	RUN(test_newcomer_goes_first);
	RUN(test_newcomer_expires);
	RUN(test_newcomer_plug);
	RUN(test_newcomer_tags);
	RUN(test_newcomer_plug_edges);
	RUN(test_newcomer_outrank);
	RUN(test_newcomer_outrank_again);
	RUN(test_newcomer_start_worker);
	RUN(test_newcomer_plug_worker);
	RUN(test_requeue_favoured);
	RUN(test_newcomer_budget_best_effort);
	RUN(test_newcomer_tag_held);
	RUN(test_newcomer_budget);
	RUN(test_newcomer_keeps_drive);
	RUN(test_newcomer_edges);
	RUN(test_newcomer_cuts_owed_batch);
	RUN(test_newcomer_cuts_kept_batch);
	RUN(test_newcomer_cuts_outranked);
	RUN(test_start_fifo_wait);
	RUN(test_start_fifo_after_exit);
	RUN(test_start_fifo_skips_load);
	RUN(test_far_seeker_yields);
	RUN(test_wait_req_ends_on_any_completion);
	RUN(test_properties_starvation_bound);
}
