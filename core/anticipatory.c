// SPDX-License-Identifier: GPL-2.0
/*
 * anticipatory.c - the anticipatory policy, behaving as Linux 2.6.20-32's
 * AS did: deadline FIFOs checked once per expire interval, sync and async
 * batches with a self-tuning write batch, a one-way elevator allowing
 * short backward seeks, and a short wait after a sync request when the
 * issuing process is likely to send a nearby request soon.
 *
 * Written for antic from the documented behaviour; no code was taken
 * from the original.
 */
#include "anticipatory.h"

#define MS ANTIC_NSEC_PER_MSEC
const struct as_tunable_desc as_tunable_descs[AS_NR_TUNABLES] = {
	/* anticipation beyond a second is never worth it; 0 turns it off */
	{ "antic_expire", offsetof(struct as_tunables, antic_expire), 0, 1000,
	  MS },
	/* a deadline or batch of 0 would starve the other direction or spin */
	{ "read_expire", offsetof(struct as_tunables, read_expire), 1, 60000,
	  MS },
	{ "write_expire", offsetof(struct as_tunables, write_expire), 1, 60000,
	  MS },
	{ "read_batch_expire", offsetof(struct as_tunables, read_batch_expire),
	  1, 60000, MS },
	{ "write_batch_expire", offsetof(struct as_tunables, write_batch_expire),
	  1, 60000, MS },
	/* a switch: 0 gives AS's own rule back (a busy process is not waited on) */
	{ "antic_in_flight", offsetof(struct as_tunables, antic_in_flight),
	  0, 1, 1 },
	/* a count of requests; no drive queues more than blk-mq's tags */
	{ "write_bound", offsetof(struct as_tunables, write_bound), 0, 4096, 1 },
	/* 0 turns it off: sync writes then wait for read_expire as reads do */
	{ "sync_write_expire", offsetof(struct as_tunables, sync_write_expire),
	  0, 60000, MS },
	/* 0 turns it off: reads get the long batch whenever writes wait, as in AS */
	{ "share_window", offsetof(struct as_tunables, share_window),
	  0, 600000, MS },
	/* 0 turns it off: the elevator alone orders reads, as in AS */
	{ "newcomer_expire", offsetof(struct as_tunables, newcomer_expire),
	  0, 60000, MS },
	/* a count of requests; 0 turns it off */
	{ "newcomer_plug", offsetof(struct as_tunables, newcomer_plug),
	  0, 4096, 1 },
	/* ms; at most read_expire turns it off */
	{ "start_read_expire", offsetof(struct as_tunables, start_read_expire),
	  0, 60000, MS },
	/* ms, as mq-deadline's; 0 turns aging off (a lower class may starve) */
	{ "prio_aging_expire", offsetof(struct as_tunables, prio_aging_expire),
	  0, 600000, MS },
};
#undef MS

#define AS_CNT(name, field, what) \
	{ name, what, offsetof(struct as_counters, field) }
const struct as_counter_desc as_counter_descs[AS_NR_COUNTERS] = {
	AS_CNT("waits", antic_started, "anticipation waits started"),
	AS_CNT("ended_own", antic_end[AS_END_OWN],
	       "waits ended by the process's own next request"),
	AS_CNT("ended_close", antic_end[AS_END_CLOSE],
	       "waits ended by another process's close sync request"),
	AS_CNT("ended_timeout", antic_end[AS_END_TIMEOUT],
	       "waits that ran out (antic_expire)"),
	AS_CNT("ended_deadline", antic_end[AS_END_DEADLINE],
	       "waits ended by an expired FIFO or read batch"),
	AS_CNT("ended_exit", antic_end[AS_END_EXIT],
	       "waits ended because the process exited"),
	AS_CNT("ended_think", antic_end[AS_END_THINK],
	       "waits ended because the process thinks too long"),
	AS_CNT("ended_busy", antic_end[AS_END_BUSY],
	       "waits ended because the process has other requests out"),
	AS_CNT("ended_newcomer", antic_end[AS_END_NEWCOMER],
	       "waits ended by a newcomer's read"),
	AS_CNT("ended_far", antic_end[AS_END_FAR],
	       "waits on a far seeker ended by another process's sync request"),
	AS_CNT("ended_requeue", antic_end[AS_END_REQUEUE],
	       "waits ended because the drive gave the process's request back"),
	AS_CNT("ended_class", antic_end[AS_END_CLASS],
	       "waits ended by a request of a higher I/O priority class"),
	/*
	 * break_reason() never gives deadline for a wait not yet started
	 * (an expired FIFO is served before anticipation is considered):
	 * that slot stays 0 and is not shown.
	 */
	AS_CNT("declined_own", antic_declined[AS_END_OWN],
	       "waits not started: the process's next request was queued"),
	AS_CNT("declined_close", antic_declined[AS_END_CLOSE],
	       "waits not started: a close sync request was queued"),
	AS_CNT("declined_exit", antic_declined[AS_END_EXIT],
	       "waits not started: the process had exited"),
	AS_CNT("declined_think", antic_declined[AS_END_THINK],
	       "waits not started: the process thinks too long"),
	AS_CNT("declined_busy", antic_declined[AS_END_BUSY],
	       "waits not started: the process had other requests out"),
	AS_CNT("declined_newcomer", antic_declined[AS_END_NEWCOMER],
	       "waits not started: a newcomer's read was queued"),
	AS_CNT("declined_timeout", antic_declined[AS_END_TIMEOUT],
	       "waits not started: the process's last request was done antic_expire ago"),
	AS_CNT("declined_far", antic_declined[AS_END_FAR],
	       "waits not started: the process seeks far, another's sync request was queued"),
	AS_CNT("read_batches", batches[ANTIC_SYNC], "sync (read) batches"),
	AS_CNT("write_batches", batches[ANTIC_ASYNC], "async (write) batches"),
	AS_CNT("read_dispatched", dispatched[ANTIC_SYNC],
	       "sync requests dispatched"),
	AS_CNT("write_dispatched", dispatched[ANTIC_ASYNC],
	       "async requests dispatched"),
	AS_CNT("read_expired", fifo_expired[ANTIC_SYNC],
	       "sync FIFO found past read_expire"),
	AS_CNT("write_expired", fifo_expired[ANTIC_ASYNC],
	       "async FIFO found past write_expire"),
	AS_CNT("seeks", seeks, "dispatches not contiguous with the last"),
	AS_CNT("seek_sectors", seek_sectors, "total distance of those seeks"),
	AS_CNT("back_seeks", back_seeks, "those seeks that went backwards"),
	AS_CNT("waits_in_flight", waits_in_flight,
	       "waits kept while the process's own requests were at the drive"),
	AS_CNT("writes_kept", writes_kept,
	       "times a write batch was kept, its queue empty, its writes at the drive"),
	AS_CNT("drains_to_k", drains_to_k,
	       "read batches that waited for the writes at the drive to fall to K"),
	AS_CNT("k_lowered", k_lowered, "times slow loaded reads lowered K"),
	AS_CNT("k_raised", k_raised, "times fast loaded reads raised K"),
	AS_CNT("write_k", write_k,
	       "K now: the most writes at the drive when a read batch starts"),
	AS_CNT("write_k_min", write_k_min, "the lowest K has been"),
	AS_CNT("write_k_max", write_k_max, "the highest K has been"),
	AS_CNT("sync_writes_early", sync_writes_early,
	       "another process's sync writes served at sync_write_expire"),
	AS_CNT("write_batches_long", write_batches_long,
	       "write batches given read_batch_expire: writes had less of the disk"),
	AS_CNT("read_batches_short", read_batches_short,
	       "read batches cut to write_batch_expire: reads had more of the disk"),
	AS_CNT("newcomer_reads", newcomer_reads,
	       "newcomers' reads served ahead of the elevator's choice"),
	AS_CNT("newcomer_plugs", newcomer_plugs,
	       "times dispatch stopped for an active newcomer"),
	AS_CNT("newcomer_tags", newcomer_tags,
	       "reads of processes not favoured given part of the tags for a start"),
	AS_CNT("newcomer_yields", newcomer_yields,
	       "newcomers' reads that yielded to a later newcomer"),
	AS_CNT("newcomer_cuts", newcomer_cuts,
	       "times a write batch was cut short for a program starting"),
	AS_CNT("start_fifo_waits", start_fifo_waits,
	       "looks at the read FIFO that left a load's expired read for a program starting"),
	AS_CNT("requeues", requeues,
	       "dispatched requests the drive gave back (requeued)"),
	AS_CNT("rt_dispatched", rt_dispatched,
	       "real-time class requests dispatched"),
	AS_CNT("idle_dispatched", idle_dispatched,
	       "idle class requests dispatched"),
	AS_CNT("aged_dispatched", aged_dispatched,
	       "requests of a lower class sent first, past prio_aging_expire"),
	AS_CNT("direct_writes", direct_writes,
	       "O_DIRECT writes dispatched (no wait follows them, none is sent early)"),
	AS_CNT("direct_deferred", direct_deferred,
	       "reads sent before the nearest O_DIRECT write, its allowance spent"),
};
#undef AS_CNT

const struct as_tunable_desc *as_tunable_find(const char *name)
{
	size_t i;

	for (i = 0; i < AS_NR_TUNABLES; i++)
		if (antic_streq(as_tunable_descs[i].name, name))
			return &as_tunable_descs[i];
	return NULL;
}

void as_fit_device(struct as_tunables *t, bool rotational)
{
	/* a seek-free device gains nothing from waiting, nor loses by seeking */
	if (!rotational) {
		t->antic_expire = 0;
		t->start_read_expire = 0;
	}
}

