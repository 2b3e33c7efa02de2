/*
 * engine.c - antic-sim's event loop. Jobs issue I/O as fio's sync and
 * async engines would; buffered I/O goes through a page cache with the
 * kernel's growing read-ahead window and a dirty limit drained by a
 * flusher in large sorted writes; block requests go through a core/
 * policy to the disk model. Integer virtual time in ns throughout.
 */
#include "engine.h"
#include "trace.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096ULL
#define SECT_PER_PAGE 8

enum { P_NONE, P_INFLIGHT, P_CLEAN, P_DIRTY, P_WB, P_WB_DIRTY };
enum { K_DIRECT, K_RA, K_WB, K_FSYNC, K_TRACE };
enum { EV_WAKE, EV_DONE, EV_SCHED, EV_END, EV_TRACE, EV_TWAKE, EV_FLUSH };
enum { S_IDLE, S_IO, S_PAGES, S_THROTTLED, S_FSYNC, S_THINK, S_DONE };
enum { SIDE_TRACE, SIDE_MECH, SIDE_NR };

struct sim_file {
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

struct app_io {
	bool busy;
	int dir;
	uint64_t start;
	uint64_t bytes;
	unsigned pieces;
};

struct sim_proc {
	struct antic_proc ap;
	const struct job_spec *spec;
	char name[80];
	unsigned file0, nfiles, cur;
	uint64_t pos;		/* offset in the current file */
	uint64_t io_size, issued;
	unsigned loops_left;
	uint64_t rng;
	int state;
	bool started, finished, exit_reported;
	uint64_t start, end;
	unsigned inflight;	/* app I/Os outstanding (async engine) */
	unsigned since_think, since_fsync;
	struct app_io *app;	/* iodepth slots */
	unsigned wait_app;	/* app slot waiting on pages / throttle */
	uint64_t wait_lo, wait_hi, wait_file;
	unsigned fsync_file, fsync_pending;
	bool fsync_then_finish;
	/* read-ahead state, in pages of the current file */
	int64_t ra_start;
	uint64_t ra_size, ra_async, ra_last;
	bool ra_valid;
	struct job_result *res;
};

struct sim_rq {
	struct antic_rq rq;
	int kind;
	int proc;
	unsigned app, file;
	uint64_t page_lo, npages;
	uint8_t dispatched, completed;
	uint64_t dispatch_time;
	struct sim_rq *next_free;
};

struct event {
	uint64_t t, seq;
	int type;
	int arg;
	struct sim_rq *rq;
};

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
	struct disk disk;
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
	struct sim_proc *procs;
	size_t nprocs;
	struct sim_file *files;
	size_t nfiles;
	struct sim_rq **drive;	/* commands at the drive */
	unsigned ndrive;
	struct sim_rq *mech;	/* HDD: the one being served */
	uint64_t busy_since;
	uint64_t sched_wake;
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
	unsigned jobs_left;
	bool stop;
	const struct sim_options *o;
	uint64_t next_progress;
	struct replay *rp;	/* replaying a trace instead of jobs */
	uint64_t last_read;	/* when a read was last queued (wbt) */
	bool read_seen, wbt_slow, flush_wake;
	uint64_t wbt_win;	/* start of wbt's current window */
	unsigned wbt_depth;
};

const char *sim_policy_name(enum sim_policy p)
{
	_Static_assert((int)POL_NOOP == ANTIC_POL_NOOP && (int)POL_DEADLINE == ANTIC_POL_DEADLINE &&
		       (int)POL_AS == ANTIC_POL_AS && (int)POL_NR == ANTIC_NR_POLICIES,
		       "enum sim_policy indexes core's antic_policy_names");
	return antic_policy_names[p].name;
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

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return n ? rng_next(s) % n : 0;
}

/* ---- event heap, ordered by (time, sequence) for determinism ---- */

