/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.h - what every policy in core/ shares: the request and process
 * records the host owns, the sector-sorted set and FIFO the policies keep
 * requests in, and the event interface (add, dispatch, complete, ...).
 */
#ifndef ANTIC_SCHED_H
#define ANTIC_SCHED_H

#include "compat.h"

/* Request classes as anticipatory sees them: reads and O_SYNC/O_DIRECT writes are sync. */
enum antic_dir { ANTIC_SYNC = 0, ANTIC_ASYNC = 1, ANTIC_NR_DIRS = 2 };

/*
 * A request's I/O priority class, as ioprio_set(2) and ionice(1) name
 * them (IOPRIO_CLASS_NONE is best effort). Best effort is 0, so that a
 * host that knows no classes gives every request that one.
 */
enum antic_prio_class {
	ANTIC_CLASS_BE = 0,
	ANTIC_CLASS_RT,
	ANTIC_CLASS_IDLE,
	ANTIC_NR_CLASSES,
};

/*
 * Per-process history. The host keeps one per submitting context (the
 * kernel in the io_context's icq, the simulator in its process table) and
 * calls antic_proc_init() before first use.
 */
struct antic_proc {
	u32 nr_queued;		/* requests of this process in the scheduler */
	u32 nr_in_flight;	/* requests of this process at the drive */
	u32 nr_sync_in_flight;	/* of those, sync requests (the newcomer plug's) */
	bool exited;
	bool have_completion;	/* last_completion is meaningful */
	bool have_pos;		/* last_pos is meaningful */
	bool have_first;	/* first_seen is meaningful */
	bool tag_held;		/* the newcomer tag rule limited its next read */
	u64 last_completion;	/* ns: when its last request completed */
	u64 last_pos;		/* sector after the end of its last sync request */
	/* fixed point, 1.0 == 256, decayed by 7/8 per sample */
	u32 ttime_samples;
	u64 ttime_total;
	u64 ttime_mean;		/* ns */
	u32 seek_samples;
	u64 seek_total;
	u64 seek_mean;		/* sectors */
	/* anticipatory's newcomer favour: since when, and what it has left */
	u64 first_seen;		/* ns: its first read, or its first back from idle */
	u64 boost_left;		/* sectors */
};

void antic_proc_init(struct antic_proc *p);

/* Intrusive treap node keyed by (sector, seq); priority from seq's hash. */
struct antic_node {
	struct antic_node *left, *right;
	u32 prio;
};

/*
 * One request. The host fills the first block before add and must not
 * touch the rest while the request belongs to a policy.
 */
struct antic_rq {
	u64 sector;
	u32 nr_sectors;
	bool sync;		/* travels with reads in anticipatory */
	bool write;		/* data direction (what mq-deadline sorts by) */
	/*
	 * A write sent with O_DIRECT: sync, and its writer sends the next
	 * as soon as it completes (Linux: REQ_SYNC | REQ_IDLE, as wbt
	 * tells them from writeback's sync writes)
	 */
	bool direct;
	u8 prio_class;		/* enum antic_prio_class */
	struct antic_proc *proc;	/* may be NULL: no process history */

	/* owned by the policy */
	u64 seq;		/* arrival order, tie-break in the sorted set */
	u64 add_time;
	u64 fifo_time;		/* deadline */
	u64 dispatch_time;
	bool loaded;		/* dispatched while async writes were at the drive */
	bool newcomer;		/* its process was a newcomer when it came */
	struct antic_node node;
	struct antic_rq *fifo_prev, *fifo_next;
	u8 queue;		/* which of the policy's queues holds it */
	u8 state;		/* enum antic_rq_state */
};

/*
 * A request's one lifecycle, kept by core and read by every host (the
 * kernel glue and the simulator keep none of their own):
 *   NEW -add-> QUEUED -dispatch-> DISPATCHED -complete-> DONE
 *   QUEUED -remove/merged away-> DONE;  DISPATCHED -requeue-> NEW;
 *   NEW -bypass (the host sends it around the policy)-> DONE.
 */
enum antic_rq_state {
	ANTIC_RQ_NEW = 0,
	ANTIC_RQ_QUEUED,
	ANTIC_RQ_DISPATCHED,
	ANTIC_RQ_DONE,
};

#define ANTIC_RQ_IN(state) (1U << (state))

/* Move @rq to @to; it must be in one of the states of the mask @from. */
static inline void antic_rq_move(struct antic_rq *rq, unsigned int from,
				 enum antic_rq_state to)
{
	ANTIC_WARN_ON(!(from & ANTIC_RQ_IN(rq->state)));
	rq->state = (u8)to;
}

/* The host will not give @rq to a policy: it is done as far as core cares. */
static inline void antic_rq_bypass(struct antic_rq *rq)
{
	antic_rq_move(rq, ANTIC_RQ_IN(ANTIC_RQ_NEW), ANTIC_RQ_DONE);
}

