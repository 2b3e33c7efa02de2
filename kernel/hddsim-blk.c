// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim.c - an emulated rotating disk. A blk-mq driver whose completions
 * are timed by core/disk.c (seek, rotation, zones, read cache, write-back
 * cache), so that every Linux I/O scheduler can be measured on "a hard
 * disk" in a VM. Data lives in RAM, allocated on first write, up to mem_mb
 * per device; nodata=1 keeps none (reads return zeros) for large
 * capacities. Written data the drive's cache holds and has not destaged
 * is kept apart (the overlay), so that power_cut can lose it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/highmem.h>
#include <linux/xarray.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/wait.h>

#include "core/disk.h"
#include "kcompat.h"

#define HDDSIM_MAX_DEVICES 8

/* Per-device parameters: one value, or one per device, comma-separated. */
#define HDDSIM_PARAM(name, desc)					\
	static unsigned int name[HDDSIM_MAX_DEVICES];			\
	static int nr_##name;						\
	module_param_array(name, uint, &nr_##name, 0444);		\
	MODULE_PARM_DESC(name, desc)

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of disks (1-8)");

static char *capacity[HDDSIM_MAX_DEVICES];
static int nr_capacity;
module_param_array(capacity, charp, &nr_capacity, 0444);
MODULE_PARM_DESC(capacity, "Size, with k/m/g/t suffix (default 1000204886016, as antic-sim)");

static char *profile[HDDSIM_MAX_DEVICES];
static int nr_profile;
module_param_array(profile, charp, &nr_profile, 0444);
MODULE_PARM_DESC(profile, "A named drive from core/disk.c (sata7200, the default, or ide2003); parameters given beside it override its figures");

HDDSIM_PARAM(rpm, "Spindle speed");
HDDSIM_PARAM(heads, "Recording surfaces");
HDDSIM_PARAM(zones, "Zones from outer to inner diameter");
HDDSIM_PARAM(outer_mbps, "Media rate in the outer zone, MB/s");
HDDSIM_PARAM(inner_mbps, "Media rate in the inner zone, MB/s");
HDDSIM_PARAM(track_to_track_us, "Single-cylinder seek, us");
HDDSIM_PARAM(avg_seek_us, "Average seek, us");
HDDSIM_PARAM(full_stroke_us, "Full-stroke seek, us");
HDDSIM_PARAM(overhead_us, "Command overhead, us");
HDDSIM_PARAM(cache_segments, "Read cache segments (0: no cache)");
HDDSIM_PARAM(segment_kb, "Read cache segment size, KiB");
HDDSIM_PARAM(iface_mbps, "Interface rate for cache hits, MB/s");
HDDSIM_PARAM(queue_depth, "Commands at the drive (1, or NCQ depth served SPTF); sysfs can change it");
HDDSIM_PARAM(ncq_age_ms, "NCQ age limit: a command this old goes first, ms (0: none; default 500)");
HDDSIM_PARAM(ncq_age_weight, "NCQ aging: per mille of a wait credited against positioning time (default 60)");
HDDSIM_PARAM(write_cache, "1: volatile write-back cache (the profile's: on but for ide2003); sysfs can change it");
HDDSIM_PARAM(cache_mb, "MiB of the write cache that may hold written data (default 16)");

/*
 * blk-mq's tag depth is fixed when the disk is made, and it also sets the
 * scheduler's default nr_requests (twice the tag depth). A depth-1 tag set
 * would leave the scheduler two requests to choose from, unlike a real
 * SATA disk behind AHCI (32 tags whatever the drive's NCQ depth). So the
 * tag set always has 32 tags and the drive's depth is a dispatch budget,
 * as SCSI does for its per-device queue_depth; that also lets it change at
 * run time.
 */
#define HDDSIM_TAGS 32
HDDSIM_PARAM(mem_mb, "RAM for data, MiB (default 256)");
HDDSIM_PARAM(nodata, "1: keep no data (reads return zeros)");
HDDSIM_PARAM(max_sectors_kb, "Largest request, KiB (default: the profile's, 512 for sata7200)");

/* an overlay page whose data could not land (hddsim_land_copy) */
#define HDDSIM_UNLANDED XA_MARK_0

/* lateness histogram: 4 buckets per power of two of microseconds */
#define HDDSIM_LATE_BUCKETS 96

/* extents that reached the media and whose data the worker has yet to land */
#define HDDSIM_LANDED 64

struct hddsim_cmd {
	int budget;
	struct request *rq;
	struct disk_cmd cmd;	/* what the drive sees of it */
	blk_status_t status;
	bool flush;		/* a FLUSH, not a read or write */
	bool cached;		/* a write whose data went to the overlay */
	bool absorbed;		/* the cache took it: it completes at due */
	bool requeue;		/* given back to blk-mq, not completed */
	u64 due;		/* ktime it completes, on the done list */
	struct list_head node;	/* on the done list or the FLUSH queue */
};

/*
 * [sector, +nr) was written on the media: the worker copies the overlay's
 * data there (copy; a destage) and frees overlay pages nothing else holds.
 */
struct hddsim_land {
	u64 sector;
	u32 nr;
	bool copy;
};

struct hddsim_dev {
	int id;
	spinlock_t lock;	/* the model, the drive queue, counters */
	struct disk_model model;
	u64 t0;			/* ktime of the model's time zero */
	/* at the drive, not yet in service, in the order they arrived */
	const struct disk_cmd **pending;
	unsigned int npending;
	struct hddsim_cmd *active;	/* in the mechanism */
	bool destaging;		/* or a destage is */
	struct hrtimer timer;
	u64 due;		/* ktime the model says the mechanism is done */
	/*
	 * Writes the cache took, and FLUSHes, complete at their own times
	 * (interface speed): the done list, by due, and its timer.
	 */
	struct list_head done;
	struct hrtimer done_timer;
	unsigned int nabsorbed;	/* absorbed writes on the done list */
	struct list_head flushq;	/* FLUSHes waiting for the drive to drain */
	struct hddsim_cmd *flush_rq;	/* the FLUSH the drive is doing */
	bool cut;		/* power_cut in progress: timers start nothing */
	bool flushing;		/* a FLUSH waits or runs: hddsim_flush_state */
	struct hddsim_land landed[HDDSIM_LANDED];
	unsigned int nlanded;
	struct work_struct land_work;
	wait_queue_head_t clean_wq;	/* a destage landed */
	/*
	 * Data: every copy, the overlay's pages and the worker's landing
	 * are serialised by data_lock (queue_rq may sleep: BLK_MQ_F_BLOCKING).
	 * The overlay holds the newest data of every page an undestaged write
	 * touches; the media (pages) what survives a power cut.
	 */
	struct mutex data_lock;
	/* one write_cache switch at a time: the block layer told in order */
	struct mutex wc_lock;
	struct xarray ovl;	/* page index -> struct page, newest data */
	u64 ovl_pages;
	struct hddsim_land batch[HDDSIM_LANDED];	/* the worker's, under data_lock */
	/*
	 * How late completions fire against the model's schedule, in us:
	 * the limit of what hddsim can show (an hrtimer under TCG fires late).
	 */
	u32 late[HDDSIM_LATE_BUCKETS];
	u64 late_n, late_max_ns;
	u32 depth;		/* budget: commands the drive accepts */
	atomic_t busy;		/* budget in use */
	bool nodata;
	/* media and overlay pages together stay within this (mem_mb) */
	u64 mem_limit_pages;
	atomic64_t mem_pages;	/* the media's */
	struct xarray pages;	/* page index -> struct page */
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	/* counters beyond the model's own */
	u64 reads, writes, flushes, errors, slowed, busy_ns, busy_since;
	u64 nomem, fua, power_cuts, lost_sectors, requeues;
	u64 alloc_failures;	/* under data_lock */
	/* fault injection, parts per million of requests (of pages: fail_alloc_ppm) */
	u32 fail_ppm, slow_ppm, slow_ms, requeue_ppm, fail_alloc_ppm;
	u32 rng;
	u32 requeue_n;		/* requeues chosen, under lock */
	u32 alloc_rng;		/* fail_alloc_ppm's, under data_lock */
};

static int hddsim_major;
static struct hddsim_dev *devices[HDDSIM_MAX_DEVICES];

static unsigned int param(const unsigned int *v, int n, int i, unsigned int dflt)
{
	if (n <= 0)
		return dflt;
	return v[i < n ? i : n - 1];
}

static u32 hddsim_rand(struct hddsim_dev *d)
{
	/* xorshift32: deterministic, and fine for fault selection */
	d->rng ^= d->rng << 13;
	d->rng ^= d->rng >> 17;
	d->rng ^= d->rng << 5;
	return d->rng;
}

/* ---- data ---- */

static bool hddsim_clean(struct hddsim_dev *d);
static void hddsim_drop_overlay(struct hddsim_dev *d);

/*
 * A page for the media or the overlay, or NULL: memory is short, or
 * fail_alloc_ppm says to act as if it were. Caller holds data_lock.
 */
/*
 * A zeroed data page, or NULL with *@st why: NOSPC at mem_mb (a backstop:
 * hddsim_space counted the write's pages, but a page all zeros when
 * counted may hold data by the copy, as pages are not kept stable while
 * written), else RESOURCE (short of memory, or fail_alloc_ppm). Caller
 * holds data_lock.
 */
static struct page *hddsim_alloc_page(struct hddsim_dev *d, blk_status_t *st)
{
	u32 ppm = READ_ONCE(d->fail_alloc_ppm);
	struct page *page;

	*st = BLK_STS_NOSPC;
	if (atomic64_read(&d->mem_pages) + d->ovl_pages >= d->mem_limit_pages)
		return NULL;
	*st = BLK_STS_RESOURCE;
	if (ppm) {
		/* xorshift32, as hddsim_rand, on data_lock's own state */
		d->alloc_rng ^= d->alloc_rng << 13;
		d->alloc_rng ^= d->alloc_rng >> 17;
		d->alloc_rng ^= d->alloc_rng << 5;
		if (d->alloc_rng % 1000000 < ppm)
			return NULL;
	}
	page = alloc_page(GFP_NOIO | __GFP_ZERO | __GFP_NOWARN);
	if (page)
		*st = BLK_STS_OK;
	return page;
}

/*
 * The media's page at @idx, made (zeroed) if missing and @alloc (the
 * caller has checked mem_mb: hddsim_space); caller holds data_lock.
 * *@st says why there is none.
 */
static struct page *hddsim_page(struct hddsim_dev *d, pgoff_t idx, bool alloc,
				blk_status_t *st)
{
	struct page *page = xa_load(&d->pages, idx), *old;

	*st = BLK_STS_OK;
	if (page || !alloc)
		return page;
	page = hddsim_alloc_page(d, st);
	if (!page)
		return NULL;
	old = xa_cmpxchg(&d->pages, idx, NULL, page, GFP_NOIO);
	if (old) {
		__free_page(page);
		*st = xa_is_err(old) ? BLK_STS_RESOURCE : BLK_STS_OK;
		return xa_is_err(old) ? NULL : old;
	}
	atomic64_inc(&d->mem_pages);
	*st = BLK_STS_OK;
	return page;
}

static void hddsim_to_page(struct page *page, unsigned int off,
			   const void *src, unsigned int n)
{
	void *dst = kmap_local_page(page);

	memcpy(dst + off, src, n);
	kunmap_local(dst);
}

/*
 * One piece of a request, within one page: @n bytes at byte @pos, to or
 * from @bv at @boff. Caller holds data_lock. A read sees the overlay's
 * data if it has the page (the newest), else the media's. A @cached
 * write goes to the overlay, whose page starts as a copy of the media's;
 * any other write goes to the media, and to the overlay's page too if it
 * has one, so that the overlay stays the newest. Every overlay page has
 * its media page, made with it: a destage lands without allocating, so
 * it cannot fail for want of memory once the cache has acknowledged it.
 * Fails with BLK_STS_RESOURCE when memory is short (hddsim_space has
 * checked mem_mb).
 */
static blk_status_t hddsim_piece(struct hddsim_dev *d, struct bio_vec *bv,
				 unsigned int boff, u64 pos, unsigned int n,
				 bool write, bool cached)
{
	pgoff_t idx = pos >> PAGE_SHIFT;
	unsigned int off = offset_in_page(pos);
	struct page *ovl = xa_load(&d->ovl, idx);
	struct page *page = xa_load(&d->pages, idx);
	blk_status_t st;
	void *buf, *src;
	bool zeros;

	if (!write) {
		buf = bvec_kmap_local(bv);
		page = ovl ? ovl : page;
		if (page) {
			src = kmap_local_page(page);
			memcpy(buf + boff, src + off, n);
			kunmap_local(src);
		} else {
			memset(buf + boff, 0, n);
		}
		kunmap_local(buf);
		return BLK_STS_OK;
	}
	buf = bvec_kmap_local(bv);
	zeros = !memchr_inv(buf + boff, 0, n);
	kunmap_local(buf);
	if (cached && !ovl) {
		/* zeros over nothing, newest and durable: nothing to keep */
		if (!page && zeros)
			return BLK_STS_OK;
		/* the overlay's page and, if missing, the media's it lands in */
		if (!page) {
			page = hddsim_page(d, idx, true, &st);
			if (!page)
				return st;
		}
		ovl = hddsim_alloc_page(d, &st);
		if (!ovl)
			return st;
		copy_highpage(ovl, page);
		if (xa_err(xa_store(&d->ovl, idx, ovl, GFP_NOIO))) {
			__free_page(ovl);
			return BLK_STS_RESOURCE;
		}
		d->ovl_pages++;
	}
	if (!cached) {
		/* zeros need no page: mkfs's zeroing costs no RAM */
		if (!page && !zeros) {
			page = hddsim_page(d, idx, true, &st);
			if (!page)
				return st;
		}
		if (page) {
			buf = bvec_kmap_local(bv);
			hddsim_to_page(page, off, buf + boff, n);
			kunmap_local(buf);
		}
	}
	if (ovl) {
		buf = bvec_kmap_local(bv);
		hddsim_to_page(ovl, off, buf + boff, n);
		kunmap_local(buf);
	}
	return BLK_STS_OK;
}

/*
 * A write's pieces, page by page: for each page it touches with data
 * (@nonzero: a piece of it is not all zeros), what it makes and holds.
 */
struct hddsim_need {
	u64 media;	/* media pages it makes */
	u64 ovl;	/* overlay pages it makes */
	u64 held;	/* overlay pages it holds, made or found */
};

static void hddsim_need_page(struct hddsim_dev *d, pgoff_t idx, bool nonzero,
			     bool cached, struct hddsim_need *need)
{
	bool media = !!xa_load(&d->pages, idx), ovl = !!xa_load(&d->ovl, idx);

	if (!cached) {
		need->media += !media && nonzero;
		return;
	}
	if (!ovl && !media && !nonzero)
		return;		/* zeros over nothing */
	need->held++;
	need->ovl += !ovl;
	need->media += !media;
}

/*
 * mem_mb bounds the media's pages and the overlay's together. A write
 * that would pass it even once every other overlay page has gone fails
 * for good (BLK_STS_NOSPC); one that waits only for the cache to destage
 * goes back to blk-mq to be sent again (BLK_STS_RESOURCE). With nothing
 * left to destage, what the overlay holds is the media's data or that of
 * writes that failed or wait to be sent again, none acknowledged: it is
 * dropped (their next try makes their pages anew). Caller holds data_lock.
 */
static blk_status_t hddsim_space(struct hddsim_dev *d, struct request *rq,
				 bool cached)
{
	struct hddsim_need need;
	struct req_iterator iter;
	struct bio_vec bv;
	bool nonzero;
	pgoff_t cur;
	u64 media;
	u64 pos;
	void *buf;

again:
	memset(&need, 0, sizeof(need));
	pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	cur = ULONG_MAX;
	nonzero = false;
	rq_for_each_segment(bv, rq, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			unsigned int n = min_t(unsigned int, bv.bv_len - done,
					       PAGE_SIZE - offset_in_page(pos));

			if (pos >> PAGE_SHIFT != cur) {
				if (cur != ULONG_MAX)
					hddsim_need_page(d, cur, nonzero, cached, &need);
				cur = pos >> PAGE_SHIFT;
				nonzero = false;
			}
			if (!nonzero) {
				buf = bvec_kmap_local(&bv);
				nonzero = memchr_inv(buf + done, 0, n);
				kunmap_local(buf);
			}
			done += n;
			pos += n;
		}
	}
	if (cur != ULONG_MAX)
		hddsim_need_page(d, cur, nonzero, cached, &need);
	media = atomic64_read(&d->mem_pages) + need.media;
	if (media + need.held > d->mem_limit_pages)
		return BLK_STS_NOSPC;
	if (media + d->ovl_pages + need.ovl <= d->mem_limit_pages)
		return BLK_STS_OK;
	if (!hddsim_clean(d))
		return BLK_STS_RESOURCE;
	hddsim_drop_overlay(d);
	goto again;
}

