// SPDX-License-Identifier: GPL-2.0
/*
 * anticipatory-iosched.c - blk-mq glue for the anticipatory scheduler.
 *
 * Every decision is made by core/anticipatory.c; this file only feeds it
 * events (insert, dispatch, completion, merge, requeue, process exit),
 * keeps the per-process history in the io_context's icq, holds dispatch
 * with an hrtimer while anticipating, and exports the tunables to sysfs
 * and the counters to debugfs.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/ioprio.h>
#include <linux/sbitmap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-debugfs.h"
#include "blk-mq-sched.h"

#include "core/anticipatory.h"
#include "kcompat.h"

/* Per-process history: the io_context's icq for this queue. */
struct asmq_icq {
	struct io_cq icq;	/* must be first: the block layer allocates it */
	struct antic_proc proc;
};

/*
 * Per-request record, one per scheduler tag of a hardware context. Its
 * lifecycle is core's (arq.state: NEW once prepared, QUEUED, DISPATCHED,
 * DONE once completed, merged away or sent around the scheduler); rq is
 * NULL while the slot is free.
 */
struct asmq_rq {
	struct antic_rq arq;
	struct request *rq;
};

/*
 * A hardware context's records (hctx->sched_data): one per tag of its
 * scheduler tag map (sched_tags->nr_tags: nr_requests, or what a larger
 * nr_requests grew the map to; the whole shared map, MAX_SCHED_RQ, on a
 * tag set whose hardware contexts share tags), indexed by internal_tag.
 */
struct asmq_tbl {
	unsigned int nr;
	struct asmq_rq slot[];
};

struct asmq_data {
	/*
	 * Everything below, core's state included. irqsave: the hrtimer
	 * callback takes it in hardirq context, and requests complete (and
	 * finish) in whatever context the driver completes them.
	 */
	spinlock_t lock;
	struct as_sched as;
	struct request_queue *q;
	struct list_head dispatch;	/* at-head and passthrough requests */
	struct hrtimer timer;
	u64 armed;		/* when the timer is set to fire; 0: not set */
	unsigned int async_depth;	/* tags per sbitmap word async may use */
};

static inline struct asmq_icq *icq_to_aic(struct io_cq *icq)
{
	return container_of(icq, struct asmq_icq, icq);
}

/*
 * Our record for @rq, or NULL when @rq is not ours. blk-mq does not clear
 * elv.priv for requests it never prepared (flushes), and in 6.1 the flush
 * machinery's fields share that space, so the pointer alone proves
 * nothing: it must be this request's own slot.
 */
static struct asmq_rq *rq_krq(struct request *rq)
{
	struct asmq_tbl *tbl = rq->mq_hctx ? rq->mq_hctx->sched_data : NULL;
	struct asmq_rq *krq = rq->elv.priv[0];

	if (!tbl || rq->internal_tag < 0 || rq->internal_tag >= tbl->nr)
		return NULL;
	if (krq != &tbl->slot[rq->internal_tag] || krq->rq != rq)
		return NULL;
	return krq;
}

/* Core's class for an I/O priority: none (the default) is best effort. */
static u8 asmq_class(unsigned short ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		return ANTIC_CLASS_RT;
	case IOPRIO_CLASS_IDLE:
		return ANTIC_CLASS_IDLE;
	default:
		return ANTIC_CLASS_BE;
	}
}

static struct asmq_rq *arq_krq(struct antic_rq *arq)
{
	return container_of(arq, struct asmq_rq, arq);
}

/* Caller holds the lock. */
static void asmq_set_timer(struct asmq_data *ad, u64 when)
{
	lockdep_assert_held(&ad->lock);
	ad->armed = when;
	hrtimer_start(&ad->timer, ns_to_ktime(when), HRTIMER_MODE_ABS);
}

/*
 * Arm the timer for when the core next needs it; caller holds the lock.
 * Every event asks, and setting an hrtimer may reprogram the clock event
 * device (a trap to the hypervisor in a VM): with a writer beside random
 * readers that was once per anticipation, thousands a second. So a timer
 * already set to fire no later is left alone; firing early is harmless,
 * the callback asks core again and re-arms.
 */
