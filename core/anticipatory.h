/* SPDX-License-Identifier: GPL-2.0 */
/*
 * anticipatory.h - the anticipatory policy: deadlines, read/write batches,
 * a one-way elevator with short backward seeks, and anticipation driven
 * by per-process think time and seek distance.
 */
#ifndef ANTIC_ANTICIPATORY_H
#define ANTIC_ANTICIPATORY_H

#include "sched.h"

/*
 * The elevator may seek back this far (sectors, 512 MiB), at double
 * cost: 2.6's anticipatory scheduler's values (MAXBACK, BACK_PENALTY), a
 * back seek that short costing about what a seek twice as far ahead does.
 */
#define AS_MAXBACK (1024ULL * 1024)
#define AS_BACK_PENALTY 2
/*
 * The "close" radius at the start of a wait (sectors, 4 MiB); it doubles
 * each ms waited, as 2.6's as_close_req did each jiffy (a ms at HZ=1000):
 * the longer a wait has cost, the farther a request may be and still be
 * worth serving instead.
 */
#define AS_CLOSE_START 8192ULL
/*
 * A think time is counted at most this long (2.6's MAX_THINKTIME, HZ/50):
 * one long pause must not swamp a process's mean, and anything beyond it
 * is far past the default antic_expire (6 ms) anyway.
 */
#define AS_MAX_THINKTIME (20 * ANTIC_NSEC_PER_MSEC)

/*
 * Where K, the write bound, starts before any read has been measured.
 * K moves by one a loaded read from there, so it starts low: until the
 * reads say otherwise, a read waits behind at most four writes at the
 * drive, not write_bound's 32.
 */
#define AS_WRITE_K_START 4
/*
 * A loaded read's mean this much above the base (per 4: x1.5) lowers K;
 * below x1.25 raises it. The gap between the two is the dead band that
 * keeps K from moving at every sample of a noisy mean.
 */
#define AS_K_SLOW_X4 6
#define AS_K_FAST_X4 5

/*
 * The newcomer favour (a boost): a process's reads go first from its
 * first read, or its first after this long silent, for newcomer_expire
 * or until it has been served AS_BOOST_BUDGET, whichever comes first.
 */
#define AS_NEWCOMER_IDLE (2000 * ANTIC_NSEC_PER_MSEC)
/*
 * A favour's service budget (sectors, 128 MiB): the seven recorded
 * start-ups read 6-29 MB a process; a streamer spends it within seconds
 * (under one at 150 MB/s, three at 2003's 40 MB/s) and is best effort
 * from then on, so that a stream beside an fsync or a tree walk is not
 * favoured for all of newcomer_expire.
 */
#define AS_BOOST_BUDGET (256ULL * 1024)
/*
 * A start: processes whose boosts begin within this long of the one that
 * began the latest start are part of it (a program's threads and
 * children, whose first reads beside a busy disk come up to some
 * hundreds of ms after the program's); a boost that began this much
 * before the latest start's is outranked by it while that start's boost
 * lasts (the load a program starts beside).
 */
#define AS_NEWCOMER_SETTLE (750 * ANTIC_NSEC_PER_MSEC)
/*
 * A process whose own sync requests are on average more than this far
 * apart (sectors, 128 MiB) lands anywhere on the platter: where the
 * drive queues, its next read is not worth keeping other reads out of
 * the drive for.
 * antic-sim's random readers over 8 GiB: 0.5-4.8 GiB; the start-up
 * traces' seekers up to 79 MiB.
 */
#define AS_FAR_SEEK 262144
/*
 * The newcomer plug's tag half acts at any depth from this many tags on:
 * a value between the two tags a depth-1 device gets from 6.18 on (where
 * keeping a quarter for the newcomer would leave the others one) and the
 * 64 hddsim gets at depth 1; no measurement chose it within that range.
 */
#define AS_TAGS_SHARED 8
/*
 * The idle class waits for the disk to have had no other request for this
 * long (ns): CFQ's and bfq's idle-class timeout (HZ/5). Shorter, and a
 * reader that thinks a little between reads (a few ms, antic_expire's
 * scale) would find the disk taken by a backup's seek at every read.
 */
#define AS_IDLE_GRACE (200 * ANTIC_NSEC_PER_MSEC)

/*
 * Tunables, in ns, or counts where the table says so. Names as the sysfs
 * files (there in ms or plain counts).
 */
