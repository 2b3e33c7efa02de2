/*
 * writeback.c - dirty pages on their way to the disk: the list of files
 * with dirty pages, sorted runs of them as write requests, the background
 * flusher, and wbt's throttling of it while reads are about.
 */
#include "sim.h"

void dirty_list_add(struct sim *s, unsigned fi)
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
int write_run(struct sim *s, unsigned fi, uint64_t *cursor, int kind,
	      struct antic_proc *ap, bool sync)
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
	if (blk_submit(s, kind, ap, 0, fi, f->start + p * SECT_PER_PAGE,
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
int flusher_run(struct sim *s)
{
	size_t idle = 0;	/* files passed over since the last write */

	if (s->nr_dirty > s->bg_limit)
		s->flushing = true;
	while (s->flushing && s->flusher_inflight < wb_limit(s)) {
		int fi = s->dirty_head, n;

		if (s->nr_dirty <= s->bg_limit || fi < 0) {
			s->flushing = false;
			break;
		}
		n = write_run(s, (unsigned)fi, &s->files[fi].wb_cursor, K_WB, &s->flusher, false);
		if (n < 0)
			return -1;
		if (n) {
			s->flusher_inflight++;
			idle = 0;
			continue;
		}
		/* end of this file: start over next pass, serve the next file */
		s->files[fi].wb_cursor = 0;
		dirty_list_pop(s);
		if (s->files[fi].ndirty)
			dirty_list_add(s, (unsigned)fi);
		if (s->dirty_head == fi && !s->files[fi].ndirty)
			break;
		/* each file passed over twice, once from page 0: the count is wrong */
		if (++idle > 2 * s->nfiles) {
			snprintf(s->bug, sizeof(s->bug), "internal error: %llu pages counted dirty "
				 "at %llu ns, but the flusher finds none to write",
				 (unsigned long long)s->nr_dirty, (unsigned long long)s->now);
			return -1;
		}
	}
	return 0;
}

/* A writeback or fsync request @rq completed: the counts that wait on it. */
void writeback_done(struct sim *s, const struct sim_rq *rq)
{
	struct sim_proc *p;

	if (rq->kind == K_WB)
		s->flusher_inflight--;
	if (rq->kind == K_WB || rq->kind == K_FSYNC)
		s->files[rq->file].wb_inflight--;
	if (rq->kind == K_FSYNC) {
		p = job_of(s, rq);
		if (p->fsync_pending)
			p->fsync_pending--;
	}
}

/* After a page-cache request completes, the flusher may go on. */
int writeback_after_completion(struct sim *s, const struct sim_rq *rq)
{
	if (rq->kind == K_WB && s->set->wbt) {
		/*
		 * A flusher held back by wbt sleeps until a write completes
		 * and needs a wake-up before it queues the next: the moment
		 * in which a deadline batch finds no next write.
		 */
		if (s->flush_wake)
			return 0;
		s->flush_wake = true;
		return event_push(s, s->now + s->set->wakeup, EV_FLUSH, 0, NULL);
	}
	return flusher_run(s);
}

/* wbt watches read latency: one slow read in a window halves its depth. */
void wbt_read_done(struct sim *s, const struct sim_rq *rq)
{
	if (!rq->rq.write && s->now - rq->rq.add_time > WBT_TARGET)
		s->wbt_slow = true;
}

void writeback_init(struct sim *s)
{
	const struct sim_settings *set = s->set;

	s->dirty_head = s->dirty_tail = -1;
	s->wbt_depth = WBT_MAX;
	s->dirty_limit = set->mem_bytes / PAGE * set->dirty_ratio / 100;
	s->bg_limit = set->mem_bytes / PAGE * set->dirty_background_ratio / 100;
}
