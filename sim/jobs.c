/*
 * jobs.c - fio's job processes: each I/O (where it goes is jobio.c's)
 * buffered through the page cache or direct to the block layer, with
 * fio's sync and async engines, think time, rate, stonewall and fsync.
 */
#include "sim.h"
#include "outputs.h"

static void finish_all(struct sim *s);
/* wait_for: does a job of the named section still run or wait? */
static bool waitee_running(const struct sim *s, const struct sim_proc *p)
{
	size_t i;

	if (!p->spec->wait_for[0])
		return false;
	for (i = 0; i < s->nprocs; i++)
		if (!strcmp(s->procs[i].spec->name, p->spec->wait_for) && !s->procs[i].finished &&
		    &s->procs[i] != p)
			return true;
	return false;
}

static void release_stonewalled(struct sim *s);

/* stonewall: does any job of a section before @p's still run or wait? */
static bool earlier_running(const struct sim *s, const struct sim_proc *p)
{
	size_t i;

	for (i = 0; i < s->nprocs && s->procs[i].spec < p->spec; i++)
		if (!s->procs[i].finished)
			return true;
	return false;
}

static void release_stonewalled(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++) {
		struct sim_proc *p = &s->procs[i];

		if (p->held && !(p->spec->stonewall && earlier_running(s, p)) &&
		    !waitee_running(s, p)) {
			p->held = false;
			if (event_push(s, s->now + p->spec->startdelay, EV_WAKE, (int)i, NULL))
				snprintf(s->bug, sizeof(s->bug), "stonewall: no room for an event");
		}
	}
}

static void job_result_io(struct sim *s, struct sim_proc *p, const struct app_io *a, uint64_t now)
{
	/* ramp_time: I/O that completes before the measured start does not count */
	if (p->finished || now < p->start)
		return;
	job_result_add(p->res, a->dir, a->bytes, a->start, now);
	if (s->o->logs)
		fio_log_io(s->o->logs, (size_t)(p->res - s->r->jobs), p->spec, now - p->start,
			   now - a->start, a->dir, a->bytes, a->off, a->ioprio);
}

void job_report_exit(struct sim *s, struct sim_proc *p)
{
	if (p->exit_reported || !p->finished || p->ap.nr_queued || p->ap.nr_in_flight)
		return;
	p->exit_reported = true;
	s->ops->proc_exit(s->sched, &p->ap, s->now);
}

void job_finish(struct sim *s, struct sim_proc *p)
{
	if (p->finished)
		return;
	p->finished = true;
	p->state = S_DONE;
	p->end = s->now;
	p->res->runtime = s->now > p->start ? s->now - p->start : 0;
	/* beside a replay, the replay's end ends the run (replay.c) */
	if (s->jobs_left && !--s->jobs_left && !s->rp)
		s->stop = true;
	job_report_exit(s, p);
	if (p->spec->exitall)
		finish_all(s);
	else
		release_stonewalled(s);
}

static void finish_all(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i].started && !s->procs[i].finished)
			job_finish(s, &s->procs[i]);
	s->stop = true;
}

static int issue_next(struct sim *s, struct sim_proc *p);

/* @timed: an fsync call fio would time (fsync=N, end_fsync), not an O_SYNC write's */
static int start_fsync(struct sim *s, struct sim_proc *p, unsigned fi, bool timed)
{
	struct sim_file *f = &s->files[fi];
	uint64_t cur = 0;
	int n;

	p->fsync_timed = timed;
	p->fsync_t0 = s->now;
	p->state = S_FSYNC;
	p->fsync_file = fi;
	p->fsync_pending = 0;
	p->fsync_flush = FL_NONE;
	p->fsync_gen++;
	if (!f->pages)
		return 0;
	s->ioprio = job_class(p->spec);	/* fsync writes in the caller's context */
	while ((n = write_run(s, fi, &cur, K_FSYNC, &p->ap, true)) > 0)
		p->fsync_pending++;
	s->ioprio = ANTIC_CLASS_BE;
	return n;
}

/*
 * Where @p's fsync stands: 1 done, 0 still waiting, -1 out of memory.
 * Once its writes are done, a drive with a write cache gets a FLUSH, as
 * the kernel sends one (blkdev_issue_flush) before fsync returns.
 */