static bool ev_less(const struct event *a, const struct event *b)
{
	return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

static int push_event(struct sim *s, uint64_t t, int type, int arg,
		      struct sim_rq *rq)
{
	struct event ev = { t, s->seq++, type, arg, rq };
	size_t i;

	if (s->nheap == s->capheap) {
		size_t cap = s->capheap ? s->capheap * 2 : 256;
		struct event *h = realloc(s->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		s->heap = h;
		s->capheap = cap;
	}
	/* move the hole up, not the new event: one copy per level, not three */
	for (i = s->nheap++; i && ev_less(&ev, &s->heap[(i - 1) / 2]); i = (i - 1) / 2)
		s->heap[i] = s->heap[(i - 1) / 2];
	s->heap[i] = ev;
	return 0;
}

static void set_side(struct sim *s, int slot, uint64_t t, int type, struct sim_rq *rq)
{
	s->side[slot] = (struct event){ t, s->seq++, type, 0, rq };
	s->side_on[slot] = true;
}

static bool have_event(const struct sim *s)
{
	return s->nheap || s->side_on[SIDE_TRACE] || s->side_on[SIDE_MECH];
}

static struct event pop_event(struct sim *s)
{
	struct event top, last;
	const struct event *min = s->nheap ? &s->heap[0] : NULL;
	size_t i = 0, n;
	int k, side = -1;

	for (k = 0; k < SIDE_NR; k++) {
		if (s->side_on[k] && (!min || ev_less(&s->side[k], min))) {
			min = &s->side[k];
			side = k;
		}
	}
	if (side >= 0) {
		s->side_on[side] = false;
		return s->side[side];
	}
	top = s->heap[0];
	n = --s->nheap;
	last = s->heap[n];
	/* the hole left at the root sinks until the last event fits there */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

/* ---- request pool ---- */

static struct sim_rq *rq_alloc(struct sim *s)
{
	struct sim_rq *rq;

	if (!s->free_rqs) {
		size_t n = 1024, i;
		struct sim_rq *blk = calloc(n, sizeof(*blk));
		struct sim_rq **b = realloc(s->blocks, (s->nblocks + 1) * sizeof(*b));

		if (!blk || !b) {
			free(blk);
			if (b)
				s->blocks = b;
			return NULL;
		}
		s->blocks = b;
		s->blocks[s->nblocks++] = blk;
		for (i = 0; i < n; i++) {
			blk[i].next_free = s->free_rqs;
			s->free_rqs = &blk[i];
		}
	}
	rq = s->free_rqs;
	s->free_rqs = rq->next_free;
	s->live_rqs++;
	return rq;	/* submit fills it whole */
}

static void rq_free(struct sim *s, struct sim_rq *rq)
{
	rq->next_free = s->free_rqs;
	s->free_rqs = rq;
	s->live_rqs--;
}

/* ---- the block layer: policy in front of the drive ---- */

static void start_mech(struct sim *s);

static void drive_push(struct sim *s, struct sim_rq *rq)
{
	if (!s->ndrive)
		s->busy_since = s->now;
	s->drive[s->ndrive++] = rq;
	if (s->disk.p.type == DISK_SSD) {
		uint64_t done = disk_service(&s->disk, s->now, rq->rq.sector,
					     rq->rq.nr_sectors, rq->rq.write);

		push_event(s, done, EV_DONE, 0, rq);
	} else {
		start_mech(s);
	}
}

/* The drive picks its next command: the only one, or shortest-first (NCQ). */
static void start_mech(struct sim *s)
{
	unsigned i, best = 0;
	uint64_t best_t = UINT64_MAX, done;
	struct sim_rq *rq;

	/* an SSD starts each command as it arrives (drive_push) */
	if (s->mech || !s->ndrive || s->disk.p.type == DISK_SSD)
		return;
	if (s->ndrive > 1) {
		for (i = 0; i < s->ndrive; i++) {
			uint64_t t = disk_position_time(&s->disk, s->now,
							s->drive[i]->rq.sector,
							s->drive[i]->rq.nr_sectors,
							s->drive[i]->rq.write);
			if (t < best_t) {
				best_t = t;
				best = i;
			}
		}
	}
	rq = s->drive[best];
	s->mech = rq;
	done = disk_service(&s->disk, s->now, rq->rq.sector, rq->rq.nr_sectors,
			    rq->rq.write);
	set_side(s, SIDE_MECH, done, EV_DONE, rq);	/* one at a time: s->mech */
}

static void kick(struct sim *s)
{
	while (s->ndrive < s->disk.p.queue_depth) {
		struct antic_rq *arq;
		uint64_t wake;
		enum antic_verdict v = s->ops->dispatch(s->sched, s->now, &arq, &wake);
		struct sim_rq *rq;

		if (v == ANTIC_IDLE_UNTIL) {
			if (wake > s->now && (s->sched_wake <= s->now || wake < s->sched_wake)) {
				s->sched_wake = wake;
				push_event(s, wake, EV_SCHED, 0, NULL);
			}
			return;
		}
		if (v != ANTIC_DISPATCH)
			return;
		rq = (struct sim_rq *)arq;
		if (rq->dispatched++)
			s->r->violations++;
		rq->dispatch_time = s->now;
		if (rq->rq.sync && s->now - rq->rq.add_time > s->r->max_sync_wait)
			s->r->max_sync_wait = s->now - rq->rq.add_time;
		if (!rq->rq.write && s->now - rq->rq.add_time > s->r->max_read_wait)
			s->r->max_read_wait = s->now - rq->rq.add_time;
		drive_push(s, rq);
	}
}

static struct antic_proc *replay_proc(struct sim *s, int proc);

static int submit(struct sim *s, int kind, int proc, unsigned app,
		  unsigned file, uint64_t sector, uint64_t nr, bool write,
		  bool sync, uint64_t page_lo, uint64_t npages)
{
	struct sim_rq *rq = rq_alloc(s);

	if (!rq)
		return -1;
	/*
	 * Field by field, not memset (its rep stos was half of submit's time
	 * in a replay): the host fills antic_rq's first block, the policy the rest.
	 */
	rq->rq.sector = sector;
	rq->rq.nr_sectors = (u32)nr;
	rq->rq.write = write;
	rq->rq.sync = sync;
	rq->rq.proc = kind == K_TRACE ? replay_proc(s, proc) :
		      proc >= 0 ? &s->procs[proc].ap : &s->flusher;
	rq->rq.state = ANTIC_RQ_NEW;
	rq->kind = kind;
	rq->proc = proc;
	rq->app = app;
	rq->file = file;
	rq->page_lo = page_lo;
	rq->npages = npages;
	rq->dispatched = 0;
	rq->completed = 0;
	rq->dispatch_time = 0;
	rq->next_free = NULL;
	s->r->requests++;
	s->r->bytes_added += nr * 512;
	if (!write) {
		s->last_read = s->now;
		s->read_seen = true;
	}
	s->ops->add(s->sched, &rq->rq, s->now);
	return 0;
}

/* ---- page cache ---- */

static int file_pages(struct sim_file *f)
{
	if (f->pages)
		return 0;
	f->npages = (f->size + PAGE - 1) / PAGE;
	f->pages = calloc(f->npages ? f->npages : 1, 1);
	return f->pages ? 0 : -1;
}

static uint64_t max_pages_per_rq(const struct sim *s)
{
	uint64_t n = s->set->max_sectors_kb / 4;

	return n ? n : 1;
}

/* Read the absent pages of [lo, hi) in runs, as one process's read-ahead. */
static int read_pages(struct sim *s, int proc, unsigned fi, uint64_t lo, uint64_t hi)
{
	struct sim_file *f = &s->files[fi];
	uint64_t p = lo;

	if (hi > f->npages)
		hi = f->npages;
	while (p < hi) {
		uint64_t q;

		if (f->pages[p] != P_NONE) {
			p++;
			continue;
		}
		for (q = p; q < hi && f->pages[q] == P_NONE && q - p < max_pages_per_rq(s); q++)
			f->pages[q] = P_INFLIGHT;
		if (submit(s, K_RA, proc, 0, fi, f->start + p * SECT_PER_PAGE,
			   (q - p) * SECT_PER_PAGE, false, true, p, q - p))
			return -1;
		p = q;
	}
	return 0;
}

static uint64_t ra_max(const struct sim *s)
{
	return s->set->read_ahead_kb / 4;
}

static uint64_t ra_init_size(uint64_t req, uint64_t max)
{
	uint64_t n;

	if (req <= max / 32)
		n = req * 4;
	else if (req <= max / 4)
		n = req * 2;
	else
		n = max;
	return n < req ? req : n;
}

static uint64_t ra_next_size(uint64_t cur, uint64_t max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* The kernel's on-demand read-ahead, reduced to its sequential core. */
static int readahead(struct sim *s, int pi, unsigned fi, uint64_t lo, uint64_t hi)
{
	struct sim_proc *p = &s->procs[pi];
	struct sim_file *f = &s->files[fi];
	uint64_t max = ra_max(s), req = hi - lo, marker;

	if (!max)
		return 0;
	if (f->pages[lo] == P_NONE) {
		bool seq = p->ra_valid ? lo == p->ra_last + 1 ||
				(lo >= (uint64_t)p->ra_start && lo < p->ra_start + p->ra_size)
				       : lo == 0;
		uint64_t size = seq ? ra_init_size(req, max) : req;

		p->ra_start = (int64_t)lo;
		p->ra_size = size;
		p->ra_async = seq && size > req ? size - req : 0;
		p->ra_valid = true;
		return read_pages(s, pi, fi, lo, lo + size);
	}
	if (!p->ra_valid || !p->ra_async)
		return 0;
	marker = p->ra_start + p->ra_size - p->ra_async;
	if (marker >= lo && marker < hi) {
		uint64_t start = p->ra_start + p->ra_size;
		uint64_t size = ra_next_size(p->ra_size, max);

		p->ra_start = (int64_t)start;
		p->ra_size = size;
		p->ra_async = size;
		return read_pages(s, pi, fi, start, start + size);
	}
	return 0;
}

static bool pages_ready(const struct sim_file *f, uint64_t lo, uint64_t hi)
{
	uint64_t i;

	for (i = lo; i < hi && i < f->npages; i++)
		if (f->pages[i] == P_NONE || f->pages[i] == P_INFLIGHT)
			return false;
	return true;
}

static void dirty_list_add(struct sim *s, unsigned fi)
{
	struct sim_file *f = &s->files[fi];

	if (f->on_dirty_list)
		return;
	f->on_dirty_list = true;
	f->dirty_next = -1;
	if (s->dirty_tail >= 0)
		s->files[s->dirty_tail].dirty_next = (int)fi;
	else
		s->dirty_head = (int)fi;
	s->dirty_tail = (int)fi;
}

static int dirty_list_pop(struct sim *s)
{
	int fi = s->dirty_head;

	if (fi < 0)
		return -1;
	s->dirty_head = s->files[fi].dirty_next;
	if (s->dirty_head < 0)
		s->dirty_tail = -1;
	s->files[fi].on_dirty_list = false;
	return fi;
}

/* Submit dirty pages of [from, npages) in sorted runs; returns how many. */
static int write_run(struct sim *s, unsigned fi, uint64_t *cursor, int kind,
		     int proc, bool sync)
{
	struct sim_file *f = &s->files[fi];
	uint64_t p = *cursor, q;

	while (p < f->npages && f->pages[p] != P_DIRTY)
		p++;
	*cursor = p;
	if (p >= f->npages)
		return 0;
	for (q = p; q < f->npages && f->pages[q] == P_DIRTY && q - p < max_pages_per_rq(s); q++) {
		f->pages[q] = P_WB;
		f->ndirty--;
		s->nr_dirty--;
		s->nr_wb++;
	}
	*cursor = q;
	f->wb_inflight++;
	if (submit(s, kind, proc, 0, fi, f->start + p * SECT_PER_PAGE,
		   (q - p) * SECT_PER_PAGE, true, sync, p, q - p))
		return -1;
	return 1;
}

/*
 * How many writeback requests the flusher may have queued: nr_requests,
 * or under wbt a depth that starts at 16, halves after each 100 ms window
 * in which a read took longer than 75 ms (wbt's target for rotational
 * disks) and doubles back after a window without; a quarter of it while
 * reads are recent. This is the shape of block/blk-wbt.c, not its code.
 */
#define WBT_WINDOW (100 * ANTIC_NSEC_PER_MSEC)
#define WBT_TARGET (75 * ANTIC_NSEC_PER_MSEC)
#define WBT_MAX 16

static unsigned wb_limit(struct sim *s)
{
	unsigned lim = s->set->nr_requests, w;

	if (!s->set->wbt)
		return lim;
	while (s->now - s->wbt_win >= WBT_WINDOW) {
		if (s->wbt_slow)
			s->wbt_depth = s->wbt_depth > 1 ? s->wbt_depth / 2 : 1;
		else if (s->wbt_depth < WBT_MAX)
			s->wbt_depth *= 2;
		s->wbt_slow = false;
		s->wbt_win += WBT_WINDOW;
		if (s->now - s->wbt_win > 10 * WBT_WINDOW)
			s->wbt_win = s->now;	/* a long quiet spell: one step, not many */
	}
	w = s->read_seen && s->now - s->last_read < WBT_WINDOW ? (s->wbt_depth + 3) / 4 : s->wbt_depth;
	return w < lim ? w : lim;
}

/* Background writeback: large sorted async writes until under the threshold. */
static int flusher_run(struct sim *s)
{
	if (s->nr_dirty > s->bg_limit)
		s->flushing = true;
	while (s->flushing && s->flusher_inflight < wb_limit(s)) {
		int fi = s->dirty_head, n;

		if (s->nr_dirty <= s->bg_limit || fi < 0) {
			s->flushing = false;
			break;
		}
		n = write_run(s, (unsigned)fi, &s->files[fi].wb_cursor, K_WB, -1, false);
		if (n < 0)
			return -1;
		if (n) {
			s->flusher_inflight++;
			continue;
		}
		/* end of this file: start over next pass, serve the next file */
		s->files[fi].wb_cursor = 0;
		dirty_list_pop(s);
		if (s->files[fi].ndirty)
			dirty_list_add(s, (unsigned)fi);
		if (s->dirty_head == fi && !s->files[fi].ndirty)
			break;
	}
	return 0;
}

/* ---- jobs ---- */

static void job_result_io(struct sim_proc *p, const struct app_io *a, uint64_t now)
{
	if (p->finished)
		return;
	p->res->io_bytes[a->dir] += a->bytes;
	p->res->ios[a->dir]++;
	hist_add(&p->res->lat[a->dir], now - a->start);
}

static void finish_all(struct sim *s);

static void report_exit(struct sim *s, struct sim_proc *p)
{
	if (p->exit_reported || !p->finished || p->ap.nr_queued || p->ap.nr_in_flight)
		return;
	p->exit_reported = true;
	s->ops->proc_exit(s->sched, &p->ap, s->now);
}

static void job_finish(struct sim *s, struct sim_proc *p)
{
	if (p->finished)
		return;
	p->finished = true;
	p->state = S_DONE;
	p->end = s->now;
	p->res->runtime = s->now - p->start;
	if (s->jobs_left && !--s->jobs_left)
		s->stop = true;
	report_exit(s, p);
	if (p->spec->exitall)
		finish_all(s);
}

static void finish_all(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i].started && !s->procs[i].finished)
			job_finish(s, &s->procs[i]);
	s->stop = true;
}

static int issue_next(struct sim *s, int pi);

static int start_fsync(struct sim *s, int pi, unsigned fi)
{
	struct sim_proc *p = &s->procs[pi];
	struct sim_file *f = &s->files[fi];
	uint64_t cur = 0;
	int n;

	p->state = S_FSYNC;
	p->fsync_file = fi;
	p->fsync_pending = 0;
	if (!f->pages)
		return 0;
	while ((n = write_run(s, fi, &cur, K_FSYNC, pi, true)) > 0)
		p->fsync_pending++;
	return n;
}

static bool fsync_done(const struct sim *s, const struct sim_proc *p)
{
	return !p->fsync_pending && !s->files[p->fsync_file].wb_inflight;
}

/* The application's I/O @a of process @pi has completed at s->now. */
static int app_done(struct sim *s, int pi, struct app_io *a)
{
	struct sim_proc *p = &s->procs[pi];

	job_result_io(p, a, s->now);
	a->busy = false;
	p->inflight--;
	if (p->finished)
		return 0;
	if (p->state == S_IO || p->state == S_PAGES || p->state == S_THROTTLED)
		p->state = S_IDLE;
	if (a->dir == 1 && p->spec->fsync_every && ++p->since_fsync >= p->spec->fsync_every) {
		p->since_fsync = 0;
		if (!p->spec->direct) {
			if (start_fsync(s, pi, p->file0 + p->cur) < 0)
				return -1;
			if (!fsync_done(s, p))
				return 0;
			p->state = S_IDLE;
		}
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
		if (delay) {
			if (p->state == S_IDLE)
				p->state = S_THINK;
			return push_event(s, s->now + delay, EV_WAKE, pi, NULL);
		}
	}
	return issue_next(s, pi);
}

static unsigned free_slot(const struct sim_proc *p)
{
	unsigned i;

	for (i = 0; i < p->spec->iodepth; i++)
		if (!p->app[i].busy)
			return i;
	return p->spec->iodepth;
}

/* Pick the next (file, offset, length, direction) the job would issue. */
static bool next_io(struct sim *s, struct sim_proc *p, unsigned *fi,
		    uint64_t *off, uint64_t *len, int *dir)
{
	const struct job_spec *j = p->spec;
	bool rnd = j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE || j->rw == RW_RANDRW;
	struct sim_file *f;

	if (p->issued >= p->io_size) {
		if (j->time_based || p->loops_left > 1) {
			if (!j->time_based)
				p->loops_left--;
			p->issued = 0;
			p->cur = 0;
			p->pos = 0;
			p->ra_valid = false;
		} else {
			return false;
		}
	}
	if (j->file_service == FS_RANDOM && p->nfiles > 1)
		p->cur = (unsigned)rng_below(&p->rng, p->nfiles);
	f = &s->files[p->file0 + p->cur];
	if (rnd) {
		uint64_t blocks = (f->size - j->offset) / j->bs;

		*off = j->offset + rng_below(&p->rng, blocks ? blocks : 1) * j->bs;
	} else {
		if (p->pos >= f->size) {
			p->cur = (p->cur + 1) % p->nfiles;
			p->pos = j->offset;
			p->ra_valid = false;
			f = &s->files[p->file0 + p->cur];
		}
		*off = p->pos;
	}
	*len = j->bs;
	if (*off + *len > f->size)
		*len = f->size - *off;
	if (!rnd)
		p->pos = *off + *len;
	*fi = p->file0 + p->cur;
	switch (j->rw) {
	case RW_READ: case RW_RANDREAD: *dir = 0; break;
	case RW_WRITE: case RW_RANDWRITE: *dir = 1; break;
	default: *dir = rng_below(&p->rng, 100) < j->rwmixread ? 0 : 1; break;
	}
	p->issued += *len;
	return true;
}

static int buffered_read(struct sim *s, int pi, unsigned slot, unsigned fi,
			 uint64_t off, uint64_t len)
{
	struct sim_proc *p = &s->procs[pi];
	struct sim_file *f = &s->files[fi];
	uint64_t lo = off / PAGE, hi = (off + len + PAGE - 1) / PAGE;

	if (file_pages(f) || readahead(s, pi, fi, lo, hi) ||
	    read_pages(s, pi, fi, lo, hi))
		return -1;
	p->ra_last = hi - 1;
	if (pages_ready(f, lo, hi))
		return app_done(s, pi, &p->app[slot]);
	p->state = S_PAGES;
	p->wait_app = slot;
	p->wait_file = fi;
	p->wait_lo = lo;
	p->wait_hi = hi;
	return 0;
}

static int buffered_write(struct sim *s, int pi, unsigned slot, unsigned fi,
			  uint64_t off, uint64_t len)
{
	struct sim_proc *p = &s->procs[pi];
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
		if (start_fsync(s, pi, fi) < 0)
			return -1;
		if (fsync_done(s, p))
			return app_done(s, pi, &p->app[slot]);
		return 0;
	}
	if (s->nr_dirty + s->nr_wb > s->dirty_limit) {
		/* balance_dirty_pages: the writer waits for writeback */
		p->state = S_THROTTLED;
		p->wait_app = slot;
		return 0;
	}
	return app_done(s, pi, &p->app[slot]);
}

static int issue_one(struct sim *s, int pi)
{
	struct sim_proc *p = &s->procs[pi];
	unsigned fi, slot = free_slot(p);
	uint64_t off, len;
	int dir;
	struct app_io *a;

	if (!next_io(s, p, &fi, &off, &len, &dir))
		return 1;
	a = &p->app[slot];
	*a = (struct app_io){ true, dir, s->now, len, 0 };
	p->inflight++;
	p->state = S_IO;
	if (!p->spec->direct)
		return dir ? buffered_write(s, pi, slot, fi, off, len) :
			     buffered_read(s, pi, slot, fi, off, len);
	{
		struct sim_file *f = &s->files[fi];
		uint64_t max = s->set->max_sectors_kb * 2;
		uint64_t sector = f->start + off / 512, left = (len + 511) / 512;

		while (left) {
			uint64_t n = left < max ? left : max;

			a->pieces++;
			if (submit(s, K_DIRECT, pi, slot, fi, sector, n, dir, true, 0, 0))
				return -1;
			sector += n;
			left -= n;
		}
	}
	return 0;
}

static int issue_next(struct sim *s, int pi)
{
	struct sim_proc *p = &s->procs[pi];

	if (p->finished)
		return 0;
	while (p->inflight < p->spec->iodepth && p->state != S_PAGES &&
	       p->state != S_THROTTLED && p->state != S_FSYNC && !p->finished) {
		int rc = issue_one(s, pi);

		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (p->inflight)
				return 0;	/* the rest completes first */
			if (p->spec->end_fsync && !p->spec->direct && !p->fsync_then_finish) {
				p->fsync_then_finish = true;
				if (start_fsync(s, pi, p->file0 + p->cur) < 0)
					return -1;
				if (!fsync_done(s, p))
					return 0;
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
static int wake_waiters(struct sim *s, unsigned fi)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++) {
		struct sim_proc *p = &s->procs[i];

		if (p->finished)
			continue;
		if (p->state == S_PAGES && p->wait_file == fi) {
			if (!pages_ready(&s->files[fi], p->wait_lo, p->wait_hi)) {
				/* the cache may have dropped some while it waited */
				if (read_pages(s, (int)i, fi, p->wait_lo, p->wait_hi))
					return -1;
				continue;
			}
			p->state = S_IO;
			if (app_done(s, (int)i, &p->app[p->wait_app]))
				return -1;
		} else if (p->state == S_THROTTLED &&
			   s->nr_dirty + s->nr_wb <= s->dirty_limit) {
			p->state = S_IO;
			if (app_done(s, (int)i, &p->app[p->wait_app]))
				return -1;
		} else if (p->state == S_FSYNC && p->fsync_file == fi && fsync_done(s, p)) {
			p->state = S_IDLE;
			if (p->fsync_then_finish) {
				job_finish(s, p);
			} else if (p->spec->osync && p->app[p->wait_app].busy) {
				if (app_done(s, (int)i, &p->app[p->wait_app]))
					return -1;
			} else if (issue_next(s, (int)i)) {
				return -1;
			}
		}
	}
	return 0;
}

/* Pages [lo, lo + n) of @fi just became clean: remember them, evict if full. */
static int clean_add(struct sim *s, unsigned fi, uint64_t lo, uint64_t n)
{
	if (s->clean_len == s->clean_cap) {
		size_t cap = s->clean_cap ? 2 * s->clean_cap : 256, i;
		struct clean_run *c = malloc(cap * sizeof(*c));

		if (!c)
			return -1;
		for (i = 0; i < s->clean_len; i++)
			c[i] = s->clean[(s->clean_head + i) % s->clean_cap];
		free(s->clean);
		s->clean = c;
		s->clean_cap = cap;
		s->clean_head = 0;
	}
	s->clean[(s->clean_head + s->clean_len++) % s->clean_cap] =
		(struct clean_run){ fi, lo, n };
	while (s->clean_len && s->nr_clean + s->nr_dirty + s->nr_wb > s->mem_pages) {
		struct clean_run *r = &s->clean[s->clean_head];
		uint8_t *pg = s->files[r->file].pages;
		uint64_t i;

		for (i = r->lo; i < r->lo + r->n; i++) {
			if (pg[i] == P_CLEAN) {
				pg[i] = P_NONE;
				s->nr_clean--;
			}
		}
		s->clean_head = (s->clean_head + 1) % s->clean_cap;
		s->clean_len--;
	}
	return 0;
}

static int replay_done(struct sim *s, struct sim_rq *rq);

static int complete(struct sim *s, struct sim_rq *rq)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < s->ndrive; i++)
		if (s->drive[i] == rq)
			break;
	if (i < s->ndrive)
		s->drive[i] = s->drive[--s->ndrive];
	if (!s->ndrive)
		s->r->disk_busy += s->now - s->busy_since;
	if (s->mech == rq)
		s->mech = NULL;
	if (!rq->dispatched || rq->completed++)
		s->r->violations++;
	s->r->bytes_completed += (uint64_t)rq->rq.nr_sectors * 512;
	if (!rq->rq.write && s->now - rq->rq.add_time > WBT_TARGET)
		s->wbt_slow = true;
	s->ops->complete(s->sched, &rq->rq, s->now);

	if (rq->kind == K_TRACE) {
		rc = replay_done(s, rq);
	} else if (rq->kind == K_DIRECT) {
		struct sim_proc *p = &s->procs[rq->proc];
		struct app_io *a = &p->app[rq->app];

		if (!--a->pieces)
			rc = app_done(s, rq->proc, a);
	} else {
		struct sim_file *f = &s->files[rq->file];
		uint64_t pg;

		for (pg = rq->page_lo; pg < rq->page_lo + rq->npages; pg++) {
			uint8_t *st = &f->pages[pg];

			if (rq->kind == K_RA) {
				*st = P_CLEAN;
				s->nr_clean++;
			} else {
				s->nr_wb--;
				if (*st == P_WB_DIRTY) {
					*st = P_DIRTY;
					f->ndirty++;
					s->nr_dirty++;
					dirty_list_add(s, rq->file);
				} else {
					*st = P_CLEAN;
					s->nr_clean++;
				}
			}
		}
		if (clean_add(s, rq->file, rq->page_lo, rq->npages))
			return -1;
		if (rq->kind == K_WB)
			s->flusher_inflight--;
		if (rq->kind == K_WB || rq->kind == K_FSYNC)
			f->wb_inflight--;
		if (rq->kind == K_FSYNC && s->procs[rq->proc].fsync_pending)
			s->procs[rq->proc].fsync_pending--;
		rc = wake_waiters(s, rq->file);
		if (!rc && rq->kind == K_WB && s->set->wbt) {
			/*
			 * A flusher held back by wbt sleeps until a write completes
			 * and needs a wake-up before it queues the next: the moment
			 * in which a deadline batch finds no next write.
			 */
			if (!s->flush_wake) {
				s->flush_wake = true;
				rc = push_event(s, s->now + s->set->wakeup, EV_FLUSH, 0, NULL);
			}
		} else if (!rc) {
			rc = flusher_run(s);
		}
	}
	if (rq->proc >= 0 && rq->kind != K_TRACE)
		report_exit(s, &s->procs[rq->proc]);
	rq_free(s, rq);
	start_mech(s);
	return rc;
}

