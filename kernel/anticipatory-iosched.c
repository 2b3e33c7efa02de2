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
#include <linux/sbitmap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mm.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-debugfs.h"
#include "blk-mq-sched.h"

#include "core/anticipatory.h"
#include "as-compat.h"

/* Per-process history: the io_context's icq for this queue. */
struct as_icq {
	struct io_cq icq;	/* must be first: the block layer allocates it */
	struct antic_proc proc;
};

enum as_krq_state { KRQ_FREE, KRQ_PREPARED, KRQ_QUEUED, KRQ_DISPATCHED,
		    KRQ_BYPASS };

/* Per-request record, one per scheduler tag of a hardware context. */
struct as_krq {
	struct antic_rq arq;
	struct request *rq;
	u8 state;
};

struct as_data {
	spinlock_t lock;
	struct as_sched as;
	struct request_queue *q;
	struct list_head dispatch;	/* at-head and passthrough requests */
	struct hrtimer timer;
	unsigned int async_depth;	/* tags per sbitmap word async may use */
};

static inline struct as_icq *icq_to_aic(struct io_cq *icq)
{
	return container_of(icq, struct as_icq, icq);
}

/*
 * Our record for @rq, or NULL when @rq is not ours. blk-mq does not clear
 * elv.priv for requests it never prepared (flushes), and in 6.1 the flush
 * machinery's fields share that space, so the pointer alone proves
 * nothing: it must be this request's own slot.
 */
static struct as_krq *rq_krq(struct request *rq)
{
	struct as_krq *slots = rq->mq_hctx ? rq->mq_hctx->sched_data : NULL;
	struct as_krq *krq = rq->elv.priv[0];

	if (!slots || rq->internal_tag < 0 || rq->internal_tag >= MAX_SCHED_RQ)
		return NULL;
	if (krq != &slots[rq->internal_tag] || krq->rq != rq ||
	    krq->state == KRQ_FREE)
		return NULL;
	return krq;
}

static struct as_krq *arq_krq(struct antic_rq *arq)
{
	return container_of(arq, struct as_krq, arq);
}

/* Arm the timer for a wait on the next request; caller holds the lock. */
static void as_arm_timer(struct as_data *ad)
{
	u64 wake;

	if (as_anticipating(&ad->as, &wake) && wake)
		hrtimer_start(&ad->timer, ns_to_ktime(wake), HRTIMER_MODE_ABS);
}

/*
 * Run the hardware queues from the timer, so that paths that must not
 * call into blk-mq (exit_icq runs under the ioc and queue locks) can ask
 * for a run by firing it now.
 */
static void as_kick(struct as_data *ad)
{
	hrtimer_start(&ad->timer, ns_to_ktime(ktime_get_ns()), HRTIMER_MODE_ABS);
}

static enum hrtimer_restart as_timer_fn(struct hrtimer *t)
{
	struct as_data *ad = container_of(t, struct as_data, timer);
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	as_timer(&ad->as, ktime_get_ns());
	/*
	 * Still waiting (antic_expire was raised after the timer was set):
	 * re-arm here, because has_work says no and no dispatch will.
	 */
	as_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	blk_mq_run_hw_queues(ad->q, true);
	return HRTIMER_NORESTART;
}

static int as_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	struct as_tunables t;
	struct as_data *ad;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;
	ad = kzalloc_node(sizeof(*ad), GFP_KERNEL, q->node);
	if (!ad) {
		kobject_put(&eq->kobj);
		return -ENOMEM;
	}
	eq->elevator_data = ad;
	spin_lock_init(&ad->lock);
	INIT_LIST_HEAD(&ad->dispatch);
	ad->q = q;
	hrtimer_init(&ad->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	ad->timer.function = as_timer_fn;
	as_default_tunables(&t, !blk_queue_nonrot(q));
	as_init(&ad->as, &t);
	/* one queue-wide scheduler, like mq-deadline and bfq */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
	q->elevator = eq;
	return 0;
}