struct as_tunables {
	u64 antic_expire;
	u64 read_expire;
	u64 write_expire;
	u64 read_batch_expire;
	u64 write_batch_expire;
	/*
	 * The depth-32 rules (docs/design.md), each 0 for off: keep
	 * the read batch while the process's own requests are in the drive,
	 * and a write batch while its writes are (1: on); the most writes
	 * K a read batch may start beside (a count); how long another
	 * process's sync write may wait behind the process being served (ns).
	 */
	u64 antic_in_flight;
	u64 write_bound;
	u64 sync_write_expire;
	/*
	 * The share rule (ns, 0 for off): over about this long a window,
	 * the direction that had less of the disk gets the long batch.
	 */
	u64 share_window;
	/*
	 * The newcomer favour (ns, 0 for off): how long after its first
	 * read a process's reads go first.
	 */
	u64 newcomer_expire;
	/*
	 * The newcomer plug (a count, 0 for off): while a newcomer is
	 * active, the most sync requests of other processes at the drive
	 * beside which another's read is sent.
	 */
	u64 newcomer_plug;
	/*
	 * While a program starts (ns; at most read_expire for off, as on a
	 * non-rotational device): how old a read of the load it starts
	 * beside must be before the FIFO sends it, and how long after the
	 * FIFO sent the last such read.
	 */
	u64 start_read_expire;
	/*
	 * I/O priority classes (ns): a request of a lower class that has
	 * waited this long goes before the higher classes' (0: never).
	 */
	u64 prio_aging_expire;
};

/*
 * The tunables by name, in ms, with the range the sysfs files accept: one
 * table, so that antic-sim takes exactly what the kernel module takes.
 * Hosts find an entry by its name (as_tunable_find), never by position,
 * so the table's order binds nothing.
 */
struct as_tunable_desc {
	const char *name;
	size_t off;		/* in struct as_tunables */
	u32 min_ms, max_ms;	/* in the file's unit: ms, or a count */
	u32 scale;		/* the field's value per unit: ns per ms, or 1 */
};

#define AS_NR_TUNABLES 13
extern const struct as_tunable_desc as_tunable_descs[AS_NR_TUNABLES];
/* The entry named @name, or NULL. */
const struct as_tunable_desc *as_tunable_find(const char *name);

enum as_antic_state {
	AS_ANTIC_OFF = 0,
	AS_ANTIC_WAIT_REQ,	/* waiting for P's request to complete */
	AS_ANTIC_WAIT_NEXT,	/* waiting for P's next request, timer armed */
	AS_ANTIC_FINISHED,	/* decided: serve something else */
};

/* Why an anticipation ended; indexes as_counters.antic_end. */
enum as_antic_end {
	AS_END_OWN = 0,		/* P sent its next request */
	AS_END_CLOSE,		/* another process sent a close sync request */
	AS_END_TIMEOUT,
	AS_END_DEADLINE,	/* a FIFO expired or the read batch ran out */
	AS_END_EXIT,		/* P exited and cooperators are not expected */
	AS_END_THINK,		/* P's history says it will not come back soon */
	AS_END_BUSY,		/* P has other requests queued or in flight */
	AS_END_NEWCOMER,	/* a newcomer sent a read, and P is none */
	AS_END_FAR,		/* P seeks far; another read may share the drive */
	AS_END_REQUEUE,		/* P's request at the drive was given back */
	AS_END_CLASS,		/* a request of a higher class than P's came */
	AS_END_NR,
};

struct as_counters {
	u64 antic_started;
	u64 antic_end[AS_END_NR];
	/* waits not started, by the reason that would have ended them */
	u64 antic_declined[AS_END_NR];
	u64 batches[ANTIC_NR_DIRS];
	u64 dispatched[ANTIC_NR_DIRS];
	u64 fifo_expired[ANTIC_NR_DIRS];
	u64 seeks;		/* dispatches not contiguous with the last */
	u64 seek_sectors;	/* total distance of those */
	u64 back_seeks;
	/* the depth-32 rules */
	u64 waits_in_flight;	/* waits kept while P's requests were at the drive */
	u64 writes_kept;	/* times a write batch was kept on writes at the drive */
	u64 drains_to_k;	/* read batches that waited for writes to fall to K */
	u64 k_lowered, k_raised;
	u64 write_k, write_k_min, write_k_max;	/* K now, and its range so far */
	u64 sync_writes_early;	/* another process's sync write served at its bound */
	/* the share rule */
	u64 write_batches_long;	/* write batches given read_batch_expire */
	u64 read_batches_short;	/* read batches cut to write_batch_expire */
	/* the newcomer favour */
	u64 newcomer_reads;	/* reads served ahead of the elevator's choice */
	u64 newcomer_plugs;	/* times dispatch stopped for a newcomer */
	u64 newcomer_tags;	/* reads not favoured given fewer tags */
	u64 newcomer_yields;	/* newcomers' reads that yielded to a later one */
	u64 newcomer_cuts;	/* times a write batch was cut for a program starting */
	u64 start_fifo_waits;	/* FIFO looks that left a load's read for a program */
	u64 requeues;		/* dispatched requests the drive gave back */
	u64 rt_dispatched;	/* real-time class requests sent */
	u64 idle_dispatched;	/* idle class requests sent */
	u64 aged_dispatched;	/* sent before a higher class: prio_aging_expire */
	u64 direct_writes;	/* O_DIRECT writes dispatched */
	u64 direct_deferred;	/* reads sent before one, its allowance spent */
};