static void asmq_arm_timer(struct asmq_data *ad)
{
	u64 wake;

	lockdep_assert_held(&ad->lock);
	wake = as_get_expiry(&ad->as);
	if (wake && !(ad->armed && ad->armed <= wake))
		asmq_set_timer(ad, wake);
}

/*
 * Run the hardware queues from the timer, so that paths that must not
 * call into blk-mq (exit_icq runs under the ioc and queue locks) can ask
 * for a run by firing it now. Caller holds the lock.
 */
static void asmq_kick(struct asmq_data *ad)
{
	asmq_set_timer(ad, ktime_get_ns());
}

static enum hrtimer_restart asmq_timer_fn(struct hrtimer *t)
{
	struct asmq_data *ad = container_of(t, struct asmq_data, timer);
	unsigned long flags;
	u64 now, wake;
	bool run;

	spin_lock_irqsave(&ad->lock, flags);
	ad->armed = 0;
	now = ktime_get_ns();
	as_handle_expiry(&ad->as, now);
	/*
	 * Still waiting (the timer fired early, or antic_expire was raised
	 * after it was set): re-arm here, because has_work says no and no
	 * dispatch will. A time not after now would fire again at once, in
	 * hardirq context, for ever: core names none once it has handled it
	 * (its chaos test checks), so such a time is a bug, left unarmed
	 * for the next event to re-arm.
	 */
	wake = as_get_expiry(&ad->as);
	if (!WARN_ON_ONCE(wake && wake <= now))
		asmq_arm_timer(ad);
	/*
	 * Most fires end nothing (the wait they were set for ended when its
	 * request came): a queue run then would only wake kblockd for an
	 * empty dispatch.
	 */
	run = as_has_work(&ad->as) || !list_empty(&ad->dispatch);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (run)
		blk_mq_run_hw_queues(ad->q, true);
	return HRTIMER_NORESTART;
}

/* A table of records for @nr tags, or NULL. */
static struct asmq_tbl *asmq_tbl_alloc(unsigned int nr, int node)
{
	struct asmq_tbl *tbl;

	tbl = kvzalloc_node(struct_size(tbl, slot, nr), GFP_KERNEL, node);
	if (tbl)
		tbl->nr = nr;
	return tbl;
}

/*
 * The scheduler tag maps may have grown (a larger nr_requests): so do
 * the tables. blk-mq calls depth_updated with the queue frozen, so no
 * request holds a record, and with nothing allocated under I/O to this
 * queue. A table that cannot grow stays: requests with the new tags are
 * then sent around the scheduler (rq_krq finds no record for them).
 */
static void asmq_tbl_grow(struct request_queue *q)
{
	struct blk_mq_hw_ctx *hctx;
	struct asmq_tbl *old, *tbl;
	unsigned int noio;
	unsigned long i;

	queue_for_each_hw_ctx(q, hctx, i) {
		/*
		 * NULL until our init_hctx (blk-mq clears it when the
		 * scheduler before us exits): init_hctx sizes it then
		 */
		old = hctx->sched_data;
		if (!old || !hctx->sched_tags ||
		    hctx->sched_tags->nr_tags <= old->nr)
			continue;
		noio = memalloc_noio_save();
		tbl = asmq_tbl_alloc(hctx->sched_tags->nr_tags, hctx->numa_node);
		memalloc_noio_restore(noio);
		if (!tbl) {
			pr_warn_ratelimited("anticipatory: no memory for %u requests' records: the rest go around the scheduler\n",
					    hctx->sched_tags->nr_tags);
			continue;
		}
		hctx->sched_data = tbl;
		kvfree(old);
	}
}

/*
 * The scheduler's tags changed (kcompat.h calls this where this kernel's
 * depth_updated and init paths want it): the tables follow, and async
 * requests may take only part of the tags limit_depth counts, so that a
 * writer flooding the queue leaves tags for the read being anticipated.
 * Returns that limit for kcompat.h to pass to sbitmap.
 */
static unsigned int asmq_depth_changed(struct request_queue *q,
				       unsigned int tags)
{
	struct asmq_data *ad = q->elevator->elevator_data;

	asmq_tbl_grow(q);
	ad->async_depth = antic_async_depth(tags);
	return ad->async_depth;
}

KC_DEFINE_DEPTH_UPDATED(asmq_depth_updated, asmq_depth_changed)

