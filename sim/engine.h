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

struct job_result {
	char name[80];
	uint64_t io_bytes[2];	/* [0] read, [1] write, as the application saw */
	uint64_t ios[2];
	uint64_t runtime;	/* ns */
	struct hist lat[2];	/* completion latency of each application I/O */
};

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
};

struct sim_options {
	bool drain;		/* after the jobs end, finish every request */
	bool progress;		/* a progress line on stderr */
	/* replay this trace; the workload's jobs, if any, are a background load beside it */
	const struct replay_spec *replay;
	FILE *iolog;		/* what the jobs issue, as fio's iolog v3 (write_iolog=) */
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
