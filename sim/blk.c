/*
 * blk.c - the block layer between the simulated processes and the drive:
 * requests from a pool, split at max_sectors_kb, queued in a core/ policy
 * and dispatched while the drive has room. It also keeps the audit: every
 * request is dispatched once and completed once.
 */
#include "sim.h"
#include "outputs.h"

/*
 * Another block of requests for the pool; -1: out of memory. Apart from
 * blk_alloc (noinline), whose every call saved registers for it.
 */
static __attribute__((noinline)) int blk_refill(struct sim *s)
{
	size_t n = 1024, i;
	struct sim_rq *blk = calloc(n, sizeof(*blk));
	struct sim_rq **b = realloc(s->blocks, (s->nblocks + 1) * sizeof(*b));

	if (!blk || !b) {
		free(blk);
		if (b)
			s->blocks = b;
		return -1;
	}
	s->blocks = b;
	s->blocks[s->nblocks++] = blk;
	for (i = 0; i < n; i++) {
		blk[i].next_free = s->free_rqs;
		s->free_rqs = &blk[i];
	}
	return 0;
}

/*
 * A request from the pool with what every request starts with filled in:
 * antic_rq's first block (the policy fills the rest), its kind, not yet
 * requeued, on no list. The caller fills its own fields. Field by field,
 * not memset: its rep stos was half of submit's time in a replay.
 */
struct sim_rq *blk_alloc(struct sim *s, int kind, struct antic_proc *ap, uint64_t sector,
			 uint64_t nr, bool write, bool sync, u8 prio_class)
{
	struct sim_rq *rq;

	if (!s->free_rqs && blk_refill(s))
		return NULL;
	rq = s->free_rqs;
	s->free_rqs = rq->next_free;
	s->live_rqs++;
	rq->rq.sector = sector;
	rq->rq.nr_sectors = (u32)nr;
	rq->rq.write = write;
	rq->rq.sync = sync;
	rq->rq.direct = write && sync && kind == K_DIRECT;
	rq->rq.proc = ap;
	rq->rq.prio_class = prio_class;
	rq->rq.state = ANTIC_RQ_NEW;
	rq->kind = kind;
	rq->requeued = false;
	rq->next_free = NULL;
	return rq;
}

void blk_free(struct sim *s, struct sim_rq *rq)
{
	rq->next_free = s->free_rqs;
	s->free_rqs = rq;
	s->live_rqs--;
}

/* Give back the pool's memory at the end of a run. */
void blk_release(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nblocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
	s->blocks = NULL;
	s->nblocks = 0;
}

/*
 * The tags @rq may find in use and still take one: all the scheduler's
 * (nr_requests) for a sync request, three quarters for an async one
 * (mq-deadline's and anticipatory's async_depth), and three quarters for
 * a read anticipatory's newcomer rule limits (limit_depth in the module).
 * Asked once, at submission, as the kernel asks at allocation.
 */
static unsigned tag_limit(struct sim *s, const struct sim_rq *rq)
{
	unsigned all = s->set->nr_requests, part = antic_async_depth(all);

	if (!rq->rq.sync)
		return part;
	/* a newcomer first: the call is a replay's every request else */
	if (s->pol == POL_AS && s->u.as.newcomer && !rq->rq.write &&
	    rq->rq.proc && as_newcomer_limits_tags(&s->u.as, rq->rq.proc,
						  s->set->nr_requests, s->now))
		return part;
	return all;
}

/* @rq has its tag: the policy sees it now. */
static void tag_admit(struct sim *s, struct sim_rq *rq)
{
	s->tags_used++;
	if (s->o->bt) {
		bt_rq(s, 'G', rq);
		bt_rq(s, 'I', rq);
	}
	s->ops->add(s->sched, &rq->rq, s->now);
}

/* A tag came back: the oldest waiters that now fit take theirs. */
static void tag_release(struct sim *s)
{
	struct sim_rq **pp = &s->tagq, *prev = NULL;

	s->tags_used--;
	while (*pp) {
		struct sim_rq *rq = *pp;

		if (s->tags_used >= rq->tag_limit) {
			prev = rq;
			pp = &rq->next_free;
			continue;
		}
		*pp = rq->next_free;
		if (s->tagq_tail == rq)
			s->tagq_tail = prev;
		rq->next_free = NULL;
		tag_admit(s, rq);
		if (s->tags_used >= s->set->nr_requests)
			break;
	}
}