static int asmq_init_sched_common(struct request_queue *q,
				  struct elevator_queue *eq)
{
	struct as_tunables t;
	struct asmq_data *ad;

	ad = kzalloc_node(sizeof(*ad), GFP_KERNEL, q->node);
	if (!ad)
		return -ENOMEM;
	eq->elevator_data = ad;
	spin_lock_init(&ad->lock);
	INIT_LIST_HEAD(&ad->dispatch);
	ad->q = q;
	kc_hrtimer_setup(&ad->timer, asmq_timer_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS);
	as_default_tunables(&t, kc_queue_rotational(q));
	as_init(&ad->as, &t);
	/* one queue-wide scheduler, like mq-deadline and bfq */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
	q->elevator = eq;
	asmq_depth_updated_init_sched(q);
	return 0;
}

KC_DEFINE_INIT_SCHED(asmq)

static void asmq_exit_sched(struct elevator_queue *e)
{
	struct asmq_data *ad = e->elevator_data;

	hrtimer_cancel(&ad->timer);
	WARN_ON_ONCE(as_queued(&ad->as));
	WARN_ON_ONCE(!list_empty(&ad->dispatch));
	kfree(ad);
}

/*
 * Core's newcomer tag rule (as_newcomer_limits_tags) for the allocating
 * process. Only while a newcomer's favour runs (core forgets the newcomer
 * at the first read after it), so that at other times it costs a racy
 * read. The icq is current's own, and current holds its io_context; the
 * queue lock keeps ioc_destroy_icq away while we use it (6.1 and 6.12's
 * ioc_lookup_icq also want it held; 7.x needs only RCU, and bfq no longer
 * takes it there: taken here only while a favour runs, newcomer_expire).
 * Its order before ours is ioc_clear_queue's (queue lock, ioc lock,
 * exit_icq, ours).
 */
static bool asmq_newcomer_limits(struct asmq_data *ad, struct request_queue *q)
{
	struct io_cq *icq;
	unsigned long flags;
	bool limit = false;
	u64 now;

	/* racy: a stale answer costs one request a tag limit, or the lookup */
	if (!data_race(ad->as.newcomer) || !current->io_context)
		return false;
	now = ktime_get_ns();
	/* racy, as above */
	if (now >= data_race(ad->as.newcomer_until))
		return false;
	spin_lock_irqsave(&q->queue_lock, flags);
	icq = ioc_lookup_icq(q);
	if (icq) {
		spin_lock(&ad->lock);
		limit = as_newcomer_limits_tags(&ad->as, &icq_to_aic(icq)->proc,
						q->nr_requests, now);
		spin_unlock(&ad->lock);
	}
	spin_unlock_irqrestore(&q->queue_lock, flags);
	return limit;
}

static void asmq_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct asmq_data *ad = data->q->elevator->elevator_data;

	/* the newcomer's reads get the last quarter of the tags */
	if (!op_is_sync(opf) ||
	    ((opf & REQ_OP_MASK) == REQ_OP_READ &&
	     asmq_newcomer_limits(ad, data->q)))
		data->shallow_depth = ad->async_depth;
}

static int asmq_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	struct asmq_tbl *tbl;

	if (WARN_ON_ONCE(!hctx->sched_tags))
		return -EINVAL;
	tbl = asmq_tbl_alloc(hctx->sched_tags->nr_tags, hctx->numa_node);
	if (!tbl)
		return -ENOMEM;
	hctx->sched_data = tbl;
	asmq_depth_updated_init_hctx(hctx);
	return 0;
}

static void asmq_exit_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	kvfree(hctx->sched_data);
	hctx->sched_data = NULL;
}

static void asmq_init_icq(struct io_cq *icq)
{
	antic_proc_init(&icq_to_aic(icq)->proc);
}

/*
 * The process (the io_context's last user) is gone. This runs under the
 * ioc lock (and the queue lock on elevator exit): no call into blk-mq.
 */
static void asmq_exit_icq(struct io_cq *icq)
{
	struct asmq_data *ad = icq->q->elevator->elevator_data;
	struct antic_proc *p = &icq_to_aic(icq)->proc;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	as_proc_exit(&ad->as, p, ktime_get_ns());
	if (as_has_work(&ad->as))
		asmq_kick(ad);
	else
		asmq_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
}