/* Copy one request's data; caller holds data_lock. */
static blk_status_t hddsim_copy(struct hddsim_dev *d, struct request *rq,
				bool cached)
{
	bool write = rq_data_dir(rq) == WRITE;
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;
	blk_status_t st;

	if (d->nodata) {
		if (!write)
			rq_for_each_segment(bv, rq, iter)
				memzero_bvec(&bv);
		return BLK_STS_OK;
	}
	if (write) {
		st = hddsim_space(d, rq, cached);
		if (st != BLK_STS_OK)
			return st;
	}
	rq_for_each_segment(bv, rq, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			unsigned int n = min_t(unsigned int, bv.bv_len - done,
					       PAGE_SIZE - offset_in_page(pos));

			st = hddsim_piece(d, &bv, done, pos, n, write, cached);
			if (st != BLK_STS_OK)
				return st;
			done += n;
			pos += n;
		}
	}
	return BLK_STS_OK;
}

/* Page span of sectors [sector, +nr). */
static void hddsim_span(u64 sector, u32 nr, pgoff_t *first, pgoff_t *last)
{
	*first = sector >> (PAGE_SHIFT - SECTOR_SHIFT);
	*last = (sector + max_t(u32, nr, 1) - 1) >> (PAGE_SHIFT - SECTOR_SHIFT);
}