static int fsync_advance(struct sim *s, struct sim_proc *p)
{
	if (p->fsync_pending || s->files[p->fsync_file].wb_inflight)
		return 0;
	if (!s->disk.p.write_cache || p->fsync_flush == FL_DONE) {
		if (p->fsync_timed && p->fsync_t0 >= p->start && !p->finished)
			hist_add(&p->res->sync, s->now - p->fsync_t0);
		p->fsync_timed = false;
		return 1;
	}
	if (p->fsync_flush == FL_NONE) {
		p->fsync_flush = FL_SENT;
		if (drive_flush(s, &p->ap, p->fsync_file, p->fsync_gen))
			return -1;
	}
	return 0;
}

/* @p's FLUSH came back: its fsync may be over. */
int job_flush_done(struct sim *s, struct sim_rq *rq)
{
	struct sim_proc *p = job_of(s, rq);

	/*
	 * Only the FLUSH of the fsync under way ends it: an async job's write
	 * completing mid-fsync starts another, which an older FLUSH does not
	 * cover.
	 */
	if (p && rq->io == p->fsync_gen)
		p->fsync_flush = FL_DONE;
	return wake_waiters(s, rq->file);
}

/* fio's iodepth_low: how far a full queue drains before it is filled again */
static unsigned refill_depth(const struct job_spec *j)
{
	return j->iodepth_low && j->iodepth_low < j->iodepth ? j->iodepth_low : j->iodepth;
}

/* fio's iodepth_batch_complete_min, of @inflight: one reap's least */
static unsigned reap_least(const struct job_spec *j, unsigned inflight)
{
	unsigned n = j->reap_min ? j->reap_min : 1;

	return n < inflight ? n : inflight;
}

/* The application's I/O @a of process @p has completed at s->now. */
static int app_done(struct sim *s, struct sim_proc *p, struct app_io *a)
{

	job_result_io(s, p, a, s->now);
	a->busy = false;
	p->inflight--;
	/* a reap of reap_least done: another while more than iodepth_low remain */
	if (p->reap_left && !--p->reap_left && p->inflight > refill_depth(p->spec))
		p->reap_left = reap_least(p->spec, p->inflight);
	if (p->finished)
		return 0;
	if (p->state == S_IO || p->state == S_PAGES || p->state == S_THROTTLED)
		p->state = S_IDLE;
	if (a->dir == 1 && p->spec->fsync_every && ++p->since_fsync >= p->spec->fsync_every) {
		int rc;

		/* direct I/O has no dirty pages, but a write cache to flush */
		p->since_fsync = 0;
		if (start_fsync(s, p, p->file0 + p->cur, true) < 0)
			return -1;
		rc = fsync_advance(s, p);
		if (rc <= 0)
			return rc;
		p->state = S_IDLE;
	}
	{
		/*
		 * The process runs again only after the wake-up delay: this gap
		 * is where a work-conserving scheduler turns to other work.
		 */
		uint64_t delay = s->set->wakeup;

		if (p->spec->thinktime && ++p->since_think >= p->spec->thinktime_blocks) {
			p->since_think = 0;
			delay += p->spec->thinktime;
		}
		/* rate, rate_iops: not ahead of the pace since the job started */
		if (p->spec->rate || p->spec->rate_iops) {
			double due = 0, t;

			if (p->spec->rate)
				due = (double)p->rate_bytes * 1e9 / (double)p->spec->rate;
			if (p->spec->rate_iops && p->spec->poisson) {
				/* exponential gaps with the rate's mean: a Poisson process */
				p->poisson_due += rng_exponential(&p->rng) * 1e9 / (double)p->spec->rate_iops;
				due = p->poisson_due > due ? p->poisson_due : due;
			} else if (p->spec->rate_iops) {
				t = (double)p->rate_ios * 1e9 / (double)p->spec->rate_iops;
				due = t > due ? t : due;
			}
			t = (double)p->t0 + due;
			if (t > (double)(s->now + delay))
				delay = t > 1.8e19 ? UINT64_MAX / 4 : (uint64_t)t - s->now;
		}
		/*
		 * With no delay, an I/O the page cache served at once would issue
		 * the next from inside this one, without bound (wakeup=0 over a
		 * cached file overflowed the stack): go round the event loop.
		 */
		if (delay || p->issuing) {
			if (p->state == S_IDLE)
				p->state = S_THINK;
			return event_push(s, s->now + delay, EV_WAKE, (int)(p - s->procs), NULL);
		}
	}
	return issue_next(s, p);
}

static unsigned free_slot(const struct sim_proc *p)
{
	unsigned i;

	for (i = 0; i < p->spec->iodepth; i++)
		if (!p->app[i].busy)
			return i;
	return p->spec->iodepth;
}