static void asmq_prepare_request(struct request *rq)
{
	struct asmq_tbl *tbl = rq->mq_hctx->sched_data;
	struct asmq_rq *krq;

	rq->elv.priv[0] = NULL;
	rq->elv.icq = NULL;
	if (WARN_ON_ONCE(!tbl || rq->internal_tag < 0))
		return;
	/* a tag of a map the table could not grow to: not ours (asmq_tbl_grow) */
	if (rq->internal_tag >= tbl->nr)
		return;
	krq = &tbl->slot[rq->internal_tag];
	memset(krq, 0, sizeof(*krq));	/* arq.state: ANTIC_RQ_NEW */
	krq->rq = rq;
	rq->elv.priv[0] = krq;
	rq->elv.icq = ioc_find_get_icq(rq->q);
}

/* Caller holds the lock. Core moves the request to DONE. */
static void asmq_complete_locked(struct asmq_data *ad, struct asmq_rq *krq, u64 now)
{
	lockdep_assert_held(&ad->lock);
	as_complete(&ad->as, &krq->arq, now);
}

/* After an event under the lock: arm the timer, drop the lock, run the queues if there is work. */
static void asmq_unlock_and_run(struct asmq_data *ad, unsigned long flags)
	__releases(&ad->lock)
{
	bool run = as_has_work(&ad->as);

	asmq_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (run)
		blk_mq_run_hw_queues(ad->q, true);
}

/*
 * A completion runs the queues only when it is what gives the scheduler
 * work again (the drain before a change of direction ended, a wait
 * ended): has_work is exact, so while it stayed true blk-mq was not left
 * idle by us, and the driver's budget and tag wake-ups run the queue.
 * Running them on every completion cost a workqueue run per request.
 */
static void asmq_completed_request(struct request *rq, u64 now)
{
	struct asmq_data *ad = rq->q->elevator->elevator_data;
	struct asmq_rq *krq = rq_krq(rq);
	unsigned long flags;
	bool had_work, run;

	if (!krq || krq->arq.state != ANTIC_RQ_DISPATCHED)
		return;
	spin_lock_irqsave(&ad->lock, flags);
	had_work = as_has_work(&ad->as);
	asmq_complete_locked(ad, krq, now ? now : ktime_get_ns());
	run = !had_work && as_has_work(&ad->as);
	asmq_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (run)
		blk_mq_run_hw_queues(ad->q, true);
}

static void asmq_finish_request(struct request *rq)
{
	struct asmq_data *ad = rq->q->elevator->elevator_data;
	struct asmq_rq *krq = rq_krq(rq);
	unsigned long flags;

	if (krq && krq->arq.state == ANTIC_RQ_DISPATCHED) {
		/* freed without a completion callback: account it here */
		spin_lock_irqsave(&ad->lock, flags);
		asmq_complete_locked(ad, krq, ktime_get_ns());
		asmq_unlock_and_run(ad, flags);
	}
	if (!krq)
		return;
	krq->rq = NULL;	/* the slot is free */
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
	rq->elv.priv[0] = NULL;
}

static void asmq_requeue_request(struct request *rq)
{
	struct asmq_data *ad = rq->q->elevator->elevator_data;
	struct asmq_rq *krq = rq_krq(rq);
	unsigned long flags;

	if (!krq || krq->arq.state != ANTIC_RQ_DISPATCHED)
		return;
	spin_lock_irqsave(&ad->lock, flags);
	as_requeue(&ad->as, &krq->arq);	/* back to NEW */
	asmq_unlock_and_run(ad, flags);
}

