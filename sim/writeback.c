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
 * wbt, block/blk-wbt.c's rules in our words (its shape, not its code).
 * The depth it lets writeback have outstanding follows the queue's depth:
 * 16 capped at it (2 on a queue of one), halved per step down and doubled
 * per step up to 3/4 of it. Every window (100 ms, shorter while scaled
 * down) it looks at the reads the drive served in it, timed from issue to
 * the drive: if even the fastest took more than 75 ms, or a read has been
 * in the drive longer than the window, a step down; with reads under the
 * target and writes about, or writes alone, a step up; with nothing,
 * after five windows, a step back towards the default. Background
 * writeback gets a quarter of the depth, the whole of it while a writer
 * was held in balance_dirty_pages in the last second; a flusher held
 * back is woken only once its writes outstanding fall well below half.
 */
#define WBT_WINDOW (100 * ANTIC_NSEC_PER_MSEC)
#define WBT_DEFAULT 16
#define WBT_UNKNOWN_BUMP 5
#define WBT_MIN_WRITES 3
/*
 * wbt reads the queue's depth from the host's tags, not the drive's NCQ
 * depth: 32 behind AHCI whatever the drive takes (hddsim has 32 tags at
 * every depth for that reason), more if the drive takes more.
 */
#define WBT_TAGS 32

static void wbt_calc_max(struct wbt *w)
{
	unsigned qd = w->tags, d;

	w->scaled_max = false;
	if (qd <= 1) {
		w->scaled_max = w->step <= 0;
		w->max = w->step > 0 ? 1 : 2;
		w->window = wbt_window(w);
		return;
	}
	d = qd < WBT_DEFAULT ? qd : WBT_DEFAULT;
	if (w->step > 0) {
		d = 1 + ((d - 1) >> (w->step < 31 ? w->step : 31));
	} else if (w->step < 0) {
		unsigned maxd = 3 * qd / 4, sh = (unsigned)-w->step;

		d = sh < 16 ? 1 + ((d - 1) << sh) : maxd;
		if (d >= maxd) {
			d = maxd ? maxd : 1;
			w->scaled_max = true;
		}
	}
	w->max = d;
	w->window = wbt_window(w);	/* read per completion: kept, not computed */
}

void wbt_init(struct wbt *w, unsigned drive_depth)
{
	*w = (struct wbt){ 0 };
	w->tags = drive_depth > WBT_TAGS ? drive_depth : WBT_TAGS;
	wbt_calc_max(w);
}

static void wbt_scale_up(struct wbt *w)
{
	if (w->scaled_max)
		return;
	w->step--;
	wbt_calc_max(w);
	w->unknown = 0;
}

static void wbt_scale_down(struct wbt *w, bool hard)
{
	if (w->max == 1)
		return;
	if (w->step < 0 && hard)
		w->step = 0;
	else
		w->step++;
	wbt_calc_max(w);
	w->unknown = 0;
}

/* The window shrinks as 1/sqrt(step + 1) while scaled down, to recover sooner. */
uint64_t wbt_window(const struct wbt *w)
{
	uint64_t k = 1;

	if (w->step <= 0)
		return WBT_WINDOW;
	while ((k + 1) * (k + 1) <= (uint64_t)w->step + 1)
		k++;
	return WBT_WINDOW / k;
}

/*
 * Judge the window that ended at @now by its samples, then start the
 * next. @writes_about: writes were outstanding or a writer was held in
 * balance_dirty_pages lately, though none completed in the window.
 */
void wbt_window_end(struct wbt *w, uint64_t now, bool writes_about)
{
	bool exceeded = w->sync_rq &&
		(now - w->sync_issue > wbt_window(w) ||
		 (now - w->sync_issue > WBT_TARGET && !w->rd_n));

	if (exceeded || (w->rd_n && w->wr_n >= WBT_MIN_WRITES && w->rd_min > WBT_TARGET))
		wbt_scale_down(w, true);
	else if (w->rd_n && w->wr_n >= WBT_MIN_WRITES)
		wbt_scale_up(w);
	else if (w->wr_n || writes_about)
		wbt_scale_up(w);
	else if (++w->unknown >= WBT_UNKNOWN_BUMP) {
		if (w->step > 0)
			wbt_scale_up(w);
		else if (w->step < 0)
			wbt_scale_down(w, false);
	}
	w->rd_n = w->wr_n = 0;
	w->win += wbt_window(w);
}

/* The writeback requests the flusher may have outstanding. */
unsigned wbt_limit(const struct wbt *w, bool recent_wait)
{
	if (recent_wait)
		return w->max;
	return w->max <= 1 ? 1 : (w->max + 3) / 4;
}