void as_default_tunables(struct as_tunables *t, bool rotational)
{
	t->antic_expire = 6 * ANTIC_NSEC_PER_MSEC;
	t->read_expire = 125 * ANTIC_NSEC_PER_MSEC;
	t->write_expire = 250 * ANTIC_NSEC_PER_MSEC;
	t->read_batch_expire = 500 * ANTIC_NSEC_PER_MSEC;
	t->write_batch_expire = 125 * ANTIC_NSEC_PER_MSEC;
	t->antic_in_flight = 1;
	t->write_bound = 32;
	t->sync_write_expire = 20 * ANTIC_NSEC_PER_MSEC;
	t->share_window = 60000 * ANTIC_NSEC_PER_MSEC;	/* a minute of history */
	t->newcomer_expire = 8000 * ANTIC_NSEC_PER_MSEC;
	t->newcomer_plug = 2;
	t->start_read_expire = 1000 * ANTIC_NSEC_PER_MSEC;
	t->prio_aging_expire = 10000 * ANTIC_NSEC_PER_MSEC;	/* mq-deadline's */
	as_fit_device(t, rotational);
}

static u32 initial_write_batch(const struct as_tunables *t)
{
	/* one write per 10 ms of batch budget, as a starting guess */
	u64 n = antic_div64(t->write_batch_expire, 10 * ANTIC_NSEC_PER_MSEC);

	return n < 2 ? 2 : (u32)antic_min64(n, 1U << 16);
}

void as_init(struct as_sched *as, const struct as_tunables *t)
{
	int c, d;

	*as = (struct as_sched){ 0 };
	as->tun = *t;
	for (c = 0; c < ANTIC_NR_CLASSES; c++)
		for (d = 0; d < ANTIC_NR_DIRS; d++)
			antic_queue_init(&as->q[c][d]);
	as->batch_dir = ANTIC_SYNC;
	as->write_batch_count = initial_write_batch(t);
	as->write_k = AS_WRITE_K_START;
	as->cnt.write_k = as->cnt.write_k_min = as->cnt.write_k_max =
		as->write_k;
}

void as_set_tunables(struct as_sched *as, const struct as_tunables *t)
{
	/* rule 3's next early write: sync_write_expire after the last, as now set */
	if (as->early_until)
		as->early_until += t->sync_write_expire - as->tun.sync_write_expire;
	as->tun = *t;
	as->holding = false;	/* a kept write batch is judged afresh */
}

/* Requests of @class queued. */
static u32 class_queued(const struct as_sched *as, int class)
{
	const struct antic_queue *q = as->q[class];

	return q[ANTIC_SYNC].count + q[ANTIC_ASYNC].count;
}

/* Best-effort requests queued: the queues the batches and the elevator serve. */
static u32 be_queued(const struct as_sched *as)
{
	return class_queued(as, ANTIC_CLASS_BE);
}

u32 as_queued(const struct as_sched *as)
{
	return be_queued(as) + class_queued(as, ANTIC_CLASS_RT) +
	       class_queued(as, ANTIC_CLASS_IDLE);
}

/* The queue that holds @rq: its class's, by direction (rq->queue). */
static struct antic_queue *home(struct as_sched *as, const struct antic_rq *rq)
{
	return &as->q[rq->prio_class][rq->queue];
}

/* @rq leaves its queue (to the drive, or merged away). */
static inline ANTIC_INLINE void queue_del(struct as_sched *as,
					  struct antic_rq *rq)
{
	antic_queue_del(home(as, rq), rq);
	if (rq->prio_class != ANTIC_CLASS_BE)
		ANTIC_DEC(as->other_class_queued);
	else if (rq->direct)
		ANTIC_DEC(as->direct_queued);
}

/*
 * One 7/8-decayed fixed-point sample, the statistic every mean here uses:
 * @samples and @total in 256ths, so that the mean is (total + 128) /
 * samples.
 */
static void decay(u32 *samples, u64 *total, u64 x)
{
	*samples = (7 * *samples + 256) / 8;
	*total = (7 * *total + 256 * x) / 8;
}

static void decay_sample(u32 *samples, u64 *total, u64 *mean, u64 x)
{
	decay(samples, total, x);
	*mean = antic_div64(*total + 128, *samples);
}

/* The priors: 7/8-decayed means over first samples, their totals in 256ths. */
static inline u64 new_ttime_mean(const struct as_sched *as)
{
	return as->new_ttime_total / 256;
}

static inline u64 new_seek_mean(const struct as_sched *as)
{
	return as->new_seek_total / 256;
}

static u32 decay_prob(u32 p, bool hit)
{
	return (7 * p + (hit ? 256 : 0)) / 8;
}

static void update_history(struct as_sched *as, struct antic_proc *p,
			   const struct antic_rq *rq, u64 now)
{
	/* think time only means something when the process was waiting on us */
	if (p->have_completion && !p->nr_queued && !p->nr_in_flight) {
		u64 think = antic_min64(now - p->last_completion,
					AS_MAX_THINKTIME);

		if (!p->ttime_samples) {
			as->new_ttime_total =
				(7 * as->new_ttime_total + 256 * think) / 8;
		}
		decay_sample(&p->ttime_samples, &p->ttime_total,
			     &p->ttime_mean, think);
	}
	if (p->have_pos) {
		u64 dist = antic_absdiff(rq->sector, p->last_pos);
		/* one wild seek must not swamp a long history */
		u64 limit = 4 * p->seek_mean +
			    (p->seek_samples <= 60 ? 2048ULL * 1024 :
						     128ULL * 1024);

		dist = antic_min64(dist, limit);
		if (!p->seek_samples) {
			as->new_seek_total =
				(7 * as->new_seek_total + 256 * dist) / 8;
		}
		decay_sample(&p->seek_samples, &p->seek_total, &p->seek_mean,
			     dist);
	}
	p->last_pos = antic_rq_end(rq);
	p->have_pos = true;
}

static bool waiting(const struct as_sched *as)
{
	return as->antic_state == AS_ANTIC_WAIT_REQ ||
	       as->antic_state == AS_ANTIC_WAIT_NEXT;
}

static u64 wait_deadline(const struct as_sched *as)
{
	return as->antic_start + as->tun.antic_expire;
}

/* Is @rq close to where P left the head, given how long P has been done? */
static bool close_to_head(const struct as_sched *as,
			  const struct antic_proc *p,
			  const struct antic_rq *rq, u64 now)
{
	u64 dist = antic_absdiff(rq->sector, as->last_end[ANTIC_SYNC]);
	u64 radius = AS_CLOSE_START;
	u64 seek_mean;

	if (as->antic_state == AS_ANTIC_WAIT_NEXT && now > as->antic_start) {
		u64 ms = antic_div64(now - as->antic_start,
				     ANTIC_NSEC_PER_MSEC);

		if (ms >= AS_MAX_THINKTIME / ANTIC_NSEC_PER_MSEC)
			return true;
		radius <<= ms;
	}
	if (dist <= radius)
		return true;
	/* a request nearer than P's own next one usually is, is as good */
	seek_mean = p->seek_samples ? p->seek_mean : new_seek_mean(as);
	return dist <= seek_mean;
}

/* ---- the newcomer favour (docs/design.md) ---- */

/*
 * Is @p a newcomer: its favour began (newcomer_note) less than
 * newcomer_expire ago, it has budget left, and it has not exited (the
 * host frees an exited process once its requests are done, so
 * as->newcomer must never point at one)?
 * Times compare in add-form: a host may stamp a request a little before
 * a completion it did not yet see (the kernel reads the clock before
 * taking the lock). Inline: as_add asks it of every read.
 */
static inline bool newcomer(const struct as_sched *as,
			    const struct antic_proc *p, u64 now)
{
	return as->tun.newcomer_expire && p->have_first && !p->exited &&
	       p->boost_left && now < p->first_seen + as->tun.newcomer_expire;
}

/*
 * Is @p at work: a request of its queued or at the drive, or one
 * completed within @span?
 */
static bool at_work(const struct antic_proc *p, u64 now, u64 span)
{
	return p->nr_queued || p->nr_in_flight ||
	       (p->have_completion && now < p->last_completion + span);
}

/*
 * Is a boosted process at work: a favoured read queued or at the drive,
 * or one completed within AS_MAX_THINKTIME (beyond which it would not be
 * waited on either)? Any process of the start counts, not only the one
 * that opened it: a program's worker may read on after it.
 */
static bool boost_active(const struct as_sched *as, u64 now)
{
	return as->new_queued || as->new_in_flight ||
	       (as->boost_busy && now < as->boost_busy + AS_MAX_THINKTIME);
}

/*
 * Is @p favoured: a newcomer not outranked by a later start? The latest
 * start (as->newcomer, the process that began it) outranks every
 * newcomer whose favour began AS_NEWCOMER_SETTLE or more before its own,
 * for as long as its own favour lasts: a program started beside a load
 * goes before the load, though the load's processes are newcomers too.
 */
static inline bool favoured(const struct as_sched *as,
			    const struct antic_proc *p, u64 now)
{
	const struct antic_proc *np = as->newcomer;

	return newcomer(as, p, now) &&
	       !(np && np != p &&
		 p->first_seen + AS_NEWCOMER_SETTLE <= np->first_seen &&
		 newcomer(as, np, now));
}

/*
 * Is a program starting: the latest start's favour runs and a favoured
 * process is at work (boost_active)? While one is, the writes' claims on the disk wait: no
 * write batch owed by the share rule, no read batch cut for one, and a
 * kept write batch (rule 1's other half) ends once a newcomer has a read
 * queued. Those claims are for a writer that shares the disk for
 * minutes; a start-up lasts seconds. A streamer started beside a writer
 * spends its budget within seconds and makes those claims count again.
 */