/* Caller holds the lock. */
static void asmq_insert_one(struct asmq_data *ad, struct request *rq,
			  bool at_head, struct list_head *free, u64 now)
{
	struct request_queue *q = ad->q;
	struct asmq_rq *krq = rq_krq(rq);

	lockdep_assert_held(&ad->lock);
	if (blk_mq_sched_try_insert_merge(q, rq, free))
		return;
	if (at_head || blk_rq_is_passthrough(rq) || !krq ||
	    krq->arq.state != ANTIC_RQ_NEW) {
		if (krq && krq->arq.state == ANTIC_RQ_NEW)
			antic_rq_bypass(&krq->arq);
		list_add_tail(&rq->queuelist, &ad->dispatch);
		return;
	}
	krq->arq.sector = blk_rq_pos(rq);
	krq->arq.nr_sectors = blk_rq_sectors(rq);
	krq->arq.sync = rq_is_sync(rq);
	krq->arq.write = rq_data_dir(rq) == WRITE;
	/*
	 * O_DIRECT writes are REQ_SYNC | REQ_IDLE; jbd2 marks its journal
	 * writes so too, and REQ_META: a journal commit is writeback that
	 * an fsync waits on, not a writer's stream.
	 */
	krq->arq.direct = krq->arq.write &&
			  (rq->cmd_flags & (REQ_SYNC | REQ_IDLE | REQ_META)) ==
			  (REQ_SYNC | REQ_IDLE);
	krq->arq.prio_class = asmq_class(req_get_ioprio(rq));
	krq->arq.proc = rq->elv.icq ? &icq_to_aic(rq->elv.icq)->proc : NULL;
	as_add(&ad->as, &krq->arq, now);
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
}

static void asmq_insert_requests_common(struct blk_mq_hw_ctx *hctx,
				      struct list_head *list, bool at_head)
{
	struct asmq_data *ad = hctx->queue->elevator->elevator_data;
	unsigned long flags;
	u64 now = ktime_get_ns();
	LIST_HEAD(free);

	spin_lock_irqsave(&ad->lock, flags);
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		asmq_insert_one(ad, rq, at_head, &free, now);
	}
	asmq_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	while (!list_empty(&free)) {
		struct request *rq = list_first_entry(&free, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		blk_mq_free_request(rq);
	}
}

KC_DEFINE_INSERT_REQUESTS(asmq_insert_requests, asmq_insert_requests_common)

static struct request *asmq_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct asmq_data *ad = hctx->queue->elevator->elevator_data;
	struct request_queue *q = hctx->queue;
	struct request *rq = NULL;
	struct antic_rq *arq;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	if (!list_empty(&ad->dispatch)) {
		rq = list_first_entry(&ad->dispatch, struct request, queuelist);
		list_del_init(&rq->queuelist);
		goto out;
	}
	as_dirty_throttled(&ad->as, kc_dirty_throttled_recently(q));
	if (as_dispatch(&ad->as, ktime_get_ns(), &arq) == ANTIC_DISPATCH) {
		struct asmq_rq *krq = arq_krq(arq);

		rq = krq->rq;
		elv_rqhash_del(q, rq);
		if (q->last_merge == rq)
			q->last_merge = NULL;
	}
	asmq_arm_timer(ad);
out:
	if (rq)
		rq->rq_flags |= RQF_STARTED;
	spin_unlock_irqrestore(&ad->lock, flags);
	return rq;
}

/*
 * Without the lock, as mq-deadline's: blk-mq asks before every dispatch,
 * from every CPU, and taking the lock here made the lock the hot spot
 * (null_blk under TCG, perf: as much irq-off time as insert or dispatch).
 * A stale answer is harmless: a stale true costs one empty dispatch, and
 * every path that creates work (insert, a completion ending a drain or
 * wait, the timer) runs the queues after its unlock.
 */
static bool asmq_has_work_hctx(struct blk_mq_hw_ctx *hctx)
{
	struct asmq_data *ad = hctx->queue->elevator->elevator_data;

	if (!list_empty_careful(&ad->dispatch))
		return true;
	/* a hint read without the lock: see above */
	return data_race(as_has_work(&ad->as));
}

/* Merges: the lock is held by bio_merge or insert when these run. */
static int asmq_request_merge(struct request_queue *q, struct request **req,
			    struct bio *bio)
{
	struct asmq_data *ad = q->elevator->elevator_data;
	struct antic_rq *arq;

