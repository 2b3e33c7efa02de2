/*
 * jobs.c - fio's job processes: which (file, offset, length, direction)
 * each issues next, buffered through the page cache or direct to the block
 * layer, with fio's sync and async engines, think time and fsync.
 */
#include "sim.h"

static void finish_all(struct sim *s);
static double ln_(double x);
static double unit_(uint64_t *rng);
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

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return n ? rng_next(s) % n : 0;
}

static void job_result_io(struct sim_proc *p, const struct app_io *a, uint64_t now)
{
	/* ramp_time: I/O that completes before the measured start does not count */
	if (p->finished || now < p->start)
		return;
	p->res->io_bytes[a->dir] += a->bytes;
	p->res->ios[a->dir]++;
	hist_add(&p->res->lat[a->dir], now - a->start);
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
	if (s->jobs_left && !--s->jobs_left)
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

static int start_fsync(struct sim *s, struct sim_proc *p, unsigned fi)
{
	struct sim_file *f = &s->files[fi];
	uint64_t cur = 0;
	int n;

	p->state = S_FSYNC;
	p->fsync_file = fi;
	p->fsync_pending = 0;
	p->fsync_flush = FL_NONE;
	p->fsync_gen++;
	if (!f->pages)
		return 0;
	while ((n = write_run(s, fi, &cur, K_FSYNC, &p->ap, true)) > 0)
		p->fsync_pending++;
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
	if (!s->disk.p.write_cache || p->fsync_flush == FL_DONE)
		return 1;
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

/* The application's I/O @a of process @p has completed at s->now. */
static int app_done(struct sim *s, struct sim_proc *p, struct app_io *a)
{

	job_result_io(p, a, s->now);
	a->busy = false;
	p->inflight--;
	if (p->finished)
		return 0;
	if (p->state == S_IO || p->state == S_PAGES || p->state == S_THROTTLED)
		p->state = S_IDLE;
	if (a->dir == 1 && p->spec->fsync_every && ++p->since_fsync >= p->spec->fsync_every) {
		int rc;

		/* direct I/O has no dirty pages, but a write cache to flush */
		p->since_fsync = 0;
		if (start_fsync(s, p, p->file0 + p->cur) < 0)
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
				p->poisson_due += -ln_(unit_(&p->rng)) * 1e9 / (double)p->spec->rate_iops;
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

/* A new pass over the job's files: positions back to offset, maps cleared. */
static void new_pass(struct sim_proc *p)
{
	unsigned n;

	for (n = 0; n < p->nfiles; n++) {
		struct proc_file *pf = &p->pf[n];

		pf->pos[0] = pf->pos[1] = pf->lo;
		pf->done = 0;
		pf->zone = pf->zdone = 0;
		if (pf->map)
			memset(pf->map, 0, ((pf->hi - pf->lo) / p->spec->bs + 63) / 64 * 8);
	}
	p->ra_valid = false;
}

static bool file_left(const struct sim_proc *p, unsigned n)
{
	return p->pf[n].done < p->pf[n].hi - p->pf[n].lo;
}

/*
 * fio's file_service_type: roundrobin (the default) moves to the next file
 * after every nr I/Os, sequential when a file's region is done, random to
 * a random file; a file whose region is done this pass is passed over.
 */
static void pick_file(struct sim_proc *p)
{
	const struct job_spec *j = p->spec;
	unsigned n = p->cur, nr = j->file_service_nr ? j->file_service_nr : 1, k;
	bool move = !file_left(p, n) ||
		(j->file_service != FS_SEQUENTIAL && p->rr_count >= nr);

	if (!move || p->nfiles == 1)
		return;
	if (j->file_service == FS_RANDOM)
		n = (unsigned)rng_below(&p->rng, p->nfiles);
	else
		n = (n + 1) % p->nfiles;
	for (k = 0; k < p->nfiles && !file_left(p, n); k++)
		n = (n + 1) % p->nfiles;
	if (n != p->cur)
		p->ra_valid = false;
	p->cur = n;
	p->rr_count = 0;
}

/* ln and exp without libm, good to about 1e-12: enough to shape a draw */
static double ln_(double x)
{
	double y, y2, sum = 0, term;
	int k = 0, n;

	while (x > 2) {
		x /= 2.718281828459045;
		k++;
	}
	while (x < 0.5) {
		x *= 2.718281828459045;
		k--;
	}
	y = (x - 1) / (x + 1);
	y2 = y * y;
	term = y;
	for (n = 1; n < 60; n += 2) {
		sum += term / n;
		term *= y2;
	}
	return 2 * sum + k;
}

static double exp_(double x)
{
	double r = 1, term = 1;
	int n, halvings = 0;

	while (x > 0.5 || x < -0.5) {
		x /= 2;
		halvings++;
	}
	for (n = 1; n < 30; n++) {
		term *= x / n;
		r += term;
	}
	while (halvings--)
		r *= r;
	return r;
}

static double unit_(uint64_t *rng)
{
	return ((double)(rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * random_distribution: a block by rank under zipf (theta), pareto (h) or
 * normal (deviation in % of the region about its middle), drawn by
 * inversion of the continuous law; ranks are scattered over the region by
 * a fixed odd multiplier so the hot blocks are not all at its start.
 */
static uint64_t skewed_block(struct sim_proc *p, uint64_t nb)
{
	const struct job_spec *j = p->spec;
	double u = unit_(&p->rng), r;
	uint64_t rank;

	if (j->dist == DIST_ZONED) {
		unsigned pct = (unsigned)rng_below(&p->rng, 100), acc = 0, start = 0, n;
		uint64_t lo, hi;

		for (n = 0; n + 1 < j->nzones; n++) {
			acc += j->zones[n].access;
			if (pct < acc)
				break;
			start += j->zones[n].range;
		}
		lo = nb * start / 100;
		hi = nb * (start + j->zones[n].range) / 100;
		if (hi <= lo)
			hi = lo + 1 <= nb ? lo + 1 : nb;
		return lo + rng_below(&p->rng, hi - lo);
	}
	if (j->dist == DIST_ZIPF) {
		double a = 1 - j->dist_arg;

		r = exp_(ln_(u * (exp_(a * ln_((double)nb)) - 1) + 1) / a);
	} else if (j->dist == DIST_PARETO) {
		r = (double)nb * exp_(ln_(u) / (1 - j->dist_arg));
	} else {
		double g = 0;
		int i;

		/* twelve uniforms less six: near enough a standard normal */
		for (i = 0; i < 12; i++)
			g += unit_(&p->rng);
		r = (double)nb / 2 + (g - 6) * (double)nb * j->dist_arg / 100;
		if (r < 0)
			r = 0;
		return r >= (double)nb ? nb - 1 : (uint64_t)r;
	}
	rank = r < 1 ? 0 : (uint64_t)r - 1;
	if (rank >= nb)
		rank = nb - 1;
	return (rank * 0x9e3779b97f4a7c15ULL) % nb;
}

static bool mapped(const struct proc_file *pf, uint64_t b)
{
	return pf->map[b / 64] & (1ULL << (b % 64));
}

/*
 * A random block of blocks [b0, b1) of the region not yet issued this pass
 * (fio's random map), or any block with norandommap or a skewed
 * distribution. -1 when the map cannot be had.
 */
static int64_t random_block(struct sim_proc *p, struct proc_file *pf, uint64_t b0, uint64_t b1)
{
	uint64_t nb = (pf->hi - pf->lo) / p->spec->bs, span = b1 - b0, b, i;

	if (p->spec->dist != DIST_UNIFORM)
		return (int64_t)(b0 + skewed_block(p, span));
	b = b0 + rng_below(&p->rng, span);
	if (p->spec->norandommap)
		return (int64_t)b;
	if (!pf->map && !(pf->map = calloc((nb + 63) / 64, 8)))
		return -1;
	/* the next free block from a random one, wrapping: each once a pass */
	for (i = 0; i < span; i++, b = b + 1 == b1 ? b0 : b + 1) {
		if (pf->map[b / 64] == ~0ULL && b % 64 == 0 && b + 64 <= b1) {
			b += 63;
			i += 63;
			continue;
		}
		if (!mapped(pf, b)) {
			pf->map[b / 64] |= 1ULL << (b % 64);
			return (int64_t)b;
		}
	}
	return -1;
}

/* bs, or a draw from bs ranges (multiples of the low end) or bssplit */
static uint64_t io_len(struct sim_proc *p)
{
	const struct job_spec *j = p->spec;
	unsigned n, pct, acc = 0;

	if (j->bs_max)
		return j->bs * (1 + rng_below(&p->rng, j->bs_max / j->bs));
	if (!j->nsplit)
		return j->bs;
	pct = (unsigned)rng_below(&p->rng, 100);
	for (n = 0; n + 1 < j->nsplit; n++) {
		acc += j->split[n].pct;
		if (pct < acc)
			break;
	}
	return j->split[n].bs;
}

/* Pick the next (file, offset, length, direction) the job would issue. */
static int next_io(struct sim *s, struct sim_proc *p, unsigned *fi,
		   uint64_t *off, uint64_t *len, int *dir)
{
	const struct job_spec *j = p->spec;
	bool rnd = j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE || j->rw == RW_RANDRW;
	struct proc_file *pf;
	uint64_t zs, ze, consumed;

	if (j->number_ios && p->nr_ios >= j->number_ios)
		return 0;
	if (p->issued >= p->io_size) {
		/* loops and time_based start again at offset, as fio does */
		if (j->time_based || p->loops_left > 1) {
			if (!j->time_based)
				p->loops_left--;
			p->issued = 0;
			p->nr_ios = 0;
			p->pass_done = 0;
			p->cur = 0;
			p->rr_count = 0;
			new_pass(p);
		} else {
			return 0;
		}
	}
	/* io_size beyond the regions: go round them again */
	if (p->pass_done >= p->pass_size) {
		p->pass_done = 0;
		new_pass(p);
	}
	pick_file(p);
	pf = &p->pf[p->cur];
	switch (j->rw) {
	case RW_READ: case RW_RANDREAD: *dir = 0; break;
	case RW_WRITE: case RW_RANDWRITE: *dir = 1; break;
	default: *dir = rng_below(&p->rng, 100) < j->rwmixread ? 0 : 1; break;
	}
	*len = io_len(p);
	zs = pf->lo;
	ze = pf->hi;
	if (j->zonesize) {
		/* zonemode=strided: zonesize of I/O, then zoneskip passed over */
		uint64_t stride = j->zonesize + j->zoneskip;

		zs = pf->lo + pf->zone * stride;
		ze = zs + j->zonesize < pf->hi ? zs + j->zonesize : pf->hi;
		if (pf->zdone + j->bs > ze - zs) {
			pf->zone++;
			pf->zdone = 0;
			zs += stride;
			if (zs + j->bs > pf->hi) {
				/* past the last zone: the first again, its map cleared */
				pf->zone = 0;
				zs = pf->lo;
				if (pf->map)
					memset(pf->map, 0, ((pf->hi - pf->lo) / j->bs + 63) / 64 * 8);
			}
			ze = zs + j->zonesize < pf->hi ? zs + j->zonesize : pf->hi;
		}
	}
	if (rnd && j->blockalign > j->bs) {
		/*
		 * blockalign coarser than bs: fio's map, kept in bs, never
		 * sees the same block twice although offsets repeat, so this
		 * is drawing with replacement from the aligned slots.
		 */
		uint64_t slots = (ze - zs) / j->blockalign;

		*off = zs + (slots ? rng_below(&p->rng, slots) : 0) * j->blockalign;
		if (*off + *len > ze)
			*len = (ze - *off) / j->bs * j->bs;
		consumed = *len;
	} else if (rnd) {
		int64_t b = random_block(p, pf, (zs - pf->lo) / j->bs, (ze - pf->lo) / j->bs);
		uint64_t want = *len / j->bs, got = 1;

		if (b < 0)
			return -1;
		*off = pf->lo + (uint64_t)b * j->bs;
		/* a larger I/O takes the free blocks after the one drawn */
		while (got < want && *off + (got + 1) * j->bs <= ze &&
		       (!pf->map || j->norandommap || j->dist != DIST_UNIFORM ||
			!mapped(pf, (uint64_t)b + got))) {
			if (pf->map && !j->norandommap && j->dist == DIST_UNIFORM)
				pf->map[((uint64_t)b + got) / 64] |= 1ULL << (((uint64_t)b + got) % 64);
			got++;
		}
		*len = got * j->bs;
		consumed = *len;
	} else {
		/* rw=rw: reads and writes each keep their own position */
		uint64_t pos = pf->pos[*dir];

		if (pos < zs || pos + j->bs > ze)
			pos = zs;
		if (pos + *len > ze)
			*len = (ze - pos) / j->bs * j->bs;
		*off = pos;
		pos += *len;
		consumed = *len;
		if (j->hole > 0) {
			pos += (uint64_t)j->hole;
			/*
			 * fio goes round again when the hole lands on the end or
			 * other files remain, but a lone file's pass ends when
			 * the hole runs past its end.
			 */
			if (pos + j->bs > pf->hi) {
				if (p->nfiles == 1 && pos > pf->hi &&
				    pf->done + consumed < pf->hi - pf->lo)
					consumed = pf->hi - pf->lo - pf->done;
				else
					pos = zs;
			}
		} else if (j->hole < 0) {
			/* backwards: below the region's start, fio wraps to its end */
			uint64_t back = (uint64_t)-j->hole, span = pf->hi - pf->lo - j->bs;

			if (pos >= pf->lo + back)
				pos -= back;
			else if (span)
				pos = pf->lo + (span - (pf->lo + back - pos) % span) % span;
			else
				pos = pf->lo;
		}
		pf->pos[*dir] = pos;
	}
	pf->zdone += *len;
	pf->done += consumed;
	p->pass_done += consumed;
	p->issued += consumed;
	p->rate_bytes += *len;
	p->rate_ios++;
	p->nr_ios++;
	p->rr_count++;
	*fi = p->file0 + p->cur;
	if (s->o->iolog) {
		const struct sim_file *f = &s->files[*fi];

		if (!f->logged) {
			s->files[*fi].logged = true;
			fprintf(s->o->iolog, "%llu %s add\n%llu %s open\n",
				(unsigned long long)(s->now / 1000), f->name,
				(unsigned long long)(s->now / 1000), f->name);
		}
		fprintf(s->o->iolog, "%llu %s %s %llu %llu\n", (unsigned long long)(s->now / 1000),
			f->name, *dir ? "write" : "read", (unsigned long long)*off,
			(unsigned long long)*len);
	}
	return 1;
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

		if (start_fsync(s, p, fi) < 0)
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

static int issue_one(struct sim *s, struct sim_proc *p)
{
	unsigned fi, slot = free_slot(p);
	uint64_t off, len;
	int dir, got = next_io(s, p, &fi, &off, &len, &dir);
	struct app_io *a;

	if (got <= 0)
		return got < 0 ? -1 : 1;
	a = &p->app[slot];
	*a = (struct app_io){ true, dir, s->now, len, 0 };
	p->inflight++;
	p->state = S_IO;
	if (!p->spec->direct) {
		int rc;

		p->issuing = true;
		rc = dir ? buffered_write(s, p, slot, fi, off, len) :
			   buffered_read(s, p, slot, fi, off, len);
		p->issuing = false;
		return rc;
	}
	return blk_submit_split(s, K_DIRECT, &p->ap, slot,
				s->files[fi].start + off / 512, (len + 511) / 512,
				dir, true, &a->pieces);
}

static int issue_next(struct sim *s, struct sim_proc *p)
{

	if (p->finished)
		return 0;
	while (p->inflight < p->spec->iodepth && p->state != S_PAGES &&
	       p->state != S_THROTTLED && p->state != S_FSYNC && !p->finished) {
		int rc = issue_one(s, p);

		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (p->inflight)
				return 0;	/* the rest completes first */
			if (p->spec->end_fsync && !p->fsync_then_finish) {
				p->fsync_then_finish = true;
				if (start_fsync(s, p, p->file0 + p->cur) < 0)
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
