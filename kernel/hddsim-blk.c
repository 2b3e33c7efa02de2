// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim.c - an emulated rotating disk. A blk-mq driver whose completions
 * are timed by core/disk.c (seek, rotation, zones, read cache), so that
 * every Linux I/O scheduler can be measured on "a hard disk" in a VM.
 * Data lives in RAM, allocated on first write, up to mem_mb per device;
 * nodata=1 keeps none (reads return zeros) for large capacities.
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

/* lateness histogram: 4 buckets per power of two of microseconds */
#define HDDSIM_LATE_BUCKETS 96

struct hddsim_cmd {
	int budget;
	struct request *rq;
	struct disk_cmd cmd;	/* what the drive sees of it */
	blk_status_t status;
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
	struct hrtimer timer;
	u64 due;		/* ktime the model says active completes */
	/*
	 * How late completions fire against the model's schedule, in us:
	 * the limit of what hddsim can show (an hrtimer under TCG fires late).
	 */
	u32 late[HDDSIM_LATE_BUCKETS];
	u64 late_n, late_max_ns;
	u32 depth;		/* budget: commands the drive accepts */
	atomic_t busy;		/* budget in use */
	bool nodata;
	u64 mem_limit_pages;
	atomic64_t mem_pages;
	struct xarray pages;	/* page index -> struct page */
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	/* counters beyond the model's own */
	u64 reads, writes, flushes, errors, slowed, busy_ns, busy_since;
	u64 nomem;
	/* fault injection, parts per million of requests */
	u32 fail_ppm, slow_ppm, slow_ms;
	u32 rng;
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

static struct page *hddsim_page(struct hddsim_dev *d, pgoff_t idx, bool alloc)
{
	struct page *page = xa_load(&d->pages, idx), *old;

	if (page || !alloc)
		return page;
	if (atomic64_read(&d->mem_pages) >= d->mem_limit_pages)
		return NULL;
	page = alloc_page(GFP_NOIO | __GFP_ZERO | __GFP_NOWARN);
	if (!page)
		return NULL;
	old = xa_cmpxchg(&d->pages, idx, NULL, page, GFP_NOIO);
	if (old) {
		__free_page(page);
		return xa_is_err(old) ? NULL : old;
	}
	atomic64_inc(&d->mem_pages);
	return page;
}

/* Copy one request's data; queue_rq may sleep (BLK_MQ_F_BLOCKING). */
static blk_status_t hddsim_copy(struct hddsim_dev *d, struct request *rq)
{
	bool write = rq_data_dir(rq) == WRITE;
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;

	if (d->nodata) {
		if (!write)
			rq_for_each_segment(bv, rq, iter)
				memzero_bvec(&bv);
		return BLK_STS_OK;
	}
	rq_for_each_segment(bv, rq, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			unsigned int off = offset_in_page(pos);
			unsigned int n = min_t(unsigned int, bv.bv_len - done,
					       PAGE_SIZE - off);
			struct page *page = hddsim_page(d, pos >> PAGE_SHIFT, false);
			void *dst, *src;

			if (write) {
				src = bvec_kmap_local(&bv);
				/* zeros need no page: mkfs's zeroing costs no RAM */
				if (!page && !memchr_inv(src + done, 0, n)) {
					kunmap_local(src);
					done += n;
					pos += n;
					continue;
				}
				if (!page) {
					/* allocation may sleep: not while mapped */
					kunmap_local(src);
					page = hddsim_page(d, pos >> PAGE_SHIFT, true);
					if (!page)
						return BLK_STS_NOSPC;
					src = bvec_kmap_local(&bv);
				}
				dst = kmap_local_page(page);
				memcpy(dst + off, src + done, n);
				kunmap_local(dst);
				kunmap_local(src);
			} else {
				dst = bvec_kmap_local(&bv);
				if (page) {
					src = kmap_local_page(page);
					memcpy(dst + done, src + off, n);
					kunmap_local(src);
				} else {
					memset(dst + done, 0, n);
				}
				kunmap_local(dst);
			}
			done += n;
			pos += n;
		}
	}
	return BLK_STS_OK;
}

/* ---- timing ---- */

/*
 * Put the command the drive picks (core/disk.c: disk_pick) into the
 * mechanism; caller holds the lock.
 */
static void hddsim_start_next(struct hddsim_dev *d, u64 now)
{
	struct hddsim_cmd *best;
	unsigned int k;
	u64 start, done;

	if (d->active || !d->npending)
		return;
	start = max(now - d->t0, disk_busy_until(&d->model));
	k = disk_pick(&d->model, start, d->pending, d->npending);
	best = container_of(d->pending[k], struct hddsim_cmd, cmd);
	/* the rest keep their order: disk_pick breaks ties by it */
	memmove(&d->pending[k], &d->pending[k + 1],
		(d->npending - k - 1) * sizeof(*d->pending));
	d->npending--;
	done = disk_service(&d->model, start, best->cmd.sector, best->cmd.nr,
			    best->cmd.write);
	if (d->slow_ppm && hddsim_rand(d) % 1000000 < d->slow_ppm) {
		done += (u64)d->slow_ms * NSEC_PER_MSEC;
		d->slowed++;
	}
	if (d->fail_ppm && hddsim_rand(d) % 1000000 < d->fail_ppm) {
		best->status = BLK_STS_IOERR;
		d->errors++;
	}
	d->active = best;
	d->due = d->t0 + done;
	hrtimer_start(&d->timer, ns_to_ktime(d->due), HRTIMER_MODE_ABS);
}