/* ---- setup ---- */

static int add_file(struct sim *s, uint64_t *cursor, uint64_t size, size_t *cap)
{
	struct sim_file *f;

	if (s->nfiles == *cap) {
		size_t n = *cap ? *cap * 2 : 16;
		struct sim_file *nf = realloc(s->files, n * sizeof(*nf));

		if (!nf)
			return -1;
		s->files = nf;
		*cap = n;
	}
	f = &s->files[s->nfiles++];
	memset(f, 0, sizeof(*f));
	f->start = *cursor;
	f->size = size;
	f->dirty_next = -1;
	*cursor += (size + PAGE - 1) / PAGE * SECT_PER_PAGE;
	return 0;
}

static int layout(struct sim *s, char *err, size_t errlen)
{
	const struct workload *w = s->w;
	uint64_t cursor = 2048, cap_sect = s->disk.p.capacity;
	size_t i, fcap = 0, pi = 0;
	unsigned k, n;

	for (i = 0; i < w->nr_jobs; i++)
		s->nprocs += w->jobs[i].numjobs;
	if (!s->nprocs)
		return 0;	/* a trace replay */
	s->procs = calloc(s->nprocs, sizeof(*s->procs));
	if (!s->procs)
		return -1;
	for (i = 0; i < w->nr_jobs; i++) {
		const struct job_spec *j = &w->jobs[i];

		for (k = 0; k < j->numjobs; k++, pi++) {
			struct sim_proc *p = &s->procs[pi];
			bool raw = !strncmp(j->filename, "/dev/", 5);
			size_t shared = s->nfiles;

			p->spec = j;
			if (j->numjobs > 1)
				snprintf(p->name, sizeof(p->name), "%s.%u", j->name, k);
			else
				snprintf(p->name, sizeof(p->name), "%s", j->name);
			p->rng = s->set->seed * 0x9e3779b97f4a7c15ULL + pi * 7919 + 1;
			p->loops_left = j->loops;
			antic_proc_init(&p->ap);
			p->app = calloc(j->iodepth, sizeof(*p->app));
			if (!p->app)
				return -1;
			/* jobs naming the same file share it, as in fio */
			if (j->filename[0]) {
				size_t q;

				for (q = 0; q < pi; q++)
					if (!strcmp(s->procs[q].spec->filename, j->filename))
						break;
				if (q < pi) {
					p->file0 = s->procs[q].file0;
					p->nfiles = s->procs[q].nfiles;
					goto sized;
				}
			}
			p->file0 = (unsigned)shared;
			p->nfiles = j->nrfiles;
			if (raw) {
				uint64_t c0 = 0;

				if (add_file(s, &c0, cap_sect * 512, &fcap))
					return -1;
				p->nfiles = 1;
				goto sized;
			}
			cursor = (cursor + 2047) / 2048 * 2048;
			for (n = 0; n < j->nrfiles; n++) {
				uint64_t sz = j->filesize_lo ?
					j->filesize_lo + rng_below(&p->rng, j->filesize_hi - j->filesize_lo + 1) :
					j->size / j->nrfiles;

				sz = (sz + 511) / 512 * 512;
				if (sz < 512)
					sz = 512;
				if (add_file(s, &cursor, sz, &fcap))
					return -1;
				cursor += j->file_gap / 512;
			}
sized:
			for (n = 0; n < p->nfiles; n++) {
				const struct sim_file *f = &s->files[p->file0 + n];

				if (f->start + (f->size + 511) / 512 > cap_sect) {
					snprintf(err, errlen, "job '%s': its files do not fit on the disk (%llu MiB)",
						 j->name, (unsigned long long)(cap_sect >> 11));
					return -1;
				}
				if (j->offset >= f->size) {
					snprintf(err, errlen, "job '%s': offset is past the end of its file", j->name);
					return -1;
				}
				p->io_size += f->size - j->offset;
			}
			if (j->size && (raw || j->filesize_lo || j->filename[0]))
				p->io_size = j->size < p->io_size || raw ? j->size : p->io_size;
			p->pos = j->offset;
			p->res = &s->r->jobs[pi];
			snprintf(p->res->name, sizeof(p->res->name), "%s", p->name);
		}
	}
	return 0;
}