/* Sets in @held the pages of [first, first + 64) that [sector, +nr) touches. */
static void hddsim_mark(u64 *held, pgoff_t first, u64 sector, u32 nr)
{
	pgoff_t a, b, i;

	if (!nr)
		return;
	hddsim_span(sector, nr, &a, &b);
	a = max(a, first);
	b = min(b, first + 63);
	for (i = a; i <= b && a <= b; i++)
		*held |= 1ULL << (i - first);
}

/*
 * Which of the pages [first, first + 64) still hold data the media lacks
 * (or will): touched by an extent the model holds, a write waiting for
 * the cache, or a destage the worker has yet to land.
 */
static u64 hddsim_held(struct hddsim_dev *d, pgoff_t first)
{
	u64 held = 0;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&d->lock, flags);
	for (i = 0; i < d->model.ndirty; i++)
		hddsim_mark(&held, first, d->model.dirty[i].cmd.sector,
			    d->model.dirty[i].cmd.nr);
	for (i = 0; i < d->npending; i++) {
		const struct hddsim_cmd *c = container_of(d->pending[i],
							  struct hddsim_cmd, cmd);

		if (c->cached)
			hddsim_mark(&held, first, c->cmd.sector, c->cmd.nr);
	}
	for (i = 0; i < d->nlanded; i++)
		if (d->landed[i].copy)
			hddsim_mark(&held, first, d->landed[i].sector,
				    d->landed[i].nr);
	spin_unlock_irqrestore(&d->lock, flags);
	return held;
}

/* Overlay pages of [sector, +nr) nothing holds any more go. */
static void hddsim_ovl_release(struct hddsim_dev *d, u64 sector, u32 nr)
{
	pgoff_t first, last, i;
	struct page *page;
	u64 held;

	hddsim_span(sector, nr, &first, &last);
	for (; first <= last; first += 64) {
		held = hddsim_held(d, first);
		for (i = first; i <= last && i < first + 64; i++) {
			if (held & (1ULL << (i - first)))
				continue;
			/* a page that could not land keeps the only copy */
			if (xa_get_mark(&d->ovl, i, HDDSIM_UNLANDED))
				continue;
			page = xa_erase(&d->ovl, i);
			if (page) {
				__free_page(page);
				d->ovl_pages--;
			}
		}
	}
}

/*
 * A destage of [sector, +nr) reached the media: so does its newest data.
 * The media page was made with the overlay's (hddsim_piece) and media
 * pages are never freed, so this allocates nothing and always lands.
 * Were one missing all the same (a bug: the WARN), the overlay page is
 * marked and kept by hddsim_ovl_release, but dropping the whole overlay
 * (cache drained or turned off) would still lose its data, and the FLUSH
 * it was part of has already completed.
 */
static void hddsim_land_copy(struct hddsim_dev *d, u64 sector, u32 nr)
{
	u64 end = sector + nr;

	while (sector < end) {
		pgoff_t idx = sector >> (PAGE_SHIFT - SECTOR_SHIFT);
		u64 next = min_t(u64, end, (u64)(idx + 1) << (PAGE_SHIFT - SECTOR_SHIFT));
		unsigned int off = offset_in_page(sector << SECTOR_SHIFT);
		unsigned int n = (next - sector) << SECTOR_SHIFT;
		struct page *ovl = xa_load(&d->ovl, idx);
		struct page *page = xa_load(&d->pages, idx);
		void *src;

		sector = next;
		if (!ovl)
			continue;	/* zeros where nothing was stored */
		if (WARN_ON_ONCE(!page)) {
			xa_set_mark(&d->ovl, idx, HDDSIM_UNLANDED);
			continue;
		}
		src = kmap_local_page(ovl);
		hddsim_to_page(page, off, src + off, n);
		kunmap_local(src);
	}
}

/*
 * Land what the mechanism wrote since the last call: destaged data to the
 * media, then free overlay pages nothing holds. Caller holds data_lock.
 */
static void hddsim_land(struct hddsim_dev *d)
{
	unsigned long flags;
	unsigned int n, i;

	spin_lock_irqsave(&d->lock, flags);
	n = d->nlanded;
	memcpy(d->batch, d->landed, n * sizeof(*d->landed));
	d->nlanded = 0;
	spin_unlock_irqrestore(&d->lock, flags);
	for (i = 0; i < n; i++)
		if (d->batch[i].copy)
			hddsim_land_copy(d, d->batch[i].sector, d->batch[i].nr);
	for (i = 0; i < n; i++)
		hddsim_ovl_release(d, d->batch[i].sector, d->batch[i].nr);
	wake_up_all(&d->clean_wq);
}

static void hddsim_land_work(struct work_struct *w)
{
	struct hddsim_dev *d = container_of(w, struct hddsim_dev, land_work);

	mutex_lock(&d->data_lock);
	hddsim_land(d);
	mutex_unlock(&d->data_lock);
}

