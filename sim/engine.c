/*
 * engine.c - antic-sim's event loop: it sets up a run (the disk, the
 * policy, the jobs or the trace), takes events in (time, sequence) order,
 * hands each to the part of the simulator it concerns, and lets the block
 * layer dispatch after each. The parts are in sim.h's files.
 */
#include "sim.h"
#include "watchdog.h"

const char *sim_policy_name(enum sim_policy p)
{
	_Static_assert((int)POL_NOOP == ANTIC_POL_NOOP && (int)POL_DEADLINE == ANTIC_POL_DEADLINE &&
		       (int)POL_AS == ANTIC_POL_AS && (int)POL_NR == ANTIC_NR_POLICIES,
		       "enum sim_policy indexes core's antic_policy_names");
	return antic_policy_names[p].name;
}

/*
 * The latest a run can end, for the progress line: max_time, or sooner
 * when every job has a runtime (the sum of their spans when any waits
 * for another, else the longest); a replay's end is its trace's, unknown
 * before it is read.
 */
static uint64_t run_end(const struct workload *w, const struct sim_options *o)
{
	uint64_t most = 0, sum = 0, e;
	bool chained = false;
	size_t i;

	if (o->replay || !w->nr_jobs)
		return w->set.max_time;
	for (i = 0; i < w->nr_jobs; i++) {
		const struct job_spec *j = &w->jobs[i];

		if (!j->runtime)
			return w->set.max_time;
		e = j->startdelay + j->ramp_time + j->runtime;
		chained |= j->stonewall || j->wait_for[0];
		most = e > most ? e : most;
		sum += e;
	}
	e = chained ? sum : most;
	return e < w->set.max_time ? e : w->set.max_time;
}

/* Any of the names core's table gives a policy: noop/none, deadline/mq-deadline, anticipatory/as */
int sim_policy_parse(const char *s, enum sim_policy *p)
{
	int id = antic_policy_find(s);

	if (id < 0)
		return -1;
	*p = (enum sim_policy)id;
	return 0;
}

/* The drive finished @rq at s->now: everyone who waits on it hears. */
static int complete(struct sim *s, struct sim_rq *rq)
{
	struct sim_proc *p = NULL;
	int rc;

	drive_remove(s, rq);
	if (rq->kind == K_FLUSH) {
		/* past the scheduler, as Linux's flush machinery sends it */
		rc = job_flush_done(s, rq);
		blk_free(s, rq);
		drive_start_next(s);
		return rc;
	}
	if (s->set->requeue_per_mille && blk_maybe_requeue(s, rq))
		return 0;
	wbt_done(s, rq);
	blk_complete(s, rq);
	switch (rq->kind) {
	case K_TRACE:
		rc = replay_done(s, rq);
		break;
	case K_DIRECT:
		rc = job_direct_done(s, rq);
		break;
	default:	/* read-ahead, writeback, fsync: through the page cache */
		if (pages_done(s, rq))
			return -1;
		writeback_done(s, rq);
		rc = wake_waiters(s, rq->file);
		if (!rc)
			rc = writeback_after_completion(s, rq);
		break;
	}
	if (rq->kind != K_TRACE)
		p = job_of(s, rq);
	if (p)
		job_report_exit(s, p);
	blk_free(s, rq);
	drive_start_next(s);
	return rc;
}

/* Hand event @ev to the part of the simulator it concerns. 0, or -1. */
static int handle(struct sim *s, const struct event *ev)
{
	switch (ev->type) {
	case EV_WAKE:
		return job_wake(s, &s->procs[ev->arg]);
	case EV_END:
		job_finish(s, &s->procs[ev->arg]);
		return 0;
	case EV_DONE:
		return complete(s, ev->rq);
	case EV_DESTAGE:
		drive_destage_done(s);
		return 0;
	case EV_SCHED:
		s->ops->handle_expiry(s->sched, s->now);
		return 0;
	case EV_FLUSH:
		s->flush_wake = false;
		return flusher_run(s);
	case EV_TRACE:
		return replay_open_step(s);
	case EV_TWAKE:
		return replay_wake(s, ev->arg);
	}
	return 0;
}

static void sim_free(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++) {
		unsigned n;

		free(s->procs[i].app);
		for (n = 0; s->procs[i].pf && n < s->procs[i].nfiles; n++)
			free(s->procs[i].pf[n].map);
		free(s->procs[i].pf);
	}
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i].pages);
	blk_release(s);
	free(s->clean);
	free(s->procs);
	free(s->files);
	free(s->heap);
	free(s->drive);
	replay_free(s);
}

