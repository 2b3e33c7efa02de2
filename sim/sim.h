/*
 * sim.h - the simulator's internal state, shared by the files of its event
 * loop (engine, events, blk, drive, pagecache, writeback, jobs, layout,
 * replay). Not for main.c or report.c: they see only engine.h.
 * Integer virtual time in ns throughout.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include "engine.h"
#include "trace.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096ULL
#define SECT_PER_PAGE 8

/* A page of a file in the page cache. */
enum { P_NONE, P_INFLIGHT, P_CLEAN, P_DIRTY, P_WB, P_WB_DIRTY };
/* Who a block request serves. */
enum { K_DIRECT, K_RA, K_WB, K_FSYNC, K_TRACE, K_FLUSH };
/* What an event does when its time comes. */
enum { EV_WAKE, EV_DONE, EV_SCHED, EV_END, EV_TRACE, EV_TWAKE, EV_FLUSH, EV_DESTAGE };
/* Where an fsync's FLUSH is: not needed yet, at the drive, answered. */
enum { FL_NONE, FL_SENT, FL_DONE };
/* What a job process is doing. */
enum { S_IDLE, S_IO, S_PAGES, S_THROTTLED, S_FSYNC, S_THINK, S_DONE };
/* The events kept beside the heap (see struct sim). */
enum { SIDE_TRACE, SIDE_MECH, SIDE_NR };

struct sim_file {
	char name[96];		/* as fio names it (jobname.jobnum.filenum, or filename=) */
	bool logged;		/* its add and open are in the iolog */
	uint64_t start;		/* first sector */
	uint64_t size;		/* bytes */
	uint8_t *pages;		/* page states, allocated on first buffered use */
	uint64_t npages;
	uint64_t ndirty;
	uint64_t wb_cursor;
	unsigned wb_inflight;	/* writeback requests at the disk */
	int dirty_next;		/* flusher's list of files with dirty pages */
	bool on_dirty_list;
};

/* One I/O as the application issued it; it may take several requests. */
struct app_io {
	bool busy;
	int dir;
	uint64_t start;
	uint64_t bytes;
	unsigned pieces;
	uint64_t off;		/* in its file, bytes (fio's log_offset) */
	uint16_t ioprio;	/* fio's ioprio value, class << 13 | level (its logs' prio) */
};

/* A fio job process. ap first: a request's rq.proc leads back to it. */
/*
 * What one job process does in one of its files this pass: fio's region
 * [lo, hi), a position per direction (rw=rw reads and writes apart) and
 * the random map that has each block issued once a pass.
 */
struct proc_file {
	uint64_t lo, hi;
	uint64_t pos[2];
	uint64_t done;		/* bytes this pass */
	uint64_t zone, zdone;	/* zonemode=strided: the zone, bytes done in it */
	uint64_t *map;		/* one bit a block, allocated on first random I/O */
};

struct sim_proc {
	struct antic_proc ap;
	struct proc_file *pf;	/* nfiles of them */
	uint64_t pass_size;	/* sum of the regions */
	uint64_t pass_done;	/* bytes of this pass over them */
	uint64_t nr_ios;	/* issued this loop (number_ios) */
	unsigned rr_count;	/* I/Os to the current file since the switch */
	uint64_t t0;		/* when it started (start is after ramp_time) */
	uint64_t rate_bytes, rate_ios;	/* issued since t0, for rate and rate_iops */
	double poisson_due;	/* rate_process=poisson: ns after t0 the next may go */
	bool held;		/* stonewall: waiting for the earlier jobs to end */
	const struct job_spec *spec;
	char name[80];
	unsigned file0, nfiles, cur;
	uint64_t io_size, issued;
	unsigned loops_left;
	uint64_t rng;
	uint64_t prio_rng;	/* cmdprio_percentage's draws: they move no other */
	int state;
	bool started, finished, exit_reported;
	bool issuing;		/* inside issue_one: an I/O completing now must not recurse */
	uint64_t start, end;
	unsigned inflight;	/* app I/Os outstanding (async engine) */
	unsigned reap_left;	/* completions before it fills its queue again (iodepth_low) */
	unsigned since_think, since_fsync;
	struct app_io *app;	/* iodepth slots */
	unsigned wait_app;	/* app slot waiting on pages / throttle */
	uint64_t wait_lo, wait_hi, wait_file;
	unsigned fsync_file, fsync_pending;
	int fsync_flush;	/* FL_*: the FLUSH that ends an fsync */
	unsigned fsync_gen;	/* which fsync: a FLUSH of an earlier one does not end it */
	bool fsync_then_finish;
	bool fsync_timed;	/* an fsync fio times (fsync=, end_fsync=; not O_SYNC's), since fsync_t0 */
	uint64_t fsync_t0;
	/* read-ahead state, in pages of the current file */
	int64_t ra_start;
	uint64_t ra_size, ra_async, ra_last;
	bool ra_valid;
	struct job_result *res;
};