/*
 * Every counter by the one name that debugfs, antic-sim's JSON and its
 * table all print, so that a counter cannot be kept and never shown.
 * read_ and write_ mean the sync and async classes, as in the tunables.
 */
struct as_counter_desc {
	const char *name;
	const char *what;
	size_t off;		/* of a u64 in struct as_counters */
};

#define AS_NR_COUNTERS 52
extern const struct as_counter_desc as_counter_descs[AS_NR_COUNTERS];

static inline u64 as_counter(const struct as_counters *c,
			     const struct as_counter_desc *d)
{
	return *(const u64 *)((const char *)c + d->off);
}

/* What est_time reports. */
struct as_estimates {
	u32 exit_prob;		/* per 256 */
	u32 exit_no_coop;	/* per 256 */
	u64 new_ttime_mean;	/* ns */
	u64 new_seek_mean;	/* sectors */
};

struct as_sched {
	struct as_tunables tun;
	/*
	 * The queues, by I/O priority class (enum antic_prio_class) and
	 * direction. The best-effort class's are the ones the batches, the
	 * elevator and anticipation serve; the real-time and idle classes'
	 * wait in theirs. The idle class goes only once the disk has had no
	 * other request queued or at the drive for AS_IDLE_GRACE (idle_open,
	 * set by a dispatch or the timer that finds it so; other_busy: when
	 * it last had one), or past prio_aging_expire.
	 */
	struct antic_queue q[ANTIC_NR_CLASSES][ANTIC_NR_DIRS];
	u64 seq;
	u32 in_flight[ANTIC_NR_DIRS];	/* at the drive, by queue */

	/* batches */
	int batch_dir;
	bool changed_batch;	/* direction changed; drain before serving */
	bool new_batch;		/* read batch starts timing at first completion */
	u64 batch_expires;
	u32 write_batch_count;
	u32 current_write_count;
	bool write_batch_idled;
	u64 last_check_fifo[ANTIC_NR_DIRS];
	u64 last_fifo_read;	/* ns: when the sync FIFO last sent a load's read */
	u64 last_end[ANTIC_NR_DIRS];	/* elevator position per direction */
	bool have_last_end;
	u64 head;		/* end of the last dispatch, any direction */

	/* anticipation */
	int antic_state;
	u64 antic_start;
	struct antic_proc *antic_proc;	/* owner of the last sync dispatch */
	struct antic_proc ghost;	/* its history, once it has exited */
	bool antic_rq_done;	/* that request has completed */
	u64 write_batch_start;

	/* priors for processes without history, and exit statistics */
	u64 new_ttime_total;	/* ns, 256 times the mean */
	u64 new_seek_total;	/* sectors, likewise */
	u32 exit_prob, exit_no_coop;

	/*
	 * The write bound: K, and read service times (dispatch to
	 * completion) as 7/8-decayed means, of reads sent with no write at
	 * the drive (the base) and with some (loaded).
	 */
	u32 write_k;
	bool holding;		/* a write batch waits on its writes: no work */
	u32 base_samples, loaded_samples;
	u64 base_total, loaded_total;
	u64 early_until;	/* ns: rule 3's next early sync write not before */

	/*
	 * The share rule: each direction's disk time (us, from batch starts,
	 * idling included) decayed over share_window, the direction charged
	 * since @served_at, and whether the last write batch was given a read
	 * batch's length, or the read batch a write batch's.
	 */
	u64 served_us[ANTIC_NR_DIRS];
	u64 served_at;
	int served_dir;
	bool served_started;
	bool write_batch_owed;
	bool read_batch_short;
	bool dirty_throttled;	/* the host's word: a writer waits on writeback */
	bool drive_queues;	/* 3 or more requests have been at the drive at once */

	/*
	 * O_DIRECT writes' allowance: best-effort ones queued, their disk
	 * time (ns, charged at completion) since @direct_period began, and
	 * the last completion of any request (ns), from which a completion's
	 * disk time is counted where requests overlap at the drive.
	 */
	u32 direct_queued;
	u64 direct_used;
	u64 direct_period;
	u64 last_done;