static bool program_starts(const struct as_sched *as, u64 now)
{
	const struct antic_proc *np = as->newcomer;

	return np && newcomer(as, np, now) && boost_active(as, now);
}

/* Some processes lost the favour: their queued reads lose their turn. */
static void unfavour(struct as_sched *as, u64 now)
{
	struct antic_rq *rq;
	u32 left = as->new_queued;

	/* from the tail, where newcomers' reads are, until all are seen */
	for (rq = as->q[ANTIC_CLASS_BE][ANTIC_SYNC].fifo_tail; rq && left; rq = rq->fifo_prev) {
		if (!rq->newcomer)
			continue;
		left--;
		if (rq->proc && !favoured(as, rq->proc, now)) {
			rq->newcomer = false;
			ANTIC_DEC(as->new_queued);
		}
	}
}

/*
 * @p's sync read at @now: its favour begins at its first read, or at its
 * first after AS_NEWCOMER_IDLE with nothing queued, at the drive or
 * completed, with a full budget. Not if the tag rule limited this read:
 * however long it took to get a tag, @p was waiting, not silent, and
 * would otherwise begin a start that outranks the program it was held
 * for. The note is the next read's, not a time: a completion of another
 * of @p's requests may come between the limit and the read's arrival.
 */
static void newcomer_note(struct antic_proc *p, u64 now)
{
	bool held = p->tag_held;

	p->tag_held = false;
	if (p->have_first &&
	    (held || !p->have_completion || at_work(p, now, AS_NEWCOMER_IDLE)))
		return;
	p->have_first = true;
	p->first_seen = now;
	p->boost_left = AS_BOOST_BUDGET;
}

/*
 * The latest start (favoured()): a favoured read's process begins a new
 * one when its favour began AS_NEWCOMER_SETTLE or more after the current
 * start's, or when there is none; else it is part of the current one.
 * None once that start's favour is over, so that the host's tag check
 * (as_newcomer_limits_tags) finds no newcomer without reading a clock.
 */
static void newcomer_track(struct as_sched *as, const struct antic_rq *rq,
			   u64 now)
{
	struct antic_proc *np = as->newcomer;

	if (np && !newcomer(as, np, now))
		np = NULL;
	if (rq->newcomer &&
	    (!np || rq->proc->first_seen >= np->first_seen + AS_NEWCOMER_SETTLE))
		np = rq->proc;
	/* the same one, unless back from idle (a new start) or retuned */
	if (np == as->newcomer &&
	    (!np || as->newcomer_until == np->first_seen +
					  as->tun.newcomer_expire))
		return;
	as->newcomer = np;
	if (np) {
		as->newcomer_until = np->first_seen + as->tun.newcomer_expire;
		unfavour(as, now);	/* the ones it outranks */
	} else {
		as->newcomer_until = 0;	/* its favour is over */
	}
}

/*
 * The oldest read a newcomer queued (new_queued says how many there are):
 * a walk back from the FIFO's tail, where newcomers' reads are, until
 * all of them are seen.
 */
static struct antic_rq *newcomer_next(const struct as_sched *as)
{
	struct antic_rq *rq, *oldest = NULL;
	u32 left = as->new_queued;

	for (rq = as->q[ANTIC_CLASS_BE][ANTIC_SYNC].fifo_tail; rq && left; rq = rq->fifo_prev) {
		if (rq->newcomer) {
			oldest = rq;
			left--;
		}
	}
	return oldest;
}

/*
 * The newcomer both halves of the plug act for, or NULL: the plug is on
 * and, as a kept write batch, only where reads are anticipated (a disk),
 * and where there is something to hold: @room, a drive that queues for
 * the dispatch half (at depth 1 nothing else is there), tags enough to
 * share for the tag half.
 */
static const struct antic_proc *plug_newcomer(const struct as_sched *as,
					      bool room, u64 now)
{
	const struct antic_proc *np = as->newcomer;

	if (!np || !as->tun.newcomer_plug || !as->tun.antic_expire ||
	    !room || !newcomer(as, np, now))
		return NULL;
	return np;
}

/*
 * The newcomer plug: @rq, a read of a process not favoured, waits while
 * a program starts (program_starts) and the drive already holds
 * newcomer_plug sync requests of processes other than the start's
 * first. At depth 32 the drive's slots
 * fill with streamers' read-ahead, and the newcomer's next read, though
 * it goes first here, then waits behind all of them at the drive.
 * Holding needs no timer: the requests at the drive complete, and each
 * completion reruns dispatch.
 */
static bool newcomer_plugs(const struct as_sched *as,
			   const struct antic_rq *rq, u64 now)
{
	const struct antic_proc *np;
	u32 others;

	if (!rq || rq->write || rq->newcomer)
		return false;
	np = plug_newcomer(as, as->drive_queues, now);
	if (!np)
		return false;
	if (!boost_active(as, now))
		return false;
	others = as->in_flight[ANTIC_SYNC] -
		 antic_min64(np->nr_sync_in_flight, as->in_flight[ANTIC_SYNC]);
	return others >= as->tun.newcomer_plug;
}

bool as_newcomer_limits_tags(struct as_sched *as, struct antic_proc *p,
			     u32 tags, u64 now)
{
	/*
	 * A process yet to read is as new as any: its first read is not
	 * held. Tags enough to share: at depth 1 a drive never queues, but
	 * the host may still hand out many tags (hddsim at depth 1: 64, all
	 * of which ten readers' read-ahead can take); with the two a depth-1
	 * device gets from 6.18 on, the readers would be left one.
	 */
	if (!p || !p->have_first || favoured(as, p, now) ||
	    !plug_newcomer(as, as->drive_queues || tags >= AS_TAGS_SHARED,
			   now))
		return false;
	as->cnt.newcomer_tags++;
	p->tag_held = true;
	return true;
}

/* ---- the depth-32 rules: helpers (docs/design.md) ---- */

/*
 * The read batch has run its time (timed from its first completion) and
 * writes wait for the disk: with none, a batch has nothing to yield to.
 */
static bool read_batch_over(const struct as_sched *as, u64 now)
{
	return as->batch_dir == ANTIC_SYNC && !as->new_batch &&
	       !as->changed_batch && now > as->batch_expires &&
	       !antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_ASYNC]);
}

/*
 * Rule 1: P has requests at the drive and nothing of its own queued, and
 * no sync request (@rq) could be served instead. With NCQ its read-ahead
 * sits in the drive while the queue is empty; its completion brings P's
 * next request, so giving the disk to writes now would only put them in
 * front of it. Bounded by the read batch, as any wait is. A newcomer
 * keeps it from other processes' reads too (its read-ahead is what a
 * person waits for), never from a sync write: a journal commit, say,
 * may be what the newcomer itself waits on.
 */
static bool in_flight_keeps(const struct as_sched *as,
			    const struct antic_proc *p,
			    const struct antic_rq *rq, u64 now)
{
	return as->tun.antic_in_flight && p->nr_in_flight && !p->nr_queued &&
	       (!(rq && rq->sync) || (!rq->write && favoured(as, p, now))) &&
	       !read_batch_over(as, now);
}

/*
 * Where the drive queues, a wait on a far seeker (P's own sync requests
 * on average more than AS_FAR_SEEK apart) keeps nothing worth keeping
 * from other reads: P's next read lands anywhere, so the drive may as
 * well hold another process's sync request too and pick the nearer. The
 * wait ends for such a request (@rq), which the read batch then serves;
 * async writes stay out as before. Not where it would jump a favour:
 * while a newcomer's favour runs (or P's), only a favoured process's
 * read ends the wait, so a favoured P gives way to its peers only.
 * Nearer seekers (a program's processes, their reads tens of MiB apart)
 * keep their waits: their next reads are near enough to be worth it.
 */
static bool far_seeker_yields(const struct as_sched *as,
			      const struct antic_proc *p,
			      const struct antic_rq *rq, u64 now)
{
	if (!as->drive_queues || !rq->sync || !p->seek_samples ||
	    p->seek_mean <= AS_FAR_SEEK)
		return false;
	/*
	 * A favour runs while the latest newcomer's does (newcomer_until,
	 * kept past its exit: a start's workers read on) or P's own does.
	 */
	return rq->newcomer ||
	       !(now < as->newcomer_until || favoured(as, p, now));
}

static u32 write_k(const struct as_sched *as)
{
	return (u32)antic_min64(as->write_k, as->tun.write_bound);
}

/*
 * The drain before a change of direction is over. Rule 2: reads may
 * start with up to K writes still at the drive; writes start only once
 * every read is done, so a read never shares the drive with more than K
 * writes. Inside a write batch its writes go at full depth: the reads
 * queued meanwhile wait for the batch's end however many writes the drive
 * holds, and the drain down to K lengthens the write batch as
 * tune_write_batch measures it (to the first read's completion), though
 * a batch whose queue ran dry, as most at depth 32 do, is not shrunk for
 * it: charging those cut the writer's share further (write-vs-read on
 * ide2003 kept 9 % of the writer's bandwidth instead of 13 %). Holding
 * them at K inside the batch as well, as the rule first did, cost the
 * writer half its share: on a write-through disk K falls to 1 and each
 * write then waits a revolution for the one before (read-vs-fsync at depth
 * 32 on ide2003 in antic-sim: 28.0 s with the hold, 17.7 s without). At
 * depth 1 nothing is at the drive when dispatch is called, so this is
 * AS's own full drain.
 */
static bool drained(const struct as_sched *as)
{
	if (!as_at_drive(as))
		return true;
	return as->batch_dir == ANTIC_SYNC && as->tun.write_bound &&
	       !as->in_flight[ANTIC_SYNC] &&
	       as->in_flight[ANTIC_ASYNC] <= write_k(as);
}