static int buffered_read(struct sim *s, struct sim_proc *p, unsigned slot, unsigned fi,
			 uint64_t off, uint64_t len)
{
	struct sim_file *f = &s->files[fi];
	uint64_t lo = off / PAGE, hi = (off + len + PAGE - 1) / PAGE;

	if (file_pages(f) || readahead(s, p, fi, lo, hi) ||
	    read_pages(s, p, fi, lo, hi))
		return -1;
	p->ra_last = hi - 1;
	if (pages_ready(f, lo, hi))
		return app_done(s, p, &p->app[slot]);
	p->state = S_PAGES;
	p->wait_app = slot;
	p->wait_file = fi;
	p->wait_lo = lo;
	p->wait_hi = hi;
	return 0;
}

static int buffered_write(struct sim *s, struct sim_proc *p, unsigned slot, unsigned fi,
			  uint64_t off, uint64_t len)
{
	struct sim_file *f = &s->files[fi];
	uint64_t lo = off / PAGE, hi = (off + len + PAGE - 1) / PAGE, i;

	if (file_pages(f))
		return -1;
	for (i = lo; i < hi && i < f->npages; i++) {
		uint8_t *pg = &f->pages[i];

		if (*pg == P_DIRTY || *pg == P_WB_DIRTY)
			continue;
		if (*pg == P_CLEAN)
			s->nr_clean--;
		*pg = *pg == P_WB ? P_WB_DIRTY : P_DIRTY;
		if (*pg == P_DIRTY) {
			f->ndirty++;
			s->nr_dirty++;
		}
	}
	if (f->ndirty)
		dirty_list_add(s, fi);
	if (flusher_run(s))
		return -1;
	if (p->spec->osync) {
		p->app[slot].busy = true;
		p->wait_app = slot;
		int rc;

		if (start_fsync(s, p, fi, false) < 0)
			return -1;
		rc = fsync_advance(s, p);
		if (rc > 0)
			return app_done(s, p, &p->app[slot]);
		return rc;
	}
	if (s->nr_dirty + s->nr_wb > s->dirty_limit) {
		/* balance_dirty_pages: the writer waits for writeback */
		p->state = S_THROTTLED;
		p->wait_app = slot;
		wbt_dirty_sleep(s);
		return 0;
	}
	return app_done(s, p, &p->app[slot]);
}

/* fio's ioprio value for a job's I/O: prio alone means best effort, as fio sets it */
static uint16_t job_ioprio(const struct job_spec *j)
{
	unsigned class = j->prioclass ? j->prioclass : j->prio_given ? 2 : 0;

	return (uint16_t)(class << 13 | (class ? j->prio : 0));
}

static int issue_one(struct sim *s, struct sim_proc *p)
{
	unsigned fi, slot = free_slot(p);
	uint64_t off, len;
	int rc;
	int dir, got = job_next_io(s, p, &fi, &off, &len, &dir);
	struct app_io *a;

	if (got <= 0)
		return got < 0 ? -1 : 1;
	a = &p->app[slot];
	*a = (struct app_io){ true, dir, s->now, len, 0, off, job_ioprio(p->spec) };
	p->inflight++;
	if (s->now >= p->start)
		job_result_depth(p->res, p->inflight);
	p->state = S_IO;
	if (!p->spec->direct) {
		p->issuing = true;
		rc = dir ? buffered_write(s, p, slot, fi, off, len) :
			   buffered_read(s, p, slot, fi, off, len);
		p->issuing = false;
		return rc;
	}
	/* fio's cmdprio_percentage: this I/O goes with cmdprio_class */
	s->ioprio = job_class(p->spec);
	if (p->spec->cmdprio_pct[dir] &&
	    rng_below(&p->prio_rng, 100) < p->spec->cmdprio_pct[dir]) {
		unsigned c = p->spec->cmdprio_class[dir];

		s->ioprio = c == 1 ? ANTIC_CLASS_RT : c == 3 ? ANTIC_CLASS_IDLE : ANTIC_CLASS_BE;
		a->ioprio = (uint16_t)(c << 13);	/* fio's cmdprio level: 0 */
	}
	rc = blk_submit_split(s, K_DIRECT, &p->ap, slot,
			      s->files[fi].start + off / 512, (len + 511) / 512,
			      dir, true, &a->pieces);
	s->ioprio = ANTIC_CLASS_BE;
	return rc;
}