/*
 * May a flusher held back at the limit go on, with @inflight of its
 * writes outstanding? Only under half the depth, by a margin of an eighth
 * of it, or when none is left; it then fills up to the limit at once.
 */
bool wbt_may_wake(const struct wbt *w, unsigned inflight)
{
	unsigned bg = w->max <= 1 ? 1 : (w->max + 3) / 4;
	unsigned normal = w->max <= 1 ? 1 : (w->max + 1) / 2;

	return !inflight || (inflight < normal && normal - inflight >= bg / 2);
}

/* A writer slept in balance_dirty_pages less than a second ago, or sleeps now. */
bool dirty_throttled_recently(const struct sim *s)
{
	size_t i;

	if (s->dirty_slept && s->now - s->dirty_sleep < ANTIC_NSEC_PER_SEC)
		return true;
	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i].state == S_THROTTLED && !s->procs[i].finished)
			return true;
	return false;
}

/* wbt_tick's loop, once a window has ended */
static __attribute__((noinline)) void wbt_windows_end(struct sim *s)
{
	unsigned n = 0;

	while (s->now - s->wbt.win >= s->wbt.window) {
		wbt_window_end(&s->wbt, s->now,
			       dirty_throttled_recently(s) || s->flusher_inflight);
		if (++n > 10)
			s->wbt.win = s->now;	/* a long quiet spell: a few steps, not many */
	}
}

/*
 * Close the windows that ended by now. Asked at every completion, and a
 * window holds many: the check is inline, the closing a call.
 */
static void wbt_tick(struct sim *s)
{
	if (s->now - s->wbt.win >= s->wbt.window)
		wbt_windows_end(s);
}

static unsigned wb_limit(struct sim *s)
{
	unsigned lim = s->set->nr_requests, w;

	if (!s->set->wbt)
		return lim;
	wbt_tick(s);
	w = wbt_limit(&s->wbt, dirty_throttled_recently(s));
	return w < lim ? w : lim;
}

/* Background writeback: large sorted async writes until under the threshold. */
int flusher_run(struct sim *s)
{
	size_t idle = 0;	/* files passed over since the last write */

	if (s->nr_dirty > s->bg_limit)
		s->flushing = true;
	if (s->wbt.blocked)
		return 0;	/* asleep in wbt until enough of its writes complete */
	while (s->flushing) {
		int fi = s->dirty_head, n;

		if (s->flusher_inflight >= wb_limit(s)) {
			s->wbt.blocked = s->set->wbt;
			break;
		}

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
		if (s->wbt.blocked) {
			if (!wbt_may_wake(&s->wbt, s->flusher_inflight))
				return 0;
			s->wbt.blocked = false;
		}
		if (s->flush_wake)
			return 0;
		s->flush_wake = true;
		return event_push(s, s->now + s->set->wakeup, EV_FLUSH, 0, NULL);
	}
	return flusher_run(s);
}

/* A read went to the drive: wbt times the oldest one it is not yet timing. */
void wbt_issue(struct sim *s, const struct sim_rq *rq)
{
	if (s->set->wbt && !rq->rq.write && !s->wbt.sync_rq) {
		s->wbt.sync_rq = rq;
		s->wbt.sync_issue = s->now;
	}
}

/* A request left the drive: a sample for wbt's window. */
void wbt_done(struct sim *s, const struct sim_rq *rq)
{
	uint64_t lat = s->now - rq->cmd.arrival;

	if (!s->set->wbt)
		return;
	wbt_tick(s);
	if (rq == s->wbt.sync_rq)
		s->wbt.sync_rq = NULL;
	if (rq->rq.write) {
		s->wbt.wr_n++;
	} else {
		if (!s->wbt.rd_n || lat < s->wbt.rd_min)
			s->wbt.rd_min = lat;
		s->wbt.rd_n++;
	}
}

/* A writer starts or ends a sleep in balance_dirty_pages. */
void wbt_dirty_sleep(struct sim *s)
{
	s->dirty_sleep = s->now;
	s->dirty_slept = true;
}

void writeback_init(struct sim *s)
{
	const struct sim_settings *set = s->set;

	s->dirty_head = s->dirty_tail = -1;
	wbt_init(&s->wbt, set->disk.queue_depth);
	s->dirty_limit = set->mem_bytes / PAGE * set->dirty_ratio / 100;
	s->bg_limit = set->mem_bytes / PAGE * set->dirty_background_ratio / 100;
}
