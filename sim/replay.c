/*
 * replay.c - a block trace replayed against the simulated disk: open loop
 * (every request at its recorded time) or closed loop (each process's next
 * request after its previous completes, plus its recorded think time),
 * reading the trace a window ahead so memory stays flat in its length.
 */
#include "sim.h"
#include "outputs.h"
#include "pidmap.h"
#include "replay-rule.h"

/*
 * Records read from the trace but not yet issued wait in their process's
 * FIFO; at most REPLAY_WINDOW of them, so memory does not grow with the
 * trace. A process whose next record lies beyond the window waits until
 * the others catch up.
 */
#define REPLAY_WINDOW 65536

/*
 * A record waiting in its process's FIFO, packed (40 bytes, not a
 * trace_rec's 72): a window of them is read a window before its use, and
 * the smaller it is, the more of it is still in cache then.
 */
struct replay_node {
	uint64_t t;		/* scaled */
	/* scaled: the think time for TD_AFTER_DONE, else the gap since the previous record */
	uint64_t wait;
	uint64_t sector;
	uint32_t nr;
	int next;
	bool write, sync;
	uint8_t dep;
};

struct replay_proc {
	struct antic_proc ap;
	uint32_t pid;
	int head, tail;
	struct replay_chain c;	/* what replay-rule.h decides from */
	uint64_t first;
	bool timer, exited;
	uint8_t prio_class;	/* its requests' (--ioprio; best effort by default) */
};

struct replay_io {
	uint64_t start, bytes;
	unsigned pieces;
	int proc, dir, next;
};

struct replay {
	struct trace *t;
	const struct replay_spec *spec;
	struct replay_proc **procs;
	size_t nprocs, cap;
	/* the workload's jobs (a background load) come first in the results */
	size_t base, exited;
	struct pidmap pids;	/* pid -> procs index */
	struct replay_node *nodes;
	int free_node;
	unsigned pending;
	struct replay_io *live;
	size_t nlive, caplive;
	int free_live;
	struct trace_rec next;	/* open loop: the record due next */
	uint64_t extent;	/* --remap scale: the trace's last sector + 1; 0: no scaling */
	bool eof;
	char err[512];
};

static uint64_t replay_scale(const struct replay *rp, uint64_t ns)
{
	double v;

	/* the usual case, without a trip through double; the same cap */
	if (rp->spec->time_scale == 1.0)
		return ns >= 18000000000000000000ULL ? UINT64_MAX / 2 : ns;
	v = (double)ns * rp->spec->time_scale;
	return v >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)v;
}

/* A recorded time, scaled, on the simulated clock: after the replay's start. */
static uint64_t replay_start_at(const struct replay *rp, uint64_t ns)
{
	uint64_t at = replay_scale(rp, ns);

	return at < UINT64_MAX / 2 - rp->spec->start ? at + rp->spec->start : UINT64_MAX / 2;
}

/*
 * The class --ioprio gives process @pid, named @comm (NULL: unnamed) when
 * its first record is read: a pid's entry before a name's, the later of
 * two alike. Each entry that selects it is marked matched.
 */
static uint8_t replay_ioprio_of(const struct replay_spec *spec, uint32_t pid, const char *comm)
{
	const struct replay_ioprio *by_pid = NULL, *by_name = NULL;
	size_t i;

	for (i = 0; i < spec->nioprio; i++) {
		struct replay_ioprio *e = &spec->ioprio[i];

		if (e->by_pid ? e->pid == pid : comm && !strcmp(e->who, comm)) {
			e->matched = true;
			*(e->by_pid ? &by_pid : &by_name) = e;
		}
	}
	if (by_pid)
		return by_pid->prio_class;
	return by_name ? by_name->prio_class : ANTIC_CLASS_BE;
}

