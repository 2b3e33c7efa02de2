/*
 * engine.h - the discrete-event simulator: jobs, a page-cache model, the
 * block layer's queue around a core/ policy, and the disk model, all in
 * virtual time. Deterministic for a given workload and seed.
 */
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include "job.h"
#include "hist.h"
#include "trace.h"

enum sim_policy { POL_NOOP, POL_DEADLINE, POL_AS, POL_NR };

/*
 * fio's bandwidth or IOPS statistics: one sample per window of
 * JOB_STAT_WINDOW from the job's first I/O (fio's bw_avg_time and
 * iops_avg_time, 500 ms by default); a window without I/O is a sample of 0,
 * the window under way at the end is none.
 */
#define JOB_STAT_WINDOW 500000000ULL
struct rate_stat {
	uint64_t n, min, max;
	double sum, sq;
};

struct job_result {
	char name[80];
	const struct job_spec *spec;	/* NULL for a replayed process */
	uint64_t io_bytes[2];	/* [0] read, [1] write, as the application saw */
	uint64_t ios[2];
	/* beside the counts: each I/O touches both (one cache line) */
	uint64_t win_end;	/* ns: the end of the window under way; 0 before the first I/O */
	uint64_t win_bytes[2], win_ios[2];
	uint64_t runtime;	/* ns */
	struct hist lat[2];	/* completion latency of each application I/O */
	struct hist sync;	/* fsync latency: fsync=N's and end_fsync's, as fio's "sync" */
	struct rate_stat bw[2];	/* KiB/s per window */
	struct rate_stat iops[2];	/* I/Os per second per window */
	/* fio's iodepth_level: I/Os by the depth they made (1, 2, 4, 8, 16, 32, >=64) */
	uint64_t depth[7];
};

/* The windows of @j that ended before @now, each a sample (jobstat.c). */
void job_result_windows(struct job_result *j, uint64_t issued, uint64_t now);

/*
 * One application I/O of @j issued at @issued completed at @now. Inline:
 * a replay's every request comes here, and the call was 2 % of its time.
 */
static inline void job_result_add(struct job_result *j, int dir, uint64_t bytes,
				  uint64_t issued, uint64_t now)
{
	if (now >= j->win_end)
		job_result_windows(j, issued, now);
	j->win_bytes[dir] += bytes;
	j->win_ios[dir]++;
	j->io_bytes[dir] += bytes;
	j->ios[dir]++;
	hist_add(&j->lat[dir], now - issued);
}
/* An application I/O issued with @depth of the job's I/Os in flight, itself included. */
void job_result_depth(struct job_result *j, unsigned depth);

struct sim_result {
	const char *scheduler;
	size_t nr_jobs;
	struct job_result *jobs;
	uint64_t sim_time;	/* ns when the last job ended */
	uint64_t disk_busy;	/* ns with a command at the drive */
	struct disk_stats disk;
	uint64_t events;
	uint64_t requests;	/* block requests created */
	uint64_t bytes_added, bytes_completed;
	/*
	 * Requests that broke the lifecycle (completed without dispatch, or
	 * never, with drain) and core invariants broken during the run.
	 */
	uint64_t violations;
	uint64_t max_sync_wait;	/* ns from add to dispatch, sync requests */
	uint64_t max_read_wait;
	uint64_t max_async_wait;	/* the same, async (buffered) writes */
	uint64_t tag_waits;	/* requests that waited for a scheduler tag */
	/* files the layout setting placed, of all the run's files */
	size_t layout_placed, layout_files;
	/*
	 * Block requests completed by direction ([0] read, [1] write), the
	 * writes marked sync (O_DIRECT, O_SYNC, fsync's) among them, their
	 * sectors, and their ns from add to completion (the kernel's ticks).
	 */
	uint64_t rq_done[2], rq_sync_writes, rq_sectors[2], rq_ticks[2];
	/*
	 * Anticipatory's write bound, audited from the host's side: read
	 * batches started after writes (each may find at most K at the
	 * drive), and the breaches: more than K there, or a write sent while
	 * a sync request was at the drive.
	 */
	uint64_t bound_checks, bound_exceeded;
	bool timed_out;		/* max_time reached before the jobs ended */
	uint64_t requeues;	/* commands the drive gave back (requeue_per_mille) */
	struct as_counters as;
	struct as_estimates est;
	struct trace_stats trace;	/* a replay's input, as read */
};

struct replay_spec {
	const char *path;
	struct trace_opts topts;
	/*
	 * closed: per process, a synchronous request starts its recorded
	 * think time after the previous one completes; open: every request
	 * at its recorded time.
	 */
	bool closed;
	double time_scale;	/* recorded times and think times times this */
	/*
	 * ns: the trace's first record at this time, after the workload's
	 * jobs (a background load, replay --jobs) have run this long
	 */
	uint64_t start;
	/*
	 * A trace reaching past the disk's end: refused (REMAP_NONE), its
	 * positions scaled by capacity / the trace's extent (REMAP_SCALE,
	 * seeks shorter in proportion), or taken modulo the capacity
	 * (REMAP_WRAP, short seeks kept, far regions folded together).
	 */
	enum { REMAP_NONE, REMAP_SCALE, REMAP_WRAP } remap;
	/* --ioprio: the I/O priority of the processes named, in the order given */
	struct replay_ioprio *ioprio;
	size_t nioprio;
};

/*
 * replay --ioprio WHO=CLASS[:LEVEL]: every request of the traced
 * processes WHO names goes in that class. A process that both a pid and a
 * name select takes the pid's; of two alike, the later one.
 */
struct replay_ioprio {
	/* as given: a pid (all digits) or a process name (a trace keeps 16 characters) */
	char who[17];
	uint32_t pid;		/* by_pid: the pid */
	bool by_pid;
	uint8_t ionice;		/* ionice -c's class, 0-3 (0 none: best effort) */
	uint8_t level;		/* ionice -n's level, 0-7: shown, not modelled */
	uint8_t prio_class;	/* the class core serves (enum antic_prio_class) */
	bool matched;		/* the replay found a process it selects */
};

struct fio_logs;
struct bt_writer;

struct sim_options {
	bool drain;		/* after the jobs end, finish every request */
	bool progress;		/* a progress line on stderr */
	/* replay this trace; the workload's jobs, if any, are a background load beside it */
	const struct replay_spec *replay;
	FILE *iolog;		/* what the jobs issue, as fio's iolog v3 (write_iolog=) */
	struct fio_logs *logs;	/* the jobs' write_lat_log, write_bw_log, write_iops_log */
	struct bt_writer *bt;	/* the block requests as blktrace's events (--write-blktrace) */
};

/* core's invariants broken so far (ANTIC_WARN_ON), in this process */
extern unsigned long antic_warnings;

/* Run @w under @pol. Returns 0, or -1 with a reason in @err. */
int sim_run(const struct workload *w, enum sim_policy pol,
	    const struct sim_options *o, struct sim_result *r,
	    char *err, size_t errlen);
void sim_result_free(struct sim_result *r);
const char *sim_policy_name(enum sim_policy p);
int sim_policy_parse(const char *s, enum sim_policy *p);

#endif