/*
 * blk_submit's body, inlined into blk_submit_split too: a replay's every
 * request went through the call, eleven arguments and a stack frame.
 */
static inline __attribute__((always_inline)) int
submit(struct sim *s, int kind, struct antic_proc *ap, unsigned io,
       unsigned file, uint64_t sector, uint64_t nr, bool write, bool sync,
       uint64_t page_lo, uint64_t npages)
{
	struct sim_rq *rq = blk_alloc(s, kind, ap, sector, nr, write, sync, s->ioprio);

	if (!rq)
		return -1;
	rq->io = io;
	rq->file = file;
	rq->page_lo = page_lo;
	rq->npages = npages;
	s->r->requests++;
	s->r->bytes_added += nr * 512;
	if (s->o->bt)
		bt_rq(s, 'Q', rq);
	rq->tag_limit = tag_limit(s, rq);
	if (s->tags_used < rq->tag_limit) {
		tag_admit(s, rq);
	} else {
		s->r->tag_waits++;
		if (s->tagq_tail)
			s->tagq_tail->next_free = rq;
		else
			s->tagq = rq;
		s->tagq_tail = rq;
	}
	return 0;
}

int blk_submit(struct sim *s, int kind, struct antic_proc *ap, unsigned io,
	       unsigned file, uint64_t sector, uint64_t nr, bool write,
	       bool sync, uint64_t page_lo, uint64_t npages)
{
	return submit(s, kind, ap, io, file, sector, nr, write, sync, page_lo,
		      npages);
}

/*
 * One application I/O of @nr sectors as requests of at most
 * max_sectors_kb, as the block layer splits a bio; each counted in *pieces.
 * Declared inline (an external definition still: sim.h declares it
 * without), so that link-time optimisation inlines it into the replay's
 * loop, which it had called with a stack frame of its own per request.
 */
inline int blk_submit_split(struct sim *s, int kind, struct antic_proc *ap,
			    unsigned io, uint64_t sector, uint64_t nr,
			    bool write, bool sync, unsigned *pieces)
{
	uint64_t max = s->set->max_sectors_kb * 2;

	while (nr) {
		uint64_t n = nr < max ? nr : max;

		(*pieces)++;
		if (submit(s, kind, ap, io, 0, sector, n, write, sync, 0, 0))
			return -1;
		sector += n;
		nr -= n;
	}
	return 0;
}

/*
 * The host's one timer for the policy: an EV_SCHED at the time it asks
 * for, unless one is already due no later. A time already past fires at
 * once, as an hrtimer set in the past does (a wait whose deadline passed
 * while a FLUSH held the drive was otherwise never ended: has_work says
 * no while a wait runs, so only the timer ends it).
 */
static void blk_arm_timer(struct sim *s)
{
	/* anticipatory's asked directly: this runs after every event */
	uint64_t wake = s->pol == POL_AS ? as_get_expiry(s->sched) :
			s->ops->get_expiry ? s->ops->get_expiry(s->sched) : 0;

	if (!wake)
		return;
	if (wake < s->now)
		wake = s->now;
	if (s->sched_wake <= s->now || wake < s->sched_wake) {
		s->sched_wake = wake;
		event_push(s, wake, EV_SCHED, 0, NULL);
	}
}

/*
 * Rule 2 of anticipatory (write_bound), checked from here rather than
 * trusted, with the host's own counts: a read never shares the drive with
 * more than K writes. No write is sent while a sync request is at the
 * drive, and the first sync request sent after writes finds at most K of
 * them there (K as core has it then: a read completing later may lower
 * K below the writes still draining, which breaks nothing).
 */
static void audit_write_bound(struct sim *s, const struct sim_rq *rq)
{
	const struct as_sched *as = &s->u.as;
	bool after_writes = s->audit_last_async;
	uint64_t k;

	s->audit_last_async = !rq->rq.sync;
	/* other policies' requests are counted all the same: completions undo them */
	if (s->pol == POL_AS && !rq->rq.sync) {
		if (s->audit_sync)
			s->r->bound_exceeded++;
	} else if (s->pol == POL_AS && after_writes) {
		k = as->write_k < as->tun.write_bound ? as->write_k : as->tun.write_bound;
		s->r->bound_checks++;
		if (s->audit_async > k)
			s->r->bound_exceeded++;
	}
	if (rq->rq.sync)
		s->audit_sync++;
	else
		s->audit_async++;
}

