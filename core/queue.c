// SPDX-License-Identifier: GPL-2.0
/*
 * queue.c - the sector-sorted set (a treap, so no allocation and no
 * rebalancing bookkeeping in the request) and the deadline FIFO that
 * every policy keeps its queued requests in.
 */
#include "sched.h"

void antic_proc_init(struct antic_proc *p)
{
	*p = (struct antic_proc){ 0 };
}

void antic_queue_init(struct antic_queue *q)
{
	q->root = NULL;
	q->fifo_head = NULL;
	q->fifo_tail = NULL;
	q->count = 0;
}

static struct antic_rq *node_rq(const struct antic_node *n)
{
	return (struct antic_rq *)((const char *)n -
				   offsetof(struct antic_rq, node));
}

/* Strict order on (sector, seq): equal sectors keep arrival order. */
static bool key_less(const struct antic_rq *a, const struct antic_rq *b)
{
	if (a->sector != b->sector)
		return a->sector < b->sector;
	return a->seq < b->seq;
}

/* A fixed mix of seq gives balanced-on-average trees, deterministically. */
static u32 prio_of(u64 seq)
{
	return (u32)antic_mix64(seq);
}

/* Split @t into keys before @key (*l) and keys not before it (*r). */
static void split(struct antic_node *t, const struct antic_rq *key,
		  struct antic_node **l, struct antic_node **r)
{
	if (!t) {
		*l = NULL;
		*r = NULL;
	} else if (key_less(node_rq(t), key)) {
		split(t->right, key, &t->right, r);
		*l = t;
	} else {
		split(t->left, key, l, &t->left);
		*r = t;
	}
}

static struct antic_node *merge(struct antic_node *l, struct antic_node *r)
{
	if (!l)
		return r;
	if (!r)
		return l;
	if (l->prio > r->prio) {
		l->right = merge(l->right, r);
		return l;
	}
	r->left = merge(l, r->left);
	return r;
}

static void tree_insert(struct antic_node **t, struct antic_rq *rq)
{
	struct antic_node *n = &rq->node;

	while (*t && (*t)->prio >= n->prio)
		t = key_less(rq, node_rq(*t)) ? &(*t)->left : &(*t)->right;
	split(*t, rq, &n->left, &n->right);
	*t = n;
}

static void tree_erase(struct antic_node **t, struct antic_rq *rq)
{
	while (*t && *t != &rq->node)
		t = key_less(rq, node_rq(*t)) ? &(*t)->left : &(*t)->right;
	if (*t)
		*t = merge(rq->node.left, rq->node.right);
	rq->node.left = NULL;
	rq->node.right = NULL;
}

static void fifo_append(struct antic_queue *q, struct antic_rq *rq)
{
	rq->fifo_next = NULL;
	rq->fifo_prev = q->fifo_tail;
	if (q->fifo_tail)
		q->fifo_tail->fifo_next = rq;
	else
		q->fifo_head = rq;
	q->fifo_tail = rq;
}

static void fifo_unlink(struct antic_queue *q, struct antic_rq *rq)
{
	if (rq->fifo_prev)
		rq->fifo_prev->fifo_next = rq->fifo_next;
	else
		q->fifo_head = rq->fifo_next;
	if (rq->fifo_next)
		rq->fifo_next->fifo_prev = rq->fifo_prev;
	else
		q->fifo_tail = rq->fifo_prev;
	rq->fifo_prev = NULL;
	rq->fifo_next = NULL;
}

void antic_queue_add(struct antic_queue *q, struct antic_rq *rq)
{
	rq->node.left = NULL;
	rq->node.right = NULL;
	rq->node.prio = prio_of(rq->seq);
	tree_insert(&q->root, rq);
	fifo_append(q, rq);
	q->count++;
}

void antic_queue_admit(struct antic_queue *q, struct antic_rq *rq, u64 seq,
		       u64 now, u64 expire, u8 which)
{
	rq->seq = seq;
	rq->add_time = now;
	rq->fifo_time = now + expire;
	rq->queue = which;
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_NEW), ANTIC_RQ_QUEUED);
	antic_queue_add(q, rq);
}

void antic_queue_del(struct antic_queue *q, struct antic_rq *rq)
{
	tree_erase(&q->root, rq);
	fifo_unlink(q, rq);
	ANTIC_DEC(q->count);
}

/*
 * One descent for both neighbours of @sector: ceil's search and below's
 * take the same turn at every node (right of a request before @sector,
 * left of one at or after it), so the path is the same.
 */
struct antic_rq *antic_queue_around(const struct antic_queue *q, u64 sector,
				    struct antic_rq **below)
{
	const struct antic_node *n = q->root;
	struct antic_rq *ceil = NULL, *back = NULL;

	while (n) {
		struct antic_rq *rq = node_rq(n);

		if (rq->sector >= sector) {
			ceil = rq;
			n = n->left;
		} else {
			back = rq;
			n = n->right;
		}
	}
	*below = back;
	return ceil;
}

struct antic_rq *antic_queue_ceil(const struct antic_queue *q, u64 sector)
{
	struct antic_rq *below;

	return antic_queue_around(q, sector, &below);
}

struct antic_rq *antic_queue_first(const struct antic_queue *q)
{
	const struct antic_node *n = q->root;

	if (!n)
		return NULL;
	while (n->left)
		n = n->left;
	return node_rq(n);
}

void antic_queue_resort(struct antic_queue *q, struct antic_rq *rq,
			u64 new_sector)
{
	tree_erase(&q->root, rq);
	rq->sector = new_sector;
	tree_insert(&q->root, rq);
}

void antic_queue_fifo_reposition(struct antic_queue *q, struct antic_rq *rq)
{
	struct antic_rq *pos;

	fifo_unlink(q, rq);
	/* walk back from the tail: merges move a request only a little */
	for (pos = q->fifo_tail; pos && pos->fifo_time > rq->fifo_time;
	     pos = pos->fifo_prev)
		;
	rq->fifo_prev = pos;
	rq->fifo_next = pos ? pos->fifo_next : q->fifo_head;
	if (rq->fifo_next)
		rq->fifo_next->fifo_prev = rq;
	else
		q->fifo_tail = rq;
	if (pos)
		pos->fifo_next = rq;
	else
		q->fifo_head = rq;
}