struct sim_rq {
	struct antic_rq rq;	/* rq.proc: the submitting process's record */
	int kind;
	/*
	 * The application I/O this request is a piece of: the job's iodepth
	 * slot (K_DIRECT) or the replay's live record (K_TRACE).
	 */
	unsigned io;
	unsigned file;
	uint64_t page_lo, npages;
	struct disk_cmd cmd;	/* at the drive (cmd.arrival: when it got there) */
	bool absorbed;		/* a write the drive's cache took */
	bool requeued;		/* given back once: now sent around the scheduler */
	unsigned tag_limit;	/* the scheduler tags it may find in use and still take one */
	struct sim_rq *next_free;	/* also the tag wait's link */
};

struct event {
	uint64_t t, seq;
	int type;
	int arg;
	struct sim_rq *rq;
};

/* wbt's state: its step and depth, this window's samples, the read it times */
struct wbt {
	uint64_t win;		/* start of the current window */
	uint64_t window;	/* its length: wbt_window() at this step */
	int step;
	bool scaled_max;
	bool blocked;		/* the flusher sleeps until wbt_may_wake */
	unsigned tags, max, unknown, rd_n, wr_n;
	uint64_t rd_min;	/* fastest read of the window, issue to completion */
	uint64_t sync_issue;
	const void *sync_rq;
};

struct replay;