/* ---- the drive's queue depth, as blk-mq dispatch budget ---- */

static int hddsim_get_budget(struct request_queue *q)
{
	struct hddsim_dev *d = q->queuedata;

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
static void hddsim_late_add(struct hddsim_dev *d, u64 now)
{
	u64 late = now > d->due ? now - d->due : 0;

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

static enum hrtimer_restart hddsim_timer_fn(struct hrtimer *t)
{
	struct hddsim_dev *d = container_of(t, struct hddsim_dev, timer);
	u64 now = ktime_get_ns();
	struct hddsim_cmd *c;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	c = d->active;
	if (c)
		hddsim_late_add(d, now);
	d->active = NULL;
	hddsim_start_next(d, now);
	if (!d->active && !d->npending)
		d->busy_ns += now - d->busy_since;
	spin_unlock_irqrestore(&d->lock, flags);
	if (c) {
		int budget = c->budget;

		c->budget = -1;
		blk_mq_end_request(c->rq, c->status);
		hddsim_release(d, budget, true);
	}
	return HRTIMER_NORESTART;
}

static blk_status_t hddsim_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct hddsim_dev *d = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct hddsim_cmd *c = blk_mq_rq_to_pdu(rq);
	unsigned long flags;
	blk_status_t st;
	u64 now;

	blk_mq_start_request(rq);
	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		/* write-through: nothing is cached for writing */
		spin_lock_irqsave(&d->lock, flags);
		d->flushes++;
		spin_unlock_irqrestore(&d->lock, flags);
		hddsim_release(d, c->budget, false);
		c->budget = -1;
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		hddsim_release(d, c->budget, false);
		c->budget = -1;
		return BLK_STS_NOTSUPP;
	}
	st = hddsim_copy(d, rq);
	if (st != BLK_STS_OK) {
		spin_lock_irqsave(&d->lock, flags);
		d->nomem++;
		spin_unlock_irqrestore(&d->lock, flags);
		pr_warn_ratelimited("hddsim%d: data memory (mem_mb) is full\n", d->id);
		hddsim_release(d, c->budget, false);
		c->budget = -1;
		return st;
	}
	c->rq = rq;
	c->cmd.sector = blk_rq_pos(rq);
	c->cmd.nr = blk_rq_sectors(rq);
	c->cmd.write = rq_data_dir(rq) == WRITE;
	c->status = BLK_STS_OK;
	now = ktime_get_ns();
	spin_lock_irqsave(&d->lock, flags);
	/* each command holds a tag, and the queue has room for every tag */
	if (WARN_ON_ONCE(d->npending >= d->set.queue_depth)) {
		spin_unlock_irqrestore(&d->lock, flags);
		return BLK_STS_RESOURCE;
	}
	if (c->cmd.write)
		d->writes++;
	else
		d->reads++;
	if (!d->active && !d->npending)
		d->busy_since = now;
	c->cmd.arrival = now - d->t0;
	d->pending[d->npending++] = &c->cmd;
	hddsim_start_next(d, now);
	spin_unlock_irqrestore(&d->lock, flags);
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
HDDSIM_STAT(busy_ns, d->busy_ns + ((d->active || d->npending) ?
				   ktime_get_ns() - d->busy_since : 0));
HDDSIM_STAT(errors, d->errors);
HDDSIM_STAT(slowed, d->slowed);
HDDSIM_STAT(nomem, d->nomem);
HDDSIM_STAT(mem_pages, atomic64_read(&d->mem_pages));

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
 * p99 to within a quarter of a power of two); writing 0 starts afresh.
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
		char *end;
		u64 bytes = memparse(capacity[i < nr_capacity ? i : nr_capacity - 1], &end);

		if (*end || bytes < SZ_1M) {
			pr_err("hddsim%d: capacity: want a size of at least 1m\n", i);
			return -EINVAL;
		}
		p->capacity = bytes >> SECTOR_SHIFT;
	}
#define P(f) (p->f = param(f, nr_##f, i, p->f))
	P(rpm); P(heads); P(zones); P(outer_mbps); P(inner_mbps);
	P(track_to_track_us); P(avg_seek_us); P(full_stroke_us);
	P(overhead_us); P(cache_segments); P(segment_kb); P(iface_mbps);
	P(queue_depth); P(ncq_age_ms); P(ncq_age_weight);
#undef P
	/*
	 * The model's write-back cache (FLUSH, FUA, destage) is not wired
	 * into hddsim yet: it runs every preset write-through, and says so.
	 */
	if (p->write_cache)
		pr_info("hddsim%d: write cache not emulated yet: write-through\n", i);
	p->write_cache = 0;
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
	spin_lock_init(&d->lock);
	xa_init(&d->pages);
	kc_hrtimer_setup(&d->timer, hddsim_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
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
	d->disk = hddsim_alloc_disk(&d->set, d, max_kb * 2);
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
	pr_info("hddsim%d: %llu MB, %u rpm, queue depth %u, %s\n", i,
		p.capacity >> 11, p.rpm, depth,
		d->nodata ? "no data" : "RAM-backed");
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
	del_gendisk(d->disk);
	hrtimer_cancel(&d->timer);
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