/* Drops the whole overlay (a power cut; the end). Caller holds data_lock. */
static void hddsim_drop_overlay(struct hddsim_dev *d)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&d->ovl, idx, page) {
		xa_erase(&d->ovl, idx);
		__free_page(page);
	}
	d->ovl_pages = 0;
}

/* ---- timing: what sim/drive.c does, on real time ---- */

/* Commands the drive holds: queued, in the mechanism, absorbed but not done. */
static unsigned int hddsim_held_cmds(struct hddsim_dev *d)
{
	return d->npending + (d->active ? 1 : 0) + d->nabsorbed;
}

/* Anything at the drive: what busy_ns counts. */
static bool hddsim_busy(struct hddsim_dev *d)
{
	return hddsim_held_cmds(d) || d->flush_rq || !list_empty(&d->flushq);
}

/*
 * A FLUSH is not queued (libata drains the queue for it and holds the
 * rest back until it completes): no budget while one waits or runs.
 */
static void hddsim_flush_state(struct hddsim_dev *d)
{
	WRITE_ONCE(d->flushing, d->flush_rq || !list_empty(&d->flushq));
}

/* @c completes at ktime @due, after those due no later; caller locks. */
static void hddsim_done_add(struct hddsim_dev *d, struct hddsim_cmd *c, u64 due)
{
	struct hddsim_cmd *pos;

	c->due = due;
	list_for_each_entry_reverse(pos, &d->done, node)
		if (pos->due <= due)
			break;
	list_add(&c->node, &pos->node);
	if (d->done.next == &c->node)
		hrtimer_start(&d->done_timer, ns_to_ktime(due), HRTIMER_MODE_ABS);
}

/* Command @i leaves the drive's queue; the rest keep their (arrival) order. */
static void hddsim_take(struct hddsim_dev *d, unsigned int i)
{
	memmove(&d->pending[i], &d->pending[i + 1],
		(d->npending - i - 1) * sizeof(*d->pending));
	d->npending--;
}

/* The cache takes @c at model time @t, if it has room; caller locks. */
static bool hddsim_absorb(struct hddsim_dev *d, struct hddsim_cmd *c, u64 t)
{
	u64 done;

	if (!disk_absorb(&d->model, t, &c->cmd, &done))
		return false;
	c->absorbed = true;
	d->nabsorbed++;
	hddsim_done_add(d, c, d->t0 + done);
	return true;
}

/* Writes that waited for room in the cache, oldest first, while it has some. */
static void hddsim_absorb_waiting(struct hddsim_dev *d, u64 t)
{
	unsigned int i = 0;

	while (i < d->npending) {
		struct hddsim_cmd *c = container_of(d->pending[i],
						    struct hddsim_cmd, cmd);

		if (!disk_cacheable(&d->model, &c->cmd)) {
			i++;	/* the mechanism's, not the cache's */
			continue;
		}
		if (!hddsim_absorb(d, c, t))
			return;	/* no room: the younger wait too */
		hddsim_take(d, i);
	}
}

/* A FLUSH starts once the drive has drained: it waits for the cache. */
static void hddsim_flush_start(struct hddsim_dev *d, u64 t)
{
	struct hddsim_cmd *c;
	u64 done;

	if (list_empty(&d->flushq) || d->flush_rq || hddsim_held_cmds(d))
		return;
	c = list_first_entry(&d->flushq, struct hddsim_cmd, node);
	list_del_init(&c->node);
	d->flush_rq = c;
	if (disk_flush(&d->model, t, &done))
		hddsim_done_add(d, c, d->t0 + done);
	/* else hddsim_timer_fn completes it when the last destage lands */
}

/*
 * At ktime @now: writes waiting for room go to the cache, a FLUSH starts
 * once the drive has drained, and a free mechanism starts what
 * core/disk.c's disk_start picks (a command, or a destage). Caller locks.
 */
static void hddsim_kick(struct hddsim_dev *d, u64 now)
{
	u64 t = now - d->t0, done;
	struct hddsim_cmd *c;
	int i;

	if (d->cut)
		return;
	if (d->npending && d->model.p.write_cache)
		hddsim_absorb_waiting(d, t);
	hddsim_flush_start(d, t);
	if (d->active || d->destaging)
		return;
	if (!d->npending && !d->model.ndirty)
		return;
	i = disk_start(&d->model, max(t, disk_busy_until(&d->model)),
		       d->pending, d->npending, &done);
	if (i == DISK_IDLE)
		return;
	if (i == DISK_DESTAGE) {
		d->destaging = true;
	} else {
		c = container_of(d->pending[i], struct hddsim_cmd, cmd);
		/* the rest keep their order: disk_pick breaks ties by it */
		hddsim_take(d, i);
		if (d->slow_ppm && hddsim_rand(d) % 1000000 < d->slow_ppm) {
			done += (u64)d->slow_ms * NSEC_PER_MSEC;
			d->slowed++;
		}
		if (d->fail_ppm && hddsim_rand(d) % 1000000 < d->fail_ppm) {
			c->status = BLK_STS_IOERR;
			d->errors++;
		}
		d->active = c;
	}
	d->due = d->t0 + done;
	hrtimer_start(&d->timer, ns_to_ktime(d->due), HRTIMER_MODE_ABS);
}

/* ---- the drive's queue depth, as blk-mq dispatch budget ---- */

static int hddsim_get_budget(struct request_queue *q)
{
	struct hddsim_dev *d = q->queuedata;

	if (READ_ONCE(d->flushing))
		return -1;	/* its completion reruns the queue */
	if (atomic_inc_return(&d->busy) > READ_ONCE(d->depth)) {
		atomic_dec(&d->busy);
		return -1;
	}
	return 0;
}

static void hddsim_put_budget(struct request_queue *q, int budget)
{
	struct hddsim_dev *d = q->queuedata;

	if (budget >= 0)
		atomic_dec(&d->busy);
}

static void hddsim_set_budget(struct request *rq, int budget)
{
	((struct hddsim_cmd *)blk_mq_rq_to_pdu(rq))->budget = budget;
}

static int hddsim_rq_budget(struct request *rq)
{
	return ((struct hddsim_cmd *)blk_mq_rq_to_pdu(rq))->budget;
}

/*
 * A request that leaves the driver gives its budget back; blk-mq does not
 * for requests the driver took, and does not rerun a queue that ran out
 * of budget (the driver must, as SCSI does on completion).
 */
static void hddsim_release(struct hddsim_dev *d, int budget, bool rerun)
{
	if (budget < 0)
		return;
	atomic_dec(&d->busy);
	if (rerun)
		blk_mq_run_hw_queues(d->disk->queue, true);
}

static unsigned int hddsim_late_bucket(u64 us)
{
	unsigned int b;

	if (us < 4)
		return us;
	b = fls64(us) - 1;
	return min_t(unsigned int, (b - 1) * 4 + ((us >> (b - 2)) & 3),
		     HDDSIM_LATE_BUCKETS - 1);
}

/* The largest lateness, in us, that falls in bucket @i. */
static u64 hddsim_late_top(unsigned int i)
{
	unsigned int b = i / 4 + 1;

	if (i < 4)
		return i;
	return ((u64)(4 + i % 4 + 1) << (b - 2)) - 1;
}

/* caller holds the lock */
static void hddsim_late_add(struct hddsim_dev *d, u64 now, u64 due)
{
	u64 late = now > due ? now - due : 0;

	d->late[hddsim_late_bucket(div_u64(late, NSEC_PER_USEC))]++;
	d->late_n++;
	d->late_max_ns = max(d->late_max_ns, late);
}