static void set_write_k(struct as_sched *as, u32 k)
{
	as->write_k = k;
	as->cnt.write_k = k;
	if (k < as->cnt.write_k_min)
		as->cnt.write_k_min = k;
	if (k > as->cnt.write_k_max)
		as->cnt.write_k_max = k;
}

/*
 * Rule 2's tuning, at each read's completion. The base is the mean
 * service time (dispatch to completion) of reads sent while no write was
 * at the drive; reads sent beside writes feed a second mean. When that
 * one runs well above the base (writes in the drive are delaying reads),
 * K falls by one; when it stays near the base (the writes cost little, as
 * with a write cache), K rises by one. Means rather than single samples,
 * so that a drive-cache hit among media reads judges nothing.
 */
static void tune_write_k(struct as_sched *as, const struct antic_rq *rq,
			 u64 now)
{
	u64 t = now - rq->dispatch_time;
	u32 k = write_k(as);
	u64 loaded, base;

	if (!as->tun.write_bound || rq->write || rq->queue != ANTIC_SYNC)
		return;
	if (!rq->loaded) {
		decay(&as->base_samples, &as->base_total, t);
		return;
	}
	if (!as->base_samples)
		return;		/* nothing to judge against yet */
	decay(&as->loaded_samples, &as->loaded_total, t);
	loaded = antic_div64(as->loaded_total + 128, as->loaded_samples);
	base = antic_div64(as->base_total + 128, as->base_samples);
	if (4 * loaded > AS_K_SLOW_X4 * base) {
		if (k > 1) {
			set_write_k(as, k - 1);
			as->cnt.k_lowered++;
		}
	} else if (4 * loaded < AS_K_FAST_X4 * base) {
		if (k < as->tun.write_bound) {
			set_write_k(as, k + 1);
			as->cnt.k_raised++;
		}
	}
}

/*
 * Rule 3: the oldest sync write of a process other than P (the one being
 * served) that has waited sync_write_expire, or NULL: writeback that a
 * process waits on (an fsync, a journal commit). Not an O_DIRECT write:
 * its writer sends one after another, and each sent early would take
 * the disk from P every sync_write_expire for as long as the writer
 * writes. Only while the disk would stay with P (@next, the elevator's
 * choice, is P's, or there is none and P may be waited on), and at most
 * once per sync_write_expire: once served, the elevator carries on from
 * that write with its neighbours, so one is enough to turn to an fsync,
 * and processes that all write sync I/O are not served in FIFO order.
 * The sync FIFO is in arrival order, so the walk stops at the first
 * request too young; it is also capped, so a long queue costs a bounded
 * look.
 */
#define AS_SYNC_WRITE_LOOK 64
static struct antic_rq *overdue_sync_write(const struct as_sched *as,
					   const struct antic_rq *next,
					   u64 now)
{
	u64 bound = as->tun.sync_write_expire;
	struct antic_rq *rq = as->q[ANTIC_CLASS_BE][ANTIC_SYNC].fifo_head;
	int n;

	if (!bound || !as->antic_proc || (next && next->proc != as->antic_proc))
		return NULL;
	if (now < as->early_until)
		return NULL;
	for (n = 0; rq && n < AS_SYNC_WRITE_LOOK; n++, rq = rq->fifo_next) {
		if (rq->add_time + as->tun.sync_write_expire > now)
			return NULL;
		if (rq->write && !rq->direct && rq->proc != as->antic_proc)
			return rq;
	}
	return NULL;
}

/*
 * The reason the wait on P should end, or not (-1). @rq is a request that
 * might be served instead, or NULL. Pure apart from cooperation counting.
 */
static int break_reason(struct as_sched *as, const struct antic_rq *rq,
			u64 now)
{
	struct antic_proc *p = as->antic_proc;
	u32 others;

	if (!p)
		return AS_END_THINK;
	if (as->antic_state == AS_ANTIC_WAIT_NEXT && now >= wait_deadline(as))
		return AS_END_TIMEOUT;
	if (rq && rq->proc == p)
		return AS_END_OWN;
	/*
	 * Not yet waiting, and P's last request (of either class) completed
	 * antic_expire ago or more: a wait timed from then, as 2.6's was
	 * (ioc_finished, antic_start), would be over, and P has thought
	 * longer than any wait would give it. Timed from the dispatch that
	 * decides it instead, a read arriving after the disk had idled
	 * waited antic_expire for a process silent for seconds.
	 */
	if (as->antic_state == AS_ANTIC_OFF && as->antic_rq_done &&
	    p->have_completion && !p->nr_in_flight &&
	    now >= p->last_completion + as->tun.antic_expire)
		return AS_END_TIMEOUT;
	/*
	 * an exited P is judged by the exit statistics below; a real-time P
	 * outranks any newcomer (the favour is best effort's order)
	 */
	if (rq && rq->newcomer && as->tun.newcomer_expire && !p->exited &&
	    as->antic_class == ANTIC_CLASS_BE && !favoured(as, p, now))
		return AS_END_NEWCOMER;
	others = p->nr_queued + p->nr_in_flight;
	if (!as->antic_rq_done && others)
		others--;	/* the request being waited on */
	if (others)
		return in_flight_keeps(as, p, rq, now) ? -1 : AS_END_BUSY;
	if (rq && rq->sync && close_to_head(as, p, rq, now))
		return AS_END_CLOSE;
	if (rq && far_seeker_yields(as, p, rq, now))
		return AS_END_FAR;
	if (p->exited)
		return as->exit_no_coop > 128 ? AS_END_EXIT : -1;
	if (!p->ttime_samples) {
		if (new_ttime_mean(as) > as->tun.antic_expire)
			return AS_END_THINK;
		if (as->exit_prob * as->exit_no_coop > 128 * 256)
			return AS_END_THINK;
	} else if (p->ttime_mean > as->tun.antic_expire) {
		return AS_END_THINK;
	}
	return -1;
}

static void end_wait(struct as_sched *as, int reason)
{
	const struct antic_proc *p = as->antic_proc;

	as->cnt.antic_end[reason]++;
	as->antic_state = AS_ANTIC_FINISHED;
	if (!p)
		return;
	/* a silent new process probably went away, as an exited one did */
	as->exit_prob = decay_prob(as->exit_prob,
				   p->exited || (reason == AS_END_TIMEOUT &&
						 !p->ttime_samples));
	/* an early EXIT gathered no evidence about cooperators either way */
	if (p->exited && reason != AS_END_EXIT)
		as->exit_no_coop = decay_prob(as->exit_no_coop,
					      reason != AS_END_CLOSE);
}

static void wait_next(struct as_sched *as, u64 now)
{
	as->antic_state = AS_ANTIC_WAIT_NEXT;
	as->antic_start = now;
}

/*
 * A real-time or idle-class request: queued in its class's queues, in the
 * process's history as any other. The idle class touches no wait and no
 * batch: it goes only when the disk is free of the others. A real-time
 * one ends a wait on a process of a lower class at once; a wait on a
 * real-time process it may end as any other request would.
 */
static void class_add(struct as_sched *as, struct antic_rq *rq, u64 now)
{
	int dir = rq->sync ? ANTIC_SYNC : ANTIC_ASYNC;

	antic_queue_admit(&as->q[rq->prio_class][dir], rq, as->seq++,
			  now, dir == ANTIC_SYNC ? as->tun.read_expire :
						   as->tun.write_expire, (u8)dir);
	as->other_class_queued++;
	rq->newcomer = false;
	if (rq->proc) {
		if (rq->sync)
			update_history(as, rq->proc, rq, now);
		rq->proc->nr_queued++;
	}
	if (rq->prio_class == ANTIC_CLASS_IDLE)
		return;
	as->other_busy = now;
	as->idle_open = false;
	if (waiting(as)) {
		int reason = as->antic_class == ANTIC_CLASS_RT ?
				     break_reason(as, rq, now) : AS_END_CLASS;

		if (reason >= 0)
			end_wait(as, reason);
	}
}

void as_add(struct as_sched *as, struct antic_rq *rq, u64 now)
{
	int dir = rq->sync ? ANTIC_SYNC : ANTIC_ASYNC;

	if (ANTIC_WARN_ON(rq->prio_class >= ANTIC_NR_CLASSES))
		rq->prio_class = ANTIC_CLASS_BE;
	if (rq->prio_class != ANTIC_CLASS_BE) {
		class_add(as, rq, now);
		return;
	}
	as->other_busy = now;
	as->idle_open = false;
	antic_queue_admit(&as->q[ANTIC_CLASS_BE][dir], rq, as->seq++, now,
			  dir == ANTIC_SYNC ? as->tun.read_expire :
					      as->tun.write_expire, (u8)dir);
	as->direct_queued += rq->direct;
	rq->newcomer = false;
	if (rq->proc) {
		/* the queue's order does not enter the process's history */
		if (rq->sync)
			update_history(as, rq->proc, rq, now);
		if (rq->sync && !rq->write) {
			newcomer_note(rq->proc, now);
			rq->newcomer = favoured(as, rq->proc, now);
			as->new_queued += rq->newcomer;
			if (!rq->newcomer && as->newcomer &&
			    newcomer(as, rq->proc, now))
				as->cnt.newcomer_yields++;
			newcomer_track(as, rq, now);
		}
		rq->proc->nr_queued++;
	}
	/* a kept write batch has one to send, or may end for this read */
	if (dir == ANTIC_ASYNC || (rq->newcomer && program_starts(as, now)))
		as->holding = false;
	as->plugged = false;
	if (waiting(as)) {
		int reason = break_reason(as, rq, now);

		if (reason >= 0)
			end_wait(as, reason);
	}
}

/*
 * A wait on requests at the drive (rule 1 keeps those going while P has
 * several there) ends with the read batch; the timer is set for it.
 */
