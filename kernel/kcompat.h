/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - the one place where the kernel API of the supported
 * kernels (6.1 and 6.12 LTS, and Debian's newest, 7.3) differs for
 * anticipatory and hddsim: one helper per change, chosen by version.
 *
 * Not used: 6.19's optional alloc_sched_data/free_sched_data (data
 * allocated before the queue is frozen). Like mq-deadline in 7.3, the
 * scheduler allocates its small struct in init_sched, which every
 * version calls.
 */
#ifndef ANTIC_KCOMPAT_H
#define ANTIC_KCOMPAT_H

#include <linux/version.h>
#include <linux/backing-dev-defs.h>
#include <linux/jiffies.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "anticipatory needs Linux 6.1 or later"
#endif

/* insert_requests took "bool at_head" before 6.5, blk_insert_t after */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define KC_DEFINE_INSERT_REQUESTS(name, common)				\
static void name(struct blk_mq_hw_ctx *hctx, struct list_head *list,	\
		 blk_insert_t flags)					\
{									\
	common(hctx, list, flags & BLK_MQ_INSERT_AT_HEAD);		\
}
#else
#define KC_DEFINE_INSERT_REQUESTS(name, common)				\
static void name(struct blk_mq_hw_ctx *hctx, struct list_head *list,	\
		 bool at_head)						\
{									\
	common(hctx, list, at_head);					\
}
#endif

/*
 * init_sched: before 6.17 the scheduler allocated its elevator_queue
 * (elevator_alloc) and was passed the type; from 6.17, and in 6.16.y from
 * 6.16.4 where it was backported, the core allocates it (with scheduler
 * tags made ahead, struct elevator_tags), passes it in, and frees it when
 * init_sched fails. Defines PREFIX_init_sched over PREFIX_init_sched_common(q, eq),
 * which sets eq up and assigns q->elevator.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 4)
#define KC_DEFINE_INIT_SCHED(prefix)					\
static int prefix##_init_sched(struct request_queue *q,		\
			       struct elevator_queue *eq)		\
{									\
	return prefix##_init_sched_common(q, eq);			\
}
#else
#define KC_DEFINE_INIT_SCHED(prefix)					\
static int prefix##_init_sched(struct request_queue *q,		\
			       struct elevator_type *e)			\
{									\
	struct elevator_queue *eq = elevator_alloc(q, e);		\
	int ret;							\
									\
	if (!eq)							\
		return -ENOMEM;						\
	ret = prefix##_init_sched_common(q, eq);			\
	if (ret)							\
		kobject_put(&eq->kobj);					\
	return ret;							\
}
#endif

/*
 * depth_updated and the async depth limit_depth hands out: before 6.18
 * depth_updated ran per hardware context (the scheduler called it from
 * init_hctx) and shallow_depth counted tags of one sbitmap word; from
 * 6.18 it runs per queue (the scheduler calls it from init_sched, after
 * the core assigned the scheduler tags), shallow_depth counts all of the
 * queue's scheduler tags, and blk_mq_set_min_shallow_depth() tells every
 * hardware context. @set_depth(q, tags) returns and keeps the async limit
 * out of @tags. NAME_init_sched and NAME_init_hctx call NAME where this
 * kernel wants it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define KC_DEFINE_DEPTH_UPDATED(name, set_depth)			\
static void name(struct request_queue *q)				\
{									\
	blk_mq_set_min_shallow_depth(q, set_depth(q, q->nr_requests));	\
}									\
static inline void name##_init_sched(struct request_queue *q)		\
{									\
	name(q);							\
}									\
static inline void name##_init_hctx(struct blk_mq_hw_ctx *hctx)	\
{									\
}
#else
#define KC_DEFINE_DEPTH_UPDATED(name, set_depth)			\
static void name(struct blk_mq_hw_ctx *hctx)				\
{									\
	struct sbitmap_queue *bt = &hctx->sched_tags->bitmap_tags;	\
									\
	sbitmap_queue_min_shallow_depth(bt,				\
		set_depth(hctx->queue, 1U << bt->sb.shift));		\
}									\
static inline void name##_init_sched(struct request_queue *q)		\
{									\
}									\
static inline void name##_init_hctx(struct blk_mq_hw_ctx *hctx)	\
{									\
	name(hctx);							\
}
#endif

/* hrtimer_setup() (6.13) sets the callback with the clock; hrtimer_init() is gone by 7.x */
static inline void kc_hrtimer_setup(struct hrtimer *timer,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/* blk_queue_rot() came in 7.0 (with bdev_rot); blk_queue_nonrot() is gone by 7.2 */
static inline bool kc_queue_rotational(struct request_queue *q)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
	return blk_queue_rot(q);
#else
	return !blk_queue_nonrot(q);
#endif
}

