/*
 * events.c - the simulator's future: a binary heap of events ordered by
 * (time, sequence), so that runs are deterministic, a slot in front of it
 * for an event pushed as the earliest, and side slots for the events of
 * which at most one is ever pending.
 */
#include "sim.h"

static bool ev_less(const struct event *a, const struct event *b)
{
	return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

static int heap_grow_push(struct sim *s, uint64_t t, int type, int arg, struct sim_rq *rq);

int event_push(struct sim *s, uint64_t t, int type, int arg, struct sim_rq *rq)
{
	struct event ev;
	size_t i;

	/*
	 * A full heap is grown in a tail call, so that this path has no
	 * values to keep across a realloc: its saved registers were a fifth
	 * of a push.
	 */
	if (s->nheap == s->capheap)
		return heap_grow_push(s, t, type, arg, rq);
	ev = (struct event){ t, s->seq++, type, arg, rq };
	/*
	 * Earlier than all in the heap: it waits in front of it (pop takes
	 * it first), and one that was there goes into the heap instead.
	 */
	if (!s->front_on) {
		if (!s->nheap || ev_less(&ev, &s->heap[0])) {
			s->front = ev;
			s->front_on = true;
			return 0;
		}
	} else if (ev_less(&ev, &s->front)) {
		struct event e = s->front;

		s->front = ev;
		ev = e;
	}
	/* move the hole up, not the new event: one copy per level, not three */
	for (i = s->nheap++; i && ev_less(&ev, &s->heap[(i - 1) / 2]); i = (i - 1) / 2)
		s->heap[i] = s->heap[(i - 1) / 2];
	s->heap[i] = ev;
	return 0;
}

static __attribute__((noinline)) int heap_grow_push(struct sim *s, uint64_t t, int type,
						    int arg, struct sim_rq *rq)
{
	size_t cap = s->capheap ? s->capheap * 2 : 256;
	struct event *h = realloc(s->heap, cap * sizeof(*h));

	if (!h)
		return -1;
	s->heap = h;
	s->capheap = cap;
	return event_push(s, t, type, arg, rq);
}

void event_set_side(struct sim *s, int slot, uint64_t t, int type, struct sim_rq *rq)
{
	s->side[slot] = (struct event){ t, s->seq++, type, 0, rq };
	s->side_on[slot] = true;
}

bool event_pop(struct sim *s, struct event *ev)
{
	struct event last;
	const struct event *min = s->front_on ? &s->front : s->nheap ? &s->heap[0] : NULL;
	size_t i = 0, n;
	int k, side = -1;

	for (k = 0; k < SIDE_NR; k++) {
		if (s->side_on[k] && (!min || ev_less(&s->side[k], min))) {
			min = &s->side[k];
			side = k;
		}
	}
	if (side >= 0) {
		s->side_on[side] = false;
		*ev = s->side[side];
		return true;
	}
	if (!min)
		return false;
	if (s->front_on) {
		s->front_on = false;
		*ev = s->front;
		return true;
	}
	*ev = s->heap[0];
	n = --s->nheap;
	last = s->heap[n];
	/* the hole left at the root sinks until the last event fits there */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return true;
}