/* The @pct percentile of the histogram, as its bucket's top; caller locks. */
static u64 hddsim_late_pct(struct hddsim_dev *d, unsigned int pct)
{
	u64 want = div_u64(d->late_n * pct + 99, 100), seen = 0;
	unsigned int i;

	for (i = 0; i < HDDSIM_LATE_BUCKETS; i++) {
		seen += d->late[i];
		if (seen >= want && seen)
			return hddsim_late_top(i);
	}
	return 0;
}

/* Give @c back to blk-mq with its status; no lock held. */
static void hddsim_end(struct hddsim_dev *d, struct hddsim_cmd *c)
{
	int budget = c->budget;
	unsigned long flags;

	c->budget = -1;
	if (c->requeue && c->status == BLK_STS_OK) {
		/*
		 * A retry (requeue_ppm), as SCSI's error handling makes one:
		 * the budget goes back first, then blk-mq takes the request
		 * back (through the scheduler's requeue hook), inserts it
		 * anew and runs the queue.
		 */
		spin_lock_irqsave(&d->lock, flags);
		d->requeues++;
		spin_unlock_irqrestore(&d->lock, flags);
		hddsim_release(d, budget, false);
		blk_mq_requeue_request(c->rq, true);
		return;
	}
	blk_mq_end_request(c->rq, c->status);
	hddsim_release(d, budget, true);
}

/* The mechanism finished a command or a destage. */
static enum hrtimer_restart hddsim_timer_fn(struct hrtimer *t)
{
	struct hddsim_dev *d = container_of(t, struct hddsim_dev, timer);
	struct hddsim_cmd *c = NULL, *fl = NULL;
	u64 now = ktime_get_ns();
	bool was, land = false;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	if (d->cut || (!d->active && !d->destaging))
		goto out;
	/*
	 * The worker lands what the media got, and has not caught up:
	 * this operation takes a while longer (a bound on d->landed).
	 */
	if (d->nlanded == HDDSIM_LANDED &&
	    (d->destaging || (d->active->cmd.write && d->model.p.write_cache))) {
		d->due = now + NSEC_PER_MSEC;
		hrtimer_start(&d->timer, ns_to_ktime(d->due), HRTIMER_MODE_ABS);
		goto out;
	}
	was = hddsim_busy(d);
	hddsim_late_add(d, now, d->due);
	if (d->destaging) {
		const struct disk_cmd *x = &d->model.dirty[d->model.destaging].cmd;

		d->landed[d->nlanded++] = (struct hddsim_land){
			.sector = x->sector, .nr = x->nr, .copy = true };
		land = true;
		d->destaging = false;
		disk_destage_done(&d->model);
		if (d->flush_rq && !disk_flush_pending(&d->model) &&
		    list_empty(&d->flush_rq->node)) {
			fl = d->flush_rq;
			d->flush_rq = NULL;
		}
	} else {
		c = d->active;
		d->active = NULL;
		/* a write to the media may leave overlay pages nobody holds */
		if (c->cmd.write && d->model.p.write_cache) {
			d->landed[d->nlanded++] = (struct hddsim_land){
				.sector = c->cmd.sector, .nr = c->cmd.nr };
			land = true;
		}
	}
	hddsim_kick(d, now);
	hddsim_flush_state(d);
	if (was && !hddsim_busy(d))
		d->busy_ns += now - d->busy_since;
out:
	spin_unlock_irqrestore(&d->lock, flags);
	if (land) {
		queue_work(system_wq, &d->land_work);
		wake_up_all(&d->clean_wq);
	}
	if (c)
		hddsim_end(d, c);
	if (fl)
		hddsim_end(d, fl);
	return HRTIMER_NORESTART;
}

/* Writes the cache took, and FLUSHes, reach their completion time. */
static enum hrtimer_restart hddsim_done_fn(struct hrtimer *t)
{
	struct hddsim_dev *d = container_of(t, struct hddsim_dev, done_timer);
	struct hddsim_cmd *c, *n;
	u64 now = ktime_get_ns();
	unsigned long flags;
	LIST_HEAD(ended);
	bool was;

	spin_lock_irqsave(&d->lock, flags);
	if (d->cut) {
		spin_unlock_irqrestore(&d->lock, flags);
		return HRTIMER_NORESTART;
	}
	was = hddsim_busy(d);
	list_for_each_entry_safe(c, n, &d->done, node) {
		if (c->due > now)
			break;
		hddsim_late_add(d, now, c->due);
		list_move_tail(&c->node, &ended);
		if (c->absorbed)
			d->nabsorbed--;
		if (c == d->flush_rq)
			d->flush_rq = NULL;
	}
	hddsim_kick(d, now);
	hddsim_flush_state(d);
	if (!list_empty(&d->done))
		hrtimer_start(&d->done_timer,
			      ns_to_ktime(list_first_entry(&d->done, struct hddsim_cmd,
							   node)->due),
			      HRTIMER_MODE_ABS);
	if (was && !hddsim_busy(d))
		d->busy_ns += now - d->busy_since;
	spin_unlock_irqrestore(&d->lock, flags);
	list_for_each_entry_safe(c, n, &ended, node) {
		list_del_init(&c->node);
		hddsim_end(d, c);
	}
	return HRTIMER_NORESTART;
}

static blk_status_t hddsim_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct hddsim_dev *d = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct hddsim_cmd *c = blk_mq_rq_to_pdu(rq);
	blk_status_t st = BLK_STS_OK;
	unsigned long flags;
	u64 now;

	blk_mq_start_request(rq);
	INIT_LIST_HEAD(&c->node);
	c->rq = rq;
	c->status = BLK_STS_OK;
	c->flush = false;
	c->cached = false;
	c->absorbed = false;
	c->requeue = false;
	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		c->flush = true;
		break;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		hddsim_release(d, c->budget, false);
		c->budget = -1;
		return BLK_STS_NOTSUPP;
	}
	c->cmd = (struct disk_cmd){
		.sector = blk_rq_pos(rq),
		.nr = blk_rq_sectors(rq),
		.write = !c->flush && rq_data_dir(rq) == WRITE,
		.fua = !!(rq->cmd_flags & REQ_FUA),
	};
	/* a power cut or a write-cache switch sees a request whole, or not */
	mutex_lock(&d->data_lock);
	if (c->cmd.write) {
		spin_lock_irqsave(&d->lock, flags);
		c->cached = !d->nodata && disk_cacheable(&d->model, &c->cmd);
		spin_unlock_irqrestore(&d->lock, flags);
	}
	if (!c->flush)
		st = hddsim_copy(d, rq, c->cached);
	if (st != BLK_STS_OK) {
		/*
		 * A write that fails for good (past mem_mb): overlay pages
		 * it made (or found) that no held write needs go, as they
		 * hold the media's data or this failed write's. One blk-mq
		 * sends again keeps them, so that its next try gets further.
		 */
		if (c->cached && st == BLK_STS_NOSPC)
			hddsim_ovl_release(d, c->cmd.sector, c->cmd.nr);
		if (st == BLK_STS_RESOURCE)
			d->alloc_failures++;
		mutex_unlock(&d->data_lock);
		if (st == BLK_STS_NOSPC) {
			spin_lock_irqsave(&d->lock, flags);
			d->nomem++;
			spin_unlock_irqrestore(&d->lock, flags);
			pr_warn_ratelimited("hddsim%d: data memory (mem_mb) is full\n",
					    d->id);
		}
		/*
		 * blk-mq leaves a request's budget to the driver once
		 * queue_rq has it, also for BLK_STS_RESOURCE (it then sends
		 * the request again, with a budget got anew).
		 */
		hddsim_release(d, c->budget, false);
		c->budget = -1;
		return st;
	}
	now = ktime_get_ns();
	spin_lock_irqsave(&d->lock, flags);
	/* each command holds a tag, and the queue has room for every tag */
	if (WARN_ON_ONCE(d->npending >= d->set.queue_depth)) {
		spin_unlock_irqrestore(&d->lock, flags);
		mutex_unlock(&d->data_lock);
		hddsim_release(d, c->budget, false);
		c->budget = -1;
		return BLK_STS_RESOURCE;
	}
	if (!c->flush && d->requeue_ppm &&
	    hddsim_rand(d) % 1000000 < d->requeue_ppm) {
		c->requeue = true;
		/*
		 * Every other one prepared, as SCSI's commands are: blk-mq
		 * then puts it back on the dispatch list, around the
		 * scheduler; the others go back through the scheduler's
		 * insert where this kernel does so.
		 */
		if (d->requeue_n++ & 1)
			rq->rq_flags |= RQF_DONTPREP;
	}
	if (!hddsim_busy(d))
		d->busy_since = now;
	c->cmd.arrival = now - d->t0;
	if (c->flush) {
		d->flushes++;
		list_add_tail(&c->node, &d->flushq);
		hddsim_kick(d, now);
	} else {
		if (c->cmd.write)
			d->writes++;
		else
			d->reads++;
		if (c->cmd.write && c->cmd.fua)
			d->fua++;
		/* as sim/drive.c: the cache takes it, or the drive queues it */
		if (!c->cmd.write || !d->model.p.write_cache ||
		    !hddsim_absorb(d, c, c->cmd.arrival)) {
			d->pending[d->npending++] = &c->cmd;
			hddsim_kick(d, now);
		}
	}
	hddsim_flush_state(d);
	spin_unlock_irqrestore(&d->lock, flags);
	mutex_unlock(&d->data_lock);
	return BLK_STS_OK;
}