/*
 * A task slept in balance_dirty_pages() within the last second: wbt's own
 * test (wb_recent_wait). 6.8 moved the time from the root bdi_writeback
 * (wb.dirty_sleep, which cgroup writeback's sleeps missed) to the bdi
 * (last_bdp_sleep). Not checked here: 6.6.y and 6.7.y, if a stable
 * release took that change, need the 6.8 branch from that sublevel.
 */
static inline bool kc_dirty_throttled_recently(struct request_queue *q)
{
	struct backing_dev_info *bdi = q->disk ? q->disk->bdi : NULL;

	if (!bdi)
		return false;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	return time_before(jiffies, READ_ONCE(bdi->last_bdp_sleep) + HZ);
#else
	return time_before(jiffies, READ_ONCE(bdi->wb.dirty_sleep) + HZ);
#endif
}

/* tag sets asked for bio merging until 6.14, where it became the default */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define KC_BLK_MQ_F_MERGE	0
#else
#define KC_BLK_MQ_F_MERGE	BLK_MQ_F_SHOULD_MERGE
#endif

/*
 * hddsim: a rotational disk, with a volatile write cache when its
 * preset has one. Limits moved into blk_mq_alloc_disk() in 6.9, and the
 * rotational flag, the write cache and FUA became features in 6.11.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static inline struct gendisk *hddsim_alloc_disk(struct blk_mq_tag_set *set,
						void *data,
						unsigned int max_sectors,
						bool write_cache)
{
	struct queue_limits lim = {
		.logical_block_size = 512,
		.physical_block_size = 4096,
		.max_hw_sectors = max_sectors,
		.features = BLK_FEAT_ROTATIONAL,
	};

	if (write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	return blk_mq_alloc_disk(set, &lim, data);
}

/*
 * Tell the block layer whether the disk has a volatile write cache (it
 * then sends FLUSH and FUA). Process context; with no request of the
 * caller's waiting on the queue (it is frozen meanwhile).
 */
static inline int kc_set_write_cache(struct request_queue *q, bool on)
{
	struct queue_limits lim = queue_limits_start_update(q);

	if (on)
		lim.features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	else
		lim.features &= ~(BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA);
	return queue_limits_commit_update_frozen(q, &lim);
}
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
static inline struct gendisk *hddsim_alloc_disk(struct blk_mq_tag_set *set,
						void *data,
						unsigned int max_sectors,
						bool write_cache)
{
	struct gendisk *disk = blk_mq_alloc_disk(set, data);

	if (IS_ERR(disk))
		return disk;
	blk_queue_logical_block_size(disk->queue, 512);
	blk_queue_physical_block_size(disk->queue, 4096);
	blk_queue_max_hw_sectors(disk->queue, max_sectors);
	blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_write_cache(disk->queue, write_cache, write_cache);
	return disk;
}

/* As above: before 6.11 the write cache and FUA were queue flags. */
static inline int kc_set_write_cache(struct request_queue *q, bool on)
{
	blk_queue_write_cache(q, on, on);
	return 0;
}
#else
#error "hddsim supports 6.1-6.8 and 6.11 on"
#endif

#endif /* ANTIC_KCOMPAT_H */