/* ---- trace replay ---- */

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
struct rp_node {
	uint64_t t;		/* scaled */
	/* scaled: the think time for TD_AFTER_DONE, else the gap since the previous record */
	uint64_t wait;
	uint64_t sector;
	uint32_t nr;
	int next;
	bool write, sync;
	uint8_t dep;
};

struct rp_proc {
	struct antic_proc ap;
	uint32_t pid;
	int head, tail;
	unsigned outstanding;
	uint64_t last_issue, last_done, last_t, first;
	bool any, timer, exited;
};

struct rp_live {
	uint64_t start, bytes;
	uint32_t pieces;
	int proc, dir, next;
};

struct replay {
	struct trace *t;
	const struct replay_spec *spec;
	struct rp_proc *procs;
	size_t nprocs, cap;
	int *index;		/* pid hash -> procs index */
	size_t icap;
	uint32_t last_pid;	/* the last one looked up, and its index (or -1) */
	int last_pi;
	struct rp_node *nodes;
	int free_node;
	unsigned pending;
	struct rp_live *live;
	size_t nlive, caplive;
	int free_live;
	struct trace_rec next;	/* open loop: the record due next */
	bool eof;
	char err[512];
};

static struct antic_proc *replay_proc(struct sim *s, int proc)
{
	return &s->rp->procs[proc].ap;
}

