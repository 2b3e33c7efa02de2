/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - the one place where the elevator API of the supported
 * kernels (6.1 and 6.12 LTS) differs for anticipatory and hddsim. Kernels after
 * 6.12 (6.17 moved elevator queue allocation and changed depth_updated)
 * would add their differences here.
 */
#ifndef ANTIC_KCOMPAT_H
#define ANTIC_KCOMPAT_H

#include <linux/version.h>

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
 * hddsim: a rotational, write-through disk. Limits moved into
 * blk_mq_alloc_disk() in 6.9 and the rotational flag became a feature
 * in 6.11.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static inline struct gendisk *hddsim_alloc_disk(struct blk_mq_tag_set *set,
						void *data,
						unsigned int max_sectors)
{
	struct queue_limits lim = {
		.logical_block_size = 512,
		.physical_block_size = 4096,
		.max_hw_sectors = max_sectors,
		.features = BLK_FEAT_ROTATIONAL,
	};

	return blk_mq_alloc_disk(set, &lim, data);
}
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
static inline struct gendisk *hddsim_alloc_disk(struct blk_mq_tag_set *set,
						void *data,
						unsigned int max_sectors)
{
	struct gendisk *disk = blk_mq_alloc_disk(set, data);

	if (IS_ERR(disk))
		return disk;
	blk_queue_logical_block_size(disk->queue, 512);
	blk_queue_physical_block_size(disk->queue, 4096);
	blk_queue_max_hw_sectors(disk->queue, max_sectors);
	blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_write_cache(disk->queue, false, false);
	return disk;
}
#else
#error "hddsim supports 6.1-6.8 and 6.11-6.12"
#endif

#endif /* ANTIC_KCOMPAT_H */
