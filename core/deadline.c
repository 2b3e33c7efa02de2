// SPDX-License-Identifier: GPL-2.0
/*
 * deadline.c - baselines: a model of Linux 6.x mq-deadline (one priority
 * level, read/write FIFOs, batches of fifo_batch in sector order, writes
 * served after writes_starved read batches) and noop, which dispatches in
 * arrival order as the "none" scheduler leaves them.
 */
#include "deadline.h"

void dl_default_tunables(struct dl_tunables *t)
{
	t->read_expire = 500 * ANTIC_NSEC_PER_MSEC;
	t->write_expire = 5000 * ANTIC_NSEC_PER_MSEC;
	t->writes_starved = 2;
	t->fifo_batch = 16;
}

void dl_init(struct dl_sched *dl, const struct dl_tunables *t)
{
	*dl = (struct dl_sched){ 0 };
	dl->tun = *t;
	antic_queue_init(&dl->q[DL_READ]);
	antic_queue_init(&dl->q[DL_WRITE]);
}

static void dl_add(void *s, struct antic_rq *rq, u64 now)
{
	struct dl_sched *dl = s;
	int dir = rq->write ? DL_WRITE : DL_READ;

	antic_queue_admit(&dl->q[dir], rq, dl->seq++, now,
			  dir == DL_READ ? dl->tun.read_expire :
					   dl->tun.write_expire, (u8)dir);
}

/* The request after the last one dispatched in @dir, without wrapping. */
static struct antic_rq *dl_next(const struct dl_sched *dl, int dir)
{
	if (!dl->have_last)
		return NULL;
	return antic_queue_ceil(&dl->q[dir], dl->last_end[dir]);
}

static bool dl_fifo_expired(const struct dl_sched *dl, int dir, u64 now)
{
	const struct antic_rq *head = dl->q[dir].fifo_head;

	return head && now >= head->fifo_time;
}

static enum antic_verdict dl_dispatch(void *s, u64 now, struct antic_rq **out)
{
	struct dl_sched *dl = s;
	bool reads = !antic_queue_empty(&dl->q[DL_READ]);
	bool writes = !antic_queue_empty(&dl->q[DL_WRITE]);
	struct antic_rq *rq, *next;
	int dir;

	*out = NULL;
	if (!reads && !writes)
		return ANTIC_EMPTY;
	rq = dl_next(dl, dl->last_dir);
	if (rq && dl->batching < dl->tun.fifo_batch)
		goto dispatch;

	if (reads) {
		dir = DL_READ;
		if (writes && dl->starved++ >= dl->tun.writes_starved)
			dir = DL_WRITE;
	} else {
		dir = DL_WRITE;
	}
	if (dir == DL_WRITE)
		dl->starved = 0;
	next = dl_next(dl, dir);
	rq = dl_fifo_expired(dl, dir, now) || !next ? dl->q[dir].fifo_head :
						      next;
	dl->last_dir = dir;
	dl->batching = 0;
	dl->batches++;
dispatch:
	dl->batching++;
	antic_queue_del(&dl->q[rq->queue], rq);
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_QUEUED), ANTIC_RQ_DISPATCHED);
	dl->last_end[rq->queue] = antic_rq_end(rq);
	dl->have_last = true;
	*out = rq;
	return ANTIC_DISPATCH;
}

static void dl_complete(void *s, struct antic_rq *rq, u64 now)
{
	(void)s;
	(void)now;
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_DONE);
}

/* Neither keeps anything of a dispatched request: it is new again. */
static void dl_requeue(void *s, struct antic_rq *rq)
{
	(void)s;
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_NEW);
}

static void no_proc_exit(void *s, struct antic_proc *p, u64 now)
{
	(void)s;
	(void)now;
	p->exited = true;
}

static u32 dl_queued(const void *s)
{
	const struct dl_sched *dl = s;

	return dl->q[DL_READ].count + dl->q[DL_WRITE].count;
}

const struct antic_policy_ops dl_policy_ops = {
	.name = ANTIC_DEADLINE_NAME,
	.add = dl_add,
	.dispatch = dl_dispatch,
	.complete = dl_complete,
	.requeue = dl_requeue,
	.proc_exit = no_proc_exit,
	.queued = dl_queued,
};

void noop_init(struct noop_sched *n)
{
	antic_queue_init(&n->q);
	n->seq = 0;
}

static void noop_add(void *s, struct antic_rq *rq, u64 now)
{
	struct noop_sched *n = s;

	antic_queue_admit(&n->q, rq, n->seq++, now, 0, 0);
}

static enum antic_verdict noop_dispatch(void *s, u64 now,
					struct antic_rq **out)
{
	struct noop_sched *n = s;
	struct antic_rq *rq = n->q.fifo_head;

	(void)now;
	*out = rq;
	if (!rq)
		return ANTIC_EMPTY;
	antic_queue_del(&n->q, rq);
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_QUEUED), ANTIC_RQ_DISPATCHED);
	return ANTIC_DISPATCH;
}

static u32 noop_queued(const void *s)
{
	const struct noop_sched *n = s;

	return n->q.count;
}

const struct antic_policy_ops noop_policy_ops = {
	.name = ANTIC_NOOP_NAME,
	.add = noop_add,
	.dispatch = noop_dispatch,
	.complete = dl_complete,
	.requeue = dl_requeue,
	.proc_exit = no_proc_exit,
	.queued = noop_queued,
};