static const struct blk_mq_ops hddsim_mq_ops = {
	.queue_rq = hddsim_queue_rq,
	.get_budget = hddsim_get_budget,
	.put_budget = hddsim_put_budget,
	.set_rq_budget_token = hddsim_set_budget,
	.get_rq_budget_token = hddsim_rq_budget,
};

static const struct block_device_operations hddsim_fops = {
	.owner = THIS_MODULE,
};

/* ---- sysfs: /sys/block/hddsimN/hddsim/ ---- */

static struct hddsim_dev *dev_to_hddsim(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

#define HDDSIM_STAT(name, expr)						\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct hddsim_dev *d = dev_to_hddsim(dev);			\
	unsigned long flags;						\
	u64 v;								\
									\
	spin_lock_irqsave(&d->lock, flags);				\
	v = (expr);							\
	spin_unlock_irqrestore(&d->lock, flags);			\
	return sysfs_emit(buf, "%llu\n", v);				\
}									\
static DEVICE_ATTR_RO(name)

HDDSIM_STAT(requests, d->model.st.requests);
HDDSIM_STAT(reads, d->reads);
HDDSIM_STAT(writes, d->writes);
HDDSIM_STAT(flushes, d->flushes);
HDDSIM_STAT(sectors, d->model.st.sectors);
HDDSIM_STAT(cache_hits, d->model.st.cache_hits);
HDDSIM_STAT(seeks, d->model.st.seeks);
HDDSIM_STAT(seek_sectors, d->model.st.seek_sectors);
HDDSIM_STAT(mean_seek_sectors, d->model.st.seeks ?
	    div64_u64(d->model.st.seek_sectors, d->model.st.seeks) : 0);
HDDSIM_STAT(seek_ns, d->model.st.seek_ns);
HDDSIM_STAT(rotate_ns, d->model.st.rotate_ns);
HDDSIM_STAT(transfer_ns, d->model.st.transfer_ns);
HDDSIM_STAT(busy_ns, d->busy_ns + (hddsim_busy(d) ?
				   ktime_get_ns() - d->busy_since : 0));
HDDSIM_STAT(errors, d->errors);
HDDSIM_STAT(slowed, d->slowed);
HDDSIM_STAT(nomem, d->nomem);
HDDSIM_STAT(mem_pages, atomic64_read(&d->mem_pages));
HDDSIM_STAT(fua, d->fua);
HDDSIM_STAT(dirty_sectors, d->model.dirty_sectors);
HDDSIM_STAT(destages, d->model.st.destages);
HDDSIM_STAT(power_cuts, d->power_cuts);
HDDSIM_STAT(lost_sectors, d->lost_sectors);
HDDSIM_STAT(requeues, d->requeues);

static ssize_t overlay_pages_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	u64 v;

	mutex_lock(&d->data_lock);
	v = d->ovl_pages;
	mutex_unlock(&d->data_lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(overlay_pages);

static ssize_t alloc_failures_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	u64 v;

	mutex_lock(&d->data_lock);
	v = d->alloc_failures;
	mutex_unlock(&d->data_lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(alloc_failures);

/*
 * The drive loses power (write 1): what its cache had not destaged is
 * lost, the overlay with it, and every command it held (queued, in the
 * mechanism, taken by the cache but not yet acknowledged, a FLUSH) ends
 * with an I/O error, as the host sees a drive that dropped off the link.
 * Power comes back at once: the next command finds the drive working,
 * its cache empty and on as before.
 */
static ssize_t power_cut_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	struct hddsim_cmd *c, *n;
	unsigned long flags;
	LIST_HEAD(failed);
	unsigned int i;
	unsigned int v;
	u64 now;

	if (kstrtouint(buf, 10, &v) || v != 1)
		return -EINVAL;
	/* no request is being copied or queued meanwhile */
	mutex_lock(&d->data_lock);
	spin_lock_irqsave(&d->lock, flags);
	d->cut = true;
	spin_unlock_irqrestore(&d->lock, flags);
	/* from here the timers start nothing; these wait for a running one */
	hrtimer_cancel(&d->timer);
	hrtimer_cancel(&d->done_timer);
	/* what reached the media stays there */
	hddsim_land(d);
	now = ktime_get_ns();
	spin_lock_irqsave(&d->lock, flags);
	if (hddsim_busy(d))
		d->busy_ns += now - d->busy_since;
	for (i = 0; i < d->npending; i++)
		list_add_tail(&container_of(d->pending[i], struct hddsim_cmd,
					    cmd)->node, &failed);
	d->npending = 0;
	if (d->active)
		list_add_tail(&d->active->node, &failed);
	d->active = NULL;
	d->destaging = false;
	list_splice_tail_init(&d->done, &failed);
	list_splice_tail_init(&d->flushq, &failed);
	if (d->flush_rq && list_empty(&d->flush_rq->node))
		list_add_tail(&d->flush_rq->node, &failed);
	d->flush_rq = NULL;
	d->nabsorbed = 0;
	d->lost_sectors += d->model.dirty_sectors;
	d->power_cuts++;
	disk_power_cut(&d->model, now - d->t0);
	hddsim_flush_state(d);
	d->cut = false;
	spin_unlock_irqrestore(&d->lock, flags);
	hddsim_drop_overlay(d);
	mutex_unlock(&d->data_lock);
	list_for_each_entry_safe(c, n, &failed, node) {
		list_del_init(&c->node);
		c->status = BLK_STS_IOERR;
		hddsim_end(d, c);
	}
	blk_mq_run_hw_queues(d->disk->queue, true);
	return count;
}
static DEVICE_ATTR_WO(power_cut);

/* The cache holds nothing, and no write waits for it. */
static bool hddsim_clean(struct hddsim_dev *d)
{
	unsigned long flags;
	unsigned int i;
	bool clean;

	spin_lock_irqsave(&d->lock, flags);
	clean = !d->model.ndirty && !disk_flush_pending(&d->model) &&
		!d->nlanded;
	for (i = 0; i < d->npending && clean; i++)
		clean = !container_of(d->pending[i], struct hddsim_cmd,
				      cmd)->cached;
	spin_unlock_irqrestore(&d->lock, flags);
	return clean;
}

/*
 * hdparm -W: turn the cache on or off. Off first makes everything in it
 * durable (new requests wait meanwhile; a signal gives up, -EINTR, and
 * the cache stays on). The block layer is told too, so that
 * /sys/block/X/queue/write_cache follows and it sends FLUSH and FUA only
 * to a drive with a cache: told before the drive starts caching, after
 * it stops. Turning it on, the model is asked first (on a copy of its
 * parameters: its answer for "on" depends on them alone), so that a
 * refusal leaves the block layer as it was.
 */
static int hddsim_switch_cache(struct hddsim_dev *d, bool on)
{
	struct disk_model *probe;
	unsigned long flags;
	bool ok;
	int ret;

	if (on) {
		probe = kzalloc(sizeof(*probe), GFP_KERNEL);
		if (!probe)
			return -ENOMEM;
		spin_lock_irqsave(&d->lock, flags);
		probe->p = d->model.p;
		spin_unlock_irqrestore(&d->lock, flags);
		ok = disk_set_write_cache(probe, true);
		kfree(probe);
		if (!ok)
			return -EINVAL;
		ret = kc_set_write_cache(d->disk->queue, true);
		if (ret)
			return ret;
		mutex_lock(&d->data_lock);
		spin_lock_irqsave(&d->lock, flags);
		ok = disk_set_write_cache(&d->model, true);
		spin_unlock_irqrestore(&d->lock, flags);
		mutex_unlock(&d->data_lock);
		if (ok)
			return 0;
		/* cannot happen (the probe said yes): undo what the block layer was told */
		kc_set_write_cache(d->disk->queue, false);
		return -EINVAL;
	}
	mutex_lock(&d->data_lock);
	for (;;) {
		/* we hold data_lock: the worker cannot land, so we do */
		hddsim_land(d);
		if (hddsim_clean(d))
			break;
		if (wait_event_interruptible_timeout(d->clean_wq,
				hddsim_clean(d) || READ_ONCE(d->nlanded),
				HZ / 10) < 0) {
			mutex_unlock(&d->data_lock);
			return -EINTR;
		}
	}
	spin_lock_irqsave(&d->lock, flags);
	ok = disk_set_write_cache(&d->model, false);
	spin_unlock_irqrestore(&d->lock, flags);
	/* what is left of the overlay is the media's data: nothing holds it */
	if (ok)
		hddsim_drop_overlay(d);
	mutex_unlock(&d->data_lock);
	if (!ok)
		return -EBUSY;
	return kc_set_write_cache(d->disk->queue, false);
}

static ssize_t write_cache_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(dev_to_hddsim(dev)->model.p.write_cache));
}