/* A process for @pid, seen for the first time. -1: out of memory. */
static __attribute__((noinline)) int replay_proc_new(struct sim *s, uint32_t pid)
{
	struct replay *rp = s->rp;

	if (rp->nprocs == rp->cap) {
		size_t cap = rp->cap ? rp->cap * 2 : 16, i;
		struct replay_proc **np = realloc(rp->procs, cap * sizeof(*np));
		struct job_result *nj = realloc(s->r->jobs, (rp->base + cap) * sizeof(*nj));

		if (np)
			rp->procs = np;
		if (nj) {
			s->r->jobs = nj;
			/* the background jobs' results moved with the table */
			for (i = 0; i < s->nprocs; i++)
				s->procs[i].res = &nj[i];
		}
		if (!np || !nj)
			return -1;
		rp->cap = cap;
	}
	{
		/*
		 * One allocation each: requests in flight and the policy hold
		 * pointers to p->ap, which must not move when the table grows.
		 */
		struct replay_proc *p = calloc(1, sizeof(*p));
		struct job_result *j = &s->r->jobs[rp->base + rp->nprocs];
		const char *comm = trace_proc_name(rp->t, pid);
		const struct trace_stats *ts = trace_stats(rp->t);

		if (!p || pidmap_add(&rp->pids, pid) < 0) {
			free(p);
			return -1;
		}
		rp->procs[rp->nprocs] = p;
		memset(j, 0, sizeof(*j));
		antic_proc_init(&p->ap);
		p->pid = pid;
		p->head = p->tail = -1;
		p->prio_class = replay_ioprio_of(rp->spec, pid, comm);
		if (!ts->has_pids)
			snprintf(j->name, sizeof(j->name), "%s", trace_device(rp->t));
		else if (comm)
			snprintf(j->name, sizeof(j->name), "%s[%u]", comm, pid);
		else
			snprintf(j->name, sizeof(j->name), "pid %u", pid);
		s->r->nr_jobs = rp->base + ++rp->nprocs;
	}
	return (int)rp->nprocs - 1;
}

/*
 * The process for @pid, created on its first record. -1: out of memory.
 * Creating is apart (noinline), so that the lookup of every record saves
 * no registers for it: the frame was 18 instructions per record.
 */
static int replay_proc_of(struct sim *s, uint32_t pid)
{
	int pi = pidmap_find(&s->rp->pids, pid);

	return pi >= 0 ? pi : replay_proc_new(s, pid);
}

/*
 * --remap: a record past the disk's end moved onto it. Scale maps the
 * trace's extent onto the capacity (positions in proportion, so seek
 * distances shrink by the same factor); wrap takes the position modulo
 * the capacity (distances kept, far regions folded onto near ones). A
 * position on a 4 KiB boundary stays on one; a request that would cross
 * the end is moved back to end there.
 */
static void replay_remap(struct sim *s, struct trace_rec *rec)
{
	uint64_t cap = s->disk.p.capacity, x = rec->sector;
	bool aligned = !(x & 7);

	if (s->rp->spec->remap == REMAP_SCALE && s->rp->extent > cap)
		x = (uint64_t)((unsigned __int128)x * cap / s->rp->extent);
	else if (s->rp->spec->remap == REMAP_WRAP)
		x %= cap;
	else
		return;
	if (aligned)
		x &= ~7ULL;
	if (x + rec->nr > cap)
		x = rec->nr > cap ? 0 : (cap - rec->nr) & (aligned ? ~7ULL : ~0ULL);
	rec->sector = x;
}

/* A record must fit on the simulated disk: replay_read checks each it reads. */
static int replay_check_fits(struct sim *s, const struct trace_rec *rec)
{
	struct replay *rp = s->rp;

	if (rec->sector + rec->nr > s->disk.p.capacity) {
		snprintf(rp->err, sizeof(rp->err),
			 "%s:%llu: sector: %llu + %u is beyond the simulated disk's %llu sectors; "
			 "give a larger --set capacity=, or --remap scale or wrap",
			 rp->spec->path, (unsigned long long)rec->line,
			 (unsigned long long)rec->sector, rec->nr,
			 (unsigned long long)s->disk.p.capacity);
		return -1;
	}
	return 0;
}

/*
 * Issue a request for process @pi now, split as the block layer would.
 * Inlined into its two callers: as a call of its own, its stack frame
 * cost about 20 instructions a request.
 */
static inline __attribute__((always_inline)) int
replay_issue(struct sim *s, int pi, uint64_t sector, uint32_t nr, bool write, bool sync)
{
	struct replay *rp = s->rp;
	struct replay_proc *p = rp->procs[pi];
	int li, rc;

	if (rp->free_live < 0) {
		size_t cap = rp->caplive ? rp->caplive * 2 : 1024, j;
		struct replay_io *n = realloc(rp->live, cap * sizeof(*n));

		if (!n)
			return -1;
		for (j = rp->caplive; j < cap; j++)
			n[j].next = j + 1 < cap ? (int)j + 1 : -1;
		rp->live = n;
		rp->free_live = (int)rp->caplive;
		rp->caplive = cap;
	}
	li = rp->free_live;
	rp->free_live = rp->live[li].next;
	rp->live[li] = (struct replay_io){ s->now, (uint64_t)nr * 512, 0, pi, write, -1 };
	if (!p->c.any)
		p->first = s->now;
	p->c.any = true;
	p->c.outstanding++;
	p->c.last_issue = s->now;
	/* the class of the context submitting, as jobs.c sets it around a job's */
	s->ioprio = p->prio_class;
	rc = blk_submit_split(s, K_TRACE, &p->ap, (unsigned)li, sector, nr,
			      write, sync, &rp->live[li].pieces);
	s->ioprio = ANTIC_CLASS_BE;
	return rc;
}