static bool wait_req_timed(const struct as_sched *as)
{
	return as->antic_state == AS_ANTIC_WAIT_REQ && as->tun.antic_in_flight &&
	       as->batch_dir == ANTIC_SYNC && !as->new_batch &&
	       !as->changed_batch && !antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_ASYNC]);
}

static bool idle_may_go(struct as_sched *as, u64 now);

void as_handle_expiry(struct as_sched *as, u64 now)
{
	if (as->antic_state == AS_ANTIC_WAIT_NEXT && now >= wait_deadline(as))
		end_wait(as, AS_END_TIMEOUT);
	else if (wait_req_timed(as) && now > as->batch_expires)
		end_wait(as, AS_END_DEADLINE);
	if (as->other_class_queued && class_queued(as, ANTIC_CLASS_IDLE))
		idle_may_go(as, now);
}

/*
 * Is @rq a read of the load a program starts beside: a read of no
 * process or of one not favoured (favoured())? A sync write is none:
 * rule 3 (sync_write_expire) has it.
 */
static bool load_read(const struct as_sched *as, const struct antic_rq *rq,
		      u64 now)
{
	const struct antic_proc *p = rq->proc;

	return !rq->write && !(p && favoured(as, p, now));
}

/*
 * While a program starts, the sync FIFO sends a read of the load (past
 * read_expire) only once it is start_read_expire old, and
 * start_read_expire after the FIFO last sent one of the load's; and
 * once it is newcomer_expire old whatever starts, which bounds the wait
 * of a load's read however many programs start one after another. Else
 * the FIFO would send the disk to a load's read every read_expire, far
 * from the program's, and the elevator on from there. Only while a
 * program starts: elsewhere read_expire bounds every read.
 */
static bool start_fifo_wait(const struct as_sched *as,
			    const struct antic_rq *head, u64 now)
{
	u64 sre = as->tun.start_read_expire;

	return sre > as->tun.read_expire && load_read(as, head, now) &&
	       program_starts(as, now) &&
	       now <= head->add_time + as->tun.newcomer_expire &&
	       (now <= head->add_time + sre ||
		now < as->last_fifo_read + sre);
}

/*
 * The oldest expired read behind a load's read that the FIFO holds back,
 * of a favoured process: the start's own reads past read_expire go at
 * the FIFO's look, as any read's would, while the load's wait. Walks
 * the expired reads only, once per read_expire.
 */
static struct antic_rq *start_fifo_next(const struct as_sched *as,
					struct antic_rq *head, u64 now)
{
	struct antic_rq *rq;

	for (rq = head->fifo_next; rq && now > rq->fifo_time; rq = rq->fifo_next)
		if (!load_read(as, rq, now))
			return rq;
	return NULL;
}

/*
 * check_fifo's look, once its period has passed: out of line, so that
 * the dispatches before then (most of them) make no call.
 */
static ANTIC_NOINLINE struct antic_rq *fifo_look(struct as_sched *as, int dir,
						 u64 now)
{
	struct antic_rq *head = as->q[ANTIC_CLASS_BE][dir].fifo_head;

	as->last_check_fifo[dir] = now;
	if (!head || now <= head->fifo_time)
		return NULL;
	if (dir == ANTIC_SYNC && start_fifo_wait(as, head, now)) {
		as->cnt.start_fifo_waits++;
		head = start_fifo_next(as, head, now);
		if (!head)
			return NULL;
	} else if (dir == ANTIC_SYNC && load_read(as, head, now)) {
		as->last_fifo_read = now;
	}
	as->cnt.fifo_expired[dir]++;
	return head;
}

/*
 * Look at @dir's FIFO, at most once per expire period: the request to
 * serve when its head is past its deadline (while a program starts, maybe
 * another: start_fifo_wait), else NULL. Looking is an action (it is
 * remembered, and an expiry counted), hence not a pure "fifo_expired()".
 */
static inline struct antic_rq *check_fifo(struct as_sched *as, int dir, u64 now)
{
	u64 expire = dir == ANTIC_SYNC ? as->tun.read_expire :
					 as->tun.write_expire;

	/* looking at the FIFO on every dispatch would defeat the elevator */
	if (now < as->last_check_fifo[dir] + expire)
		return NULL;
	return fifo_look(as, dir, now);
}

static bool batch_expired(const struct as_sched *as, u64 now)
{
	if (as->changed_batch || as->new_batch)
		return false;
	if (as->batch_dir == ANTIC_SYNC)
		return now > as->batch_expires;
	return now > as->batch_expires || !as->current_write_count;
}

/*
 * Rule 1's other half (antic_in_flight): a write batch whose queue is
 * empty while its writes are at the drive is not over. At depth 32 the
 * flusher, throttled by wbt, sends a few writes at a time and the next
 * only as those complete; ending the batch whenever they are all at the
 * drive gave the writer a handful of requests per 625 ms cycle. Kept
 * until its last write completes or, once it has expired, the next one
 * does (a completion is never far: writes are at the drive). Only where
 * reads are anticipated too (antic_expire): with no wait to keep a read batch
 * going (an SSD), kept write batches took the reader's turns (a cat
 * beside a writer, 0.55 s -> 12.7 s).
 */
static bool keep_write_batch(const struct as_sched *as, bool writes, u64 now)
{
	return as->tun.antic_in_flight && as->tun.antic_expire &&
	       as->batch_dir == ANTIC_ASYNC &&
	       !writes && as->in_flight[ANTIC_ASYNC] && !batch_expired(as, now);
}

/* The elevator: nearest ahead, or a short way back at double cost. */
static struct antic_rq *elevator_next(const struct as_sched *as, int dir)
{
	const struct antic_queue *q = &as->q[ANTIC_CLASS_BE][dir];
	u64 pos = as->last_end[dir];
	struct antic_rq *ahead, *back;

	if (antic_queue_empty(q))
		return NULL;
	ahead = antic_queue_around(q, pos, &back);
	if (back && pos - back->sector > AS_MAXBACK)
		back = NULL;	/* too far: it waits for the wrap */
	if (ahead && back)
		return (pos - back->sector) * AS_BACK_PENALTY <
			       ahead->sector - pos ? back : ahead;
	if (ahead)
		return ahead;
	if (back)
		return back;
	return antic_queue_first(q);	/* everything is behind: wrap */
}

/*
 * O_DIRECT writes are sync (their writer waits on each), so they sit
 * with the reads, where a sequential one is always the elevator's nearest
 * and keeps the disk from a random reader until the FIFO's next look.
 * They are given a write batch's disk time (write_batch_expire) in each
 * period of read_batch_expire plus write_batch_expire, a wall-clock
 * window (at the defaults AS's 4:1); past it, while a read is queued,
 * the oldest read goes before them. Their FIFO still bounds their wait
 * (read_expire).
 */
static bool direct_spent(struct as_sched *as, u64 now)
{
	u64 period = as->tun.read_batch_expire + as->tun.write_batch_expire;

	if (now - as->direct_period >= period) {
		as->direct_period = now;
		as->direct_used = 0;
	}
	return as->direct_used >= as->tun.write_batch_expire;
}

/*
 * The oldest queued best-effort read, among the sync FIFO's first
 * AS_SYNC_WRITE_LOOK entries (a bounded walk: behind more O_DIRECT
 * writes than that, the writes go in their order).
 */
static struct antic_rq *direct_passed_by(const struct as_sched *as)
{
	struct antic_rq *rq = as->q[ANTIC_CLASS_BE][ANTIC_SYNC].fifo_head;
	int left = AS_SYNC_WRITE_LOOK;

	for (; rq && left; rq = rq->fifo_next, left--)
		if (!rq->write)
			return rq;
	return NULL;
}

/*
 * The elevator's choice in @dir, an O_DIRECT write's allowance heeded;
 * *@passed: the read chosen instead of it, if one was.
 */
static struct antic_rq *elevator_pick(struct as_sched *as, int dir, u64 now,
				      struct antic_rq **passed)
{
	struct antic_rq *rq = elevator_next(as, dir), *read;

	if (!rq || !rq->direct || !direct_spent(as, now) ||
	    as->direct_queued >= as->q[ANTIC_CLASS_BE][ANTIC_SYNC].count)
		return rq;
	read = direct_passed_by(as);
	if (!read)
		return rq;
	*passed = read;
	return read;
}

/*
 * Should the scheduler keep the disk idle rather than serve @rq (which may
 * be NULL)? Ends a running wait when there is no longer a reason for it.
 */
static bool should_anticipate(struct as_sched *as, const struct antic_rq *rq,
			      u64 now)
{
	int reason;

	if (!as->tun.antic_expire || !as->antic_proc ||
	    as->antic_state == AS_ANTIC_FINISHED)
		return false;
	reason = break_reason(as, rq, now);
	if (reason < 0)
		return true;
	if (waiting(as))
		end_wait(as, reason);
	else if (as->antic_state == AS_ANTIC_OFF)
		as->cnt.antic_declined[reason]++;
	return false;
}

static enum antic_verdict anticipate(struct as_sched *as, u64 now)
{
	if (as->antic_state == AS_ANTIC_OFF) {
		as->cnt.antic_started++;
		if (as->antic_proc->nr_in_flight > (as->antic_rq_done ? 0U : 1U))
			as->cnt.waits_in_flight++;
		if (as->antic_rq_done)	/* timed from P's completion, as 2.6 did */
			wait_next(as, as->antic_proc->have_completion ?
				      antic_min64(now, as->antic_proc->last_completion) :
				      now);
		else
			as->antic_state = AS_ANTIC_WAIT_REQ;
	}
	return ANTIC_IDLE;	/* as_get_expiry now names the wait's end */
}

