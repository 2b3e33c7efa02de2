// SPDX-License-Identifier: GPL-2.0
/*
 * deadline.c - baselines: a model of Linux 6.x mq-deadline (its three
 * I/O priority classes, the highest with work first and a lower one's
 * request past prio_aging_expire before it; in each, read/write FIFOs,
 * batches of fifo_batch in sector order, writes served after
 * writes_starved read batches) and noop, which dispatches in arrival
 * order as the "none" scheduler leaves them.
 */
#include "deadline.h"

void dl_default_tunables(struct dl_tunables *t)
{
	t->read_expire = 500 * ANTIC_NSEC_PER_MSEC;
	t->write_expire = 5000 * ANTIC_NSEC_PER_MSEC;
	t->writes_starved = 2;
	t->fifo_batch = 16;
	t->prio_aging_expire = 10000 * ANTIC_NSEC_PER_MSEC;
}

void dl_init(struct dl_sched *dl, const struct dl_tunables *t)
{
	int c;

	*dl = (struct dl_sched){ 0 };
	dl->tun = *t;
	for (c = 0; c < ANTIC_NR_CLASSES; c++) {
		antic_queue_init(&dl->q[c][DL_READ]);
		antic_queue_init(&dl->q[c][DL_WRITE]);
	}
}

static void dl_add(void *s, struct antic_rq *rq, u64 now)
{
	struct dl_sched *dl = s;
	int dir = rq->write ? DL_WRITE : DL_READ;

	if (rq->prio_class >= ANTIC_NR_CLASSES)
		rq->prio_class = ANTIC_CLASS_BE;
	antic_queue_admit(&dl->q[rq->prio_class][dir], rq, dl->seq++, now,
			  dir == DL_READ ? dl->tun.read_expire :
					   dl->tun.write_expire, (u8)dir);
}

/* The request after the last one dispatched in @dir, without wrapping. */
static struct antic_rq *dl_next(const struct dl_sched *dl, int c, int dir)
{
	if (!dl->have_last)
		return NULL;
	return antic_queue_ceil(&dl->q[c][dir], dl->last_end[c][dir]);
}

static bool dl_fifo_expired(const struct dl_sched *dl, int c, int dir, u64 now)
{
	const struct antic_rq *head = dl->q[c][dir].fifo_head;

	return head && now >= head->fifo_time;
}

/*
 * One class's next request, as mq-deadline's __dd_dispatch_request: the
 * batch goes on in sector order for fifo_batch requests, then a
 * direction is chosen (writes after writes_starved read batches) and
 * its FIFO's head goes if past its deadline, else the next in sector
 * order. With @latest (aging), only a request queued at or before it,
 * else none.
 */
static struct antic_rq *dl_class_next(struct dl_sched *dl, int c, u64 now,
				      const u64 *latest)
{
	bool reads = !antic_queue_empty(&dl->q[c][DL_READ]);
	bool writes = !antic_queue_empty(&dl->q[c][DL_WRITE]);
	struct antic_rq *rq, *next;
	int dir;

	if (!reads && !writes)
		return NULL;
	rq = dl_next(dl, c, dl->last_dir);
	if (rq && dl->batching < dl->tun.fifo_batch)
		goto found;

	if (reads) {
		dir = DL_READ;
		if (writes && dl->starved++ >= dl->tun.writes_starved)
			dir = DL_WRITE;
	} else {
		dir = DL_WRITE;
	}
	if (dir == DL_WRITE)
		dl->starved = 0;
	next = dl_next(dl, c, dir);
	rq = dl_fifo_expired(dl, c, dir, now) || !next ?
		     dl->q[c][dir].fifo_head : next;
	if (latest && rq->add_time > *latest)
		return NULL;
	dl->last_dir = dir;
	dl->batching = 0;
	dl->batches++;
	return rq;
found:
	if (latest && rq->add_time > *latest)
		return NULL;
	return rq;
}

/* Requests of class @c queued or at the drive (mq-deadline's dd_queued). */
static u32 dl_owed(const struct dl_sched *dl, int c)
{
	return dl->q[c][DL_READ].count + dl->q[c][DL_WRITE].count +
	       dl->in_flight[c];
}

/* The classes in mq-deadline's order: real-time, best effort, idle. */
static const u8 dl_order[ANTIC_NR_CLASSES] = {
	ANTIC_CLASS_RT, ANTIC_CLASS_BE, ANTIC_CLASS_IDLE
};

static enum antic_verdict dl_dispatch(void *s, u64 now, struct antic_rq **out)
{
	struct dl_sched *dl = s;
	struct antic_rq *rq = NULL;
	int i, busy = 0;

	*out = NULL;
	for (i = 0; i < ANTIC_NR_CLASSES; i++)
		busy += dl_owed(dl, i) > 0;
	/* with two classes at work, a lower one's request past prio_aging_expire first */
	if (busy > 1 && now >= dl->tun.prio_aging_expire) {
		u64 latest = now - dl->tun.prio_aging_expire;

		for (i = 1; i < ANTIC_NR_CLASSES && !rq; i++)
			rq = dl_class_next(dl, dl_order[i], now, &latest);
	}
	/* the highest class at work: a lower one waits while it has any at the drive */
	for (i = 0; i < ANTIC_NR_CLASSES && !rq; i++) {
		rq = dl_class_next(dl, dl_order[i], now, NULL);
		if (!rq && dl_owed(dl, dl_order[i]))
			break;
	}
	if (!rq)
		return busy ? ANTIC_IDLE : ANTIC_EMPTY;
	dl->batching++;
	antic_queue_del(&dl->q[rq->prio_class][rq->queue], rq);
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_QUEUED), ANTIC_RQ_DISPATCHED);
	dl->in_flight[rq->prio_class]++;
	dl->last_end[rq->prio_class][rq->queue] = antic_rq_end(rq);
	dl->have_last = true;
	*out = rq;
	return ANTIC_DISPATCH;
}

static void dl_complete(void *s, struct antic_rq *rq, u64 now)
{
	struct dl_sched *dl = s;

	(void)now;
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_DONE);
	ANTIC_DEC(dl->in_flight[rq->prio_class]);
}

/* The drive gave it back: new again, and no longer at the drive. */
static void dl_requeue(void *s, struct antic_rq *rq)
{
	struct dl_sched *dl = s;

	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_NEW);
	ANTIC_DEC(dl->in_flight[rq->prio_class]);
}

static void noop_complete(void *s, struct antic_rq *rq, u64 now)
{
	(void)s;
	(void)now;
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_DONE);
}

static void noop_requeue(void *s, struct antic_rq *rq)
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
	u32 n = 0;
	int c;

	for (c = 0; c < ANTIC_NR_CLASSES; c++)
		n += dl->q[c][DL_READ].count + dl->q[c][DL_WRITE].count;
	return n;
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
	.complete = noop_complete,
	.requeue = noop_requeue,
	.proc_exit = no_proc_exit,
	.queued = noop_queued,
};