static uint64_t rp_scale(const struct replay *rp, uint64_t ns)
{
	double v;

	/* the usual case, without a trip through double; the same cap */
	if (rp->spec->time_scale == 1.0)
		return ns >= 18000000000000000000ULL ? UINT64_MAX / 2 : ns;
	v = (double)ns * rp->spec->time_scale;
	return v >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)v;
}

static uint32_t rp_hash(uint32_t pid)
{
	return pid * 2654435761u;
}

/* The process for @pid, created on its first record. -1: out of memory. */
static int rp_proc_lookup(struct sim *s, uint32_t pid)
{
	struct replay *rp = s->rp;
	size_t i, mask;

	if ((rp->nprocs + 1) * 2 > rp->icap) {
		size_t cap = rp->icap ? rp->icap * 2 : 64, j;
		int *n = malloc(cap * sizeof(*n));

		if (!n)
			return -1;
		for (j = 0; j < cap; j++)
			n[j] = -1;
		for (j = 0; j < rp->nprocs; j++) {
			for (i = rp_hash(rp->procs[j].pid) & (cap - 1); n[i] >= 0; i = (i + 1) & (cap - 1))
				;
			n[i] = (int)j;
		}
		free(rp->index);
		rp->index = n;
		rp->icap = cap;
	}
	mask = rp->icap - 1;
	for (i = rp_hash(pid) & mask; rp->index[i] >= 0; i = (i + 1) & mask) {
		if (rp->procs[rp->index[i]].pid == pid) {
			rp->last_pid = pid;
			return rp->last_pi = rp->index[i];
		}
	}
	if (rp->nprocs == rp->cap) {
		size_t cap = rp->cap ? rp->cap * 2 : 16;
		struct rp_proc *np = realloc(rp->procs, cap * sizeof(*np));
		struct job_result *nj = realloc(s->r->jobs, cap * sizeof(*nj));

		if (np)
			rp->procs = np;
		if (nj)
			s->r->jobs = nj;
		if (!np || !nj)
			return -1;
		rp->cap = cap;
	}
	{
		struct rp_proc *p = &rp->procs[rp->nprocs];
		struct job_result *j = &s->r->jobs[rp->nprocs];
		const char *comm = trace_proc_name(rp->t, pid);
		const struct trace_stats *ts = trace_stats(rp->t);

		memset(p, 0, sizeof(*p));
		memset(j, 0, sizeof(*j));
		antic_proc_init(&p->ap);
		p->pid = pid;
		p->head = p->tail = -1;
		if (!ts->has_pids)
			snprintf(j->name, sizeof(j->name), "%s", trace_device(rp->t));
		else if (comm)
			snprintf(j->name, sizeof(j->name), "%s[%u]", comm, pid);
		else
			snprintf(j->name, sizeof(j->name), "pid %u", pid);
		rp->index[i] = (int)rp->nprocs;
		s->r->nr_jobs = ++rp->nprocs;
	}
	rp->last_pid = pid;
	return rp->last_pi = (int)rp->nprocs - 1;
}