/* A sector-sorted set plus a FIFO: one per direction in each policy. */
struct antic_queue {
	struct antic_node *root;
	struct antic_rq *fifo_head, *fifo_tail;
	u32 count;
};

void antic_queue_init(struct antic_queue *q);
void antic_queue_add(struct antic_queue *q, struct antic_rq *rq);
/*
 * A new request enters a policy: stamp it (arrival number @seq, the time,
 * the deadline @expire from now, which of the policy's queues) and queue
 * it in @q. What every policy's add does first.
 */
void antic_queue_admit(struct antic_queue *q, struct antic_rq *rq, u64 seq,
		       u64 now, u64 expire, u8 which);
void antic_queue_del(struct antic_queue *q, struct antic_rq *rq);
/* Lowest-sector request at or after @sector, or NULL. */
struct antic_rq *antic_queue_ceil(const struct antic_queue *q, u64 sector);
/*
 * antic_queue_ceil's request, with the highest-sector request strictly
 * before @sector in *@below (or NULL): the elevator's two candidates.
 */
struct antic_rq *antic_queue_around(const struct antic_queue *q, u64 sector,
				    struct antic_rq **below);
struct antic_rq *antic_queue_first(const struct antic_queue *q);
/* Re-sort a queued request whose start moved (front merge). */
void antic_queue_resort(struct antic_queue *q, struct antic_rq *rq,
			u64 new_sector);
/* Move @rq to the FIFO position its fifo_time calls for (after a merge). */
void antic_queue_fifo_reposition(struct antic_queue *q, struct antic_rq *rq);

static inline bool antic_queue_empty(const struct antic_queue *q)
{
	return q->count == 0;
}

/*
 * The scheduler tags async requests may take of @tags (limit_depth's
 * shallow depth; also what the newcomer plug leaves other readers): three
 * quarters, as mq-deadline gives them, so that a flood of them leaves
 * tags for sync I/O. The kernel's glue and antic-sim's tags both use it.
 */
static inline u32 antic_async_depth(u32 tags)
{
	return tags * 3 / 4 ? tags * 3 / 4 : 1;
}

static inline u64 antic_rq_end(const struct antic_rq *rq)
{
	return rq->sector + rq->nr_sectors;
}

/* What a dispatch call answers. */
enum antic_verdict {
	ANTIC_DISPATCH = 0,	/* *rq is the request to send to the drive */
	ANTIC_IDLE,		/* nothing until the next event or expiry */
	ANTIC_EMPTY,		/* no requests queued */
};

/*
 * The policies by name: what antic-sim calls each, the Linux scheduler
 * that plays its part on a real disk (so reports compare like with
 * like), and one more name it answers to. antic-sim takes any of the
 * three; the module registers anticipatory under its name and alias.
 * The macros are the table's strings, for static initializers.
 */
#define ANTIC_NOOP_NAME "noop"
#define ANTIC_NOOP_KERNEL "none"
#define ANTIC_DEADLINE_NAME "deadline"
#define ANTIC_DEADLINE_KERNEL "mq-deadline"
#define ANTIC_AS_NAME "anticipatory"
#define ANTIC_AS_ALIAS "as"

enum antic_policy_id {
	ANTIC_POL_NOOP = 0,
	ANTIC_POL_DEADLINE,
	ANTIC_POL_AS,
	ANTIC_NR_POLICIES,
};

struct antic_policy_name {
	const char *name;	/* antic-sim's, and its reports' */
	const char *kernel;	/* the Linux scheduler that plays it */
	const char *alias;	/* NULL: none beyond those two */
};

extern const struct antic_policy_name antic_policy_names[ANTIC_NR_POLICIES];
/* The policy any of its names means, or -1. */
int antic_policy_find(const char *s);

/*
 * The event interface every policy implements, so the simulator can drive
 * any of them the same way. All times are ns on the host's clock.
 * Time has one channel, as in ngtcp2: after any call the host asks
 * get_expiry when the policy next needs it (0: never) and arms its one
 * timer for then; when the timer fires it calls handle_expiry, then
 * dispatches. Dispatch itself never names a time.
 */
struct antic_policy_ops {
	const char *name;
	void (*add)(void *s, struct antic_rq *rq, u64 now);
	enum antic_verdict (*dispatch)(void *s, u64 now, struct antic_rq **rq);
	void (*complete)(void *s, struct antic_rq *rq, u64 now);
	/* the drive gave a dispatched request back: DISPATCHED -> NEW */
	void (*requeue)(void *s, struct antic_rq *rq);
	void (*proc_exit)(void *s, struct antic_proc *p, u64 now);
	u32 (*queued)(const void *s);
	u64 (*get_expiry)(const void *s);		/* NULL: never */
	void (*handle_expiry)(void *s, u64 now);	/* NULL: never */
};

#endif /* ANTIC_SCHED_H */