/* replay_try's loop, once there is a record to look at and no timer set */
static __attribute__((noinline)) int replay_try_issue(struct sim *s, int pi)
{
	struct replay *rp = s->rp;
	struct replay_proc *p = rp->procs[pi];

	while (p->head >= 0 && !p->timer) {
		struct replay_node *n = &rp->nodes[p->head];
		uint64_t t;
		int h;

		if (!replay_when(&p->c, n->t, n->wait, n->sync, n->dep, &t))
			return 0;	/* waits for the previous one to complete */
		if (t > s->now) {
			p->timer = true;
			return event_push(s, t, EV_TWAKE, pi, NULL);
		}
		h = p->head;
		p->head = n->next;
		if (p->head < 0)
			p->tail = -1;
		else	/* read in a window ago, and out of the cache since */
			__builtin_prefetch(&rp->nodes[p->head]);
		if (replay_issue(s, pi, n->sector, n->nr, n->write, n->sync))
			return -1;
		n->next = rp->free_node;
		rp->free_node = h;
		rp->pending--;
	}
	return 0;
}

/*
 * Closed loop: issue what process @pi may issue now, and set a wake-up
 * for the next one that must wait for its time. Half the calls (after a
 * completion, with the next record's timer set) have nothing to do: they
 * return here, without the loop's stack frame (35 instructions a call).
 */
static int replay_try(struct sim *s, int pi)
{
	const struct replay_proc *p = s->rp->procs[pi];

	return p->head >= 0 && !p->timer ? replay_try_issue(s, pi) : 0;
}

/*
 * Process @pi has exited if the trace is read to its end and it has
 * nothing left to issue or wait for. Inline: asked after every request's
 * wake-up and completion, and false until the end of the trace.
 */
static inline __attribute__((always_inline)) void replay_exit_if_idle(struct sim *s, int pi)
{
	struct replay_proc *p;

	if (!s->rp->eof)
		return;
	p = s->rp->procs[pi];
	if (!p->exited && p->head < 0 && !p->c.outstanding && !p->timer) {
		p->exited = true;
		s->ops->proc_exit(s->sched, &p->ap, s->now);
		/*
		 * A background load runs while the trace replays, and no
		 * longer; with --start too, so that the run's end is the
		 * replay's last completion, not a timer after it.
		 */
		if (++s->rp->exited == s->rp->nprocs && (s->rp->base || s->rp->spec->start))
			s->stop = true;
	}
}

static int replay_read(struct sim *s, struct trace_rec *rec)
{
	struct replay *rp = s->rp;
	int rc = trace_next(rp->t, rec, rp->err, sizeof(rp->err));

	if (rc > 0 && rp->spec->remap)
		replay_remap(s, rec);
	if (rc > 0 && replay_check_fits(s, rec))
		return -1;
	if (rc == 0) {
		size_t i;

		rp->eof = true;
		for (i = 0; i < rp->nprocs; i++)
			replay_exit_if_idle(s, (int)i);
	}
	return rc;
}

/* replay_pull's loop, once the window has room */
static __attribute__((noinline)) int replay_pull_more(struct sim *s)
{
	struct replay *rp = s->rp;

	while (!rp->eof && rp->pending < REPLAY_WINDOW) {
		struct trace_rec rec;
		struct replay_node *n;
		struct replay_proc *p;
		int rc = replay_read(s, &rec), pi, ni;
		uint64_t at;

		if (rc <= 0)
			return rc;
		pi = replay_proc_of(s, rec.pid);
		if (pi < 0)
			return -1;
		p = rp->procs[pi];
		ni = rp->free_node;
		n = &rp->nodes[ni];
		rp->free_node = n->next;
		at = replay_start_at(rp, rec.t);
		n->t = at;
		n->wait = replay_wait(&p->c, rec.dep, at, replay_scale(rp, rec.think));
		n->sector = rec.sector;
		n->nr = rec.nr;
		n->write = rec.write;
		n->sync = rec.sync;
		n->dep = rec.dep;
		n->next = -1;
		if (p->tail >= 0)
			rp->nodes[p->tail].next = ni;
		else
			p->head = ni;
		p->tail = ni;
		rp->pending++;
		if (p->head == ni && replay_try(s, pi))
			return -1;
	}
	return 0;
}