static int issue_next(struct sim *s, struct sim_proc *p)
{

	if (p->finished || p->reap_left)
		return 0;
	/*
	 * S_THINK: an I/O the page cache served at once has queued the wake
	 * that goes on after the wake-up delay. An async engine that went on
	 * here queued one wake per cached I/O, each of which issued a burst
	 * of its own: a buffered libaio rw=rw job over a cached file made
	 * events without end while virtual time stood still.
	 */
	while (p->inflight < p->spec->iodepth && p->state != S_PAGES &&
	       p->state != S_THROTTLED && p->state != S_FSYNC &&
	       p->state != S_THINK && !p->finished) {
		int rc = issue_one(s, p);

		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (p->inflight)
				return 0;	/* the rest completes first */
			if (p->spec->end_fsync && !p->fsync_then_finish) {
				p->fsync_then_finish = true;
				if (start_fsync(s, p, p->file0 + p->cur, true) < 0)
					return -1;
				rc = fsync_advance(s, p);
				if (rc <= 0)
					return rc;
			}
			job_finish(s, p);
			return 0;
		}
		if (!p->spec->async_engine)
			break;
	}
	/*
	 * fio with its queue full reaps at least iodepth_batch_complete_min,
	 * and reaps again while more than iodepth_low are in flight, before
	 * it issues more; by default (one, and iodepth) that is each completion
	 */
	if (p->inflight == p->spec->iodepth && p->spec->async_engine &&
	    (refill_depth(p->spec) < p->spec->iodepth || reap_least(p->spec, p->inflight) > 1))
		p->reap_left = reap_least(p->spec, p->inflight);
	return 0;
}

/* Something changed in the page cache: let waiting processes go on. */
int wake_waiters(struct sim *s, unsigned fi)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++) {
		struct sim_proc *p = &s->procs[i];

		if (p->finished)
			continue;
		if (p->state == S_PAGES && p->wait_file == fi) {
			/* the reader has come as far as the marker: next window */
			if (readahead_marker(s, p, fi, p->wait_lo, p->wait_hi))
				return -1;
			if (!pages_ready(&s->files[fi], p->wait_lo, p->wait_hi)) {
				/* the cache may have dropped some while it waited */
				if (read_pages(s, p, fi, p->wait_lo, p->wait_hi))
					return -1;
				continue;
			}
			p->state = S_IO;
			if (app_done(s, p, &p->app[p->wait_app]))
				return -1;
		} else if (p->state == S_THROTTLED &&
			   s->nr_dirty + s->nr_wb <= s->dirty_limit) {
			p->state = S_IO;
			wbt_dirty_sleep(s);
				if (app_done(s, p, &p->app[p->wait_app]))
				return -1;
		} else if (p->state == S_FSYNC && p->fsync_file == fi) {
			int rc = fsync_advance(s, p);

			if (rc < 0)
				return -1;
			if (!rc)
				continue;
			p->state = S_IDLE;
			if (p->fsync_then_finish) {
				job_finish(s, p);
			} else if (p->spec->osync && p->app[p->wait_app].busy) {
				if (app_done(s, p, &p->app[p->wait_app]))
					return -1;
			} else if (issue_next(s, p)) {
				return -1;
			}
		}
	}
	return 0;
}

/* A job is due to run (its start, or the end of a think or wake-up delay). */
int job_wake(struct sim *s, struct sim_proc *p)
{
	if (p->finished)
		return 0;
	if (!p->started) {
		/* stonewall: not before every earlier job has ended (fio's order) */
		if ((p->spec->stonewall && earlier_running(s, p)) || waitee_running(s, p)) {
			p->held = true;
			return 0;
		}
		if (p->held)
			return 0;
		p->started = true;
		job_invalidate(s, p);
		p->t0 = s->now;
		p->start = s->now + p->spec->ramp_time;
		if (p->spec->runtime &&
		    event_push(s, p->start + p->spec->runtime, EV_END, (int)(p - s->procs), NULL))
			return -1;
	}
	if (p->state == S_THINK)
		p->state = S_IDLE;
	return issue_next(s, p);
}

/* The job process that submitted @rq, or NULL for the flusher's writes. */
struct sim_proc *job_of(struct sim *s, const struct sim_rq *rq)
{
	if (rq->rq.proc == &s->flusher)
		return NULL;
	return (struct sim_proc *)((char *)rq->rq.proc - offsetof(struct sim_proc, ap));
}

/* A piece of a direct I/O completed; the last one completes the I/O. */
int job_direct_done(struct sim *s, struct sim_rq *rq)
{
	struct sim_proc *p = job_of(s, rq);
	struct app_io *a = &p->app[rq->io];

	return --a->pieces ? 0 : app_done(s, p, a);
}