/* Records come in runs from one process: the last one found, inline. */
static inline int rp_proc_of(struct sim *s, uint32_t pid)
{
	if (s->rp->last_pi >= 0 && s->rp->last_pid == pid)
		return s->rp->last_pi;
	return rp_proc_lookup(s, pid);
}

/* A record must fit on the simulated disk: rp_read checks each it reads. */
static int rp_check(struct sim *s, const struct trace_rec *rec)
{
	struct replay *rp = s->rp;

	if (rec->sector + rec->nr > s->disk.p.capacity) {
		snprintf(rp->err, sizeof(rp->err),
			 "%s:%llu: sector: %llu + %u is beyond the simulated disk's %llu sectors; "
			 "give a larger --set capacity=",
			 rp->spec->path, (unsigned long long)rec->line,
			 (unsigned long long)rec->sector, rec->nr,
			 (unsigned long long)s->disk.p.capacity);
		return -1;
	}
	return 0;
}

/* Issue a request for process @pi now, split as the block layer would. */
static int rp_issue(struct sim *s, int pi, uint64_t sector, uint32_t nr, bool write, bool sync)
{
	struct replay *rp = s->rp;
	struct rp_proc *p = &rp->procs[pi];
	uint64_t max = s->set->max_sectors_kb * 2, left = nr;
	int li;

	if (rp->free_live < 0) {
		size_t cap = rp->caplive ? rp->caplive * 2 : 1024, j;
		struct rp_live *n = realloc(rp->live, cap * sizeof(*n));

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
	rp->live[li] = (struct rp_live){ s->now, (uint64_t)nr * 512, 0, pi, write, -1 };
	if (!p->any)
		p->first = s->now;
	p->any = true;
	p->outstanding++;
	p->last_issue = s->now;
	while (left) {
		uint64_t n = left < max ? left : max;

		rp->live[li].pieces++;
		if (submit(s, K_TRACE, pi, (unsigned)li, 0, sector, n, write, sync, 0, 0))
			return -1;
		sector += n;
		left -= n;
	}
	return 0;
}

/*
 * Closed loop: issue what process @pi may issue now, and set a wake-up
 * for the next one that must wait for its time.
 */
static int rp_try(struct sim *s, int pi)
{
	struct replay *rp = s->rp;
	struct rp_proc *p = &rp->procs[pi];

	while (p->head >= 0 && !p->timer) {
		struct rp_node *n = &rp->nodes[p->head];
		uint64_t t, at = n->t;
		int h;

		if (!p->any) {
			t = at;
		} else if (!n->sync) {
			t = at > p->last_issue ? at : p->last_issue;	/* async: as recorded */
		} else if (n->dep == TD_OVERLAP) {
			t = p->last_issue + n->wait;
		} else {
			if (p->outstanding)
				return 0;	/* waits for the previous one to complete */
			if (n->dep == TD_AFTER_DONE) {
				t = p->last_done + n->wait;
			} else {
				/* no completions recorded: its gap, and not before the last completes */
				t = p->last_issue + n->wait;
				if (t < p->last_done)
					t = p->last_done;
			}
		}
		if (t > s->now) {
			p->timer = true;
			return push_event(s, t, EV_TWAKE, pi, NULL);
		}
		h = p->head;
		p->head = n->next;
		if (p->head < 0)
			p->tail = -1;
		else	/* read in a window ago, and out of the cache since */
			__builtin_prefetch(&rp->nodes[p->head]);
		if (rp_issue(s, pi, n->sector, n->nr, n->write, n->sync))
			return -1;
		n->next = rp->free_node;
		rp->free_node = h;
		rp->pending--;
	}
	return 0;
}

static void rp_exit_idle(struct sim *s, int pi)
{
	struct rp_proc *p = &s->rp->procs[pi];

	if (s->rp->eof && !p->exited && p->head < 0 && !p->outstanding && !p->timer) {
		p->exited = true;
		s->ops->proc_exit(s->sched, &p->ap, s->now);
	}
}

static int rp_read(struct sim *s, struct trace_rec *rec)
{
	struct replay *rp = s->rp;
	int rc = trace_next(rp->t, rec, rp->err, sizeof(rp->err));

	if (rc > 0 && rp_check(s, rec))
		return -1;
	if (rc == 0) {
		size_t i;

		rp->eof = true;
		for (i = 0; i < rp->nprocs; i++)
			rp_exit_idle(s, (int)i);
	}
	return rc;
}

/* Closed loop: read ahead into the processes' FIFOs, up to the window. */
static int rp_pull(struct sim *s)
{
	struct replay *rp = s->rp;

	while (!rp->eof && rp->pending < REPLAY_WINDOW) {
		struct trace_rec rec;
		struct rp_node *n;
		struct rp_proc *p;
		int rc = rp_read(s, &rec), pi, ni;
		uint64_t at;

		if (rc <= 0)
			return rc;
		pi = rp_proc_of(s, rec.pid);
		if (pi < 0)
			return -1;
		p = &rp->procs[pi];
		ni = rp->free_node;
		n = &rp->nodes[ni];
		rp->free_node = n->next;
		at = rp_scale(rp, rec.t);
		n->t = at;
		n->wait = rec.dep == TD_AFTER_DONE ? rp_scale(rp, rec.think) :
			  at - (p->last_t < at ? p->last_t : at);
		n->sector = rec.sector;
		n->nr = rec.nr;
		n->write = rec.write;
		n->sync = rec.sync;
		n->dep = rec.dep;
		n->next = -1;
		p->last_t = at;
		if (p->tail >= 0)
			rp->nodes[p->tail].next = ni;
		else
			p->head = ni;
		p->tail = ni;
		rp->pending++;
		if (p->head == ni && rp_try(s, pi))
			return -1;
	}
	return 0;
}

/* Open loop: issue the record that is due, and schedule the next one. */
static int rp_open_step(struct sim *s)
{
	struct replay *rp = s->rp;
	int pi, rc;

	if (!rp->eof) {
		pi = rp_proc_of(s, rp->next.pid);
		if (pi < 0 || rp_issue(s, pi, rp->next.sector, rp->next.nr, rp->next.write,
				       rp->next.sync))
			return -1;
	}
	rc = rp_read(s, &rp->next);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		uint64_t at = rp_scale(rp, rp->next.t);

		set_side(s, SIDE_TRACE, at > s->now ? at : s->now, EV_TRACE, NULL);
	}
	return 0;
}