/* 1 or 0: hddsim_switch_cache; anything else is refused. */
static ssize_t write_cache_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	unsigned int v;
	int ret;

	if (kstrtouint(buf, 10, &v) || v > 1)
		return -EINVAL;
	mutex_lock(&d->wc_lock);
	ret = hddsim_switch_cache(d, v);
	mutex_unlock(&d->wc_lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(write_cache);

#define HDDSIM_KNOB(name, max)						\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%u\n", READ_ONCE(dev_to_hddsim(dev)->name)); \
}									\
static ssize_t name##_store(struct device *dev,				\
			    struct device_attribute *attr,		\
			    const char *buf, size_t count)		\
{									\
	struct hddsim_dev *d = dev_to_hddsim(dev);			\
	unsigned long flags;						\
	unsigned int v;							\
									\
	if (kstrtouint(buf, 10, &v) || v > (max))			\
		return -EINVAL;						\
	spin_lock_irqsave(&d->lock, flags);				\
	d->name = v;							\
	spin_unlock_irqrestore(&d->lock, flags);			\
	return count;							\
}									\
static DEVICE_ATTR_RW(name)

static ssize_t queue_depth_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(dev_to_hddsim(dev)->depth));
}

static ssize_t queue_depth_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v < 1 || v > d->set.queue_depth)
		return -EINVAL;
	WRITE_ONCE(d->depth, v);
	/* a deeper drive can take more now: let blk-mq offer it */
	blk_mq_run_hw_queues(d->disk->queue, true);
	return count;
}
static DEVICE_ATTR_RW(queue_depth);

/*
 * "p50 P p99 P max M n N", microseconds late against the model (p50 and
 * p99 to within a quarter of a power of two, capped at the max, which is
 * exact); writing 0 starts afresh.
 */
static ssize_t lateness_us_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	u64 p50, p99, max, n;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	p50 = hddsim_late_pct(d, 50);
	p99 = hddsim_late_pct(d, 99);
	max = div_u64(d->late_max_ns, NSEC_PER_USEC);
	n = d->late_n;
	spin_unlock_irqrestore(&d->lock, flags);
	/* a bucket's top may lie past the worst seen: never print p99 > max */
	p50 = min(p50, max);
	p99 = min(p99, max);
	return sysfs_emit(buf, "p50 %llu p99 %llu max %llu n %llu\n",
			  p50, p99, max, n);
}

static ssize_t lateness_us_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct hddsim_dev *d = dev_to_hddsim(dev);
	unsigned long flags;
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v)
		return -EINVAL;
	spin_lock_irqsave(&d->lock, flags);
	memset(d->late, 0, sizeof(d->late));
	d->late_n = 0;
	d->late_max_ns = 0;
	spin_unlock_irqrestore(&d->lock, flags);
	return count;
}
static DEVICE_ATTR_RW(lateness_us);

/* fault injection: writable at run time */
HDDSIM_KNOB(fail_ppm, 1000000);
HDDSIM_KNOB(slow_ppm, 1000000);
HDDSIM_KNOB(slow_ms, 10000);
HDDSIM_KNOB(requeue_ppm, 1000000);
HDDSIM_KNOB(fail_alloc_ppm, 1000000);

static struct attribute *hddsim_attrs[] = {
	&dev_attr_requests.attr, &dev_attr_reads.attr, &dev_attr_writes.attr,
	&dev_attr_flushes.attr, &dev_attr_sectors.attr,
	&dev_attr_cache_hits.attr, &dev_attr_seeks.attr,
	&dev_attr_seek_sectors.attr, &dev_attr_mean_seek_sectors.attr,
	&dev_attr_seek_ns.attr, &dev_attr_rotate_ns.attr,
	&dev_attr_transfer_ns.attr, &dev_attr_busy_ns.attr,
	&dev_attr_errors.attr, &dev_attr_slowed.attr, &dev_attr_nomem.attr,
	&dev_attr_mem_pages.attr, &dev_attr_fail_ppm.attr,
	&dev_attr_slow_ppm.attr, &dev_attr_slow_ms.attr,
	&dev_attr_queue_depth.attr, &dev_attr_lateness_us.attr,
	&dev_attr_fua.attr, &dev_attr_dirty_sectors.attr,
	&dev_attr_destages.attr, &dev_attr_power_cuts.attr,
	&dev_attr_lost_sectors.attr, &dev_attr_overlay_pages.attr,
	&dev_attr_power_cut.attr, &dev_attr_write_cache.attr,
	&dev_attr_requeues.attr, &dev_attr_requeue_ppm.attr,
	&dev_attr_alloc_failures.attr, &dev_attr_fail_alloc_ppm.attr,
	NULL,
};

static const struct attribute_group hddsim_group = {
	.name = "hddsim",
	.attrs = hddsim_attrs,
};

static const struct attribute_group *hddsim_groups[] = {
	&hddsim_group,
	NULL,
};

/* ---- setup ---- */

/* the largest capacity: 1 PiB, far inside what i_size and the model hold */
#define HDDSIM_MAX_BYTES (1ULL << 50)

/*
 * Digits with an optional k, m, g or t (either case), into *@bytes;
 * -EINVAL for anything else, and for a value that does not fit in 64 bits
 * (memparse would wrap it).
 */