/* Shrink the write batch when it overran its time, grow it when it ended early. */
static void tune_write_batch(struct as_sched *as, u64 now)
{
	u64 budget = as->tun.write_batch_expire;
	u64 took = now - as->write_batch_start;
	u32 n = as->write_batch_count;

	/* a long batch ran to another budget: it says nothing of this one */
	if (as->write_batch_owed)
		return;
	if (took > budget && !as->write_batch_idled) {
		n = took > 3 * budget ? n / 2 : n - 1;
	} else if (took < budget && !as->current_write_count) {
		if (budget > 3 * took)
			n = n < (1U << 15) ? n * 2 : n;
		else
			n = n < (1U << 16) ? n + 1 : n;
	}
	as->write_batch_count = n < 1 ? 1 : n;
}

/*
 * The share rule (share_window). AS gives reads 500 ms batches and writes
 * 125 ms whenever both wait, so a writer that arrives beside a streaming
 * reader gets a fifth of the disk for as long as both run: Morton's
 * write-and-fsync of 100 MB beside a streamer took 13.9 s in antic-sim at
 * depth 32 on ide2003 against deadline's 4.8 (the writer, throttled by
 * its dirty pages, waits on writeback the reader starves). Here each
 * direction's disk time is remembered, decayed over share_window, and the
 * direction that has had less of it gets the long batch: a reader that
 * arrives beside a writer that had the disk to itself is favoured as AS
 * favours it (cat beside a writer is unchanged), a writer that arrives
 * beside a streamer is favoured in turn, and two that have both run a
 * long time take turns at the long batch. Readers with think time (a
 * compile) use little disk time, so they keep AS's long batches.
 * Disk time runs from one batch's start to the next (the drain and any
 * anticipation belong to the batch that waits), in us so that a decay
 * step cannot overflow: served * window stays below 2^64 for windows up
 * to the table's 600 s.
 */
static void share_charge(struct as_sched *as, u64 now)
{
	u64 window = antic_div64(as->tun.share_window, 1000);
	u64 dt, cap;
	int d;

	if (!as->served_started) {
		as->served_started = true;
		as->served_at = now;
		as->served_dir = as->batch_dir;
		return;
	}
	if (!window || now <= as->served_at)
		return;
	dt = antic_div64(now - as->served_at, 1000);
	/* a hyperbolic step, near exp(-dt/window) for the short steps of batches */
	for (d = 0; d < ANTIC_NR_DIRS; d++)
		as->served_us[d] = antic_div64(as->served_us[d] * window,
					       window + dt);
	/* a long time alone counts as a whole window, and no more */
	cap = 2 * window;
	as->served_us[as->served_dir] = antic_min64(
		as->served_us[as->served_dir] + antic_min64(dt, window), cap);
	as->served_at = now;
}

/*
 * Are writes owed disk time: a writer waits on writeback (the host's
 * word), reads wait too, and writes have had less of the disk? Writes
 * nobody waits for keep AS's short batches, however little they had.
 */
static bool writes_owed(const struct as_sched *as)
{
	return as->tun.share_window && as->dirty_throttled &&
	       !antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_SYNC]) &&
	       !antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_ASYNC]) &&
	       as->served_us[ANTIC_ASYNC] < as->served_us[ANTIC_SYNC];
}

/*
 * A write batch that waits for readers' turn is bounded by its time alone
 * while a writer is dirty-throttled on a drive that queues. There its
 * count says little of its time (writes complete side by side, into the
 * cache) and grows by one a batch: write-vs-read's writer kept 13 % of its
 * bandwidth at depth 32 on ide2003 and 10 % on st2000dm006, 29 % and 25 %
 * by time. At depth 1 the count still bounds it: by time, the reader of
 * write-vs-read took 41 % longer on st2000dm006 (the cache took more
 * writes, destaged in the reader's way).
 */
static bool write_batch_by_time(const struct as_sched *as)
{
	return as->tun.share_window && as->dirty_throttled && as->drive_queues;
}

/* A read batch's length: cut to a write batch's while reads had more. */
static u64 read_batch_budget(const struct as_sched *as)
{
	return as->read_batch_short ? as->tun.write_batch_expire :
				      as->tun.read_batch_expire;
}

static void start_batch(struct as_sched *as, u64 now)
{
	int dir = as->batch_dir;

	as->changed_batch = false;
	share_charge(as, now);
	as->served_dir = dir;
	as->cnt.batches[dir]++;
	if (dir == ANTIC_ASYNC) {
		as->write_batch_owed = writes_owed(as);
		if (as->write_batch_owed && program_starts(as, now)) {
			as->write_batch_owed = false;
			as->cnt.newcomer_cuts++;
		}
		as->write_batch_start = now;
		as->write_batch_idled = false;
		as->new_batch = false;
		if (as->write_batch_owed) {
			/* timed as a read batch; its count does not end it */
			as->batch_expires = now + as->tun.read_batch_expire;
			as->current_write_count = ~0U;
			as->cnt.write_batches_long++;
		} else {
			as->batch_expires = now + as->tun.write_batch_expire;
			as->current_write_count = write_batch_by_time(as) ?
				~0U : as->write_batch_count;
		}
	} else {
		as->read_batch_short = writes_owed(as) &&
				       !program_starts(as, now);
		if (as->read_batch_short)
			as->cnt.read_batches_short++;
		/* a read batch is timed from its first completion */
		as->batch_expires = now + read_batch_budget(as);
		as->new_batch = true;
	}
}

/* @rq, of any class, leaves its queue for the drive: the counts every class keeps. */
static inline ANTIC_INLINE void to_drive(struct as_sched *as,
					 struct antic_rq *rq, u64 now)
{
	int dir = rq->queue;

	queue_del(as, rq);
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_QUEUED), ANTIC_RQ_DISPATCHED);
	if (rq->proc) {
		ANTIC_DEC(rq->proc->nr_queued);
		rq->proc->nr_in_flight++;
		rq->proc->nr_sync_in_flight += dir == ANTIC_SYNC;
	}
	rq->dispatch_time = now;
	rq->loaded = as->in_flight[ANTIC_ASYNC] > 0;
	as->in_flight[dir]++;
	/* bfq's test for a queueing drive; blk-mq sends no more than the tags plus one */
	if (as_at_drive(as) >= 3)
		as->drive_queues = true;
	as->cnt.dispatched[dir]++;
	/*
	 * In case we anticipate after this one: a sync request of a class
	 * that idles, not an O_DIRECT write. Its writer sends the next at
	 * once, sorted with everyone's reads: a wait for it would hold
	 * each reader's request behind the writer's stream until the FIFO
	 * expires.
	 */
	as->antic_proc = dir == ANTIC_SYNC && !rq->direct &&
			 rq->prio_class != ANTIC_CLASS_IDLE ? rq->proc : NULL;
	as->cnt.direct_writes += rq->direct;
	as->antic_rq_done = false;
	as->antic_class = rq->prio_class;
	as->class_in_flight[rq->prio_class]++;
	if (rq->prio_class != ANTIC_CLASS_IDLE) {
		as->other_busy = now;
		as->idle_open = false;
	}
	if (as->have_last_end && rq->sector != as->head) {
		as->cnt.seeks++;
		as->cnt.seek_sectors += antic_absdiff(rq->sector, as->head);
		if (rq->sector < as->head)
			as->cnt.back_seeks++;
	}
	as->last_end[dir] = antic_rq_end(rq);
	as->head = antic_rq_end(rq);
	as->have_last_end = true;
	as->antic_state = AS_ANTIC_OFF;
}

/* A best-effort request to the drive: its class's counts and the batch's. */
static inline ANTIC_INLINE void move_to_dispatch(struct as_sched *as,
						 struct antic_rq *rq,
						 u64 now)
{
	if (rq->newcomer) {
		ANTIC_DEC(as->new_queued);
		as->new_in_flight++;
	}
	/*
	 * the favour's budget is best effort's: a read sent is served
	 * (a requeued one goes to the drive again around the policy)
	 */
	if (rq->proc && rq->queue == ANTIC_SYNC && !rq->write)
		rq->proc->boost_left -= antic_min64(rq->nr_sectors,
						    rq->proc->boost_left);
	if (!as->served_started)
		share_charge(as, now);	/* the share rule's clock starts */
	as->holding = false;
	to_drive(as, rq, now);
	if (rq->queue == ANTIC_ASYNC && as->current_write_count)
		ANTIC_DEC(as->current_write_count);
}