	/*
	 * The newcomer favour: favoured reads queued and at the drive, the
	 * last completion of one (ns), and the process that began the
	 * latest start (AS_NEWCOMER_SETTLE; NULL from the first favoured
	 * read after its favour ended by time, budget or exit) with the
	 * time its favour ends by time.
	 */
	u32 new_queued;
	u32 new_in_flight;
	u64 boost_busy;
	struct antic_proc *newcomer;
	u64 newcomer_until;
	bool plugged;		/* dispatch held for a start: a completion reruns */

	/*
	 * Requests queued outside best effort: the real-time and idle
	 * classes' four queues. With it and the real-time class_in_flight
	 * zero, best effort is all there is, a test of two fields.
	 */
	u32 other_class_queued;
	u8 antic_class;		/* the class of the request last dispatched */
	/* requests at the drive by class: real-time ones have it alone */
	u32 class_in_flight[ANTIC_NR_CLASSES];
	u64 other_busy;
	bool idle_open;

	struct as_counters cnt;
};

/* Requests at the drive, both queues and every class. */
static inline u32 as_at_drive(const struct as_sched *as)
{
	return as->in_flight[ANTIC_SYNC] + as->in_flight[ANTIC_ASYNC];
}

/* Defaults as in Linux 2.6's AS, fitted to the device. */
void as_default_tunables(struct as_tunables *t, bool rotational);
/* The one rule for the device: no anticipation on a non-rotational one. */
void as_fit_device(struct as_tunables *t, bool rotational);
void as_init(struct as_sched *as, const struct as_tunables *t);
/* Replace tunables at run time (sysfs). Values are taken as given. */
void as_set_tunables(struct as_sched *as, const struct as_tunables *t);

void as_add(struct as_sched *as, struct antic_rq *rq, u64 now);
enum antic_verdict as_dispatch(struct as_sched *as, u64 now,
			       struct antic_rq **rq);
void as_complete(struct as_sched *as, struct antic_rq *rq, u64 now);
/* The drive gave a dispatched request back (requeue); it will be added again. */
void as_requeue(struct as_sched *as, struct antic_rq *rq);
void as_proc_exit(struct as_sched *as, struct antic_proc *p, u64 now);
/* @rq absorbed the queued @next (back merge of two requests). */
void as_merge_requests(struct as_sched *as, struct antic_rq *rq,
		       struct antic_rq *next);
/* @rq grew at its front to start at @new_sector. */
void as_front_merged(struct as_sched *as, struct antic_rq *rq, u64 new_sector);
/* @rq grew at its back (only the size changed). */
void as_back_merged(struct as_sched *as, struct antic_rq *rq, u32 nr_sectors);
/* Drop a queued request that the host takes back without dispatch. */
void as_remove(struct as_sched *as, struct antic_rq *rq);
/*
 * Cheap test for the host's has_work: true when dispatch may return a
 * request now. False while anticipating (the timer or an add re-arms it).
 */
bool as_has_work(const struct as_sched *as);
/* When the host must call as_handle_expiry (ns), or 0: no wait is timed. */
u64 as_get_expiry(const struct as_sched *as);
/*
 * The host says whether a writer slept in balance_dirty_pages() within
 * the last second (wbt's test), before each dispatch: the share rule owes
 * writes disk time only while someone waits on them.
 */
static inline void as_dirty_throttled(struct as_sched *as, bool throttled)
{
	as->dirty_throttled = throttled;
}
/* The host's timer fired: ends a wait that has run out. */
void as_handle_expiry(struct as_sched *as, u64 now);
u32 as_queued(const struct as_sched *as);
void as_estimates(const struct as_sched *as, struct as_estimates *e);
/*
 * For the host's tag allocation (limit_depth): should @p's read take
 * only part of the scheduler's tags? While a newcomer's favour runs,
 * processes that are no newcomers may not take them all: a load's
 * read-ahead filling every tag would leave the newcomer's next read
 * blocked before it reaches the scheduler, where no rule sees it.
 * @tags: the scheduler's tags (nr_requests). Counts the answers that
 * are yes. A host may skip the call (and its locks) while @now is past
 * newcomer_until. A yes is noted on @p (tag_held) for the read it
 * limits: however late that read arrives, @p was not silent.
 */
bool as_newcomer_limits_tags(struct as_sched *as, struct antic_proc *p,
			     u32 tags, u64 now);
/*
 * The queued request of class @prio_class (enum antic_prio_class) starting
 * at @sector in the sync (@sync) or async queues, or NULL: the front
 * merge lookup (blk-mq merges only requests of one priority).
 */
struct antic_rq *as_find_starting_at(const struct as_sched *as, bool sync,
				     u8 prio_class, u64 sector);

extern const struct antic_policy_ops as_policy_ops;

#endif /* ANTIC_ANTICIPATORY_H */
