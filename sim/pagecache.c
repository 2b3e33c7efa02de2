/*
 * pagecache.c - the page cache of the simulated host: each file's page
 * states, the kernel's on-demand read-ahead reduced to its sequential core,
 * and eviction of clean pages oldest first when memory is full.
 */
#include "sim.h"

int file_pages(struct sim_file *f)
{
	if (f->pages)
		return 0;
	f->npages = (f->size + PAGE - 1) / PAGE;
	f->pages = calloc(f->npages ? f->npages : 1, 1);
	return f->pages ? 0 : -1;
}

uint64_t max_pages_per_rq(const struct sim *s)
{
	uint64_t n = s->set->max_sectors_kb / 4;

	return n ? n : 1;
}

/* Read the absent pages of [lo, hi) in runs, as one process's read-ahead. */
int read_pages(struct sim *s, struct sim_proc *proc, unsigned fi, uint64_t lo, uint64_t hi)
{
	struct sim_file *f = &s->files[fi];
	uint64_t p = lo;

	if (hi > f->npages)
		hi = f->npages;
	s->ioprio = job_class(proc->spec);	/* the reader's read-ahead */
	while (p < hi) {
		uint64_t q;

		if (f->pages[p] != P_NONE) {
			p++;
			continue;
		}
		for (q = p; q < hi && f->pages[q] == P_NONE && q - p < max_pages_per_rq(s); q++)
			f->pages[q] = P_INFLIGHT;
		if (blk_submit(s, K_RA, &proc->ap, 0, fi, f->start + p * SECT_PER_PAGE,
			   (q - p) * SECT_PER_PAGE, false, true, p, q - p)) {
			s->ioprio = ANTIC_CLASS_BE;
			return -1;
		}
		p = q;
	}
	s->ioprio = ANTIC_CLASS_BE;
	return 0;
}

/*
 * The largest window, in pages. fio (fadvise_hint, on by default) and
 * GNU cat advise POSIX_FADV_SEQUENTIAL on a sequential job's files, and
 * Linux doubles the file's read-ahead for it: 256 KiB windows of two
 * 128 KiB requests where read_ahead_kb says 128.
 */