/* as_dispatch with something queued */
static ANTIC_NOINLINE enum antic_verdict dispatch_queued(struct as_sched *as,
							 u64 now,
							 struct antic_rq **out)
{
	bool reads = !antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_SYNC]);
	bool writes = !antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_ASYNC]);
	int dir = as->batch_dir;
	struct antic_rq *rq, *ahead = NULL, *passed = NULL;

	if (as->changed_batch) {
		if (!drained(as))
			return ANTIC_IDLE;	/* let the old direction drain */
		if (!antic_queue_empty(&as->q[ANTIC_CLASS_BE][dir])) {
			rq = as->q[ANTIC_CLASS_BE][dir].fifo_head;
			start_batch(as, now);
			goto dispatch;
		}
		as->changed_batch = false;
	}
	if (dir == ANTIC_ASYNC && !writes)
		as->write_batch_idled = true;

	if (!(reads && writes && batch_expired(as, now))) {
		rq = elevator_pick(as, dir, now, &passed);
		if (dir == ANTIC_SYNC && as->tun.antic_expire) {
			struct antic_rq *old = check_fifo(as, ANTIC_SYNC, now);

			if (old) {
				if (waiting(as))
					end_wait(as, AS_END_DEADLINE);
				rq = old;
				goto dispatch;
			}
		}
		if (dir == ANTIC_SYNC) {
			struct antic_rq *w = overdue_sync_write(as, rq, now);

			if (w) {
				/* rule 3: it has waited long enough for P */
				if (waiting(as))
					end_wait(as, AS_END_DEADLINE);
				as->cnt.sync_writes_early++;
				as->early_until =
					now + as->tun.sync_write_expire;
				rq = w;
				goto dispatch;
			}
		}
		if (dir == ANTIC_SYNC && as->new_queued && as->tun.newcomer_expire &&
		    rq && !rq->newcomer && !rq->write) {
			/* a newcomer's read goes before the elevator's read */
			ahead = newcomer_next(as);
			if (ahead)
				rq = ahead;
		}
		if (dir == ANTIC_SYNC && as->tun.antic_expire) {
			if (should_anticipate(as, rq, now))
				return anticipate(as, now);
		}
		if (dir == ANTIC_SYNC && as->newcomer &&
		    newcomer_plugs(as, rq, now)) {
			if (!as->plugged)
				as->cnt.newcomer_plugs++;
			as->plugged = true;
			return ANTIC_IDLE;
		}
		if (rq) {
			struct antic_rq *old = check_fifo(as, dir, now);

			if (old)
				rq = old;
			goto dispatch;
		}
	}

	if (keep_write_batch(as, writes, now)) {
		if (!(as->new_queued && program_starts(as, now))) {
			if (!as->holding)
				as->cnt.writes_kept++;
			as->holding = true;	/* a completion or a new write reruns */
			return ANTIC_IDLE;
		}
		as->cnt.newcomer_cuts++;
	}
	/* the batch is over, or its direction has nothing left */
	if (waiting(as))
		end_wait(as, AS_END_DEADLINE);
	as->batch_dir = reads && !(writes && dir == ANTIC_SYNC) ? ANTIC_SYNC :
								  ANTIC_ASYNC;
	as->changed_batch = true;
	as->last_check_fifo[as->batch_dir] = now;
	if (!drained(as)) {
		if (as->batch_dir == ANTIC_SYNC && as->tun.write_bound)
			as->cnt.drains_to_k++;
		return ANTIC_IDLE;
	}
	rq = as->q[ANTIC_CLASS_BE][as->batch_dir].fifo_head;
	start_batch(as, now);
dispatch:
	if (rq == ahead)
		as->cnt.newcomer_reads++;
	if (rq == passed)
		as->cnt.direct_deferred++;
	move_to_dispatch(as, rq, now);
	*out = rq;
	return ANTIC_DISPATCH;
}

/*
 * May the idle class go: the other classes have nothing queued or at the
 * drive, no wait holds the disk, and AS_IDLE_GRACE has passed since they
 * last had (or an idle request has waited prio_aging_expire). Opens the
 * gate once so; any other request closes it (other_busy). The gate, not
 * a clock, is what has_work reads.
 */
static bool idle_may_go(struct as_sched *as, u64 now)
{
	const struct antic_rq *head = as->q[ANTIC_CLASS_IDLE][ANTIC_SYNC].fifo_head;
	const struct antic_rq *whead = as->q[ANTIC_CLASS_IDLE][ANTIC_ASYNC].fifo_head;
	u64 aging = as->tun.prio_aging_expire;

	if (as->idle_open || waiting(as))
		return as->idle_open;
	if (!be_queued(as) && !class_queued(as, ANTIC_CLASS_RT) &&
	    as_at_drive(as) == as->class_in_flight[ANTIC_CLASS_IDLE] &&
	    now >= as->other_busy + AS_IDLE_GRACE)
		as->idle_open = true;
	if (aging && ((head && now >= head->add_time + aging) ||
		      (whead && now >= whead->add_time + aging)))
		as->idle_open = true;
	return as->idle_open;
}

/*
 * The next request of the real-time or idle @class: its reads before its
 * writes, unless the oldest write is past its deadline; within them the
 * FIFO's head once past its deadline, else the nearest ahead of the head
 * (wrapping), as a one-way elevator.
 */
static struct antic_rq *class_next(struct as_sched *as, int class, u64 now)
{
	struct antic_queue *q = as->q[class];
	const struct antic_rq *w = q[ANTIC_ASYNC].fifo_head;
	int dir = antic_queue_empty(&q[ANTIC_SYNC]) ||
			  (w && now > w->fifo_time) ? ANTIC_ASYNC : ANTIC_SYNC;
	struct antic_rq *rq = q[dir].fifo_head;

	if (now > rq->fifo_time)
		return rq;
	rq = antic_queue_ceil(&q[dir], as->head);
	return rq ? rq : antic_queue_first(&q[dir]);
}

/*
 * A lower class's request that has waited prio_aging_expire while a
 * higher class had the disk, oldest first: the starvation bound between
 * classes, as mq-deadline's. None while a wait holds the disk.
 */
static struct antic_rq *aged(struct as_sched *as, u64 now)
{
	u64 aging = as->tun.prio_aging_expire;
	struct antic_rq *best = NULL;
	int c, d;

	if (!aging || waiting(as))
		return NULL;
	for (c = ANTIC_CLASS_BE; c < ANTIC_NR_CLASSES; c++) {
		if (c == ANTIC_CLASS_RT ||
		    (c == ANTIC_CLASS_BE && !class_queued(as, ANTIC_CLASS_RT)))
			continue;
		if (c == ANTIC_CLASS_IDLE && !be_queued(as) &&
		    !class_queued(as, ANTIC_CLASS_RT))
			continue;	/* nothing above it: the gate decides */
		for (d = 0; d < ANTIC_NR_DIRS; d++) {
			struct antic_rq *rq = as->q[c][d].fifo_head;

			if (rq && now >= rq->add_time + aging &&
			    (!best || rq->add_time < best->add_time))
				best = rq;
		}
	}
	return best;
}

/*
 * Dispatch with a real-time or idle request queued: a lower class's
 * request past its aging bound, then the real-time class (a wait on a
 * real-time process may hold it, as a wait holds best effort), then best
 * effort as ever, then the idle class once its gate is open.
 */
static ANTIC_NOINLINE enum antic_verdict dispatch_classes(struct as_sched *as,
							  u64 now,
							  struct antic_rq **out)
{
	struct antic_rq *rq = aged(as, now);

	if (rq) {
		as->cnt.aged_dispatched++;
	} else if (class_queued(as, ANTIC_CLASS_RT)) {
		rq = class_next(as, ANTIC_CLASS_RT, now);
		if (as->antic_class == ANTIC_CLASS_RT &&
		    should_anticipate(as, rq, now))
			return anticipate(as, now);
	} else if (as->class_in_flight[ANTIC_CLASS_RT]) {
		/*
		 * a queueing drive would serve them behind the others'. Their
		 * completion reruns the queue: has_work turns true then
		 * (the kernel glue runs the queues when it does).
		 */
		return ANTIC_IDLE;
	} else if (be_queued(as)) {
		return dispatch_queued(as, now, out);
	} else if (idle_may_go(as, now)) {
		rq = class_next(as, ANTIC_CLASS_IDLE, now);
	} else {
		as_handle_expiry(as, now);
		return ANTIC_IDLE;	/* as_get_expiry names the gate's time */
	}
	if (rq->prio_class == ANTIC_CLASS_BE) {
		move_to_dispatch(as, rq, now);
	} else {
		to_drive(as, rq, now);
		if (rq->prio_class == ANTIC_CLASS_RT)
			as->cnt.rt_dispatched++;
		else
			as->cnt.idle_dispatched++;
	}
	*out = rq;
	return ANTIC_DISPATCH;
}

enum antic_verdict as_dispatch(struct as_sched *as, u64 now,
			       struct antic_rq **out)
{
	*out = NULL;
	if (as->other_class_queued || (as->class_in_flight[ANTIC_CLASS_RT] && be_queued(as)))
		return dispatch_classes(as, now, out);
	/*
	 * Nothing queued (a host asks after every completion): only a wait
	 * may end. This answer is kept out of dispatch_queued, whose stack
	 * frame (six saved registers) it paid for on every call.
	 */
	if (antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_SYNC]) &&
	    antic_queue_empty(&as->q[ANTIC_CLASS_BE][ANTIC_ASYNC])) {
		as_handle_expiry(as, now);
		return ANTIC_EMPTY;
	}
	return dispatch_queued(as, now, out);
}

void as_complete(struct as_sched *as, struct antic_rq *rq, u64 now)
{
	struct antic_proc *p = rq->proc;

	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_DONE);
	ANTIC_DEC(as->in_flight[rq->queue]);
	/*
	 * A kept write batch ends with its last write or at its first
	 * completion past its time; any other completion would only wake
	 * the queue (a workqueue run in the kernel) to keep it again.
	 */
	if (!as->in_flight[ANTIC_ASYNC] || now > as->batch_expires)
		as->holding = false;
	as->plugged = false;
	ANTIC_DEC(as->class_in_flight[rq->prio_class]);
	if (rq->prio_class != ANTIC_CLASS_IDLE) {
		as->other_busy = now;
		as->idle_open = false;
	}
	if (rq->queue == ANTIC_SYNC)
		tune_write_k(as, rq, now);
	if (rq->direct && rq->prio_class == ANTIC_CLASS_BE) {
		/* the host may report completions slightly out of time order */
		u64 from = antic_max64(rq->dispatch_time, as->last_done);

		if (now > from)
			as->direct_used += now - from;
	}
	as->last_done = antic_max64(as->last_done, now);
	if (rq->newcomer && rq->prio_class == ANTIC_CLASS_BE) {
		ANTIC_DEC(as->new_in_flight);
		as->boost_busy = now;
	}
	if (as->new_batch && as->batch_dir == rq->queue &&
	    rq->prio_class == ANTIC_CLASS_BE) {
		/* the read batch really starts now; judge the write batch */
		if (as->cnt.batches[ANTIC_ASYNC])
			tune_write_batch(as, now);
		as->batch_expires = now + read_batch_budget(as);
		as->new_batch = false;
	}
	if (!p)
		return;
	ANTIC_DEC(p->nr_in_flight);
	if (rq->queue == ANTIC_SYNC)
		ANTIC_DEC(p->nr_sync_in_flight);
	p->last_completion = now;
	p->have_completion = true;
	/*
	 * An exited process's request (dispatched after its exit, as a
	 * requeued one is): the host frees its record once its requests are
	 * done, so a wait keeps a copy, as as_proc_exit does.
	 */
	if (p == as->antic_proc && p->exited && !p->nr_in_flight) {
		as->ghost = *p;
		as->ghost.nr_queued = 0;
		as->antic_proc = &as->ghost;
		p = &as->ghost;
	}
	/* P's last request at the drive, of either class, ends WAIT_REQ */
	if (p == as->antic_proc && !p->nr_in_flight && !as->antic_rq_done) {
		as->antic_rq_done = true;
		if (as->antic_state == AS_ANTIC_WAIT_REQ)
			wait_next(as, now);
	}
}