static void as_exit_sched(struct elevator_queue *e)
{
	struct as_data *ad = e->elevator_data;

	hrtimer_cancel(&ad->timer);
	WARN_ON_ONCE(as_queued(&ad->as));
	WARN_ON_ONCE(!list_empty(&ad->dispatch));
	kfree(ad);
}

/*
 * Async requests may take only part of each tag word, so that a writer
 * flooding the queue leaves tags for the read being anticipated.
 */
static void as_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;
	struct sbitmap_queue *bt = &hctx->sched_tags->bitmap_tags;
	unsigned int word = 1U << bt->sb.shift;

	ad->async_depth = max(1U, word * 3 / 4);
	sbitmap_queue_min_shallow_depth(bt, ad->async_depth);
}

static void as_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct as_data *ad = data->q->elevator->elevator_data;

	if (!op_is_sync(opf))
		data->shallow_depth = ad->async_depth;
}

static int as_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	struct as_krq *slots;

	slots = kvcalloc(MAX_SCHED_RQ, sizeof(*slots), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	hctx->sched_data = slots;
	as_depth_updated(hctx);
	return 0;
}

static void as_exit_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	kvfree(hctx->sched_data);
	hctx->sched_data = NULL;
}

static void as_init_icq(struct io_cq *icq)
{
	antic_proc_init(&icq_to_aic(icq)->proc);
}

/*
 * The process (the io_context's last user) is gone. This runs under the
 * ioc lock (and the queue lock on elevator exit): no call into blk-mq.
 */
static void as_exit_icq(struct io_cq *icq)
{
	struct as_data *ad = icq->q->elevator->elevator_data;
	struct antic_proc *p = &icq_to_aic(icq)->proc;
	unsigned long flags;
	bool run;

	spin_lock_irqsave(&ad->lock, flags);
	as_proc_exit(&ad->as, p, ktime_get_ns());
	run = as_has_work(&ad->as);
	if (!run)
		as_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (run)
		as_kick(ad);
}

static void as_prepare_request(struct request *rq)
{
	struct as_krq *slots = rq->mq_hctx->sched_data;
	struct as_krq *krq;

	rq->elv.priv[0] = NULL;
	rq->elv.icq = NULL;
	if (WARN_ON_ONCE(!slots || rq->internal_tag < 0 ||
			 rq->internal_tag >= MAX_SCHED_RQ))
		return;
	krq = &slots[rq->internal_tag];
	memset(krq, 0, sizeof(*krq));
	krq->rq = rq;
	krq->state = KRQ_PREPARED;
	rq->elv.priv[0] = krq;
	rq->elv.icq = ioc_find_get_icq(rq->q);
}

/* Caller holds the lock. */
static void as_complete_locked(struct as_data *ad, struct as_krq *krq, u64 now)
{
	as_complete(&ad->as, &krq->arq, now);
	krq->state = KRQ_BYPASS;	/* nothing more to tell the core */
}