	lockdep_assert_held(&ad->lock);
	arq = as_find_starting_at(&ad->as, op_is_sync(bio->bi_opf),
				  asmq_class(bio->bi_ioprio), bio_end_sector(bio));
	if (arq && elv_bio_merge_ok(arq_krq(arq)->rq, bio)) {
		*req = arq_krq(arq)->rq;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

static void asmq_request_merged(struct request_queue *q, struct request *rq,
			      enum elv_merge type)
{
	struct asmq_data *ad = q->elevator->elevator_data;
	struct asmq_rq *krq = rq_krq(rq);

	lockdep_assert_held(&ad->lock);
	if (!krq || krq->arq.state != ANTIC_RQ_QUEUED)
		return;
	if (type == ELEVATOR_FRONT_MERGE)
		as_front_merged(&ad->as, &krq->arq, blk_rq_pos(rq));
	else
		as_back_merged(&ad->as, &krq->arq, blk_rq_sectors(rq));
}

static void asmq_requests_merged(struct request_queue *q, struct request *rq,
			       struct request *next)
{
	struct asmq_data *ad = q->elevator->elevator_data;
	struct asmq_rq *krq = rq_krq(rq), *nkrq = rq_krq(next);

	lockdep_assert_held(&ad->lock);
	if (!krq || krq->arq.state != ANTIC_RQ_QUEUED)
		return;
	if (nkrq && nkrq->arq.state == ANTIC_RQ_QUEUED) {
		as_merge_requests(&ad->as, &krq->arq, &nkrq->arq);	/* next: DONE */
		elv_rqhash_del(q, next);
		if (q->last_merge == next)
			q->last_merge = NULL;
	}
	/* @next may be a new request merged at insert, never queued here */
	as_back_merged(&ad->as, &krq->arq, blk_rq_sectors(rq));
}

static bool asmq_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct asmq_data *ad = q->elevator->elevator_data;
	struct request *free = NULL;
	unsigned long flags;
	bool merged;

	/*
	 * Only queued requests are merge candidates (the bypass list is not
	 * hashed): with none queued, as on a fast device, skip the lock. A
	 * request queued meanwhile only misses one merge.
	 */
	if (!data_race(as_queued(&ad->as)))
		return false;
	spin_lock_irqsave(&ad->lock, flags);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (free)
		blk_mq_free_request(free);
	return merged;
}

/*
 * ---- sysfs: tunables in ms, as the original scheduler had them, and
 * the depth-32 rules' counts (the table's scale says which) ----
 */

/*
 * Each file finds its tunable in core's table by the file's own name, so
 * the table's order cannot move a file onto another tunable.
 */
static ssize_t asmq_tunable_show(struct elevator_queue *e, char *page,
			       const char *name)
{
	const struct as_tunable_desc *d = as_tunable_find(name);
	struct asmq_data *ad = e->elevator_data;
	const u64 *v;

	if (!d)
		return -EINVAL;
	v = (const u64 *)((const char *)&ad->as.tun + d->off);
	return sysfs_emit(page, "%llu\n", div_u64(READ_ONCE(*v), d->scale));
}

static ssize_t asmq_tunable_store(struct elevator_queue *e, const char *page,
				size_t count, const char *name)
{
	const struct as_tunable_desc *d = as_tunable_find(name);
	struct asmq_data *ad = e->elevator_data;
	struct as_tunables t;
	unsigned long flags;
	unsigned int ms;
	int ret;

	if (!d)
		return -EINVAL;
	ret = kstrtouint(page, 10, &ms);
	if (ret || ms < d->min_ms || ms > d->max_ms)
		return -EINVAL;
	spin_lock_irqsave(&ad->lock, flags);
	t = ad->as.tun;
	*(u64 *)((char *)&t + d->off) = (u64)ms * d->scale;
	as_set_tunables(&ad->as, &t);
	/*
	 * A wait shortened now ends at its new time, not the old one; and
	 * has_work may have turned true (a kept write batch is judged
	 * afresh, a new write_bound may end a drain), which no completion
	 * would notice: it runs the queues only when has_work changes.
	 */
	asmq_unlock_and_run(ad, flags);
	return count;
}

#define ASMQ_TUNABLE(name)						\
static ssize_t asmq_##name##_show(struct elevator_queue *e, char *page)	\
{									\
	return asmq_tunable_show(e, page, #name);				\
}									\
static ssize_t asmq_##name##_store(struct elevator_queue *e,		\
				 const char *page, size_t count)	\
{									\
	return asmq_tunable_store(e, page, count, #name);			\
}
ASMQ_TUNABLE(antic_expire)
ASMQ_TUNABLE(read_expire)
ASMQ_TUNABLE(write_expire)
ASMQ_TUNABLE(read_batch_expire)
ASMQ_TUNABLE(write_batch_expire)
ASMQ_TUNABLE(antic_in_flight)
ASMQ_TUNABLE(write_bound)
ASMQ_TUNABLE(sync_write_expire)
ASMQ_TUNABLE(share_window)
ASMQ_TUNABLE(newcomer_expire)
ASMQ_TUNABLE(newcomer_plug)
ASMQ_TUNABLE(start_read_expire)
ASMQ_TUNABLE(prio_aging_expire)
#undef ASMQ_TUNABLE

static ssize_t asmq_est_time_show(struct elevator_queue *e, char *page)
{
	struct asmq_data *ad = e->elevator_data;
	struct as_estimates est;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	as_estimates(&ad->as, &est);
	spin_unlock_irqrestore(&ad->lock, flags);
	return sysfs_emit(page,
			  "%u%% exit probability\n"
			  "%u%% probability of exiting without a cooperating process\n"
			  "%llu us new think time\n"
			  "%llu sectors new seek distance\n",
			  est.exit_prob * 100 / 256, est.exit_no_coop * 100 / 256,
			  div_u64(est.new_ttime_mean, NSEC_PER_USEC),
			  est.new_seek_mean);
}

#define ASMQ_ATTR_RW(name) __ATTR(name, 0644, asmq_##name##_show, asmq_##name##_store)
static struct elv_fs_entry asmq_attrs[] = {
	ASMQ_ATTR_RW(antic_expire),
	ASMQ_ATTR_RW(read_expire),
	ASMQ_ATTR_RW(write_expire),
	ASMQ_ATTR_RW(read_batch_expire),
	ASMQ_ATTR_RW(write_batch_expire),
	ASMQ_ATTR_RW(antic_in_flight),
	ASMQ_ATTR_RW(write_bound),
	ASMQ_ATTR_RW(sync_write_expire),
	ASMQ_ATTR_RW(share_window),
	ASMQ_ATTR_RW(newcomer_expire),
	ASMQ_ATTR_RW(newcomer_plug),
	ASMQ_ATTR_RW(start_read_expire),
	ASMQ_ATTR_RW(prio_aging_expire),
	__ATTR(est_time, 0444, asmq_est_time_show, NULL),
	__ATTR_NULL
};

/* ---- debugfs: what the scheduler has been doing ---- */

#ifdef CONFIG_BLK_DEBUG_FS
/* "NAME ms" with @t - @now in ms, or "NAME none" for a time not set */
static void asmq_ms_show(struct seq_file *m, const char *name, u64 t, u64 now)
{
	if (t)
		seq_printf(m, "%s %lld\n", name,
			   div_s64((s64)(t - now), NSEC_PER_MSEC));
	else
		seq_printf(m, "%s none\n", name);
}

/*
 * The depth-32 rules' state beside their counters (writes_kept,
 * drains_to_k, write_k and its range are in core's counter table): the
 * drive's share of each class and whether a write batch is kept now.
 * Then the newcomer favour's, in ms from now (negative: past): when the
 * latest start began (the favour of the process that began it), and the
 * favoured reads queued and at the drive.
 */
static void asmq_rules_show(struct asmq_data *ad, struct seq_file *m)
{
	u32 in_sync, in_async, new_queued, new_in_flight;
	bool holding;
	u64 np_first, now;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	now = ktime_get_ns();
	in_sync = ad->as.in_flight[ANTIC_SYNC];
	in_async = ad->as.in_flight[ANTIC_ASYNC];
	holding = ad->as.holding;
	new_queued = ad->as.new_queued;
	new_in_flight = ad->as.new_in_flight;
	np_first = ad->as.newcomer ? ad->as.newcomer->first_seen : 0;
	spin_unlock_irqrestore(&ad->lock, flags);
	seq_printf(m, "in_flight_sync %u\n", in_sync);
	seq_printf(m, "in_flight_async %u\n", in_async);
	seq_printf(m, "holding_writes %d\n", holding);
	asmq_ms_show(m, "newcomer_first_ms", np_first, now);
	seq_printf(m, "newcomer_queued %u\n", new_queued);
	seq_printf(m, "newcomer_in_flight %u\n", new_in_flight);
}

static int asmq_counters_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct asmq_data *ad = q->elevator->elevator_data;
	struct as_counters c;
	unsigned long flags;
	u32 queued, nr_dispatched, async_depth;
	int state, batch_dir;
	bool changed_batch;
	int i;

	spin_lock_irqsave(&ad->lock, flags);
	c = ad->as.cnt;
	queued = as_queued(&ad->as);
	state = ad->as.antic_state;
	nr_dispatched = as_at_drive(&ad->as);
	changed_batch = ad->as.changed_batch;
	batch_dir = ad->as.batch_dir;
	async_depth = ad->async_depth;
	spin_unlock_irqrestore(&ad->lock, flags);
	for (i = 0; i < AS_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", as_counter_descs[i].name,
			   as_counter(&c, &as_counter_descs[i]));
	seq_printf(m, "queued %u\n", queued);
	seq_printf(m, "antic_state %d\n", state);
	seq_printf(m, "nr_dispatched %u\n", nr_dispatched);
	seq_printf(m, "changed_batch %d\n", changed_batch);
	seq_printf(m, "batch_dir %d\n", batch_dir);
	asmq_rules_show(ad, m);
	/* what limit_depth gives async requests (kcompat.h: its unit moved in 6.18) */
	seq_printf(m, "async_depth %u\n", async_depth);
	return 0;
}

static int asmq_dispatch_list_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct asmq_data *ad = q->elevator->elevator_data;
	struct request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	list_for_each_entry(rq, &ad->dispatch, queuelist)
		seq_printf(m, "%llu+%u\n", (u64)blk_rq_pos(rq), blk_rq_sectors(rq));
	spin_unlock_irqrestore(&ad->lock, flags);
	return 0;
}