struct sim {
	const struct workload *w;
	const struct sim_settings *set;
	struct sim_result *r;
	enum sim_policy pol;
	const struct antic_policy_ops *ops;
	void *sched;
	union {
		struct as_sched as;
		struct dl_sched dl;
		struct noop_sched noop;
	} u;
	struct disk_model disk;
	uint64_t now, seq;
	struct event *heap;
	size_t nheap, capheap;
	/*
	 * Events of which at most one is ever pending, kept beside the heap:
	 * open-loop replay's next arrival and the completion of the command
	 * a rotating disk is serving. Each comes once per request, and its
	 * push and pop were about a twentieth of a replay's instructions.
	 * Ordered against the heap by the same (time, seq) key, as if inside.
	 */
	struct event side[SIDE_NR];
	bool side_on[SIDE_NR];
	/*
	 * The heap's least event, when it was pushed as such, kept outside
	 * it (front_on): earlier than every event in the heap. A replay's
	 * next wake-up is usually the earliest pending, and was sifted up
	 * through the heap to be sifted down again at once.
	 */
	struct event front;
	bool front_on;
	struct sim_proc *procs;
	size_t nprocs;
	struct sim_file *files;
	size_t nfiles;
	/* commands at the drive (&rq->cmd), in the order they arrived */
	const struct disk_cmd **drive;
	unsigned ndrive;
	unsigned nqueued_writes;	/* writes among drive[]: none, no cache to offer */
	struct sim_rq *mech;	/* HDD: the one being served */
	bool destaging;		/* HDD: the mechanism writes cached data */
	unsigned nabsorbed;	/* writes the drive's cache took, not yet done */
	/* FLUSHes, oldest first (linked by next_free), and the one started */
	struct sim_rq *flushq, *flushq_tail, *flush_rq;
	uint64_t busy_since;
	uint64_t sched_wake;
	uint64_t fault_rng;	/* requeue_per_mille's draws, seeded by seed */
	/*
	 * The I/O priority class of the context that submits now (the
	 * kernel's current task's ioprio, which bio_set_ioprio reads): a
	 * job while it issues, best effort otherwise (the flusher).
	 */
	u8 ioprio;
	/*
	 * The scheduler's tags (nr_requests): taken at submission, given back
	 * at completion; a request that finds its share in use waits, oldest
	 * first, unseen by the policy, as a task sleeps in blk_mq_get_tag.
	 */
	unsigned tags_used;
	struct sim_rq *tagq, *tagq_tail;
	struct sim_rq *free_rqs;
	struct sim_rq **blocks;
	size_t nblocks;
	uint64_t live_rqs;
	/* page cache */
	uint64_t nr_dirty, nr_wb, dirty_limit, bg_limit;
	/*
	 * Clean pages in the order they became clean; the oldest go first
	 * when the cache is full (FIFO, not LRU: re-reads do not refresh).
	 */
	struct clean_run { unsigned file; uint64_t lo, n; } *clean;
	size_t clean_head, clean_len, clean_cap;
	uint64_t nr_clean, mem_pages;
	int dirty_head, dirty_tail;
	unsigned flusher_inflight;
	bool flushing;
	struct antic_proc flusher;
	/* the write-bound audit's own view of the drive (blk.c) */
	unsigned audit_sync, audit_async;
	bool audit_last_async;	/* the last request sent was a write */
	unsigned jobs_left;
	bool stop;
	const struct sim_options *o;
	uint64_t next_progress;
	struct replay *rp;	/* replaying a trace instead of jobs */
	bool flush_wake;
	struct wbt wbt;
	/* balance_dirty_pages: when a writer last slept in it */
	bool dirty_slept;
	uint64_t dirty_sleep;
	char bug[160];		/* an internal error found, for sim_run's err */
};

/* events.c: the (time, sequence) heap and its side slots */
int event_push(struct sim *s, uint64_t t, int type, int arg, struct sim_rq *rq);
void event_set_side(struct sim *s, int slot, uint64_t t, int type, struct sim_rq *rq);
/*
 * The earliest pending event into *ev, taken out; false when none is
 * pending. One call answers both, as it looks at every place anyway.
 */
bool event_pop(struct sim *s, struct event *ev);

/* blk.c: the block layer, the policy in front of the drive */
/* A job's I/O priority class (fio's prioclass) as core names it. */
static inline u8 job_class(const struct job_spec *j)
{
	return j->prioclass == 1 ? ANTIC_CLASS_RT :
	       j->prioclass == 3 ? ANTIC_CLASS_IDLE : ANTIC_CLASS_BE;
}

int blk_submit(struct sim *s, int kind, struct antic_proc *ap, unsigned io,
	       unsigned file, uint64_t sector, uint64_t nr, bool write,
	       bool sync, uint64_t page_lo, uint64_t npages);
int blk_submit_split(struct sim *s, int kind, struct antic_proc *ap,
		     unsigned io, uint64_t sector, uint64_t nr, bool write,
		     bool sync, unsigned *pieces);
void blk_run_queue(struct sim *s);
void blk_complete(struct sim *s, struct sim_rq *rq);
bool blk_maybe_requeue(struct sim *s, struct sim_rq *rq);
struct sim_rq *blk_alloc(struct sim *s, int kind, struct antic_proc *ap, uint64_t sector,
			 uint64_t nr, bool write, bool sync, u8 prio_class);
void blk_free(struct sim *s, struct sim_rq *rq);
void blk_release(struct sim *s);