/*
 * The drive gave @rq back. blk-mq sends it to the drive again around the
 * scheduler (at the head of its requeue list, on every kernel antic
 * supports), and no completion of it is reported; a host that adds it
 * again is served as for a new request.
 * Invariant kept: a wait is ended by a completion still to come, by a
 * time as_get_expiry gives, or not started. So when @rq was the last of
 * P's requests at the drive and P's wait was to be timed from it (not
 * antic_rq_done), P is forgotten: P is blocked on @rq and has no next
 * request to anticipate, and an exited P is freed by the host once @rq
 * finishes, so antic_proc may not point at it. A wait already timed
 * (WAIT_NEXT) keeps its deadline.
 */
void as_requeue(struct as_sched *as, struct antic_rq *rq)
{
	struct antic_proc *p = rq->proc;

	ANTIC_DEC(as->in_flight[rq->queue]);
	as->holding = false;
	as->plugged = false;
	as->cnt.requeues++;
	if (rq->newcomer) {
		ANTIC_DEC(as->new_in_flight);
		rq->newcomer = false;
	}
	ANTIC_DEC(as->class_in_flight[rq->prio_class]);
	if (p) {
		ANTIC_DEC(p->nr_in_flight);
		if (rq->queue == ANTIC_SYNC)
			ANTIC_DEC(p->nr_sync_in_flight);
	}
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_DISPATCHED), ANTIC_RQ_NEW);
	if (!p || p != as->antic_proc || p->nr_in_flight || as->antic_rq_done)
		return;
	if (waiting(as))
		end_wait(as, AS_END_REQUEUE);
	as->antic_proc = NULL;
}

void as_proc_exit(struct as_sched *as, struct antic_proc *p, u64 now)
{
	p->exited = true;
	if (as->newcomer == p) {
		as->newcomer = NULL;	/* the host frees p after this */
		as->plugged = false;
	}
	if (as->antic_proc != p)
		return;
	/* the host frees p after this: keep what the wait still needs */
	as->ghost = *p;
	as->ghost.nr_queued = 0;
	as->ghost.nr_in_flight = 0;
	as->ghost.nr_sync_in_flight = 0;
	as->antic_proc = &as->ghost;
	if (!as->antic_rq_done) {
		/* its request at the drive will not count: time from the exit */
		as->ghost.last_completion = now;
		as->ghost.have_completion = true;
		as->antic_rq_done = true;
		if (as->antic_state == AS_ANTIC_WAIT_REQ)
			wait_next(as, now);
	}
	if (waiting(as)) {
		int reason = break_reason(as, NULL, now);

		if (reason >= 0)
			end_wait(as, reason);
	}
}

void as_remove(struct as_sched *as, struct antic_rq *rq)
{
	queue_del(as, rq);
	if (rq->newcomer)
		ANTIC_DEC(as->new_queued);
	if (rq->proc)
		ANTIC_DEC(rq->proc->nr_queued);
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_QUEUED), ANTIC_RQ_DONE);
}

void as_merge_requests(struct as_sched *as, struct antic_rq *rq,
		       struct antic_rq *next)
{
	/* blk-mq merges only requests of one I/O priority */
	ANTIC_WARN_ON(next->prio_class != rq->prio_class);
	rq->nr_sectors = (u32)(antic_rq_end(next) - rq->sector);
	if (next->newcomer && !rq->newcomer && rq->queue == ANTIC_SYNC &&
	    rq->prio_class == ANTIC_CLASS_BE) {
		rq->newcomer = true;	/* the merged read keeps its turn */
		as->new_queued++;
	}
	if (next->fifo_time < rq->fifo_time && next->queue == rq->queue &&
	    next->prio_class == rq->prio_class) {
		rq->fifo_time = next->fifo_time;
		antic_queue_fifo_reposition(home(as, rq), rq);
	}
	as_remove(as, next);
}

void as_front_merged(struct as_sched *as, struct antic_rq *rq, u64 new_sector)
{
	rq->nr_sectors += (u32)(rq->sector - new_sector);
	antic_queue_resort(home(as, rq), rq, new_sector);
}

void as_back_merged(struct as_sched *as, struct antic_rq *rq, u32 nr_sectors)
{
	(void)as;
	rq->nr_sectors = nr_sectors;
}

bool as_has_work(const struct as_sched *as)
{
	if (!as->other_class_queued && !as->class_in_flight[ANTIC_CLASS_RT]) {
		if (!be_queued(as))
			return false;
	} else if (class_queued(as, ANTIC_CLASS_RT)) {
		return !waiting(as);
	} else if (as->class_in_flight[ANTIC_CLASS_RT]) {
		return false;	/* the others wait for the drive: a completion reruns */
	} else if (!be_queued(as)) {
		return class_queued(as, ANTIC_CLASS_IDLE) && as->idle_open &&
		       !waiting(as);
	}
	if (waiting(as) || as->holding || as->plugged)
		return false;
	return !(as->changed_batch && !drained(as));
}

/*
 * When time alone may open the idle class's gate, if it is shut with
 * work behind it; else 0. The grace counts only once nothing but idle
 * requests is queued or at the drive: until then a dispatch or a
 * completion, not a time, moves it (a time past that changed nothing
 * would re-fire the timer at once, for ever). Aging counts always; a
 * wait's end comes by its own timer or completion.
 */
static u64 idle_gate_time(const struct as_sched *as)
{
	const struct antic_queue *q = as->q[ANTIC_CLASS_IDLE];
	u64 aging = as->tun.prio_aging_expire, t = 0;
	int d;

	if (!as->other_class_queued || as->idle_open ||
	    !class_queued(as, ANTIC_CLASS_IDLE) || waiting(as))
		return 0;
	if (!be_queued(as) && !class_queued(as, ANTIC_CLASS_RT) &&
	    as_at_drive(as) == as->class_in_flight[ANTIC_CLASS_IDLE])
		t = as->other_busy + AS_IDLE_GRACE;
	for (d = 0; aging && d < ANTIC_NR_DIRS; d++)
		if (q[d].fifo_head)
			t = t ? antic_min64(t, q[d].fifo_head->add_time + aging) :
				q[d].fifo_head->add_time + aging;
	return t;
}

u64 as_get_expiry(const struct as_sched *as)
{
	u64 t = 0, idle = idle_gate_time(as);

	if (as->antic_state == AS_ANTIC_WAIT_NEXT)
		t = wait_deadline(as);
	else if (wait_req_timed(as))
		t = as->batch_expires + 1;
	if (idle && (!t || idle < t))
		t = idle;
	return t;
}

void as_estimates(const struct as_sched *as, struct as_estimates *e)
{
	e->exit_prob = as->exit_prob;
	e->exit_no_coop = as->exit_no_coop;
	e->new_ttime_mean = new_ttime_mean(as);
	e->new_seek_mean = new_seek_mean(as);
}

struct antic_rq *as_find_starting_at(const struct as_sched *as, bool sync,
				     u8 prio_class, u64 sector)
{
	int dir = sync ? ANTIC_SYNC : ANTIC_ASYNC;
	struct antic_rq *rq = antic_queue_ceil(
		&as->q[prio_class < ANTIC_NR_CLASSES ? prio_class :
						       ANTIC_CLASS_BE][dir],
		sector);

	return rq && rq->sector == sector ? rq : NULL;
}

static void ops_add(void *s, struct antic_rq *rq, u64 now)
{
	as_add(s, rq, now);
}

static enum antic_verdict ops_dispatch(void *s, u64 now, struct antic_rq **rq)
{
	return as_dispatch(s, now, rq);
}

static void ops_complete(void *s, struct antic_rq *rq, u64 now)
{
	as_complete(s, rq, now);
}

static void ops_requeue(void *s, struct antic_rq *rq)
{
	as_requeue(s, rq);
}

static void ops_proc_exit(void *s, struct antic_proc *p, u64 now)
{
	as_proc_exit(s, p, now);
}

static u32 ops_queued(const void *s)
{
	return as_queued(s);
}

static u64 ops_get_expiry(const void *s)
{
	return as_get_expiry(s);
}

static void ops_handle_expiry(void *s, u64 now)
{
	as_handle_expiry(s, now);
}

const struct antic_policy_ops as_policy_ops = {
	.name = ANTIC_AS_NAME,
	.add = ops_add,
	.dispatch = ops_dispatch,
	.complete = ops_complete,
	.requeue = ops_requeue,
	.proc_exit = ops_proc_exit,
	.queued = ops_queued,
	.get_expiry = ops_get_expiry,
	.handle_expiry = ops_handle_expiry,
};