static const struct blk_mq_debugfs_attr asmq_debugfs_attrs[] = {
	{ "counters", 0400, asmq_counters_show },
	{ "dispatch", 0400, asmq_dispatch_list_show },
	{},
};
#endif

static struct elevator_type asmq_iosched = {
	.ops = {
		.init_sched		= asmq_init_sched,
		.exit_sched		= asmq_exit_sched,
		.init_hctx		= asmq_init_hctx,
		.exit_hctx		= asmq_exit_hctx,
		.depth_updated		= asmq_depth_updated,
		.limit_depth		= asmq_limit_depth,
		.bio_merge		= asmq_bio_merge,
		.request_merge		= asmq_request_merge,
		.request_merged		= asmq_request_merged,
		.requests_merged	= asmq_requests_merged,
		.prepare_request	= asmq_prepare_request,
		.finish_request		= asmq_finish_request,
		.insert_requests	= asmq_insert_requests,
		.dispatch_request	= asmq_dispatch_request,
		.has_work		= asmq_has_work_hctx,
		.completed_request	= asmq_completed_request,
		.requeue_request	= asmq_requeue_request,
		.init_icq		= asmq_init_icq,
		.exit_icq		= asmq_exit_icq,
	},
	.icq_size = sizeof(struct asmq_icq),
	.icq_align = __alignof__(struct asmq_icq),
	.elevator_attrs = asmq_attrs,
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = asmq_debugfs_attrs,
#endif
	.elevator_name = ANTIC_AS_NAME,
	.elevator_alias = ANTIC_AS_ALIAS,
	.elevator_owner = THIS_MODULE,
};
MODULE_ALIAS(ANTIC_AS_NAME "-iosched");

/*
 * Every writable file must name a tunable in core's table, and every
 * tunable must have its file: refuse to load rather than ship a file
 * that fails or a tunable that cannot be set.
 */
static bool asmq_attrs_match_table(void)
{
	const struct elv_fs_entry *a;
	int n = 0;

	for (a = asmq_attrs; a->attr.name; a++) {
		if (!a->store)
			continue;
		if (!as_tunable_find(a->attr.name))
			return false;
		n++;
	}
	return n == AS_NR_TUNABLES;
}

static int __init asmq_module_init(void)
{
	if (WARN_ON(!asmq_attrs_match_table()))
		return -EINVAL;
	return elv_register(&asmq_iosched);
}

static void __exit asmq_module_exit(void)
{
	elv_unregister(&asmq_iosched);
}

module_init(asmq_module_init);
module_exit(asmq_module_exit);

MODULE_AUTHOR("antic developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Anticipatory I/O scheduler");