/*
 * Closed loop: read ahead into the processes' FIFOs, up to the window.
 * After a completion the window is usually full: nothing to read, and
 * no stack frame for the loop.
 */
static int replay_pull(struct sim *s)
{
	const struct replay *rp = s->rp;

	return !rp->eof && rp->pending < REPLAY_WINDOW ? replay_pull_more(s) : 0;
}

/* Open loop: issue the record that is due, and schedule the next one. */
int replay_open_step(struct sim *s)
{
	struct replay *rp = s->rp;
	int pi, rc;

	if (!rp->eof) {
		pi = replay_proc_of(s, rp->next.pid);
		if (pi < 0 || replay_issue(s, pi, rp->next.sector, rp->next.nr, rp->next.write,
				       rp->next.sync))
			return -1;
	}
	rc = replay_read(s, &rp->next);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		uint64_t at = replay_start_at(rp, rp->next.t);

		event_set_side(s, SIDE_TRACE, at > s->now ? at : s->now, EV_TRACE, NULL);
	}
	return 0;
}

int replay_done(struct sim *s, struct sim_rq *rq)
{
	struct replay *rp = s->rp;
	struct replay_io *l = &rp->live[rq->io];
	struct replay_proc *p;
	struct job_result *j;
	int pi = l->proc;

	if (--l->pieces)
		return 0;
	p = rp->procs[pi];
	j = &s->r->jobs[rp->base + pi];
	job_result_add(j, l->dir, l->bytes, l->start, s->now);
	j->runtime = s->now - p->first;
	l->next = rp->free_live;
	rp->free_live = (int)rq->io;
	p->c.outstanding--;
	p->c.last_done = s->now;
	if (rp->spec->closed && (replay_try(s, pi) || replay_pull(s)))
		return -1;
	replay_exit_if_idle(s, pi);
	return 0;
}

/* The pid and the recorded name (or NULL) of replayed process @ap (outputs.h). */
uint32_t replay_proc_pid(const struct sim *s, const struct antic_proc *ap, const char **name)
{
	const struct replay_proc *p = (const struct replay_proc *)ap;

	*name = trace_proc_name(s->rp->t, p->pid);
	return p->pid;
}

int replay_wake(struct sim *s, int pi)
{
	s->rp->procs[pi]->timer = false;
	if (replay_try(s, pi) || replay_pull(s))
		return -1;
	replay_exit_if_idle(s, pi);
	return 0;
}

int replay_start(struct sim *s, const struct replay_spec *spec, char *err, size_t errlen)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	int i;

	if (!rp)
		return -1;
	s->rp = rp;
	rp->spec = spec;
	rp->base = s->r->nr_jobs;
	rp->free_live = -1;
	pidmap_init(&rp->pids);
	if (spec->remap == REMAP_SCALE) {
		/* the extent first: one read of the whole trace before the replay's */
		struct trace *t = trace_open(spec->path, &spec->topts, err, errlen);
		struct trace_rec r;

		if (!t)
			return -1;
		while ((i = trace_next(t, &r, err, errlen)) > 0)
			if (r.sector + r.nr > rp->extent)
				rp->extent = r.sector + r.nr;
		trace_close(t);
		if (i < 0)
			return -1;
	}
	rp->t = trace_open(spec->path, &spec->topts, err, errlen);
	if (!rp->t)
		return -1;
	if (spec->closed) {
		rp->nodes = malloc(REPLAY_WINDOW * sizeof(*rp->nodes));
		if (!rp->nodes)
			return -1;
		for (i = 0; i < REPLAY_WINDOW; i++)
			rp->nodes[i].next = i + 1 < REPLAY_WINDOW ? i + 1 : -1;
		return replay_pull(s);
	}
	i = replay_read(s, &rp->next);
	if (i <= 0)
		return i;
	event_set_side(s, SIDE_TRACE, replay_start_at(rp, rp->next.t), EV_TRACE, NULL);
	return 0;
}

void replay_free(struct sim *s)
{
	struct replay *rp = s->rp;
	size_t i;

	if (!rp)
		return;
	trace_close(rp->t);
	for (i = 0; i < rp->nprocs; i++)
		free(rp->procs[i]);
	free(rp->procs);
	pidmap_free(&rp->pids);
	free(rp->nodes);
	free(rp->live);
	free(rp);
	s->rp = NULL;
}

const char *replay_error(const struct sim *s)
{
	return s->rp ? s->rp->err : "";
}

const struct trace_stats *replay_trace_stats(const struct sim *s)
{
	return trace_stats(s->rp->t);
}