static int replay_done(struct sim *s, struct sim_rq *rq)
{
	struct replay *rp = s->rp;
	struct rp_live *l = &rp->live[rq->app];
	struct rp_proc *p;
	struct job_result *j;
	int pi = l->proc;

	if (--l->pieces)
		return 0;
	p = &rp->procs[pi];
	j = &s->r->jobs[pi];
	j->io_bytes[l->dir] += l->bytes;
	j->ios[l->dir]++;
	hist_add(&j->lat[l->dir], s->now - l->start);
	j->runtime = s->now - p->first;
	l->next = rp->free_live;
	rp->free_live = (int)rq->app;
	p->outstanding--;
	p->last_done = s->now;
	if (rp->spec->closed && (rp_try(s, pi) || rp_pull(s)))
		return -1;
	rp_exit_idle(s, pi);
	return 0;
}

static int replay_wake(struct sim *s, int pi)
{
	s->rp->procs[pi].timer = false;
	if (rp_try(s, pi) || rp_pull(s))
		return -1;
	rp_exit_idle(s, pi);
	return 0;
}

static int replay_start(struct sim *s, const struct replay_spec *spec, char *err, size_t errlen)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	int i;

	if (!rp)
		return -1;
	s->rp = rp;
	rp->spec = spec;
	rp->free_live = -1;
	rp->last_pi = -1;
	rp->t = trace_open(spec->path, &spec->topts, err, errlen);
	if (!rp->t)
		return -1;
	if (spec->closed) {
		rp->nodes = malloc(REPLAY_WINDOW * sizeof(*rp->nodes));
		if (!rp->nodes)
			return -1;
		for (i = 0; i < REPLAY_WINDOW; i++)
			rp->nodes[i].next = i + 1 < REPLAY_WINDOW ? i + 1 : -1;
		return rp_pull(s);
	}
	i = rp_read(s, &rp->next);
	if (i <= 0)
		return i;
	set_side(s, SIDE_TRACE, rp_scale(rp, rp->next.t), EV_TRACE, NULL);
	return 0;
}