/* drive.c: the commands at the drive, depth 1 or NCQ */
void drive_submit(struct sim *s, struct sim_rq *rq);
void drive_start_next(struct sim *s);
void drive_remove(struct sim *s, struct sim_rq *rq);
bool drive_has_room(const struct sim *s);
bool drive_active(const struct sim *s);
int drive_flush(struct sim *s, struct antic_proc *ap, unsigned file,
		unsigned gen);
void drive_destage_done(struct sim *s);

/* pagecache.c: page states, read-ahead, eviction */
int file_pages(struct sim_file *f);
uint64_t max_pages_per_rq(const struct sim *s);
int read_pages(struct sim *s, struct sim_proc *p, unsigned fi, uint64_t lo, uint64_t hi);
int readahead(struct sim *s, struct sim_proc *p, unsigned fi, uint64_t lo, uint64_t hi);
int readahead_marker(struct sim *s, struct sim_proc *p, unsigned fi, uint64_t lo, uint64_t hi);
bool pages_ready(const struct sim_file *f, uint64_t lo, uint64_t hi);
int pages_done(struct sim *s, const struct sim_rq *rq);
void cache_invalidate(struct sim *s, unsigned fi, uint64_t lo, uint64_t hi);

/* writeback.c: dirty lists, the flusher, wbt */
#define WBT_TARGET (75 * ANTIC_NSEC_PER_MSEC)
void writeback_init(struct sim *s);
void dirty_list_add(struct sim *s, unsigned fi);
int write_run(struct sim *s, unsigned fi, uint64_t *cursor, int kind,
	      struct antic_proc *ap, bool sync);
int flusher_run(struct sim *s);
void writeback_done(struct sim *s, const struct sim_rq *rq);
int writeback_after_completion(struct sim *s, const struct sim_rq *rq);
void wbt_init(struct wbt *w, unsigned drive_depth);
uint64_t wbt_window(const struct wbt *w);
void wbt_window_end(struct wbt *w, uint64_t now, bool writes_about);
unsigned wbt_limit(const struct wbt *w, bool recent_wait);
bool wbt_may_wake(const struct wbt *w, unsigned inflight);
void wbt_issue(struct sim *s, const struct sim_rq *rq);
void wbt_done(struct sim *s, const struct sim_rq *rq);
void wbt_dirty_sleep(struct sim *s);
/* wbt's test, also told to anticipatory: a writer waits on writeback */
bool dirty_throttled_recently(const struct sim *s);

/* jobs.c: fio job processes */
uint64_t rng_below(uint64_t *s, uint64_t n);
double rng_exponential(uint64_t *rng);
/* jobio.c: the (file, offset, length, direction) a job issues next; 0 when done */
void job_invalidate(struct sim *s, const struct sim_proc *p);
int job_next_io(struct sim *s, struct sim_proc *p, unsigned *fi,
		uint64_t *off, uint64_t *len, int *dir);
struct sim_proc *job_of(struct sim *s, const struct sim_rq *rq);
int job_wake(struct sim *s, struct sim_proc *p);
void job_finish(struct sim *s, struct sim_proc *p);
void job_report_exit(struct sim *s, struct sim_proc *p);
int job_direct_done(struct sim *s, struct sim_rq *rq);
int job_flush_done(struct sim *s, struct sim_rq *rq);
int wake_waiters(struct sim *s, unsigned fi);

/* layout.c: the jobs' files on the disk */
int layout(struct sim *s, char *err, size_t errlen);

/* replay.c: open and closed-loop trace replay */
int replay_start(struct sim *s, const struct replay_spec *spec, char *err, size_t errlen);
int replay_open_step(struct sim *s);
int replay_wake(struct sim *s, int pi);
int replay_done(struct sim *s, struct sim_rq *rq);
const char *replay_error(const struct sim *s);
const struct trace_stats *replay_trace_stats(const struct sim *s);
void replay_free(struct sim *s);

#endif