static void as_after_event(struct as_data *ad, unsigned long flags)
	__releases(&ad->lock)
{
	bool run = as_has_work(&ad->as);

	as_arm_timer(ad);
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
static void as_completed_request(struct request *rq, u64 now)
{
	struct as_data *ad = rq->q->elevator->elevator_data;
	struct as_krq *krq = rq_krq(rq);
	unsigned long flags;
	bool had_work, run;

	if (!krq || krq->state != KRQ_DISPATCHED)
		return;
	spin_lock_irqsave(&ad->lock, flags);
	had_work = as_has_work(&ad->as);
	as_complete_locked(ad, krq, now ? now : ktime_get_ns());
	run = !had_work && as_has_work(&ad->as);
	as_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (run)
		blk_mq_run_hw_queues(ad->q, true);
}

static void as_finish_request(struct request *rq)
{
	struct as_data *ad = rq->q->elevator->elevator_data;
	struct as_krq *krq = rq_krq(rq);
	unsigned long flags;

	if (krq && krq->state == KRQ_DISPATCHED) {
		/* freed without a completion callback: account it here */
		spin_lock_irqsave(&ad->lock, flags);
		as_complete_locked(ad, krq, ktime_get_ns());
		as_after_event(ad, flags);
	}
	if (!krq)
		return;
	krq->state = KRQ_FREE;
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
	rq->elv.priv[0] = NULL;
}

static void as_requeue_request(struct request *rq)
{
	struct as_data *ad = rq->q->elevator->elevator_data;
	struct as_krq *krq = rq_krq(rq);
	unsigned long flags;

	if (!krq || krq->state != KRQ_DISPATCHED)
		return;
	spin_lock_irqsave(&ad->lock, flags);
	as_requeue(&ad->as, &krq->arq);
	krq->state = KRQ_PREPARED;
	as_after_event(ad, flags);
}

/* Caller holds the lock. */
static void as_insert_one(struct as_data *ad, struct request *rq,
			  bool at_head, struct list_head *free, u64 now)
{
	struct request_queue *q = ad->q;
	struct as_krq *krq = rq_krq(rq);

	if (blk_mq_sched_try_insert_merge(q, rq, free))
		return;
	if (at_head || blk_rq_is_passthrough(rq) || !krq ||
	    krq->state != KRQ_PREPARED) {
		if (krq)
			krq->state = KRQ_BYPASS;
		list_add_tail(&rq->queuelist, &ad->dispatch);
		return;
	}
	krq->arq.sector = blk_rq_pos(rq);
	krq->arq.nr_sectors = blk_rq_sectors(rq);
	krq->arq.sync = rq_is_sync(rq);
	krq->arq.write = rq_data_dir(rq) == WRITE;
	krq->arq.proc = rq->elv.icq ? &icq_to_aic(rq->elv.icq)->proc : NULL;
	krq->state = KRQ_QUEUED;
	as_add(&ad->as, &krq->arq, now);
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
}

static void as_insert_requests_common(struct blk_mq_hw_ctx *hctx,
				      struct list_head *list, bool at_head)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;
	unsigned long flags;
	u64 now = ktime_get_ns();
	LIST_HEAD(free);

	spin_lock_irqsave(&ad->lock, flags);
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		as_insert_one(ad, rq, at_head, &free, now);
	}
	as_arm_timer(ad);
	spin_unlock_irqrestore(&ad->lock, flags);
	while (!list_empty(&free)) {
		struct request *rq = list_first_entry(&free, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		blk_mq_free_request(rq);
	}
}

AS_DEFINE_INSERT_REQUESTS(as_insert_requests, as_insert_requests_common)

static struct request *as_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;
	struct request_queue *q = hctx->queue;
	struct request *rq = NULL;
	struct antic_rq *arq;
	unsigned long flags;
	u64 wake;

	spin_lock_irqsave(&ad->lock, flags);
	if (!list_empty(&ad->dispatch)) {
		rq = list_first_entry(&ad->dispatch, struct request, queuelist);
		list_del_init(&rq->queuelist);
		goto out;
	}
	if (as_dispatch(&ad->as, ktime_get_ns(), &arq, &wake) == ANTIC_DISPATCH) {
		struct as_krq *krq = arq_krq(arq);

		rq = krq->rq;
		krq->state = KRQ_DISPATCHED;
		elv_rqhash_del(q, rq);
		if (q->last_merge == rq)
			q->last_merge = NULL;
	}
	as_arm_timer(ad);
out:
	if (rq)
		rq->rq_flags |= RQF_STARTED;
	spin_unlock_irqrestore(&ad->lock, flags);
	return rq;
}

static bool as_has_work_hctx(struct blk_mq_hw_ctx *hctx)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;
	unsigned long flags;
	bool work;

	spin_lock_irqsave(&ad->lock, flags);
	work = !list_empty(&ad->dispatch) || as_has_work(&ad->as);
	spin_unlock_irqrestore(&ad->lock, flags);
	return work;
}

/* Merges: the lock is held by bio_merge or insert when these run. */
static int as_request_merge(struct request_queue *q, struct request **req,
			    struct bio *bio)
{
	struct as_data *ad = q->elevator->elevator_data;
	struct antic_rq *arq;