static void replay_free(struct sim *s)
{
	struct replay *rp = s->rp;

	if (!rp)
		return;
	trace_close(rp->t);
	free(rp->procs);
	free(rp->index);
	free(rp->nodes);
	free(rp->live);
	free(rp);
	s->rp = NULL;
}

static void sim_free(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++)
		free(s->procs[i].app);
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i].pages);
	for (i = 0; i < s->nblocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
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
	const char *why = NULL;
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
	s->dirty_head = s->dirty_tail = -1;
	s->wbt_depth = WBT_MAX;
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

		/* as in the kernel: no anticipation on a non-rotational disk unless asked */
		if (!disk_rotational(&s->disk) && !w->set.as_explicit_antic)
			t.antic_expire = 0;
		as_init(&s->u.as, &t);
		s->ops = &as_policy_ops;
		break;
	}
	}
	s->sched = &s->u;
	antic_proc_init(&s->flusher);
	s->dirty_limit = w->set.mem_bytes / PAGE * w->set.dirty_ratio / 100;
	s->bg_limit = w->set.mem_bytes / PAGE * w->set.dirty_background_ratio / 100;
	s->mem_pages = w->set.mem_bytes / PAGE;
	if (layout(s, err, errlen)) {
		if (!*err)
			snprintf(err, errlen, "out of memory");
		goto out;
	}
	s->jobs_left = (unsigned)s->nprocs;
	for (i = 0; i < s->nprocs; i++)
		if (push_event(s, s->procs[i].spec->startdelay, EV_WAKE, (int)i, NULL))
			goto oom;
	if (o->replay) {
		if (replay_start(s, o->replay, err, errlen)) {
			if (!*err)
				snprintf(err, errlen, "%s", s->rp && *s->rp->err ? s->rp->err : "out of memory");
			goto out;
		}
		/* the first requests may already be queued, with no event to run the queue */
		kick(s);
	}
	while (have_event(s)) {
		struct event ev;

		if (s->stop && (!o->drain || !s->live_rqs))
			break;
		ev = pop_event(s);
		if (ev.t > w->set.max_time) {
			r->timed_out = true;
			break;
		}
		s->now = ev.t;
		r->events++;
		if (o->progress && s->now >= s->next_progress) {
			fprintf(stderr, "\r  %-13s %8.1f s simulated", r->scheduler,
				(double)s->now / 1e9);
			s->next_progress = s->now + ANTIC_NSEC_PER_SEC;
		}
		switch (ev.type) {
		case EV_WAKE: {
			struct sim_proc *p = &s->procs[ev.arg];

			if (p->finished)
				break;
			if (!p->started) {
				p->started = true;
				p->start = s->now;
				if (p->spec->runtime &&
				    push_event(s, s->now + p->spec->runtime, EV_END, ev.arg, NULL))
					goto oom;
			}
			if (p->state == S_THINK)
				p->state = S_IDLE;
			if (issue_next(s, ev.arg))
				goto oom;
			break;
		}
		case EV_END:
			job_finish(s, &s->procs[ev.arg]);
			break;
		case EV_DONE:
			if (complete(s, ev.rq))
				goto replay_err;
			break;
		case EV_SCHED:
			if (pol == POL_AS)
				as_timer(&s->u.as, s->now);
			break;
		case EV_FLUSH:
			s->flush_wake = false;
			if (flusher_run(s))
				goto oom;
			break;
		case EV_TRACE:
			if (rp_open_step(s))
				goto replay_err;
			break;
		case EV_TWAKE:
			if (replay_wake(s, ev.arg))
				goto replay_err;
			break;
		}
		kick(s);
	}
	if (o->progress)
		fprintf(stderr, "\r%60s\r", "");
	r->sim_time = s->now;
	r->disk = s->disk.st;
	if (s->ndrive)
		r->disk_busy += s->now - s->busy_since;
	for (i = 0; i < s->nprocs; i++)
		if (!s->procs[i].finished && s->procs[i].started)
			r->jobs[i].runtime = s->now - s->procs[i].start;
	if (pol == POL_AS) {
		r->as = s->u.as.cnt;
		as_estimates(&s->u.as, &r->est);
	}
	/* with drain, every request created must have completed */
	if (o->drain && !r->timed_out)
		r->violations += s->live_rqs;
	if (s->rp)
		r->trace = *trace_stats(s->rp->t);
	rc = 0;
	goto out;
replay_err:
	if (s->rp && *s->rp->err) {
		snprintf(err, errlen, "%s", s->rp->err);
		goto out;
	}
oom:
	snprintf(err, errlen, "out of memory");
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