static int hddsim_parse_size(const char *s, u64 *bytes)
{
	size_t n = strspn(s, "0123456789");
	unsigned int shift = 0;
	char num[21];
	u64 v;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	if (kstrtou64(num, 10, &v))
		return -EINVAL;
	switch (s[n]) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	if (s[n] && s[n + 1])
		return -EINVAL;
	if (v > U64_MAX >> shift)
		return -EINVAL;
	*bytes = v << shift;
	return 0;
}

static int hddsim_params(int i, struct disk_params *p, u32 *depth,
			 u32 *max_kb)
{
	const struct disk_preset *pr = &disk_presets[0];

	if (nr_profile > 0) {
		const char *name = profile[i < nr_profile ? i : nr_profile - 1];

		pr = disk_preset_find(name);
		if (!pr) {
			pr_err("hddsim%d: profile: no drive named '%s' in core/disk.c\n",
			       i, name);
			return -EINVAL;
		}
	}
	*p = pr->p;
	*max_kb = param(max_sectors_kb, nr_max_sectors_kb, i, pr->max_sectors_kb);
	if (nr_capacity > 0) {
		u64 bytes;

		if (hddsim_parse_size(capacity[i < nr_capacity ? i : nr_capacity - 1],
				      &bytes) || bytes < SZ_1M || bytes > HDDSIM_MAX_BYTES) {
			pr_err("hddsim%d: capacity: want a size from 1m to 1024t\n", i);
			return -EINVAL;
		}
		p->capacity = bytes >> SECTOR_SHIFT;
	}
#define P(f) (p->f = param(f, nr_##f, i, p->f))
	P(rpm); P(heads); P(zones); P(outer_mbps); P(inner_mbps);
	P(track_to_track_us); P(avg_seek_us); P(full_stroke_us);
	P(overhead_us); P(cache_segments); P(segment_kb); P(iface_mbps);
	P(queue_depth); P(ncq_age_ms); P(ncq_age_weight);
	P(write_cache); P(cache_mb);
#undef P
	*depth = p->queue_depth;
	return 0;
}

static void hddsim_free_pages(struct hddsim_dev *d)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&d->pages, idx, page)
		__free_page(page);
	xa_destroy(&d->pages);
}

static int hddsim_add(int i)
{
	struct disk_params p;
	struct hddsim_dev *d;
	const char *why = "?";
	u64 mem_bytes;
	u32 depth, max_kb;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->id = i;
	ret = hddsim_params(i, &p, &depth, &max_kb);
	if (ret)
		goto free_dev;
	if (disk_init(&d->model, &p, &why)) {
		pr_err("hddsim%d: bad disk parameter: %s\n", i, why);
		ret = -EINVAL;
		goto free_dev;
	}
	d->nodata = param(nodata, nr_nodata, i, 0);
	mem_bytes = (u64)param(mem_mb, nr_mem_mb, i, 256) << 20;
	if (!d->nodata && mem_bytes > ((u64)totalram_pages() << PAGE_SHIFT) / 2) {
		pr_err("hddsim%d: mem_mb=%llu is more than half of this machine's RAM; lower it or use nodata=1\n",
		       i, mem_bytes >> 20);
		ret = -ENOMEM;
		goto free_dev;
	}
	d->mem_limit_pages = mem_bytes >> PAGE_SHIFT;
	d->depth = depth;
	d->rng = 0x9e3779b9u ^ i;
	d->alloc_rng = 0x85ebca6bu ^ i;
	spin_lock_init(&d->lock);
	xa_init(&d->pages);
	xa_init(&d->ovl);
	mutex_init(&d->data_lock);
	mutex_init(&d->wc_lock);
	INIT_LIST_HEAD(&d->done);
	INIT_LIST_HEAD(&d->flushq);
	INIT_WORK(&d->land_work, hddsim_land_work);
	init_waitqueue_head(&d->clean_wq);
	kc_hrtimer_setup(&d->timer, hddsim_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	kc_hrtimer_setup(&d->done_timer, hddsim_done_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS);
	d->t0 = ktime_get_ns();

	d->set.ops = &hddsim_mq_ops;
	d->set.nr_hw_queues = 1;
	d->set.queue_depth = max_t(u32, depth, HDDSIM_TAGS);
	d->set.numa_node = NUMA_NO_NODE;
	d->set.cmd_size = sizeof(struct hddsim_cmd);
	d->set.flags = KC_BLK_MQ_F_MERGE | BLK_MQ_F_BLOCKING;
	d->pending = kcalloc(d->set.queue_depth, sizeof(*d->pending), GFP_KERNEL);
	if (!d->pending) {
		ret = -ENOMEM;
		goto free_dev;
	}
	ret = blk_mq_alloc_tag_set(&d->set);
	if (ret)
		goto free_dev;
	d->disk = hddsim_alloc_disk(&d->set, d, max_kb * 2,
				    d->model.p.write_cache);
	if (IS_ERR(d->disk)) {
		ret = PTR_ERR(d->disk);
		goto free_set;
	}
	d->disk->major = hddsim_major;
	d->disk->first_minor = i;
	d->disk->minors = 1;
	d->disk->fops = &hddsim_fops;
	d->disk->private_data = d;
	snprintf(d->disk->disk_name, sizeof(d->disk->disk_name), "hddsim%d", i);
	set_capacity(d->disk, p.capacity);
	ret = device_add_disk(NULL, d->disk, hddsim_groups);
	if (ret)
		goto put_disk;
	devices[i] = d;
	pr_info("hddsim%d: %llu MB, %u rpm, queue depth %u, %s, %s\n", i,
		p.capacity >> 11, p.rpm, depth,
		d->nodata ? "no data" : "RAM-backed",
		p.write_cache ? "write cache on" : "write-through");
	return 0;

put_disk:
	put_disk(d->disk);
free_set:
	blk_mq_free_tag_set(&d->set);
free_dev:
	kfree(d->pending);
	kfree(d);
	return ret;
}

static void hddsim_del(struct hddsim_dev *d)
{
	unsigned long flags;

	del_gendisk(d->disk);
	/* the drive may still be destaging: it powers off */
	spin_lock_irqsave(&d->lock, flags);
	d->cut = true;
	spin_unlock_irqrestore(&d->lock, flags);
	hrtimer_cancel(&d->timer);
	hrtimer_cancel(&d->done_timer);
	cancel_work_sync(&d->land_work);
	mutex_lock(&d->data_lock);
	hddsim_drop_overlay(d);
	mutex_unlock(&d->data_lock);
	xa_destroy(&d->ovl);
	put_disk(d->disk);
	blk_mq_free_tag_set(&d->set);
	hddsim_free_pages(d);
	kfree(d->pending);
	kfree(d);
}

static int __init hddsim_init(void)
{
	unsigned int i;
	int ret;

	if (!nr_devices || nr_devices > HDDSIM_MAX_DEVICES) {
		pr_err("hddsim: nr_devices must be 1..%d\n", HDDSIM_MAX_DEVICES);
		return -EINVAL;
	}
	hddsim_major = register_blkdev(0, "hddsim");
	if (hddsim_major < 0)
		return hddsim_major;
	for (i = 0; i < nr_devices; i++) {
		ret = hddsim_add(i);
		if (ret)
			goto undo;
	}
	return 0;
undo:
	while (i--)
		hddsim_del(devices[i]);
	unregister_blkdev(hddsim_major, "hddsim");
	return ret;
}

static void __exit hddsim_exit(void)
{
	unsigned int i;

	for (i = 0; i < nr_devices; i++)
		if (devices[i])
			hddsim_del(devices[i]);
	unregister_blkdev(hddsim_major, "hddsim");
}

module_init(hddsim_init);
module_exit(hddsim_exit);

MODULE_AUTHOR("antic developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Emulated rotating disk timed by antic's disk model");