	arq = as_find_starting_at(&ad->as, op_is_sync(bio->bi_opf),
				  bio_end_sector(bio));
	if (arq && elv_bio_merge_ok(arq_krq(arq)->rq, bio)) {
		*req = arq_krq(arq)->rq;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

static void as_request_merged(struct request_queue *q, struct request *rq,
			      enum elv_merge type)
{
	struct as_data *ad = q->elevator->elevator_data;
	struct as_krq *krq = rq_krq(rq);

	if (!krq || krq->state != KRQ_QUEUED)
		return;
	if (type == ELEVATOR_FRONT_MERGE)
		as_front_merged(&ad->as, &krq->arq, blk_rq_pos(rq));
	else
		as_back_merged(&ad->as, &krq->arq, blk_rq_sectors(rq));
}

static void as_requests_merged(struct request_queue *q, struct request *rq,
			       struct request *next)
{
	struct as_data *ad = q->elevator->elevator_data;
	struct as_krq *krq = rq_krq(rq), *nkrq = rq_krq(next);

	if (!krq || krq->state != KRQ_QUEUED)
		return;
	if (nkrq && nkrq->state == KRQ_QUEUED) {
		as_merge_requests(&ad->as, &krq->arq, &nkrq->arq);
		nkrq->state = KRQ_BYPASS;
		elv_rqhash_del(q, next);
		if (q->last_merge == next)
			q->last_merge = NULL;
	}
	/* @next may be a new request merged at insert, never queued here */
	as_back_merged(&ad->as, &krq->arq, blk_rq_sectors(rq));
}

static bool as_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct as_data *ad = q->elevator->elevator_data;
	struct request *free = NULL;
	unsigned long flags;
	bool merged;

	spin_lock_irqsave(&ad->lock, flags);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	spin_unlock_irqrestore(&ad->lock, flags);
	if (free)
		blk_mq_free_request(free);
	return merged;
}

/* ---- sysfs: tunables in ms, as the original scheduler had them ---- */

/*
 * Each file finds its tunable in core's table by the file's own name, so
 * the table's order cannot move a file onto another tunable.
 */
static ssize_t as_tunable_show(struct elevator_queue *e, char *page,
			       const char *name)
{
	const struct as_tunable_desc *d = as_tunable_find(name);
	struct as_data *ad = e->elevator_data;
	const u64 *v;

	if (!d)
		return -EINVAL;
	v = (const u64 *)((const char *)&ad->as.tun + d->off);
	return sysfs_emit(page, "%llu\n", div_u64(READ_ONCE(*v), NSEC_PER_MSEC));
}

static ssize_t as_tunable_store(struct elevator_queue *e, const char *page,
				size_t count, const char *name)
{
	const struct as_tunable_desc *d = as_tunable_find(name);
	struct as_data *ad = e->elevator_data;
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
	*(u64 *)((char *)&t + d->off) = (u64)ms * NSEC_PER_MSEC;
	as_set_tunables(&ad->as, &t);
	spin_unlock_irqrestore(&ad->lock, flags);
	return count;
}

#define AS_TUNABLE(name)						\
static ssize_t as_##name##_show(struct elevator_queue *e, char *page)	\
{									\
	return as_tunable_show(e, page, #name);				\
}									\
static ssize_t as_##name##_store(struct elevator_queue *e,		\
				 const char *page, size_t count)	\
{									\
	return as_tunable_store(e, page, count, #name);			\
}
AS_TUNABLE(antic_expire)
AS_TUNABLE(read_expire)
AS_TUNABLE(write_expire)
AS_TUNABLE(read_batch_expire)
AS_TUNABLE(write_batch_expire)
#undef AS_TUNABLE

static ssize_t as_est_time_show(struct elevator_queue *e, char *page)
{
	struct as_data *ad = e->elevator_data;
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

#define AS_ATTR_RW(name) __ATTR(name, 0644, as_##name##_show, as_##name##_store)
static struct elv_fs_entry as_attrs[] = {
	AS_ATTR_RW(antic_expire),
	AS_ATTR_RW(read_expire),
	AS_ATTR_RW(write_expire),
	AS_ATTR_RW(read_batch_expire),
	AS_ATTR_RW(write_batch_expire),
	__ATTR(est_time, 0444, as_est_time_show, NULL),
	__ATTR_NULL
};

/* ---- debugfs: what the scheduler has been doing ---- */

#ifdef CONFIG_BLK_DEBUG_FS
static int as_counters_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct as_data *ad = q->elevator->elevator_data;
	struct as_counters c;
	unsigned long flags;
	u32 queued, nr_dispatched;
	int state, batch_dir;
	bool changed_batch;
	int i;

	spin_lock_irqsave(&ad->lock, flags);
	c = ad->as.cnt;
	queued = as_queued(&ad->as);
	state = ad->as.antic_state;
	nr_dispatched = ad->as.nr_dispatched;
	changed_batch = ad->as.changed_batch;
	batch_dir = ad->as.batch_dir;
	spin_unlock_irqrestore(&ad->lock, flags);
	for (i = 0; i < AS_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", as_counter_descs[i].name,
			   as_counter(&c, &as_counter_descs[i]));
	seq_printf(m, "queued %u\n", queued);
	seq_printf(m, "antic_state %d\n", state);
	seq_printf(m, "nr_dispatched %u\n", nr_dispatched);
	seq_printf(m, "changed_batch %d\n", changed_batch);
	seq_printf(m, "batch_dir %d\n", batch_dir);
	return 0;
}

static int as_dispatch_list_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct as_data *ad = q->elevator->elevator_data;
	struct request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	list_for_each_entry(rq, &ad->dispatch, queuelist)
		seq_printf(m, "%llu+%u\n", (u64)blk_rq_pos(rq), blk_rq_sectors(rq));
	spin_unlock_irqrestore(&ad->lock, flags);
	return 0;
}

static const struct blk_mq_debugfs_attr as_debugfs_attrs[] = {
	{ "counters", 0400, as_counters_show },
	{ "dispatch", 0400, as_dispatch_list_show },
	{},
};
#endif

static struct elevator_type as_iosched = {
	.ops = {
		.init_sched		= as_init_sched,
		.exit_sched		= as_exit_sched,
		.init_hctx		= as_init_hctx,
		.exit_hctx		= as_exit_hctx,
		.depth_updated		= as_depth_updated,
		.limit_depth		= as_limit_depth,
		.bio_merge		= as_bio_merge,
		.request_merge		= as_request_merge,
		.request_merged		= as_request_merged,
		.requests_merged	= as_requests_merged,
		.prepare_request	= as_prepare_request,
		.finish_request		= as_finish_request,
		.insert_requests	= as_insert_requests,
		.dispatch_request	= as_dispatch_request,
		.has_work		= as_has_work_hctx,
		.completed_request	= as_completed_request,
		.requeue_request	= as_requeue_request,
		.init_icq		= as_init_icq,
		.exit_icq		= as_exit_icq,
	},
	.icq_size = sizeof(struct as_icq),
	.icq_align = __alignof__(struct as_icq),
	.elevator_attrs = as_attrs,
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = as_debugfs_attrs,
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
static bool as_attrs_match_table(void)
{
	const struct elv_fs_entry *a;
	int n = 0;

	for (a = as_attrs; a->attr.name; a++) {
		if (!a->store)
			continue;
		if (!as_tunable_find(a->attr.name))
			return false;
		n++;
	}
	return n == AS_NR_TUNABLES;
}

static int __init as_module_init(void)
{
	if (WARN_ON(!as_attrs_match_table()))
		return -EINVAL;
	return elv_register(&as_iosched);
}

static void __exit as_module_exit(void)
{
	elv_unregister(&as_iosched);
}

module_init(as_module_init);
module_exit(as_module_exit);

MODULE_AUTHOR("antic developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Anticipatory I/O scheduler");