/* @rq leaves the drive as far as the write-bound audit counts. */
static void blk_audit_leaves(struct sim *s, const struct sim_rq *rq)
{
	if (rq->rq.sync) {
		if (s->audit_sync)
			s->audit_sync--;
	} else if (s->audit_async) {
		s->audit_async--;
	}
}

/* Dispatch from the policy while the drive has room. */
void blk_run_queue(struct sim *s)
{
	/* the module arms its timer after every event, room at the drive or not */
	if (!drive_has_room(s))
		blk_arm_timer(s);
	while (drive_has_room(s)) {
		struct antic_rq *arq;
		struct sim_rq *rq;

		if (s->pol == POL_AS)
			as_dirty_throttled(s->sched, dirty_throttled_recently(s));
		/*
		 * blk-mq asks has_work before it dispatches, and the module
		 * runs its queues only when has_work turns true: a dispatch
		 * that has_work would not have allowed is one the kernel
		 * never makes (without this, a rule such as the program-start
		 * cut could fire here where in the kernel a kept batch's hold
		 * hides the newcomer's read).
		 */
		if (s->pol == POL_AS && !as_has_work(s->sched)) {
			blk_arm_timer(s);
			return;
		}
		if (s->ops->dispatch(s->sched, s->now, &arq) != ANTIC_DISPATCH) {
			blk_arm_timer(s);
			return;
		}
		rq = (struct sim_rq *)arq;
		if (rq->rq.sync && s->now - rq->rq.add_time > s->r->max_sync_wait)
			s->r->max_sync_wait = s->now - rq->rq.add_time;
		if (!rq->rq.write && s->now - rq->rq.add_time > s->r->max_read_wait)
			s->r->max_read_wait = s->now - rq->rq.add_time;
		if (!rq->rq.sync && s->now - rq->rq.add_time > s->r->max_async_wait)
			s->r->max_async_wait = s->now - rq->rq.add_time;
		audit_write_bound(s, rq);
		wbt_issue(s, rq);
		if (s->o->bt)
			bt_rq(s, 'D', rq);
		drive_submit(s, rq);
	}
}

/*
 * The drive finished @rq: tell the policy. The audit reads core's own
 * lifecycle: only a dispatched request can complete, and then it is done
 * (a request dispatched twice already broke core's QUEUED -> DISPATCHED).
 */
void blk_complete(struct sim *s, struct sim_rq *rq)
{
	s->r->bytes_completed += (uint64_t)rq->rq.nr_sectors * 512;
	s->r->rq_done[rq->rq.write]++;
	s->r->rq_sync_writes += rq->rq.write && rq->rq.sync;
	s->r->rq_sectors[rq->rq.write] += rq->rq.nr_sectors;
	s->r->rq_ticks[rq->rq.write] += s->now - rq->rq.add_time;
	if (s->o->bt)
		bt_rq(s, 'C', rq);
	if (rq->requeued) {
		/* sent around the policy since its requeue: no completion for it */
		if (rq->rq.state != ANTIC_RQ_DONE)
			s->r->violations++;
		tag_release(s);
		return;
	}
	if (rq->rq.state != ANTIC_RQ_DISPATCHED)
		s->r->violations++;
	blk_audit_leaves(s, rq);
	s->ops->complete(s->sched, &rq->rq, s->now);
	if (rq->rq.state != ANTIC_RQ_DONE)
		s->r->violations++;
	tag_release(s);
}

/*
 * The drive may give @rq back instead of finishing it (requeue_per_mille,
 * drawn per finished command): the policy hears a requeue, and the block
 * layer sends the command to the drive again at once, around the policy,
 * keeping its tag (blk-mq's requeue list: at the head, past the
 * scheduler's queues, on every kernel antic supports). True if it did.
 */
bool blk_maybe_requeue(struct sim *s, struct sim_rq *rq)
{
	if (rq->kind == K_FLUSH ||
	    rng_below(&s->fault_rng, 1000) >= s->set->requeue_per_mille)
		return false;
	s->r->requeues++;
	if (!rq->requeued) {
		if (rq->rq.state != ANTIC_RQ_DISPATCHED)
			s->r->violations++;
		blk_audit_leaves(s, rq);
		s->ops->requeue(s->sched, &rq->rq);
		if (rq->rq.state != ANTIC_RQ_NEW)
			s->r->violations++;
		antic_rq_bypass(&rq->rq);
		rq->requeued = true;
	}
	if (s->o->bt) {
		bt_rq(s, 'R', rq);
		bt_rq(s, 'D', rq);
	}
	drive_submit(s, rq);
	return true;
}