int sim_run(const struct workload *w, enum sim_policy pol,
	    const struct sim_options *o, struct sim_result *r,
	    char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	struct watchdog wd = { 0 };
	unsigned long warnings = antic_warnings;
	const char *why = NULL;
	uint64_t last_work = 0;	/* ns: the last event that moved a request or a job */
	size_t i;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->w = w;
	s->set = &w->set;
	s->r = r;
	s->o = o;
	s->pol = pol;
	/* its own stream: turning faults on moves no other draw */
	s->fault_rng = w->set.seed ^ 0x72657175657565ULL;
	writeback_init(s);
	r->scheduler = sim_policy_name(pol);
	if (disk_init(&s->disk, &w->set.disk, &why)) {
		snprintf(err, errlen, "disk parameter '%s' is out of range", why);
		goto out;
	}
	s->drive = calloc(s->disk.p.queue_depth, sizeof(*s->drive));
	r->nr_jobs = 0;
	for (i = 0; i < w->nr_jobs; i++)
		r->nr_jobs += w->jobs[i].numjobs;
	r->jobs = r->nr_jobs ? calloc(r->nr_jobs, sizeof(*r->jobs)) : NULL;
	if (!s->drive || (r->nr_jobs && !r->jobs)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	switch (pol) {
	case POL_NOOP:
		noop_init(&s->u.noop);
		s->ops = &noop_policy_ops;
		break;
	case POL_DEADLINE:
		dl_init(&s->u.dl, &w->set.dl);
		s->ops = &dl_policy_ops;
		break;
	default: {
		struct as_tunables t = w->set.as;

		/* the kernel's defaults, unless antic_expire was set by hand */
		if (!w->set.as_explicit_antic)
			as_fit_device(&t, disk_rotational(&s->disk));
		as_init(&s->u.as, &t);
		s->ops = &as_policy_ops;
		break;
	}
	}
	s->sched = &s->u;
	antic_proc_init(&s->flusher);
	s->mem_pages = w->set.mem_bytes / PAGE;
	if (layout(s, err, errlen)) {
		if (!*err)
			snprintf(err, errlen, "out of memory");
		goto out;
	}
	s->jobs_left = (unsigned)s->nprocs;
	wd.limit = WATCHDOG_EVENTS + 4 * (uint64_t)s->nprocs;	/* each may wake at one instant */
	for (i = 0; i < s->nprocs; i++)
		if (event_push(s, s->procs[i].spec->startdelay, EV_WAKE, (int)i, NULL))
			goto failed;
	if (o->replay) {
		if (replay_start(s, o->replay, err, errlen)) {
			if (!*err)
				snprintf(err, errlen, "%s", *replay_error(s) ? replay_error(s) : "out of memory");
			goto out;
		}
		/* the first requests may already be queued, with no event to run the queue */
		blk_run_queue(s);
	}
	for (;;) {
		struct event ev;

		if (s->stop && (!o->drain || !s->live_rqs))
			break;
		if (!event_pop(s, &ev)) {
			/*
			 * Nothing more will happen: the run ended at its
			 * last event that moved work, not at a timer the
			 * policy or the flusher had set for work long gone
			 * (an idle class's aging bound would add 10 s).
			 */
			s->now = last_work;
			break;
		}
		if (ev.t > w->set.max_time) {
			r->timed_out = true;
			break;
		}
		s->now = ev.t;
		r->events++;
		if (watchdog_tick(&wd, s->now, r->requests, r->bytes_completed, err, errlen))
			goto out;
		if (o->progress && s->now >= s->next_progress) {
			fprintf(stderr, "\r  %-13s %8.1f s simulated of at most %.0f s (%s)", r->scheduler,
				(double)s->now / 1e9, (double)run_end(w, o) / 1e9,
				run_end(w, o) < w->set.max_time ? "the jobs' runtimes" : "max_time");
			s->next_progress = s->now + ANTIC_NSEC_PER_SEC;
		}
		if (handle(s, &ev))
			goto failed;
		blk_run_queue(s);
		if ((ev.type != EV_SCHED && ev.type != EV_FLUSH) || s->live_rqs)
			last_work = s->now;
	}
	if (o->progress)
		fprintf(stderr, "\r%80s\r", "");
	r->sim_time = s->now;
	r->disk = s->disk.st;
	if (drive_active(s))
		r->disk_busy += s->now - s->busy_since;
	for (i = 0; i < s->nprocs; i++)
		if (!s->procs[i].finished && s->procs[i].started)
			r->jobs[i].runtime = s->now > s->procs[i].start ? s->now - s->procs[i].start : 0;
	if (pol == POL_AS) {
		r->as = s->u.as.cnt;
		as_estimates(&s->u.as, &r->est);
	}
	/* with drain, every request created must have completed */
	if (o->drain && !r->timed_out)
		r->violations += s->live_rqs;
	r->violations += antic_warnings - warnings;
	/* the drive cannot have been busy longer than the run */
	if (r->disk_busy > r->sim_time)
		r->violations++;
	if (s->rp)
		r->trace = *replay_trace_stats(s);
	rc = 0;
	goto out;
failed:
	/* a trace that went bad, an internal error found, or else memory */
	snprintf(err, errlen, "%s", *replay_error(s) ? replay_error(s) :
		 *s->bug ? s->bug : "out of memory");
out:
	if (rc)
		sim_result_free(r);
	sim_free(s);
	free(s);
	return rc;
}

void sim_result_free(struct sim_result *r)
{
	free(r->jobs);
	r->jobs = NULL;
}