static uint64_t ra_max(const struct sim *s, const struct sim_proc *p)
{
	uint64_t n = s->set->read_ahead_kb / 4;
	enum rw_mode rw = p->spec ? p->spec->rw : RW_RANDREAD;

	return rw == RW_READ || rw == RW_WRITE || rw == RW_RW ? 2 * n : n;
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

/*
 * Has the reader reached the marker of its window, with [lo, marker) all
 * in the cache? Then the next window goes out now, while the reader may
 * still wait on this one: the kernel checks the marker on the page it is
 * about to wait for, so a sequential reader keeps two windows outstanding
 * and its next read is often queued or already in the drive when the one
 * it waits on completes. That is what a scheduler at depth 32 sees.
 */
int readahead_marker(struct sim *s, struct sim_proc *p, unsigned fi, uint64_t lo, uint64_t hi)
{
	struct sim_file *f = &s->files[fi];
	uint64_t max = ra_max(s, p);

	while (max && p->ra_valid && p->ra_async) {
		uint64_t marker = p->ra_start + p->ra_size - p->ra_async, i;
		uint64_t start = p->ra_start + p->ra_size, size;

		if (marker < lo || marker >= hi || marker >= f->npages)
			return 0;
		for (i = lo; i < marker; i++)
			if (f->pages[i] == P_NONE || f->pages[i] == P_INFLIGHT)
				return 0;
		size = ra_next_size(p->ra_size, max);
		p->ra_start = (int64_t)start;
		p->ra_size = size;
		p->ra_async = size;	/* its marker: its first page */
		if (start >= f->npages)
			return 0;
		if (read_pages(s, p, fi, start, start + size))
			return -1;
	}
	return 0;
}

/*
 * The kernel's on-demand read-ahead, reduced to its sequential core. A
 * window never lacks a marker: one the reader asks for whole (bs equal to
 * read_ahead_kb) marks its first page, and a first window that would hit
 * its own marker at once is widened or has its marker moved to its middle.
 */
int readahead(struct sim *s, struct sim_proc *p, unsigned fi, uint64_t lo, uint64_t hi)
{
	struct sim_file *f = &s->files[fi];
	uint64_t max = ra_max(s, p), req = hi - lo;

	if (!max)
		return 0;
	if (f->pages[lo] == P_NONE) {
		bool seq = p->ra_valid ? lo == p->ra_last + 1 ||
				(lo >= (uint64_t)p->ra_start && lo < p->ra_start + p->ra_size)
				       : lo == 0;
		uint64_t size = seq ? ra_init_size(req, max) : req;

		p->ra_start = (int64_t)lo;
		p->ra_size = size;
		p->ra_async = !seq ? 0 : size > req ? size - req : size;
		p->ra_valid = true;
		if (p->ra_async == size) {
			uint64_t add = ra_next_size(size, max);

			if (size + add <= max) {
				p->ra_async = add;
				p->ra_size += add;
			} else {
				p->ra_size = max > size ? max : size;
				p->ra_async = p->ra_size / 2;
			}
		}
		if (read_pages(s, p, fi, lo, lo + p->ra_size))
			return -1;
	}
	return readahead_marker(s, p, fi, lo, hi);
}

bool pages_ready(const struct sim_file *f, uint64_t lo, uint64_t hi)
{
	uint64_t i;

	for (i = lo; i < hi && i < f->npages; i++)
		if (f->pages[i] == P_NONE || f->pages[i] == P_INFLIGHT)
			return false;
	return true;
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

/*
 * fio's invalidate (POSIX_FADV_DONTNEED on the job's region, bytes [lo,
 * hi) of @fi): its whole clean pages are dropped, and the eviction
 * queue's runs of them shortened or emptied (a run reaching past both
 * ends keeps its middle). Dirty pages and pages being read or written
 * stay; Linux starts writeback of the dirty ones, which the flusher here
 * leaves to its own time.
 */
void cache_invalidate(struct sim *s, unsigned fi, uint64_t lo, uint64_t hi)
{
	struct sim_file *f = &s->files[fi];
	uint64_t plo = (lo + PAGE - 1) / PAGE, phi = hi / PAGE, i;
	size_t k;

	if (!f->pages)
		return;
	if (phi > f->npages)
		phi = f->npages;
	for (i = plo; i < phi; i++) {
		if (f->pages[i] == P_CLEAN) {
			f->pages[i] = P_NONE;
			s->nr_clean--;
		}
	}
	for (k = 0; k < s->clean_len; k++) {
		struct clean_run *r = &s->clean[(s->clean_head + k) % s->clean_cap];
		uint64_t end = r->lo + r->n;

		if (r->file != fi || end <= plo || r->lo >= phi)
			continue;
		if (r->lo >= plo && end <= phi)
			r->n = 0;
		else if (r->lo >= plo)
			r->n = end - phi, r->lo = phi;
		else if (end <= phi)
			r->n = plo - r->lo;
	}
}

/* A read-ahead or writeback request @rq completed: its pages change state. */
int pages_done(struct sim *s, const struct sim_rq *rq)
{
	struct sim_file *f = &s->files[rq->file];
	uint64_t pg;

	for (pg = rq->page_lo; pg < rq->page_lo + rq->npages; pg++) {
		uint8_t *st = &f->pages[pg];

		if (rq->kind == K_RA) {
			/*
			 * Only what is still in flight: a page a buffered write
			 * dirtied meanwhile keeps the write, as in the kernel
			 * (the writer waits for the locked page, then dirties
			 * it). Cleaning it lost the write and left it counted
			 * dirty for ever: the flusher then spun on rw=rw.
			 */
			if (*st == P_INFLIGHT) {
				*st = P_CLEAN;
				s->nr_clean++;
			}
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
	return clean_add(s, rq->file, rq->page_lo, rq->npages);
}
